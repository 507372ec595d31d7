"""Club seating figures: the time to seat a round and the repeat meetings left, for nights of
9 to 180 players over several rounds (standings shuffled between rounds, as results would).

    python bench/seating_bench.py [--rounds 6]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from scorekeeper.club.seating import met_counts, repeats, seat_round

NIGHTS = [(9, 3), (24, 4), (60, 6), (120, 4), (180, 6)]


def night(players: int, seats: int, rounds: int) -> tuple[list[float], list[int]]:
    ranked = [f"p{i}" for i in range(players)]
    history: list[list[list[str]]] = []
    times, left = [], []
    rnd = random.Random(players)
    for round_no in range(1, rounds + 1):
        met = met_counts(history)
        start = time.perf_counter()
        seating = seat_round(ranked, seats, round_no=round_no, seed="bench", met=met)
        times.append(time.perf_counter() - start)
        left.append(repeats(seating.tables, met))
        history.append(seating.tables)
        rnd.shuffle(ranked)
    return times, left


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    print(f"{'players':>8} {'seats':>5} {'median ms':>10} {'max ms':>8}  repeats per round")
    for players, seats in NIGHTS:
        times, left = night(players, seats, args.rounds)
        print(f"{players:>8} {seats:>5} {statistics.median(times) * 1000:>10.1f} "
              f"{max(times) * 1000:>8.1f}  {left}")


if __name__ == "__main__":
    main()
