"""Which card lies on top where cards overlap, a card's two readings folded into one, and court
cards whose picture leaves a bay in their card region: on drawn arrays."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import cv2
import numpy as np
import pytest

from scorekeeper.vision.assemble import _add_reading, _another_corner, _Card, _confidence
from scorekeeper.vision.covering import _leads, _mark_top, _uncovered
from scorekeeper.vision.features import CANON_H, CANON_W
from scorekeeper.vision.fine import _by_colour
from scorekeeper.vision.outlines import SURE, _on_cards, _outline_shown
from scorekeeper.vision.scene import Scene, analyse, hull_regions

CANON = np.array([[0.0, 0.0], [CANON_W, 0.0], [CANON_W, CANON_H], [0.0, CANON_H]])


def _pictures() -> np.ndarray:
    """Two learned card pictures (inkness 0..255): stripes across, and a grid of discs."""
    stripes = np.zeros((CANON_H, CANON_W), np.uint8)
    for y in range(20, CANON_H - 20, 40):
        stripes[y:y + 16, 15:CANON_W - 15] = 255
    discs = np.zeros((CANON_H, CANON_W), np.uint8)
    for y in range(35, CANON_H, 60):
        for x in range(35, CANON_W, 60):
            cv2.circle(discs, (x, y), 14, 255, -1)
    return np.stack([stripes, discs])


def _drawn(pictures: np.ndarray, card: int, quad: np.ndarray, onto: np.ndarray) -> None:
    m = cv2.getPerspectiveTransform(CANON.astype(np.float32), quad.astype(np.float32))
    size = (onto.shape[1], onto.shape[0])
    picture = cv2.warpPerspective(pictures[card].astype(np.float32) / 255.0, m, size)
    inside = cv2.warpPerspective(np.ones((CANON_H, CANON_W), np.float32), m, size) > 0.5
    onto[inside] = picture[inside]


def _overlapping(top: int) -> tuple[list[_Card], np.ndarray, Any]:
    """Card 0 (stripes) and card 1 (discs) overlapping by half; ``top`` drawn last. Each card's
    index point lies inside the other's outline, so the index rule alone cannot tell."""
    pictures = _pictures()
    quads = [np.array([[100.0, 100.0], [300.0, 100.0], [300.0, 380.0], [100.0, 380.0]]),
             np.array([[200.0, 160.0], [400.0, 160.0], [400.0, 440.0], [200.0, 440.0]])]
    ink = np.zeros((540, 500), np.float32)
    for card in (1 - top, top):
        _drawn(pictures, card, quads[card], ink)
    cards = [_Card(0, 0.95, 0.0, -1, quads[0], [np.array([250.0, 200.0])], canon=CANON),
             _Card(1, 0.95, 0.0, -1, quads[1], [np.array([250.0, 300.0])], canon=CANON)]
    return cards, ink, SimpleNamespace(ink=pictures)


@pytest.mark.parametrize("top", [0, 1])
def test_the_card_whose_picture_shows_where_two_overlap_is_on_top(top: int) -> None:
    cards, ink, profile = _overlapping(top)
    _mark_top(cards, _leads(cards, ink, profile))
    assert [c.top for c in cards] == [i == top for i in range(2)]


@pytest.mark.parametrize("top", [0, 1])
def test_a_card_blank_where_two_overlap_is_on_top_where_the_photo_is_blank_there(
        top: int) -> None:
    # An ace lying on a court: its white over the court's picture. Correlation with a blank
    # picture says nothing; a photo as flat there as that picture says the ace lies above.
    pictures = _pictures()
    pictures[1] = 0
    pictures[1, -60:-20, -50:-20] = 255  # the blank card's index, off the overlap
    cards, _, profile = _overlapping(top)
    profile.ink = pictures
    ink = np.zeros((540, 500), np.float32)
    for card in (1 - top, top):
        _drawn(pictures, card, cards[card].quad, ink)
    ink += np.random.default_rng(3).normal(0.0, 0.02, ink.shape).astype(np.float32)
    leads = _leads(cards, ink, profile)
    assert abs(leads[(0, 1)]) > 0.5
    _mark_top(cards, leads)
    assert [c.top for c in cards] == [i == top for i in range(2)]


