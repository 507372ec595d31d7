"""The close comparison's alignment (inverse-compositional ECC) on drawn glyphs: it finds a
moved glyph where OpenCV's ECC finds it, recovers a large correction that only its halved
steps reach, and refuses what does not correlate."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from scorekeeper.vision import align as alignment
from scorekeeper.vision.align import Glyph, align


def _glyph(text: str = "7") -> tuple[npt.NDArray[Any], npt.NDArray[np.uint8]]:
    """A rank drawn as a fine part is sampled (40 x 28, blurred), and the pixels near it."""
    drawn = np.zeros((28, 40), np.uint8)
    cv2.putText(drawn, text, (12, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 255, 2)
    part = cv2.GaussianBlur(drawn.astype(np.float32) / 255.0, (0, 0), 1.0)
    near = cv2.dilate((part > 0.35 * part.max()).astype(np.uint8), np.ones((7, 7), np.uint8))
    return part, near


def _moved(part: npt.NDArray[Any], warp: npt.NDArray[np.float64]) -> npt.NDArray[Any]:
    """The part as a photo would show it with ``warp`` (glyph pixels to the sample's)."""
    out: npt.NDArray[Any] = cv2.warpAffine(part, warp, part.shape[::-1],
                                           flags=cv2.INTER_LINEAR,
                                           borderMode=cv2.BORDER_REPLICATE)
    return out


def _error(found: npt.NDArray[np.float64], truth: npt.NDArray[np.float64],
           part: npt.NDArray[Any]) -> float:
    """Farthest that the glyph's pixels land from where ``truth`` puts them (pixels)."""
    points = np.c_[np.argwhere(part > 0.5)[:, ::-1], np.ones(int((part > 0.5).sum()))]
    return float(np.abs(points @ found.T - points @ truth.T).max())


@pytest.mark.parametrize("truth", [
    [[1.0, 0.0, 1.5], [0.0, 1.0, -1.0]],
    [[1.05, 0.1, -2.0], [0.25, 1.0, -5.0]],
    [[0.95, -0.05, 1.0], [0.0, 1.1, -2.0]],
])
def test_finds_a_moved_glyph_as_opencv_ecc_does(truth: list[list[float]]) -> None:
    part, near = _glyph()
    warp = np.array(truth)
    sample = _moved(part, warp)
    glyph = Glyph.of(part, near)
    assert glyph is not None
    found = align(glyph, sample, np.eye(2, 3), 10)
    assert found is not None
    _, theirs = cv2.findTransformECC(part, sample, np.eye(2, 3, dtype=np.float32),
                                     cv2.MOTION_AFFINE, (3, 10, 1e-4), near * 255, 1)
    assert _error(found, warp, part) < 0.2
    assert _error(found, warp, part) <= _error(theirs.astype(np.float64), warp, part) + 0.05


def test_a_large_correction_needs_the_halved_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shifted six pixels and sheared, the glyph is beyond OpenCV's ECC and beyond full steps
    (the first overshoots); taking back and halving a step that lowers the coefficient finds
    it."""
    part, near = _glyph()
    warp = np.array([[1.0, 0.25, 0.0], [0.0, 1.0, -6.0]])
    sample = _moved(part, warp)
    glyph = Glyph.of(part, near)
    assert glyph is not None
    found = align(glyph, sample, np.eye(2, 3), 10)
    assert found is not None and _error(found, warp, part) < 0.2
    monkeypatch.setattr(alignment, "HALVINGS", 0)
    assert align(glyph, sample, np.eye(2, 3), 10) is None


def test_refuses_what_does_not_correlate() -> None:
    part, near = _glyph()
    glyph = Glyph.of(part, near)
    assert glyph is not None
    assert align(glyph, 1.0 - part, np.eye(2, 3), 10) is None  # a negative: anti-correlated
    noise = np.random.default_rng(0).random(part.shape).astype(np.float32)
    assert align(glyph, noise, np.eye(2, 3), 10) is None


def test_a_plain_part_has_no_glyph_to_align_to() -> None:
    flat = np.full((28, 40), 0.5, np.float32)
    assert Glyph.of(flat, np.ones((28, 40), np.uint8)) is None
    part, _ = _glyph()
    assert Glyph.of(part, np.zeros((28, 40), np.uint8)) is None  # nothing near it


def test_starts_from_another_alignment() -> None:
    """From a warp close to the answer (another glyph's alignment of the same sample), a few
    steps finish it."""
    part, near = _glyph("3")
    warp = np.array([[1.02, 0.05, -1.0], [0.1, 0.98, -3.0]])
    glyph = Glyph.of(part, near)
    assert glyph is not None
    start = warp + np.array([[0.0, 0.0, 0.6], [0.0, 0.0, -0.5]])
    found = align(glyph, _moved(part, warp), start, 3)
    assert found is not None
    assert _error(found, warp, part) < 0.2 < _error(start, warp, part)
