"""A learned card's picture laid over the photo: how well the photo shows it inside an
outline (which of two overlapping cards lies above, where a lone-mark card lies).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.vision.features import CANON_H, CANON_W, FloatImage
from scorekeeper.vision.profile import DeckProfile

#: Card width (pixels) at which that comparison is made.
OVERLAP_SIDE: Final = 64
#: Blur before that comparison, in card widths (it forgives outlines a few percent off).
OVERLAP_BLUR: Final = 0.02
#: The fewest pixels compared.
LEAST_PIXELS: Final = 16
#: A learned picture's size as compared (width, height: ``OVERLAP_SIDE`` wide).
_PICTURE_SIZE: Final = (OVERLAP_SIDE, round(OVERLAP_SIDE / CANON_W * CANON_H))
#: Where a canonical card's corner lies on its pixels: a quarter pixel before its first
#: pixel's centre (``calibration.straighten`` draws the card twice as large, then halves it).
CANON_PIXEL: Final = -0.25
#: Two pictures are told apart over the pixels where they differ by at least this share of
#: their largest difference (``_told_apart``) ...
DIFFER_SHARE: Final = 0.5
#: ... unless that difference is under this much inkness: the two are drawn alike (a deck's
#: jokers in several inks, a suit of one shape in two inks).
DIFFER_LEAST: Final = 0.05


def _picture_fits(ink: FloatImage, pictures: _Pictures, poly: npt.NDArray[np.float64],
                  width: float, placed: list[tuple[int, npt.NDArray[np.float64],
                                                   npt.NDArray[np.float64]]],
                  hidden: Sequence[npt.NDArray[np.float64]] = (),
                  blocked: npt.NDArray[np.bool_] | None = None) -> list[float] | None:
    """How well each of ``placed`` (a card, its corners on its learned picture, and in the
    photo) explains the photo's inkness within the polygon ``poly``, less the polygons
    ``hidden`` and the pixels ``blocked`` (at half size): the correlation of the
    ``_picture_samples``; None where too little is left."""
    samples = _picture_samples(ink, pictures, poly, width, placed, hidden, blocked)
    if samples is None:
        return None
    photo, drawn = samples
    return [_correlation(photo, d) for d in drawn]


def _picture_samples(ink: FloatImage, pictures: _Pictures, poly: npt.NDArray[np.float64],
                     width: float, placed: list[tuple[int, npt.NDArray[np.float64],
                                                      npt.NDArray[np.float64]]],
                     hidden: Sequence[npt.NDArray[np.float64]] = (),
                     blocked: npt.NDArray[np.bool_] | None = None) -> (
        tuple[FloatImage, list[FloatImage]] | None):
    """The photo's inkness within the convex polygon ``poly`` less the convex polygons
    ``hidden``, and each of ``placed``'s learned picture drawn there (a card, its corners on
    its learned picture, and in the photo), as samples of the pixels within, compared with the
    card ``width`` pixels wide scaled to ``OVERLAP_SIDE`` and blurred by ``OVERLAP_BLUR``; None
    where too little is left."""
    h, w = ink.shape
    x0, y0 = (max(0, int(v)) for v in np.floor(poly.min(axis=0)))
    x1, y1 = min(w, int(np.ceil(poly[:, 0].max()))), min(h, int(np.ceil(poly[:, 1].max())))
    f = min(1.0, OVERLAP_SIDE / max(width, 1.0))
    size = (round(f * (x1 - x0)), round(f * (y1 - y0)))
    if min(size) < 4:
        return None
    mask = np.zeros(size[::-1], np.uint8)
    cv2.fillConvexPoly(mask, np.round(f * (poly - (x0, y0))).astype(np.int32), 1)
    for other in hidden:
        cv2.fillConvexPoly(mask, np.round(f * (other - (x0, y0))).astype(np.int32), 0)
    if blocked is not None:
        cut = blocked[y0 // 2:(y1 + 1) // 2, x0 // 2:(x1 + 1) // 2].astype(np.uint8)
        mask[cv2.resize(cut, size, interpolation=cv2.INTER_NEAREST) > 0] = 0
    inside = mask > 0
    if inside.sum() < LEAST_PIXELS:
        return None
    sigma = max(0.5, OVERLAP_BLUR * width * f)
    to_crop = _resized(size[0] / (x1 - x0), size[1] / (y1 - y0), x0, y0)
    photo = cv2.resize(ink[y0:y1, x0:x1], size, interpolation=cv2.INTER_AREA)
    photo = cv2.GaussianBlur(photo, (0, 0), sigma)[inside]
    drawn = []
    for card, canon, quad in placed:
        picture = pictures.get(card)
        on_picture = cv2.perspectiveTransform((canon + CANON_PIXEL)[None].astype(np.float32),
                                              _TO_PICTURE)[0]
        to_photo = to_crop @ cv2.getPerspectiveTransform(on_picture, quad.astype(np.float32))
        warped = cv2.warpPerspective(picture, to_photo, size, flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE)
        drawn.append(cv2.GaussianBlur(warped, (0, 0), sigma)[inside])
    return photo, drawn


def _resized(fx: float, fy: float, x0: float, y0: float) -> npt.NDArray[np.float64]:
    """The map (3 x 3) from an image's pixels to those of its part from ``(x0, y0)`` resized
    by ``fx`` and ``fy`` (``cv2.resize``: pixel centres, not corners, keep their place). Taken
    corner for corner, a picture laid on a card turned round lay a pixel off it, where the
    comparison's blur is a pixel or two: a line drawing fitted its photo 0.89 turned round
    and 0.99 upright.

    >>> (_resized(0.5, 0.5, 10.0, 0.0) @ np.array([10.5, 0.5, 1.0])).tolist()
    [0.0, 0.0, 1.0]
    """
    return np.array([[fx, 0.0, fx * (0.5 - x0) - 0.5], [0.0, fy, fy * (0.5 - y0) - 0.5],
                     [0.0, 0.0, 1.0]])


#: The map from the canonical card's pixels to a learned picture's as compared.
_TO_PICTURE: Final = _resized(_PICTURE_SIZE[0] / CANON_W, _PICTURE_SIZE[1] / CANON_H, 0.0, 0.0)


class _Pictures:
    """The learned cards' pictures (inkness) at ``OVERLAP_SIDE`` pixels wide, as needed."""

    def __init__(self, profile: DeckProfile) -> None:
        self.profile = profile
        self.small: dict[int, FloatImage] = {}

    def get(self, card: int) -> FloatImage:
        """A card's picture."""
        if card not in self.small:
            self.small[card] = cv2.resize(self.profile.ink[card].astype(np.float32) / 255.0,
                                          _PICTURE_SIZE, interpolation=cv2.INTER_AREA)
        return self.small[card]


