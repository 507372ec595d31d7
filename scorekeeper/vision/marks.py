"""Ink marks on the cards: the connected marks of the card ink at a few levels and after an
opening, the unions of nearby ones, and the two halves of a mark that narrows to a waist.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Final

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.vision.features import INK_LEVEL, Blob, FloatImage

#: Largest, as a fraction of the photo's long side (cards fill at most about 40% of it): a
#: jumbo index's rank, a fifth of its card's height, came to 0.107 on a card 37% of the
#: photo wide, and a mark's box grows by up to 1.4 times turned. At 0.16 rather than 0.1
#: the photos of the tuned and probe decks took about 4% longer.
MAX_MARK: Final = 0.16
#: A mark of this many pixels or more (working image), this much longer than wide (ratio of
#: its moments), that narrows to this share of the narrower half's widest (smoothed over 3
#: pixels) somewhere in its middle half, is also read as its two halves, each at least this
#: share of it: a rank joined to its pip (blur, a rank's tail) is no pair of marks.
WAIST_MIN_AREA: Final = 40
WAIST_LONG: Final = 2.0
WAIST_NARROW: Final = 0.4
WAIST_SHARE: Final = 0.2
#: A mark of at least ``WAIST_MIN_AREA`` pixels this many times longer than wide (its extents
#: along and across its axis) is kept as a line of glyphs: a word index ("Joker") whose
#: letters blur into one mark, read from where the deck's own word lies (``guesses``).
CHAIN_LONG: Final = 2.5
#: Radii (pixels of the working image) by which the first level's marks are grown to find
#: such a line whose letters stand apart (a sharp photo: calibration learns a word as one
#: line once grown by 1% of the card's width, 1-5 pixels here); its extents are its ink's.
CHAIN_BRIDGES: Final = (1, 2, 3)
#: Inkness levels at which ink marks are looked for: the usual one, a fainter one for thin or
#: pale glyphs that blur and JPEG break apart at the usual level, and a third for glyphs that
#: glare or blur leave fainter still (a grey outlined king under a glare spot reads 0.15-0.19).
#: On the 464 tuned and probe photos of 36 decks, the third read 1,992 of 2,033 cards rather
#: than 1,983 (7 extra detections rather than 8, all 1,858 confident readings right) in 6%
#: more time (median, side by side); at 0.12 it read 1,993 with 9 extra detections.
MARK_LEVELS: Final = (1.0 - INK_LEVEL, 0.28, 0.15)
#: Sizes (pixels of the working image) of the openings that cut thin lines (a card's rim, the
#: shadow of the card above in a fan) away from the glyphs they touch: each gives further marks.
#: In a tight fan the rim of the card above, with its shadow, reads about 5 pixels thick: on the
#: 705 tuned and probe photos of 47 decks, 7 rather than 5 read 2,807 cards rather than 2,794
#: (15 more, 2 fewer; 63 extra detections rather than 66) in about the same time; 6 read 2,806,
#: 9 read 2,801, and 5 and 7 together 2,807 in 15% more time.
OPENINGS: Final = (7,)
#: An opened mark is new when its unopened mark is at least this many times larger, in area
#: or across (a glyph that touches a thin rim keeps most of its area once cut free of it, but
#: not its box).
OPEN_SPLIT: Final = 1.5
#: A darker inkness level at which two glyphs that blur into one mark come apart (an index pip
#: touching the corner's large pip, the J touching the o of "Joker"); its marks are new as
#: opened ones are, and kept only where a first-level mark gives at most ``SPLIT_PARTS`` of
#: them (court art comes apart into many, each a cost in guesses).
SPLIT_LEVEL: Final = 0.7
SPLIT_PARTS: Final = 2
#: Ink marks whose boxes are this close (a fraction of the smaller mark's size) may be one
#: glyph broken apart by blur, JPEG or thin strokes: their union is tried as a mark too.
MERGE_GAP: Final = 0.35
#: Above this many marks (a busy print) no unions are tried (their pairs would be too many).
MAX_UNION_MARKS: Final = 2500
#: Marks are compared with each other in blocks of rows of at most this many entries.
PAIR_BLOCK: Final = 1 << 20


def _marks(ink: FloatImage, waists: list[tuple[Blob, Blob]] | None = None,
           chains: list[Chain] | None = None) -> tuple[list[Blob], list[frozenset[int]]]:
    """Ink marks at each of ``MARK_LEVELS``, after each of ``OPENINGS`` and at ``SPLIT_LEVEL``
    (with the unions of nearby ones, and of the marks an opening cuts out of a mark too large
    for a glyph with the first level's marks beside them, ``_joined``), and what each is made
    of: the ids of the first level's marks it holds (or an id of its own). Two marks that
    share an id are never read as parts of one index, nor as two indices. With ``waists``,
    the halves of each first-level mark that narrows to a waist are put in it
    (``_waist_halves``); with ``chains``, the first-level marks long enough to be a line of
    glyphs (``_chains``)."""
    blobs: list[Blob] = []
    parts: list[frozenset[int]] = []
    # Only the box around the cards is searched (the table reads as blank), with a margin of
    # blank so that the opening treats the box's edge as the rest of the photo.
    most = round(MAX_MARK * max(ink.shape))
    x0, y0, w0, h0 = cv2.boundingRect((ink > 0).astype(np.uint8))
    if w0 == 0 or h0 == 0:
        return blobs, parts
    pad = max(OPENINGS) + 1
    x1, y1 = min(ink.shape[1], x0 + w0 + pad), min(ink.shape[0], y0 + h0 + pad)
    x0, y0 = max(0, x0 - pad), max(0, y0 - pad)
    ink = ink[y0:y1, x0:x1]
    offset = np.array([x0, y0], np.float64)
    first: npt.NDArray[Any] | None = None
    first_area: npt.NDArray[Any] = np.zeros(0, np.int32)
    first_size: npt.NDArray[Any] = np.zeros((0, 2), np.int32)
    first_blobs: list[Blob] = []
    first_parts: list[frozenset[int]] = []
    fresh = 0
    passes = ([(level, 0, False) for level in MARK_LEVELS]
              + [(MARK_LEVELS[0], k, False) for k in OPENINGS] + [(SPLIT_LEVEL, 0, True)])
    for level, opening, split in passes:
        mask: npt.NDArray[Any] = (ink > level).astype(np.uint8)
        if opening:
            mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(
                cv2.MORPH_ELLIPSE, (opening, opening)))
        # Grana's block-based labelling: the same labels as OpenCV's default, in half the time.
        count, labels, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(
            mask, 8, cv2.CV_32S, cv2.CCL_GRANA)
        holds: dict[int, frozenset[int]] = {}
        if first is None:
            first, first_area, fresh = labels, stats[:, 4], count
            first_size = stats[:, 2:4]
            holds = {k: frozenset((k,)) for k in range(1, count)}
            if waists is not None:
                waists += _waist_halves(labels, stats, (x0, y0), most)
            if chains is not None:
                chains += _chains(labels, stats, (x0, y0), most)
                chains += _bridged_chains(mask, (x0, y0), most)
        else:
            inside = first > 0
            codes = labels[inside].astype(np.int64) * fresh + first[inside]
            # Pixels come in runs of one pair along each row: unique runs are far fewer.
            pairs = np.unique(codes[np.flatnonzero(np.diff(codes, prepend=-1))])
            grouped: dict[int, set[int]] = {}
            for pair in pairs.tolist():
                grouped.setdefault(pair // fresh, set()).add(pair % fresh)
            holds = {k: frozenset(v) for k, v in grouped.items()}
        level_blobs, level_parts, cut_from = [], [], []
        # Marks under 5 pixels are specks; the rest as Python numbers (a busy print gives
        # thousands of marks a level, and numpy scalars cost more one by one).
        ks = (np.flatnonzero(stats[1:, 4] >= 5) + 1).tolist()
        for k, (x, y, w, h, area) in zip(ks, stats[ks].tolist(), strict=True):
            held = holds.get(k)
            if opening or split:
                # An opened mark lies inside one unopened mark: the same mark unless it was cut
                # out of a larger one, and then a mark of its own.
                if held is not None and _same_opened(area, max(w, h), first_area,
                                                     first_size, next(iter(held))):
                    continue
                cut_from.append(-1 if held is None else next(iter(held)))
                held = None
            if held is None:
                held, fresh = frozenset((fresh,)), fresh + 1
            elif labels is not first and len(held) == 1 and (
                    1.3 * float(first_area[next(iter(held))]) >= area):
                continue  # the same mark as at the first level
            level_blobs.append(Blob(centroids[k].astype(np.float64) + offset, x + x0, y + y0,
                                    w, h, area))
            level_parts.append(held)
        if split:
            pieces = Counter(cut_from)
            kept = [j for j, mark in enumerate(cut_from) if pieces[mark] <= SPLIT_PARTS]
            level_blobs = [level_blobs[j] for j in kept]
            level_parts = [level_parts[j] for j in kept]
        if labels is first:
            glyphs = [j for j, b in enumerate(level_blobs) if b.size <= most]
            first_blobs = [level_blobs[j] for j in glyphs]
            first_parts = [level_parts[j] for j in glyphs]
        level_blobs, level_parts = _with_unions(level_blobs, level_parts)
        if opening:  # (the unions come after the marks: ``cut_from`` still fits them)
            loose = [j for j, k in enumerate(cut_from) if k >= 0 and max(first_size[k]) > most]
            joined, joined_parts = _joined([level_blobs[j] for j in loose],
                                           [level_parts[j] for j in loose], first_blobs,
                                           first_parts)
            level_blobs += joined
            level_parts += joined_parts
        blobs += level_blobs
        parts += level_parts
    return blobs, parts


def _same_opened(area: int, size: int, first_area: npt.NDArray[Any],
                 first_size: npt.NDArray[Any], k: int) -> bool:
    """Whether an opened mark of ``area`` pixels, ``size`` across, is the first-level mark
    ``k`` it lies in: that mark is under ``OPEN_SPLIT`` times as large in area and across.

    >>> area, size = np.array([0, 3836]), np.array([[0, 0], [312, 157]])
    >>> _same_opened(3503, 120, area, size, 1), _same_opened(3503, 300, area, size, 1)
    (False, True)
    """
    return bool(OPEN_SPLIT * area >= int(first_area[k])
                and OPEN_SPLIT * size >= int(first_size[k].max()))


def _shaped(stats: npt.NDArray[Any], most: int) -> list[tuple[int, int, int, int, int]]:
    """The labels and boxes (label, x, y, w, h) of the marks whose shape is looked at: of at
    least ``WAIST_MIN_AREA`` pixels and at most ``most`` across (the background, label 0,
    left out)."""
    sizes = np.maximum(stats[:, 2], stats[:, 3])
    keep = np.nonzero((stats[:, 4] >= WAIST_MIN_AREA) & (sizes <= most))[0].tolist()
    return [(k, int(stats[k, 0]), int(stats[k, 1]), int(stats[k, 2]), int(stats[k, 3]))
            for k in keep if k != 0]


def _waist_halves(labels: npt.NDArray[Any], stats: npt.NDArray[Any], offset: tuple[int, int],
                  most: int) -> list[tuple[Blob, Blob]]:
    """The two halves of each labelled mark of at least ``WAIST_MIN_AREA`` pixels and at most
    ``most`` across that narrows to a waist (``_waist_split``), in photo pixels."""
    out = []
    for k, x, y, w, h in _shaped(stats, most):
        pieces = _waist_split(labels[y:y + h, x:x + w] == k)
        x, y = x + offset[0], y + offset[1]
        halves = [Blob(centroid + (x, y), bx + x, by + y, bw, bh, area)
                  for centroid, (bx, by, bw, bh), area in pieces]
        if len(halves) == 2:
            out.append((halves[0], halves[1]))
    return out


@dataclass(frozen=True, slots=True)
class Chain:
    """A long mark, in photo pixels: its centre, the unit vector of its axis, and how far it
    reaches along that axis and across it from the centre (min, max)."""

    centre: npt.NDArray[np.float64]
    axis: npt.NDArray[np.float64]
    along: tuple[float, float]
    across: tuple[float, float]


def _chains(labels: npt.NDArray[Any], stats: npt.NDArray[Any], offset: tuple[int, int],
            most: int) -> list[Chain]:
    """The labelled marks of at least ``WAIST_MIN_AREA`` pixels and at most ``most`` across
    that are ``CHAIN_LONG`` times longer than wide (``_chain``), in photo pixels."""
    out = []
    for k, x, y, w, h in _shaped(stats, most):
        chain = _chain(labels[y:y + h, x:x + w] == k)
        if chain is not None:
            out.append(Chain(chain.centre + (x + offset[0], y + offset[1]), chain.axis,
                             chain.along, chain.across))
    return out


def _bridged_chains(mask: npt.NDArray[Any], offset: tuple[int, int], most: int) -> list[Chain]:
    """The lines of glyphs that the first level's marks (``mask``) make once grown by each of
    ``CHAIN_BRIDGES`` and are not one mark as they are (those are ``_chains``'), each measured
    on its own ink, in photo pixels.

    >>> letters = np.zeros((60, 12), np.uint8)
    >>> for y in (4, 18, 32, 46): letters[y:y + 11, 3:9] = 1
    >>> [(c.centre.tolist(), c.along, c.across) for c in _bridged_chains(letters, (100, 0), 99)]
    [([105.5, 30.0], (-26.0, 26.0), (-2.5, 2.5))]
    """
    out: list[Chain] = []
    for radius in CHAIN_BRIDGES:
        grown = cv2.dilate(mask, cv2.getStructuringElement(
            cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1)))
        _, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(
            grown, 8, cv2.CV_32S, cv2.CCL_GRANA)
        for k, x, y, w, h in _shaped(stats, most):
            own = (labels[y:y + h, x:x + w] == k) & (mask[y:y + h, x:x + w] > 0)
            if cv2.connectedComponents(own.astype(np.uint8), connectivity=8)[0] < 3:
                continue
            chain = _chain(own)
            at = (x + offset[0], y + offset[1])
            if chain is not None and not any(_same_chain(chain, c, at) for c in out):
                out.append(Chain(chain.centre + at, chain.axis, chain.along, chain.across))
    return out


def _same_chain(chain: Chain, other: Chain, at: tuple[int, int]) -> bool:
    """Whether a chain (its centre from the corner ``at`` of its box, in photo pixels) is
    one already found: its centre within a pixel of the other's, and as long."""
    return bool(np.hypot(*(chain.centre + at - other.centre)) <= 1.0
                and abs(np.ptp(chain.along) - np.ptp(other.along)) <= 1.0)


def _chain(mask: npt.NDArray[np.bool_]) -> Chain | None:
    """A mark's axis and extents, in the mask's pixels, if it is ``CHAIN_LONG`` times longer
    than wide.

    >>> m = np.zeros((40, 9), bool); m[2:38, 3:6] = True
    >>> c = _chain(m); c.centre.tolist(), float(abs(c.axis[1])), c.along, c.across
    ([4.0, 19.5], 1.0, (-17.5, 17.5), (-1.0, 1.0))
    >>> _chain(np.ones((10, 10), bool)) is None
    True
    """
    ys, xs = np.nonzero(mask)
    pts = np.column_stack([xs, ys]).astype(np.float64)
    centre = pts.mean(axis=0)
    centred = pts - centre
    _, vectors = np.linalg.eigh(centred.T @ centred)
    axis = vectors[:, 1]
    along = centred @ axis
    across = centred @ vectors[:, 0]
    length, width = np.ptp(along) + 1.0, np.ptp(across) + 1.0
    if length < CHAIN_LONG * width:
        return None
    return Chain(centre, axis, (float(along.min()), float(along.max())),
                 (float(across.min()), float(across.max())))


def _waist_split(mask: npt.NDArray[np.bool_]) -> list[tuple[
        npt.NDArray[np.float64], tuple[int, int, int, int], int]]:
    """A long mark's two halves where it narrows to a waist between them (a rank and its pip
    that blur or a tail of the rank joined), as (centroid, box, area) in the mask's pixels;
    none for a mark without one.

    >>> m = np.zeros((30, 12), bool); m[1:13, 1:11] = True; m[17:29, 1:11] = True
    >>> m[13:17, 5:7] = True
    >>> [(c.round(1).tolist(), box, area) for c, box, area in _waist_split(m)]
    [([5.5, 6.6], (1, 1, 10, 13), 122), ([5.5, 22.3], (1, 15, 10, 14), 124)]
    >>> _waist_split(np.ones((30, 12), bool))
    []
    """
    ys, xs = np.nonzero(mask)
    pts = np.column_stack([xs, ys]).astype(np.float64)
    centred = pts - pts.mean(axis=0)
    values, vectors = np.linalg.eigh(centred.T @ centred)
    if values[1] < WAIST_LONG * max(values[0], 1e-6):
        return []
    along = centred @ vectors[:, 1]
    bins = np.floor(along - along.min()).astype(np.int64)
    profile = np.convolve(np.bincount(bins), np.ones(3) / 3, mode="same")
    n = len(profile)
    lo, hi = n // 4, n - n // 4
    if hi - lo < 1:
        return []
    cut = lo + int(np.argmin(profile[lo:hi]))
    if profile[cut] > WAIST_NARROW * min(profile[:cut].max(), profile[cut + 1:].max()):
        return []
    out = []
    for side in (bins < cut, bins > cut):
        if side.sum() < WAIST_SHARE * len(bins):
            return []
        p = pts[side]
        x0, y0 = p.min(axis=0).astype(int)
        x1, y1 = p.max(axis=0).astype(int)
        out.append((p.mean(axis=0), (int(x0), int(y0), int(x1 - x0 + 1), int(y1 - y0 + 1)),
                    int(side.sum())))
    return out


def _with_unions(blobs: list[Blob], parts: list[frozenset[int]]) -> tuple[
        list[Blob], list[frozenset[int]]]:
    """The ink marks, then the unions of pairs of nearby marks (a rank or pip broken in two
    reads as its union); and, for each, the first-level marks it is made of."""
    out, parts = list(blobs), list(parts)
    if not 2 <= len(blobs) <= MAX_UNION_MARKS:
        return out, parts
    pairs = _close_pairs(blobs, blobs)
    pairs = pairs[pairs[:, 0] < pairs[:, 1]].tolist()
    return (out + [_union(blobs[i], blobs[j]) for i, j in pairs],
            parts + [parts[i] | parts[j] for i, j in pairs])


def _joined(loose: list[Blob], loose_parts: list[frozenset[int]], glyphs: list[Blob],
            glyph_parts: list[frozenset[int]]) -> tuple[list[Blob], list[frozenset[int]]]:
    """The unions of marks an opening cut out of a mark too large for a glyph (``loose``)
    with the nearby first-level marks of a glyph's size (``glyphs``), and what each is made
    of. The opening keeps only the marks it cuts free: the 1 of a 10 that blur joins to the
    table beyond the card's edge is one of them, the 0 beside it a mark of the first level,
    and the 10 is read as both."""
    if not loose or not 0 < len(glyphs) <= MAX_UNION_MARKS:
        return [], []
    pairs = _close_pairs(loose, glyphs).tolist()
    return ([_union(loose[i], glyphs[j]) for i, j in pairs],
            [loose_parts[i] | glyph_parts[j] for i, j in pairs])


def _close_pairs(blobs: list[Blob], others: list[Blob]) -> npt.NDArray[np.int64]:
    """The pairs (i, j) of ``blobs[i]`` and ``others[j]`` near enough, and alike enough in
    size, to be one glyph broken apart (``MERGE_GAP``)."""
    box = np.array([(b.x, b.y, b.x + b.w, b.y + b.h) for b in others], np.float64)
    size = np.array([b.size for b in others], np.float64)
    rows_box = np.array([(b.x, b.y, b.x + b.w, b.y + b.h) for b in blobs], np.float64)
    rows_size = np.array([b.size for b in blobs], np.float64)
    pairs = [np.zeros((0, 2), np.int64)]
    for lo, hi in _blocks(len(blobs), len(others)):
        rows = rows_box[lo:hi, None]
        gap_x = np.maximum(box[None, :, 0] - rows[..., 2], rows[..., 0] - box[None, :, 2])
        gap_y = np.maximum(box[None, :, 1] - rows[..., 3], rows[..., 1] - box[None, :, 3])
        gap = np.maximum(np.maximum(gap_x, gap_y), 0.0)
        small = np.minimum(rows_size[lo:hi, None], size[None, :])
        close = ((gap <= MERGE_GAP * small)
                 & (np.maximum(rows_size[lo:hi, None], size[None, :]) < 3 * small))
        i, j = np.nonzero(close)
        pairs.append(np.column_stack([i + lo, j]))
    return np.concatenate(pairs).astype(np.int64)


def _union(a: Blob, b: Blob) -> Blob:
    """The mark made of two marks."""
    x0, y0 = min(a.x, b.x), min(a.y, b.y)
    x1, y1 = max(a.x + a.w, b.x + b.w), max(a.y + a.h, b.y + b.h)
    area = a.area + b.area
    return Blob((a.centroid * a.area + b.centroid * b.area) / area, x0, y0, x1 - x0, y1 - y0,
                area)


def _blocks(n: int, columns: int | None = None) -> list[tuple[int, int]]:
    """Row ranges for comparing ``n`` marks with each other (or with ``columns`` others) a
    block of rows at a time, each block's arrays at most ``PAIR_BLOCK`` entries: a region of
    a busy print holds thousands of marks, and all their pairs at once took a gigabyte.

    >>> _blocks(3), [hi - lo for lo, hi in _blocks(2048)], _blocks(0), _blocks(4, 1 << 19)
    ([(0, 3)], [512, 512, 512, 512], [], [(0, 2), (2, 4)])
    """
    step = max(1, PAIR_BLOCK // max(n if columns is None else columns, 1))
    return [(lo, min(n, lo + step)) for lo in range(0, n, step)]
