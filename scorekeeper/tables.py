"""One door to every game a table can play: the Toss engine for Toss Rummy and Complex Toss
Rummy, the rules-pack session for every other game. The web app stores a setup and an event log
and folds them through here without knowing which game it is.

>>> setup = setup_from_json({"players": ["ann", "bob"]})
>>> game_of(setup)
'complex-toss-rummy'
>>> game_of(setup_from_json({"game": "toss-hearts", "players": ["ann", "bob"]}))
'toss-hearts'
>>> [g["name"] for g in available_games()][:3]
['complex-toss-rummy', 'toss-rummy', 'toss-colors']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scorekeeper import engine
from scorekeeper.games import GAMES, get_game
from scorekeeper.games.session import (
    SessionSetup,
    SessionState,
    apply_session,
    initial_session,
)
from scorekeeper.rulesets import RULESET_TITLES, RULESETS

Setup = engine.TableSetup | SessionSetup
State = engine.GameState | SessionState


def setup_from_json(data: Mapping[str, Any]) -> Setup:
    """A table setup from JSON: ``"game"`` names a rules pack, or is absent or one of the Toss
    rulesets for the Toss engine (whose ruleset then sits in ``options``)."""
    if not isinstance(data, Mapping):
        raise engine.SetupError("a table setup must be a JSON object")
    game = data.get("game")
    if game is None or game in RULESETS:
        toss = {k: v for k, v in data.items() if k != "game"}
        if game is not None:
            toss["options"] = {**(toss.get("options") or {}), "ruleset": game}
        return engine.TableSetup.from_json(toss)
    return SessionSetup.from_json(data)


def setup_to_json(setup: Setup) -> dict[str, Any]:
    if isinstance(setup, SessionSetup):
        return setup.to_json()
    return {"game": setup.options.ruleset, **setup.to_json()}


def game_of(setup: Setup) -> str:
    return setup.game if isinstance(setup, SessionSetup) else setup.options.ruleset


def initial_state(setup: Setup) -> State:
    if isinstance(setup, SessionSetup):
        return initial_session(setup)
    return engine.initial_state(setup)


def apply(state: State, event: Mapping[str, Any]) -> State:
    """Apply one event to either kind of game; refusals are ``ValueError`` subclasses."""
    if isinstance(state, SessionState):
        return apply_session(state, event)
    return engine.apply(state, event)


def replay(setup: Setup, events: Iterable[Mapping[str, Any]]) -> State:
    state = initial_state(setup)
    for event in events:
        state = apply(state, event)
    return state


#: The start page's one line about each Toss ruleset (the rules packs carry their own).
TOSS_SUMMARIES: dict[str, str] = {
    "complex-toss-rummy": "Peg boards; melds score as played and again at the end of the hand;"
                          " jokers Toss top cards; first to 1000 wins at once.",
    "toss-rummy": "Melds count at the end of the hand, cards in hand against; jokers Toss top"
                  " cards; game to 1010, settled in chips.",
}


def available_games() -> list[dict[str, Any]]:
    """Every game a table can play, for the start page: name, title and what it offers."""
    toss = [
        {"name": name, "title": RULESET_TITLES[name], "engine": "toss", "deck": "toss",
         "players": {"min": 2, "max": 6}, "lower_wins": False,
         "summary": TOSS_SUMMARIES.get(name, "")}
        for name in RULESETS
    ]
    packs = [{**get_game(name).describe(), "engine": "hands"} for name in GAMES]
    return toss + packs