def _correlation(x: FloatImage, y: FloatImage) -> float:
    """Pearson correlation of two samples; 0 where either is blank."""
    dx, dy = x - x.mean(), y - y.mean()
    nx, ny = float(np.linalg.norm(dx)), float(np.linalg.norm(dy))
    if nx < 1e-3 * math.sqrt(x.size) or ny < 1e-3 * math.sqrt(y.size):
        return 0.0
    return float(dx @ dy) / (nx * ny)


def _told_apart(photo: FloatImage, a: FloatImage, b: FloatImage) -> float:
    """How surely a photo's sample shows picture ``a`` rather than ``b`` (samples of the same
    pixels, as ``_picture_samples`` gives them): the correlation of the photo with ``a - b``
    over the pixels where the two differ most (``DIFFER_SHARE``), -1..1; -1 where they are
    drawn alike (``DIFFER_LEAST``). A queen and a jack drawn in one frame fit a photo of
    either alike as a whole; where they differ, the photo follows one.

    >>> a = np.tile(np.array([0.9, 0.1, 0.1, 0.5], np.float32), 8)
    >>> b = np.tile(np.array([0.1, 0.9, 0.1, 0.5], np.float32), 8)
    >>> round(_told_apart(a + 0.05, a, b), 3), round(_told_apart(b, a, b), 3)
    (1.0, -1.0)
    >>> _told_apart(a, a, a + 0.01)
    -1.0
    """
    difference = a - b
    size = np.abs(difference)
    largest = float(size.max())
    if largest < DIFFER_LEAST:
        return -1.0
    where = size >= DIFFER_SHARE * largest
    if where.sum() < LEAST_PIXELS:
        return -1.0
    return _correlation(photo[where], difference[where])
