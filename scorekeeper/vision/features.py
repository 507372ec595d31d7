"""Image features shared by calibration and recognition.

Both sides see cards the same way: colours divided by the card's own white (so warm or cool
light and shadows cancel out), "ink" as what is clearly darker or more coloured than that white,
and a corner index described in its own frame: origin on the suit pip's centroid, unit and
direction given by the vector from a rank glyph's centroid to the pip's centroid. A patch
sampled in that frame looks the same at any rotation and size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final

import cv2
import numpy as np
import numpy.typing as npt

# OpenCV's stubs type every array loosely; these aliases say what each array holds.
FloatImage = npt.NDArray[Any]  # float32 pixels
Image = npt.NDArray[Any]  # uint8 BGR pixels
Mask = npt.NDArray[Any]  # bool pixels

#: Canonical card size used for learning (pixels).
CANON_W: Final = 200
CANON_H: Final = 280
#: The canonical card's corners, clockwise from the top left.
CANON_CORNERS: Final = np.array([[0.0, 0.0], [CANON_W, 0.0], [CANON_W, CANON_H], [0.0, CANON_H]])
#: Index patch size in pixels and its window in frame units (x right, y towards the pip).
PATCH_W: Final = 24
PATCH_H: Final = 30
WIN_X: Final = (-0.95, 0.95)
WIN_Y: Final = (-1.65, 0.65)
#: The fine patches that settle between the best few cards: the rank and the pip apart,
#: each (window in frame units, width, height).
FINE_PARTS: Final = (
    (((-0.9, 0.9), (-1.65, -0.42)), 40, 28),
    (((-0.55, 0.55), (-0.5, 0.55)), 30, 30),
)
#: Patch rows above this one show the rank, the rest the pip; each part is compared on its own.
SPLIT_ROW: Final = 16
#: Directions kept of the centred templates by the rough comparison (of the 384 and 336
#: pixels of each part), and of their masks. On the tuned and probe photos, guesses scoring
#: 0.6 or more in full scored up to 0.11 less roughly with 64 and 64, up to 0.26 less with 32
#: and 8; the masks need fewer directions than the templates.
ROUGH_RANK: Final = 96
ROUGH_MASK_RANK: Final = 16
#: Patch rows compared roughly at a time.
ROUGH_ROWS: Final = 256
#: Template pixels brighter than this share of their part's brightest are its glyph ...
GLYPH_LEVEL: Final = 0.35
#: ... and an index is compared with a template only this many patch pixels around its glyph
#: (in a fan, the edge and pips of the card above often reach into the window).
GLYPH_MARGIN: Final = 2
#: An index's ink colour is read this many patch pixels around its glyphs, as learned and as
#: photographed (around the best-fitting card's glyphs): the window also holds what lies
#: around the index (a court card's picture, the table, the card above).
GLYPH_GROW: Final = 1
#: A lone corner mark's frame (a joker's star, with no rank over a pip): its unit is the square
#: root of the mark's area (which turning the card does not change), and the mark's centroid
#: lies this many units above the frame's origin, the rest of a unit below the anchor.
LONE_OFFSET: Final = 0.5
#: Two edge ways this far apart (degrees, modulo a right angle) may be a card's two edges at its
#: corner seen at a slant (jokers photographed at 35 and 38 degrees of tilt showed the corners
#: by their stars as 110 and 76 degrees).
SLANT: Final = (6.0, 30.0)
#: A pixel is ink when its darkest normalised channel is below this.
INK_LEVEL: Final = 0.55
#: Length of a patch step in frame units.
STEP: Final = (WIN_X[1] - WIN_X[0]) / PATCH_W
#: Most pixel rows ``sample_patches`` hands OpenCV's remap at once (it takes under 2**15).
REMAP_ROWS: Final = 30000


def channel_max(f: FloatImage) -> FloatImage:
    """Each pixel's largest channel of a three-channel image (any array whose last axis is
    the three channels). Elementwise over the channel planes: tens of times faster than
    ``max(axis=-1)``, and the same.

    >>> f = np.array([[[0.25, 1.0, 0.5], [0.75, 0.125, 0.5]]], np.float32)
    >>> channel_max(f).tolist(), channel_min(f).tolist()
    ([[1.0, 0.75]], [[0.25, 0.125]])
    """
    out: FloatImage = np.maximum(np.maximum(f[..., 0], f[..., 1]), f[..., 2])
    return out


def channel_min(f: FloatImage) -> FloatImage:
    """Each pixel's smallest channel of a three-channel image (as ``channel_max``)."""
    out: FloatImage = np.minimum(np.minimum(f[..., 0], f[..., 1]), f[..., 2])
    return out


