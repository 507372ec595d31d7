"""History page speed: GET /api/tables/<id>/history after each new event of a long table, the
reply built afresh each time (it is kept only until the next event).

    python bench/history_bench.py [--events 500] [--runs 30] [--seed 7]

Plays a seeded, legal Complex Toss Rummy log of ``--events`` events into the app (Flask's test
client over a real SQLite file), then times ``--runs`` rounds of one more event (a correction)
followed by GET /history, and prints the best and median time of the GET alone, and of the
first GET after a start (the notes folded from the log once).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from simulate import bench_setup, random_game  # noqa: E402  (the tests' simulator of legal games)

from web import create_app  # noqa: E402

#: ``simulate.bench_setup`` as the API's setup.
SETUP: dict[str, Any] = {
    "players": ["ann", "bob", "cy", "dee"],
    "teams": [{"name": "North", "members": ["ann", "cy"]},
              {"name": "South", "members": ["bob", "dee"]}],
    "options": {"ruleset": "complex-toss-rummy", "goal": 1_000_000},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=500)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    database = str(Path(tempfile.mkdtemp()) / "history.sqlite")
    app = create_app({"TESTING": True, "DATABASE": database, "SYNCHRONOUS": "NORMAL"})
    client = app.test_client()
    table = client.post("/api/tables", json=SETUP).json
    headers = {"Authorization": f"Bearer {table['keeper_token']}"}
    url = f"/api/tables/{table['table_id']}"
    events = random_game(bench_setup(), seed=args.seed, max_events=args.events)
    seq = 0
    for event in events:
        seq = client.post(f"{url}/events", headers=headers,
                          json={"base_seq": seq, "event": event}).json["seq"]
    times = []
    for n in range(args.runs):
        seq = client.post(f"{url}/events", headers=headers, json={"base_seq": seq, "event": {
            "type": "correction", "target": "North", "points": 1 if n % 2 else -1,
            "reason": "bench"}}).json["seq"]
        start = time.perf_counter()
        reply = client.get(f"{url}/history", headers=headers)
        times.append(time.perf_counter() - start)
        assert reply.status_code == 200 and reply.json["seq"] == seq
    app.extensions["scorekeeper.store"].close()
    cold = create_app({"TESTING": True, "DATABASE": database})
    start = time.perf_counter()
    assert cold.test_client().get(f"{url}/history", headers=headers).status_code == 200
    first = time.perf_counter() - start
    cold.extensions["scorekeeper.store"].close()
    print(f"table: {seq} events; GET /history after each new event ({args.runs} runs): "
          f"best {min(times) * 1000:.1f} ms, median {statistics.median(times) * 1000:.1f} ms; "
          f"first GET after a start: {first * 1000:.1f} ms")


if __name__ == "__main__":
    main()
