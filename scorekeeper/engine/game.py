"""Toss Rummy and Complex Toss Rummy as games of the one door (:mod:`scorekeeper.game`): the
engine's setup, fold and description behind the :class:`~scorekeeper.game.Game` protocol.

>>> game = TossGame("toss-rummy")
>>> setup = game.read_setup({"players": ["ann", "bob"]})
>>> game.apply(game.start(setup), {"type": "new-hand", "dealer": "ann"}).turn
'bob'
>>> game.adjust(game.start(setup), "ann", 20, "carried over").scores["ann"]
20
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from scorekeeper.cards import Card
from scorekeeper.engine.events import EVENT_TYPES
from scorekeeper.engine.rules import adjust, apply, preview_end_hand
from scorekeeper.engine.state import (
    GAME_OVER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PLAYING,
    GameState,
    SetupError,
    TableSetup,
    initial_state,
)
from scorekeeper.options import Option
from scorekeeper.outline import Incoming, JsonObject
from scorekeeper.rulesets import RULESET_TITLES, TOSS_OPTIONS, Ruleset, TossOptions
from scorekeeper.standing import Standing

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
    """One of the two Toss rulesets, played event by event on the Toss engine: players may
    propose their plays and hands, and the keeper may preview an end of hand's tally."""

    name: Ruleset
    engine: str = "toss"
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    event_types: tuple[str, ...] = EVENT_TYPES
    proposals: bool = True
    end_hand_preview: bool = True

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
                "goal": goal, "options": options,
                "features": {"proposals": self.proposals,
                             "end_hand_preview": self.end_hand_preview}}

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

    def correction_targets(self, setup: TableSetup) -> tuple[str, ...]:
        """A correction moves a player's score or a team's board."""
        teams = tuple(owner for owner in setup.board_owners if owner not in setup.team_of)
        return (*setup.players, *teams)

    def adjust(self, state: GameState, target: str, points: int, reason: str) -> GameState:
        return adjust(state, target, points)

    def preview_end_hand(self, state: GameState, went_out: str | None,
                         hands: Mapping[str, Sequence[Card]]) -> JsonObject:
        """The tally an ``end-hand`` with these cards left in hand would commit."""
        return preview_end_hand(state, went_out, hands).to_json()

    def standing(self, state: GameState) -> Standing:
        """The boards as they stood at the start of a hand under way (else as they stand)."""
        setup = state.setup
        scores = state.hand_start if state.phase == PLAYING else state.board_scores()
        return Standing(owners=dict(setup.owner_of),
                        boards={o: scores.get(o, 0) for o in setup.board_owners},
                        hands=tuple(dict(h["deltas"]) for h in state.hands),
                        lower_wins=False, finished=state.phase == GAME_OVER,
                        winner=state.winner, hand_no=state.hand_no)
