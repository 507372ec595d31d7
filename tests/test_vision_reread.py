"""A card read unsurely from its index, read again from its picture (``rereading._reread``):
on drawn arrays."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from scorekeeper.vision.assemble import _Card, _confidence
from scorekeeper.vision.features import CANON_H, CANON_W
from scorekeeper.vision.rereading import REREAD_BELOW, _reread
from tests.test_vision_top import CANON, _drawn
from tests.test_vision_top import _pictures as drawn_pictures

CODES = ("8he", "10he", "Kcl", "8sp")
EIGHT, TEN, KING, SPADE = range(4)


def _pictures() -> np.ndarray:
    """Learned pictures (inkness 0..255): stripes across (the 8 of hearts and, drawn alike, the
    8 of spades), a grid of discs (the 10 of hearts), a ring (the king of clubs)."""
    stripes, discs = drawn_pictures()
    ring = np.zeros((CANON_H, CANON_W), np.uint8)
    cv2.ellipse(ring, (CANON_W // 2, CANON_H // 2), (CANON_W // 3, CANON_H // 3), 0, 0, 360,
                255, 25)
    return np.stack([stripes, discs, ring, stripes])


PROFILE = SimpleNamespace(ink=_pictures(), codes=CODES,
                          picture_only=np.zeros(len(CODES), np.bool_))
QUAD = np.array([[100.0, 100.0], [300.0, 100.0], [300.0, 380.0], [100.0, 380.0]])
ABOVE = np.array([[40.0, 60.0], [240.0, 60.0], [240.0, 340.0], [40.0, 340.0]])


def _read(card: int, quad: np.ndarray, worst: float, second: int = -1) -> _Card:
    return _Card(card, worst, worst - 0.1, second, quad.copy(), canon=CANON, worst=worst)


def _photo(*cards: tuple[int, np.ndarray]) -> np.ndarray:
    ink = np.zeros((500, 460), np.float32)
    for card, quad in cards:
        _drawn(PROFILE.ink, card, quad, ink)
    return ink


def test_an_unsure_reading_that_the_picture_belies_becomes_the_card_of_its_suit_shown() -> None:
    card = _read(EIGHT, QUAD, worst=0.8)
    assert _confidence(card.score, card.second, card.worst) < REREAD_BELOW
    assert _reread([card], {}, _photo((TEN, QUAD)), PROFILE)  # type: ignore[arg-type]
    assert (card.card, card.second_card) == (TEN, EIGHT)


@pytest.mark.parametrize("shown", [EIGHT, KING])
def test_the_picture_changes_no_reading_it_does_not_belie_or_outside_the_suit(shown: int) -> None:
    """A king of clubs shown is neither of the suit read (hearts) nor the index's runner-up."""
    card = _read(EIGHT, QUAD, worst=0.8, second=TEN)
    assert not _reread([card], {}, _photo((shown, QUAD)), PROFILE)  # type: ignore[arg-type]
    assert card.card == EIGHT


def test_the_index_runner_up_may_be_of_another_suit() -> None:
    card = _read(EIGHT, QUAD, worst=0.8, second=KING)
    assert _reread([card], {}, _photo((KING, QUAD)), PROFILE)  # type: ignore[arg-type]
    assert card.card == KING


def test_a_sure_reading_is_not_read_again() -> None:
    card = _read(EIGHT, QUAD, worst=0.95)
    assert _confidence(card.score, card.second, card.worst) >= REREAD_BELOW
    assert not _reread([card], {}, _photo((TEN, QUAD)), PROFILE)  # type: ignore[arg-type]
    assert card.card == EIGHT


def test_a_picture_of_a_card_read_elsewhere_is_a_misplaced_outline_not_a_misreading() -> None:
    elsewhere = _read(TEN, QUAD + 200.0, worst=0.95)
    card = _read(EIGHT, QUAD, worst=0.8)
    ink = _photo((TEN, QUAD), (TEN, QUAD + 200.0))
    assert not _reread([card, elsewhere], {}, ink, PROFILE)  # type: ignore[arg-type]
    assert card.card == EIGHT


@pytest.mark.parametrize("hidden", [True, False])
def test_only_the_part_no_card_lies_on_is_compared(hidden: bool) -> None:
    """A ten of hearts half under a card drawn like an eight: where the photo shows the card
    above, it says nothing of the ten."""
    above = _read(SPADE, ABOVE, worst=0.95)
    card = _read(EIGHT, QUAD, worst=0.8)
    ink = _photo((TEN, QUAD), (SPADE, ABOVE))
    leads = {(0, 1): 0.5} if hidden else {}
    assert _reread([above, card], leads, ink, PROFILE) is hidden  # type: ignore[arg-type]
    assert card.card == (TEN if hidden else EIGHT)
