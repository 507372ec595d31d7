"""Seating a round of a club night.

Round 1 is random (a seeded shuffle, so the same seed seats the same night again). Later
rounds are Swiss-style: players in standings order, the strongest together, and among the
seatings with the fewest repeat opponents the one closest to plain standings order is taken.

>>> table_sizes(9, 3)
([3, 3, 3], 0)
>>> table_sizes(7, 2)
([3, 2, 2], 0)
>>> table_sizes(7, 4, byes=True)
([4], 3)
>>> s = seat_round(["a", "b", "c", "d", "e", "f"], 3, round_no=2, met={("a", "b"): 1})
>>> s.tables
[['a', 'c', 'd'], ['b', 'e', 'f']]
>>> repeats(s.tables, {("a", "b"): 1})
0
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

MIN_SEATS, MAX_SEATS = 2, 6
#: Partial seatings the exact search may look at before it settles for the best found.
SEARCH_BUDGET = 60_000

Pair = tuple[str, str]


class SeatingError(ValueError):
    """A round that cannot be seated as asked (seats out of range, a name twice)."""


@dataclass(frozen=True)
class Seating:
    """One round's tables (each a list of names in seat order) and the players with a bye."""

    tables: list[list[str]]
    byes: list[str] = field(default_factory=list)


def pair(a: str, b: str) -> Pair:
    """The key of two players who met, whichever order they are given in."""
    return (a, b) if a <= b else (b, a)


def met_counts(rounds: Iterable[Sequence[Sequence[str]]]) -> dict[Pair, int]:
    """How often each pair sat at one table, from earlier rounds' tables.

    >>> met_counts([[["a", "b", "c"]], [["a", "b"]]])[("a", "b")]
    2
    """
    met: dict[Pair, int] = {}
    for tables in rounds:
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                met[pair(a, b)] = met.get(pair(a, b), 0) + 1
    return met


def repeats(tables: Iterable[Sequence[str]], met: Mapping[Pair, int]) -> int:
    """Repeat meetings in a seating: each pair at one table counts as often as it met before."""
    return sum(met.get(pair(a, b), 0)
               for table in tables for a, b in itertools.combinations(table, 2))


def check_seats(seats: int) -> None:
    if isinstance(seats, bool) or not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise SeatingError(f"seats per table must be a whole number from {MIN_SEATS} to "
                           f"{MAX_SEATS}, not {seats!r}")


