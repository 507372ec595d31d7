"""The Complex Toss Rummy peg board: three rows of ten holes (hundreds, tens, ones), a minus
light for negative totals and a thousand light at 1000 or more (docs/rules.md section 3).

>>> PegPosition.from_score(437)
PegPosition(negative=False, thousands=0, hundreds=4, tens=3, ones=7)
>>> PegPosition.from_score(-25).score
-25
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from scorekeeper.outline import BoardOutline, PegPositionOutline

ROWS: Final[tuple[str, ...]] = ("hundreds", "tens", "ones")
HOLES_PER_ROW: Final = 10
#: The most peg boards one table shows (and the LED board drives): one per player or team.
MAX_BOARDS: Final = 6

#: Default peg colours, one per board, in the order a table offers them. Chosen to stay apart
#: (CIEDE2000 of 15 or more between every pair) for normal vision and under protanopia,
#: deuteranopia and tritanopia, bright enough for the LED board and at least 3:1 against the
#: boards' dark background; tests/test_peg_colours.py checks all three by simulation. Each board
#: also carries a shape (web/static/sk.js), so no one has to tell the colours apart.
PEG_COLOURS: Final[dict[str, str]] = {
    "red": "#bb3f42",
    "blue": "#445fb5",
    "gold": "#efd300",
    "green": "#5bb88c",
    "white": "#f0f0f0",
    "purple": "#ab85d6",
    "grey": "#7f8188",
    "orange": "#d0832a",
}



#: The dimmest a peg colour's brightest channel may be and still show: the LED board's WLED
#: applies gamma 2.8, which leaves a channel below 36 unlit ((36/255)^2.8 x 255 is 1.06,
#: (35/255)^2.8 x 255 is 0.98), and such a colour is lifted to it (:func:`visible`). Pages warn
#: when a player picks a colour this dark (it is as hard to see on the boards' dark screen).
MIN_CHANNEL: Final = 36

Rgb = tuple[int, int, int]


def visible(rgb: Rgb) -> Rgb:
    """A peg colour, or when it is too dark to light an LED (every channel below
    :data:`MIN_CHANNEL`), the same hue lifted until its brightest channel is MIN_CHANNEL
    (black: grey).

    >>> visible((16, 16, 32)), visible((0, 0, 0)), visible((187, 63, 66))
    ((18, 18, 36), (36, 36, 36), (187, 63, 66))
    """
    top = max(rgb)
    if top >= MIN_CHANNEL:
        return rgb
    if top == 0:
        return (MIN_CHANNEL, MIN_CHANNEL, MIN_CHANNEL)
    r, g, b = (round(c * MIN_CHANNEL / top) for c in rgb)
    return (r, g, b)


def dark_colour_warning(colour: str) -> str | None:
    """Why a ``#rrggbb`` peg colour is too dark to show, and what the LED board shows instead;
    None when it shows as chosen.

    >>> dark_colour_warning("#102030") is None
    True
    >>> dark_colour_warning("#101020")
    'peg colour #101020 is too dark to show (every channel below 36 stays unlit on the LED \
board, shown as #121224 there, and it is hard to see on the screen): pick a brighter colour'
    """
    value = int(colour.strip().lstrip("#"), 16)
    rgb = (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)
    shown = visible(rgb)
    if shown == rgb:
        return None
    return (f"peg colour {colour} is too dark to show (every channel below {MIN_CHANNEL} stays "
            "unlit on the LED board, shown as #{:02x}{:02x}{:02x} there, and it is hard to see "
            "on the screen): pick a brighter colour".format(*shown))


def board_colours(owners: Sequence[str], given: Mapping[str, str]) -> dict[str, str]:
    """Each board owner's peg colour: the one given, else the next default colour nobody was
    given (the one way every table picks its default colours).

    >>> chosen = board_colours(["ann", "bob", "cy"], {"bob": PEG_COLOURS["red"]})
    >>> [name for c in chosen.values() for name, hex in PEG_COLOURS.items() if hex == c]
    ['blue', 'red', 'gold']
    """
    unused = [c for c in PEG_COLOURS.values() if c not in given.values()]
    spare = itertools.cycle(unused or PEG_COLOURS.values())
    return {owner: given[owner] if owner in given else next(spare) for owner in owners}

@dataclass(frozen=True, slots=True)
class PegPosition:
    """Where the pegs stand for a score. ``thousands`` counts whole thousands (the light is on
    when it is 1 or more); the holes show the absolute value below 1000."""

    negative: bool
    thousands: int
    hundreds: int
    tens: int
    ones: int

    @classmethod
    def from_score(cls, score: int) -> PegPosition:
        magnitude = abs(score)
        return cls(
            negative=score < 0,
            thousands=magnitude // 1000,
            hundreds=magnitude // 100 % 10,
            tens=magnitude // 10 % 10,
            ones=magnitude % 10,
        )

    @property
    def score(self) -> int:
        magnitude = self.thousands * 1000 + self.hundreds * 100 + self.tens * 10 + self.ones
        return -magnitude if self.negative else magnitude

    @property
    def thousand_light(self) -> bool:
        return self.thousands > 0

    def holes(self) -> dict[str, int]:
        """The lit hole (0-9) in each row."""
        return {"hundreds": self.hundreds, "tens": self.tens, "ones": self.ones}

    def to_json(self) -> PegPositionOutline:
        return {
            "negative": self.negative,
            "thousands": self.thousands,
            "hundreds": self.hundreds,
            "tens": self.tens,
            "ones": self.ones,
        }


@dataclass(frozen=True, slots=True)
class PegBoard:
    """One player's or team's board: its owner, peg colour and score.

    >>> PegBoard("North", "#2f6fde", 1040).position.thousand_light
    True
    """

    owner: str
    colour: str
    score: int

    @property
    def position(self) -> PegPosition:
        return PegPosition.from_score(self.score)

    def to_json(self) -> BoardOutline:
        pegs = self.position
        return {"owner": self.owner, "colour": self.colour, "score": self.score,
                "negative": pegs.negative, "thousands": pegs.thousands,
                "hundreds": pegs.hundreds, "tens": pegs.tens, "ones": pegs.ones}