def test_without_pictures_the_card_holding_the_others_index_is_below() -> None:
    cards, ink, profile = _overlapping(0)
    cards[1].index_points = [np.array([350.0, 400.0])]  # off card 0: card 0 holds no index
    _mark_top(cards, _leads(cards, np.zeros_like(ink), profile))
    assert [c.top for c in cards] == [True, False]


def test_a_reading_whose_index_lies_under_a_surer_card_is_dropped() -> None:
    cards, ink, profile = _overlapping(1)
    cards[0].index_points = [np.array([260.0, 300.0])]  # well inside card 1, which lies above
    cards[0].score = 0.9
    assert _uncovered(cards, _leads(cards, ink, profile))[0] == [cards[1]]
    # Read more surely than the card over its index, it stays (that card's outline may be off).
    cards[0].score = 0.99
    assert _uncovered(cards, _leads(cards, ink, profile))[0] == cards
    # A near tie between the two pictures is no evidence that card 1 covers card 0.
    cards[0].score = 0.9
    assert _uncovered(cards, {(0, 1): -0.2})[0] == cards
    assert _uncovered(cards, {(0, 1): -0.5}) == ([cards[1]], {})
    # The pairs left keep their leads, numbered as the cards left.
    third = _Card(1, 0.9, 0.0, -1, cards[1].quad + 30.0, [np.array([450.0, 470.0])])
    assert _uncovered([*cards, third], {(0, 1): -0.5, (0, 2): 0.3, (1, 2): 0.2}) == (
        [cards[1], third], {(0, 1): 0.2})
    # Nor when the card above was not read for sure (its outline may be far off).
    cards[0].score, cards[1].score = 0.7, 0.8
    assert _uncovered(cards, _leads(cards, ink, profile))[0] == cards
    # An index at the edge of the card above (an outline a few percent off) is not covered.
    cards[0].score, cards[1].score = 0.9, 0.95
    cards[0].index_points = [np.array([205.0, 300.0])]
    assert _uncovered(cards, _leads(cards, ink, profile))[0] == cards


def _card(quad: np.ndarray) -> _Card:
    return _Card(3, 0.9, 0.5, 4, quad.copy(), [quad[0] + (10.0, 20.0)])


def test_the_same_index_read_again_leaves_the_outline_as_it_was() -> None:
    quad = np.array([[100.0, 100.0], [300.0, 100.0], [300.0, 380.0], [100.0, 380.0]])
    card = _card(quad)
    _add_reading(card, 3, 0.8, 0.8, quad + 2.0, quad[0] + (11.0, 21.0))
    assert np.allclose(card.quad, quad)
    assert len(card.index_points) == 1


def test_the_other_index_places_the_outline_and_the_better_reading_wins() -> None:
    quad = np.array([[100.0, 100.0], [300.0, 100.0], [300.0, 380.0], [100.0, 380.0]])
    card = _card(quad)
    _add_reading(card, 7, 0.95, 0.93, np.roll(quad, 2, axis=0), quad[2] - (10.0, 20.0))
    assert np.allclose(card.quad, quad)  # the two outlines and their indices agree
    assert len(card.index_points) == 2
    assert (card.card, card.score, card.second_card, card.second) == (7, 0.95, 3, 0.9)
    assert card.worst == 0.93


def test_a_card_read_from_both_indices_lies_where_both_indices_put_it() -> None:
    # Each index frames its card from a rank and a pip a few pixels apart, so each outline's
    # far end errs (here one turned 4 degrees, the other -3 and 5% large, each about its own
    # index); the two indices, a card's diagonal apart, place the card between them.
    true = np.array([[120.0, 80.0], [320.0, 120.0], [265.0, 395.0], [65.0, 355.0]])
    m = cv2.getPerspectiveTransform((CANON / (CANON_W, CANON_H)).astype(np.float32),
                                    true.astype(np.float32))
    first, second = cv2.perspectiveTransform(
        np.array([[[0.08, 0.1]], [[0.92, 0.9]]], np.float32), m).reshape(2, 2).astype(np.float64)

    def about(points: np.ndarray, centre: np.ndarray, degrees: float, scale: float) -> np.ndarray:
        t = np.radians(degrees)
        rot = scale * np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
        out: np.ndarray = (points - centre) @ rot.T + centre
        return out

    card = _Card(3, 0.9, 0.5, 4, about(true, first, 4.0, 1.0), [first])
    other = np.roll(about(true, second, -3.0, 1.05), 2, axis=0)
    averaged = (card.quad + np.roll(other, 2, axis=0)) / 2
    _add_reading(card, 3, 0.9, 0.9, other, second)
    worst = float(np.abs(card.quad - true).max())
    assert worst < 3.0, card.quad
    assert float(np.abs(averaged - true).max()) > 4 * worst  # the plain average errs more


