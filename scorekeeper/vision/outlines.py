"""Where a read index puts its card: the card's outline from the index's frame, whether it
lies on the cards the scene found, and how much of its edges the photo shows.
"""

from __future__ import annotations

from typing import Any, Final

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.vision.features import LONE_OFFSET, REMAP_ROWS, slanted_lone_frames
from scorekeeper.vision.guesses import _Guess
from scorekeeper.vision.pictures import _picture_fits, _Pictures
from scorekeeper.vision.profile import DeckProfile
from scorekeeper.vision.scene import Scene

#: From this fine score a card may be partly hidden (a finger on its far end).
SURE: Final = 0.85
#: Half the width of the band across a predicted card edge that is looked at (card widths).
EDGE_BAND: Final = 0.06
#: How much darker (or differently coloured) than the card white the edge must look.
EDGE_STEP: Final = 0.12
#: ... for the corner next to an index read (``_corner_exposed``), where a card lying on another
#: white card shows its edge only as a faint rim (an Aguilar probe deck's 5 of diamonds, read
#: for certain, was dropped: its rim dipped 0.1 below the white). Art read as an index
#: predicts edges over blank card white, which shows no dip at all. Choosing where a lone
#: mark's card lies keeps ``EDGE_STEP``: there, 0.1 put three jokers' cards the wrong way.
CORNER_STEP: Final = 0.1
#: ... and there, for an index read at ``SURE`` or better, the edge may lie up to this many
#: rows of the band (each 2 * ``EDGE_BAND`` / 13 of the card's width) in or out of where the
#: index places it: the close comparison's frame places a tilted card's corner a few percent
#: off, and a printed rim a step inside the edge then falls where the card's white should be
#: (a `paris` jack read at 0.97 on a tuned photo, both its indices, was dropped so). For any
#: reading it put a `jolly-royal` 4 read at confidence 0 on a photo.
CORNER_SHIFT: Final = 3
#: How much of a card placed by its index's marks alone (their frame is a few percent off the
#: close comparison's, more at a steep tilt) must lie on card regions before the close
#: comparison looks at it: the card's outline shrunk to this towards the index's corner. On the
#: 560 A/B photos 0.8 read the same cards as 0.9 (a paris king more than the whole outline,
#: which had dropped it as lying off its card), and one extra detection fewer.
COARSE_REACH: Final = 0.8
#: ... of which at least this share of a few points spread over it (this many across and
#: along) must lie within the card regions' convex hulls for a pair of marks to be compared
#: (``_placeable``; the places tried are the profile's, ``kept.PLACEMENTS``).
PLACED_ON: Final = 0.75
PLACED_GRID: Final = (3, 4)
#: Share of the edge's length that must show for the card's corner to count as seen.
EDGE_SHOWN: Final = 0.6
#: Share of a sure reading's card that must lie within the card regions' convex hulls when
#: the regions themselves do not hold it (a court card's picture may reach its rim), each
#: region's or those of all it lies on taken together (a picture that reaches both long sides
#: splits the card's white into pieces).
HULL_INSIDE: Final = 0.9
#: ... and of the hull of the pieces of white a court's picture splits its card into, taken
#: together (the pieces at the card's far corners may be too small to be kept as regions).
JOINT_INSIDE: Final = 0.8
#: Which way a lone mark's card lies is told by its learned picture over this share of the
#: card's width and height next to the mark (in a fan, little more of a card shows).
LONE_PICTURE: Final = 0.3
#: ... together with how much of its whole outline shows as an edge (``_outline_shown``,
#: 0..8), weighed by this: a sixteenth, so that an outline showing 3 of its 8 more outweighs
#: a picture fitting 0.19 better.
LONE_OUTLINE: Final = 1 / 16
#: A lone mark's card that lies on card regions only as a sure pair's may (``_lone_quad``)
#: must show its learned picture there this well: stars read from the pips of a layout the
#: recogniser does not read, placed so, came to 0.06-0.23 (and showed no edge at the corner);
#: an orell joker opened by a finger, to 0.92.
LONE_LOOSE_PICTURE: Final = 0.5


