"""The deadwood solver: worked hands, edge cases, and exactness against a brute-force reference."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.cards import Card, parse_cards, standard_deck
from scorekeeper.deadwood import (
    TONG_ITS,
    DeadwoodError,
    MeldRules,
    face_value,
    is_meld,
    solve,
    three_thirteen,
)


def codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


def brute_force(cards: Sequence[Card], rules: MeldRules) -> int:
    """Minimum deadwood by trying every partition of the hand into melds and unmatched cards."""
    hand = tuple(sorted(cards, key=lambda c: (c.suit or "", c.rank)))

    @cache
    def best(rest: tuple[Card, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        result = face_value(first) + best(others)
        n = len(others)
        for bits in range(1, 1 << n):
            chosen = [others[i] for i in range(n) if bits >> i & 1]
            if len(chosen) < 2 or not is_meld([first, *chosen], rules):
                continue
            left = tuple(others[i] for i in range(n) if not bits >> i & 1)
            result = min(result, best(left))
        return result

    return best(hand)


def check_arrangement(cards: Sequence[Card], rules: MeldRules) -> int:
    """Solve, and check that the reported melds and unmatched cards are the hand exactly."""
    result = solve(cards, rules)
    used = [c for meld in result.melds for c in meld] + list(result.unmatched)
    assert Counter(used) == Counter(cards)
    for meld in result.melds:
        assert is_meld(meld, rules), codes(meld)
    assert result.deadwood == sum(face_value(c) for c in result.unmatched)
    return result.deadwood


# --- worked hands -----------------------------------------------------------------------------

def test_tong_its_run_and_set() -> None:
    hand = parse_cards("Ahe 2he 3he 7cl 7sp 7di Kcl")
    result = solve(hand, TONG_ITS)
    assert result.deadwood == 10
    assert codes(result.unmatched) == ["Kcl"]
    assert sorted(sorted(codes(m)) for m in result.melds) == [
        ["2he", "3he", "Ahe"], ["7cl", "7di", "7sp"],
    ]


def test_tong_its_aces_are_low_only() -> None:
    # Q-K-A is not a run in Tong-Its: every card is deadwood.
    assert solve(parse_cards("Qsp Ksp Asp"), TONG_ITS).deadwood == 21
    assert solve(parse_cards("Asp 2sp 3sp"), TONG_ITS).deadwood == 0


def test_tong_its_sets_hold_four_at_most_and_no_wilds() -> None:
    # With two decks five 9s cannot be one set in Tong-Its (three or four of a kind).
    hand = parse_cards("9cl 9sp 9he 9di 9cl")
    assert solve(hand, TONG_ITS).deadwood == 9
    # 3s are plain cards in Tong-Its.
    assert solve(parse_cards("3cl 3he 8sp"), TONG_ITS).deadwood == 14


def test_card_shared_between_set_and_run_chooses_the_better() -> None:
    # 5he can go in the run 3-4-5he or the set of 5s: the solver finds the run + set of the rest.
    hand = parse_cards("3he 4he 5he 5cl 5sp 5di")
    assert check_arrangement(hand, TONG_ITS) == 0


def test_three_thirteen_wilds_fill_gaps_and_extend() -> None:
    rules = three_thirteen(5)  # 7s wild
    result = solve(parse_cards("4cl 6cl 7he 9sp Jsp 7di"), rules)
    assert result.deadwood == 0
    assert len(result.melds) == 2


def test_three_thirteen_wild_only_meld() -> None:
    rules = three_thirteen(1)  # 3s wild
    result = solve(parse_cards("3cl 3he 3sp"), rules)
    assert result.deadwood == 0
    assert sorted(codes(result.melds[0])) == ["3cl", "3he", "3sp"]


def test_unmatched_wilds_count_their_own_value() -> None:
    rules = three_thirteen(11)  # kings wild, worth 10 each when unmatched
    result = solve(parse_cards("Kcl Khe"), rules)
    assert result.deadwood == 20
    assert sorted(codes(result.unmatched)) == ["Kcl", "Khe"]


def test_leftover_wilds_join_an_existing_meld() -> None:
    rules = three_thirteen(2)  # 4s wild
    result = solve(parse_cards("9cl 9sp 9he 4cl 4di"), rules)
    assert result.deadwood == 0
    assert len(result.melds) == 1 and len(result.melds[0]) == 5


def test_three_thirteen_thirteen_cards_four_wilds() -> None:
    rules = three_thirteen(6)  # 8s wild
    hand = parse_cards("8cl 8sp 8he 8di Acl 2cl 4cl 5sp 6sp Kdi Qdi 9he 10he")
    assert check_arrangement(hand, rules) == 0  # A-2-w-4, 5-6-w, w-Q-K, 9-10-w
    # Four melds need all four wilds; here the best is J-Q-w, 5-6-w, K-w-w and 26 - 10 left.
    hand = parse_cards("8cl 8sp 8he 8di Acl 5sp Kdi 2he 9he Qcl 4di 6sp Jcl")
    assert check_arrangement(hand, rules) == 16


def test_three_thirteen_queen_king_ace_is_not_a_run() -> None:
    rules = three_thirteen(1)
    assert solve(parse_cards("Qdi Kdi Adi"), rules).deadwood == 21


def test_three_thirteen_duplicate_cards_with_two_decks() -> None:
    rules = three_thirteen(1)
    # 7he 7he 7cl is three of a kind; the same card twice cannot both sit in one run.
    assert solve(parse_cards("7he 7he 7cl"), rules).deadwood == 0
    assert solve(parse_cards("7he 7he 8he"), rules).deadwood == 22


def test_empty_hand() -> None:
    result = solve([], TONG_ITS)
    assert result.deadwood == 0 and result.melds == () and result.unmatched == ()


def test_oversized_hand_is_refused() -> None:
    with pytest.raises(DeadwoodError, match="21 cards"):
        solve(list(standard_deck())[:21], TONG_ITS)


def test_jokers_are_refused() -> None:
    with pytest.raises(DeadwoodError, match="jk-red"):
        solve(parse_cards("jk-red 5he 6he"), TONG_ITS)


@pytest.mark.parametrize("hand_no", [0, 12])
def test_hand_number_out_of_range(hand_no: int) -> None:
    with pytest.raises(DeadwoodError, match="hands 1 to 11"):
        three_thirteen(hand_no)


def test_is_meld_reference() -> None:
    rules = three_thirteen(1)
    assert is_meld(parse_cards("5cl 7cl 3he"), rules)
    assert not is_meld(parse_cards("5cl 8cl 3he"), rules)
    assert is_meld(parse_cards("Jcl Qcl 3he 3di"), rules)  # J-Q-K-? can only extend down: 10
    assert not is_meld(parse_cards("Kcl Acl 3he"), rules)
    assert not is_meld(parse_cards("5cl 5sp 5he 5di 5cl"), TONG_ITS)


# --- exactness against the brute-force reference ----------------------------------------------

SMALL_SUITS = ("cl", "he")
SMALL_POOL = [Card(r, s) for s in SMALL_SUITS for r in range(1, 14)]


@st.composite
def small_hands(draw: st.DrawFn, deck: Sequence[Card], copies: int) -> list[Card]:
    pool = [c for c in deck for _ in range(copies)]
    indices = draw(st.lists(st.integers(0, len(pool) - 1), min_size=0, max_size=8, unique=True))
    return [pool[i] for i in indices]


@settings(max_examples=150, deadline=None)
@given(small_hands(standard_deck(), 1))
def test_tong_its_matches_brute_force(hand: list[Card]) -> None:
    assert check_arrangement(hand, TONG_ITS) == brute_force(hand, TONG_ITS)


@settings(max_examples=150, deadline=None)
@given(small_hands(SMALL_POOL, 1))
def test_tong_its_dense_hands_match_brute_force(hand: list[Card]) -> None:
    assert check_arrangement(hand, TONG_ITS) == brute_force(hand, TONG_ITS)


@settings(max_examples=200, deadline=None)
@given(small_hands(SMALL_POOL, 2), st.integers(1, 11))
def test_three_thirteen_matches_brute_force(hand: list[Card], hand_no: int) -> None:
    rules = three_thirteen(hand_no)
    assert check_arrangement(hand, rules) == brute_force(hand, rules)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.sampled_from(SMALL_POOL), min_size=0, max_size=5),
    st.integers(0, 4),
    st.integers(1, 11),
)
def test_three_thirteen_wild_heavy_hands_match_brute_force(
    naturals: list[Card], wild_count: int, hand_no: int
) -> None:
    rules = three_thirteen(hand_no)
    wild_rank = hand_no + 2
    wilds = [Card(wild_rank, s) for s in ("cl", "sp", "he", "di")][:wild_count]
    hand = naturals + wilds
    assert check_arrangement(hand, rules) == brute_force(hand, rules)
