"""Property tests of the club's seating rule: everyone seated once a round, tables of 2 to 6,
and repeat opponents as few as a brute force over every seating finds."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.club.seating import (
    SeatingError,
    met_counts,
    pair,
    repeats,
    seat_round,
    table_sizes,
)

NAMES = [f"p{i:02d}" for i in range(40)]


def partitions(players: list[str], sizes: list[int]) -> Iterator[list[list[str]]]:
    """Every way to seat ``players`` at tables of ``sizes`` (table order ignored where sizes
    are equal, seat order ignored)."""
    if not sizes:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for others in itertools.combinations(rest, size - 1):
            remaining = [p for p in rest if p not in others]
            for tail in partitions(remaining, left):
                yield [[first, *others], *tail]


@st.composite
def nights(draw: st.DrawFn, most: int = 40) -> tuple[list[str], int, dict[tuple[str, str], int]]:
    count = draw(st.integers(0, most))
    seats = draw(st.integers(2, 6))
    players = NAMES[:count]
    pairs = list(itertools.combinations(players, 2))
    met = {}
    if pairs:
        for a, b in draw(st.lists(st.sampled_from(pairs), max_size=3 * count)):
            met[pair(a, b)] = met.get(pair(a, b), 0) + 1
    return players, seats, met


@settings(max_examples=150, deadline=None)
@given(nights(), st.integers(1, 4), st.booleans(), st.text(max_size=6))
def test_everyone_seated_once_at_tables_of_two_to_six(night, round_no, byes, seed):
    players, seats, met = night
    seating = seat_round(players, seats, round_no=round_no, seed=seed, met=met, byes=byes)
    seated = [p for table in seating.tables for p in table] + seating.byes
    assert sorted(seated) == sorted(players)
    assert all(2 <= len(table) <= 6 for table in seating.tables)
    if byes and len(players) >= seats:
        assert all(len(table) == seats for table in seating.tables)
        assert len(seating.byes) == len(players) % seats
    elif len(players) >= 2:
        assert not seating.byes  # nobody sits out unless byes were asked for
        sizes = [len(t) for t in seating.tables]
        assert max(sizes) - min(sizes) <= 1


@settings(max_examples=120, deadline=None)
@given(nights(most=9), st.integers(2, 5))
def test_repeat_opponents_are_as_few_as_brute_force_finds(night, round_no):
    players, seats, met = night
    seating = seat_round(players, seats, round_no=round_no, met=met)
    sizes, _ = table_sizes(len(players), seats)
    if not sizes:
        return
    fewest = min(repeats(tables, met) for tables in partitions(players, sizes))
    assert repeats(seating.tables, met) == fewest


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 30), st.integers(2, 6), st.text(max_size=6))
def test_round_one_is_a_reproducible_draw(count, seats, seed):
    players = NAMES[:count]
    first = seat_round(players, seats, round_no=1, seed=seed)
    assert seat_round(players, seats, round_no=1, seed=seed) == first


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 24), st.sampled_from([3, 4, 5, 6]), st.randoms(use_true_random=False))
def test_a_whole_night_seats_everyone_every_round(count, seats, rnd):
    """Rounds seated one after another, standings shuffled between them as results would."""
    players = NAMES[:count]
    history: list[list[list[str]]] = []
    ranked = list(players)
    for round_no in range(1, 5):
        seating = seat_round(ranked, seats, round_no=round_no, seed="x",
                             met=met_counts(history))
        assert sorted(p for t in seating.tables for p in t) == sorted(players)
        history.append(seating.tables)
        rnd.shuffle(ranked)


def test_later_rounds_seat_the_strongest_together_when_nobody_met():
    ranked = NAMES[:9]
    seating = seat_round(ranked, 3, round_no=2, met={})
    assert seating.tables == [ranked[0:3], ranked[3:6], ranked[6:9]]


def test_a_repeat_pairing_is_broken_up_by_the_next_strongest():
    ranked = NAMES[:6]
    met = {pair(ranked[0], ranked[1]): 1}
    seating = seat_round(ranked, 3, round_no=2, met=met)
    assert seating.tables == [[ranked[0], ranked[2], ranked[3]], [ranked[1], ranked[4], ranked[5]]]


def test_byes_go_to_the_lowest_placed_without_one():
    ranked = NAMES[:7]
    seating = seat_round(ranked, 3, round_no=2, byes=True, byes_had={ranked[6]: 1})
    assert seating.byes == [ranked[5]]


def test_large_night_beyond_the_exact_search_still_removes_repeats():
    ranked = NAMES[:36]
    earlier = [ranked[i:i + 6] for i in range(0, 36, 6)]
    seating = seat_round(ranked, 6, round_no=2, met=met_counts([earlier]))
    assert repeats(seating.tables, met_counts([earlier])) == 0


@pytest.mark.parametrize(("players", "seats", "message"), [
    (["a", "b"], 7, "from 2 to 6"),
    (["a", "b"], 1, "from 2 to 6"),
    (["a", "a", "b"], 3, "listed twice"),
])
def test_bad_seating_requests_are_refused(players, seats, message):
    with pytest.raises(SeatingError, match=message):
        seat_round(players, seats, round_no=1)


def test_partnerships_need_even_tables():
    with pytest.raises(SeatingError, match="4 or 6 seats"):
        table_sizes(8, 3, pairs=True)
