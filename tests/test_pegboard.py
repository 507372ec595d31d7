"""The peg board positions (RULES.md 3): three rows of ten holes, minus light, thousands."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.pegboard import PegBoard, PegPosition


def test_437_is_pegs_at_4_3_7() -> None:
    position = PegPosition.from_score(437)
    assert (position.negative, position.thousands, position.hundreds, position.tens,
            position.ones) == (False, 0, 4, 3, 7)
    assert position.holes() == {"hundreds": 4, "tens": 3, "ones": 7}
    assert not position.thousand_light


def test_negative_totals_show_the_minus_light_and_the_absolute_value() -> None:
    position = PegPosition.from_score(-25)
    assert position.negative and (position.hundreds, position.tens, position.ones) == (0, 2, 5)
    assert not PegPosition.from_score(0).negative


def test_thousand_light() -> None:
    assert PegPosition.from_score(1000).thousand_light
    assert PegPosition.from_score(1000).holes() == {"hundreds": 0, "tens": 0, "ones": 0}
    assert PegPosition.from_score(-1999).thousands == 1
    assert not PegPosition.from_score(999).thousand_light


def test_board_json() -> None:
    board = PegBoard("North", "#2f6fde", 1040)
    assert board.to_json() == {"owner": "North", "colour": "#2f6fde", "score": 1040,
                               "negative": False, "thousands": 1, "hundreds": 0, "tens": 4,
                               "ones": 0}


def test_every_score_from_minus_1999_to_2999_round_trips() -> None:
    seen = set()
    for score in range(-1999, 3000):
        position = PegPosition.from_score(score)
        assert position.score == score
        seen.add((position.negative, position.thousands, position.hundreds, position.tens,
                  position.ones))
    assert len(seen) == 1999 + 3000  # every score has its own position


@settings(max_examples=200, deadline=None)
@given(st.integers(-1999, 2999))
def test_peg_digits_round_trip(score: int) -> None:
    position = PegPosition.from_score(score)
    for digit in (position.hundreds, position.tens, position.ones):
        assert 0 <= digit <= 9
    assert position.negative is (score < 0)
    assert position.score == score
    assert PegPosition(**position.to_json()) == position