def test_agreeing_readings_keep_the_better_shown_index_for_the_confidence() -> None:
    quad = np.array([[100.0, 100.0], [300.0, 100.0], [300.0, 380.0], [100.0, 380.0]])
    card = _card(quad)
    card.worst = 0.8
    _add_reading(card, 3, 0.85, 0.96, np.roll(quad, 2, axis=0), quad[2] - (10.0, 20.0))
    assert (card.card, card.score, card.worst) == (3, 0.9, 0.96)
    _add_reading(card, 3, 0.7, 0.6, quad, quad[0] + (11.0, 21.0))
    assert card.worst == 0.96


def test_a_reading_is_only_as_sure_as_its_poorer_part() -> None:
    # A card the profile lacks, read as one with its rank and a look-alike pip (a spade for a
    # club): a high mean score, one part at 0.9.
    assert _confidence(0.95, 0.7, 0.9) < 0.9
    assert _confidence(0.98, 0.7, 0.97) == 1.0
    # A runner-up close behind takes away most of what the lead adds.
    assert _confidence(0.98, 0.975, 0.97) == pytest.approx(0.6 + 0.4 * 0.005 / 0.03, abs=1e-3)
    assert _confidence(0.7, 0.5, 0.7) == 0.0


#: Learned inks (absorption per channel, B G R, largest 1): black, a clear gold, a bluish
#: black and a dull gold (a black printing recoloured where its black had a tint).
BLACK, GOLD = np.array([1.0, 1.0, 1.0]), np.array([1.0, 0.42, 0.16])
BLUISH, DULL_GOLD = np.array([0.93, 1.0, 1.0]), np.array([1.0, 0.83, 0.72])


def _read_twins(inks: list[np.ndarray], fits: list[list[float]],
                sample: list[float]) -> tuple[int, float]:
    """(card read, confidence) of a guess whose finalists 0, 1, ... have these inks and part
    fits."""
    results = _by_colour({card: f for card, f in enumerate(fits)},
                         np.array(inks, np.float32), np.array(sample, np.float32),
                         {card: 0 for card in range(len(fits))})
    (score, card, _, worst), (second, *_) = results[:2]
    return card, _confidence(score, second, worst)


def test_one_glyph_in_two_clear_inks_is_a_sure_reading_of_the_nearer_ink() -> None:
    # The cross's calibration photo came out sharper: its fits are a little better, but the
    # sample's ink is plainly black.
    assert _read_twins([BLACK, GOLD], [[0.95, 0.96], [0.97, 0.98]], [1.0, 0.97, 0.95]) == (0, 1.0)
    card, confidence = _read_twins([BLACK, GOLD], [[0.97, 0.98], [0.95, 0.96]], [1.0, 0.5, 0.3])
    assert (card, confidence) == (1, 1.0)


def test_one_glyph_in_two_close_inks_is_never_a_sure_reading() -> None:
    # The sample lies nearer the bluish black, yet the two inks are too close for that to
    # settle it: the phone page asks.
    card, confidence = _read_twins([BLUISH, DULL_GOLD], [[0.98, 0.99], [0.97, 0.98]],
                                   [0.95, 1.0, 0.98])
    assert card == 0 and 0.5 <= confidence < 0.9
    # A glyph the sample plainly fits better keeps its shape's lead however close the inks.
    assert _read_twins([BLUISH, DULL_GOLD], [[0.98, 0.99], [0.90, 0.92]],
                       [0.95, 1.0, 0.98]) == (0, 1.0)
    # Two glyphs of one ink the sample fits alike stay as close as the sample leaves them.
    card, confidence = _read_twins([BLACK, BLACK * 0.98], [[0.98, 0.99], [0.975, 0.985]],
                                   [1.0, 1.0, 1.0])
    assert card == 0 and confidence == pytest.approx(0.6 + 0.4 * 0.005 / 0.03, abs=1e-3)


