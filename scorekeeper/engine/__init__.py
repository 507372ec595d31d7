"""The game engine of Toss Rummy and Complex Toss Rummy: pure, deterministic, a fold over a
JSON event log (the state outline in ``docs/api.md``; readings in ``docs/rules-readings.md``).

>>> setup = TableSetup.from_json({"players": ["ann", "bob"]})
>>> state = replay(setup, [{"type": "new-hand", "dealer": "ann"},
...                        {"type": "meld", "player": "bob", "cards": ["7cl", "7sp", "7he"]}])
>>> state.to_json()["boards"][1]["score"]
21
>>> apply(state, {"type": "undo"}).to_json()["melds"]
[]
"""

from scorekeeper.engine.events import EVENT_TYPES, TossEvent, read_event
from scorekeeper.engine.rules import apply, apply_event, preview_end_hand, replay
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
    "apply",
    "apply_event",
    "initial_state",
    "preview_end_hand",
    "read_event",
    "replay",
]