def inkness(norm: FloatImage) -> FloatImage:
    """1 - the darkest channel of a white-normalised image, clipped to 0..1."""
    out: FloatImage = np.clip(1.0 - channel_min(norm), 0.0, 1.0).astype(np.float32)
    return out


def frame_matrix(pip: npt.NDArray[np.float64], anchor: npt.NDArray[np.float64]) -> (
        npt.NDArray[np.float64]):
    """The 2x3 affine map from frame units to image pixels for a pip and a rank anchor."""
    out: npt.NDArray[np.float64] = frame_matrices(pip[None, :], anchor[None, :])[0]
    return out


def frame_matrices(pips: npt.NDArray[np.float64], anchors: npt.NDArray[np.float64]) -> (
        npt.NDArray[np.float64]):
    """``frame_matrix`` of many pips and anchors (N, 2) at once: (N, 2, 3). A frame's y axis
    runs from the anchor to the pip, its unit is their distance, its origin is the pip.

    >>> frame_matrices(np.array([[3.0, 4.0]]), np.array([[0.0, 0.0]]))[0].tolist()
    [[4.0, 3.0, 3.0], [-3.0, 4.0, 4.0]]
    """
    axis = pips - anchors
    unit = np.hypot(axis[:, 0], axis[:, 1])
    ey = axis / np.maximum(unit, 1e-6)[:, None]
    out = np.empty((len(pips), 2, 3))
    out[:, 0, 0], out[:, 0, 1], out[:, 0, 2] = ey[:, 1] * unit, ey[:, 0] * unit, pips[:, 0]
    out[:, 1, 0], out[:, 1, 1], out[:, 1, 2] = -ey[:, 0] * unit, ey[:, 1] * unit, pips[:, 1]
    return out


def lone_points(centroid: npt.NDArray[np.float64], unit: float, down: npt.NDArray[np.float64]) -> (
        tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]):
    """The frame origin and anchor of a lone corner mark (``LONE_OFFSET``) whose card's down
    is the unit vector ``down``.

    >>> [p.tolist() for p in lone_points(np.array([10.0, 10.0]), 4.0, np.array([0.0, 1.0]))]
    [[10.0, 12.0], [10.0, 8.0]]
    """
    return centroid + LONE_OFFSET * unit * down, centroid - (1.0 - LONE_OFFSET) * unit * down


def slanted_lone_frames(centroid: npt.NDArray[np.float64], unit: float,
                        ways: tuple[float, ...]) -> list[npt.NDArray[np.float64]]:
    """Frames (2x3) of a lone corner mark at ``centroid`` whose card's corner is not square in
    the photo (a card seen at a slant): its x axis along one of the edge ``ways`` (degrees,
    modulo a right angle) and its down along another, ``SLANT`` apart, each way up.

    >>> f = slanted_lone_frames(np.array([10.0, 10.0]), 2.0, (0.0, 15.0, 50.0))
    >>> len(f), np.round(f[0], 2).tolist()
    (8, [[2.0, -0.52, 9.74], [0.0, 1.93, 10.97]])
    """
    out = []
    for a in ways:
        for b in ways:
            apart = (b - a) % 90.0
            if not SLANT[0] <= min(apart, 90.0 - apart) <= SLANT[1]:
                continue
            for quarter in range(4):
                x = a + 90.0 * quarter
                # The down among b's four that lies nearest a right angle past x.
                down = x + 90.0 + ((b - a + 45.0) % 90.0 - 45.0)
                axes = unit * np.array([[math.cos(math.radians(x)), math.cos(math.radians(down))],
                                        [math.sin(math.radians(x)), math.sin(math.radians(down))]])
                origin = centroid + LONE_OFFSET * axes[:, 1]
                out.append(np.hstack([axes, origin[:, None]]))
    return out


