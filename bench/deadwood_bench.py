"""Deadwood solver timings: median and p99 per hand, for seeded random hands.

    python bench/deadwood_bench.py [--hands N] [--seed S]

Three Thirteen: 13-card hands of hand 11 (kings wild) holding all four kings plus nine other
cards, random and "dense" (the nine drawn from two suits, so runs and gaps abound), and with two
decks (three or four players: duplicates, up to six wilds); Tong-Its:
random 13-card hands and dense ones (from two suits). Target: under 5 ms per hand.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence

from scorekeeper.cards import KING, Card, standard_deck
from scorekeeper.deadwood import TONG_ITS, MeldRules, solve, three_thirteen

TARGET_MS = 5.0


def time_hands(hands: Sequence[Sequence[Card]], rules: MeldRules) -> list[float]:
    times = []
    for hand in hands:
        start = time.perf_counter()
        solve(hand, rules)
        times.append((time.perf_counter() - start) * 1000)
    return times


def report(label: str, times: list[float]) -> bool:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    ok = p99 < TARGET_MS
    print(f"{label:<48} n={len(times):<5} median={statistics.median(times):6.3f} ms  "
          f"p99={p99:6.3f} ms  max={ordered[-1]:6.3f} ms  {'OK' if ok else 'OVER'} "
          f"(target {TARGET_MS} ms)")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    deck = list(standard_deck())
    kings = [c for c in deck if c.rank == KING]
    others = [c for c in deck if c.rank != KING]
    dense_others = [c for c in others if c.suit in ("he", "sp")]
    dense = [c for c in deck if c.suit in ("he", "sp")]

    def draw(make: Callable[[], list[Card]]) -> list[list[Card]]:
        return [make() for _ in range(args.hands)]

    cases = [
        ("Three Thirteen, hand 11, 4 wilds, random", three_thirteen(11),
         draw(lambda: kings + rng.sample(others, 9))),
        ("Three Thirteen, hand 11, 4 wilds, dense", three_thirteen(11),
         draw(lambda: kings + rng.sample(dense_others, 9))),
        ("Three Thirteen, hand 11, 4 wilds, two decks", three_thirteen(11),
         draw(lambda: rng.sample(kings * 2, 4) + rng.sample(others * 2, 9))),
        ("Three Thirteen, hand 11, 6 wilds, two decks", three_thirteen(11),
         draw(lambda: rng.sample(kings * 2, 6) + rng.sample(dense_others * 2, 7))),
        ("Tong-Its, 13 cards, random", TONG_ITS, draw(lambda: rng.sample(deck, 13))),
        ("Tong-Its, 13 cards, dense", TONG_ITS, draw(lambda: rng.sample(dense, 13))),
    ]
    solve(cases[0][2][0], cases[0][1])  # warm up imports and caches
    ok = all([report(label, time_hands(hands, rules)) for label, rules, hands in cases])
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
