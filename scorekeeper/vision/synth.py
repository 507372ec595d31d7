"""Synthetic phone photos of cards on a table, with ground truth, for tests and the benchmark.

A scene is laid out on the table plane in millimetres (fans of overlapping cards, cards apart,
or both), seen through a pinhole camera tilted up to 45 degrees, over felt or wood, lit by a
light gradient, a cast shadow and warm or cool light, blurred, noised, JPEG-compressed, and
sometimes stored sideways with an EXIF orientation tag, as phones do.

>>> import numpy as np
>>> shot = make_photo(np.random.default_rng(1), ["Acl", "7he", "Qsh"], size=(800, 600))
>>> shot.jpeg[:2], len(shot.cards) >= 1
(b'\\xff\\xd8', True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.vision.art import ArtDeck
from scorekeeper.vision.images import with_orientation
from scorekeeper.vision.reference import CARD_H, CARD_W, REFERENCE, DeckStyle, DrawnCard, draw_card

Image = npt.NDArray[Any]  # uint8 BGR pixels (loosely typed, as OpenCV returns them)
Points = npt.NDArray[np.float64]

CARD_MM: Final = (63.0, 88.0)
_MM_PER_PX: Final = CARD_MM[0] / CARD_W
#: A drawn card's corners (TL, TR, BR, BL) in its own pixels.
_CORNERS: Final = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], float)


@dataclass(frozen=True, slots=True)
class TruthCard:
    """A card in a synthetic photo: code, upright-photo corners (TL, TR, BR, BL), top flag."""

    code: str
    corners: tuple[tuple[float, float], ...]
    top: bool

    @property
    def centre(self) -> tuple[float, float]:
        xs, ys = zip(*self.corners, strict=True)
        return (sum(xs) / 4, sum(ys) / 4)


@dataclass(frozen=True, slots=True)
class SynthPhoto:
    """A JPEG photo and what is in it."""

    jpeg: bytes
    cards: tuple[TruthCard, ...]
    width: int
    height: int
    kind: str
    tilt: float
    quality: int
    orientation: int


def match(truth: Sequence[TruthCard],
          outlines: Sequence[Sequence[tuple[float, float]]]) -> dict[int, int]:
    """Which reading (by its outline's corners) is which card of a photo: truth index ->
    reading index. A reading may be a card whose centre lies within 0.6 card widths of its
    own; the closest outlines pair first, corner by corner and either way round (a card read
    from its other index has its outline turned half round), so that two cards of a pile
    lying across each other, centre on centre, are not taken for each other.

    >>> a = TruthCard("7sp", ((0, 0), (10, 0), (10, 14), (0, 14)), False)
    >>> b = TruthCard("Jcl", ((12, 2), (12, 12), (-2, 12), (-2, 2)), False)
    >>> match([a, b], [b.corners, a.corners[2:] + a.corners[:2]])
    {0: 1, 1: 0}
    """
    candidates = []
    for i, card in enumerate(truth):
        tc = np.array(card.corners, np.float64)
        width = float(np.linalg.norm(tc[1] - tc[0]))
        for j, outline in enumerate(outlines):
            quad = np.array(outline, np.float64)
            if float(np.linalg.norm(quad.mean(axis=0) - tc.mean(axis=0))) < 0.6 * width:
                apart = min(float(np.linalg.norm(np.roll(quad, k, axis=0) - tc, axis=1).mean())
                            for k in (0, 2))
                candidates.append((apart, i, j))
    pairs: dict[int, int] = {}
    for _, i, j in sorted(candidates):
        if i not in pairs and j not in pairs.values():
            pairs[i] = j
    return pairs


def outline_off(truth: Sequence[tuple[float, float]],
                found: Sequence[tuple[float, float]]) -> float:
    """How far a reading's outline lies from its card's at the worst corner, in card widths,
    either way round (as ``match`` pairs them: a card read from its other index has its
    outline turned half round).

    >>> card = ((0, 0), (10, 0), (10, 14), (0, 14))
    >>> outline_off(card, ((10, 14), (0, 14), (0, 0), (10, 1)))
    0.1
    """
    t, q = np.array(truth, np.float64), np.array(found, np.float64)
    width = float(np.linalg.norm(t[1] - t[0]))
    return min(float(np.linalg.norm(np.roll(q, k, axis=0) - t, axis=1).max())
               for k in (0, 2)) / width


_CARD_CACHE: dict[tuple[str, str], DrawnCard] = {}

#: A deck to photograph: one of the project's drawn styles, or third-party art.
Deck = DeckStyle | ArtDeck


def _drawn(code: str, style: Deck) -> DrawnCard:
    if isinstance(style, ArtDeck):
        return style.cards[code]
    key = (code, style.name)
    if key not in _CARD_CACHE:
        _CARD_CACHE[key] = draw_card(code, style)
    return _CARD_CACHE[key]


def _outline(drawn: DrawnCard) -> Points:
    """A drawn card's corners (TL, TR, BR, BL) in its own pixels."""
    h, w = drawn.image.shape[:2]
    if (w, h) == (CARD_W, CARD_H):
        return _CORNERS
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], float)


