"""The table's perspective: cards photographed at a slant show their far end smaller than
their near end, while an outline placed from a card's index alone is the learned card under
the index's affine frame, which overshoots the far end (on the tuned and probe photos, by a
median of an eighth of a card's width at 20 degrees of tilt and a sixth at 40). One
projective correction for the whole table, two numbers, is chosen so that the sides of the
cards' outlines placed through it lie best on edges of the card regions that have the region
on their inner side: a fan's or a pile's rim, an apart card's four sides (a side under
another card shows no edge whatever the correction). Covering the regions best was tried
first, then edges either way round: a cloth whose pattern passes as card white drew the
outlines out over it.

Points are taken in photo units (centred on the photo, divided by its long side). The
correction maps a point ``p`` to ``p / (1 + n . p)``, ``n`` being the table's two numbers:
there the table is seen straight on, up to one affine map for the whole table, so that each
card's outline is its index's frame (linearised at the index) applied to the learned card.
"""

from __future__ import annotations

from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.vision.scene import Scene

#: Each of the table's two numbers is looked for within this reach (photo units; a phone at
#: 40 degrees over a table gives about 0.6 where the cards fill half the photo) ...
REACH: Final = 1.2
#: ... on grids of these steps, each finer one around the best of the one before.
STEPS: Final = (0.3, 0.1, 0.04)
#: The card regions' edges are read with this blur (pixels of the half-size region mask).
EDGE_BLUR: Final = 1.5
#: A correction is kept where the outlines' sides through it lie on the regions' edges this
#: much more (``_on_edges``: 1 for sides all on clean edges) than as placed.
GAIN: Final = 0.02
#: No point of an outline may come nearer the table's horizon than this (``1 + n . p``).
HORIZON: Final = 0.2
#: Nor may a card's outline grow or shrink by more than this factor (area): a card 9 cm long
#: seen at 45 degrees from 30 cm away is about 1.24 times as wide at its near end as at its
#: far end (1.5 times the area). On the tuned and probe photos 1.3 left fans photographed at
#: 40 degrees a fifth of a card off; against 1.3, 1.6 read the same cards (one extra more).
STRETCH: Final = 1.6

#: Where along each side of an outline its edge is read.
_ALONG: Final = np.linspace(0.1, 0.9, 12)


def in_perspective(scene: Scene, quads: list[npt.NDArray[np.float64]],
                   anchors: list[npt.NDArray[np.float64]]) -> list[npt.NDArray[np.float64]]:
    """The outlines ``quads`` (working-image pixels, each placed from the index at its point
    in ``anchors``) placed again through the table's correction that lays their sides on the
    card regions' edges best; ``quads`` itself where none does so ``GAIN`` better."""
    if not quads:
        return quads
    pixels = np.array(quads, np.float64)
    edges = _edges(scene, pixels)
    h, w = scene.norm.shape[:2]
    centre, side = np.array([w / 2.0, h / 2.0]), float(max(w, h))
    local = (pixels - centre) / side
    points = (np.array(anchors, np.float64) - centre) / side
    start = _on_edges(edges, pixels[None])[0]
    best, best_fit = np.zeros(2), start
    for step, reach in zip(STEPS, (REACH, *STEPS[:-1]), strict=True):
        ticks = np.arange(-reach, reach + 1e-9, step)
        grid = best + np.stack(np.meshgrid(ticks, ticks), axis=-1).reshape(-1, 2)
        grid = grid[np.abs(grid).max(axis=1) <= REACH + 1e-9]
        placed, valid = corrected(local, points, grid)
        if not valid.any():
            break
        fits = np.where(valid, _on_edges(edges, centre + side * placed), -1.0)
        k = int(np.argmax(fits))
        if fits[k] > best_fit:
            best, best_fit = grid[k], float(fits[k])
    if best_fit < start + GAIN:
        return quads
    placed, _ = corrected(local, points, best[None])
    return list(centre + side * placed[0])


