"""The top card of a meld: the melding player's choice, recorded right by a ``set-top`` event
(undoable, replayed), and the card a Toss captures."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.engine import RuleViolation, TableSetup
from scorekeeper.log import apply, replay

SETUP = TableSetup.from_json({"players": ["ann", "bob"],
                              "options": {"ruleset": "complex-toss-rummy"}})
DEAL: dict[str, Any] = {"type": "new-hand", "dealer": "bob"}  # ann's turn
RUN: dict[str, Any] = {"type": "meld", "player": "ann", "cards": ["2he", "3he", "4he"]}
NEXT: dict[str, Any] = {"type": "next-turn"}


def test_a_sequence_entered_without_a_top_shows_its_low_end_until_the_top_is_set() -> None:
    state = replay(SETUP, [DEAL, RUN])
    assert state.melds[0].top.code == "2he"
    moved = apply(state, {"type": "set-top", "meld": 1, "top": "4he"})
    assert moved.melds[0].top.code == "4he"
    assert moved.turn == state.turn and moved.scores == state.scores
    assert apply(moved, {"type": "undo"}).melds[0].top.code == "2he"
    logged = replay(SETUP, [DEAL, RUN, {"type": "set-top", "meld": 1, "top": "4he"}])
    assert logged.to_json()["melds"][0]["top"] == "4he"


def test_the_toss_captures_the_chosen_top() -> None:
    events = [DEAL, RUN, {"type": "set-top", "meld": 1, "top": "4he"}, NEXT]
    state = replay(SETUP, events)
    tossed = apply(state, {"type": "toss", "player": "bob", "meld": 1, "joker": "jk-red",
                           "captured": "4he", "cards": ["5he", "6he"], "top": "6he"})
    assert [c.code for c in tossed.melds[0].cards] == ["2he", "3he"]
    assert tossed.melds[1].top.code == "6he" and tossed.last_play["captured"].code == "4he"
    with pytest.raises(RuleViolation, match="top card of meld 1 is 4he, not 2he"):
        apply(state, {"type": "toss", "player": "bob", "meld": 1, "joker": "jk-red",
                      "captured": "2he", "cards": ["Ahe", "3di"]})


@pytest.mark.parametrize(("top", "reason"), [
    ("3he", "cannot be the top card of meld 1: a sequence shows one of its end cards"),
    ("9cl", "9cl is not in meld 1"),
    ("2he", "2he is already the top card of meld 1"),
])
def test_a_top_that_the_meld_cannot_show_is_refused(top: str, reason: str) -> None:
    state = replay(SETUP, [DEAL, RUN])
    with pytest.raises(RuleViolation, match=reason):
        apply(state, {"type": "set-top", "meld": 1, "top": top})


def test_any_card_of_a_set_may_be_top_and_no_top_is_set_between_hands() -> None:
    state = replay(SETUP, [DEAL, {"type": "meld", "player": "ann", "cards": ["Kcl", "Ksp", "Khe"]}])
    assert apply(state, {"type": "set-top", "meld": 1, "top": "Ksp"}).melds[0].top.code == "Ksp"
    with pytest.raises(RuleViolation, match="No hand is in play"):
        apply(replay(SETUP, []), {"type": "set-top", "meld": 1, "top": "Ksp"})
    with pytest.raises(RuleViolation, match="no meld 7"):
        apply(state, {"type": "set-top", "meld": 7, "top": "Ksp"})
