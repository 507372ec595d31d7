"""The board layout: which LED of the strip sits under each hole and light.

A layout file is JSON (see ``hardware/layout.json``, the default for six boards)::

    {"format": "scorekeeper-led-layout", "version": 1, "led_count": 192,
     "max_brightness": 96, "milliamps_per_led": 60,
     "boards": [{"hundreds": [0, 1, ..., 9], "tens": [19, 18, ..., 10],
                 "ones": [20, ..., 29], "minus": 30, "thousand": 31}, ...]}

Each row lists the LED index of holes 0 to 9 in order, so a serpentine strip (one row left to
right, the next right to left) is just a reversed list. ``minus``/``thousand`` may be ``null``
for a board built without that light. Board 0 is the first board of the state (seat order).

>>> layout = default_layout(2)
>>> layout.led_count, layout.boards[1].tens[0], layout.boards[1].minus
(64, 51, 62)
>>> layout.index(1, "ones", 7)
59
>>> sorted(layout.lit(Scene.from_scores([("#ff0000", 437)])).items())
[(4, (255, 0, 0)), (16, (255, 0, 0)), (27, (255, 0, 0))]
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from firmware_bridge.scene import RGB, Scene
from scorekeeper.pegboard import MAX_BOARDS

ROWS: Final = ("hundreds", "tens", "ones")
LIGHTS: Final = ("minus", "thousand")
LEDS_PER_BOARD: Final = 32  # 3 rows x 10 holes + minus + thousand
NO_LED: Final = 0xFFFF  # on the wire: this light is not fitted
FORMAT: Final = "scorekeeper-led-layout"
DEFAULT_MAX_BRIGHTNESS: Final = 96
MILLIAMPS_PER_LED: Final = 60  # a WS2812 at full white


class LayoutError(ValueError):
    """A layout file that cannot drive the board: says which board, row or index is wrong."""


@dataclass(frozen=True, slots=True)
class BoardLayout:
    """The LED indexes of one board: ten per row (hole 0 first) and the two lights."""

    hundreds: tuple[int, ...]
    tens: tuple[int, ...]
    ones: tuple[int, ...]
    minus: int | None
    thousand: int | None

    def row(self, name: str) -> tuple[int, ...]:
        if name not in ROWS:
            raise LayoutError(f"row must be one of {', '.join(ROWS)}, got {name!r}")
        rows: tuple[int, ...] = getattr(self, name)
        return rows

    def wire_indexes(self) -> tuple[int, ...]:
        """The 32 indexes in wire order (hundreds 0-9, tens 0-9, ones 0-9, minus, thousand)."""
        lights = tuple(NO_LED if i is None else i for i in (self.minus, self.thousand))
        return self.hundreds + self.tens + self.ones + lights

    def all_leds(self) -> list[int]:
        return [i for i in self.wire_indexes() if i != NO_LED]

    def to_json(self) -> dict[str, Any]:
        return {"hundreds": list(self.hundreds), "tens": list(self.tens), "ones": list(self.ones),
                "minus": self.minus, "thousand": self.thousand}


@dataclass(frozen=True, slots=True)
class Layout:
    """The whole strip: LED count, the boards in seat order, and the brightness cap."""

    led_count: int
    boards: tuple[BoardLayout, ...]
    max_brightness: int = DEFAULT_MAX_BRIGHTNESS
    milliamps_per_led: int = MILLIAMPS_PER_LED
    description: str = ""

    def __post_init__(self) -> None:
        if not 1 <= self.led_count < NO_LED:
            raise LayoutError(f"led_count must be 1-{NO_LED - 1}, got {self.led_count}")
        if not 1 <= len(self.boards) <= MAX_BOARDS:
            raise LayoutError(f"a layout has 1-{MAX_BOARDS} boards, got {len(self.boards)}")
        if not 0 <= self.max_brightness <= 255:
            raise LayoutError(f"max_brightness must be 0-255, got {self.max_brightness}")
        seen: dict[int, str] = {}
        for b, board in enumerate(self.boards):
            for name in ROWS:
                if len(board.row(name)) != 10:
                    raise LayoutError(f"board {b} row {name!r} must list 10 LED indexes "
                                      f"(holes 0-9), got {len(board.row(name))}")
            places = [(f"{name} hole {h}", i) for name in ROWS
                      for h, i in enumerate(board.row(name))]
            places += [(name, i) for name, i in (("minus", board.minus),
                                                 ("thousand", board.thousand)) if i is not None]
            for place, index in places:
                where = f"board {b} {place}"
                if not isinstance(index, int) or isinstance(index, bool):
                    raise LayoutError(f"{where}: LED index must be an integer, got {index!r}")
                if not 0 <= index < self.led_count:
                    raise LayoutError(f"{where}: LED index {index} is outside the strip "
                                      f"(0-{self.led_count - 1}); raise led_count or fix it")
                if index in seen:
                    raise LayoutError(f"{where}: LED {index} is already used by {seen[index]}")
                seen[index] = where

    # -- reading and writing ---------------------------------------------------------------
    @classmethod
    def from_json(cls, data: Any) -> Layout:
        if not isinstance(data, Mapping):
            raise LayoutError("a layout must be a JSON object")
        if data.get("format", FORMAT) != FORMAT:
            raise LayoutError(f"not a board layout: format is {data.get('format')!r}, "
                              f"expected {FORMAT!r}")
        if data.get("version", 1) != 1:
            raise LayoutError(f"layout version {data.get('version')!r} is not supported (1)")
        try:
            boards_data = data["boards"]
            led_count = data["led_count"]
        except KeyError as exc:
            raise LayoutError(f"the layout has no {exc.args[0]!r}") from exc
        if not isinstance(boards_data, Sequence) or isinstance(boards_data, str):
            raise LayoutError("'boards' must be a list")
        boards = []
        for b, entry in enumerate(boards_data):
            if not isinstance(entry, Mapping):
                raise LayoutError(f"board {b} must be a JSON object")
            try:
                rows = [entry[name] for name in ROWS]
            except KeyError as exc:
                raise LayoutError(f"board {b} has no row {exc.args[0]!r}") from exc
            for name, row in zip(ROWS, rows, strict=True):
                if not isinstance(row, Sequence) or isinstance(row, str):
                    raise LayoutError(f"board {b} row {name!r} must be a list of 10 indexes")
            boards.append(BoardLayout(tuple(rows[0]), tuple(rows[1]), tuple(rows[2]),
                                      entry.get("minus"), entry.get("thousand")))
        if not isinstance(led_count, int):
            raise LayoutError(f"led_count must be an integer, got {led_count!r}")
        return cls(led_count, tuple(boards),
                   int(data.get("max_brightness", DEFAULT_MAX_BRIGHTNESS)),
                   int(data.get("milliamps_per_led", MILLIAMPS_PER_LED)),
                   str(data.get("description", "")))

    @classmethod
    def load(cls, path: str | Path) -> Layout:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise LayoutError(f"cannot read layout {path}: {exc.strerror or exc}") from exc
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LayoutError(f"layout {path} is not valid JSON (line {exc.lineno}: "
                              f"{exc.msg})") from exc
        return cls.from_json(data)

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": 1, "description": self.description,
                "led_count": self.led_count, "max_brightness": self.max_brightness,
                "milliamps_per_led": self.milliamps_per_led,
                "boards": [b.to_json() for b in self.boards]}

    def dumps(self) -> str:
        """Layout JSON with one row per line (the committed file's format)."""
        lines = ["{"]
        head = self.to_json()
        del head["boards"]
        for key, value in head.items():
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)},")
        lines.append('  "boards": [')
        for b, board in enumerate(self.boards):
            lines.append("    {")
            for name in ROWS:
                lines.append(f'      "{name}": {json.dumps(list(board.row(name)))},')
            lines.append(f'      "minus": {json.dumps(board.minus)}, '
                         f'"thousand": {json.dumps(board.thousand)}')
            lines.append("    }" + ("," if b < len(self.boards) - 1 else ""))
        lines.append("  ]")
        lines.append("}")
        return "\n".join(lines) + "\n"

    # -- mapping ---------------------------------------------------------------------------
    def index(self, board: int, row: str, hole: int) -> int:
        """The LED under a hole (row ``hundreds``/``tens``/``ones``) or a light (``minus``,
        ``thousand``; ``hole`` ignored)."""
        if not 0 <= board < len(self.boards):
            raise LayoutError(f"board {board} is not in the layout (0-{len(self.boards) - 1})")
        entry = self.boards[board]
        if row in LIGHTS:
            led = entry.minus if row == "minus" else entry.thousand
            if led is None:
                raise LayoutError(f"board {board} has no {row} light")
            return led
        if not 0 <= hole <= 9:
            raise LayoutError(f"hole must be 0-9, got {hole}")
        return entry.row(row)[hole]

    def lit(self, scene: Scene) -> dict[int, RGB]:
        """LED index -> colour for every lit LED of the scene (unscaled; brightness is
        applied by the strip driver)."""
        if len(scene.boards) > len(self.boards):
            raise LayoutError(f"the state has {len(scene.boards)} boards but the layout only "
                              f"{len(self.boards)}: use a layout with more boards")
        lit: dict[int, RGB] = {}
        for pegs, board in zip(scene.boards, self.boards, strict=False):
            for name, hole in zip(ROWS, (pegs.hundreds, pegs.tens, pegs.ones), strict=True):
                lit[board.row(name)[hole]] = pegs.colour
            if pegs.minus and board.minus is not None:
                lit[board.minus] = pegs.colour
            if pegs.thousand and board.thousand is not None:
                lit[board.thousand] = pegs.colour
        return lit

    def render(self, scene: Scene) -> bytes:
        """The whole strip as ``led_count * 3`` bytes R, G, B (the firmware's LED buffer)."""
        buffer = bytearray(self.led_count * 3)
        for index, (r, g, b) in self.lit(scene).items():
            buffer[index * 3:index * 3 + 3] = bytes((r, g, b))
        return bytes(buffer)

    def capped(self, brightness: int) -> int:
        return max(0, min(brightness, self.max_brightness))

    def supply_milliamps(self, lit_leds: int | None = None, brightness: int | None = None) -> int:
        """Worst-case current at ``brightness`` (default: the cap) for ``lit_leds`` LEDs at
        full white (default: all), plus 1 mA per LED of quiescent draw."""
        lit_leds = self.led_count if lit_leds is None else lit_leds
        level = self.max_brightness if brightness is None else brightness
        return lit_leds * self.milliamps_per_led * level // 255 + self.led_count


def serpentine_board(start: int) -> BoardLayout:
    """One board wired as a snake from ``start``: hundreds left to right, tens right to left,
    ones left to right, then the minus and thousand lights."""
    return BoardLayout(
        hundreds=tuple(range(start, start + 10)),
        tens=tuple(range(start + 19, start + 9, -1)),
        ones=tuple(range(start + 20, start + 30)),
        minus=start + 30,
        thousand=start + 31,
    )


def default_layout(boards: int = MAX_BOARDS) -> Layout:
    """The default layout: ``boards`` serpentine boards of 32 LEDs chained on one strip."""
    if not 1 <= boards <= MAX_BOARDS:
        raise LayoutError(f"1-{MAX_BOARDS} boards, got {boards}")
    return Layout(
        led_count=boards * LEDS_PER_BOARD,
        boards=tuple(serpentine_board(b * LEDS_PER_BOARD) for b in range(boards)),
        description=(f"{boards} boards of 32 WS2812 LEDs on one strip, each wired as a snake: "
                     "hundreds row holes 0-9 left to right, tens row right to left, ones row "
                     "left to right, then the minus light and the thousand light"),
    )
