"""Toss Rummy and Complex Toss Rummy as games of the one door (:mod:`scorekeeper.game`): the
engine's setup, fold and description behind the :class:`~scorekeeper.game.Game` protocol.

>>> game = TossGame("toss-rummy")
>>> setup = game.read_setup({"players": ["ann", "bob"]})
>>> game.apply(game.start(setup), {"type": "new-hand", "dealer": "ann"}).turn
'bob'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from scorekeeper.engine.events import EVENT_TYPES
from scorekeeper.engine.rules import apply
from scorekeeper.engine.state import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    GameState,
    SetupError,
    TableSetup,
    initial_state,
)
from scorekeeper.options import Option
from scorekeeper.outline import Incoming, JsonObject
from scorekeeper.rulesets import RULESET_TITLES, TOSS_OPTIONS, Ruleset, TossOptions

#: The seed file of both Toss rulesets.
TOSS_SEED: Final = "000"
#: The start page's one line about each Toss ruleset.
TOSS_SUMMARIES: Final[dict[str, str]] = {
    "complex-toss-rummy": "Peg boards; melds score as played and again at the end of the hand;"
                          " jokers Toss top cards; first to 1000 wins at once.",
    "toss-rummy": "Melds count at the end of the hand, cards in hand against; jokers Toss top"
                  " cards; game to 1010, settled in chips.",
}


@dataclass(frozen=True)
class TossGame:
    """One of the two Toss rulesets, played event by event on the Toss engine."""

    name: Ruleset
    engine: str = "toss"
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    event_types: tuple[str, ...] = EVENT_TYPES

    @property
    def title(self) -> str:
        return RULESET_TITLES[self.name]

    @property
    def options(self) -> tuple[Option, ...]:
        """The options a table of this ruleset chooses (of :data:`TOSS_OPTIONS`)."""
        return tuple(option for option in TOSS_OPTIONS if option.applies_to(self.name))

    def describe(self) -> JsonObject:
        """What the start page and ``scorekeeper games`` show of this game: its options as
        declared, an unset ``goal`` saying which goal it means (``unset``).

        >>> [o["name"] for o in TossGame("toss-rummy").describe()["options"]][:3]
        ['ace', 'goal', 'wild_scoring']
        """
        goal = TossOptions(ruleset=self.name).resolved_goal
        options: list[JsonObject] = [
            {**option.to_json(), **({"unset": goal} if option.name == "goal" else {})}
            for option in self.options]
        return {"name": self.name, "title": self.title, "seed": TOSS_SEED, "engine": self.engine,
                "deck": "toss", "players": {"min": self.min_players, "max": self.max_players},
                "lower_wins": False, "chips": False, "summary": TOSS_SUMMARIES[self.name],
                "goal": goal, "options": options}

    def read_setup(self, data: Incoming) -> TableSetup:
        """A setup from JSON (``players``, ``teams``, ``colours``, ``options``); the ruleset is
        this game's (a ``"ruleset"`` option naming the other one is refused)."""
        if not isinstance(data, Mapping):
            raise SetupError("a table setup must be a JSON object")
        fields = {k: v for k, v in data.items() if k != "game"}
        options = fields.get("options") or {}
        if not isinstance(options, Mapping):
            raise SetupError("\"options\" must be a JSON object")
        fields["options"] = {**options, "ruleset": self.name}
        return TableSetup.from_json(fields)

    def setup_json(self, setup: TableSetup) -> JsonObject:
        return {"game": self.name, **setup.to_json()}

    def start(self, setup: TableSetup) -> GameState:
        return initial_state(setup)

    def apply(self, state: GameState, event: Incoming) -> GameState:
        return apply(state, event)
