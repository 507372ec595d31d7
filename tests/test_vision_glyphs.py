"""Indices compared around their glyphs only: in a fan, the edge and pips of the card above
reach into an index's window, and must not hide what the index shows. Also: each finalist is
judged in its own alignment, each card scores by the best of its own templates, and a guess
is left once its rank shows that no pip could make it a card; finalists that share a rank (or
a suit) are told apart by the other part; a card whose two parts the alignment bends apart
ranks lower; a card made of one finalist's rank and another's suit is compared too."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.vision.builtin import reference_profile
from scorekeeper.vision.coarse import ROUGH, SHORTLIST, _crosses, _per_card
from scorekeeper.vision.features import (
    PATCH_H,
    PATCH_W,
    GlyphTemplates,
    describe,
    index_glyph,
)
from scorekeeper.vision.fine import (
    BEND_COST,
    BEND_FREE,
    _aligned,
    _bend,
    _by_colour,
    _correction,
    _fit,
    _gradients,
    _near_glyph,
    _Part,
    _score_bound,
    _shared,
    _too_far,
)
from scorekeeper.vision.kept import _rank_and_suit


def _index(rank: str = "ring") -> np.ndarray:
    """A drawn index patch: a rank glyph over a pip (ink 1 on blank 0)."""
    patch = np.zeros((PATCH_H, PATCH_W), np.float32)
    if rank == "ring":
        cv2.circle(patch, (12, 8), 5, 1.0, 2)
    else:
        cv2.line(patch, (12, 2), (12, 14), 1.0, 2)
    cv2.circle(patch, (12, 22), 4, 1.0, -1)
    return patch


def _with_neighbour(patch: np.ndarray) -> np.ndarray:
    """The same patch with the edge of the card above along its left side and the corner of
    that card's pip at its right."""
    out = patch.copy()
    out[:, 1:3] = 0.8
    cv2.circle(out, (PATCH_W + 2, 24), 5, 1.0, -1)
    return out


def test_a_neighbouring_card_beside_the_glyph_leaves_the_match_whole() -> None:
    template = describe(_index().reshape(1, -1))
    seen = _with_neighbour(_index()).reshape(1, -1)
    plain = float((describe(seen) @ template.T)[0, 0])
    around = float(GlyphTemplates.of(template).correlate(seen)[0, 0])
    assert plain < 0.85
    assert around > 0.98


def test_an_index_whose_body_pip_is_hidden_still_matches_its_own_glyphs() -> None:
    # A card's body pip within its index's window, hidden by the card above in a fan, counts
    # against the card around all the window's glyphs, not around the index's own.
    learned = _index()
    cv2.circle(learned, (21, 17), 2, 1.0, -1)
    template = describe(learned.reshape(1, -1))
    seen = _index().reshape(1, -1)
    assert float(GlyphTemplates.of(template).correlate(seen)[0, 0]) < 0.95
    own = index_glyph(template[0].reshape(PATCH_H, PATCH_W))[None]
    assert float(GlyphTemplates.of(template, own).correlate(seen)[0, 0]) > 0.98


def test_the_glyph_itself_still_decides() -> None:
    ring, bar = (describe(_index(r).reshape(1, -1)) for r in ("ring", "bar"))
    glyphs = GlyphTemplates.of(np.vstack([ring, bar]))
    seen = _with_neighbour(_index("ring")).reshape(1, -1)
    score = glyphs.correlate(seen)[0]
    assert score[0] - score[1] > 0.3
    # Ink over the glyph's own neighbourhood counts against it.
    smudged = _index("ring")
    cv2.line(smudged, (4, 1), (20, 15), 1.0, 2)
    assert glyphs.correlate(smudged.reshape(1, -1))[0, 0] < 0.9