def _scene_with_bay(size: int = 800) -> Scene:
    """A card region (240 x 300 pixels) whose picture reaches its rim at the top: the region is
    a U, the picture a bay open to the table, not a hole the fill closes."""
    filled = np.zeros((size // 2, size // 2), np.int32)
    filled[25:175, 40:160] = 1
    filled[10:160, 45:155] = 0
    blank = np.zeros((size, size, 3), np.float32)
    return Scene(blank, blank[..., 0], filled, {1: 240.0}, blank[::4, ::4], hull_regions(filled))


def test_a_regions_hull_closes_the_bay_a_court_picture_leaves() -> None:
    scene = _scene_with_bay()
    middle = np.array([[200.0, 150.0]])
    assert scene.regions_at(middle)[0] == 0
    assert scene.regions_at(middle, hull=True)[0] == 1
    assert scene.regions_at(np.array([[700.0, 700.0]]), hull=True)[0] == 0


@pytest.mark.parametrize("score, on", [(SURE + 0.1, True), (SURE - 0.2, False)])
def test_a_sure_court_card_over_a_bay_lies_on_the_cards(score: float, on: bool) -> None:
    scene = _scene_with_bay()
    quad = np.array([[80.0, 50.0], [320.0, 50.0], [320.0, 350.0], [80.0, 350.0]])
    assert _on_cards(scene, quad, score) is on
    assert not _on_cards(scene, quad + (0.0, 340.0), score)


def test_a_jokers_other_star_is_the_same_card_and_the_outline_holding_both_is_kept() -> None:
    # A joker shows its star in two or four corners; each star read alone gave a second
    # "joker", its card often placed the wrong way round off the first.
    profile = SimpleNamespace(to_canon=np.array([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]),
                              corners=np.array([CANON], np.float32))
    star, other_star = np.array([120.0, 120.0]), np.array([280.0, 360.0])
    card = np.array([[100.0, 100.0], [300.0, 100.0], [300.0, 380.0], [100.0, 380.0]])
    wrong = np.array([[100.0, 100.0], [300.0, 100.0], [300.0, -180.0], [100.0, -180.0]])
    cards = [_Card(7, 0.95, 0.0, -1, wrong.copy(), [star], canon=CANON)]
    # The other star lies off the first outline, but the new outline holds both stars.
    assert _another_corner(cards, 7, card, other_star, profile, 0)  # type: ignore[arg-type]
    assert np.allclose(cards[0].quad, card)
    # A further star inside the kept outline is the same card; the outline stays.
    assert _another_corner(cards, 7, wrong, np.array([280.0, 120.0]), profile, 0)  # type: ignore[arg-type]
    assert np.allclose(cards[0].quad, card)
    # Another card's star, or the same joker's star far off, is not.
    assert not _another_corner(cards, 8, card, other_star, profile, 0)  # type: ignore[arg-type]
    far = card + 1000.0
    assert not _another_corner(cards, 7, far, np.array([1280.0, 1360.0]), profile, 0)  # type: ignore[arg-type]


def test_a_cards_whole_outline_shows_where_the_card_lies_not_turned_across_its_neighbour(
) -> None:
    # A star does not show which way its card lies; turned about the star's corner, the card
    # can lie across the white of the card beside it, where only the true outline shows.
    img = np.full((600, 800, 3), (40, 110, 30), np.uint8)  # green cloth
    card = np.array([[300.0, 100.0], [500.0, 100.0], [500.0, 380.0], [300.0, 380.0]])
    turned = np.array([[300.0, 100.0], [300.0, 300.0], [20.0, 300.0], [20.0, 100.0]])
    cv2.fillConvexPoly(img, np.array([[40, 90], [290, 90], [290, 320], [40, 320]]),
                       (235, 235, 235))  # the card beside it
    cv2.fillConvexPoly(img, card.astype(np.int32), (240, 240, 240))
    scene = analyse(img)
    assert _outline_shown(scene, card) > 6.0
    assert _outline_shown(scene, turned) < 0.5 * _outline_shown(scene, card)