def patch_matrix(
    frame: npt.NDArray[np.float64], width: int = PATCH_W, height: int = PATCH_H,
    window: tuple[tuple[float, float], tuple[float, float]] = (WIN_X, WIN_Y),
) -> npt.NDArray[np.float64]:
    """The 2x3 map from patch pixels (u, v) to image pixels, for ``cv2.WARP_INVERSE_MAP``;
    the patch covers ``window`` ((x0, x1), (y0, y1)) in frame units."""
    (x0, x1), (y0, y1) = window
    sx = (x1 - x0) / width
    sy = (y1 - y0) / height
    to_frame = np.array([[sx, 0.0, x0 + 0.5 * sx], [0.0, sy, y0 + 0.5 * sy],
                         [0.0, 0.0, 1.0]])
    out: npt.NDArray[np.float64] = frame @ to_frame
    return out


def sample_patch(img: FloatImage, frame: npt.NDArray[np.float64]) -> FloatImage:
    """Sample an index patch (PATCH_H x PATCH_W, same channels as ``img``) in a frame."""
    out: FloatImage = cv2.warpAffine(
        img, patch_matrix(frame), (PATCH_W, PATCH_H),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE,
    )
    return out


def sample_patches(img: FloatImage, frames: npt.NDArray[np.float64]) -> FloatImage:
    """``sample_patch`` of one image in many frames (N, 2, 3) at once: rows (N, PATCH_H *
    PATCH_W), with the image's channels last if it has several.

    >>> img = np.arange(100 * 100, dtype=np.float32).reshape(100, 100) / 1e4
    >>> frames = np.stack([frame_matrix(np.array([50.0, 60.0]), np.array([50.0, 45.0]))] * 2)
    >>> rows = sample_patches(img, frames)
    >>> rows.shape, bool(np.allclose(rows[0], sample_patch(img, frames[0]).ravel(), atol=1e-3))
    ((2, 720), True)
    >>> sample_patches(np.dstack([img, img, img]), frames).shape
    (2, 720, 3)
    """
    grid = patch_matrix(np.eye(3)[:2])
    v, u = np.mgrid[0:PATCH_H, 0:PATCH_W].astype(np.float64)
    points = np.vstack([(grid[:, 0, None, None] * u + grid[:, 1, None, None] * v
                         + grid[:, 2, None, None]).reshape(2, -1), np.ones((1, u.size))])
    out = np.empty((len(frames), PATCH_H * PATCH_W, *img.shape[2:]), np.float32)
    per_call = REMAP_ROWS // PATCH_H  # OpenCV remaps fewer than 2**15 rows at a time
    for start in range(0, len(frames), per_call):
        xy = (frames[start:start + per_call] @ points).astype(np.float32)  # (n, 2, points)
        out[start:start + per_call] = cv2.remap(
            img, xy[:, 0].reshape(-1, PATCH_W), xy[:, 1].reshape(-1, PATCH_W), cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE).reshape(-1, PATCH_H * PATCH_W, *img.shape[2:])
    return out


def normalise_rows(rows: FloatImage) -> FloatImage:
    """Zero-mean, unit-norm rows (for normalised cross-correlation by dot products)."""
    centred = rows - rows.mean(axis=1, keepdims=True)
    centred /= np.maximum(np.linalg.norm(centred, axis=1, keepdims=True), 1e-6)
    out: FloatImage = centred.astype(np.float32, copy=False)
    return out


def describe(patches: FloatImage) -> FloatImage:
    """Patch rows (N, PATCH_H * PATCH_W) to descriptors whose dot product is the mean of the
    rank part's and the pip part's normalised cross-correlations."""
    split = SPLIT_ROW * PATCH_W
    out: FloatImage = np.empty(patches.shape, np.float32)
    out[:, :split] = normalise_rows(patches[:, :split])
    out[:, split:] = normalise_rows(patches[:, split:])
    out *= np.float32(math.sqrt(0.5))
    return out