def test_the_rough_comparison_keeps_what_the_full_one_shortlists() -> None:
    # Learned indices seen again (moved a pixel, blurred, noisy) and patches of loose marks:
    # the rough score stays near the full one, so what the full comparison would shortlist
    # is never dropped before it, while most loose marks are.
    profile = reference_profile()
    glyphs = GlyphTemplates.of(profile.templates, rough=True)
    rng = np.random.default_rng(7)
    shown = profile.templates[rng.choice(len(profile.templates), 300, replace=False)]
    seen = []
    for row in shown:
        patch = row.reshape(PATCH_H, PATCH_W)
        patch = (patch - patch.min()) / (patch.max() - patch.min())  # ink from 0 to 1
        patch = np.roll(patch, tuple(rng.integers(-1, 2, 2)), axis=(0, 1))
        patch = cv2.GaussianBlur(patch, (0, 0), float(rng.uniform(0.3, 1.2)))
        seen.append(patch + rng.normal(0.0, 0.05, patch.shape).astype(np.float32))
    loose = []
    for _ in range(300):
        patch = np.zeros((PATCH_H, PATCH_W), np.float32)
        for _ in range(int(rng.integers(1, 5))):
            centre = (int(rng.integers(0, PATCH_W)), int(rng.integers(0, PATCH_H)))
            cv2.circle(patch, centre, int(rng.integers(2, 8)), 1.0, -1)
        loose.append(cv2.GaussianBlur(patch, (0, 0), 0.8))
    rows = np.stack(seen + loose).reshape(600, -1).astype(np.float32)
    full = glyphs.correlate(rows).max(axis=1)
    rough = glyphs.rough(rows)
    shortlisted = full >= SHORTLIST
    assert shortlisted[:300].mean() > 0.9
    assert (rough[shortlisted] >= ROUGH).all()
    assert np.abs(rough - full)[shortlisted].max() < 0.1
    assert (rough[300:] < ROUGH).mean() > 0.5
    # Templates prepared for the full comparison only say so when asked for rough scores.
    with pytest.raises(ValueError, match="without rough=True"):
        GlyphTemplates.of(profile.templates).rough(rows)


def test_the_close_comparison_looks_near_the_learned_glyph_only() -> None:
    shape = cv2.GaussianBlur(_index(), (0, 0), 0.8)
    learned = _Part.of(shape)
    near, mask, clean = _near_glyph(shape), learned.mask, learned.gradients
    assert near[22, 12] == 255 and near[8, 12] == 255  # the pip's centre, the ring's hole
    assert near[:, :3].max() == 0  # the left edge, where the card above lies
    cluttered = _gradients(cv2.GaussianBlur(_with_neighbour(_index()), (0, 0), 0.8))
    plain = float(clean @ cluttered / (np.linalg.norm(clean) * np.linalg.norm(cluttered)))
    assert plain < 0.9
    assert _fit(clean, cluttered, mask) > 0.98
    other = _gradients(cv2.GaussianBlur(_index("bar"), (0, 0), 0.8))
    assert _fit(clean, other, mask) < 0.7


def test_candidates_are_compared_on_the_same_pixels() -> None:
    # A club's pip holds a spade's shape and more: looked at only near the spade's glyph, a
    # club would match the spade; near both glyphs, the lobes that stick out count.
    spade = np.zeros((30, 30), np.float32)
    cv2.circle(spade, (15, 17), 5, 1.0, -1)
    club = spade.copy()
    cv2.circle(club, (15, 5), 3, 1.0, -1)
    cv2.line(club, (15, 5), (15, 14), 1.0, 1)
    learned_spade, learned_club = (_Part.of(cv2.GaussianBlur(p, (0, 0), 0.8))
                                   for p in (spade, club))
    seen = learned_club.gradients
    assert _fit(learned_spade.gradients, seen, learned_spade.mask) > 0.9
    both = np.maximum(learned_spade.mask, learned_club.mask)
    assert (_fit(learned_club.gradients, seen, both)
            - _fit(learned_spade.gradients, seen, both)) > 0.15


def _rank_part(text: str) -> np.ndarray:
    """A rank glyph in the close comparison's rank window (40 x 28), blurred as learned."""
    part = np.zeros((28, 40), np.uint8)
    cv2.putText(part, text, (11, 23), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 255, 2, cv2.LINE_AA)
    return cv2.GaussianBlur(part.astype(np.float32) / 255, (0, 0), 0.8)


