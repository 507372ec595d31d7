"""The project's own drawings of a Toss Double Deluxe deck, made deterministically with OpenCV.

The real deck's art is not available to us, so the built-in profile, the tests and the
benchmark photos use these drawings. Two styles exist: ``REFERENCE`` (the built-in deck) and
``ALTERNATE`` (different glyphs, font, index layout and inks), which stands in for "some other
deck the table owns" and is learned from photos like any user deck.

>>> card = draw_card("Qsh")
>>> card.image.shape, card.alpha.shape
((700, 500, 3), (700, 500))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.cards import RANK_SYMBOLS, Card

Image = npt.NDArray[Any]  # uint8 BGR pixels (loosely typed, as OpenCV returns them)

#: Width and height of a drawn card in pixels (poker size, 63 x 88 mm).
CARD_W: Final = 500
CARD_H: Final = 700


@dataclass(frozen=True, slots=True)
class DeckStyle:
    """How a deck is drawn: glyph set, font, index layout and inks (BGR)."""

    name: str
    font: int
    glyphs: str  # "classic" or "alternate"
    rank_height: float  # index rank height, fraction of card height
    pip_height: float  # index pip height, fraction of card height
    index_x: float  # index column centre, fraction of card width
    index_top: float  # top of the rank, fraction of card height
    gap: float  # gap between rank and pip, fraction of card height
    thickness: float  # stroke thickness relative to rank height
    inks: tuple[tuple[str, tuple[int, int, int]], ...]
    corner_radius: float = 0.045

    def ink(self, name: str) -> tuple[int, int, int]:
        return dict(self.inks)[name]


REFERENCE: Final = DeckStyle(
    name="reference",
    font=cv2.FONT_HERSHEY_DUPLEX,
    glyphs="classic",
    rank_height=0.085,
    pip_height=0.07,
    index_x=0.115,
    index_top=0.045,
    gap=0.028,
    thickness=0.16,
    inks=(
        ("black", (30, 30, 30)), ("red", (40, 35, 200)), ("gold", (20, 150, 215)),
        ("blue", (175, 85, 25)), ("boss", (110, 30, 100)), ("null", (90, 90, 90)),
    ),
)

ALTERNATE: Final = DeckStyle(
    name="alternate",
    font=cv2.FONT_HERSHEY_COMPLEX,
    glyphs="alternate",
    rank_height=0.095,
    pip_height=0.06,
    index_x=0.125,
    index_top=0.05,
    gap=0.03,
    thickness=0.13,
    inks=(
        ("black", (15, 15, 15)), ("red", (30, 20, 180)), ("gold", (10, 170, 225)),
        ("blue", (150, 60, 10)), ("boss", (20, 90, 20)), ("null", (120, 110, 100)),
    ),
    corner_radius=0.06,
)

STYLES: Final[dict[str, DeckStyle]] = {REFERENCE.name: REFERENCE, ALTERNATE.name: ALTERNATE}


@dataclass(frozen=True, slots=True)
class DrawnCard:
    """A drawn card: BGR image on white, and its alpha (rounded corners are transparent)."""

    code: str
    image: Image
    alpha: Image


def _ink_name(card: Card) -> str:
    if card.is_boss:
        return "boss"
    if card.is_null:
        return "null"
    colour = card.colour
    return colour if colour is not None else "black"


def _rank_text(card: Card) -> str:
    if card.suit is not None:
        return RANK_SYMBOLS[card.rank]
    if card.is_boss:
        return "B"
    if card.is_null:
        return "N"
    return "J"


def _glyph_kind(card: Card) -> str:
    if card.suit is not None:
        return card.suit
    if card.is_boss:
        return "crown"
    if card.is_null:
        return "null"
    return "star"


def _star(points: int, inner: float) -> list[tuple[float, float]]:
    out = []
    for i in range(points * 2):
        radius = 0.5 if i % 2 == 0 else 0.5 * inner
        angle = -math.pi / 2 + i * math.pi / points
        out.append((radius * math.cos(angle), radius * math.sin(angle) + 0.03))
    return out


# Glyphs are drawn in unit coordinates (height 1, centred on 0); each is one connected shape.
# Entries: ("poly", points) | ("circle", cx, cy, r) | ("ellipse", cx, cy, ax, ay)
# | ("hole-circle", ...) | ("hole-poly", points) | ("line", x0, y0, x1, y1, width)
_GLYPHS: Final[dict[str, dict[str, list[tuple[Any, ...]]]]] = {
    "classic": {
        "di": [("poly", [(0, -0.5), (0.37, 0), (0, 0.5), (-0.37, 0)])],
        "he": [("circle", -0.21, -0.2, 0.24), ("circle", 0.21, -0.2, 0.24),
               ("poly", [(-0.44, -0.1), (0.44, -0.1), (0, 0.5)])],
        "sp": [("circle", -0.21, 0.08, 0.22), ("circle", 0.21, 0.08, 0.22),
               ("poly", [(-0.42, 0.0), (0.42, 0.0), (0, -0.5)]),
               ("poly", [(0, 0.05), (-0.16, 0.5), (0.16, 0.5)])],
        "cl": [("circle", 0, -0.27, 0.2), ("circle", -0.23, 0.06, 0.2),
               ("circle", 0.23, 0.06, 0.2), ("circle", 0, -0.02, 0.12),
               ("poly", [(0, -0.05), (-0.16, 0.5), (0.16, 0.5)])],
        "cr": [("poly", [(-0.11, -0.5), (0.11, -0.5), (0.11, -0.27), (0.36, -0.27),
                         (0.36, -0.05), (0.11, -0.05), (0.11, 0.5), (-0.11, 0.5),
                         (-0.11, -0.05), (-0.36, -0.05), (-0.36, -0.27), (-0.11, -0.27)])],
        "or": [("ellipse", 0, 0, 0.5, 0.3), ("hole-circle", 0, 0, 0.14)],
        "ca": [("poly", [(-0.42, 0.5), (-0.42, -0.45), (-0.24, -0.45), (-0.24, -0.25),
                         (-0.09, -0.25), (-0.09, -0.45), (0.09, -0.45), (0.09, -0.25),
                         (0.24, -0.25), (0.24, -0.45), (0.42, -0.45), (0.42, 0.5)]),
               ("hole-poly", [(-0.12, 0.5), (-0.12, 0.18), (0.12, 0.18), (0.12, 0.5)])],
        "sh": [("poly", [(-0.4, -0.5), (0.4, -0.5), (0.4, 0.05), (0.2, 0.35), (0, 0.5),
                         (-0.2, 0.35), (-0.4, 0.05)]),
               ("hole-poly", [(-0.05, -0.38), (0.05, -0.38), (0.05, 0.3), (-0.05, 0.3)])],
        "star": [("poly", _star(5, 0.42))],
        "crown": [("poly", [(-0.47, 0.4), (-0.47, -0.38), (-0.23, -0.02), (0, -0.5),
                            (0.23, -0.02), (0.47, -0.38), (0.47, 0.4)])],
        "null": [("circle", 0, 0, 0.45), ("hole-circle", 0, 0, 0.3),
                 ("line", -0.42, 0.42, 0.42, -0.42, 0.14)],
    },
    "alternate": {
        "di": [("poly", [(0, -0.5), (0.2, -0.2), (0.3, 0), (0.2, 0.2), (0, 0.5),
                         (-0.2, 0.2), (-0.3, 0), (-0.2, -0.2)])],
        "he": [("circle", -0.2, -0.14, 0.26), ("circle", 0.2, -0.14, 0.26),
               ("poly", [(-0.45, 0.0), (0.45, 0.0), (0, 0.5)]),
               ("hole-poly", [(-0.05, -0.42), (0.05, -0.42), (0, -0.25)])],
        "sp": [("poly", [(0, -0.5), (0.42, 0.05), (0.2, 0.25), (0.08, 0.15), (0.18, 0.5),
                         (-0.18, 0.5), (-0.08, 0.15), (-0.2, 0.25), (-0.42, 0.05)])],
        "cl": [("poly", [(0, -0.5), (0.17, -0.02), (-0.17, -0.02)]),
               ("poly", [(-0.45, 0.2), (-0.1, 0.0), (-0.1, 0.35)]),
               ("poly", [(0.45, 0.2), (0.1, 0.0), (0.1, 0.35)]),
               ("circle", 0, 0.08, 0.17), ("poly", [(-0.07, 0.1), (0.07, 0.1), (0.1, 0.5),
                                                  (-0.1, 0.5)])],
        "cr": [("line", -0.38, -0.38, 0.38, 0.38, 0.2), ("line", -0.38, 0.38, 0.38, -0.38, 0.2)],
        "or": [("circle", 0, 0, 0.3), ("line", 0, -0.5, 0, 0.5, 0.1),
               ("line", -0.5, 0, 0.5, 0, 0.1), ("hole-circle", 0, 0, 0.12)],
        "ca": [("poly", [(-0.25, 0.5), (-0.25, -0.3), (-0.3, -0.5), (-0.12, -0.5), (-0.12, -0.38),
                         (0.12, -0.38), (0.12, -0.5), (0.3, -0.5), (0.25, -0.3), (0.25, 0.5)])],
        "sh": [("circle", 0, 0, 0.42), ("hole-circle", 0, 0, 0.3), ("circle", 0, 0, 0.16),
               ("line", -0.36, 0, 0.36, 0, 0.08)],
        "star": [("poly", _star(6, 0.55))],
        "crown": [("poly", [(-0.45, 0.35), (-0.45, -0.1), (-0.3, -0.45), (-0.15, -0.1),
                            (0, -0.45), (0.15, -0.1), (0.3, -0.45), (0.45, -0.1), (0.45, 0.35)]),
                  ("hole-circle", 0, 0.12, 0.1)],
        "null": [("poly", [(-0.4, -0.4), (0.4, -0.4), (0.4, 0.4), (-0.4, 0.4)]),
                 ("hole-poly", [(-0.26, -0.26), (0.26, -0.26), (0.26, 0.26), (-0.26, 0.26)]),
                 ("line", -0.4, 0.4, 0.4, -0.4, 0.12)],
    },
}

_SHIFT: Final = 4  # sub-pixel drawing precision bits
_SCALE: Final = 1 << _SHIFT


def draw_glyph(
    img: Image, kind: str, centre: tuple[float, float], size: float,
    colour: tuple[int, int, int], glyphs: str = "classic", angle: float = 0.0,
) -> None:
    """Draw one suit (or joker/null) glyph of height ``size`` centred on ``centre``, in place."""
    cx, cy = centre
    ca, sa = math.cos(angle), math.sin(angle)
    white = (255, 255, 255)

    def pt(x: float, y: float) -> tuple[int, int]:
        rx, ry = x * ca - y * sa, x * sa + y * ca
        return (round((cx + rx * size) * _SCALE), round((cy + ry * size) * _SCALE))

    for part in _GLYPHS[glyphs][kind]:
        op = part[0]
        fill = white if op.startswith("hole") else colour
        if op in ("poly", "hole-poly"):
            pts = np.array([pt(x, y) for x, y in part[1]], np.int32)
            cv2.fillPoly(img, [pts], fill, cv2.LINE_AA, _SHIFT)
        elif op in ("circle", "hole-circle"):
            centre_pt = pt(part[1], part[2])
            cv2.circle(img, centre_pt, round(part[3] * size * _SCALE), fill, -1, cv2.LINE_AA,
                       _SHIFT)
        elif op == "ellipse":
            axes = (round(part[3] * size * _SCALE), round(part[4] * size * _SCALE))
            cv2.ellipse(img, pt(part[1], part[2]), axes, math.degrees(angle), 0, 360, fill, -1,
                        cv2.LINE_AA, _SHIFT)
        elif op == "line":
            width = max(1, round(part[5] * size))
            cv2.line(img, pt(part[1], part[2]), pt(part[3], part[4]), fill, width, cv2.LINE_AA,
                     _SHIFT)


def _put_text(
    img: Image, text: str, centre_x: float, top: float, height: float,
    colour: tuple[int, int, int], style: DeckStyle,
) -> float:
    """Draw text with its cap height ``height``, centred on ``centre_x``; return its bottom."""
    (_, base_h), _ = cv2.getTextSize("8", style.font, 1.0, 1)
    scale = height / base_h
    thickness = max(1, round(style.thickness * height))
    (w, _), _ = cv2.getTextSize(text, style.font, scale, thickness)
    org = (round(centre_x - w / 2), round(top + height))
    cv2.putText(img, text, org, style.font, scale, colour, thickness, cv2.LINE_AA)
    return top + height


def _draw_index(img: Image, card: Card, style: DeckStyle, colour: tuple[int, int, int]) -> None:
    h, w = img.shape[:2]
    rank_h = style.rank_height * h
    pip_h = style.pip_height * h
    x = style.index_x * w
    bottom = _put_text(img, _rank_text(card), x, style.index_top * h, rank_h, colour, style)
    draw_glyph(img, _glyph_kind(card), (x, bottom + style.gap * h + pip_h / 2), pip_h, colour,
               style.glyphs)


def _pip_positions(n: int) -> list[tuple[float, float]]:
    rows = (n + 1) // 2
    ys = [0.25 + 0.5 * i / max(1, rows - 1) for i in range(rows)] if rows > 1 else [0.5]
    out = []
    for i in range(n // 2):
        out += [(0.33, ys[i]), (0.67, ys[i])]
    if n % 2:
        out.append((0.5, 0.5))
    return out


def _draw_centre(img: Image, card: Card, style: DeckStyle, colour: tuple[int, int, int]) -> None:
    h, w = img.shape[:2]
    kind = _glyph_kind(card)
    if card.suit is not None and 2 <= card.rank <= 10:
        for fx, fy in _pip_positions(card.rank):
            draw_glyph(img, kind, (fx * w, fy * h), 0.1 * h, colour, style.glyphs,
                       angle=math.pi if fy > 0.5 else 0.0)
        return
    if card.suit is not None and card.rank == 1:
        draw_glyph(img, kind, (0.5 * w, 0.5 * h), 0.3 * h, colour, style.glyphs)
        return
    # Court cards, jokers and the null: a frame with a large letter and glyph.
    x0, y0, x1, y1 = round(0.24 * w), round(0.17 * h), round(0.76 * w), round(0.83 * h)
    cv2.rectangle(img, (x0, y0), (x1, y1), colour, max(2, round(0.006 * h)), cv2.LINE_AA)
    letter = _rank_text(card) if card.suit is not None else {"B": "BOSS", "N": "NULL"}.get(
        _rank_text(card), "JOKER")
    letter_h = 0.16 * h if len(letter) == 1 else 0.05 * h
    _put_text(img, letter, 0.5 * w, 0.24 * h, letter_h, colour, style)
    draw_glyph(img, kind, (0.5 * w, 0.6 * h), 0.22 * h, colour, style.glyphs)


def draw_card(code: str, style: DeckStyle = REFERENCE, width: int = CARD_W) -> DrawnCard:
    """Draw one card (any Toss or standard code) face up, upright, ``width`` pixels wide."""
    card = Card.parse(code)
    height = round(width * CARD_H / CARD_W)
    img = np.full((height, width, 3), 255, np.uint8)
    colour = style.ink(_ink_name(card))
    _draw_centre(img, card, style, colour)
    index = np.full_like(img, 255)
    _draw_index(index, card, style, colour)
    # Two indices: top-left, and the same upside down at the bottom-right corner.
    img = np.minimum(np.minimum(img, index), cv2.rotate(index, cv2.ROTATE_180))
    alpha = np.zeros((height, width), np.uint8)
    radius = round(style.corner_radius * width)
    cv2.rectangle(alpha, (radius, 0), (width - 1 - radius, height - 1), 255, -1)
    cv2.rectangle(alpha, (0, radius), (width - 1, height - 1 - radius), 255, -1)
    for cx, cy in ((radius, radius), (width - 1 - radius, radius), (radius, height - 1 - radius),
                   (width - 1 - radius, height - 1 - radius)):
        cv2.circle(alpha, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    return DrawnCard(card.code, img, alpha)

