"""Replay speed of the one fold (scorekeeper.log) over the Toss engine: a seeded, legal
2,000-event Complex Toss Rummy log.

    python bench/replay_bench.py [--events 2000] [--runs 15] [--seed 7]

The log is built by ``random_game`` of ``tests/simulate.py`` (four players in two teams;
melds, lay-offs, Tosses, DoubleCrosses, Steals, next turns, end-hands and undos). The goal is
set out of reach (option ``goal``) so that one game lasts the whole log. Every replay folds
the whole log from the initial state; the target is under 50 ms on one core.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from scorekeeper.log import replay

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from simulate import bench_setup, random_game  # noqa: E402  (the tests' simulator of legal games)

TARGET_MS = 50.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    setup = bench_setup()
    built = time.perf_counter()
    events = random_game(setup, seed=args.seed, max_events=args.events)
    built = time.perf_counter() - built
    events = json.loads(json.dumps(events))  # replay the log as stored: plain JSON
    kinds = Counter(e["type"] for e in events)
    print(f"log: {len(events)} events (seed {args.seed}, built in {built:.2f} s): "
          + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))

    times = []
    state = None
    for _ in range(args.runs):
        start = time.perf_counter()
        state = replay(setup, events)
        times.append(time.perf_counter() - start)
    assert state is not None
    best = min(times) * 1000
    median = statistics.median(times) * 1000
    print(f"final: hand {state.hand_no}, phase {state.phase}, events in effect "
          f"{state.events_applied}, boards "
          + ", ".join(f"{b.owner} {b.score}" for b in state.boards()))
    print(f"replay of {len(events)} events over {args.runs} runs: best {best:.1f} ms, "
          f"median {median:.1f} ms, {len(events) / min(times):,.0f} events/s (best); "
          f"target < {TARGET_MS:.0f} ms: {'met' if best < TARGET_MS else 'NOT met'}")


if __name__ == "__main__":
    main()