def glyph_mask(part: FloatImage, margin: int) -> npt.NDArray[np.uint8]:
    """1 within ``margin`` pixels of a learned part's glyph (its pixels brighter than
    ``GLYPH_LEVEL`` of its brightest), 0 elsewhere.

    >>> part = np.zeros((9, 9), np.float32); part[4, 4] = 1.0
    >>> int(glyph_mask(part, 2).sum()), int(glyph_mask(part, 2)[0, 0])
    (17, 0)
    """
    return grown(_glyph(part), margin)


def _glyph(part: FloatImage) -> npt.NDArray[np.uint8]:
    """1 on a learned part's glyph: its pixels brighter than ``GLYPH_LEVEL`` of its brightest."""
    out: npt.NDArray[np.uint8] = (part > GLYPH_LEVEL * float(part.max())).astype(np.uint8)
    return out


def grown(mask: npt.NDArray[np.uint8], margin: int) -> npt.NDArray[np.uint8]:
    """A 0/1 mask grown by ``margin`` pixels."""
    grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * margin + 1,) * 2)
    out: npt.NDArray[Any] = cv2.dilate(mask, grow)
    return out


@dataclass(frozen=True, slots=True, eq=False)
class GlyphTemplates:
    """Templates prepared for comparison around their glyphs only: for each part (rank rows,
    pip rows), the template centred and normalised within its mask, the mask, and how many
    pixels the mask holds (at least 1)."""

    parts: tuple[tuple[FloatImage, FloatImage, FloatImage], ...]
    #: For each part, the main directions of the centred templates and the templates'
    #: coordinates along them, and the same for the masks (``_bases``; for ``rough`` only).
    bases: tuple[tuple[FloatImage, FloatImage, FloatImage, FloatImage], ...] = ()

    @classmethod
    def of(cls, templates: FloatImage, own: npt.NDArray[np.uint8] | None = None,
           rough: bool = False) -> GlyphTemplates:
        """From described templates (T, PATCH_H * PATCH_W): around all their glyphs, or around
        the index's own glyphs only, given as ``own`` (``index_glyph`` of each, T x PATCH_H x
        PATCH_W); with the projections ``rough`` needs if asked."""
        shaped = templates.reshape(-1, PATCH_H, PATCH_W)
        whole = None if own is None else np.stack([grown(g, GLYPH_MARGIN) for g in own])
        parts = []
        for rows in (slice(0, SPLIT_ROW), slice(SPLIT_ROW, PATCH_H)):
            masks = np.zeros((len(shaped), rows.stop - rows.start, PATCH_W), np.float32)
            for i, t in enumerate(shaped[:, rows]):
                masks[i] = glyph_mask(t, GLYPH_MARGIN) if whole is None else whole[i, rows]
            flat_t = shaped[:, rows].reshape(len(shaped), -1)
            flat_m = masks.reshape(len(shaped), -1)
            count = np.maximum(flat_m.sum(axis=1, keepdims=True), 1.0)
            centred = (flat_t - (flat_t * flat_m).sum(axis=1, keepdims=True) / count) * flat_m
            centred /= np.maximum(np.linalg.norm(centred, axis=1, keepdims=True), 1e-6)
            parts.append((centred.astype(np.float32), flat_m, count[:, 0]))
        return cls(tuple(parts), tuple(_bases(centred, flat_m) for centred, flat_m, _ in parts)
                   if rough else ())

    def correlate(self, patches: FloatImage) -> FloatImage:
        """Raw patch rows (N, PATCH_H * PATCH_W) against every template (N, T): the mean of
        the rank part's and the pip part's correlations, each within the template's mask.

        >>> t = describe(np.random.default_rng(1).random((3, PATCH_H * PATCH_W), np.float32))
        >>> bool(np.allclose(np.diag(GlyphTemplates.of(t).correlate(t)), 1.0, atol=1e-4))
        True
        """
        total: FloatImage = self.correlate_part(patches, 0)
        for part in range(1, len(self.parts)):
            total += self.correlate_part(patches, part)
        total /= len(self.parts)
        return total

    def correlate_part(self, patches: FloatImage, part: int) -> FloatImage:
        """``correlate`` of one part alone (0: the rank rows, 1: the pip rows), (N, T)."""
        split = SPLIT_ROW * PATCH_W
        centred, masks, count = self.parts[part]
        p = patches[:, :split] if part == 0 else patches[:, split:]
        return _within_masks(p @ centred.T, p @ masks.T, np.square(p) @ masks.T, count)

    def rough(self, patches: FloatImage) -> npt.NDArray[np.float32]:
        """Each patch row's best ``correlate`` score over the templates (N,), approximated
        cheaply: the templates projected on their ``ROUGH_RANK`` main directions, their masks
        on their ``ROUGH_MASK_RANK`` ones. Mostly within 0.05 of the full score where that
        is 0.6 or more; least close where the patch is nearly flat within a template's mask.

        >>> t = describe(np.random.default_rng(1).random((3, PATCH_H * PATCH_W), np.float32))
        >>> g = GlyphTemplates.of(t, rough=True)
        >>> bool(np.allclose(g.rough(t), g.correlate(t).max(axis=1), atol=1e-3))
        True
        """
        if not self.bases:
            raise ValueError("these templates were prepared without rough=True")
        split = SPLIT_ROW * PATCH_W
        out = np.empty(len(patches), np.float32)
        # In chunks small enough for the (rows x templates) arrays to stay in the cache.
        for start in range(0, len(patches), ROUGH_ROWS):
            rows = patches[start:start + ROUGH_ROWS]
            total = np.zeros((len(rows), len(self.parts[0][0])), np.float32)
            for (to_c, c, to_m, m), (_, _, count), p in zip(
                    self.bases, self.parts, (rows[:, :split], rows[:, split:]), strict=True):
                total += _within_masks((p @ to_c) @ c, (p @ to_m) @ m,
                                       (np.square(p) @ to_m) @ m, count)
            out[start:start + len(rows)] = total.max(axis=1, initial=-np.inf) / len(self.parts)
        return out