def table_sizes(count: int, seats: int, *, byes: bool = False,
                pairs: bool = False) -> tuple[list[int], int]:
    """Table sizes for ``count`` players at tables of ``seats``, largest first, and how many
    sit out with a bye.

    By default nobody sits out: as few tables as hold everyone, sizes differing by at most
    one (two-seat tables with an odd count get one table of three); a lone player has a bye.
    With ``byes`` every table is full and the rest sit out (a night of one table size).
    With ``pairs`` (partnership games) tables hold whole partnerships of two: every table is
    full and any player left over has a bye.

    >>> table_sizes(10, 4)
    ([4, 3, 3], 0)
    >>> table_sizes(1, 4)
    ([], 1)
    >>> table_sizes(9, 4, pairs=True)
    ([4, 4], 1)
    """
    check_seats(seats)
    if count < 0:
        raise SeatingError("the number of players cannot be negative")
    if pairs:
        if seats % 2:
            raise SeatingError(f"partnership tables seat teams of two: use 4 or 6 seats, "
                               f"not {seats}")
        return [seats] * (count // seats), count % seats
    if byes and count >= seats:
        return [seats] * (count // seats), count % seats
    if count < MIN_SEATS:
        return [], count
    tables = -(-count // seats)
    if count // tables < MIN_SEATS:
        tables = count // MIN_SEATS
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra), 0


def first_round(players: Sequence[str], sizes: Sequence[int], seed: str) -> list[list[str]]:
    """Round 1: a seeded shuffle cut into tables (the same seed gives the same tables)."""
    order = list(players)
    random.Random(f"{seed}:1").shuffle(order)
    return cut(order, sizes)


def cut(order: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    tables, at = [], 0
    for size in sizes:
        tables.append(list(order[at:at + size]))
        at += size
    return tables


def swiss(ranked: Sequence[str], sizes: Sequence[int], met: Mapping[Pair, int],
          budget: int = SEARCH_BUDGET) -> list[list[str]]:
    """Later rounds: the fewest repeat meetings, and among those the seating closest to plain
    standings order (the leader's table takes the next strongest it may).

    Tables are filled from the top: each takes the strongest player not yet seated and the
    others in standings order (a larger table before a smaller one), searched depth first
    with the repeats so far as the bound.
    The search is exact for small nights; past ``budget`` steps it keeps the best seating found
    and improves it by swapping players between tables while that removes repeats.
    """
    best: list[list[str]] = cut(ranked, sizes)
    best_cost = repeats(best, met)
    steps = 0

    def search(left_sizes: tuple[int, ...], remaining: list[str], cost: int,
               chosen: list[list[str]]) -> None:
        nonlocal best, best_cost, steps
        if not left_sizes:
            if cost < best_cost:
                best, best_cost = [list(table) for table in chosen], cost
            return
        anchor, rest = remaining[0], remaining[1:]
        for size in dict.fromkeys(left_sizes):  # each distinct size, larger first
            after = list(left_sizes)
            after.remove(size)
            for others in itertools.combinations(rest, size - 1):
                steps += 1
                if steps > budget or best_cost == 0:
                    return
                table = [anchor, *others]
                table_cost = repeats([table], met)
                if cost + table_cost >= best_cost:
                    continue
                left = [p for p in rest if p not in others]
                search(tuple(after), left, cost + table_cost, [*chosen, table])

    if best_cost:
        search(tuple(sizes), list(ranked), 0, [])
    if best_cost and steps > budget:
        best = improve(best, met)
    return best


def improve(tables: list[list[str]], met: Mapping[Pair, int]) -> list[list[str]]:
    """Swap players between tables while a swap removes repeat meetings (large nights)."""
    tables = [list(table) for table in tables]
    better = True
    while better:
        better = False
        for i, j in itertools.combinations(range(len(tables)), 2):
            before = repeats([tables[i], tables[j]], met)
            for x, y in itertools.product(range(len(tables[i])), range(len(tables[j]))):
                tables[i][x], tables[j][y] = tables[j][y], tables[i][x]
                if repeats([tables[i], tables[j]], met) < before:
                    better = True
                    before = repeats([tables[i], tables[j]], met)
                else:
                    tables[i][x], tables[j][y] = tables[j][y], tables[i][x]
    return tables


def pick_byes(ranked: Sequence[str], count: int, byes_had: Mapping[str, int],
              round_no: int, seed: str) -> list[str]:
    """Who sits out: in round 1 drawn by lot, later the lowest placed of those with the
    fewest byes so far."""
    if count <= 0:
        return []
    if round_no == 1:
        order = list(ranked)
        random.Random(f"{seed}:byes").shuffle(order)
        return order[:count]
    lowest_first = list(reversed(ranked))
    return sorted(lowest_first, key=lambda p: byes_had.get(p, 0))[:count]


def seat_round(ranked: Sequence[str], seats: int, *, round_no: int, seed: str = "",
               met: Mapping[Pair, int] | None = None, byes: bool = False, pairs: bool = False,
               byes_had: Mapping[str, int] | None = None) -> Seating:
    """Seat one round. ``ranked`` lists the players present in standings order (any order
    for round 1); ``met`` counts earlier meetings (keys from :func:`pair`)."""
    if len(set(ranked)) != len(ranked):
        twice = sorted({p for p in ranked if list(ranked).count(p) > 1})
        raise SeatingError(f"{twice[0]!r} is listed twice: each player takes one seat")
    sizes, bye_count = table_sizes(len(ranked), seats, byes=byes, pairs=pairs)
    out = pick_byes(ranked, bye_count, byes_had or {}, round_no, seed)
    playing = [p for p in ranked if p not in out]
    if round_no <= 1:
        seated = first_round(playing, sizes, seed)
    else:
        norm = {pair(*k): v for k, v in (met or {}).items()}
        seated = swiss(playing, sizes, norm)
    return Seating(seated, sorted(out, key=list(ranked).index))
