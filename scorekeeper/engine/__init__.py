"""The game engine of Toss Rummy and Complex Toss Rummy: pure and deterministic, each of its
events read from JSON and applied to a state (the state outline in ``docs/api.md``; readings
in ``docs/rules-readings.md``). A whole log, with its undos, corrections and amendments, is
folded by :mod:`scorekeeper.log`.

>>> from scorekeeper import log
>>> setup = TableSetup.from_json({"players": ["ann", "bob"]})
>>> state = log.replay(setup, [{"type": "new-hand", "dealer": "ann"},
...                            {"type": "meld", "player": "bob", "cards": ["7cl", "7sp", "7he"]}])
>>> state.to_json()["boards"][1]["score"]
21
>>> log.apply(state, {"type": "undo"}).to_json()["melds"]
[]
>>> apply(state, {"type": "undo"})
Traceback (most recent call last):
...
scorekeeper.engine.state.EventError: unknown event type 'undo': use one of new-hand, meld, \
lay-off, toss, double-cross, steal, next-turn, end-hand, set-top
"""

from scorekeeper.engine.events import EVENT_TYPES, TossEvent, read_event
from scorekeeper.engine.rules import adjust, apply, apply_event, preview_end_hand
from scorekeeper.engine.state import (
    GAME_OVER,
    HAND_OVER,
    PLAYING,
    WAITING,
    BoardMeld,
    DoubleCrossChance,
    EngineError,
    EventError,
    GameState,
    Phase,
    RuleViolation,
    SetupError,
    TableSetup,
    initial_state,
)

__all__ = [
    "EVENT_TYPES",
    "GAME_OVER",
    "HAND_OVER",
    "PLAYING",
    "WAITING",
    "BoardMeld",
    "DoubleCrossChance",
    "EngineError",
    "EventError",
    "GameState",
    "Phase",
    "RuleViolation",
    "SetupError",
    "TableSetup",
    "TossEvent",
    "adjust",
    "apply",
    "apply_event",
    "initial_state",
    "preview_end_hand",
    "read_event",
]