def _rot(theta: float) -> npt.NDArray[np.float64]:
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, -s], [s, c]])


def _card_to_plane(centre: Points, theta: float, height: int = CARD_H) -> (
        npt.NDArray[np.float64]):
    """3x3 map from card-drawing pixels (CARD_W wide, ``height`` high) to table millimetres."""
    m = np.eye(3)
    m[:2, :2] = _rot(theta) * _MM_PER_PX
    m[:2, 2] = centre - m[:2, :2] @ np.array([CARD_W / 2, height / 2])
    return m


def _layout(rng: np.random.Generator, codes: Sequence[str], kind: str) -> list[
        tuple[str, Points, float, bool]]:
    """Cards in drawing order: (code, centre mm, angle rad, top)."""
    out: list[tuple[str, Points, float, bool]] = []
    pool = list(codes)
    rng.shuffle(pool)
    if kind in ("fan", "mixed"):
        n = int(rng.integers(3, 8)) if kind == "fan" else int(rng.integers(3, 5))
        n = min(n, len(pool))
        spacing = float(rng.uniform(15.0, 22.0))
        step = math.radians(float(rng.uniform(0.0, 7.0)))
        base = float(rng.uniform(0, 2 * math.pi))
        reverse = kind == "fan" and rng.random() < 0.15
        fan = []
        for i in range(n):
            k = i - (n - 1) / 2
            local = np.array([i * spacing, 0.5 * k * k * step * spacing])
            fan.append((pool.pop(), _rot(base) @ local, base + k * step))
        if reverse:
            fan.reverse()
        for j, (code, centre, theta) in enumerate(fan):
            out.append((code, centre, theta, j == len(fan) - 1))
    if kind in ("apart", "mixed"):
        n = int(rng.integers(1, 6)) if kind == "apart" else int(rng.integers(1, 3))
        placed = [c for _, c, _, _ in out]
        for _ in range(min(n, len(pool))):
            for _attempt in range(200):
                centre = rng.uniform(-140, 140, size=2)
                if all(np.linalg.norm(centre - p) > 115 for p in placed):
                    break
            else:
                continue
            placed.append(centre)
            out.append((pool.pop(), centre, float(rng.uniform(0, 2 * math.pi)), False))
    centre = np.mean([c for _, c, _, _ in out], axis=0)
    return [(code, c - centre, t, top) for code, c, t, top in out]


def _camera(rng: np.random.Generator, tilt_deg: float, radius: float) -> npt.NDArray[np.float64]:
    """3x3 homography from the table plane (mm, centred) to camera pixels (before framing)."""
    tilt = math.radians(tilt_deg)
    azimuth = float(rng.uniform(0, 2 * math.pi))
    axis = np.array([math.cos(azimuth), math.sin(azimuth), 0.0])
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    r = np.eye(3) + math.sin(tilt) * k + (1 - math.cos(tilt)) * (k @ k)
    distance = radius * float(rng.uniform(2.2, 3.5))
    f = 1000.0
    kmat = np.array([[f, 0, 0], [0, f, 0], [0, 0, 1.0]])
    rt = np.column_stack([r[:, 0], r[:, 1], np.array([0, 0, distance])])
    out: npt.NDArray[np.float64] = kmat @ rt
    return out


