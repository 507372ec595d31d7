"""What the LED board shows: for each peg board its colour, the lit hole of each row and the
minus and thousand lights, plus the strip brightness.

A :class:`Scene` is built from the ``boards`` list of the state outline (``docs/api.md``):

>>> scene = Scene.from_state({"boards": [{"owner": "North", "colour": "#2f6fde", "score": -437,
...     "negative": True, "thousands": 0, "hundreds": 4, "tens": 3, "ones": 7}]})
>>> scene.boards[0]
BoardPegs(colour=(47, 111, 222), hundreds=4, tens=3, ones=7, minus=True, thousand=False)
>>> Scene.from_scores([("#ff0000", 1040)]).boards[0].thousand
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from scorekeeper.pegboard import MAX_BOARDS, PegPosition

RGB = tuple[int, int, int]

DEFAULT_BRIGHTNESS: Final = 64
_COLOUR = re.compile(r"#?([0-9a-fA-F]{6})")


class SceneError(ValueError):
    """A state that cannot be shown on the board (bad colour, hole out of range, too many
    boards)."""


def parse_colour(text: str) -> RGB:
    """``"#2f6fde"`` -> ``(47, 111, 222)``.

    >>> parse_colour("#FF8000")
    (255, 128, 0)
    """
    match = _COLOUR.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise SceneError(f"colour {text!r} is not of the form #rrggbb (e.g. #2f6fde)")
    value = int(match.group(1), 16)
    return (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)


def format_colour(rgb: RGB) -> str:
    """``(47, 111, 222)`` -> ``"#2f6fde"``."""
    return "#{:02x}{:02x}{:02x}".format(*rgb)


@dataclass(frozen=True, slots=True)
class BoardPegs:
    """One peg board as lit: colour, the hole (0-9) of each row, and the two lights."""

    colour: RGB
    hundreds: int
    tens: int
    ones: int
    minus: bool = False
    thousand: bool = False

    def __post_init__(self) -> None:
        for row in ("hundreds", "tens", "ones"):
            hole = getattr(self, row)
            if not isinstance(hole, int) or not 0 <= hole <= 9:
                raise SceneError(f"{row} hole must be 0-9, got {hole!r}")
        if len(self.colour) != 3 or not all(0 <= c <= 255 for c in self.colour):
            raise SceneError(f"colour {self.colour!r} must be three bytes 0-255")

    @classmethod
    def from_score(cls, colour: str | RGB, score: int) -> BoardPegs:
        """The pegs for a score, as ``scorekeeper.pegboard`` places them."""
        position = PegPosition.from_score(score)
        rgb = parse_colour(colour) if isinstance(colour, str) else colour
        return cls(rgb, position.hundreds, position.tens, position.ones,
                   position.negative, position.thousand_light)

    @classmethod
    def from_json(cls, board: Mapping[str, Any]) -> BoardPegs:
        """One entry of ``GameState.to_json()["boards"]``."""
        if not isinstance(board, Mapping):
            raise SceneError(f"a board must be a JSON object, got {type(board).__name__}")
        try:
            colour = parse_colour(board["colour"])
            holes = [board[row] for row in ("hundreds", "tens", "ones")]
            negative = board.get("negative", False)
            thousands = board.get("thousands", 0)
        except KeyError as exc:
            raise SceneError(f"board {board.get('owner', '?')!r} has no {exc.args[0]!r}") from exc
        if not all(isinstance(h, int) and not isinstance(h, bool) for h in holes):
            raise SceneError(f"board {board.get('owner', '?')!r}: holes must be integers 0-9")
        if not isinstance(thousands, int) or thousands < 0:
            raise SceneError(f"board {board.get('owner', '?')!r}: thousands must be >= 0")
        return cls(colour, holes[0], holes[1], holes[2], bool(negative), thousands > 0)

    @property
    def flags(self) -> int:
        """Wire flags: bit 0 minus light, bit 1 thousand light."""
        return (1 if self.minus else 0) | (2 if self.thousand else 0)

    def same_pegs(self, other: BoardPegs) -> bool:
        return (self.hundreds, self.tens, self.ones, self.flags) == (
            other.hundreds, other.tens, other.ones, other.flags)


@dataclass(frozen=True, slots=True)
class Scene:
    """Every board in seat order (board 0 first) and the strip brightness (0-255)."""

    boards: tuple[BoardPegs, ...]
    brightness: int = DEFAULT_BRIGHTNESS

    def __post_init__(self) -> None:
        if len(self.boards) > MAX_BOARDS:
            raise SceneError(f"at most {MAX_BOARDS} boards, got {len(self.boards)}")
        if not 0 <= self.brightness <= 255:
            raise SceneError(f"brightness must be 0-255, got {self.brightness}")

    @classmethod
    def from_state(cls, state: Mapping[str, Any] | Sequence[Mapping[str, Any]],
                   brightness: int = DEFAULT_BRIGHTNESS) -> Scene:
        """From ``GameState.to_json()`` (or its ``boards`` list, or an API ``{"state": ...}``)."""
        if isinstance(state, Mapping) and "state" in state and "boards" not in state:
            state = state["state"]
        boards = state.get("boards") if isinstance(state, Mapping) else state
        if not isinstance(boards, Sequence) or isinstance(boards, str | bytes):
            raise SceneError("the state has no 'boards' list (GameState.to_json() expected)")
        return cls(tuple(BoardPegs.from_json(b) for b in boards), brightness)

    @classmethod
    def from_scores(cls, boards: Iterable[tuple[str, int]],
                    brightness: int = DEFAULT_BRIGHTNESS) -> Scene:
        """From ``(colour, score)`` pairs."""
        return cls(tuple(BoardPegs.from_score(c, s) for c, s in boards), brightness)

    def with_brightness(self, brightness: int) -> Scene:
        return Scene(self.boards, brightness)
