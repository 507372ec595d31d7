"""Aligning a sampled corner part to a learned glyph: affine ECC, inverse compositional.

The close comparison warps each sampled rank and pip onto the glyphs of its best few
candidates, and a photo asks for a few hundred such alignments. The enhanced correlation
coefficient (Evangelidis and Psarakis, 2008) is kept as the criterion, being blind to the
contrast and brightness of the ink, but it is solved inverse-compositionally: the learned
glyph's side of every step (its gradients, the Hessian and their products) is worked out
once per glyph and kept with the profile, so that a step costs one warp of the sample and one
small matrix product. A step that lowers the correlation is taken back and halved (a large
first correction overshoots).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final

import cv2
import numpy as np
import numpy.typing as npt

#: A step is stopped when the correlation changes by less than this.
EPSILON: Final = 1e-4
#: How many times a step that made the correlation worse is halved before it is kept.
HALVINGS: Final = 3
#: Pixels at the edge of the glyph's window left out (their gradients are made up).
BORDER: Final = 2

_CENTRAL: Final = np.array([[-0.5, 0.0, 0.5]], np.float32)
_WARP_FLAGS: Final = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP


@dataclass(frozen=True, slots=True, eq=False)
class Glyph:
    """What the alignment needs of one learned part, on the pixels near its glyph: the rows
    giving a step's Hessian-weighted projection (6), the glyph's correlation and the
    correction term's (8 rows in all), and the constants of the step."""

    size: tuple[int, int]  # (width, height) of the part
    pixels: npt.NDArray[np.intp]  # flat indices of the pixels compared
    rows: npt.NDArray[np.float32]  # (8, pixels)
    projection: npt.NDArray[np.float64]  # inverse Hessian times the glyph's projection (6)
    numerator: float  # the glyph's squared norm less its projection's (the step's lambda)
    norm: float  # the zero-mean glyph's norm

    @classmethod
    def of(cls, shape: npt.NDArray[Any], near: npt.NDArray[np.uint8]) -> Glyph | None:
        """The glyph of a learned part (``shape``, float32) compared where ``near`` is set;
        None if it has too little texture to align to.

        >>> part = np.zeros((20, 20), np.float32); part[6:14, 8:12] = 1.0
        >>> Glyph.of(part, np.ones((20, 20), np.uint8)).rows.shape
        (8, 256)
        >>> Glyph.of(np.zeros((20, 20), np.float32), np.ones((20, 20), np.uint8)) is None
        True
        """
        h, w = shape.shape
        mask = near > 0
        mask[:BORDER], mask[-BORDER:], mask[:, :BORDER], mask[:, -BORDER:] = (
            False, False, False, False)
        pixels = np.flatnonzero(mask)
        if len(pixels) < 7:
            return None
        ys, xs = np.divmod(pixels, w)
        template = shape.astype(np.float32)
        gx = cv2.filter2D(template, -1, _CENTRAL).ravel()[pixels].astype(np.float64)
        gy = cv2.filter2D(template, -1, _CENTRAL.T).ravel()[pixels].astype(np.float64)
        # How the glyph changes with each affine parameter, in OpenCV's order of the warp's
        # entries (a00, a10, a01, a11, b0, b1); zero-mean, as the coefficient sees it.
        jacobian = np.stack([xs * gx, xs * gy, ys * gx, ys * gy, gx, gy], axis=1)
        jacobian -= jacobian.mean(axis=0)
        values = template.ravel()[pixels].astype(np.float64)
        values -= values.mean()
        hessian = jacobian.T @ jacobian
        # The condition number as np.linalg.cond gives it (infinite if singular), without
        # its checks.
        singular = np.linalg.svd(hessian, compute_uv=False)
        if singular[-1] == 0.0 or singular[0] / singular[-1] > 1e12:
            return None
        inverse = np.linalg.inv(hessian)
        along = jacobian.T @ values
        projection = inverse @ along
        rows = np.vstack([inverse @ jacobian.T, values[None], (jacobian @ projection)[None]])
        return cls((w, h), pixels, rows.astype(np.float32), projection,
                   float(values @ values - along @ projection), float(np.sqrt(values @ values)))


