"""Amending a past event in the one fold (scorekeeper.log): every later event re-checked, the
original kept in the log, undo giving it back; property tests over random legal games."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from simulate import FOUR, HAND_ONE, HEARTS, MELD, random_game

from scorekeeper import log
from scorekeeper.engine import TableSetup
from scorekeeper.errors import InvalidInputError, RuleRefusalError
from scorekeeper.game import GameSetup, read_setup

COMPLEX = read_setup({"game": "complex-toss-rummy", "players": ["ann", "bob", "cy"]})


def folded(setup: GameSetup, events: list[dict[str, Any]]) -> log.Fold:
    fold = log.begin(setup)
    for event in events:
        fold = log.step(fold, event)
    return fold


def amend(target: int, event: dict[str, Any], reason: str = "entered wrongly",
          **more: Any) -> dict[str, Any]:
    return {"type": "amend", "target": target, "event": event, "reason": reason, **more}


def scores(fold: log.Fold) -> dict[str, int]:
    return {b.owner: b.score for b in fold.state.boards()}


def test_an_amended_meld_rescores_the_hand_and_undo_gives_the_original_back() -> None:
    fold = folded(COMPLEX, HAND_ONE)
    assert scores(fold) == {"ann": 48, "bob": 15, "cy": -10}
    amended = log.step(fold, amend(2, FOUR, "the meld had the 6 of clubs too"))
    assert scores(amended) == {"ann": 60, "bob": 15, "cy": -10}
    assert [e.event for e in amended.entries if e.seq == 2] == [FOUR]
    assert amended.read == 8
    back = log.step(amended, {"type": "undo"})
    assert back.state == fold.state and scores(back) == scores(fold)
    assert log.undo(amended.state) is fold.state  # the state's own undo agrees


def test_an_amendment_that_breaks_a_later_lay_off_is_refused_naming_it() -> None:
    fold = folded(COMPLEX, HAND_ONE)
    with pytest.raises(log.LaterEventsRefusedError) as caught:
        log.step(fold, amend(2, HEARTS))
    assert [b.seq for b in caught.value.broken] == [4]
    assert "update 4 (lay-off): 10cl does not fit 7he-8he-9he" in str(caught.value)
    assert '"remove": [4]' in str(caught.value)
    assert isinstance(caught.value, RuleRefusalError)


def test_an_amendment_stored_with_the_removal_of_exactly_the_events_named() -> None:
    fold = folded(COMPLEX, HAND_ONE)
    amended = log.step(fold, amend(2, HEARTS, remove=[4]))
    assert [e.seq for e in amended.entries] == [1, 2, 3, 5, 6, 7]
    assert scores(amended) == {"ann": 48, "bob": -5, "cy": -10}
    with pytest.raises(log.RemovalStillHoldsError, match="update 3 .next-turn. still holds"):
        log.step(fold, amend(2, HEARTS, remove=[3, 4]))
    with pytest.raises(log.MalformedAmendmentError, match="only later events in effect"):
        log.step(fold, amend(4, HAND_ONE[3], remove=[2]))


@pytest.mark.parametrize(("event", "words"), [
    (amend(9, MELD), "there is no update 9 yet"),
    (amend(0, MELD), '"target" is the number'),
    (amend(2, MELD, reason="  "), '"reason" is required'),
    (amend(2, {"type": "undo"}), '"event" is the corrected event'),
    (amend(2, {"type": "amend"}), '"event" is the corrected event'),
    (amend(2, MELD, remove="4"), '"remove" lists'),
    ({"type": "amend", "event": MELD, "reason": "x"}, '"target" is the number'),
])
def test_a_malformed_amendment_is_an_input_error_saying_what_to_fix(
        event: dict[str, Any], words: str) -> None:
    fold = folded(COMPLEX, HAND_ONE)
    with pytest.raises(InvalidInputError, match=words):
        log.step(fold, event)


def test_an_undone_event_or_an_undo_cannot_be_amended_but_an_amended_one_again() -> None:
    fold = folded(COMPLEX, [*HAND_ONE[:4], {"type": "undo"}])
    with pytest.raises(log.MalformedAmendmentError, match="update 4 is not an event in effect"):
        log.step(fold, amend(4, HAND_ONE[3]))
    with pytest.raises(log.MalformedAmendmentError, match="update 5 is not an event in effect"):
        log.step(fold, amend(5, HAND_ONE[3]))
    once = log.step(folded(COMPLEX, HAND_ONE), amend(2, {**MELD, "cards": ["6cl", "7cl", "8cl",
                                                                            "9cl"]}))
    with pytest.raises(log.MalformedAmendmentError, match="update 8 is not an event in effect"):
        log.step(once, amend(8, MELD))
    twice = log.step(once, amend(2, MELD, "it was three cards after all"))
    assert twice.state == folded(COMPLEX, HAND_ONE).state


def test_a_refused_replacement_names_the_amended_event_and_the_rule() -> None:
    fold = folded(COMPLEX, HAND_ONE)
    with pytest.raises(log.AmendedEventRefusedError, match="the amended update 2 is refused"):
        log.step(fold, amend(2, {**MELD, "cards": ["7cl", "8he", "Kdi"]}))
    with pytest.raises(log.AmendedEventInvalidError, match="the amended update 2 is refused"):
        log.step(fold, amend(2, {**MELD, "cards": "7cl"}))


def test_apply_alone_refuses_an_amendment_and_replay_folds_one() -> None:
    fold = folded(COMPLEX, HAND_ONE)
    with pytest.raises(log.AmendmentNeedsLogError, match="use scorekeeper.log.step"):
        log.apply(fold.state, amend(2, MELD))
    dealer = log.replay(COMPLEX, [*HAND_ONE, amend(1, {"type": "new-hand", "dealer": "cy"})])
    assert dealer == fold.state


def test_a_tosss_captured_card_is_amended_and_checked_against_the_top_card() -> None:
    vector = json.loads((Path(__file__).parent / "vectors" / "complex_hand.json").read_text())
    setup = read_setup(vector["setup"])
    fold = folded(setup, vector["events"])
    toss = vector["events"][5]
    named = log.step(fold, amend(6, {**toss, "captured": "9he"}, "the top was the 9"))
    assert named.state == fold.state
    with pytest.raises(log.AmendedEventRefusedError, match="the amended update 6 is refused"):
        log.step(fold, amend(6, {**toss, "captured": "7he"}, "the top was the 7"))


def test_a_hearts_hand_is_amended_and_later_hands_follow() -> None:
    setup = read_setup({"game": "toss-HEARTS", "players": ["ann", "bob"], "options": {}})
    hands = [{"type": "hand", "entry": {"taken": {"ann": ["Qsp"], "bob": ["2he"]}}},
             {"type": "hand", "entry": {"taken": {"bob": ["Qsp", "3he"]}}}]
    fold = folded(setup, hands)
    assert scores(fold) == {"ann": 13, "bob": 15}
    fixed = {"type": "hand", "entry": {"taken": {"bob": ["Qsp"], "ann": ["2he"]}}}
    amended = log.step(fold, amend(1, fixed, "the queen went to bob"))
    assert scores(amended) == {"ann": 1, "bob": 27}
    assert [h.deltas for h in amended.state.hands] == [{"ann": 1, "bob": 13},  # type: ignore[attr-defined]
                                                       {"ann": 0, "bob": 14}]


# --- properties over random legal games ------------------------------------------------------

SETUPS = (
    {"players": ["ann", "bob"]},
    {"players": ["ann", "bob", "cy"], "options": {"ruleset": "toss-rummy"}},
    {"players": ["ann", "bob", "cy", "dee"],
     "teams": {"North": ["ann", "cy"], "South": ["bob", "dee"]}, "options": {"goal": 400}},
)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
games = st.tuples(st.integers(0, len(SETUPS) - 1), st.integers(0, 10_000),
                  st.integers(5, 90))


def game(which: tuple[int, int, int]) -> tuple[GameSetup, log.Fold]:
    index, seed, length = which
    setup = TableSetup.from_json(SETUPS[index])
    events = random_game(setup, seed=seed, max_events=length, undo_rate=0.05)
    return setup, folded(setup, events)


@SETTINGS
@given(games, st.data())
def test_amending_an_event_to_itself_changes_nothing(which: tuple[int, int, int],
                                                     data: st.DataObject) -> None:
    _, fold = game(which)
    assume(fold.entries)
    entry = data.draw(st.sampled_from(fold.entries))
    same = log.step(fold, amend(entry.seq, dict(entry.event)))
    assert same.state == fold.state and same.state.to_json() == fold.state.to_json()
    assert [(e.seq, e.event) for e in same.entries] == [(e.seq, e.event) for e in fold.entries]


def variants(event: dict[str, Any], players: tuple[str, ...]) -> list[dict[str, Any]]:
    """Other events the keeper might have meant: another player or dealer, fewer cards."""
    out = [{**event, key: other} for key in ("player", "dealer", "went_out") if key in event
           for other in players if other != event[key]]
    cards = event.get("cards")
    if isinstance(cards, list) and len(cards) > 1:
        out += [{**event, "cards": cards[1:]}, {**event, "cards": cards[:-1]}]
    hands = event.get("hands")
    if isinstance(hands, dict):
        out += [{**event, "hands": {**hands, p: held[1:]}} for p, held in hands.items() if held]
    return out


def some_amendment(setup: GameSetup, fold: log.Fold, order: list[int]
                   ) -> tuple[int, dict[str, Any], log.Plan] | None:
    """The first variant of an event in effect (in ``order``) that the rules take."""
    for index in order:
        entry = fold.entries[index % len(fold.entries)]
        for replacement in variants(dict(entry.event), setup.players):
            try:
                amendment = log.read_amendment(amend(entry.seq, replacement), setup)
                return entry.seq, replacement, log.plan(fold, amendment)
            except (log.AmendedEventRefusedError, log.AmendedEventInvalidError):
                continue
    return None


@SETTINGS
@given(games, st.lists(st.integers(0, 200), min_size=1, max_size=12))
def test_an_amendment_equals_the_corrected_log_built_from_scratch_and_undo_restores(
        which: tuple[int, int, int], order: list[int]) -> None:
    setup, fold = game(which)
    assume(fold.entries)
    found = some_amendment(setup, fold, order)
    assume(found is not None)
    assert found is not None
    target, replacement, planned = found
    removed = [b.seq for b in planned.broken]
    amended = log.step(fold, amend(target, replacement, remove=removed))
    corrected = [replacement if e.seq == target else e.event for e in fold.entries
                 if e.seq not in removed]
    scratch = log.replay(setup, corrected)
    assert amended.state == scratch and amended.state.to_json() == scratch.to_json()
    assert [e.event for e in amended.entries] == corrected
    back = log.step(amended, {"type": "undo"})
    assert back.state == fold.state and back.entries == fold.entries
    assert back.state.to_json() == fold.state.to_json()


@pytest.mark.parametrize("name", ["complex-toss-rummy", "toss-rummy", "toss-colors",
                                  "toss-HEARTS", "tossni", "tong-its", "indian-chief",
                                  "carousel", "three-thirteen", "rummy"])
def test_every_game_is_amended_by_the_one_fold(name: str) -> None:
    setup = read_setup({"game": name, "players": ["ann", "bob", "cy"]})
    first = {"type": "correction", "target": "ann", "points": 5, "reason": "carried over"}
    later = {"type": "correction", "target": "bob", "points": 3, "reason": "carried over"}
    fold = folded(setup, [first, later])
    assert log.step(fold, amend(1, first)).state == fold.state
    amended = log.step(fold, amend(1, {**first, "target": "cy"}, "it was cy's"))
    assert amended.state == log.replay(setup, [{**first, "target": "cy"}, later])
    assert scores(amended)["cy"] == scores(fold)["ann"] and scores(amended)["ann"] == 0
    assert log.step(amended, {"type": "undo"}).state == fold.state
