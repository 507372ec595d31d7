"""Amendment speed of the one fold: amend the first meld of a seeded, legal 2,000-event Complex
Toss Rummy log, so that every later event is checked again by the rules.

    python bench/amend_bench.py [--events 2000] [--runs 15] [--seed 7]

Prints the time to fold the whole log through ``scorekeeper.log`` (with the events in effect
kept for amendments), and the time of one amendment of the earliest meld (the meld amended to
itself: every later event still holds, so the whole rest of the log is folded again).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from scorekeeper import log

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from simulate import bench_setup, random_game  # noqa: E402  (the tests' simulator of legal games)


def timed(runs: int, work: Callable[[], object]) -> tuple[float, float]:
    """Best and median milliseconds of ``runs`` calls of ``work``."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times) * 1000, statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    setup = bench_setup()
    events = json.loads(json.dumps(random_game(setup, seed=args.seed, max_events=args.events)))
    fold = log.begin(setup)
    for event in events:
        fold = log.step(fold, event)
    first = next(e for e in fold.entries if e.event["type"] == "meld")
    amendment = {"type": "amend", "target": first.seq, "event": dict(first.event),
                 "reason": "bench"}
    print(f"log: {len(events)} events, {len(fold.entries)} in effect; amending update "
          f"{first.seq} re-checks {len(fold.entries) - fold.entries.index(first) - 1} later "
          "events")
    best, median = timed(args.runs, lambda: log.replay(setup, events))
    print(f"fold of the whole log: best {best:.1f} ms, median {median:.1f} ms")
    best, median = timed(args.runs, lambda: log.step(fold, amendment))
    print(f"one amendment of the first meld: best {best:.1f} ms, median {median:.1f} ms")


if __name__ == "__main__":
    main()