def test_each_finalist_is_judged_in_its_own_alignment() -> None:
    # An 8 seen through a tilted phone (squeezed and sheared), with a 3 and an 8 as finalists:
    # aligned to the 3, the sample's 8 is bent to fit a 3; aligned to the 8 (from the 3's
    # alignment, in a few steps), it fits the 8 as the photo shows it.
    three, eight = _Part.of(_rank_part("3")), _Part.of(_rank_part("8"))
    tilt = np.array([[0.86, 0.12, 4.0], [0.0, 0.95, 1.5]], np.float32)
    sample = cv2.warpAffine(eight.shape, tilt, (40, 28), borderMode=cv2.BORDER_REPLICATE)
    near = np.maximum(three.mask, eight.mask)
    to_three = _aligned(three, sample, near, None, 0)
    to_eight = _aligned(eight, sample, near, to_three.warp, 0)
    assert to_three.warp is not None and to_eight.warp is not None
    assert not to_three.sure and to_eight.sure
    in_threes_frame = _fit(eight.gradients, to_three.gradients, near)
    in_its_own = _fit(eight.gradients, to_eight.gradients, near)
    assert in_its_own > 0.95
    assert in_its_own - in_threes_frame > 0.03
    assert in_its_own - _fit(three.gradients, to_eight.gradients, near) > 0.2


def test_an_alignment_too_large_to_correct_the_frame_is_refused() -> None:
    # An alignment can bend a V onto a thin 1 (stretch it twice as wide and move it a third of
    # a frame unit, as OpenCV's forward-additive ECC did): no frame read from two marks is
    # that far off, so such a warp is no correction and the V is compared as it was sampled.
    bend = np.array([[2.12, -0.32, -15.5], [0.29, 0.96, -4.86]])
    assert _too_far(_correction(bend, 0))
    one, vee = _Part.of(_rank_part("1")), _Part.of(_rank_part("V"))
    near = np.maximum(one.mask, vee.mask)
    to_one = _aligned(one, vee.shape, near, None, 0)
    assert to_one.warp is None or not _too_far(_correction(to_one.warp, 0))
    assert not to_one.sure
    to_vee = _aligned(vee, vee.shape, near, to_one.warp, 0)
    assert to_vee.sure
    assert (_fit(vee.gradients, to_vee.gradients, near)
            - _fit(one.gradients, to_one.gradients, near)) > 0.3
    # A small correction is kept.
    moved = cv2.warpAffine(one.shape, np.float32([[1, 0, 3], [0, 1, 0]]), (40, 28),
                           borderMode=cv2.BORDER_REPLICATE)
    assert _aligned(one, moved, one.mask, None, 0).warp is not None
    assert not _too_far(_correction(np.array([[1.0, 0.0, 3.0], [0.0, 1.0, 0.0]]), 0))


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_each_cards_best_template_is_found_among_its_own(data: st.DataObject) -> None:
    cards = data.draw(st.integers(1, 8))
    templates = data.draw(st.integers(0, 20))
    rows = data.draw(st.integers(0, 4))
    owner = np.array(data.draw(st.lists(st.integers(0, cards - 1), min_size=templates,
                                        max_size=templates)), np.int32)
    levels = st.sampled_from([-0.5, 0.0, 0.25, 0.75, 1.0])  # few levels: ties happen
    scores = np.array(data.draw(st.lists(st.lists(levels, min_size=templates,
                                                  max_size=templates),
                                         min_size=rows, max_size=rows)),
                      np.float32).reshape(rows, templates)
    best, which = _per_card(scores, owner, cards)
    for card in range(cards):
        own = np.nonzero(owner == card)[0]
        if not len(own):
            assert (best[:, card] == -1.0).all()
            continue
        first = own[scores[:, own].argmax(axis=1)]
        assert (which[:, card] == first).all()
        assert (best[:, card] == scores[np.arange(rows), first]).all()


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_no_finalist_scores_above_the_bound_its_rank_sets(data: st.DataObject) -> None:
    # The close comparison leaves a guess once the bound on its score, from the rank's fits
    # alone, is below acceptance: no pip fit may then lift any finalist above that bound.
    count = data.draw(st.integers(1, 4))
    fit = st.floats(-1.0, 1.0, allow_nan=False, width=32)
    ink = st.lists(st.floats(0.0, 1.0, allow_nan=False, width=32), min_size=3, max_size=3)
    colours = np.array(data.draw(st.lists(ink, min_size=count, max_size=count)), np.float32)
    colour = np.array(data.draw(ink), np.float32)
    ranks = data.draw(st.lists(fit, min_size=count, max_size=count))
    pips = data.draw(st.lists(fit, min_size=count, max_size=count))
    bound = _score_bound({card: [ranks[card]] for card in range(count)}, colours, colour)
    results = _by_colour({card: [ranks[card], pips[card]] for card in range(count)}, colours,
                         colour, dict.fromkeys(range(count), 0))
    assert all(score <= bound + 1e-6 for score, *_ in results)
    # With every pip a perfect fit, the best finalist of the smallest penalty reaches it.
    if len({tuple(c) for c in colours.tolist()}) == 1:
        perfect = _by_colour({card: [ranks[card], 1.0] for card in range(count)}, colours,
                             colour, dict.fromkeys(range(count), 0))
        assert abs(perfect[0][0] - bound) < 1e-6


