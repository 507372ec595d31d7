"""A rules-pack game as an event log (scorekeeper.games.session) and the one door to every game
(scorekeeper.tables)."""

from __future__ import annotations

import json

import pytest

from scorekeeper import engine, log, tables
from scorekeeper.games.base import GameError, HandEntryError
from scorekeeper.games.session import (
    SessionSetup,
    SessionState,
    apply_session,
    initial_session,
)
from scorekeeper.options import OptionError


def hearts(players: list[str] | None = None, **options: object) -> SessionSetup:
    return SessionSetup.from_json(
        {"game": "toss-hearts", "players": players or ["ann", "bob", "cy"], "options": options}
    )


def hand(**entry: object) -> dict[str, object]:
    return {"type": "hand", "entry": entry}


def test_hearts_totals_add_up_hand_by_hand() -> None:
    # RULES 5: each heart 1, the Queen of Spades 13.
    state = log.replay(hearts(), [
        hand(taken={"ann": ["Qsp", "2he"], "bob": ["3he"]}),
        hand(taken={"cy": ["Qsp"], "bob": ["4he", "5he"]}),
    ])
    assert state.totals == {"ann": 14, "bob": 3, "cy": 13}
    assert [h.deltas for h in state.hands] == [
        {"ann": 14, "bob": 1, "cy": 0}, {"ann": 0, "bob": 2, "cy": 13},
    ]
    assert not state.game_over


def test_hearts_game_ends_past_the_limit_lowest_wins_and_then_refuses_hands() -> None:
    state = log.replay(hearts(["ann", "bob"], limit=10), [hand(taken={"ann": ["Qsp"]})])
    assert state.game_over and state.winner == "bob"
    with pytest.raises(GameError, match="the game is over"):
        apply_session(state, hand(taken={"bob": ["2he"]}))
    # Undo reopens the game exactly as it was before that hand.
    assert log.apply(state, {"type": "undo"}).to_json() == initial_session(
        state.setup).to_json()


def test_three_thirteen_carries_the_hand_number_for_the_wild_rank() -> None:
    setup = SessionSetup.from_json({"game": "three-thirteen", "players": ["ann", "bob"]})
    # Hand 1: 3s are wild, so 3cl completes ann's 5-6 of hearts; hand 2: 4s are wild.
    first = hand(hands={"ann": ["5he", "6he", "3cl"], "bob": ["Kcl", "2sp", "9di"]})
    state = log.replay(setup, [first])
    assert state.hands[0].entry["hand_no"] == 1
    assert state.hands[0].deltas == {"ann": 0, "bob": 21}
    second = hand(hands={"ann": ["5he", "6he", "3cl"], "bob": ["4cl", "4sp", "4di"]})
    state = apply_session(state, second)
    assert state.hands[1].entry["hand_no"] == 2
    # The 3cl is no longer wild in hand 2: ann's three cards are deadwood (5 + 6 + 3).
    assert state.hands[1].deltas == {"ann": 14, "bob": 0}


def test_carousel_carries_hands_won_to_the_next_hand() -> None:
    setup = SessionSetup.from_json({"game": "carousel", "players": ["ann", "bob"]})
    state = log.replay(setup, [
        hand(knocker="ann", hands={"ann": ["Acl"], "bob": ["Kcl", "Qcl"]}),
        hand(knocker="ann", hands={"ann": ["2cl"], "bob": ["Kcl"]}),
    ])
    assert state.hands[0].details["hands_won"] == {"ann": 1, "bob": 0}
    assert state.hands[1].entry["hands_won"] == {"ann": 1, "bob": 0}
    assert state.hands[1].details["hands_won"] == {"ann": 2, "bob": 0}


def test_corrections_need_a_reason_and_points_and_undo_removes_them() -> None:
    state = initial_session(hearts())
    with pytest.raises(log.CorrectionRefusedError, match="reason"):
        log.apply(state, {"type": "correction", "target": "ann", "points": 5, "reason": " "})
    with pytest.raises(log.MalformedCorrectionError, match="target"):
        log.apply(state, {"type": "correction", "target": "zed", "points": 5, "reason": "x"})
    corrected = log.apply(
        state, {"type": "correction", "target": "ann", "points": -5, "reason": "miscount"})
    assert corrected.totals["ann"] == -5
    assert corrected.to_json()["corrections"][0]["reason"] == "miscount"
    assert log.apply(corrected, {"type": "undo"}) is state


