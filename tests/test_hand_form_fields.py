"""The hand forms say whose blank cards row is an empty hand (whoever ended the hand)."""

from __future__ import annotations

from scorekeeper.games import get_game


def field(game: str, name: str) -> dict[str, object]:
    form = get_game(game).describe()["hand_form"]
    found: dict[str, object] = next(f for f in form if f["name"] == name)
    return found


def test_the_callers_hand_is_empty_only_for_a_tongit() -> None:
    assert field("tong-its", "caller")["empty_hand"] == {"field": "win", "value": "tongit"}


def test_whoever_went_out_holds_no_cards() -> None:
    assert field("rummy", "winner")["empty_hand"] is True
    assert field("three-thirteen", "went_out")["empty_hand"] is True
    assert "empty_hand" not in field("toss-colors", "bidder")
