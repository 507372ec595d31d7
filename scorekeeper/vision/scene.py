"""Finding cards in a photo: white balance, the card mask, and colours divided by the card white.

Cards are the whitest, least coloured things on a card table (felt and wood are coloured or
dark), so the mask is "low saturation and bright compared to the brightest things nearby".
The card white is then estimated everywhere by normalised convolution over mask pixels, and
the photo is divided by it: shadows, light gradients and warm or cool light cancel out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.vision.features import FloatImage, Image, Mask, channel_max, channel_min

#: Gaps up to this fraction of the photo's long side between white card areas are closed.
BRIDGE: Final = 0.008
#: Where ink is read, a card region also holds the parts of its convex hull this close to it
#: (fraction of the photo's long side): an index printed near a card's edge leaves only a thin
#: strip of white outside it, which the mask loses, so the index opens a notch in the region.
NOTCH: Final = 0.008
#: ... or this close, as a fraction of the region's estimated card width, where that is more:
#: a notch is as wide as the index that opens it, and on a card a fifth of the photo wide a
#: pip's middle lay farther than ``NOTCH`` from the white (the pip was read as table, and the
#: index was never paired).
NOTCH_CARD: Final = 0.1
#: The photo is balanced on its whitest 3% of pixels (``_gains``). Two small cards fill less
#: than that: on a magenta cloth the whitest 3% were part cloth, the cards came out too green
#: for card white, and no card region was found. Where none is, the regions are looked for again
#: with the photo balanced on its whitest ``LAST_WHITEST`` percent.
LAST_WHITEST: Final = 0.5


@dataclass(frozen=True, slots=True, eq=False)
class Scene:
    """A photo's card regions and its white-normalised colours."""

    norm: FloatImage  # photo / card white, per channel
    ink: FloatImage  # inkness of norm, 0..1
    filled: npt.NDArray[np.int32]  # labels of card regions (holes filled) at half size
    card_width: dict[int, float]  # label -> estimated card width in pixels
    white_scale: FloatImage  # per-channel factor photo -> normalised, at quarter size
    hulls: npt.NDArray[np.int32] | None = None  # card regions' convex hulls, at half size
    printed: npt.NDArray[np.int32] | None = None  # the regions with their notches (NOTCH)
    outlines: tuple[npt.NDArray[np.int32], ...] = ()  # each region's convex hull (label - 1)

    def regions_at(self, points: npt.NDArray[np.float64], hull: bool = False,
                   printed: bool = False) -> npt.NDArray[np.int32]:
        """Region labels (0 = table, or outside the photo) at full-size pixel points (N, 2);
        with ``hull``, of the regions' convex hulls (a court card's picture that reaches its
        rim leaves a bay in its region, not a hole); with ``printed``, of the regions where
        ink is read as print (``NOTCH``)."""
        labels = self.filled
        if hull and self.hulls is not None:
            labels = self.hulls
        elif printed and self.printed is not None:
            labels = self.printed
        xs, ys, valid = self.half_pixels(points)
        out = np.zeros(len(points), np.int32)
        out[valid] = labels[ys[valid], xs[valid]]
        return out

    def half_pixels(self, points: npt.NDArray[np.float64]) -> tuple[
            npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
        """The half-size pixel columns and rows of full-size points (..., 2), clipped into the
        photo, and whether each point lies in it."""
        h, w = self.filled.shape[:2]
        xs = np.floor(points[..., 0] / 2).astype(np.int64)
        ys = np.floor(points[..., 1] / 2).astype(np.int64)
        valid = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        return np.clip(xs, 0, w - 1), np.clip(ys, 0, h - 1), valid

    def joint_hull(self, labels: Iterable[int]) -> npt.NDArray[np.int32]:
        """The convex hull (M x 1 x 2, half size) of the regions ``labels`` taken together: a
        court card whose picture reaches both long sides splits its white into pieces, and the
        card is the hull of them all."""
        hull: npt.NDArray[np.int32] = cv2.convexHull(
            np.vstack([self.outlines[k - 1] for k in labels])).astype(np.int32)
        return hull


def white_balance(img: Image) -> FloatImage:
    """The photo as floats (0..1), channels scaled so the whitest pixels (the cards) come out
    neutral."""
    out: FloatImage = img.astype(np.float32) * _gains(img)[None, None, :]
    return out


def card_mask(f: FloatImage) -> Mask:
    """Bright, colourless pixels: card white (balanced float image in)."""
    v, low = channel_max(f), channel_min(f)
    sat = (v - low) / (v + 0.02)
    h, w = v.shape
    small = cv2.resize(v, (max(1, w // 8), max(1, h // 8)), interpolation=cv2.INTER_AREA)
    k = max(3, round(max(small.shape) / 6)) | 1
    local = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    local = cv2.blur(local, (k, k))
    local = cv2.resize(local, (w, h), interpolation=cv2.INTER_LINEAR)
    out: Mask = (sat < 0.3) & (v > 0.5 * local) & (v > 0.2)
    return out


def fill_regions(white: Mask, min_area: float, bridge: int = 0) -> tuple[
        npt.NDArray[np.int32], Mask]:
    """Label the card regions with their holes (ink) filled; drop regions under ``min_area``.

    ``bridge`` (pixels) closes gaps that thin: a card's printed outline, or the edge of one
    card lying on another, must not split a fan into strips."""
    m: Image = white.astype(np.uint8)
    m = cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    closed = m
    if bridge >= 2:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (bridge | 1, bridge | 1))
        closed = cv2.morphologyEx(m, cv2.MORPH_CLOSE, kernel)
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros(white.shape, np.uint8)
    big = [c for c in contours if cv2.contourArea(c) >= min_area]
    cv2.drawContours(filled, big, -1, 1, thickness=cv2.FILLED)
    count, labels = cv2.connectedComponents(filled, connectivity=8)
    return labels.astype(np.int32), m.astype(bool)


def hull_regions(labels: npt.NDArray[np.int32],
                 outlines: tuple[npt.NDArray[np.int32], ...] | None = None) -> (
        npt.NDArray[np.int32]):
    """Each labelled region's convex hull (``region_outlines``, unless given), filled with its
    label (where hulls overlap, the higher label)."""
    out = np.zeros_like(labels)
    for label, hull in enumerate(region_outlines(labels) if outlines is None else outlines,
                                 start=1):
        if len(hull):
            cv2.fillConvexPoly(out, hull, label)
    return out


def region_outlines(labels: npt.NDArray[np.int32]) -> tuple[npt.NDArray[np.int32], ...]:
    """Each labelled region's convex hull (its points, M x 2; none for an empty label), in
    label order from 1."""
    out: list[npt.NDArray[np.int32]] = []
    for label in range(1, int(labels.max()) + 1):
        contours, _ = cv2.findContours((labels == label).astype(np.uint8), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE)
        out.append(cv2.convexHull(np.vstack(contours)).reshape(-1, 2).astype(np.int32)
                   if contours else np.zeros((0, 2), np.int32))
    return tuple(out)


def _gains(img: Image, percentile: float = 97.0) -> npt.NDArray[np.float32]:
    """Per-channel factors (including 1/255) that make the whitest pixels neutral (those whose
    darkest channel is at or over ``percentile``)."""
    sample = img[::4, ::4].reshape(-1, 3)
    low = channel_min(sample)
    whitest = sample[low >= np.percentile(low, percentile)].astype(np.float32)
    if len(whitest) < 10:
        return np.full(3, 1.0 / 255.0, np.float32)
    mean = whitest.mean(axis=0)
    out: npt.NDArray[np.float32] = (mean.mean() / np.maximum(mean, 1.0) / 255.0).astype(
        np.float32)
    return out


def _card_regions(half: FloatImage, long_side: int) -> tuple[npt.NDArray[np.int32], Mask]:
    """``fill_regions`` of a balanced half-size photo's ``card_mask`` (``long_side``: the
    photo's, full size)."""
    return fill_regions(card_mask(half), min_area=(0.02 * long_side) ** 2,
                        bridge=round(max(half.shape[:2]) * BRIDGE))


def analyse(img: Image) -> Scene:
    """Card regions and normalised colours of an upright BGR photo."""
    h, w = img.shape[:2]
    long_side = max(h, w)
    gains = _gains(img)
    # Card regions at half size (plenty for their outlines).
    hw, hh = max(1, w // 2), max(1, h // 2)
    small = cv2.resize(img, (hw, hh), interpolation=cv2.INTER_AREA)
    half = small.astype(np.float32) * gains
    labels_half, white_half = _card_regions(half, long_side)
    if not labels_half.any():
        gains = _gains(img, 100.0 - LAST_WHITEST)
        half = small.astype(np.float32) * gains
        labels_half, white_half = _card_regions(half, long_side)
    # Card white everywhere, by normalised convolution over white card pixels, at 1/4 scale.
    weight = (white_half & (labels_half > 0)).astype(np.float32)
    sw, sh = max(1, w // 4), max(1, h // 4)
    ws = cv2.resize(weight, (sw, sh), interpolation=cv2.INTER_AREA)
    fs = cv2.resize(half, (sw, sh), interpolation=cv2.INTER_AREA) * ws[..., None]
    sigma = max(2.0, long_side / 4 / 60)
    den = cv2.GaussianBlur(ws, (0, 0), sigma)
    num = cv2.GaussianBlur(fs, (0, 0), sigma)
    fallback = np.array([0.9, 0.9, 0.9], np.float32)
    if ws.sum() > 0:
        fallback = (num.reshape(-1, 3).sum(axis=0) / max(float(den.sum()), 1e-6)).astype(
            np.float32)
    est = np.where(den[..., None] > 0.02, num / np.maximum(den, 1e-6)[..., None], fallback)
    # Divide by the white (with the gains folded in) in one pass over the full image.
    small_scale = (gains / np.maximum(est, 0.03)).astype(np.float32)
    scale = cv2.resize(small_scale, (w, h), interpolation=cv2.INTER_LINEAR)
    norm = cv2.multiply(img, scale, dtype=cv2.CV_32F)
    # 1 - the darkest channel, at least 0 (norm is never negative), made in place.
    ink: FloatImage = channel_min(norm)
    np.subtract(np.float32(1.0), ink, out=ink)
    np.maximum(ink, np.float32(0.0), out=ink)
    widths: dict[int, float] = {}
    count = int(labels_half.max())
    if count:
        dist = cv2.distanceTransform((labels_half > 0).astype(np.uint8), cv2.DIST_L2, 3)
        peaks = np.zeros(count + 1, np.float32)
        on = np.flatnonzero(labels_half)  # the table's pixels add nothing, and are most
        np.maximum.at(peaks, labels_half.ravel()[on], dist.ravel()[on])
        widths = {label: 4.0 * float(peaks[label]) for label in range(1, count + 1)}
    outlines = region_outlines(labels_half)
    hulls = hull_regions(labels_half, outlines)
    reach = np.maximum(NOTCH * max(hh, hw), NOTCH_CARD / 2 * np.array(
        [0.0, *(widths[label] for label in range(1, count + 1))]))
    return Scene(norm, ink, labels_half, widths, small_scale, hulls,
                 _notches_filled(labels_half, hulls, reach), outlines)


def _notches_filled(labels: npt.NDArray[np.int32], hulls: npt.NDArray[np.int32],
                    reach: npt.NDArray[np.float64]) -> npt.NDArray[np.int32]:
    """The regions with the parts of their hulls within ``reach[label]`` pixels of a region
    added.

    >>> labels = np.zeros((9, 9), np.int32); labels[1:8, 1:8] = 1; labels[3:6, 1:4] = 0
    >>> [int(_notches_filled(labels, hull_regions(labels), np.array([0, r]))[4, 1])
    ...  for r in (1, 2)]
    [0, 1]
    """
    if not labels.any():
        return labels
    table = (labels == 0).astype(np.uint8)
    far = cv2.distanceTransform(table, cv2.DIST_L2, cv2.DIST_MASK_PRECISE)
    out: npt.NDArray[np.int32] = np.where(
        (table > 0) & (far <= reach[hulls]), hulls, labels)
    return out


def card_ink(scene: Scene, erode: int) -> FloatImage:
    """Inkness inside card regions (away from their edges), 0 elsewhere: what index patches
    are sampled from, so the table around a card reads as blank like a card's margin."""
    h, w = scene.ink.shape
    regions = scene.filled if scene.printed is None else scene.printed
    inside: Image = (regions > 0).astype(np.uint8)
    half = max(1, erode // 2)
    inside = cv2.erode(inside, cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (2 * half + 1, 2 * half + 1)))
    inside = cv2.resize(inside, (w, h), interpolation=cv2.INTER_NEAREST)
    out: FloatImage = cv2.multiply(scene.ink, inside, dtype=cv2.CV_32F)
    return out