def _within_masks(products: FloatImage, sums: FloatImage, squares: FloatImage,
                  count: FloatImage) -> FloatImage:
    """Correlations within each template's mask (N x T), from the patches' products with the
    centred templates and their sums and sums of squares within the masks (of ``count``
    pixels each): the products divided by the patches' spread there. In place: ``sums`` and
    ``squares`` are spent, and the result is ``products``."""
    # spread = sum of squares - square of sum / count.
    sums *= sums
    sums /= count
    squares -= sums
    np.maximum(squares, 1e-6, out=squares)
    np.sqrt(squares, out=squares)
    products /= squares
    return products


def _bases(centred: FloatImage, masks: FloatImage) -> tuple[
        FloatImage, FloatImage, FloatImage, FloatImage]:
    """The rough comparison's projections (``GlyphTemplates.rough``): for the centred
    templates and for the masks (T, P), the P x k matrix onto their main directions
    (``ROUGH_RANK``, ``ROUGH_MASK_RANK``) and the k x T coordinates of each along them."""
    out = []
    for rows, rank in ((centred, ROUGH_RANK), (masks, ROUGH_MASK_RANK)):
        k = min(rank, *rows.shape)
        wide = rows.astype(np.float64)
        # The main directions are the Gram matrix's leading eigenvectors (eigh sorts upwards).
        directions = np.linalg.eigh(wide.T @ wide)[1][:, ::-1][:, :k].T
        out += [np.ascontiguousarray(directions.T, np.float32),
                np.ascontiguousarray(directions @ rows.T, np.float32)]
    return out[0], out[1], out[2], out[3]


def ink_colour(norm_patch: FloatImage, ink_patch: FloatImage) -> npt.NDArray[np.float32]:
    """The ink's absorption per channel (B, G, R), scaled so its largest is 1: a hue that does
    not depend on how faded or small the ink is. Black is (1, 1, 1)."""
    out: npt.NDArray[np.float32] = ink_colours(norm_patch.reshape(1, -1, 3),
                                               ink_patch.reshape(1, -1))[0]
    return out


#: Weight (pixels of full ink) under which an index's ink is read as faint (``ink_colours``).
FAINT_INK: Final = 1.0


