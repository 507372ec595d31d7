"""A learned card's picture laid over a photo (``pictures._picture_fits``): on drawn arrays."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np

from scorekeeper.vision.features import CANON_CORNERS, CANON_H, CANON_W
from scorekeeper.vision.pictures import _picture_fits, _Pictures


def test_a_line_drawing_fits_its_photo_as_well_turned_round_as_upright() -> None:
    # A jester drawn in thin lines (Kennard's joker), learned by its picture: laid on its card
    # corner for corner, the picture lay a pixel off where the card lay turned round, and
    # fitted its own photo 0.89 against 0.99 upright, under the 0.9 a card read by its picture
    # alone needs.
    picture = np.zeros((CANON_H, CANON_W), np.uint8)
    cv2.circle(picture, (100, 150), 55, 255, 1)
    cv2.line(picture, (40, 60), (160, 230), 255, 1)
    cv2.line(picture, (30, 250), (170, 40), 255, 1)
    cv2.circle(picture, (75, 135), 6, 255, -1)
    # The profile holds the card as learned upright and as learned turned round.
    pictures = _Pictures(SimpleNamespace(ink=np.stack([picture, picture[::-1, ::-1]])))  # type: ignore[arg-type]
    # The photo: the card at three times its size on a table 40 pixels wide each way. The
    # card's corner lies a quarter pixel before its first pixel's centre
    # (``pictures.CANON_PIXEL``); three times as large, a quarter pixel after it.
    card = cv2.resize(picture.astype(np.float32) / 255.0, (3 * CANON_W, 3 * CANON_H),
                      interpolation=cv2.INTER_LINEAR)
    ink = np.zeros((3 * CANON_H + 80, 3 * CANON_W + 80), np.float32)
    ink[40:-40, 40:-40] = card
    quad = 3.0 * CANON_CORNERS + 40.25
    inner = (quad - quad.mean(axis=0)) * 0.9 + quad.mean(axis=0)
    fits = _picture_fits(ink, pictures, inner, 3.0 * CANON_W,
                         [(0, CANON_CORNERS, quad), (1, CANON_CORNERS, np.roll(quad, 2, axis=0))])
    assert fits is not None
    upright, turned = fits
    assert upright > 0.97 and turned > 0.97 and abs(upright - turned) < 0.01, fits