def test_refused_events_leave_the_state_alone() -> None:
    state = log.replay(hearts(), [hand(taken={"ann": ["2he"]})])
    before = json.dumps(state.to_json())
    for bad in (hand(taken={"zed": ["2he"]}), hand(taken={"ann": ["2he", "2he"]}),
                {"type": "meld"}, {"type": "hand"}, "junk"):
        with pytest.raises(ValueError):
            apply_session(state, bad)  # type: ignore[arg-type]
    assert json.dumps(state.to_json()) == before
    with pytest.raises(log.NothingToUndoError, match="nothing to undo"):
        log.apply(initial_session(hearts()), {"type": "undo"})


def test_setup_is_validated() -> None:
    with pytest.raises(HandEntryError, match="Tong-Its is for 3 players"):
        SessionSetup.from_json({"game": "tong-its", "players": ["ann", "bob"]})
    with pytest.raises(GameError, match="different name"):
        SessionSetup.from_json({"game": "toss-hearts", "players": ["ann", "ann"]})
    with pytest.raises(OptionError, match="no option 'moonshot'"):
        SessionSetup.from_json({"game": "toss-hearts", "players": ["a", "b"],
                                "options": {"moonshot": 1}})
    with pytest.raises(GameError, match="unknown game"):
        SessionSetup.from_json({"game": "poker", "players": ["a", "b"]})


def test_tables_dispatches_each_game_to_its_engine() -> None:
    toss = tables.setup_from_json({"game": "toss-rummy", "players": ["ann", "bob"]})
    assert isinstance(toss, engine.TableSetup) and toss.options.ruleset == "toss-rummy"
    again = tables.setup_from_json(tables.setup_to_json(toss))
    assert tables.setup_to_json(again) == tables.setup_to_json(toss)
    pack = tables.setup_from_json({"game": "toss-hearts", "players": ["ann", "bob"]})
    assert isinstance(pack, SessionSetup)
    assert tables.setup_from_json(tables.setup_to_json(pack)) == pack
    state = tables.replay(pack, [hand(taken={"ann": ["Qsp"]})])
    assert isinstance(state, SessionState) and state.totals["ann"] == 13
    toss_state = tables.replay(toss, [{"type": "new-hand", "dealer": "ann"}])
    assert toss_state.to_json()["turn"] == "bob"
    names = [g["name"] for g in tables.available_games()]
    assert names[:2] == ["complex-toss-rummy", "toss-rummy"]
    assert {"toss-hearts", "tong-its", "three-thirteen", "indian-chief"} <= set(names)


def test_chip_counts_follow_the_hands_of_the_chip_games() -> None:
    colors = SessionSetup.from_json({"game": "toss-colors", "players": ["a", "b", "c"],
                                     "start_chips": 9, "options": {"split": "two-thirds"}})
    assert SessionSetup.from_json(colors.to_json()) == colors
    made = {"type": "hand", "entry": {"bidder": "a", "partner": "b", "bid": 3,
                                      "tricks": {"a": 2, "b": 2, "c": 1}}}
    state = log.replay(colors, [made])
    chips = state.to_json()["chips"]
    # pot 9: two thirds (6) to the bidder, one third (3) to the partner
    assert chips["counts"] == {"a": 12, "b": 9, "c": 6} and chips["pot"] == 0
    nil = {"type": "hand", "entry": {"bidder": "c", "bid": 0, "nil": True, "alone": True,
                                     "tricks": {"a": 3, "b": 2, "c": 0}}}
    after = log.replay(colors, [made, nil]).to_json()["chips"]
    assert after["counts"] == chips["counts"] and "Nil" in after["error"]
    assert initial_session(hearts()).to_json()["chips"] is None
    with pytest.raises(GameError, match="start_chips"):
        SessionSetup.from_json({"game": "toss-colors", "players": ["a", "b", "c"],
                                "start_chips": 0})
