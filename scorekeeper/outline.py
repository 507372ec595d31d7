"""The JSON the scorekeeper gives out, typed once: any JSON value, and the outline of a game's
state that the pages, the API, the command line and the LED board all read.

Every game's state gives the same outline (:class:`StateOutline`): the players and their peg
boards first, then what its kind of game adds (the Toss engine's turn and melds, a hand-by-hand
game's hands, corrections and chips). The fields are described in ``docs/api.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NotRequired, TypeAlias, TypedDict

#: Any JSON value, as the scorekeeper writes it.
JsonValue: TypeAlias = (
    "str | int | float | bool | None | Sequence[JsonValue] | Mapping[str, JsonValue]"
)
#: A JSON object the scorekeeper writes.
JsonObject: TypeAlias = dict[str, JsonValue]


class PegPositionOutline(TypedDict):
    """Where the pegs of a score stand on a board."""

    negative: bool
    thousands: int
    hundreds: int
    tens: int
    ones: int


class BoardOutline(PegPositionOutline):
    """One peg board: its owner (a player or a team), the members, colour and score."""

    owner: str
    colour: str
    score: int
    members: NotRequired[list[str]]


class PlayerOutline(TypedDict):
    """One seat: the player, their team (or None) and their own score."""

    name: str
    team: str | None
    score: int


class CorrectionOutline(TypedDict):
    """A correction as a game entered hand by hand lists it: whose total moved, by how many
    points, why, and after how many hands."""

    target: str
    points: int
    reason: str
    after_hand: int


class StateOutline(TypedDict):
    """A game's state as JSON, the same outline for every game."""

    hand_no: int
    phase: str
    winner: str | None
    ruleset: str
    options: Mapping[str, JsonValue]
    players: list[PlayerOutline]
    boards: list[BoardOutline]
    melds: list[JsonObject]
    hands: list[JsonObject]
    events_applied: int
    turn: str | None
    dealer: str | None
    # The Toss engine's
    next_dealer: NotRequired[str | None]
    after_discard: NotRequired[str | None]
    goal: NotRequired[int]
    last_play: NotRequired[JsonValue]
    double_cross: NotRequired[JsonObject | None]
    # A game entered hand by hand
    game: NotRequired[str]
    title: NotRequired[str]
    lower_wins: NotRequired[bool]
    lowest_first: NotRequired[bool]
    corrections: NotRequired[list[CorrectionOutline]]
    engine: NotRequired[str]
    chips: NotRequired[JsonObject | None]

#: A JSON object read from input: its values are checked where they are read.
Incoming: TypeAlias = Mapping[str, object]
#: The value of one option of a game.
OptionValue: TypeAlias = int | str | bool | list[int] | None
#: A game's options by name.
OptionValues: TypeAlias = Mapping[str, OptionValue]
