"""Pictures of the LED board from a layout: text for the terminal and SVG.

With no LED buffer the SVG is the build drawing: every hole and light labelled with its LED
index and the strip's path drawn through them (``hardware/board-map.svg``). With a buffer it
shows what is lit, as the emulator does.

>>> from firmware_bridge.layout import default_layout
>>> from firmware_bridge.scene import Scene
>>> layout = default_layout(1)
>>> print(board_text(layout, layout.render(Scene.from_scores([("#ff0000", -437)]))))
board 1  #ff0000  [-]  1000 .
  100s  . . . . o . . . . .
   10s  . . . o . . . . . .
    1s  . . . . . . . o . .
"""

from __future__ import annotations

from html import escape

from firmware_bridge.layout import ROWS, Layout
from firmware_bridge.scene import format_colour

ROW_LABELS = {"hundreds": "100s", "tens": "10s", "ones": "1s"}
HOLE_DX = 34
ROW_DY = 40
BOARD_W = 60 + 10 * HOLE_DX + 70
BOARD_H = 60 + 3 * ROW_DY
PER_LINE = 3


def _colour(leds: bytes | None, index: int | None) -> tuple[int, int, int] | None:
    if leds is None or index is None or 3 * index + 3 > len(leds):
        return None
    rgb = (leds[3 * index], leds[3 * index + 1], leds[3 * index + 2])
    return rgb if any(rgb) else None


def board_text(layout: Layout, leds: bytes) -> str:
    """One block per board: the lit holes as ``o``, dark ones as ``.``."""
    lines = []
    for b, board in enumerate(layout.boards):
        lit = [c for c in (_colour(leds, i) for i in board.all_leds()) if c]
        colour = format_colour(lit[0]) if lit else "dark   "
        minus = "[-]" if _colour(leds, board.minus) else " . "
        thousand = "1000 o" if _colour(leds, board.thousand) else "1000 ."
        lines.append(f"board {b + 1}  {colour}  {minus}  {thousand}")
        for name in ROWS:
            holes = " ".join("o" if _colour(leds, i) else "." for i in board.row(name))
            lines.append(f"  {ROW_LABELS[name]:>4}  {holes}")
    return "\n".join(lines)


def _origin(board: int) -> tuple[int, int]:
    """The top left corner of a board in the drawing (``PER_LINE`` boards a line)."""
    return 20 + (board % PER_LINE) * (BOARD_W + 20), 20 + (board // PER_LINE) * (BOARD_H + 20)


def _positions(layout: Layout) -> dict[int, tuple[float, float, str, int]]:
    """LED index -> (x, y, label, board) in the drawing."""
    out: dict[int, tuple[float, float, str, int]] = {}
    for b, board in enumerate(layout.boards):
        ox, oy = _origin(b)
        for r, name in enumerate(ROWS):
            for hole, index in enumerate(board.row(name)):
                out[index] = (ox + 70 + hole * HOLE_DX, oy + 50 + r * ROW_DY, str(hole), b)
        if board.thousand is not None:
            out[board.thousand] = (ox + 70 + 10 * HOLE_DX + 14, oy + 50, "1000", b)
        if board.minus is not None:
            out[board.minus] = (ox + 70 + 10 * HOLE_DX + 14, oy + 50 + 2 * ROW_DY, "minus", b)
    return out


def board_svg(layout: Layout, leds: bytes | None = None, title: str = "") -> str:
    """The boards as SVG; without ``leds``, the hole-to-LED map with the strip's path."""
    lines_used = (len(layout.boards) + PER_LINE - 1) // PER_LINE
    width = 20 + min(len(layout.boards), PER_LINE) * (BOARD_W + 20)
    height = 20 + lines_used * (BOARD_H + 20) + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, sans-serif">',
           f'<title>{escape(title or "LED board map")}</title>',
           f'<rect width="{width}" height="{height}" fill="#3b2a1a"/>']
    for b in range(len(layout.boards)):
        ox, oy = _origin(b)
        out.append(f'<rect x="{ox}" y="{oy}" width="{BOARD_W}" height="{BOARD_H}" rx="10" '
                   'fill="#8a5a2b" stroke="#2a1a0a"/>')
        out.append(f'<text x="{ox + 10}" y="{oy + 22}" font-size="14" fill="#fff">'
                   f'board {b + 1}</text>')
        for r, name in enumerate(ROWS):
            out.append(f'<text x="{ox + 10}" y="{oy + 55 + r * ROW_DY}" font-size="12" '
                       f'fill="#fde">{ROW_LABELS[name]}</text>')
    positions = _positions(layout)
    if leds is None:  # the strip's path, in LED order, within each board
        path: list[str] = []
        for index in sorted(positions):
            x, y, _, board = positions[index]
            joined = index - 1 in positions and positions[index - 1][3] == board
            path.append(f'{"L" if joined else "M"}{x:.0f},{y:.0f}')
            if not joined:
                out.append(f'<text x="{x:.0f}" y="{y - 15:.0f}" font-size="9" '
                           f'text-anchor="middle" fill="#7fd1ff">data in</text>')
        out.append(f'<path d="{" ".join(path)}" fill="none" stroke="#7fd1ff" '
                   'stroke-width="2" stroke-dasharray="4 3"/>')
    for index, (x, y, label, _) in sorted(positions.items()):
        rgb = _colour(leds, index)
        fill = format_colour(rgb) if rgb else "#1c1208"
        out.append(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="12" fill="{fill}" stroke="#000"/>')
        if leds is None:
            out.append(f'<text x="{x:.0f}" y="{y + 4:.0f}" font-size="10" text-anchor="middle" '
                       f'fill="#fff">{index}</text>')
        if label in ("1000", "minus"):
            dy = -15 if label == "1000" else 24
            out.append(f'<text x="{x:.0f}" y="{y + dy:.0f}" font-size="9" '
                       f'text-anchor="middle" fill="#fde">{label}</text>')
    caption = (f"{layout.led_count} LEDs; numbers are strip indexes (hole 0 at the left); "
               "dashed line: the strip's data path; each board's last LED feeds the next "
               "board's data in") if leds is None else escape(title)
    out.append(f'<text x="20" y="{height - 12}" font-size="13" fill="#fff">{caption}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
