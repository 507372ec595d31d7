"""Benchmark: meld verdicts per second on one core (target: under 20 µs per verdict).

Validates 100,000 melds of 3-7 cards, a seeded random mix of valid sets, sequences (with
jokers) and joker sets and of random, mostly invalid, draws from the deck, and prints the total
time, µs per verdict (mean, p50, p99) and verdicts per second.

    python bench/meld_bench.py [--count 100000] [--seed 7]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable

from scorekeeper.cards import SUIT_COLOURS, SUITS, Card, toss_deck
from scorekeeper.melds import judge_meld
from scorekeeper.rulesets import COMPLEX, TOSS_RUMMY, TossOptions

JOKERS = [Card(joker=kind) for kind in ("boss", "black", "red", "gold", "blue")]
POSITIONS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1]  # position 14 is the ace high


def valid_set(rnd: random.Random) -> list[Card]:
    rank = rnd.randint(1, 13)
    size = rnd.randint(3, 7)
    naturals = [Card(rank, s) for s in rnd.sample(SUITS, min(size, 8))]
    jokers = rnd.randint(0, min(2, size - 1))
    return naturals[: size - jokers] + rnd.sample(JOKERS, jokers)


def valid_sequence(rnd: random.Random) -> list[Card]:
    suit = rnd.choice(SUITS)
    size = rnd.randint(3, 7)
    first = rnd.randint(1, 14 - size + 1)
    cards = [Card(POSITIONS[p - 1], suit) for p in range(first, first + size)]
    wild = [Card(joker="boss"), Card(joker=SUIT_COLOURS[suit])]
    for joker, spot in zip(wild, rnd.sample(range(size), rnd.randint(0, 2)), strict=False):
        cards[spot] = joker
    rnd.shuffle(cards)
    return cards


def random_draw(rnd: random.Random, deck: list[Card]) -> list[Card]:
    return rnd.sample(deck, rnd.randint(3, 7))


def near_sequence(rnd: random.Random) -> list[Card]:
    """A sequence with one card changed: a wrong suit, a gap, a wrap or a wrong-coloured joker."""
    cards = valid_sequence(rnd)
    spot = rnd.randrange(len(cards))
    while True:
        other = rnd.choice([Card(rnd.randint(1, 13), rnd.choice(SUITS)), *JOKERS])
        if other not in cards:
            cards[spot] = other
            return cards


def melds(count: int, seed: int) -> list[tuple[list[Card], TossOptions]]:
    rnd = random.Random(seed)
    deck = list(toss_deck())
    options = [TossOptions(), TossOptions(ruleset=TOSS_RUMMY), TossOptions(ace="high"),
               TossOptions(ruleset=COMPLEX, ace="low")]
    def draw(r: random.Random) -> list[Card]:
        return random_draw(r, deck)

    def joker_set(r: random.Random) -> list[Card]:
        return r.sample(JOKERS, r.randint(3, 5))

    makers: list[Callable[[random.Random], list[Card]]] = [
        valid_set, valid_sequence, valid_sequence, near_sequence, draw, joker_set,
    ]
    return [(rnd.choice(makers)(rnd), rnd.choice(options)) for _ in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    sample = melds(args.count, args.seed)
    for cards, options in sample[:1000]:  # warm up
        judge_meld(cards, options)
    timings: list[int] = []
    valid = 0
    clock = time.perf_counter_ns
    started = clock()
    for cards, options in sample:
        t0 = clock()
        verdict = judge_meld(cards, options)
        timings.append(clock() - t0)
        valid += verdict.valid
    total = (clock() - started) / 1e9
    timings.sort()
    per = [t / 1000 for t in timings]
    mean = statistics.fmean(per)
    print(f"melds judged:  {len(sample):,} ({valid:,} valid, {len(sample) - valid:,} invalid)")
    print(f"total time:    {total:.3f} s (one core, timing overhead included)")
    print(f"µs per verdict: mean {mean:.2f}, p50 {per[len(per) // 2]:.2f},"
          f" p99 {per[int(len(per) * 0.99)]:.2f}, max {per[-1]:.2f}")
    print(f"verdicts/s:    {len(sample) / total:,.0f}")
    print(f"target:        mean under 20 µs per verdict -> {'met' if mean < 20 else 'NOT met'}")


if __name__ == "__main__":
    main()
