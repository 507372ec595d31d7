"""The recogniser's geometry helpers, on drawn arrays: marks cut from the thin lines they touch,
frames corrected by the close comparison's alignment, court cards whose picture hides their
white, and sure readings that two misreadings must not outvote."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scorekeeper.vision import guesses as guessing
from scorekeeper.vision import marks as marking
from scorekeeper.vision.assemble import (
    ACCEPT,
    CORNER_FIRST,
    RIVALS,
    WITHIN_READ,
    WITHIN_SURE,
    _Card,
    _contest,
    _may_lie,
    _not_within_stronger,
    _overlap_share,
    _same_size,
)
from scorekeeper.vision.builtin import reference_profile
from scorekeeper.vision.features import (
    FINE_PARTS,
    HU_MOMENTS,
    Blob,
    frame_matrix,
    mark_shape,
    patch_matrix,
)
from scorekeeper.vision.fine import REFINE_MAX, _refined
from scorekeeper.vision.guesses import (
    LONE_BUDGET,
    LONE_RESCUE,
    LONE_TWINS,
    _Guess,
    _guesses,
    _lone_guesses,
)
from scorekeeper.vision.kept import _placements
from scorekeeper.vision.marks import _marks
from scorekeeper.vision.outlines import SURE, _corner_exposed, _on_cards, _placeable
from scorekeeper.vision.scene import Scene, hull_regions, region_outlines


def _ink_with_rim() -> np.ndarray:
    """A pip (filled disc) touching a card's rim (a 2-pixel line), and a rank glyph alone."""
    ink = np.zeros((200, 300), np.float32)
    cv2.circle(ink, (150, 100), 12, 1.0, -1)
    cv2.line(ink, (20, 113), (280, 113), 1.0, 2)  # the rim, touching the disc's bottom
    cv2.rectangle(ink, (140, 50), (160, 75), 1.0, -1)  # the rank above
    return ink


def test_a_pip_touching_a_card_rim_is_a_mark_of_its_own() -> None:
    blobs, parts = _marks(_ink_with_rim())
    pips = [i for i, b in enumerate(blobs)
            if np.linalg.norm(b.centroid - (150, 100)) < 3 and b.area < 600]
    assert pips, [(b.centroid.round(1).tolist(), b.area) for b in blobs]
    rank = next(i for i, b in enumerate(blobs) if np.linalg.norm(b.centroid - (150, 62)) < 2)
    # The pip cut from the rim may pair with the rank: they share no mark.
    assert not parts[pips[0]] & parts[rank]


def test_a_large_glyph_touching_a_rim_is_a_mark_of_its_own() -> None:
    # A big-face index's rank keeps most of its area cut free of the rim of the card above in
    # a fan (the rim adds a fifth to it), but not its box: the rim is far wider than it.
    ink = np.zeros((200, 300), np.float32)
    cv2.circle(ink, (150, 100), 25, 1.0, -1)
    cv2.line(ink, (20, 126), (280, 126), 1.0, 2)  # the rim, touching the glyph's bottom
    blobs, _ = _marks(ink)
    alone = [b for b in blobs if np.linalg.norm(b.centroid - (150, 100)) < 3 and b.w < 60]
    assert alone, [(b.centroid.round(1).tolist(), b.w, b.area) for b in blobs]


def test_a_glyph_cut_free_by_the_opening_is_joined_with_its_neighbour_found_before() -> None:
    # The 1 of a 10 that blur joins to the table beyond the card's edge is cut free only by
    # the opening; the 0 beside it is a mark at the first level. The 10 is read as both.
    ink = np.zeros((300, 400), np.float32)
    cv2.rectangle(ink, (0, 0), (399, 40), 1.0, -1)  # the table beyond the card's edge
    cv2.rectangle(ink, (124, 40), (126, 56), 1.0, -1)  # blur joining the 1 to it
    cv2.rectangle(ink, (120, 56), (131, 96), 1.0, -1)  # the 1
    cv2.ellipse(ink, (160, 76), (13, 20), 0, 0, 360, 1.0, 8)  # the 0
    blobs, parts = _marks(ink)
    one = next(i for i, b in enumerate(blobs) if np.linalg.norm(b.centroid - (125.5, 76)) < 2)
    zero = next(i for i, b in enumerate(blobs) if np.linalg.norm(b.centroid - (160, 76)) < 2)
    ten = [i for i, p in enumerate(parts) if p == parts[one] | parts[zero]]
    assert len(ten) == 1, [(b.centroid.round(1).tolist(), b.area) for b in blobs]
    assert (blobs[ten[0]].x, blobs[ten[0]].w) == (120, 58)
    assert blobs[ten[0]].area == blobs[one].area + blobs[zero].area


