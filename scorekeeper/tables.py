"""A table's game by its setup: the names the web app and older callers use for the one door
(:mod:`scorekeeper.game`) and the one fold (:mod:`scorekeeper.log`).

>>> setup = setup_from_json({"players": ["ann", "bob"]})
>>> game_of(setup)
'complex-toss-rummy'
>>> game_of(setup_from_json({"game": "toss-hearts", "players": ["ann", "bob"]}))
'toss-hearts'
>>> [g["name"] for g in available_games()][:3]
['complex-toss-rummy', 'toss-rummy', 'toss-colors']
"""

from __future__ import annotations

from scorekeeper.game import GameSetup as Setup
from scorekeeper.game import GameState as State
from scorekeeper.game import available_games
from scorekeeper.game import read_setup as setup_from_json
from scorekeeper.game import setup_json as setup_to_json
from scorekeeper.log import apply, replay
from scorekeeper.log import start as initial_state


def game_of(setup: Setup) -> str:
    """The name of the game a setup is for."""
    return setup.game


__all__ = [
    "Setup",
    "State",
    "apply",
    "available_games",
    "game_of",
    "initial_state",
    "replay",
    "setup_from_json",
    "setup_to_json",
]