def test_finalists_that_share_a_rank_are_told_apart_by_their_pips() -> None:
    # A 3 of clubs whose club fits plainly better, but whose learned 3 fits the sample 0.1
    # worse than the 3 of spades' learned 3 (learned from another photo, a pixel off).
    shown = ((3, "sp"), (3, "cl"))
    fits = {0: [0.994, 0.938], 1: [0.894, 0.998]}
    colours = np.zeros((2, 3), np.float32)
    assert _by_colour(fits, colours, colours[0], {0: 0, 1: 1})[0][1] == 0  # the ranks decide
    results = _by_colour(_shared(fits, shown), colours, colours[0], {0: 0, 1: 1})
    assert [r[1] for r in results] == [1, 0]
    assert results[0][0] - results[1][0] >= 0.03  # a full lead
    assert results[0][3] == 0.994  # its poorer part is the shared rank's better fit


def test_only_a_part_two_finalists_share_is_shared() -> None:
    shown = ((3, "sp"), (8, "cl"), (5, "he"), None, None)
    fits = {0: [0.9, 0.5], 1: [0.4, 0.95], 2: [0.7, 0.3], 3: [0.99, 0.99], 4: [0.2, 0.1]}
    shared = _shared(fits, shown)
    assert shared[0] == [0.9, 0.5]  # no other 3, no other spade
    assert shared[1] == [0.4, 0.95]
    assert shared[2] == [0.7, 0.3]
    assert shared[3] == [0.99, 0.99] and shared[4] == [0.2, 0.1]  # jokers keep their own
    two_clubs = _shared({1: [0.4, 0.95], 5: [0.8, 0.6]}, (*shown, (9, "cl")))
    assert two_clubs == {1: [0.4, 0.95], 5: [0.8, 0.95]}


def test_a_card_whose_parts_bend_apart_ranks_lower_its_score_left_as_it_is() -> None:
    # A spade read as a club only when the pip is squeezed 19% more than the rank: the oracle
    # (its pip a spade, aligned as its rank is) wins by the bend, though its pip fits 0.01 less.
    straight = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    squeezed = np.array([[1.0, 0.0, 0.0], [0.0, 0.81, 0.0]])
    bent = {0: _bend([straight, straight]), 1: _bend([straight, squeezed])}
    assert bent[0] < BEND_FREE < bent[1]
    fits = {0: [0.943, 0.931], 1: [0.943, 0.941]}
    colours = np.zeros((2, 3), np.float32)
    costs = {card: BEND_COST * max(0.0, b - BEND_FREE) for card, b in bent.items()}
    assert _by_colour(fits, colours, colours[0], {0: 0, 1: 1})[0][1] == 1
    results = _by_colour(fits, colours, colours[0], {0: 0, 1: 1}, costs)
    assert [r[1] for r in results] == [0, 1]
    # Which card it is, not whether it is one: the scores and poorer parts are left as they are
    # (the sure reading of an oracle then leads the cross by nothing, and is doubted).
    assert (results[0][0], results[1][0]) == (0.937, 0.942)
    assert results[1][3] == 0.941


def test_a_card_made_of_one_finalists_rank_and_anothers_suit_is_compared_too() -> None:
    codes = ["6he", "5di", "6di", "5he", "6sp", "jk-red", "boss"]
    shown = tuple(_rank_and_suit(code) for code in codes)
    card_of = {s: c for c, s in enumerate(shown) if s is not None}
    # A blurred 6 of diamonds read as nearest a 6 of hearts and a 5 of diamonds.
    assert _crosses((0, 1), shown, card_of) == (2, 3)
    assert _crosses((0, 1, 2, 3), shown, card_of) == ()  # all there already
    assert _crosses((0, 4), shown, card_of) == ()  # one rank, and no 6 in another suit held
    assert _crosses((4, 1), shown, card_of) == (2,)  # no 5 of spades in the profile
    assert _crosses((5, 6, 1), shown, card_of) == ()  # jokers and the Boss show no suit