def align(glyph: Glyph, sample: npt.NDArray[Any], start: npt.NDArray[Any], steps: int) -> (
        npt.NDArray[np.float64] | None):
    """The affine warp (2 x 3, the glyph's pixels to the sample's, as ``cv2.warpAffine``
    takes it with ``WARP_INVERSE_MAP``) that best lays ``sample`` over the glyph, refined from
    ``start`` in at most ``steps`` steps, until the coefficient changes by less than
    ``EPSILON``; None if the two do not correlate (a step would lower the coefficient
    whatever its size).

    >>> part = np.zeros((24, 24), np.float32); part[6:18, 9:13] = 1.0; part[6:9, 9:17] = 1.0
    >>> part = cv2.GaussianBlur(part, (0, 0), 1.2)
    >>> moved = np.array([[1.0, 0.0, 1.5], [0.0, 1.0, -1.0]])
    >>> sample = cv2.warpAffine(part, moved, (24, 24), borderMode=cv2.BORDER_REPLICATE)
    >>> glyph = Glyph.of(part, np.ones((24, 24), np.uint8))
    >>> warp = align(glyph, sample, np.eye(2, 3), 20)  # the glyph's middle, moved
    >>> bool(np.allclose(warp @ [11.0, 11.0, 1.0], [12.5, 10.0], atol=0.1))
    True
    """
    m = tuple(float(v) for v in start.ravel())
    last_rho, rho = -EPSILON, -1.0
    back: tuple[tuple[float, ...], float, list[float], float] | None = None
    count = len(glyph.pixels)
    done = 0
    while done < steps and abs(rho - last_rho) >= EPSILON:
        done += 1
        warped = cv2.warpAffine(sample, np.array([m[:3], m[3:]]), glyph.size,
                                flags=_WARP_FLAGS, borderMode=cv2.BORDER_REPLICATE)
        values = warped.ravel()[glyph.pixels]
        total = float(values.sum())
        out = glyph.rows @ values
        correlation = float(out[6])
        spread = max(0.0, float(values @ values) - total * total / count)
        now = correlation / max(1e-12, math.sqrt(spread) * glyph.norm)
        if not math.isfinite(now):
            return None
        if back is not None and now < back[1] and back[3] > 0.5 ** HALVINGS:
            # The last step made things worse: take it back and try half of it.
            previous, previous_rho, step, share = back
            shorter = _compose(previous, step, share / 2)
            if shorter is None:
                return None
            m, back = shorter, (previous, previous_rho, step, share / 2)
            continue
        last_rho, rho = rho, now
        denominator = correlation - float(out[7])
        if denominator <= 0.0:
            return None
        step = (glyph.numerator / denominator * out[:6] - glyph.projection).tolist()
        moved = _compose(m, step, 1.0)
        if moved is None:
            return None
        m, back = moved, (m, rho, step, 1.0)
    return np.array([m[:3], m[3:]])


def _compose(m: tuple[float, ...], step: list[float], share: float) -> tuple[float, ...] | None:
    """Warp ``m`` followed by the inverse of the step's warp (scaled by ``share``); None if the
    step's warp cannot be inverted."""
    p0, p1, p2, p3, p4, p5 = (share * v for v in step)
    a, b, c, d = 1.0 + p0, p2, p1, 1.0 + p3
    det = a * d - b * c
    if abs(det) < 1e-9:
        return None
    ia, ib, ic, id_ = d / det, -b / det, -c / det, a / det
    tx, ty = -(ia * p4 + ib * p5), -(ic * p4 + id_ * p5)
    m0, m1, m2, m3, m4, m5 = m
    return (m0 * ia + m1 * ic, m0 * ib + m1 * id_, m0 * tx + m1 * ty + m2,
            m3 * ia + m4 * ic, m3 * ib + m4 * id_, m3 * tx + m4 * ty + m5)