def _placeable(scene: Scene, guesses: list[_Guess], placements: npt.NDArray[np.float64]) -> (
        list[_Guess]):
    """The guesses whose card could lie on the cards (``PLACED_ON``), before the comparison:
    most pairs of marks in a busy photo are pips in a card's middle or marks of a court's
    picture, and the card they would be the index of reaches off the cards in every place
    the deck's cards take around their index. Lone marks are kept (they place no card)."""
    pairs = np.array([i for i, g in enumerate(guesses) if not g.lone], np.int64)
    if not len(pairs) or not len(placements):
        return guesses
    frames = np.stack([guesses[i].frame for i in pairs.tolist()])
    # The points spread over each place in the index's frame, mapped through each pair's.
    local = _spread_points(_near_index(placements), 0.94, grid=PLACED_GRID)
    kept = np.zeros(len(pairs), np.bool_)
    # The commonest place first, and each next one for the pairs not yet placed only.
    for points in local:
        todo = np.flatnonzero(~kept)
        if not len(todo):
            break
        mapped = points @ frames[todo, :, :2].transpose(0, 2, 1) + frames[todo, None, :, 2]
        kept[todo] = _share_on_regions(scene, mapped, hull=True) >= PLACED_ON
    # A court whose picture reaches both long sides splits its white into pieces: the card is
    # the hull of them all (in the commonest place only: there are many pairs left here).
    todo = np.flatnonzero(~kept)
    if len(todo) and len(scene.outlines) > 1:
        mapped = local[0] @ frames[todo, :, :2].transpose(0, 2, 1) + frames[todo, None, :, 2]
        kept[todo] = _share_on_joint_hulls(scene, mapped) >= PLACED_ON
    dropped = set(pairs[~kept].tolist())
    return [g for i, g in enumerate(guesses) if i not in dropped]


def _quads(g: _Guess, profile: DeckProfile) -> list[npt.NDArray[np.float64]]:
    """Where the card of a guess lies: by its frame as aligned in the close comparison, and
    by its frame from the marks' centroids (either may be the one that is right)."""
    local = profile.corners[g.template].astype(np.float64)
    frames = [g.frame] if g.refined is None else [g.refined, g.frame]
    return [_mapped(f, local) for f in frames]


