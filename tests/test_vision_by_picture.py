"""Cards that show no index that was read, read from their picture alone
(``by_picture._by_picture``): on drawn arrays."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scorekeeper.vision import by_picture
from scorekeeper.vision.assemble import _Card, _confidence
from scorekeeper.vision.recognition import CHECK_BELOW
from scorekeeper.vision.scene import Scene
from tests.test_vision_reread import EIGHT, KING, PROFILE, SPADE, TEN
from tests.test_vision_top import CANON, _drawn

SIZE = (500, 700)  # rows, columns of the working image
LEFT = np.array([[60.0, 100.0], [260.0, 100.0], [260.0, 380.0], [60.0, 380.0]])
RIGHT = LEFT + (360.0, 0.0)


def _scene(*cards: tuple[int | None, np.ndarray]) -> Scene:
    """A photo of cards lying apart (``None``: a blank card), each its own card region."""
    ink = np.zeros(SIZE, np.float32)
    filled = np.zeros((SIZE[0] // 2, SIZE[1] // 2), np.int32)
    for label, (card, quad) in enumerate(cards, start=1):
        if card is not None:
            _drawn(PROFILE.ink, card, quad, ink)
        cv2.fillConvexPoly(filled, np.round(quad / 2.0).astype(np.int32), label)
    norm = np.repeat((1.0 - ink)[..., None], 3, axis=2)
    return Scene(norm, ink, filled, {}, np.ones((SIZE[0] // 4, SIZE[1] // 4, 3), np.float32))


def _by_picture(scene: Scene, cards: list[_Card], profile: object) -> list[_Card]:
    """``by_picture._by_picture`` on what none of ``cards`` covers."""
    return by_picture._by_picture(scene, cards, profile,  # type: ignore[arg-type]
                                  by_picture._left_over(scene, cards, profile))  # type: ignore[arg-type]


def _read(card: int, quad: np.ndarray) -> _Card:
    return _Card(card, 0.97, 0.5, -1, quad.copy(), canon=CANON, worst=0.97)


def test_a_card_region_no_card_read_covers_is_read_from_its_picture_and_asked_about() -> None:
    found = _by_picture(_scene((KING, LEFT)), [], PROFILE)  # type: ignore[arg-type]
    assert [c.card for c in found] == [KING]
    assert float(np.abs(found[0].quad - LEFT).max()) < 8.0 or float(
        np.abs(found[0].quad - np.roll(LEFT, 2, axis=0)).max()) < 8.0
    assert _confidence(found[0].score, found[0].second, found[0].worst) < CHECK_BELOW


def test_beside_a_card_read_from_its_index_the_other_card_is_read_too() -> None:
    found = _by_picture(_scene((TEN, LEFT), (KING, RIGHT)), [_read(TEN, LEFT)],
                        PROFILE)  # type: ignore[arg-type]
    assert [c.card for c in found] == [KING]


def test_a_part_covered_by_a_card_read_is_not_read_again() -> None:
    assert _by_picture(_scene((KING, LEFT)), [_read(KING, LEFT)],
                       PROFILE) == []  # type: ignore[arg-type]


@pytest.mark.parametrize("card", [None, EIGHT])
def test_no_card_is_named_where_no_picture_fits_or_two_fit_alike(card: int | None) -> None:
    """A blank card fits no picture; the eight of hearts is drawn as the eight of spades is."""
    assert _by_picture(_scene((card, LEFT)), [], PROFILE) == []  # type: ignore[arg-type]
    assert PROFILE.ink[EIGHT].tolist() == PROFILE.ink[SPADE].tolist()


def test_the_picture_of_a_card_read_elsewhere_names_nothing() -> None:
    """An outline misplaced off its card leaves that card's picture uncovered."""
    misplaced = _read(KING, LEFT + (0.0, 600.0))
    assert _by_picture(_scene((KING, LEFT)), [misplaced], PROFILE) == []  # type: ignore[arg-type]


def test_a_part_far_from_the_size_of_the_cards_read_is_no_card() -> None:
    small = (LEFT - LEFT[0]) * 0.5 + RIGHT[0]
    found = _by_picture(_scene((TEN, LEFT), (KING, small)), [_read(TEN, LEFT)],
                        PROFILE)  # type: ignore[arg-type]
    assert found == []
    assert _by_picture(_scene((KING, small)), [], PROFILE)  # type: ignore[arg-type]


def test_a_picture_that_fits_only_roughly_names_nothing() -> None:
    """The king's ring, half of it rubbed out: it still fits the king best, but not enough."""
    scene = _scene((KING, LEFT))
    scene.ink[:240] = 0.0
    assert _by_picture(scene, [], PROFILE) == []  # type: ignore[arg-type]
