"""Outlines placed through the table's perspective: a fan photographed at a slant."""

from __future__ import annotations

import numpy as np
import pytest

from scorekeeper.cards import deck_codes
from scorekeeper.vision import recognition, recognize
from scorekeeper.vision.builtin import reference_profile
from scorekeeper.vision.perspective import corrected, in_perspective
from scorekeeper.vision.profile import DeckProfile
from scorekeeper.vision.synth import SynthPhoto, make_photo, match, outline_off

SIZE = (2400, 1800)


@pytest.fixture(scope="module")
def reference() -> DeckProfile:
    return reference_profile()


def _worst_corners(shot: SynthPhoto, profile: DeckProfile) -> list[float]:
    """For each card read right, how far its outline lies from the card's at the worst
    corner, in card widths."""
    result = recognize(shot.jpeg, profile)
    pairs = match(shot.cards, [c.corners for c in result.cards])
    return [outline_off(shot.cards[i].corners, result.cards[j].corners)
            for i, j in pairs.items() if result.cards[j].code == shot.cards[i].code]


@pytest.mark.parametrize("seed", [0, 9, 19])
def test_a_slanted_fan_is_outlined_through_the_tables_perspective(
        reference: DeckProfile, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # Fans photographed at 28 to 39 degrees: placed from their indices alone, the cards' far
    # ends lie an eighth to a fifth of a card's width off; through the table's perspective,
    # a few hundredths.
    shot = make_photo(np.random.default_rng(seed), deck_codes("toss"), size=SIZE, kind="fan")
    assert shot.tilt > 25
    through = _worst_corners(shot, reference)
    monkeypatch.setattr(recognition, "in_perspective", lambda scene, quads, anchors: quads)
    affine = _worst_corners(shot, reference)
    assert len(through) == len(affine) >= 5
    assert float(np.median(affine)) > 0.1
    assert float(np.median(through)) < 0.06
    assert max(through) < max(affine)


def test_no_correction_where_the_outlines_already_lie_on_the_edges() -> None:
    # A card region drawn as a rectangle, outlined exactly: no correction lies better.
    from scorekeeper.vision.scene import Scene

    labels = np.zeros((300, 400), np.int32)
    labels[50:200, 100:200] = 1
    norm = np.ones((600, 800, 3), np.float32)
    scene = Scene(norm, norm[..., 0], labels, {1: 200.0}, norm[::4, ::4])
    quad = np.array([[200.0, 100.0], [400.0, 100.0], [400.0, 400.0], [200.0, 400.0]])
    out = in_perspective(scene, [quad], [quad[0] + 20.0])
    assert np.array_equal(out[0], quad)


def test_corrections_that_stretch_a_card_too_far_are_refused() -> None:
    square = np.array([[[0.0, 0.0], [0.2, 0.0], [0.2, 0.2], [0.0, 0.2]]])
    _, ok = corrected(square, square[:, 0], np.array([[0.0, 0.5], [0.0, 3.0], [0.0, -4.5]]))
    assert ok.tolist() == [True, False, False]