def _project(h: npt.NDArray[np.float64], pts: Points) -> Points:
    p = np.hstack([pts, np.ones((len(pts), 1))]) @ h.T
    out: Points = p[:, :2] / p[:, 2:3]
    return out


def background(rng: np.random.Generator, width: int, height: int) -> Image:
    """Felt, wood or dark cloth, drawn at low resolution and enlarged, with fine grain."""
    sw, sh = max(8, width // 4), max(8, height // 4)
    kind = rng.choice(["green felt", "blue felt", "red felt", "wood", "light wood", "dark"])
    base = {
        "green felt": (45, 105, 35), "blue felt": (110, 60, 25), "red felt": (40, 35, 115),
        "wood": (45, 85, 135), "light wood": (95, 150, 195), "dark": (45, 42, 40),
    }[str(kind)]
    noise = cv2.GaussianBlur(rng.normal(0, 1, (sh, sw)).astype(np.float32), (0, 0), 2.0)
    tex = noise * 6.0
    if "wood" in str(kind):
        angle = float(rng.uniform(0, math.pi))
        yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
        along = xx * math.cos(angle) + yy * math.sin(angle)
        warp = cv2.GaussianBlur(rng.normal(0, 1, (sh, sw)).astype(np.float32), (0, 0), 12) * 60
        grain = np.sin((along + warp) * float(rng.uniform(0.05, 0.12)))
        tex = tex + grain.astype(np.float32) * 18.0
    img = np.clip(np.array(base, np.float32)[None, None, :] * (1 + tex[..., None] / 120.0)
                  + tex[..., None] * 0.3, 0, 255)
    big: Image = cv2.resize(img.astype(np.uint8), (width, height),
                            interpolation=cv2.INTER_LINEAR)
    return big


def _lighting(rng: np.random.Generator, width: int, height: int) -> npt.NDArray[np.float32]:
    """A smooth light field (gradient and maybe a soft cast shadow), values about 0.55..1.1."""
    sw, sh = 64, 48
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    a = float(rng.uniform(0, 2 * math.pi))
    ramp = ((xx / sw - 0.5) * math.cos(a) + (yy / sh - 0.5) * math.sin(a)).astype(np.float32)
    lo, hi = float(rng.uniform(0.6, 0.85)), float(rng.uniform(0.95, 1.1))
    light = lo + (hi - lo) * (ramp - ramp.min()) / max(1e-6, float(np.ptp(ramp)))
    if rng.random() < 0.5:
        mask: npt.NDArray[Any] = np.zeros((sh, sw), np.float32)
        cx, cy = rng.uniform(0, sw), rng.uniform(0, sh)
        pts = np.array([[cx + rng.uniform(-30, 30), cy + rng.uniform(-25, 25)] for _ in range(5)])
        cv2.fillConvexPoly(mask, cv2.convexHull(pts.astype(np.int32)), 1.0)
        mask = cv2.GaussianBlur(mask, (0, 0), float(rng.uniform(2, 5)))
        light = light * (1 - float(rng.uniform(0.25, 0.45)) * mask)
    out: npt.NDArray[np.float32] = cv2.resize(light.astype(np.float32), (width, height),
                                              interpolation=cv2.INTER_LINEAR)
    return out


def _paste(canvas: Image, drawn: DrawnCard, h: npt.NDArray[np.float64], shadow: float) -> None:
    """Draw one card through homography ``h`` (card pixels -> canvas), with a drop shadow."""
    ch, cw = canvas.shape[:2]
    corners = _project(h, _outline(drawn))
    pad = 12
    x0 = max(0, int(corners[:, 0].min()) - pad)
    y0 = max(0, int(corners[:, 1].min()) - pad)
    x1 = min(cw, int(corners[:, 0].max()) + pad + 1)
    y1 = min(ch, int(corners[:, 1].max()) + pad + 1)
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1.0]]) @ h
    size = (x1 - x0, y1 - y0)
    face = cv2.warpPerspective(drawn.image, shift, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(drawn.alpha, shift, size, flags=cv2.INTER_LINEAR)
    a = alpha.astype(np.float32)[..., None] / 255.0
    roi = canvas[y0:y1, x0:x1].astype(np.float32)
    if shadow > 0:
        offset = max(1.0, 0.004 * max(ch, cw))
        m = np.array([[1, 0, offset], [0, 1, offset]], np.float32)
        soft = cv2.warpAffine(alpha, m, size)
        soft = cv2.GaussianBlur(soft, (0, 0), offset * 1.5).astype(np.float32)[..., None] / 255.0
        roi *= 1.0 - shadow * soft
    roi = roi * (1.0 - a) + face.astype(np.float32) * a
    canvas[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)


def with_jokers(rng: np.random.Generator, codes: list[str], jokers: list[str]) -> list[str]:
    """The cards of a photo that holds jokers: one or two of ``jokers`` and four other cards.

    >>> jokers = ["jk-red", "jk-black"]
    >>> picked = with_jokers(np.random.default_rng(1), ["2cl", "3cl", "4cl", "5cl"] + jokers,
    ...                      jokers)
    >>> n = sum(c in jokers for c in picked)
    >>> len(set(picked)) - n, n in (1, 2)
    (4, True)
    """
    wild = rng.choice(jokers, size=min(len(jokers), int(rng.integers(1, 3))), replace=False)
    others = rng.choice([c for c in codes if c not in jokers], size=4, replace=False)
    return [str(c) for c in (*wild, *others)]


def make_photo(
    rng: np.random.Generator,
    codes: Sequence[str],
    style: Deck = REFERENCE,
    size: tuple[int, int] = (4000, 3000),
    kind: str | None = None,
    max_tilt: float = 45.0,
    quality: tuple[int, int] = (40, 95),
    exif: bool = True,
    light: str | None = None,
    table: str = "plain",
) -> SynthPhoto:
    """One photo of cards drawn from ``codes`` (each used at most once), with ground truth.

    ``kind`` is ``fan``, ``apart`` or ``mixed`` (random by default; ``wild`` tables add
    ``pile``); ``light`` is ``warm``, ``cool`` or ``neutral`` (random by default). ``table``
    ``wild`` varies more of what real tables vary: patterned and busy cloths, mixed light,
    glare, motion blur, 1-8 cards from 8% to 40% of the photo width, loose piles, and a
    fingertip over a card's far end."""
    width, height = size
    wild = table == "wild"
    if kind is None:
        kinds = ["fan", "fan", "apart", "mixed"] + (["pile", "fan"] if wild else [])
        kind = str(rng.choice(kinds))
    layout = _wild_layout(rng, codes, kind) if wild else _layout(rng, codes, kind)
    heights = {code: _drawn(code, style).image.shape[0] for code, _, _, _ in layout}
    tilt = float(rng.uniform(0.0, max_tilt))
    radius = max(float(np.linalg.norm(c)) for _, c, _, _ in layout) + 60.0
    cam = _camera(rng, tilt, radius)
    # Frame the scene: fit its projected bounding box into part of the photo.
    outline = [_project(cam @ _card_to_plane(c, t, heights[code]), _outline(_drawn(code, style)))
               for code, c, t, _ in layout]
    allpts = np.vstack(outline)
    lo, hi = allpts.min(axis=0), allpts.max(axis=0)
    fit = min(width / (hi[0] - lo[0]), height / (hi[1] - lo[1]))
    if wild:
        card_w = float(np.median([np.linalg.norm(q[1] - q[0]) for q in outline]))
        scale = min(float(rng.uniform(0.08, 0.40)) * width / card_w, 0.92 * fit)
    else:
        scale = float(rng.uniform(0.55, 0.85)) * fit
    offset = np.array([width, height]) / 2 - scale * (lo + hi) / 2
    offset += rng.uniform(-0.5, 0.5, 2) * (np.array([width, height]) - scale * (hi - lo)) * 0.8
    frame = np.array([[scale, 0, offset[0]], [0, scale, offset[1]], [0, 0, 1.0]])
    canvas = wild_background(rng, width, height) if wild else background(rng, width, height)
    truth = []
    for code, centre, theta, top in layout:
        drawn = _drawn(code, style)
        h = frame @ cam @ _card_to_plane(centre, theta, heights[code])
        _paste(canvas, drawn, h, shadow=float(rng.uniform(0.2, 0.4)))
        quad = _project(h, _outline(drawn))
        truth.append(TruthCard(code, tuple((float(x), float(y)) for x, y in quad), top))
    if wild and rng.random() < 0.35:
        _fingertip(rng, canvas, np.array(truth[-1].corners))
    photo = _finish(rng, canvas, light, wild)
    q = int(rng.integers(quality[0], quality[1] + 1))
    orientation = int(rng.choice([1, 1, 3, 6, 8])) if exif else 1
    stored = {3: cv2.rotate(photo, cv2.ROTATE_180),
              6: cv2.rotate(photo, cv2.ROTATE_90_COUNTERCLOCKWISE),
              8: cv2.rotate(photo, cv2.ROTATE_90_CLOCKWISE)}.get(orientation, photo)
    ok, buf = cv2.imencode(".jpg", stored, [cv2.IMWRITE_JPEG_QUALITY, q])
    assert ok
    jpeg = buf.tobytes()
    if orientation != 1:
        jpeg = with_orientation(jpeg, orientation)
    return SynthPhoto(jpeg, tuple(truth), width, height, kind, tilt, q, orientation)


def _wild_layout(rng: np.random.Generator, codes: Sequence[str], kind: str) -> list[
        tuple[str, Points, float, bool]]:
    """Like ``_layout``, with fans and spreads of 2-8 cards, single cards, and loose piles
    in which every card still shows at least one of its two corner indices."""
    if kind != "pile":
        if kind == "fan":
            pool = list(codes)
            rng.shuffle(pool)
            n = min(int(rng.integers(2, 9)), len(pool))
            spacing = float(rng.uniform(14.0, 24.0))
            step = math.radians(float(rng.choice([0.0, float(rng.uniform(0.0, 8.0))])))
            base = float(rng.uniform(0, 2 * math.pi))
            fan = []
            for i in range(n):
                k = i - (n - 1) / 2
                local = np.array([i * spacing, 0.5 * k * k * step * spacing])
                fan.append((pool[i], _rot(base) @ local, base + k * step))
            centre = np.mean([c for _, c, _ in fan], axis=0)
            return [(code, c - centre, t, j == n - 1 and n > 1)
                    for j, (code, c, t) in enumerate(fan)]
        return _layout(rng, codes, kind)
    pool = list(codes)
    rng.shuffle(pool)
    n = min(int(rng.integers(2, 7)), len(pool))
    for _attempt in range(60):
        cards = [(pool[i], rng.uniform(-35, 35, 2), float(rng.uniform(0, 2 * math.pi)))
                 for i in range(n)]
        if all(_index_shows(cards, i) for i in range(n)):
            break
    else:
        cards = cards[-1:]
    last = len(cards) - 1
    centre = np.mean([c for _, c, _ in cards], axis=0)
    return [(code, c - centre, t, i == last and last > 0)
            for i, (code, c, t) in enumerate(cards)]


def _index_shows(cards: list[tuple[str, Points, float]], i: int) -> bool:
    """Whether card ``i`` of a pile (drawn in order) shows one corner index uncovered."""
    half = np.array(CARD_MM) / 2
    u = np.linspace(-half[0] + 3, -half[0] + 11, 4)
    v = np.linspace(-half[1] + 3, -half[1] + 22, 5)
    local = np.stack(np.meshgrid(u, v), -1).reshape(-1, 2)
    _, centre, theta = cards[i]
    for sign in (1.0, -1.0):
        pts = (sign * local) @ _rot(theta).T + centre
        covered = np.zeros(len(pts), bool)
        for _, c2, t2 in cards[i + 1:]:
            rel = (pts - c2) @ _rot(t2)
            covered |= (np.abs(rel[:, 0]) < half[0] + 1) & (np.abs(rel[:, 1]) < half[1] + 1)
        if not covered.any():
            return True
    return False


def wild_background(rng: np.random.Generator, width: int, height: int) -> Image:
    """Felt or wood, or a patterned or busy tablecloth (checks, stripes, a print of blobs,
    a textured beige weave)."""
    kind = str(rng.choice(["plain", "checks", "stripes", "print", "beige weave"]))
    if kind == "plain":
        return background(rng, width, height)
    sw, sh = max(8, width // 4), max(8, height // 4)
    colours = rng.uniform(30, 200, (3, 3)).astype(np.float32)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    period = float(rng.uniform(0.03, 0.12)) * sw
    angle = float(rng.uniform(0, math.pi))
    a = xx * math.cos(angle) + yy * math.sin(angle)
    b = -xx * math.sin(angle) + yy * math.cos(angle)
    if kind == "checks":
        pick = ((a // period + b // period) % 2).astype(int)
    elif kind == "stripes":
        pick = ((a // period) % 3).astype(int)
    elif kind == "print":
        field = cv2.GaussianBlur(rng.normal(0, 1, (sh, sw)).astype(np.float32), (0, 0),
                                 period / 3)
        pick = np.digitize(field, np.quantile(field, [0.4, 0.75])).astype(int)
    else:
        colours = np.array([[120, 160, 190], [105, 145, 178], [135, 172, 200]], np.float32)
        colours *= float(rng.uniform(0.8, 1.0))
        weave = (np.sin(a * 2.2) * np.sin(b * 2.2) > 0).astype(int)
        pick = weave + (rng.random((sh, sw)) < 0.15).astype(int)
    img = colours[np.clip(pick, 0, 2)]
    img += rng.normal(0, 5, img.shape).astype(np.float32)
    big: Image = cv2.resize(np.clip(img, 0, 255).astype(np.uint8), (width, height),
                            interpolation=cv2.INTER_LINEAR)
    return big


def _fingertip(rng: np.random.Generator, canvas: Image, corners: Points) -> None:
    """A fingertip resting on a card's far end (away from its top-left index), coming in from
    outside the card."""
    tl, tr, br, bl = corners
    card_w = float(np.linalg.norm(tr - tl))
    along = (br - tr) / max(float(np.linalg.norm(br - tr)), 1e-6)
    tip = br + (tl - br) * float(rng.uniform(0.1, 0.25))
    direction = along + float(rng.uniform(-0.6, 0.6)) * (tr - tl) / max(card_w, 1e-6)
    direction /= max(float(np.linalg.norm(direction)), 1e-6)
    finger_w = card_w * float(rng.uniform(0.22, 0.3))
    length = card_w * 2.0
    end = tip + direction * length
    skin = np.array(rng.choice([[150, 180, 225], [110, 140, 190], [70, 95, 140]]), np.float64)
    overlay = canvas.copy()
    mask = np.zeros(canvas.shape[:2], np.uint8)
    cv2.line(mask, tuple(int(v) for v in tip), tuple(int(v) for v in end), 255,
             max(2, int(finger_w)))
    cv2.circle(mask, tuple(int(v) for v in tip), max(1, int(finger_w / 2)), 255, -1)
    soft = cv2.GaussianBlur(mask, (0, 0), max(1.0, finger_w * 0.06)).astype(np.float32) / 255
    shade = cv2.GaussianBlur(mask, (0, 0), max(1.0, finger_w * 0.3)).astype(np.float32) / 255
    overlay = overlay.astype(np.float32) * (1 - 0.35 * shade[..., None])
    overlay = overlay * (1 - soft[..., None]) + skin[None, None, :] * (0.8 + 0.2 * shade[
        ..., None]) * soft[..., None]
    canvas[:] = np.clip(overlay, 0, 255).astype(np.uint8)


def _finish(rng: np.random.Generator, canvas: Image, temperature: str | None = None,
            wild: bool = False) -> Image:
    """Light, colour temperature, blur and sensor noise (and, at a wild table, mixed light,
    glare and motion blur)."""
    height, width = canvas.shape[:2]
    light = _lighting(rng, width, height)
    if temperature is None:
        temperature = str(rng.choice(["warm", "cool", "neutral"]))
    gains = {"warm": (float(rng.uniform(0.7, 0.85)), float(rng.uniform(0.88, 0.95)), 1.0),
             "cool": (1.0, float(rng.uniform(0.93, 0.98)), float(rng.uniform(0.78, 0.9))),
             "neutral": (1.0, 1.0, 1.0)}[temperature]
    img: npt.NDArray[Any] = canvas.astype(np.float32) * light[..., None] * np.array(gains,
                                                                                 np.float32)
    if wild:
        img = _wild_light(rng, img)
    sigma = float(rng.uniform(0.4, 2.2)) * max(width, height) / 4000
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    if wild and rng.random() < 0.3:
        length = max(3, int(float(rng.uniform(0.002, 0.006)) * max(width, height)))
        kernel: npt.NDArray[Any] = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5),
                                      float(rng.uniform(0, 180)), 1.0)
        kernel = cv2.warpAffine(kernel, rot, (length, length))
        kernel = (kernel / max(float(kernel.sum()), 1e-6)).astype(np.float32)
        img = cv2.filter2D(img, -1, kernel)
    noise_sd = float(rng.uniform(1.5, 5.0))
    nw, nh = max(1, width // 2), max(1, height // 2)
    noise = cv2.resize(rng.normal(0, noise_sd, (nh, nw)).astype(np.float32), (width, height))
    img += noise[..., None]
    out: Image = np.clip(img, 0, 255).astype(np.uint8)
    return out


def _wild_light(rng: np.random.Generator, img: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Mixed light (warm on one side, cool on the other) and glare spots."""
    height, width = img.shape[:2]
    if rng.random() < 0.4:
        ramp: npt.NDArray[Any] = np.linspace(0.0, 1.0, 64, dtype=np.float32)[None, :].repeat(48, 0)
        ramp = cv2.resize(ramp, (width, height))
        if rng.random() < 0.5:
            ramp = ramp[:, ::-1]
        warm = np.array([0.8, 0.92, 1.0], np.float32)
        cool = np.array([1.0, 0.96, 0.82], np.float32)
        img = img * (warm[None, None, :] * ramp[..., None]
                     + cool[None, None, :] * (1 - ramp[..., None]))
    for _ in range(int(rng.integers(0, 3))):
        small: npt.NDArray[Any] = np.zeros((48, 64), np.float32)
        centre = (int(rng.integers(0, 64)), int(rng.integers(0, 48)))
        axes = (int(rng.integers(2, 8)), int(rng.integers(1, 5)))
        cv2.ellipse(small, centre, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        small = cv2.GaussianBlur(small, (0, 0), float(rng.uniform(1.0, 3.0)))
        glare = cv2.resize(small, (width, height))[..., None] * float(rng.uniform(0.4, 0.9))
        img = img + (255.0 * 1.1 - img) * glare
    return img


def calibration_photo(
    rng: np.random.Generator, code: str, style: Deck, size: tuple[int, int] = (2400, 1800),
) -> bytes:
    """A photo of one card lying flat, taken roughly from above (for calibration)."""
    width, height = size
    drawn = _drawn(code, style)
    theta = float(rng.uniform(0, 2 * math.pi))
    cam = _camera(rng, float(rng.uniform(0, 12)), 100.0)
    plane = _card_to_plane(np.zeros(2), theta, drawn.image.shape[0])
    quad = _project(cam @ plane, _outline(drawn))
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    scale = float(rng.uniform(0.45, 0.7)) * min(width / (hi[0] - lo[0]), height / (hi[1] - lo[1]))
    offset = np.array([width, height]) / 2 - scale * (lo + hi) / 2
    frame = np.array([[scale, 0, offset[0]], [0, scale, offset[1]], [0, 0, 1.0]])
    canvas = background(rng, width, height)
    _paste(canvas, drawn, frame @ cam @ plane, shadow=0.3)
    photo = _finish(rng, canvas)
    ok, buf = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return bytes(buf.tobytes())