def ink_colours(norm_rows: FloatImage, ink_rows: FloatImage) -> npt.NDArray[np.float32]:
    """``ink_colour`` of many patches at once: rows of white-normalised pixels (N, P, 3) and
    of their ink (N, P); (N, 3).

    >>> norm = np.ones((2, 4, 3), np.float32); norm[0, :2] = (0.2, 0.2, 0.9)
    >>> ink = np.zeros((2, 4), np.float32); ink[0, :2] = 0.7
    >>> [[round(v, 3) for v in c] for c in ink_colours(norm, ink).tolist()]
    [[1.0, 1.0, 0.125], [1.0, 1.0, 1.0]]

    Ink too faint for the usual weights is read from its own darkest (``FAINT_INK``), not
    taken for black:

    >>> norm[1, :2] = (0.95, 0.85, 0.7); ink[1, :2] = 0.2
    >>> [round(v, 3) for v in ink_colours(norm, ink)[1].tolist()]
    [0.167, 0.5, 1.0]
    """
    weight = np.clip((ink_rows - 0.3) / 0.4, 0.0, 1.0)
    total = weight.sum(axis=1)
    faint = total < FAINT_INK
    if faint.any():
        # Ink too faint for those levels (a pale star, blurred) is weighed from half its own
        # darkest: with no weight it would read as black, and a blue star as the black joker.
        darkest = ink_rows[faint].max(axis=1, keepdims=True)
        weight[faint] = np.clip((ink_rows[faint] - 0.5 * darkest)
                                / np.maximum(0.5 * darkest, 1e-3), 0.0, 1.0)
        total = weight.sum(axis=1)
    absorb = 1.0 - np.einsum("npc,np->nc", norm_rows, weight) / np.maximum(total, 1e-3)[:, None]
    absorb = np.clip(absorb, 0.0, None)
    top = absorb.max(axis=1)
    out = absorb / np.maximum(top, 0.05)[:, None]
    out[(total < 1e-3) | (top < 0.05)] = 1.0
    result: npt.NDArray[np.float32] = out.astype(np.float32)
    return result


def blur_for_step(img: FloatImage, step: float) -> FloatImage:
    """Low-pass an image before sampling it every ``step`` pixels."""
    sigma = 0.45 * step
    if sigma < 0.5:
        return img
    out: FloatImage = cv2.GaussianBlur(img, (0, 0), sigma)
    return out


#: Where an index's own marks lie in its frame: the pip's centroid, the rank's and a lone
#: mark's (``LONE_OFFSET``) ...
INDEX_POINTS: Final = ((0.0, 0.0), (0.0, -1.0), (0.0, -LONE_OFFSET))
#: ... and how near one of them (patch pixels) a glyph must come to be part of the index.
INDEX_REACH: Final = 3


def index_glyph_mask(part: FloatImage, margin: int) -> npt.NDArray[np.uint8]:
    """``glyph_mask`` of an index patch's own glyphs (``index_glyph``).

    >>> part = np.zeros((PATCH_H, PATCH_W), np.float32)
    >>> part[19:23, 10:14] = 1.0  # the pip, at the frame's origin
    >>> part[0:3, 0:3] = 1.0  # a court picture's corner
    >>> mask = index_glyph_mask(part, 0)
    >>> int(mask.sum()), int(glyph_mask(part, 0).sum())
    (16, 25)
    """
    return grown(index_glyph(part), margin)


def index_glyph(part: FloatImage) -> npt.NDArray[np.uint8]:
    """1 on an index patch's own glyphs: of the glyph's pieces, those within ``INDEX_REACH``
    patch pixels of one of ``INDEX_POINTS``; ink in the window that is no part of the index (a
    court card's picture, the card's border) is left out. All of the glyph if no piece is that
    near."""
    glyph = _glyph(part)
    _, labels = cv2.connectedComponents(glyph, connectivity=8)
    keep = np.unique(labels[_INDEX_NEAR & (glyph > 0)])
    own: npt.NDArray[np.uint8] = (np.isin(labels, keep[keep > 0]).astype(np.uint8)
                                  if (keep > 0).any() else glyph)
    return own


def index_glyphs(templates: FloatImage) -> npt.NDArray[np.uint8]:
    """``index_glyph`` of each template row (T, PATCH_H * PATCH_W): (T, PATCH_H, PATCH_W).

    >>> index_glyphs(np.zeros((0, PATCH_H * PATCH_W), np.float32)).shape
    (0, 30, 24)
    """
    if not len(templates):
        return np.zeros((0, PATCH_H, PATCH_W), np.uint8)
    return np.stack([index_glyph(t.reshape(PATCH_H, PATCH_W)) for t in templates])


