"""Guesses of where an index lies: pairs of nearby marks read as a rank over its pip, the two
halves of a mark with a waist, and compact marks read as a card's lone corner mark.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.vision.features import (
    Blob,
    FloatImage,
    Mask,
    filled_area,
    frame_matrices,
    lone_points,
    mark_shape,
)
from scorekeeper.vision.marks import MARK_LEVELS, MAX_MARK, Chain, _blocks
from scorekeeper.vision.profile import DeckProfile
from scorekeeper.vision.scene import Scene

#: Rank-to-pip distance over pip size may be this much below / above the deck's own range.
PAIR_SLACK: Final = (0.6, 1.6)
#: A rank's size over its pip's lies strictly between these.
PAIR_SCALE: Final = (0.3, 3.5)
#: Smallest ink mark (pixels of the working image) read as part of an index.
MIN_MARK: Final = 4
#: Most pairs of marks read as possible indices in one photo (photos of cards on a table make
#: a few hundred to a few thousand). A cloth whose pattern passes as card white (a grey and
#: green check) makes hundreds of alike marks on one region and hundreds of thousands of
#: pairs; past this many, pairs are left out from the marks with the most twins (``_twins``),
#: but never those of marks with at most ``TWIN_FLOOR`` twins: a card's print has two dozen at
#: most, and a fan of court cards and pips made 33,725 pairs whose cut at 8 twins left two
#: indices out (read so, the photo takes about 1.3 times as long, and all its cards are right).
GUESS_BUDGET: Final = 20000
TWIN_FLOOR: Final = 30
#: Marks are twins whose widths and heights differ by at most about this share (log steps).
TWIN_STEP: Final = 0.1
#: A lone corner mark (a joker's star) is looked for among compact marks (width over height
#: within these, and filling at least ``LONE_FILL`` of their box with their holes filled: a
#: ring drawn in outline fills its disc) ...
LONE_SHAPE: Final = (0.45, 2.2)
LONE_FILL: Final = 0.3
#: ... and read in frames turned along the edges around it: the ways they run (modulo a
#: right angle) within this many of the mark's units (square root of its area), in bins of
#: this many degrees; the two strongest that lie at least ``LONE_APART`` degrees apart, the
#: second if at least ``LONE_SECOND`` as strong as the first (at 0.5, a joker lying on an
#: ace, the ace's edges by its star the stronger, was read only in the ace's frames, and missed).
LONE_REACH: Final = 4.0
LONE_BIN: Final = 3
LONE_APART: Final = 12
LONE_SECOND: Final = 0.25
#: The ways the edges run around a lone mark, strongest first, that may be its card's two edges
#: seen at a slant (``features.slanted_lone_frames``): a checked cloth's ran stronger than the
#: card's second edge by a joker's star.
LONE_WAYS: Final = 4
#: Past this many compact marks that could be lone marks (on the probe photos a hundred, nine
#: photos in ten under 250), those with more twins than ``LONE_TWINS`` on their region
#: (``_twins``) are left out: on the probe photos the stars read had at most 13, and cloths
#: whose pattern passes as card white gave a thousand compact marks with hundreds each (4,000-
#: 6,000 lone guesses, a second's work).
LONE_BUDGET: Final = 300
LONE_TWINS: Final = 30
#: ... but of those left out, this many whose shape comes closest to a learned lone mark's
#: (``features.mark_shape``) are kept: in a fan of jokers drawn in fine detail, 2,896 compact
#: marks, the jokers' stars had 47-68 twins among the drawings (and came 10th and 90th by
#: shape of the 1,603 left out).
LONE_RESCUE: Final = 100
#: A long mark read as a deck's word index (``_chain_guesses``) is scaled by its width, which
#: blur and a slant make uncertain: each of these times that scale is tried.
CHAIN_SCALES: Final = (0.85, 1.0, 1.18)


@dataclass
class _Guess:
    pip: int
    anchor: int
    frame: npt.NDArray[np.float64]
    unit: float
    region: int
    card: int = -1
    template: int = -1
    score: float = -1.0
    second: float = -1.0
    second_card: int = -1
    worst: float = -1.0  # the close comparison's poorer part (rank or pip), less colour
    finalists: tuple[int, ...] = ()
    templates: dict[int, int] = field(default_factory=dict)
    colour: npt.NDArray[np.float32] | None = None
    refined: npt.NDArray[np.float64] | None = None
    lone: bool = False  # a lone corner mark (``pip`` is ``anchor``), read as lone cards only
    chain: bool = False  # read from a long mark as a word index, kept only as such a card
    ways: tuple[float, ...] = ()  # a lone mark's edge ways around it (``_Directions.near``)


def _guesses(scene: Scene, blobs: list[Blob], profile: DeckProfile) -> list[_Guess]:
    """Every pair of ink marks on one card region that could be a rank over its suit pip.

    The pairing is judged by the marks alone (their distance against the pip's size, and
    the two sizes against each other, within what the deck's own indices show), not by an
    estimate of the card's size: that estimate fails when cards overlap or merge with a
    pale table."""
    if not profile.paired.any():
        return []
    r_lo, r_hi = _pair_range(profile)
    by_region: dict[int, list[int]] = {}
    max_mark = MAX_MARK * max(scene.norm.shape[:2])
    centres = np.array([b.centroid for b in blobs]).reshape(-1, 2)
    regions = scene.regions_at(centres, printed=True)
    for i, b in enumerate(blobs):
        region = int(regions[i])
        if region == 0 or b.size < MIN_MARK or b.size > max_mark:
            continue
        by_region.setdefault(region, []).append(i)
    found = []
    for members in by_region.values():
        if len(members) < 2:
            continue
        index = np.array(members)
        pts = centres[index]
        sizes = np.array([blobs[i].size for i in members], np.float64)
        for lo, hi in _blocks(len(members)):
            diff = pts[lo:hi, None, :] - pts[None, :, :]
            dist = np.hypot(diff[..., 0], diff[..., 1])
            rel = dist / sizes[None, :]  # [anchor, pip]: distance over the pip's size
            scale = sizes[lo:hi, None] / sizes[None, :]  # anchor size over pip size
            anchors, pips = np.nonzero(_pairable(rel, scale, r_lo, r_hi))
            found.append((index[lo + anchors], index[pips], dist[anchors, pips]))
    if not found:
        return []
    anchor, pip, unit = (np.concatenate([f[k] for f in found]) for k in range(3))
    if len(pip) > GUESS_BUDGET:
        twins = _twins(blobs, regions)
        alike = np.maximum(twins[pip], twins[anchor])
        # Marks with as many twins are treated alike: all their pairs are kept, or none.
        cut = max(int(np.partition(alike, GUESS_BUDGET)[GUESS_BUDGET]), TWIN_FLOOR + 1)
        keep = alike < cut
        anchor, pip, unit = anchor[keep], pip[keep], unit[keep]
    frames = frame_matrices(centres[pip], centres[anchor])
    return [_Guess(p, a, frame, u, r) for a, p, frame, u, r in zip(
        anchor.tolist(), pip.tolist(), frames, unit.tolist(), regions[pip].tolist(),
        strict=True)]


def _twins(blobs: list[Blob], regions: npt.NDArray[np.int32],
           which: list[int] | None = None) -> npt.NDArray[np.int64]:
    """How many marks on the same region as each (or each of ``which``; itself included) are
    alike in width, height and area (within about ``TWIN_STEP``, twice that for the area): a
    patterned cloth's marks have hundreds, a card's print a few dozen at most.

    >>> b = [Blob(np.zeros(2), 0, 0, w, 10, 10 * w) for w in (10, 10, 10, 30)]
    >>> _twins(b, np.array([1, 1, 2, 1], np.int32)).tolist(), _twins(b, np.ones(4, np.int32), [1])
    ([2, 2, 1, 1], array([3]))
    """
    keys = np.column_stack([
        regions,
        np.round(np.log([max(b.w, 1) for b in blobs]) / TWIN_STEP),
        np.round(np.log([max(b.h, 1) for b in blobs]) / TWIN_STEP),
        np.round(np.log([max(b.area, 1) for b in blobs]) / (2 * TWIN_STEP)),
    ]).astype(np.int64)
    counts = Counter(map(tuple, keys.tolist()))
    steps = [(0, dw, dh, da) for dw in (-1, 0, 1) for dh in (-1, 0, 1) for da in (-1, 0, 1)]
    asked = keys.tolist() if which is None else keys[which].tolist()
    return np.array([sum(counts.get((k[0] + s[0], k[1] + s[1], k[2] + s[2], k[3] + s[3]), 0)
                         for s in steps) for k in asked], np.int64)


def _pair_range(profile: DeckProfile) -> tuple[float, float]:
    """How far from its pip (over the pip's size) a rank may lie, from the deck's indices."""
    paired = ~profile.lone[profile.owner]
    ratio = profile.d_ratio[paired] / np.maximum(profile.pip_ratio[profile.owner[paired]], 1e-3)
    return float(ratio.min()) * PAIR_SLACK[0], float(ratio.max()) * PAIR_SLACK[1]


def _pairable(rel: npt.NDArray[np.float64], scale: npt.NDArray[np.float64], r_lo: float,
              r_hi: float) -> npt.NDArray[np.bool_]:
    """Which anchors could be the rank over a pip, from their distance over the pip's size
    (``rel``, within ``_pair_range``) and their size over the pip's (``scale``).

    >>> _pairable(np.array([1.0, 1.0, 3.0]), np.array([1.0, 4.0, 1.0]), 0.5, 2.0).tolist()
    [True, False, False]
    """
    out: npt.NDArray[np.bool_] = ((rel >= r_lo) & (rel <= r_hi)
                                  & (scale > PAIR_SCALE[0]) & (scale < PAIR_SCALE[1]))
    return out


def _waist_guesses(scene: Scene, blobs: list[Blob], halves: list[tuple[int, int]],
                   profile: DeckProfile) -> list[_Guess]:
    """The two halves of each mark with a waist (``blobs`` at ``halves``) as a rank over its
    pip, either way round, where the deck's indices allow it (as ``_guesses``)."""
    if not halves or not profile.paired.any():
        return []
    r_lo, r_hi = _pair_range(profile)
    pairs = np.array([pair for a, b in halves for pair in ((a, b), (b, a))], np.int64)
    pts = np.array([[blobs[i].centroid for i in pair] for pair in pairs.tolist()])  # anchor, pip
    sizes = np.array([[blobs[i].size for i in pair] for pair in pairs.tolist()], np.float64)
    dist = np.hypot(*(pts[:, 0] - pts[:, 1]).T)
    ok = _pairable(dist / sizes[:, 1], sizes[:, 0] / sizes[:, 1], r_lo, r_hi)
    regions = scene.regions_at(pts[:, 1], printed=True)
    ok &= regions > 0
    frames = frame_matrices(pts[ok, 1], pts[ok, 0])
    return [_Guess(p, a, frame, unit, region) for (a, p), frame, unit, region in zip(
        pairs[ok].tolist(), frames, dist[ok].tolist(), regions[ok].tolist(), strict=True)]


def _chain_guesses(scene: Scene, chains: list[Chain],
                   shapes: tuple[tuple[int, float, float, float], ...]) -> tuple[
        list[_Guess], list[Blob]]:
    """Each long mark read as a word index of the deck (``shapes``: where the word starts
    along its axis, its middle across it and its width, in frame units) begun at either of
    its ends: the letters of such an index blur into one mark, so its rank and pip are placed
    where the deck's word has them, at the scale the mark's width gives (``CHAIN_SCALES``);
    and the marks made up for their ranks and pips (anchor, pip, in turn). A guess's
    ``anchor`` and ``pip`` count from the first of those."""
    guesses: list[_Guess] = []
    made: list[Blob] = []
    shown = sorted({(round(y0, 1), round(mid, 1), round(width, 1)) for _, y0, mid, width in shapes})
    for chain in chains:
        across = chain.axis[::-1] * (1.0, -1.0)
        wide = chain.across[1] - chain.across[0] + 1.0
        side = chain.centre + 0.5 * (chain.across[0] + chain.across[1]) * across
        for sign, reach in ((1.0, chain.along[0]), (-1.0, chain.along[1])):
            down = sign * chain.axis
            start = side + reach * chain.axis
            right = np.array([down[1], -down[0]])
            for y0, mid, width in shown:
                for scale in CHAIN_SCALES:
                    unit = scale * wide / max(width, 1e-3)
                    if chain.along[1] - chain.along[0] < -y0 * unit:
                        continue  # too short to reach the pip
                    anchor = start + (-1.0 - y0) * unit * down - mid * unit * right
                    pip = start - y0 * unit * down - mid * unit * right
                    region = int(scene.regions_at(pip[None], printed=True)[0])
                    if region == 0:
                        continue
                    r = max(1, round(0.3 * unit))
                    for point in (anchor, pip):
                        made.append(Blob(point, int(point[0]) - r, int(point[1]) - r, 2 * r,
                                         2 * r, 4 * r * r))
                    frame = frame_matrices(pip[None], anchor[None])[0]
                    guesses.append(_Guess(len(made) - 1, len(made) - 2, frame, unit, region,
                                          chain=True))
    return guesses, made


def _lone_guesses(scene: Scene, ink: FloatImage, blobs: list[Blob],
                  shapes: npt.NDArray[np.float64]) -> list[_Guess]:
    """Every compact ink mark on a card region that could be a card's lone corner mark, in
    frames turned along the edges around it (four ways up for each way they run); ``ink`` is
    the card ink the marks were found in, ``shapes`` the learned lone marks' shapes
    (``features.mark_shape``, one row each).

    A lone mark gives no direction of its own (a star looks alike turned): the card's edges
    near it, the straightest and strongest there, give it. Its unit is the square root of its
    area with its holes filled, as calibration learns it (a ring's pixels vary with its stroke,
    its disc does not)."""
    max_mark = MAX_MARK * max(scene.norm.shape[:2])
    shaped = [i for i, b in enumerate(blobs)
              if MIN_MARK <= b.size <= max_mark and LONE_SHAPE[0] <= b.w / b.h <= LONE_SHAPE[1]]
    mask = ink > MARK_LEVELS[0]
    filled = {i: filled_area(mask, blobs[i]) for i in shaped}
    candidates = [i for i in shaped if filled[i] >= LONE_FILL * blobs[i].w * blobs[i].h]
    if not candidates:
        return []
    if len(candidates) > LONE_BUDGET:
        # A cloth whose pattern passes as card white gives thousands of compact marks, each
        # with hundreds of twins (a joker's star has a few: its other star, pips of its size).
        twins = _twins(blobs, scene.regions_at(np.array([b.centroid for b in blobs]),
                                               printed=True), candidates)
        many = (twins > LONE_TWINS).tolist()
        left_out = [i for i, m in zip(candidates, many, strict=True) if m]
        candidates = ([i for i, m in zip(candidates, many, strict=True) if not m]
                      + _likest(mask, blobs, left_out, shapes))
    regions = scene.regions_at(np.array([blobs[i].centroid for i in candidates]).reshape(-1, 2),
                               printed=True)
    directions = _Directions(scene.ink)
    origins, anchors, units, owners = [], [], [], []
    for i, region in zip(candidates, regions.tolist(), strict=True):
        if region == 0:
            continue
        b = blobs[i]
        unit = math.sqrt(filled[i])
        chosen, ways = directions.near(b.centroid, unit)
        for angle in chosen:
            for quarter in range(4):
                a = math.radians(angle + 90 * quarter)
                origin, anchor = lone_points(b.centroid, unit, np.array([math.cos(a), math.sin(a)]))
                origins.append(origin)
                anchors.append(anchor)
                units.append(unit)
                owners.append((i, region, ways))
    if not origins:
        return []
    frames = frame_matrices(np.array(origins), np.array(anchors))
    return [_Guess(i, i, frame, unit, region, lone=True, ways=ways)
            for (i, region, ways), frame, unit in zip(owners, frames, units, strict=True)]


def _likest(mask: Mask, blobs: list[Blob], which: list[int],
            shapes: npt.NDArray[np.float64]) -> list[int]:
    """The ``LONE_RESCUE`` marks of ``which`` whose shapes (of their piece of ``mask`` in
    their box) come closest to one of ``shapes``, closest first.

    >>> mask = np.zeros((20, 40), bool); mask[2:12, 2:12] = True; mask[2:18, 22:26] = True
    >>> blobs = [Blob(np.array([6.5, 6.5]), 2, 2, 10, 10, 100),
    ...          Blob(np.array([23.5, 9.5]), 22, 2, 4, 16, 64)]
    >>> bar = np.zeros((30, 30), np.uint8); bar[2:26, 12:18] = 1
    >>> _likest(mask, blobs, [0, 1], mark_shape(bar)[None])
    [1, 0]
    """
    if not which or not len(shapes):
        return []
    distances = []
    for i in which:
        b = blobs[i]
        box = mask[b.y:b.y + b.h, b.x:b.x + b.w]
        # A mark found at a paler ink level has no piece here.
        distances.append(float(np.abs(shapes - mark_shape(box)[None]).sum(axis=1).min())
                         if box.any() else np.inf)
    order = np.argsort(distances, kind="stable")[:LONE_RESCUE]
    return [which[k] for k in order.tolist() if np.isfinite(distances[k])]


#: Each direction bin's neighbours, round the circle.
_BIN_BEFORE: Final = (np.arange(90 // LONE_BIN) - 1) % (90 // LONE_BIN)
_BIN_AFTER: Final = (np.arange(90 // LONE_BIN) + 1) % (90 // LONE_BIN)


class _Directions:
    """Which way the edges of a photo run (modulo a right angle: a card's two edges agree),
    at half size: each pixel's direction bin and squared edge strength."""

    def __init__(self, ink: FloatImage) -> None:
        h, w = ink.shape[:2]
        half = cv2.resize(ink, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA)
        strength, angle = cv2.cartToPolar(cv2.Sobel(half, cv2.CV_32F, 1, 0),
                                          cv2.Sobel(half, cv2.CV_32F, 0, 1),
                                          angleInDegrees=True)
        # An edge runs across its gradient; modulo a right angle, the same bin.
        self.bins = (angle // LONE_BIN).astype(np.int32) % (90 // LONE_BIN)
        self.strength = strength * strength

    def near(self, point: npt.NDArray[np.float64], unit: float) -> tuple[
            list[float], tuple[float, ...]]:
        """The directions (degrees) the edges mostly run in from 1 to ``LONE_REACH`` units of
        a point (not the mark's own outline): the strongest, and a second one if it is strong
        and apart; and every way they run there, strongest first (``LONE_WAYS`` at most)."""
        h, w = self.bins.shape
        cx, cy = point / 2.0
        reach = LONE_REACH * unit / 2.0
        x0, x1 = max(0, int(cx - reach)), min(w, int(cx + reach) + 1)
        y0, y1 = max(0, int(cy - reach)), min(h, int(cy + reach) + 1)
        if x1 - x0 < 3 or y1 - y0 < 3:
            return [], ()
        # Squared distances: half the time of np.hypot, in the innermost loop of lone marks.
        ring = (np.arange(x0, x1)[None, :] - cx) ** 2 + (np.arange(y0, y1)[:, None] - cy) ** 2
        keep = (ring >= (unit / 2.0) ** 2) & (ring <= reach ** 2)
        bins = 90 // LONE_BIN
        counts = np.bincount(self.bins[y0:y1, x0:x1][keep],
                             weights=self.strength[y0:y1, x0:x1][keep], minlength=bins)
        smooth = counts + 0.5 * (counts[_BIN_BEFORE] + counts[_BIN_AFTER])
        order = np.argsort(-smooth)
        best = int(order[0])
        out = [(best + 0.5) * LONE_BIN]
        for k in (int(k) for k in order[1:]):
            apart = min(abs(k - best), bins - abs(k - best)) * LONE_BIN
            if apart >= LONE_APART:
                if smooth[k] >= LONE_SECOND * smooth[best]:
                    out.append((k + 0.5) * LONE_BIN)
                break
        peaks = [k for k in order.tolist() if smooth[k] > 0
                 and smooth[k] >= smooth[_BIN_BEFORE[k]] and smooth[k] >= smooth[_BIN_AFTER[k]]]
        return out, tuple((k + 0.5) * LONE_BIN for k in peaks[:LONE_WAYS])