def test_a_rank_joined_to_its_pip_gives_its_two_halves() -> None:
    # A rank whose tail touches its pip (blur, or the tail of a Q) is one mark: no pair.
    ink = np.zeros((600, 800), np.float32)
    cv2.ellipse(ink, (150, 64), (10, 13), 0, 0, 360, 1.0, 5)  # the rank, an "O"
    cv2.circle(ink, (150, 100), 12, 1.0, -1)  # the pip
    cv2.line(ink, (150, 76), (150, 90), 1.0, 6)  # the tail joining them
    waists: list[tuple[Blob, Blob]] = []
    blobs, _ = _marks(ink, waists)
    assert not any(np.linalg.norm(b.centroid - (150, 64)) < 3 for b in blobs)
    assert len(waists) == 1
    centres = sorted(tuple(half.centroid.round()) for half in waists[0])
    assert np.allclose(centres, [(150, 64), (150, 100)], atol=3), centres
    # A mark without a waist (the pip alone) is not cut.
    alone: list[tuple[Blob, Blob]] = []
    _marks(np.where(np.arange(600)[:, None] > 85, ink, 0.0).astype(np.float32), alone)
    assert alone == []


def _blurred_into_one(centres: list[tuple[int, int]], radii: list[int]) -> np.ndarray:
    """Discs of full ink joined by broad bridges of fainter ink (0.6), as blur joins an index
    pip to the large pip beside it: one mark at the usual level, even opened."""
    ink = np.zeros((300, 400), np.float32)
    for a, b in zip(centres, centres[1:], strict=False):
        cv2.line(ink, a, b, 0.6, 14)
    for (x, y), r in zip(centres, radii, strict=True):
        cv2.circle(ink, (x, y), r, 1.0, -1)
    cv2.rectangle(ink, (100, 60), (116, 88), 1.0, -1)  # a rank above the first disc
    return ink


