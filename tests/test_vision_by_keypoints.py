"""Cards found by their picture's keypoints where no index was read
(``by_keypoints._by_keypoints``): on drawn arrays."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from scorekeeper.vision import by_keypoints
from scorekeeper.vision.assemble import _Card, _confidence
from scorekeeper.vision.by_picture import _left_over
from scorekeeper.vision.features import CANON_H, CANON_W
from scorekeeper.vision.recognition import CHECK_BELOW
from scorekeeper.vision.scene import Scene
from tests.test_vision_top import CANON, _drawn

SIZE = (600, 800)  # rows, columns of the working image
UNDER = np.array([[100.0, 100.0], [300.0, 100.0], [300.0, 380.0], [100.0, 380.0]])
# A card dropped on it, turned a little, half of it off the card under it.
ON_TOP = np.array([[230.0, 170.0], [425.0, 215.0], [362.0, 488.0], [167.0, 443.0]])
APART = UNDER + (420.0, 0.0)


def _speckled(seed: int, blots: int = 45) -> np.ndarray:
    """A picture (inkness 0..255) of many blots: a joker's or a court's drawing stands in."""
    rng = np.random.default_rng(seed)
    picture = np.zeros((CANON_H, CANON_W), np.uint8)
    for _ in range(blots):
        centre = (int(rng.integers(15, CANON_W - 15)), int(rng.integers(15, CANON_H - 15)))
        axes = (int(rng.integers(3, 16)), int(rng.integers(3, 16)))
        cv2.ellipse(picture, centre, axes, float(rng.integers(0, 180)), 0, 360,
                    int(rng.integers(110, 256)), -1)
    return picture


def _pip() -> np.ndarray:
    """A plain card: one large disc in its middle."""
    picture = np.zeros((CANON_H, CANON_W), np.uint8)
    cv2.circle(picture, (CANON_W // 2, CANON_H // 2), 40, 255, -1)
    return picture


class _Profile(SimpleNamespace):
    """The parts of a profile read here (pictures, codes, and which cards are known by their
    picture alone: none unless given), kept by identity as one is."""

    __hash__ = object.__hash__

    def __init__(self, ink: np.ndarray, codes: tuple[str, ...],
                 picture_only: tuple[str, ...] = ()) -> None:
        super().__init__(ink=ink, codes=codes,
                         picture_only=np.array([c in picture_only for c in codes], np.bool_))


CODES = ("Ahe", "jk-red", "jk-black", "Kcl")
ACE, RED, BLACK, KING = range(4)
# The two jokers are drawn alike; the king is drawn otherwise.
PROFILE = _Profile(ink=np.stack([_pip(), _speckled(1), _speckled(1), _speckled(2)]),
                   codes=CODES)


def _scene(*cards: tuple[int, np.ndarray], profile: _Profile | None = None) -> Scene:
    """A photo of cards of ``profile`` (``PROFILE``) drawn in order (the last on top); cards
    that overlap are one card region."""
    ink = np.zeros(SIZE, np.float32)
    white = np.zeros((SIZE[0] // 2, SIZE[1] // 2), np.uint8)
    for card, quad in cards:
        _drawn((profile or PROFILE).ink, card, quad, ink)
        cv2.fillConvexPoly(white, np.round(quad / 2.0).astype(np.int32), 1)
    _, filled = cv2.connectedComponents(white)
    norm = np.repeat((1.0 - ink)[..., None], 3, axis=2)
    return Scene(norm, ink, filled.astype(np.int32), {},
                 np.ones((SIZE[0] // 4, SIZE[1] // 4, 3), np.float32))


def _read(card: int, quad: np.ndarray) -> _Card:
    return _Card(card, 0.97, 0.5, -1, quad.copy(), canon=CANON, worst=0.97)


def _found(scene: Scene, cards: list[_Card]) -> list[_Card]:
    return by_keypoints._by_keypoints(scene, cards, PROFILE,  # type: ignore[arg-type]
                                      _left_over(scene, cards, PROFILE))  # type: ignore[arg-type]


def _corner_error(quad: np.ndarray, truth: np.ndarray) -> float:
    return float(np.abs(quad - truth).max())


@pytest.fixture(autouse=True)
def _fresh() -> None:
    by_keypoints._LEARNED.clear()


def test_a_card_without_an_index_dropped_on_a_read_card_is_found_and_asked_about() -> None:
    found = _found(_scene((ACE, UNDER), (KING, ON_TOP)), [_read(ACE, UNDER)])
    assert [c.card for c in found] == [KING]
    assert _corner_error(found[0].quad, ON_TOP) < 6.0
    assert _confidence(found[0].score, found[0].second, found[0].worst) < CHECK_BELOW


def test_of_cards_drawn_alike_the_one_not_read_elsewhere_is_named_with_the_other_as_rival() -> (
        None):
    found = _found(_scene((RED, APART), (ACE, UNDER), (BLACK, ON_TOP)),
                   [_read(RED, APART), _read(ACE, UNDER)])
    assert [(c.card, c.second_card) for c in found] == [(BLACK, RED)]


def test_a_placement_over_a_card_read_short_is_that_card_not_another() -> None:
    # The king read (from an index, as another card) with an outline half as long as the card:
    # its foot is left unexplained, and its keypoints place it over the card read.
    short = UNDER.copy()
    short[2:, 1] -= 130.0
    scene = _scene((KING, UNDER))
    assert _left_over(scene, [_read(ACE, short)], PROFILE).labels  # type: ignore[arg-type]
    assert _found(scene, [_read(ACE, short)]) == []
    assert [c.card for c in _found(scene, [])] == [KING]


def test_a_picture_the_profile_lacks_or_a_blank_part_finds_nothing() -> None:
    stranger = _Profile(ink=np.stack([_pip(), _speckled(3)]), codes=("Ahe", "Kcl"))
    scene = _scene((KING, ON_TOP))
    assert by_keypoints._by_keypoints(scene, [], stranger,  # type: ignore[arg-type]
                                      _left_over(scene, [], stranger)) == []  # type: ignore[arg-type]
    assert _found(_scene((ACE, UNDER)), []) == []


def test_keypoints_are_looked_for_only_where_a_part_left_shows_a_picture(
        monkeypatch: pytest.MonkeyPatch) -> None:
    looked: list[int] = []
    real = by_keypoints._placements
    monkeypatch.setattr(by_keypoints, "_placements",
                        lambda *args: looked.append(1) or real(*args))  # type: ignore[func-returns-value]
    blank = _pip()
    blank[:] = 0
    profile = _Profile(ink=np.stack([blank, _speckled(2)]), codes=("Ahe", "Kcl"))
    scene = Scene(np.ones(SIZE + (3,), np.float32), np.zeros(SIZE, np.float32),
                  _scene((ACE, UNDER)).filled, {}, np.ones((SIZE[0] // 4, SIZE[1] // 4, 3),
                                                             np.float32))
    assert by_keypoints._by_keypoints(scene, [], profile,  # type: ignore[arg-type]
                                      _left_over(scene, [], profile)) == []  # type: ignore[arg-type]
    assert looked == []
    _found(_scene((ACE, UNDER), (KING, ON_TOP)), [_read(ACE, UNDER)])
    assert looked == [1]


def _across(picture_only: tuple[str, ...]) -> tuple[Scene, list[_Card], _Profile, np.ndarray]:
    """A court drawn to its rim (``Kcl``) lying on top, half on each of two cards read from
    their index: the scene, the cards read, the profile, and the inside of the court's outline
    at half size."""
    profile = _Profile(ink=np.stack([_pip(), _speckled(1), _speckled(2, blots=160)]),
                       codes=("Ahe", "jk-red", "Kcl"), picture_only=picture_only)
    right = UNDER + (190.0, 0.0)
    scene = _scene((ACE, UNDER), (RED, right), (KING - 1, ACROSS), profile=profile)
    inside = np.zeros((SIZE[0] // 2, SIZE[1] // 2), np.uint8)
    cv2.fillConvexPoly(inside, np.round(ACROSS / 2.0).astype(np.int32), 1)
    return scene, [_read(ACE, UNDER), _read(RED, right)], profile, inside > 0


ACROSS = UNDER + (95.0, 10.0)


def test_a_card_without_an_index_lying_across_two_read_cards_is_found() -> None:
    # The read cards' outlines cover the court whole, but their pictures leave its ink
    # unexplained.
    scene, cards, profile, inside = _across(picture_only=("Kcl",))
    left = _left_over(scene, cards, profile)  # type: ignore[arg-type]
    inked = inside & (scene.ink[::2, ::2] > 0.3)
    assert left.explained[inked].mean() < 0.5
    found = by_keypoints._by_keypoints(scene, cards, profile, left)  # type: ignore[arg-type]
    assert [c.card for c in found] == [KING - 1]
    assert _corner_error(found[0].quad, ACROSS) < 6.0


def test_read_cards_explain_their_own_pictures_and_what_lies_under_the_one_above() -> None:
    profile = _Profile(PROFILE.ink, CODES, picture_only=("jk-black",))
    above = UNDER + (120.0, 0.0)
    scene = _scene((ACE, UNDER), (KING, above))
    left = _left_over(scene, [_read(ACE, UNDER), _read(KING, above)],
                      profile)  # type: ignore[arg-type]
    inside = np.zeros(left.explained.shape, np.uint8)
    for quad in (UNDER, above):
        cv2.fillConvexPoly(inside, np.round(quad / 2.0).astype(np.int32), 1)
    assert left.explained[inside > 0].all()
    assert by_keypoints._by_keypoints(scene, [_read(ACE, UNDER), _read(KING, above)], profile,
                                      left) == []  # type: ignore[arg-type]


def test_where_every_card_has_an_index_read_cards_explain_what_their_outlines_cover() -> None:
    # The cheaper reading: a card drawn to its rim lying across two read cards is not looked
    # for in a deck where every card shows an index (it would have been read by it).
    scene, cards, profile, inside = _across(picture_only=())
    left = _left_over(scene, cards, profile)  # type: ignore[arg-type]
    assert left.explained[inside].mean() > 0.95
    assert by_keypoints._by_keypoints(scene, cards, profile, left) == []  # type: ignore[arg-type]