def corrected(quads: npt.NDArray[np.float64], anchors: npt.NDArray[np.float64],
              ns: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64],
                                                    npt.NDArray[np.bool_]]:
    """Outlines (K, 4, 2; photo units) placed again through each of the table's corrections
    ``ns`` (M, 2): each corner's offset from its anchor (K, 2) taken in the corrected plane,
    where the anchor's frame holds across the whole card (M, K, 4, 2); and whether each
    correction is allowed: no outline nears the horizon (``HORIZON``) or changes its area by
    more than ``STRETCH``.

    >>> square = np.array([[[0.0, 0.0], [0.1, 0.0], [0.1, 0.1], [0.0, 0.1]]])
    >>> out, ok = corrected(square, square[:, 0], np.array([[0.0, 0.0], [0.0, -1.0]]))
    >>> bool(np.allclose(out[0], square)), ok.tolist()
    (True, [True, True])
    >>> out[1, 0].round(3).tolist()  # the far side (larger y here) shrinks towards the anchor
    [[0.0, 0.0], [0.1, 0.0], [0.091, 0.091], [0.0, 0.091]]
    """
    w0 = 1.0 + ns @ anchors.T  # (M, K)
    safe = np.maximum(w0, HORIZON)
    offsets = quads - anchors[:, None]  # (K, 4, 2)
    along = np.einsum("kcj,mj->mkc", offsets, ns)
    # The correction's Jacobian at each anchor, applied to the corners' offsets from it.
    flat = ((anchors[None] / safe[..., None])[:, :, None]
            + (offsets[None] * safe[..., None, None]
               - anchors[None, :, None] * along[..., None]) / (safe * safe)[..., None, None])
    back = 1.0 - np.einsum("mkcj,mj->mkc", flat, ns)  # the inverse: p = r / (1 - n . r)
    out: npt.NDArray[np.float64] = flat / np.maximum(back, HORIZON)[..., None]
    ratio = _areas(out) / np.maximum(_areas(quads), 1e-12)
    valid: npt.NDArray[np.bool_] = ((w0.min(axis=1) >= HORIZON) & (back.min(axis=(1, 2)) >= HORIZON)
                                    & (ratio.min(axis=1) >= 1.0 / STRETCH)
                                    & (ratio.max(axis=1) <= STRETCH))
    return out, valid


def _areas(quads: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Each quad's area (shoelace), over the quads' leading axes."""
    x, y = quads[..., 0], quads[..., 1]
    out: npt.NDArray[np.float64] = 0.5 * np.abs(
        (x * np.roll(y, -1, axis=-1) - np.roll(x, -1, axis=-1) * y).sum(axis=-1))
    return out


def _edges(scene: Scene, quads: npt.NDArray[np.float64]) -> tuple[
        npt.NDArray[np.float32], npt.NDArray[np.float64]]:
    """How the card regions end around the outlines ``quads`` (working-image pixels), at half
    size: the gradient of the slightly blurred region mask (H, W, 2; 1 long across a clean
    edge, pointing into the region), over the outlines' box grown by half its size each way;
    and that crop's corner."""
    lo, hi = quads.reshape(-1, 2).min(axis=0) / 2, quads.reshape(-1, 2).max(axis=0) / 2
    grow = (hi - lo) / 2
    h, w = scene.filled.shape
    x0, y0 = (max(0, int(v)) for v in lo - grow)
    x1, y1 = min(w, int(hi[0] + grow[0]) + 1), min(h, int(hi[1] + grow[1]) + 1)
    crop = (scene.filled[y0:max(y0 + 1, y1), x0:max(x0 + 1, x1)] > 0).astype(np.float32)
    mask = cv2.GaussianBlur(crop, (0, 0), EDGE_BLUR)
    # A step blurred by sigma peaks at 1 / (sigma sqrt(2 pi)); Sobel weighs 8 per pixel.
    scale = float(EDGE_BLUR * np.sqrt(2 * np.pi) / 8.0)
    out: npt.NDArray[np.float32] = np.stack(
        [cv2.Sobel(mask, cv2.CV_32F, 1, 0, ksize=3, scale=scale),
         cv2.Sobel(mask, cv2.CV_32F, 0, 1, ksize=3, scale=scale)], axis=-1)
    return out, np.array([x0, y0], np.float64)


def _on_edges(edges: tuple[npt.NDArray[np.float32], npt.NDArray[np.float64]],
              quads: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """How much the sides of each set of outlines (M, K, 4, 2; working-image pixels) lie on
    edges of the card regions with the region inside them (``_edges`` along each side's
    inward normal, mean over points along the sides; an edge the other way round counts
    against), (M,)."""
    gradient, corner = edges
    ends = np.roll(quads, -1, axis=-2)
    sides = ends - quads
    normals = np.stack([-sides[..., 1], sides[..., 0]], axis=-1)
    normals /= np.maximum(np.linalg.norm(normals, axis=-1, keepdims=True), 1e-12)
    inward = np.einsum("...j,...j->...", normals,
                       quads.mean(axis=-2, keepdims=True) - (quads + ends) / 2)
    normals *= np.where(inward < 0, -1.0, 1.0)[..., None]
    points = (quads[..., None, :] + sides[..., None, :] * _ALONG[:, None]) / 2 - corner
    xs = np.clip(points[..., 0].astype(np.int64), 0, gradient.shape[1] - 1)
    ys = np.clip(points[..., 1].astype(np.int64), 0, gradient.shape[0] - 1)
    along = np.einsum("...j,...j->...", gradient[ys, xs], normals[..., None, :])
    out: npt.NDArray[np.float64] = along.reshape(len(quads), -1).mean(axis=1)
    return out