def test_two_glyphs_blurred_into_one_mark_come_apart_at_the_split_level(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ink = _blurred_into_one([(108, 110), (150, 125)], [9, 22])
    blobs, parts = _marks(ink)
    rank = next(i for i, b in enumerate(blobs) if np.linalg.norm(b.centroid - (108, 74)) < 2)
    pips = [i for i, b in enumerate(blobs) if np.linalg.norm(b.centroid - (108, 110)) < 3]
    assert pips, [(b.centroid.round(1).tolist(), b.area) for b in blobs]
    assert not parts[pips[0]] & parts[rank]  # the small pip may pair with the rank
    # Where the split level does not part them, the small pip is no mark of its own.
    monkeypatch.setattr(marking, "SPLIT_LEVEL", 0.5)
    blobs, _ = _marks(ink)
    assert not any(np.linalg.norm(b.centroid - (108, 110)) < 3 for b in blobs)


def test_a_mark_that_comes_apart_into_many_gives_no_split_marks() -> None:
    # Court art comes apart into many pieces: each would be paired with its neighbours.
    centres = [(108, 110), (150, 125), (200, 110), (250, 125)]
    blobs, _ = _marks(_blurred_into_one(centres, [9, 12, 12, 12]))
    assert not any(np.linalg.norm(b.centroid - c) < 3 for b in blobs for c in centres)


def test_opening_adds_no_copy_of_a_mark_that_touches_nothing() -> None:
    ink = np.zeros((120, 120), np.float32)
    cv2.circle(ink, (60, 60), 15, 1.0, -1)
    blobs, _ = _marks(ink)
    assert len(blobs) == 1


def test_alignment_turns_the_frame_and_too_large_a_correction_is_refused() -> None:
    frame = frame_matrix(np.array([100.0, 100.0]), np.array([100.0, 80.0]))
    window, width, height = FINE_PARTS[0]
    assert np.allclose(_refined(frame, np.eye(2, 3), 0), frame)
    # A warp that turns the sample by 10 degrees about the patch's centre turns the frame so.
    to_frame = np.vstack([patch_matrix(np.eye(3)[:2], width, height, window), [0, 0, 1]])
    centre = np.array([width / 2, height / 2])
    for degrees, changed in ((10.0, True), (40.0, False)):
        turn = cv2.getRotationMatrix2D(tuple(centre), degrees, 1.0)
        out = _refined(frame, turn, 0)
        change = np.linalg.solve(frame[:, :2], out[:, :2]) - np.eye(2)
        if changed:
            expected = (np.vstack([frame, [0, 0, 1]]) @ to_frame @ np.vstack([turn, [0, 0, 1]])
                        @ np.linalg.inv(to_frame))[:2]
            assert np.allclose(out, expected)
            assert 0.1 < float(np.abs(change).max()) <= REFINE_MAX[1]
        else:
            assert np.allclose(out, frame)


def _scene_with_rim_only(size: int = 800) -> Scene:
    """A card region (240 x 300 pixels) that is only a white margin 30 pixels wide, its middle
    a picture the region fill did not close; Scene keeps it at half size."""
    filled = np.zeros((size // 2, size // 2), np.int32)
    filled[25:175, 40:160] = 1
    filled[40:160, 55:145] = 0
    blank = np.zeros((size, size, 3), np.float32)
    return Scene(blank, blank[..., 0], filled, {1: 240.0}, blank[::4, ::4])


@pytest.mark.parametrize("score, on", [(SURE + 0.1, True), (SURE - 0.2, False)])
def test_a_court_card_showing_only_its_white_rim_lies_on_the_cards(score: float,
                                                                   on: bool) -> None:
    scene = _scene_with_rim_only()
    quad = np.array([[80.0, 50.0], [320.0, 50.0], [320.0, 350.0], [80.0, 350.0]])
    assert _on_cards(scene, quad, score) is on
    # Off the card (on the table) it does not.
    assert not _on_cards(scene, quad + (0.0, 320.0), score)


def _card_on_a_white_card(rim: float, size: int = 800) -> tuple[Scene, np.ndarray]:
    """A card (its outline) lying on another white card, its two edges at the top left corner
    showing only as a rim ``rim`` darker than the white (one card region holds both); and the
    card's outline."""
    norm = np.ones((size, size, 3), np.float32)
    corner, width, height = (200, 150), 240, 336
    cv2.line(norm, corner, (corner[0] + width, corner[1]), (1 - rim,) * 3, 3)
    cv2.line(norm, corner, (corner[0], corner[1] + height), (1 - rim,) * 3, 3)
    filled = np.ones((size // 2, size // 2), np.int32)
    scene = Scene(norm, np.zeros((size, size), np.float32), filled, {1: float(width)},
                  norm[::4, ::4], printed=filled)
    quad = np.array([corner, (corner[0] + width, corner[1]),
                     (corner[0] + width, corner[1] + height), (corner[0], corner[1] + height)],
                    np.float64)
    return scene, quad


@pytest.mark.parametrize("rim, shown", [(0.11, True), (0.2, True), (0.05, False), (0.0, False)])
def test_a_card_on_another_white_card_shows_its_corner_by_a_faint_rim(rim: float,
                                                                       shown: bool) -> None:
    # An index read on a card lying on another white card: its edges show only as the rim
    # (0.11 was too faint before). Art in the middle of a card predicts edges over blank white.
    scene, quad = _card_on_a_white_card(rim)
    assert _corner_exposed(scene, quad) is shown


@pytest.mark.parametrize("off, shown", [(5.0, True), (-5.0, True), (0.0, True), (14.0, False)])
def test_a_sure_index_whose_corner_lies_a_little_off_its_rim_still_shows_it(
        off: float, shown: bool) -> None:
    # The close comparison's frame may place a tilted card's corner a few percent out; its
    # printed rim then lies where the card's white should be, just inside the edge looked
    # at. For a sure reading, up to ``CORNER_SHIFT`` rows of the band (here 6.6 pixels) either
    # way it still shows; a rim 14 pixels (6% of the card's width) off is not this corner's.
    scene, quad = _card_on_a_white_card(0.9)
    outward = quad - off * np.array([[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]])
    assert _corner_exposed(scene, outward, SURE) is shown
    # A weak reading's corner must show where its frame puts it.
    assert _corner_exposed(scene, outward, SURE - 0.1) is (shown and off <= 0.0)


def test_a_weak_index_whose_corner_shows_no_edge_is_not_compared_closely() -> None:
    scene, quad = _card_on_a_white_card(0.2)
    # Marks in the card's middle read as an index put its corner over blank card white.
    middle = quad + (60.0, 80.0)
    assert _on_cards(scene, middle, 1.0) and not _corner_exposed(scene, middle)
    weak, strong = CORNER_FIRST - 0.1, CORNER_FIRST
    quads = np.stack([quad, middle, middle])
    # A strong one is compared closely all the same (its refined frame may show the corner).
    assert _may_lie(scene, quads, np.array([weak, weak, strong])).tolist() == [True, False, True]
    # Off the card regions none is.
    off = Scene(scene.norm, scene.ink, np.zeros_like(scene.filled), {}, scene.white_scale)
    assert not _may_lie(off, quads, np.ones(3)).any()


def test_only_pairs_of_marks_whose_card_could_lie_on_the_cards_are_compared() -> None:
    # One card region, (100, 100) to (340, 440) in full-size pixels; each pair of marks is
    # 20 pixels apart, its pip below its rank. The deck's cards lie right of and below their
    # index, all but one learned turned round (lying left of it).
    size = 800
    filled = np.zeros((size // 2, size // 2), np.int32)
    filled[50:220, 50:170] = 1
    blank = np.zeros((size, size, 3), np.float32)
    scene = Scene(blank, blank[..., 0], filled, {1: 240.0}, blank[::4, ::4])
    card = np.array([[-0.6, -2.0], [11.4, -2.0], [11.4, 15.0], [-0.6, 15.0]])
    turned = card * (-1.0, 1.0)
    placements = _placements(np.stack([card, card + 0.1, card - 0.1, turned]).astype(
        np.float32), 2)
    assert np.allclose(placements, [card, turned])

    def pair(x: float, y: float, lone: bool = False) -> _Guess:
        pip = np.array([x, y])
        return _Guess(0, 0 if lone else 1, frame_matrix(pip, pip - (0.0, 20.0)), 20.0, 1,
                      lone=lone)

    at_index = pair(112.0, 140.0)  # the card's own index, top left
    turned_index = pair(328.0, 140.0)  # top right: the card lies left of it
    middle = pair(220.0, 270.0)  # pips in the card's middle: their card reaches off it
    off = pair(600.0, 600.0)  # on the table
    lone = pair(600.0, 600.0, lone=True)  # a lone mark places no card: kept
    guesses = [at_index, middle, turned_index, off, lone]
    assert _placeable(scene, guesses, placements) == [at_index, turned_index, lone]
    # With the common place only, the card turned round is no index either.
    assert _placeable(scene, guesses, placements[:1]) == [at_index, lone]


def _split_card_scene(top: int, bottom: tuple[int, int]) -> Scene:
    """A card (100, 100) to (340, 440) in full-size pixels whose picture reaches both long
    sides: its white is two regions, rows 50 to ``top`` and ``bottom`` at half size."""
    size = 800
    filled = np.zeros((size // 2, size // 2), np.int32)
    filled[50:top, 50:170] = 1
    filled[bottom[0]:bottom[1], 50:170] = 2
    outlines = region_outlines(filled)
    blank = np.zeros((size, size, 3), np.float32)
    return Scene(blank, blank[..., 0], filled, {1: 240.0, 2: 240.0}, blank[::4, ::4],
                 hull_regions(filled, outlines), None, outlines)


def test_a_court_split_by_its_picture_is_placed_on_its_pieces_together() -> None:
    card = np.array([[-0.6, -2.0], [11.4, -2.0], [11.4, 15.0], [-0.6, 15.0]])
    pip = np.array([112.0, 140.0])
    index = _Guess(0, 1, frame_matrix(pip, pip - (0.0, 20.0)), 20.0, 1)
    # Half of the card lies between the pieces' own hulls, all of it within their joint hull.
    scene = _split_card_scene(95, (175, 220))
    assert _placeable(scene, [index], _placements(card[None].astype(np.float32), 1)) == [index]
    # A sure reading's card may also lose its far corners (pieces too small to be regions).
    scene = _split_card_scene(82, (175, 196))
    quad = np.array([[100.0, 100.0], [340.0, 100.0], [340.0, 440.0], [100.0, 440.0]])
    assert _on_cards(scene, quad, SURE)
    # Where the pieces hold less than the card's ends, it lies off the cards.
    assert not _on_cards(_split_card_scene(82, (175, 180)), quad, SURE)


@pytest.mark.parametrize("alike", [LONE_BUDGET - 50, LONE_BUDGET + 50])
def test_a_busy_cloths_alike_marks_are_no_lone_marks_past_the_budget(alike: int) -> None:
    # A cloth whose pattern passes as card white: hundreds of alike compact marks on one card
    # region, and one mark of its own (a joker's star).
    size = 1600
    white = np.ones((size, size, 3), np.float32)
    scene = Scene(white, np.zeros((size, size), np.float32),
                  np.ones((size // 2, size // 2), np.int32), {1: 300.0}, white[::4, ::4])
    rng = np.random.default_rng(0)
    blobs = [Blob(rng.uniform(100, size - 100, 2), 0, 0, 8, 8, 40) for _ in range(alike)]
    blobs.append(Blob(np.array([800.0, 800.0]), 0, 0, 14, 13, 120))
    marks = {g.pip for g in _lone_guesses(scene, scene.ink, blobs, np.zeros((0, HU_MOMENTS)))}
    assert alike > LONE_TWINS
    assert marks == ({alike} if alike > LONE_BUDGET else set(range(alike + 1)))


def test_past_the_budget_the_marks_shaped_like_a_learned_lone_mark_are_kept() -> None:
    # Past the budget, a joker's stars among a fan's fine drawings had as many alike marks as
    # a cloth's: of the marks left out for that, those shaped most like a learned lone mark
    # are kept (``LONE_RESCUE``): here 40 discs among 360 bars, alike to the rule's eye.
    size = 1600
    ink = np.zeros((size, size), np.float32)
    blobs = []
    for k in range(400):
        x, y = 40 + 38 * (k % 40), 40 + 150 * (k // 40)
        if k % 10:
            ink[y:y + 12, x + 4:x + 8] = 1.0  # a bar, 4 x 12
            blobs.append(Blob(np.array([x + 5.5, y + 5.5]), x, y, 12, 12, 48))
        else:
            cv2.circle(ink, (x + 6, y + 6), 5, 1.0, -1)  # a disc, 11 across
            blobs.append(Blob(np.array([x + 6.0, y + 6.0]), x, y, 12, 12, 81))
    white = np.ones((size, size, 3), np.float32)
    scene = Scene(white, ink, np.ones((size // 2, size // 2), np.int32), {1: 300.0},
                  white[::4, ::4])
    discs = {k for k in range(400) if k % 10 == 0}
    disc = np.zeros((24, 24), np.uint8)
    cv2.circle(disc, (12, 12), 9, 1, -1)
    kept = {g.pip for g in _lone_guesses(scene, ink, blobs, mark_shape(disc)[None])}
    assert discs <= kept and len(kept) == LONE_RESCUE
    assert not {g.pip for g in _lone_guesses(scene, ink, blobs, np.zeros((0, HU_MOMENTS)))}


def _card(score: float, side: float, x: float, worst: float | None = None) -> _Card:
    quad = np.array([[x, 0.0], [x + side, 0.0], [x + side, 1.4 * side], [x, 1.4 * side]])
    return _Card(0, score, 0.0, -1, quad, worst=score if worst is None else worst)


def test_two_small_misreadings_do_not_outvote_one_sure_card() -> None:
    cards = [_card(0.99, 300.0, 0.0), _card(0.62, 40.0, 500.0), _card(0.63, 45.0, 600.0)]
    kept = _same_size(cards)
    assert kept == [cards[0]]


def test_two_fair_misreadings_of_big_middle_pips_do_not_outvote_two_sure_cards() -> None:
    # A six's middle pips read as an ace's index at a fair score (its poorer part weak) give
    # cards three times the size of the cards read for certain.
    cards = [_card(0.99, 300.0, 0.0), _card(0.99, 310.0, 400.0),
             _card(0.87, 800.0, 800.0, worst=0.76), _card(0.86, 810.0, 900.0, worst=0.75)]
    assert _same_size(cards) == cards[:2]


def _turned(card: _Card, turn: float, at: tuple[float, float], worst: float) -> _Card:
    """A reading of ``card``'s marks at ``at`` with its outline turned by ``turn`` degrees and
    squeezed (a crooked frame), read with ``worst`` for its poorer part."""
    centre = card.quad.mean(axis=0)
    m = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), turn, 0.8)
    quad = card.quad @ m[:, :2].T + m[:, 2]
    return _Card(1, 0.73, 0.7, 2, quad, [np.array(at)], worst=worst)


def test_a_weak_reading_of_a_sure_cards_second_index_is_dropped() -> None:
    sure = _card(0.99, 300.0, 0.0)
    sure.index_points = [np.array([20.0, 30.0])]
    other_index = (280.0, 390.0)
    weak = _turned(sure, 170.0, other_index, worst=0.65)
    assert _not_within_stronger([sure, weak]) == [sure]
    # Read with some strength, it stays (the player is asked); so does a weak reading whose
    # outline mostly lies off the sure card.
    fair = _turned(sure, 170.0, other_index, worst=0.8)
    assert _not_within_stronger([sure, fair]) == [sure, fair]
    off = _turned(sure, 170.0, other_index, worst=0.65)
    off.quad = off.quad + (250.0, 300.0)
    assert _not_within_stronger([sure, off]) == [sure, off]


def test_a_weak_reading_almost_wholly_on_a_fairly_read_card_is_dropped() -> None:
    # A blurred photo: the card is read with some strength, not for certain, and its second
    # index, turned half round, is read again as another card with no strength.
    fair = _card(0.9, 300.0, 0.0, worst=0.8)
    fair.index_points = [np.array([20.0, 30.0])]
    weak = _turned(fair, 170.0, (280.0, 390.0), worst=0.65)
    assert _overlap_share(weak.quad, fair.quad) > WITHIN_READ
    assert _not_within_stronger([fair, weak]) == [fair]
    # Half on it only, it stays (it would not beside a card read for certain) ...
    half = _turned(fair, 170.0, (280.0, 390.0), worst=0.65)
    half.quad = half.quad + (120.0, 0.0)
    assert WITHIN_SURE <= _overlap_share(half.quad, fair.quad) < WITHIN_READ
    assert _not_within_stronger([fair, half]) == [fair, half]
    sure = _card(0.99, 300.0, 0.0)
    assert _not_within_stronger([sure, half]) == [sure]
    # ... and a weak reading on a card read with no strength either stays.
    none = _card(0.73, 300.0, 0.0, worst=0.7)
    assert _not_within_stronger([none, weak]) == [none, weak]


def test_two_sure_cards_of_different_sizes_both_stay() -> None:
    # A photo tilted 42 degrees: the nearer card read for certain is 1.9 times the farther
    # one's size. Either could be the odd one; neither is dropped. With a third card read
    # for certain, the odd one is.
    near, far = _card(0.99, 285.0, 0.0), _card(0.99, 150.0, 400.0)
    assert _same_size([near, far]) == [near, far]
    assert _same_size([far, near]) == [far, near]
    third = _card(0.99, 155.0, 700.0)
    assert _same_size([near, far, third]) == [far, third]


def test_without_a_sure_card_the_odd_size_out_is_dropped() -> None:
    cards = [_card(0.7, 200.0, 0.0), _card(0.7, 210.0, 300.0), _card(0.7, 40.0, 600.0)]
    assert _same_size(cards) == cards[:2]


def test_a_cloth_pattern_passing_as_card_white_does_not_crowd_out_an_index(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A checked cloth read as one card region with the cards: hundreds of alike squares pair
    with their neighbours; past the budget those pairs go first, not the card's index."""
    scene = _scene_with_rim_only()
    scene.filled[:] = 1
    squares = [Blob(np.array([100.0 + 16 * i, 100.0 + 16 * j]), 95 + 16 * i, 95 + 16 * j,
                    10, 10, 100) for i in range(30) for j in range(30)]
    rank = Blob(np.array([40.0, 600.0]), 36, 594, 8, 12, 70)
    pip = Blob(np.array([40.0, 620.0]), 34, 614, 12, 12, 110)
    blobs = [*squares, rank, pip]
    index = {len(blobs) - 2, len(blobs) - 1}
    everything = _guesses(scene, blobs, reference_profile())
    assert len(everything) > 5000
    assert any({g.pip, g.anchor} == index for g in everything)
    monkeypatch.setattr(guessing, "GUESS_BUDGET", 1000)
    kept = _guesses(scene, blobs, reference_profile())
    assert len(kept) <= 1000
    assert any({g.pip, g.anchor} == index for g in kept)


def test_a_busy_fan_keeps_every_pair_of_marks_with_few_twins_past_the_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Court art and pips make many pairs but few alike marks: none of them is a cloth's
    pattern, so the budget leaves none out (an index among them would be lost)."""
    scene = _scene_with_rim_only()
    scene.filled[:] = 1
    rng = np.random.default_rng(3)
    blobs = []
    for _ in range(160):
        w, h = int(rng.integers(6, 30)), int(rng.integers(6, 30))
        x, y = rng.uniform(60, 740, 2)
        blobs.append(Blob(np.array([x, y]), int(x) - w // 2, int(y) - h // 2, w, h,
                          int(w * h * rng.uniform(0.4, 0.9))))
    everything = _guesses(scene, blobs, reference_profile())
    regions = np.ones(len(blobs), np.int32)
    assert guessing._twins(blobs, regions).max() <= guessing.TWIN_FLOOR
    monkeypatch.setattr(guessing, "GUESS_BUDGET", len(everything) // 2)
    kept = _guesses(scene, blobs, reference_profile())
    assert {(g.pip, g.anchor) for g in kept} == {(g.pip, g.anchor) for g in everything}


class _Settles:
    """A close comparison that scores each guess as told (by its pip), and counts its calls."""

    def __init__(self, scores: dict[int, float]) -> None:
        self.scores = scores
        self.settled: list[int] = []

    def settle(self, g: _Guess, accept: float) -> None:
        self.settled.append(g.pip)
        g.score = self.scores[g.pip]


def _pair(pip: int, anchor: int, lone: bool = False) -> _Guess:
    return _Guess(pip, anchor, np.eye(2, 3), 10.0, 1, score=0.0, lone=lone)


def test_an_unsure_index_is_read_again_from_the_pairs_that_share_a_mark_with_it() -> None:
    # Marks 0-7, each its own part; mark 1 is the index's rank, read with pip 0 first.
    parts = [frozenset((k,)) for k in range(8)]
    first = _pair(0, 1)
    first.score = 0.8
    later = [_pair(2, 3),              # shares no mark: another index
             _pair(4, 1, lone=True),   # a lone mark's guess is read alone
             _pair(5, 1),              # the rank with another pip: the better frame
             _pair(6, 1),              # a second rival
             _pair(7, 1)]              # past RIVALS: not read
    fine = _Settles({5: 0.95, 6: 0.7, 7: 0.99})
    judged: set[int] = set()
    best = _contest(first, later, parts, set(), judged, fine, ACCEPT)  # type: ignore[arg-type]
    assert RIVALS == 2
    assert fine.settled == [5, 6]
    assert best is later[2] and best.score == 0.95
    assert judged == {id(later[2]), id(later[3])}  # each read once
    # A rival holding a mark already taken by a card, or already judged, is not read again;
    # the first reading stands when no rival fits better.
    fine = _Settles({5: 0.95, 6: 0.7, 7: 0.75})
    first.score = 0.8
    best = _contest(first, later, parts, {5}, {id(later[3])}, fine, ACCEPT)  # type: ignore[arg-type]
    assert fine.settled == [7]
    assert best is first


def test_marks_compared_a_block_at_a_time_pair_as_all_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A region of a busy print holds thousands of marks; their pairs are found a block of
    # rows at a time (all at once took a gigabyte), in the same order.
    size = 1600
    white = np.ones((size, size, 3), np.float32)
    scene = Scene(white, np.zeros((size, size), np.float32),
                  np.ones((size // 2, size // 2), np.int32), {1: 300.0}, white[::4, ::4])
    rng = np.random.default_rng(3)
    blobs = []
    for _ in range(400):
        w, h = (int(v) for v in rng.integers(6, 30, 2))
        x, y = rng.uniform(50, size - 80, 2)
        blobs.append(Blob(np.array([x + w / 2, y + h / 2]), int(x), int(y), w, h, w * h // 2))
    parts = [frozenset((i,)) for i in range(len(blobs))]
    profile = reference_profile()

    def read() -> tuple[list[tuple[int, int]], list[frozenset[int]]]:
        joined, joined_parts = marking._with_unions(blobs, parts)
        found = guessing._guesses(scene, joined, profile)
        return [(g.anchor, g.pip) for g in found], joined_parts

    whole = read()
    monkeypatch.setattr(marking, "PAIR_BLOCK", 1000)  # two or three rows a block
    assert len(marking._blocks(len(blobs))) > 100
    assert read() == whole and len(whole[0]) > 1000 and len(whole[1]) > len(blobs)