def _mapped(m: npt.NDArray[Any], points: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Points (N, 2) through a 2 x 3 affine map."""
    out: npt.NDArray[np.float64] = points @ m[:, :2].T.astype(np.float64) + m[:, 2]
    return out


def _lone_quad(scene: Scene, g: _Guess, turns: list[_Guess], profile: DeckProfile,
               pictures: _Pictures, loose: bool) -> tuple[
                   npt.NDArray[np.float64], int, tuple[bool, float, float]] | None:
    """Where the card of a lone mark read as ``g`` lies. The mark (a star, alike turned any
    way) does not tell which way the card lies: of its frames (``turns``, each way up along
    the edges around it), those whose card lies wholly on card regions, however sure the
    reading, with an edge at its corner showing; of those, the one whose learned picture
    best explains the photo next to the mark (``LONE_PICTURE``), with how much of its whole
    outline shows weighed in (``_outline_shown``, ``LONE_OUTLINE``; ``_lone_rank``). Counting
    both edges at the corner first put a joker's card over a checked cloth that passes as
    card white, whose checks give a corner its two edges; the outline alone put a joker in a
    fan across the cards beside it, whose edges run alike; the picture alone, so little of it,
    put a joker across a fan where it fitted by chance a little better. Where no frame puts
    the card wholly on card regions, a sure reading's card may lie as a sure pair of marks'
    may (``_on_cards``), with an edge at its corner and its picture next to the mark showing
    (``LONE_LOOSE_PICTURE``): a finger across a joker whose picture fills it to its rim opens
    the rim, and the picture inside is then no card region.
    Not ``loose``, only the first way. A card seen at a slant shows its corner other than
    square, so frames along two of the edges around the mark are tried with the square ones
    (``features.slanted_lone_frames``), where both those edges show at the corner: one with
    an edge at its corner alone laid a joker at the foot of a slanted fan across the fan.
    Returns the card's corners, the template they come
    from, and how well it fits (edge shown, picture, outline)."""
    best = _lone_turn(scene, g, turns, profile, pictures, 0.0)
    if best is None and loose and g.score >= SURE:
        best = _lone_turn(scene, g, turns, profile, pictures, g.score)
        if best is not None and not (best[2][0] and best[2][1] >= LONE_LOOSE_PICTURE):
            return None
    return best


def _lone_turn(scene: Scene, g: _Guess, turns: list[_Guess], profile: DeckProfile,
               pictures: _Pictures, score: float) -> tuple[
                   npt.NDArray[np.float64], int, tuple[bool, float, float]] | None:
    """``_lone_quad`` among the frames whose card lies on card regions as a reading with
    ``score`` must (``_on_cards``)."""
    best: tuple[npt.NDArray[np.float64], int, tuple[bool, float, float]] | None = None
    placings = [(turn.templates.get(g.card, g.template), frame, False) for turn in turns
                for frame in ([turn.frame] if turn is not g else
                              [f for f in (g.refined, g.frame) if f is not None])]
    centroid = _mapped(g.frame, np.array([[0.0, -LONE_OFFSET]]))[0]
    placings += [(g.templates.get(g.card, g.template), frame, True)
                 for frame in slanted_lone_frames(centroid, g.unit, g.ways)]
    for template, frame, slanted in placings:
        local = profile.corners[template].astype(np.float64)
        quad = _mapped(frame, local)
        if not _on_cards(scene, quad, score):
            continue
        edges = _edges_shown(scene, quad)
        # A frame along two edges stands only where both edges show.
        if slanted and edges < 2:
            continue
        shown = edges > 0
        if not shown and best is not None and best[2][0]:
            continue
        tl, tr, _, bl = quad
        near = tl + LONE_PICTURE * np.array([[0, 0], tr - tl, tr - tl + bl - tl, bl - tl])
        fits = _picture_fits(scene.ink, pictures, near, float(np.linalg.norm(tr - tl)),
                             [(g.card, _canon_corners(profile, template), quad)])
        fit = (shown, 0.0 if fits is None else fits[0],
               _outline_shown(scene, quad) if shown else 0.0)
        if best is None or _lone_rank(fit) > _lone_rank(best[2]):
            best = quad, template, fit
    return best


def _lone_rank(fit: tuple[bool, float, float]) -> tuple[bool, float]:
    """How a lone mark's card placed with ``fit`` (edge shown, picture, outline) ranks among
    its other places: an edge at its corner first, then picture and outline together.

    >>> _lone_rank((True, 0.42, 5.2)) > _lone_rank((True, 0.43, 3.3))
    True
    >>> _lone_rank((False, 0.9, 0.0)) > _lone_rank((True, 0.1, 1.0))
    False
    """
    return fit[0], fit[1] + LONE_OUTLINE * fit[2]


def _outline_shown(scene: Scene, quad: npt.NDArray[np.float64]) -> float:
    """How much of a card's whole outline shows as an edge (``_edge_evidences`` from each
    corner along both its sides, 0..8): a card placed the wrong way round runs across the
    white of the cards beside it, or over the table."""
    sides = [(quad[i], along, normal) for i in range(4) for along, normal in _sides_at(quad, i)]
    corners, alongs, normals = (np.array(part) for part in zip(*sides, strict=True))
    width = float(np.linalg.norm(quad[1] - quad[0]))
    return float(_edge_evidences(scene, corners, alongs, normals, np.full(len(sides), width),
                                 EDGE_STEP).sum())


def _sides_at(quad: npt.NDArray[np.float64], i: int) -> list[tuple[
        npt.NDArray[np.float64], npt.NDArray[np.float64]]]:
    """The two sides of a card's outline (4, 2), or of many (M, 4, 2), that meet at its corner
    ``i``: each as the side (from that corner) and the unit normal into the card (along the
    other side).

    >>> quad = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 3.0], [0.0, 3.0]])
    >>> [(a.tolist(), n.tolist()) for a, n in _sides_at(quad, 0)]
    [([2.0, 0.0], [0.0, 1.0]), ([0.0, 3.0], [1.0, 0.0])]
    >>> [a.shape for a, n in _sides_at(np.stack([quad, quad]), 1)]
    [(2, 2), (2, 2)]
    """
    corner, ahead, behind = quad[..., i, :], quad[..., (i + 1) % 4, :], quad[..., (i + 3) % 4, :]
    return [(side, other / np.maximum(np.linalg.norm(other, axis=-1, keepdims=True), 1e-6))
            for side, other in ((ahead - corner, behind - corner),
                                (behind - corner, ahead - corner))]


def _on_cards(scene: Scene, quad: npt.NDArray[np.float64], score: float) -> bool:
    """Whether a card read with ``score`` at ``quad`` lies on card regions. A sure reading
    needs little of its card in view (a finger or the photo's edge may hide most of it), and
    may show only its rim as card (a court card's picture can fill it to its white margin);
    another needs all of it."""
    return bool(_on_cards_many(scene, quad[None], score)[0])


def _on_cards_many(scene: Scene, quads: npt.NDArray[np.float64], score: float) -> (
        npt.NDArray[np.bool_]):
    """``_on_cards`` of many quads (M, 4, 2) read with one score."""
    if score >= SURE:
        points = _spread_points(quads, 0.94)
        out: npt.NDArray[np.bool_] = (
            (_inside_fractions(scene, quads, 0.5) >= 0.4)
            | (_inside_fractions(scene, quads, 0.94, rim=True) >= 0.75)
            | (_share_on_regions(scene, points, hull=True) >= HULL_INSIDE))
        # The pieces of a card split by its picture, taken together; a quad on one region
        # was judged by its hull above.
        rest = np.flatnonzero(~out)
        out[rest] = _share_on_joint_hulls(scene, points[rest]) >= JOINT_INSIDE
        return out
    return _inside_fractions(scene, quads, 0.94) >= 0.75


def _inside_fractions(scene: Scene, quads: npt.NDArray[np.float64], far: float,
                      rim: bool = False, hull: bool = False) -> npt.NDArray[np.float64]:
    """For each quad (M, 4, 2), the share of points spread over it (``_spread_points``) that
    fall on card regions (with ``hull``, their convex hulls).

    >>> scene = Scene(*(np.zeros((40, 40, 3), np.float32),) * 2, np.ones((20, 20), np.int32),
    ...               {1: 20.0}, np.zeros((10, 10, 3), np.float32))
    >>> quads = np.array([[[0, 0], [20, 0], [20, 30], [0, 30]],
    ...                   [[30, 0], [50, 0], [50, 30], [30, 30]]], np.float64)
    >>> _inside_fractions(scene, quads, 0.94).tolist()  # the second half off the photo
    [1.0, 0.5]
    """
    return _share_on_regions(scene, _spread_points(quads, far, rim), hull)


def _share_on_regions(scene: Scene, points: npt.NDArray[np.float64],
                      hull: bool = False) -> npt.NDArray[np.float64]:
    """For each row of points (M, P, 2), the share that falls on card regions (with ``hull``,
    their convex hulls)."""
    inside = scene.regions_at(points.reshape(-1, 2), hull) > 0
    out: npt.NDArray[np.float64] = inside.reshape(points.shape[:2]).mean(axis=1)
    return out


def _regions_touched(scene: Scene, points: npt.NDArray[np.float64]) -> tuple[
        npt.NDArray[np.int32], npt.NDArray[np.int64]]:
    """For each row of points (M, P, 2), the card region labels they fall on, sorted (0 for
    the table), and how many different regions that is."""
    labels = np.sort(scene.regions_at(points.reshape(-1, 2)).reshape(points.shape[:2]), axis=1)
    regions: npt.NDArray[np.int64] = (
        (np.diff(labels, axis=1) != 0) & (labels[:, 1:] > 0)).sum(axis=1) + (labels[:, 0] > 0)
    return labels, regions


def _share_on_joint_hulls(scene: Scene, points: npt.NDArray[np.float64]) -> (
        npt.NDArray[np.float64]):
    """For each row of points (M, P, 2) that falls on two or more card regions, the share
    within the convex hull of those regions taken together (``Scene.joint_hull``); 0 for
    the other rows. Each set of regions' hull is drawn once.

    >>> from scorekeeper.vision.scene import region_outlines
    >>> labels = np.zeros((10, 20), np.int32); labels[1:9, 1:4] = 1; labels[1:9, 14:19] = 2
    >>> scene = Scene(*(np.zeros((20, 40, 3), np.float32),) * 2, labels, {}, labels,
    ...               outlines=region_outlines(labels))
    >>> rows = np.array([[[4.0, 4.0], [30.0, 8.0], [18.0, 8.0], [18.0, 30.0]],
    ...                  [[4.0, 4.0], [5.0, 5.0], [18.0, 8.0], [18.0, 30.0]]])
    >>> _share_on_joint_hulls(scene, rows).tolist()
    [0.75, 0.0]
    """
    out = np.zeros(len(points), np.float64)
    labels, regions = _regions_touched(scene, points)
    rows = np.flatnonzero(regions > 1)
    if not len(rows):
        return out
    present = np.zeros((len(rows), int(labels.max()) + 1), np.bool_)
    present[np.arange(len(rows))[:, None], labels[rows]] = True
    present[:, 0] = False
    patterns, which = np.unique(present, axis=0, return_inverse=True)
    xs, ys, inside = scene.half_pixels(points[rows])
    for k, pattern in enumerate(patterns):
        mask = np.zeros(scene.filled.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, scene.joint_hull(np.flatnonzero(pattern).tolist()), 1)
        at = np.flatnonzero(which.ravel() == k)
        out[rows[at]] = ((mask[ys[at], xs[at]] > 0) & inside[at]).mean(axis=1)
    return out


def _spread_points(quads: npt.NDArray[np.float64], far: float, rim: bool = False,
                   grid: tuple[int, int] = (6, 8)) -> npt.NDArray[np.float64]:
    """Points spread over each quad (M, 4, 2), from its index end to ``far`` of its length
    (M, P, 2), ``grid`` across and along it; with ``rim``, along its two long sides only."""
    u = np.linspace(0.08, 0.92, grid[0])
    v = np.linspace(0.06, far, grid[1])
    uu, vv = np.meshgrid(u, v)
    if rim:
        uu, vv = uu[:, [0, -1]], vv[:, [0, -1]]
    uu, vv = uu.ravel()[None, :, None], vv.ravel()[None, :, None]
    tl, tr, br, bl = (quads[:, None, k] for k in range(4))
    out: npt.NDArray[np.float64] = (
        (1 - uu) * ((1 - vv) * tl + vv * bl) + uu * ((1 - vv) * tr + vv * br))
    return out


def _corner_exposed(scene: Scene, quad: npt.NDArray[np.float64], score: float = 0.0) -> bool:
    """Whether one of the two card edges meeting at the corner next to the index read shows
    where predicted (``_edges_shown``, with ``CORNER_STEP``), and for an index read at
    ``score`` ``SURE`` or better, up to ``CORNER_SHIFT`` rows off. A real index sits at a
    card's corner; art in the middle of a card, read as an index, predicts edges over blank
    card white."""
    shift = CORNER_SHIFT if score >= SURE else 0
    return bool(_edges_shown_many(scene, quad[None], CORNER_STEP, shift)[0] >= 1)


def _edges_shown(scene: Scene, quad: npt.NDArray[np.float64], enough: int = 2,
                 step: float = EDGE_STEP) -> int:
    """How many of the two card edges meeting at the corner next to the index read show where
    predicted (at most ``enough``): the table just outside and card just inside, or a step or
    a dark line (the card's rim, its shadow on the card below) where the card's white ends."""
    return min(enough, int(_edges_shown_many(scene, quad[None], step)[0]))


def _edges_shown_many(scene: Scene, quads: npt.NDArray[np.float64], step: float,
                      shift: int = 0) -> npt.NDArray[np.int64]:
    """``_edges_shown`` of many quads (M, 4, 2): how many of the two edges at each one's
    index corner show (0, 1 or 2), each up to ``shift`` rows off (``_edge_evidences``)."""
    corner = quads[:, 0]
    width = np.linalg.norm(quads[:, 1] - corner, axis=1)
    shown = np.zeros(len(quads), np.int64)
    for along, normal in _sides_at(quads, 0):
        gap = (0.06 * width)[:, None, None]
        points = corner[:, None] + np.array([0.12, 0.3])[None, :, None] * along[:, None]
        outside = scene.regions_at((points - gap * normal[:, None]).reshape(-1, 2)) == 0
        inside = scene.regions_at((points + gap * normal[:, None]).reshape(-1, 2),
                                  printed=True) > 0
        clear = outside.reshape(-1, 2).all(axis=1) & inside.reshape(-1, 2).all(axis=1)
        shown += clear | (_edge_evidences(scene, corner, along, normal, width, step, shift)
                          >= EDGE_SHOWN)
    return shown


#: Places along a predicted edge, and across it, that ``_edge_evidences`` looks at.
_EDGE_COLS: Final = 16
_EDGE_ROWS: Final = 13


def _edge_evidences(scene: Scene, corners: npt.NDArray[np.float64],
                    alongs: npt.NDArray[np.float64], normals: npt.NDArray[np.float64],
                    widths: npt.NDArray[np.float64], least: float,
                    shift: int = 0) -> npt.NDArray[np.float64]:
    """For each predicted card edge (its corner, the side from there and the unit normal into
    the card (K, 2), and the card's width (K,)), the share of places along it (from 10% to 40%
    of its length from the corner) where the photo shows an edge: just across it, the card
    white ends (dips, steps or changes tint by ``least`` or more); with ``shift``, the most
    of that share where the edge is moved by up to that many rows of the band in or out. The
    strips are sampled in one remap."""
    cols, rows = _EDGE_COLS, _EDGE_ROWS
    if not len(corners):
        return np.zeros(0)
    span = (EDGE_BAND * widths)[:, None]
    # Strips sampled with u along the edge and v across it (v < 0 outside, v > 0 inside),
    # ``shift`` rows further each way.
    step_u, step_v = alongs * (0.3 / cols), normals * (2 * span / rows)
    origin = corners + 0.1 * alongs - span * normals - shift * step_v
    rows += 2 * shift
    u = np.arange(cols, dtype=np.float64)[None, None, :, None]
    v = np.arange(rows, dtype=np.float64)[None, :, None, None]
    xy = (origin[:, None, None] + u * step_u[:, None, None] + v * step_v[:, None, None])
    xy = xy.reshape(-1, cols, 2).astype(np.float32)
    strips = np.concatenate([
        cv2.remap(scene.norm, xy[k:k + REMAP_ROWS, :, 0], xy[k:k + REMAP_ROWS, :, 1],
                  cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        for k in range(0, len(xy), REMAP_ROWS)]).reshape(len(corners), rows, cols, 3)
    light = strips.mean(axis=3)
    colour = strips.max(axis=3) - strips.min(axis=3)
    out: npt.NDArray[np.float64] = np.max([
        _edge_at_middle(light[:, k:k + _EDGE_ROWS], colour[:, k:k + _EDGE_ROWS], least)
        for k in range(2 * shift + 1)], axis=0)
    return out


def _edge_at_middle(light: npt.NDArray[np.float32], colour: npt.NDArray[np.float32],
                least: float) -> npt.NDArray[np.float64]:
    """The share of columns of strips (K, ``_EDGE_ROWS``, cols) across an edge, lightness and
    tint, where the card's white inside ends at the middle row by ``least`` or more."""
    mid = _EDGE_ROWS // 2
    inside = light[:, mid + 2:]
    level = _median_rows(inside)
    dip = level - light[:, mid - 3:mid + 2].min(axis=1)
    step = np.abs(level - _median_rows(light[:, :mid - 1]))
    tint = np.abs(_median_rows(colour[:, :mid - 1]) - _median_rows(colour[:, mid + 2:]))
    shown = (inside.min(axis=1) > 0.6) & ((dip > least) | (step > least) | (tint > least))
    out: npt.NDArray[np.float64] = shown.mean(axis=1)
    return out


def _median_rows(strips: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """``np.median(strips, axis=1)`` of strips (K, rows, cols) with an odd number of rows: the
    middle of the sorted rows, in a fraction of the time (it runs thousands of times a photo).

    >>> s = np.random.default_rng(0).random((3, 5, 4), np.float32)
    >>> bool((_median_rows(s) == np.median(s, axis=1)).all())
    True
    """
    out: npt.NDArray[np.float32] = np.sort(strips, axis=1)[:, strips.shape[1] // 2]
    return out


def _near_index(quads: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Card outlines (M, 4, 2) shrunk to ``COARSE_REACH`` of their size towards their index's
    corner (the first): where a card placed from its index's marks alone is judged to lie."""
    out: npt.NDArray[np.float64] = quads[:, :1] + COARSE_REACH * (quads - quads[:, :1])
    return out


def _canon_corners(profile: DeckProfile, template: int) -> npt.NDArray[np.float64]:
    """Where the corners of a card read by ``template`` lie on the learned card's picture."""
    return _mapped(profile.to_canon[template], profile.corners[template].astype(np.float64))
