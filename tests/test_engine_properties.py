"""Property tests of the game engine over seeded random legal games (and random junk)."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simulate import random_game

from scorekeeper.cards import Card
from scorekeeper.engine import (
    EVENT_TYPES,
    EngineError,
    GameState,
    TableSetup,
    initial_state,
)
from scorekeeper.log import apply, replay

SETUPS = (
    {"players": ["ann", "bob"]},
    {"players": ["ann", "bob", "cy"], "options": {"ruleset": "toss-rummy", "wild_scoring": True}},
    {"players": ["ann", "bob", "cy", "dee"],
     "teams": {"North": ["ann", "cy"], "South": ["bob", "dee"]}, "options": {"goal": 400}},
    {"players": ["a", "b", "c", "d", "e", "f"], "options": {"ruleset": "toss-rummy", "decks": 2}},
    {"players": ["a", "b", "c", "d", "e", "f"],
     "teams": {"X": ["a", "c", "e"], "Y": ["b", "d", "f"]}, "options": {"decks": 2}},
    {"players": ["ann", "bob", "cy"], "options": {"double_cross_takes": "toss-meld"}},
)
SETTINGS = settings(max_examples=20, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@lru_cache(maxsize=64)
def game(setup_index: int, seed: int) -> tuple[TableSetup, tuple[dict[str, Any], ...]]:
    setup = TableSetup.from_json(SETUPS[setup_index])
    return setup, tuple(random_game(setup, seed=seed, max_events=160, undo_rate=0.05))


def fold(setup: TableSetup, events: tuple[dict[str, Any], ...]) -> list[GameState]:
    states = [initial_state(setup)]
    for event in events:
        states.append(apply(states[-1], event))
    return states


games = st.tuples(st.integers(0, len(SETUPS) - 1), st.integers(0, 10_000))


@SETTINGS
@given(games)
def test_a_toss_moves_exactly_the_captured_cards_value_off_the_victim(
        which: tuple[int, int]) -> None:
    setup, events = game(*which)
    states = fold(setup, events)
    options = setup.options
    for before, event, after in zip(states, events, states[1:], strict=False):
        if event["type"] != "toss":
            continue
        play = after.last_play
        assert play is not None
        victim, tosser = play["victim"], event["player"]
        lost = options.value(play["captured"])
        made = options.value(play["captured"]) + sum(
            options.value(Card.parse(c)) for c in event["cards"])
        expected = (-lost, made) if options.scores_as_played else (0, 0)
        assert (after.scores[victim] - before.scores[victim],
                after.scores[tosser] - before.scores[tosser]) == expected
        others = set(setup.players) - {victim, tosser}
        assert all(after.scores[p] == before.scores[p] for p in others)


@SETTINGS
@given(games)
def test_a_double_cross_moves_the_taken_cards_and_scores_the_jokers(
        which: tuple[int, int]) -> None:
    setup, events = game(*which)
    states = fold(setup, events)
    options = setup.options
    for before, event, after in zip(states, events, states[1:], strict=False):
        if event["type"] != "double-cross":
            continue
        chance = before.chance
        player = event["player"]
        assert chance is not None and chance.victim == player
        taken = before.meld(chance.meld)
        assert taken is not None
        jokers = [Card.parse(c) for c in event["jokers"]]
        moved = after.meld(chance.meld)
        assert moved is not None and moved.owner == player
        assert moved.cards == taken.cards + tuple(jokers)
        assert set(moved.credits) == {player}
        # every other card changes only whom it scores for: from the player double-crossed
        # (or, in a meld of theirs taken whole, anyone) to the double-crosser
        moved_off = {p: 0 for p in setup.players}
        for old in before.melds:
            new = after.meld(old.id)
            assert new is not None
            whole = old.id == chance.meld or new.owner != old.owner
            if old.id != chance.meld:
                assert new.cards == old.cards and new.owner in (old.owner, player)
                if options.double_cross_takes == "toss-meld":
                    assert new == old
                elif whole:
                    assert old.owner == chance.against
            for at, (card, was) in enumerate(zip(old.cards, old.credits, strict=True)):
                now = new.credits[at]
                assert now == was or (now == player and (whole or was == chance.against))
                if whole or now != was:
                    moved_off[was] += options.value(card)
        if options.scores_as_played:
            total = sum(after.scores.values()) - sum(before.scores.values())
            assert total == sum(options.value(j) for j in jokers)
            for name in setup.players:
                delta = after.scores[name] - before.scores[name]
                if name == player:
                    others = sum(v for p, v in moved_off.items() if p != player)
                    assert delta == others + sum(options.value(j) for j in jokers)
                else:
                    assert delta == -moved_off[name]
        if after.phase == "playing":  # (unless the DoubleCross pegged out)
            assert apply(after, {"type": "next-turn"}).turn == chance.against


@SETTINGS
@given(games)
def test_undo_restores_the_previous_state_exactly(which: tuple[int, int]) -> None:
    setup, events = game(*which)
    states = fold(setup, events)
    for before, event in zip(states, events, strict=False):
        if event["type"] == "undo":
            continue
        undone = apply(apply(before, event), {"type": "undo"})
        assert json.dumps(undone.to_json()) == json.dumps(before.to_json())


@SETTINGS
@given(games)
def test_replay_equals_folding_apply_one_by_one(which: tuple[int, int]) -> None:
    setup, events = game(*which)
    wire = json.loads(json.dumps(list(events)))  # the log as stored and read back
    one_by_one = initial_state(setup)
    for event in wire:
        one_by_one = apply(one_by_one, event)
    replayed = replay(setup, events)
    assert replayed.to_json() == one_by_one.to_json()
    assert replayed == one_by_one


@SETTINGS
@given(games)
def test_to_json_round_trips_through_json_dumps(which: tuple[int, int]) -> None:
    setup, events = game(*which)
    for state in fold(setup, events):
        data = state.to_json()
        assert json.loads(json.dumps(data)) == data


@SETTINGS
@given(games)
def test_the_board_never_holds_more_copies_than_the_decks(which: tuple[int, int]) -> None:
    setup, events = game(*which)
    for state in fold(setup, events):
        counts: dict[Card, int] = {}
        for meld in state.melds:
            for card in meld.cards:
                counts[card] = counts.get(card, 0) + 1
        assert all(n <= setup.options.decks for n in counts.values())
        assert counts == {c: n for c, n in state.on_board.items() if n}


CARD_CODES = ("Kcl", "Ksp", "Khe", "Kdi", "10di", "9di", "8di", "7di", "boss", "jk-red",
              "jk-blue", "null", "Acl", "2cl", "3cl", "bogus")
junk_events = st.fixed_dictionaries(
    {"type": st.sampled_from((*EVENT_TYPES, "correction", "undo", "shuffle"))},
    optional={
        "player": st.sampled_from(("ann", "bob", "cy", "dee", "zed")),
        "dealer": st.sampled_from(("ann", "bob", "zed", None)),
        "cards": st.lists(st.sampled_from(CARD_CODES), max_size=4),
        "card": st.sampled_from(CARD_CODES),
        "joker": st.sampled_from(CARD_CODES),
        "jokers": st.lists(st.sampled_from(CARD_CODES), max_size=2),
        "top": st.sampled_from((*CARD_CODES, None)),
        "meld": st.one_of(st.integers(0, 6), st.just("1")),
        "went_out": st.sampled_from(("ann", "bob", "zed", None)),
        "hands": st.dictionaries(st.sampled_from(("ann", "bob", "zed")),
                                 st.lists(st.sampled_from(CARD_CODES), max_size=3)),
        "target": st.sampled_from(("ann", "North", "zed")),
        "points": st.one_of(st.integers(-50, 50), st.just("5")),
        "reason": st.sampled_from(("", "typo", None)),
    },
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(0, 150), st.lists(junk_events, max_size=30))
def test_any_event_is_applied_or_refused_with_an_engine_error_and_no_change(
        seed: int, cut: int, events: list[dict[str, Any]]) -> None:
    setup, played = game(2, seed % 50)  # a point in a four-player team game
    state = replay(setup, played[:cut])
    for event in events:
        before = json.dumps(state.to_json())
        try:
            state = apply(state, event)
        except EngineError as exc:
            assert str(exc)
            assert json.dumps(state.to_json()) == before