def _index_near() -> npt.NDArray[np.bool_]:
    """The patch pixels within ``INDEX_REACH`` of ``INDEX_POINTS``."""
    near = np.zeros((PATCH_H, PATCH_W), np.uint8)
    to_patch = cv2.invertAffineTransform(patch_matrix(np.eye(3)[:2]))
    for x, y in INDEX_POINTS:
        u, v = to_patch @ np.array([x, y, 1.0])
        cv2.circle(near, (round(u), round(v)), INDEX_REACH, 1, -1)
    out: npt.NDArray[np.bool_] = near > 0
    return out


_INDEX_NEAR: Final = _index_near()


@dataclass(frozen=True, slots=True, eq=False)
class Blob:
    """An ink connected component."""

    centroid: npt.NDArray[np.float64]
    x: int
    y: int
    w: int
    h: int
    area: int

    @property
    def size(self) -> int:
        return max(self.w, self.h)


def filled_area(ink_mask: Mask, blob: Blob) -> int:
    """The pixels of ``blob``'s box that blank reaching in from the box's edge does not reach:
    the mark with its holes filled (a ring drawn in outline counts as its disc, whatever its
    stroke; a solid mark as itself), the unit of a lone corner mark's frame.

    >>> ring = np.zeros((7, 7), bool); ring[1:6, 1:6] = True; ring[2:5, 2:5] = False
    >>> filled_area(ring, Blob(np.array([3.0, 3.0]), 1, 1, 5, 5, 16))
    25
    """
    box = ink_mask[blob.y:blob.y + blob.h, blob.x:blob.x + blob.w].astype(np.uint8)
    outside = cv2.copyMakeBorder(box, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    cv2.floodFill(outside, None, (0, 0), 2)
    return max(blob.area, int(np.count_nonzero(outside != 2)))


#: A mark's shape is told by this many of its Hu moments (log scale; the later ones are tiny
#: and noisy at a mark's few pixels).
HU_MOMENTS: Final = 4


def mark_shape(mask: Mask) -> npt.NDArray[np.float64]:
    """The shape of the largest piece of ``mask``, whatever its size and turn: its first
    ``HU_MOMENTS`` Hu moments on a log scale (zeros where the mask is empty).

    >>> disc = np.zeros((40, 40), np.uint8); _ = cv2.circle(disc, (20, 20), 15, 1, -1)
    >>> small = np.zeros((20, 20), np.uint8); _ = cv2.circle(small, (10, 10), 7, 1, -1)
    >>> bar = np.zeros((40, 40), np.uint8); bar[5:35, 17:23] = 1
    >>> near = float(np.abs(mark_shape(disc) - mark_shape(small)).sum())
    >>> far = float(np.abs(mark_shape(disc) - mark_shape(bar)).sum())
    >>> near < 0.1 < far
    True
    """
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8),
                                                               connectivity=8)
    if count < 2:
        return np.zeros(HU_MOMENTS)
    piece = labels == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    hu = cv2.HuMoments(cv2.moments(piece.astype(np.uint8), True)).ravel()[:HU_MOMENTS]
    out: npt.NDArray[np.float64] = -np.sign(hu) * np.log10(np.abs(hu) + 1e-30)
    return out


def ink_blobs(ink_mask: Mask, min_area: int = 4) -> list[Blob]:
    """Connected components of an ink mask (8-connected), small specks dropped."""
    count, _, stats, centroids = cv2.connectedComponentsWithStats(
        ink_mask.astype(np.uint8), connectivity=8
    )
    out = []
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area >= min_area:
            out.append(Blob(centroids[i].astype(np.float64), x, y, w, h, area))
    return out


def affine_variants() -> list[npt.NDArray[np.float64]]:
    """Linear maps standing for a tilted phone: squashes of 0.8 and 0.62 in four directions."""
    out = [np.eye(2)]
    for squash in (0.8, 0.62):
        for degrees in (0, 45, 90, 135):
            a = math.radians(degrees)
            rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
            out.append(rot @ np.diag([squash, 1.0]) @ rot.T)
    return out
