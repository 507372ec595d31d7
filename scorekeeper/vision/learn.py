"""Learning one card from a straight, upright picture of it (``CANON_W`` x ``CANON_H``).

The corner index is found as the ink marks in the top-left corner: the top-most is the rank
(with any mark of its height beside it), the nearest mark right below it the suit pip. Each
rank mark (and all of them together) anchors an index frame; patches are sampled in that frame
from the card as it is and as seen through a tilted phone. A corner that shows one mark and
nothing below it (some jokers' star) is learned in a frame of that mark alone
(``lone_points``), upright on the card.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.cards import RANK_NAMES, SUIT_PLURALS, Card
from scorekeeper.vision.errors import NoIndexFoundError
from scorekeeper.vision.features import (
    CANON_CORNERS,
    CANON_H,
    CANON_W,
    GLYPH_GROW,
    INK_LEVEL,
    PATCH_H,
    PATCH_W,
    STEP,
    Blob,
    FloatImage,
    GlyphTemplates,
    Image,
    Mask,
    affine_variants,
    blur_for_step,
    channel_max,
    channel_min,
    describe,
    filled_area,
    frame_matrix,
    index_glyph_mask,
    index_glyphs,
    ink_blobs,
    ink_colour,
    inkness,
    lone_points,
    patch_matrix,
    sample_patch,
)
from scorekeeper.vision.profile import CardModel, empty_model

#: The opening (pixels on the canonical card) that parts a pip from court art it touches by a
#: thin line (a sword's point under a king's heart), tried after every level.
INDEX_OPENING: Final = 3
#: Ink levels (darkest normalised channel below this) at which the index is looked for, each
#: with the opening applied first (pixels, 0 for none): the usual level, darker ones (where
#: the index touches court art, thinner ink comes apart), a paler one (a pale ink near the
#: usual level comes apart into specks), and last the usual level opened.
INDEX_LEVELS: Final = ((INK_LEVEL, 0), (0.4, 0), (0.28, 0), (0.7, 0),
                       (INK_LEVEL, INDEX_OPENING))
#: The smallest suit pip of an index (fraction of the card's width): a smaller "pip" is a
#: speck of a pale glyph. On 35 decks' cards learned right, the smallest was 0.07.
PIP_MIN: Final = 0.055
#: Where the rank of a corner index ends at the latest (fractions of the card's width, height).
RANK_BOX: Final = (0.34, 0.42)
#: A mark beside the rank's top mark is another part of the rank (the 0 of 10) only if it is
#: less than this many times as tall (a large pip printed beside the rank is taller).
RANK_PARTS: Final = 1.25
#: Where the suit pip below it ends at the latest (fraction of the card's height).
PIP_BOTTOM: Final = 0.55
#: The widest gap between the rank and the pip below it, in rank heights.
PIP_GAP: Final = 0.8
#: A mark less than this many times as tall as the mark right below it is no rank: a speck over
#: a glyph. A card photographed inside a dark edge (taped, worn, a dark border) is straightened
#: a little inside its corner, and a speck of that edge or a line of the frame round a court's
#: picture may lie above the rank: taken for the rank, the rank was learned for the pip (5 of
#: the 20 cards of a real deck's calibration photos, bench/DATA.md). On 11 tuned and probe
#: decks' cards learned right, the rank was at least 0.69 times as tall as its pip (a joker's
#: word over its star), a suit's rank at least 0.82; those specks 0.29-0.35 times the rank.
#: The rank is read below the speck; a level with no speck over it is preferred (a pale 5's
#: flag comes apart from its body at the usual level and is whole at a paler one).
RANK_TALL: Final = 0.5
#: The most the line from the rank down to its pip leans from the card's upright (degrees).
#: On the cards of 41 probe decks learned right it leant at most about 16 degrees. A pale
#: four-colour 9 of spades whose pip was too faint for the usual ink level took a piece of
#: the large pip beside its rank for the index pip, 47 degrees aside: learned askew, that
#: card was never read.
PIP_LEAN: Final = 35.0
#: A pip with another mark this close (pixels of the canonical card, box to box) may be a
#: piece of itself: a pip drawn in a thin stroke (a null's ring and bar) comes apart at the
#: usual ink level, and the piece nearest the rank was learned for the pip, its centre a
#: quarter of the ring off. The other levels are tried for a pip that stands alone.
PIECE_GAP: Final = 2
#: A rank mark whose box is within ``SAME_BOX`` of the pip's in width and height (a fraction
#: of the larger, or a pixel) and whose ink covers the pip's, box on box, with an intersection
#: over union of at least ``SAME_SHAPE`` is the same glyph as the pip, not a rank: two of the
#: body's pips of a card that prints its rank alone in a far corner (KDE's oxygen decks: a 9 of
#: diamonds was learned by two of its diamonds, and a 7 and a 3 of diamonds were read for it,
#: for certain).
SAME_BOX: Final = 0.15
SAME_SHAPE: Final = 0.8
#: A corner index starts near the card's top edge: its rank's top lies at most this many
#: times the rank-to-pip distance below it. On the cards of 53 tuned and probe decks learned
#: from their index, 0.9 at most (a joker's word); marks of a picture taken for an index (a
#: Swiss jack's, a jester's cap, the frame of a KDE court) lay 1.5 to 4.9 times their distance
#: down. Such a card is learned by its picture (``learn_picture``) and read where it shows.
CORNER_DEPTH: Final = 1.4
#: Width of the card rim (fraction of the card width) treated as blank.
EDGE_MARGIN: Final = 0.03
#: Card white, learning a card: every channel of the normalised card over ``WHITE_LEVEL`` (the
#: strict white ``normalise_card`` divides by), and its channels within ``WHITE_SPREAD`` of each
#: other; ink outside the white's convex hull is blanked where that hull holds ``WHITE_HULL`` of
#: the card or more (``_outside_white``).
WHITE_LEVEL: Final = 0.7
WHITE_SPREAD: Final = 0.25
WHITE_HULL: Final = 0.5
#: Where a lone corner mark (a joker's star with nothing below it) lies at the latest, and
#: how large it is at the least (fractions of the card's width, height; of its width).
LONE_BOX: Final = (0.3, 0.2)
LONE_MIN: Final = 0.08
#: ... and how near the corner for its size: its box at most this many times its unit (the
#: square root of its area, holes filled: ``filled_area``) from the card's top and left (as
#: ``CORNER_DEPTH`` for an index). On 30 tuned and probe decks the jokers' stars lay within
#: 1.9 units of the corner; arcs of a jester's cap taken for one, 6.4 and 7.8.
LONE_DEPTH: Final = 3.0
#: ... and how large at the most (of the card's width) before the darker levels are searched
#: for an index: larger is court art reaching into the corner, not a star.
LONE_MAX: Final = 0.3
#: ... and how little ink lies right below it, where a rank's pip would (share of the box as
#: wide as the mark and ``PIP_GAP`` of its height tall): on 6 themes' jokers a star has 1% at
#: most there, a rank over its pip 28% at least.
LONE_BELOW: Final = 0.1
#: A mark that could be a pip right below it at this fainter ink level makes it a rank too:
#: a thin pale pip (a grey null's slashed circle) comes apart at the usual level and is
#: whole at this one (``_faint_pip_below``).
LONE_FAINT: Final = 0.7
#: A card whose index is not found on its own is learned in a learned card's index frame
#: where its corner there correlates at least this well with the learned cards of its rank
#: (around their rank) and of its suit (around their pip) (``learn_from_deck``). On 15 tuned
#: and probe decks, each of 988 learned suited cards left out in turn found such a frame at
#: 0.83 or better in 99 cases of 100 (tango's jacks, drawn apart from suit to suit, at 0.61 to
#: 0.7); the Swiss pattern's courts, which show no index, fit 0.64 at most.
LIKE_DECK_FIT: Final = 0.7
#: ... and with its suit's pip alone, where no card of its rank is learned. With every card
#: of its rank left out, the 208 suited cards of three tuned decks' calibration photos found
#: their suit's pip at 0.99 or better (of four probe decks' drawn cards, 0.97; a pip that a
#: bar joins to its rank, 0.94); the Swiss courts' pictures show a pip-like shape there at up
#: to 0.86.
LIKE_SUIT_FIT: Final = 0.9
#: ... the ``REFINED`` best frames each moved by up to ``REFINE_SHIFT`` canonical pixels and
#: scaled by each of ``REFINE_SCALES``.
REFINED: Final = 3
#: A card learned by its picture alone (``learn_picture``) shows at least this share of its
#: pixels ink (inkness over ``PICTURE_INK_LEVEL``): a blank card shows no picture to know it
#: by. The least inked cards of four looked-at decks (a grey-faced two, an ace) show 0.025.
PICTURE_INK: Final = 0.01
PICTURE_INK_LEVEL: Final = 0.3
REFINE_SHIFT: Final = 3
REFINE_SCALES: Final = (0.94, 0.97, 1.0, 1.03, 1.06)


def normalise_card(card: Image) -> FloatImage:
    """Divide a straight card picture by its own white, per channel and locally (so a shadow
    or a light gradient across the card cancels out)."""
    f = card.astype(np.float32) / 255.0
    white = np.percentile(f.reshape(-1, 3), 90, axis=0).astype(np.float32)
    est = np.broadcast_to(white, f.shape)
    sigma = 0.06 * card.shape[1]
    # Twice: first with a lax idea of "white" that takes shadowed white in, then a strict one.
    for level in (0.35, WHITE_LEVEL):
        weight = (channel_min(f / np.maximum(est, 0.05)) > level).astype(np.float32)
        den = cv2.GaussianBlur(weight, (0, 0), sigma)
        num = cv2.GaussianBlur(f * weight[..., None], (0, 0), sigma)
        est = np.where(den[..., None] > 0.05, num / np.maximum(den, 1e-6)[..., None], est)
    out: FloatImage = (f / np.maximum(est, 0.05)).astype(np.float32)
    return out


def find_index(norm: FloatImage, art_pip: bool = True,
               levels: tuple[tuple[float, int], ...] = INDEX_LEVELS,
               whole_at: tuple[tuple[float, int], ...] = ()) -> tuple[Blob, list[Blob]]:
    """The pip and rank marks of the top-left index of a normalised canonical card.

    The rank is the top-most mark near the corner, with any marks beside it (the 1 and 0 of
    10); the pip is the nearest mark right below the rank. Where the index touches court art
    at the usual ink level, darker levels are tried (thinner ink comes apart), then a paler
    one (a pale ink that came apart into specks too small for a pip), and last the usual level
    opened (``INDEX_OPENING``: a pip joined to the art by a thin line comes apart). With
    ``art_pip``, a rank with no pip close below it takes the nearest mark of the art below it
    in the index's usual box for one. A pip with another mark close beside it (``PIECE_GAP``)
    is taken only where no level shows one standing alone (of ``levels``, then of
    ``whole_at``, tried only for that). A rank that is the same glyph as its pip
    (``_same_glyph``) is no index: two of the body's pips, one above the other."""
    error: NoIndexFoundError | None = None
    in_pieces: tuple[Blob, list[Blob]] | None = None
    for level, opening in levels:
        try:
            pip, ranks, alone = _find_index(norm, level, opening, art_pip)
        except NoIndexFoundError as exc:
            error = error or exc
            continue
        if alone:
            return pip, ranks
        in_pieces = in_pieces or (pip, ranks)
    if in_pieces is not None:
        for level, opening in whole_at:
            with contextlib.suppress(NoIndexFoundError):
                pip, ranks, alone = _find_index(norm, level, opening, art_pip)
                if alone:
                    return pip, ranks
        return in_pieces
    assert error is not None
    raise error


def _corner_ink(norm: FloatImage, level: float, opening: int = 0) -> tuple[Mask, int]:
    """Where a normalised canonical card is ink at ``level`` (opened by ``opening`` pixels), its
    rim (the margin returned, in pixels) left out."""
    ink = inkness(norm) > 1.0 - level
    if opening:
        ink = cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_OPEN, cv2.getStructuringElement(
            cv2.MORPH_ELLIPSE, (opening, opening))) > 0
    margin = round(0.015 * norm.shape[1])
    ink[:margin, :] = ink[-margin:, :] = False
    ink[:, :margin] = ink[:, -margin:] = False
    return ink, margin


def _find_index(norm: FloatImage, level: float, opening: int,
                art_pip: bool) -> tuple[Blob, list[Blob], bool]:
    """The pip and rank marks at one ink level, and whether the index stands alone: no other
    mark within ``PIECE_GAP`` of the pip, no speck over the rank (``RANK_TALL``: the rank is
    then read below it)."""
    h, w = norm.shape[:2]
    ink, margin = _corner_ink(norm, level, opening)
    marks = [
        b for b in ink_blobs(ink, min_area=6)
        if b.x + b.w <= RANK_BOX[0] * w and b.y + b.h <= PIP_BOTTOM * h and b.x < 0.22 * w
        # not a piece of the card's printed rim or rounded corner:
        and (min(b.x, b.y) > margin or min(b.w, b.h) >= 0.06 * w)
        and b.size >= 0.03 * w and min(b.w, b.h) >= 0.02 * w
    ]
    in_box = [b for b in marks if b.y + b.h <= RANK_BOX[1] * h]
    below = [(b, _glyph_under_speck(b, marks)) for b in in_box]
    candidates = [b for b, glyph in below if glyph is None]
    under_specks = [glyph for _, glyph in below if glyph is not None]
    if not candidates or len(marks) < 2:
        raise NoIndexFoundError(
            "no corner index (rank above suit) found in the card's top-left corner"
        )
    highest = min(candidates, key=lambda b: b.y)
    # A large pip printed beside the rank may reach higher than the rank: where the top-most
    # mark has no pip below it, a smaller mark beside it is tried as the rank.
    tops = [highest] + sorted(
        (b for b in candidates if b is not highest and b.size < highest.size
         and b.y < highest.y + highest.h), key=lambda b: b.x + b.y)
    for top in tops:
        found = _index_below(top, in_box, marks, w, art_pip)
        if (found is not None and _at_corner(*found)
                and not any(_same_glyph(ink, r, found[0]) for r in found[1])):
            pip, ranks = found
            # A speck over the rank may be a piece of it (a pale 5's flag): a level where none
            # is is preferred, as one where the pip stands alone.
            return pip, ranks, not any(
                _touching(pip, b) for b in marks if b is not pip and all(b is not r for r in ranks)
            ) and not any(g is r for g in under_specks for r in ranks)
    raise NoIndexFoundError("the card's corner shows a rank but no suit pip below it")


def _at_corner(pip: Blob, ranks: list[Blob]) -> bool:
    """Whether an index of ``pip`` and ``ranks`` starts near the card's top edge: its rank's
    top at most ``CORNER_DEPTH`` times the rank-to-pip distance below it.

    >>> pip = Blob(np.array([20.0, 60.0]), 14, 54, 12, 12, 100)
    >>> [_at_corner(pip, [Blob(np.array([20.0, 40.0]), 14, y, 12, 16, 120)]) for y in (20, 32)]
    [True, False]
    """
    depth = float(np.linalg.norm(pip.centroid - _joint_centroid(ranks)))
    return min(r.y for r in ranks) <= CORNER_DEPTH * depth


def _same_glyph(ink: Mask, a: Blob, b: Blob) -> bool:
    """Whether two marks of an ink mask are one glyph printed twice: boxes of about one size
    (``SAME_BOX``), their ink alike box on box (``SAME_SHAPE``).

    >>> ink = np.zeros((40, 20), bool); ink[2:10, 2:10] = ink[20:28, 3:11] = True
    >>> ink[30:38, 12:20] = True; ink[30:34, 12:16] = False
    >>> top, below, notched = (Blob(np.zeros(2), x, y, 8, 8, 0) for x, y in
    ...                        ((2, 2), (3, 20), (12, 30)))
    >>> _same_glyph(ink, top, below), _same_glyph(ink, top, notched)
    (True, False)
    """
    if (abs(a.w - b.w) > max(1.0, SAME_BOX * max(a.w, b.w))
            or abs(a.h - b.h) > max(1.0, SAME_BOX * max(a.h, b.h))):
        return False
    w, h = min(a.w, b.w), min(a.h, b.h)
    first = ink[a.y:a.y + h, a.x:a.x + w]
    second = ink[b.y:b.y + h, b.x:b.x + w]
    union = int((first | second).sum())
    return union > 0 and int((first & second).sum()) >= SAME_SHAPE * union


def _glyph_under_speck(mark: Blob, marks: list[Blob]) -> Blob | None:
    """The mark that would be the pip of a rank ``mark`` where it is more than 1 /
    ``RANK_TALL`` times as tall: ``mark`` is then a speck over that glyph, not a rank.

    >>> speck = Blob(np.array([8.0, 8.0]), 5, 5, 6, 6, 36)
    >>> rank = Blob(np.array([12.0, 23.0]), 4, 13, 17, 20, 200)
    >>> _glyph_under_speck(speck, [speck, rank]) is rank, _glyph_under_speck(rank, [speck, rank])
    (True, None)
    """
    pip = _pip_below(marks, [mark], PIP_GAP)
    return pip if pip is not None and mark.h < RANK_TALL * pip.h else None


def _touching(a: Blob, b: Blob) -> bool:
    """Whether two marks' boxes lie within ``PIECE_GAP`` of each other.

    >>> ring = Blob(np.zeros(2), 12, 47, 13, 16, 25)
    >>> [_touching(ring, Blob(np.zeros(2), x, 48, 6, 7, 10)) for x in (26, 28)]
    [True, False]
    """
    return (max(b.x - (a.x + a.w), a.x - (b.x + b.w)) <= PIECE_GAP
            and max(b.y - (a.y + a.h), a.y - (b.y + b.h)) <= PIECE_GAP)


def _index_below(top: Blob, in_box: list[Blob], marks: list[Blob], w: int,
                 art_pip: bool) -> tuple[Blob, list[Blob]] | None:
    """The pip and rank marks of an index whose rank's top mark is ``top``, or None."""
    # The rank's marks sit side by side (the 1 and 0 of 10), no wider apart than a glyph;
    # court art beside the index is not part of it. A large pip printed beside the rank
    # looks like a second rank mark, so the rank alone is tried where that leaves no pip.
    beside_top = [top]
    for b in sorted(in_box, key=lambda m: m.x):
        beside = min(b.y + b.h, top.y + top.h) - max(b.y, top.y) > 0.5 * min(b.h, top.h)
        near = any(min(abs(b.x - (r.x + r.w)), abs(r.x - (b.x + b.w))) < 0.6 * top.h
                   for r in beside_top)
        if b is not top and beside and near and b.h < RANK_PARTS * top.h:
            beside_top.append(b)
    tries: list[tuple[list[Blob], float | None]] = [(beside_top, PIP_GAP), ([top], PIP_GAP)]
    for ranks, gap in tries + ([(beside_top, None)] if art_pip else []):
        pip = _pip_below(in_box if gap is None else marks, ranks, gap)
        # (The art's mark taken for a pip may be any size: the card is learned with a doubt.)
        if pip is not None and (gap is None or pip.size >= PIP_MIN * w):
            return pip, ranks
    return None


def _pip_below(marks: list[Blob], ranks: list[Blob], gap: float | None) -> Blob | None:
    """The suit pip of an index whose rank is ``ranks``: the nearest mark below the rank,
    at most ``gap`` rank heights below it (if given), no further to the side than the rank is
    wide and (if ``gap`` is given) leaning at most ``PIP_LEAN`` from straight below it."""
    left = min(b.x for b in ranks)
    right = max(b.x + b.w for b in ranks)
    bottom = max(b.y + b.h for b in ranks)
    height = ranks[0].h  # the top mark's
    rank = _joint_centroid(ranks)
    lean = math.tan(math.radians(PIP_LEAN))
    below = [b for b in marks if all(b is not r for r in ranks)
             and bottom - 0.2 * height <= b.y
             and (gap is None or b.y <= bottom + gap * height)
             and left - (right - left) <= b.centroid[0] <= right + (right - left)
             and (gap is None or abs(b.centroid[0] - rank[0]) <= lean * (b.centroid[1] - rank[1]))]
    return min(below, key=lambda b: b.y) if below else None


def _joint_centroid(marks: list[Blob]) -> npt.NDArray[np.float64]:
    """The centroid of several marks taken together (each weighted by its area).

    >>> a, b = Blob(np.array([0.0, 0.0]), 0, 0, 1, 1, 1), Blob(np.array([4.0, 0.0]), 0, 0, 1, 1, 3)
    >>> _joint_centroid([a, b]).tolist()
    [3.0, 0.0]
    """
    areas = np.array([m.area for m in marks], np.float64)
    out: npt.NDArray[np.float64] = (
        (np.stack([m.centroid for m in marks]) * areas[:, None]).sum(0) / areas.sum())
    return out


def learn_card(code: str, card: Image) -> CardModel:
    """Learn one card from its straight, upright canonical picture (BGR, CANON_H x CANON_W)."""
    if card.shape[:2] != (CANON_H, CANON_W):
        card = cv2.resize(card, (CANON_W, CANON_H), interpolation=cv2.INTER_AREA)
    return learn_normalised(code, normalise_card(card))


def learn_normalised(code: str, norm: FloatImage) -> CardModel:
    """Learn one card from its canonical picture already divided by its white
    (``normalise_card``)."""
    # A suited card always shows a rank over its pip: only a joker, the Boss or the null may
    # show a lone mark instead.
    norm, pip, origin, anchors, lone = _index_frames(norm, not Card.parse(code).is_natural)
    return _learned(code, norm, origin, anchors, pip.size / CANON_W, lone)


def _learned(code: str, norm: FloatImage, origin: npt.NDArray[np.float64],
             anchors: list[npt.NDArray[np.float64]], pip_ratio: float, lone: bool) -> CardModel:
    """The model of a card whose index frames are known: the pip's (or lone mark's) centroid
    ``origin`` and each rank ``anchor`` on the normalised canonical card."""
    ink = _learned_ink(norm)
    centre = np.array([CANON_W / 2, CANON_H / 2])
    first = frame_matrix(origin, anchors[0])
    templates, corners, d_ratio, to_canon = [], [], [], []
    for anchor in anchors:
        d = float(np.linalg.norm(origin - anchor))
        source = blur_for_step(ink, STEP * d)
        for variant in affine_variants():
            inverse = np.linalg.inv(variant)
            p2 = variant @ (origin - centre) + centre
            a2 = variant @ (anchor - centre) + centre
            frame = frame_matrix(p2, a2)
            full = np.vstack([frame, [0, 0, 1]])
            back = np.eye(3)
            back[:2, :2] = inverse
            back[:2, 2] = centre - inverse @ centre
            to_canon.append((back @ full)[:2])
            m = (back @ np.vstack([patch_matrix(frame), [0, 0, 1]]))[:2]
            patch = cv2.warpAffine(source, m, (PATCH_W, PATCH_H),
                                   flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE)
            templates.append(patch.reshape(-1))
            distorted = (CANON_CORNERS - centre) @ variant.T + centre
            local = np.linalg.solve(full, np.hstack([distorted, np.ones((4, 1))]).T).T[:, :2]
            corners.append(local)
            d_ratio.append(d / CANON_W)
    described = describe(np.stack(templates).astype(np.float32))
    # The colour is read on the index's own glyphs in the first template (the first anchor,
    # untilted), as recognition reads it: over the whole window, or on all its glyphs, a court
    # picture reaching into it made a red jack's ink half black.
    glyphs = index_glyph_mask(described[0].reshape(PATCH_H, PATCH_W), GLYPH_GROW)
    colour = ink_colour(sample_patch(norm, first), sample_patch(ink, first) * glyphs)
    return CardModel(
        code=code,
        templates=described,
        corners=np.stack(corners).astype(np.float32),
        d_ratio=np.array(d_ratio, np.float32),
        colour=colour,
        pip_ratio=pip_ratio,
        to_canon=np.stack(to_canon).astype(np.float32),
        ink=np.round(ink * 255).astype(np.uint8),
        lone=lone,
    )


def learn_picture(code: str, norm: FloatImage) -> CardModel:
    """Learn a card by its picture alone, from its canonical picture divided by its white
    (``normalise_card``): for a card whose corner shows no index (the courts of a Swiss
    pattern, a joker drawn to its rim), read only where its face shows (``by_picture``,
    ``by_keypoints``). Raises NoIndexFoundError where the card shows too little picture to
    know it by (under ``PICTURE_INK`` of it ink: a blank card).

    >>> blank = np.ones((CANON_H, CANON_W, 3), np.float32)
    >>> learn_picture("Kcl", blank)
    Traceback (most recent call last):
    ...
    scorekeeper.vision.errors.NoIndexFoundError: no corner index (rank above suit) found in \
the card's top-left corner, and too little picture to know the card by: photograph the card's \
face, flat, in even light
    >>> blank[100:300, 60:200] = (0.2, 0.2, 0.8)
    >>> model = learn_picture("Kcl", blank)
    >>> model.picture_only, [round(v, 2) for v in model.colour.tolist()]
    (True, [1.0, 1.0, 0.25])
    """
    ink = _learned_ink(norm)
    if float((ink > PICTURE_INK_LEVEL).mean()) < PICTURE_INK:
        raise NoIndexFoundError("no corner index (rank above suit) found in the card's top-left "
                                "corner, and too little picture to know the card by: photograph "
                                "the card's face, flat, in even light")
    model = empty_model(code)
    return replace(model, colour=ink_colour(norm, ink),
                   ink=np.round(ink * 255).astype(np.uint8))


def _learned_ink(norm: FloatImage) -> FloatImage:
    """The inkness of a normalised canonical card as recognition sees it on a card: its rim
    blank (``_blank_rim``), and blank outside its white (``_outside_white``)."""
    return _outside_white(_blank_rim(inkness(norm)), norm)


def _outside_white(ink: FloatImage, norm: FloatImage) -> FloatImage:
    """``ink`` blanked outside the convex hull of the card's white, where that hull holds at
    least ``WHITE_HULL`` of the card: recognition reads ink only on card white and what it
    encloses, and a card edged by a dark band (tape, a printed border) found by its outer
    outline learned the band into its index (the queen of hearts read as the jack).

    >>> norm = np.ones((CANON_H, CANON_W, 3), np.float32); norm[:, :12] = 0.1
    >>> ink = inkness(norm)
    >>> round(float(ink[:, :11].max()), 2), float(_outside_white(ink, norm)[:, :11].max())
    (0.9, 0.0)
    """
    low, high = channel_min(norm), channel_max(norm)
    white: Image = ((low > WHITE_LEVEL) & (high - low < WHITE_SPREAD)).astype(np.uint8)
    points = cv2.findNonZero(cv2.morphologyEx(white, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)))
    if points is None:
        return ink
    hull = cv2.convexHull(points)
    if cv2.contourArea(hull) < WHITE_HULL * CANON_W * CANON_H:
        return ink  # a dark card (a light index on it), or art to the rim: leave it be
    inside: Image = np.zeros(ink.shape, np.uint8)
    cv2.fillConvexPoly(inside, hull, 1)
    out: FloatImage = ink * cv2.dilate(inside, np.ones((3, 3), np.uint8))
    return out


def _blank_rim(ink: FloatImage) -> FloatImage:
    """The card's rim reads as blank, as recognition blanks the table and the card edges."""
    rim = round(EDGE_MARGIN * CANON_W)
    ink[:rim, :] = 0.0
    ink[-rim:, :] = 0.0
    ink[:, :rim] = 0.0
    ink[:, -rim:] = 0.0
    return ink


def learn_from_deck(code: str, norm: FloatImage, peers: Sequence[CardModel]) -> CardModel:
    """Learn a suited card whose corner index was not found on its own (court art touching
    the rank or the pip joins them into one mark) in the index frame of one of the deck's
    learned cards: a deck prints every index alike, so the card's rank and pip lie where a
    learned card has its own. Of the learned cards' frames, on the card upright and turned
    round, the one kept is where the card's corner best looks like the learned cards of its
    rank (around their rank glyph) and of its suit (around their pip), each at least
    ``LIKE_DECK_FIT``; where no card of its rank is learned (every court of a rank may show
    its index alike), like those of its suit, at least ``LIKE_SUIT_FIT``. Raises
    NoIndexFoundError where none does (a court card that shows no index at all), or the deck
    has no learned card of the card's suit.

    >>> learn_from_deck("Kcl", np.ones((CANON_H, CANON_W, 3), np.float32), [])
    Traceback (most recent call last):
    ...
    scorekeeper.vision.errors.NoIndexFoundError: no corner index (rank above suit) found in \
the card's top-left corner: learn some of the deck's other clubs first, and it is looked for \
where they show theirs
    """
    card = Card.parse(code)
    unfound = "no corner index (rank above suit) found in the card's top-left corner"
    if card.suit is None:
        raise NoIndexFoundError(unfound)
    look = _DeckLook.of(code, peers)
    if look is None:
        raise NoIndexFoundError(f"{unfound}: learn some of the deck's other "
                                f"{SUIT_PLURALS[card.suit]} first, and it is looked for where "
                                "they show theirs")
    tried: list[tuple[float, int, npt.NDArray[np.float64]]] = []
    inks = [_learned_ink(turned) for turned in (norm, cv2.rotate(norm, cv2.ROTATE_180))]
    blurred: list[dict[float, FloatImage]] = [{}, {}]  # each way's ink, by blur step
    for way, ink in enumerate(inks):
        tried += [(look.fit(_patch(ink, frame, blurred[way])), way, frame)
                  for frame in look.frames]
    # The best few, each moved and scaled a little: the straightened card may sit a pixel or
    # two off the learned cards, and a court's index a little apart from the pip cards'.
    best = max(tried, key=lambda t: t[0])
    for _, way, frame in sorted(tried, key=lambda t: -t[0])[:REFINED]:
        for moved in _moved(frame):
            fit = look.fit(_patch(inks[way], moved, blurred[way]))
            if fit > best[0]:
                best = (fit, way, moved)
    if look.ranks is None and best[0] < LIKE_SUIT_FIT:
        raise NoIndexFoundError(f"{unfound}, nor where the deck's learned "
                                f"{SUIT_PLURALS[card.suit]} show theirs")
    if best[0] < LIKE_DECK_FIT:
        raise NoIndexFoundError(f"{unfound}, nor where the deck's learned {_plurals(card)} "
                                "show theirs")
    _, way, frame = best
    turned = norm if way == 0 else cv2.rotate(norm, cv2.ROTATE_180)
    origin = frame[:, 2].copy()
    anchor = frame @ np.array([0.0, -1.0, 1.0])
    return _learned(code, turned, origin, [anchor], look.pip_ratio, False)


def shows_its_suit(code: str, peers: Sequence[CardModel]) -> bool:
    """Whether the deck's learned cards, ``peers``, show where a suited card's index lies
    (some of its suit is learned with an index): only then is a card whose index is found
    nowhere known to show none.

    >>> from scorekeeper.vision.profile import empty_model
    >>> shows_its_suit("Kcl", [empty_model("2cl", d_ratio=0.1)]), shows_its_suit("Kcl", [])
    (True, False)
    """
    suit = Card.parse(code).suit
    return any(c.suit == suit for _, c in suited_peers(code, peers))


def suited_peers(code: str, peers: Sequence[CardModel]) -> list[tuple[CardModel, Card]]:
    """The suited cards of ``peers`` other than ``code`` learned by a rank-over-pip index, each
    with its card.

    >>> from scorekeeper.vision.profile import empty_model
    >>> [str(c) for _, c in suited_peers("Kcl", [empty_model("2cl", d_ratio=0.1),
    ...                                          empty_model("Khe"), empty_model("Kcl", 0.1)])]
    ['2cl']
    """
    return [(m, c) for m in peers
            if m.paired and m.code != code and (c := Card.parse(m.code)).suit is not None]


def _patch(ink: FloatImage, frame: npt.NDArray[np.float64],
           blurred: dict[float, FloatImage]) -> FloatImage:
    """An index patch of a card's ink in ``frame``, described (``describe``). The ink blurred
    for the frame's step is kept in ``blurred`` for the next frame of that size: the frames
    tried moved a pixel or two share it (the blur was two thirds of a deck's learning where
    most of its cards are learned so).

    >>> ink, blurred = np.zeros((CANON_H, CANON_W), np.float32), {}
    >>> frame = np.array([[12.0, 0.0, 30.0], [0.0, 12.0, 40.0]])
    >>> moved = frame + [[0.0, 0.0, 2.0], [0.0, 0.0, -1.0]]
    >>> _patch(ink, frame, blurred).shape, _patch(ink, moved, blurred).shape, len(blurred)
    ((720,), (720,), 1)
    """
    step = STEP * float(np.hypot(frame[0, 1], frame[1, 1]))
    source = blurred.get(step)
    if source is None:
        source = blurred[step] = blur_for_step(ink, step)
    out: FloatImage = describe(sample_patch(source, frame).reshape(1, -1))[0]
    return out


def _moved(frame: npt.NDArray[np.float64]) -> list[npt.NDArray[np.float64]]:
    """A frame moved by up to ``REFINE_SHIFT`` canonical pixels each way and scaled by each of
    ``REFINE_SCALES`` about its origin."""
    out = []
    for scale in REFINE_SCALES:
        for dx in range(-REFINE_SHIFT, REFINE_SHIFT + 1):
            for dy in range(-REFINE_SHIFT, REFINE_SHIFT + 1):
                moved = frame.copy()
                moved[:, :2] *= scale
                moved[:, 2] += (dx, dy)
                out.append(moved)
    return out


def deck_fit(model: CardModel, peers: Sequence[CardModel]) -> float | None:
    """How much a learned card's index looks like the deck's other learned cards of its rank
    (around their rank) and of its suit (around their pip): the poorer of the two best
    correlations (the pip's alone without learned cards of its rank); None for a card
    without a suit or a deck without learned cards of its suit.

    >>> from scorekeeper.vision.profile import empty_model
    >>> deck_fit(empty_model("Kcl"), [empty_model("Khe")]) is None  # no other club
    True
    """
    if Card.parse(model.code).suit is None or not model.paired:
        return None
    look = _DeckLook.of(model.code, peers)
    return None if look is None else look.fit(model.templates[0])


@dataclass(frozen=True, slots=True)
class _DeckLook:
    """What a card's index should look like by the deck's learned cards of its rank and of
    its suit: their rank rows and pip rows, the learned cards' index frames, and the pip size
    of its suit."""

    ranks: GlyphTemplates | None  # None: no card of its rank is learned
    pips: GlyphTemplates
    frames: tuple[npt.NDArray[np.float64], ...]
    pip_ratio: float

    @classmethod
    def of(cls, code: str, peers: Sequence[CardModel]) -> _DeckLook | None:
        card = Card.parse(code)
        suited = suited_peers(code, peers)
        ranks = [m for m, c in suited if c.rank == card.rank]
        suits = [m for m, c in suited if c.suit == card.suit]
        if not suits:
            return None
        frames = {m.to_canon[0].astype(np.float64).tobytes(): m.to_canon[0].astype(np.float64)
                  for m, _ in suited}
        return cls(_around_own_glyphs(ranks) if ranks else None, _around_own_glyphs(suits),
                   tuple(frames.values()), float(np.median([m.pip_ratio for m in suits])))

    def fit(self, patch: FloatImage) -> float:
        """The poorer of a described patch's best rank and best pip correlations, each around
        the learned cards' own glyphs (the pip's alone without learned cards of its rank)."""
        row = patch[None]
        pip = float(self.pips.correlate_part(row, 1).max())
        if self.ranks is None:
            return pip
        return min(float(self.ranks.correlate_part(row, 0).max()), pip)


def _around_own_glyphs(models: list[CardModel]) -> GlyphTemplates:
    """The learned cards' first templates, prepared for comparison around their own index
    glyphs (``index_glyph``)."""
    firsts = np.stack([m.templates[0] for m in models])
    return GlyphTemplates.of(firsts, own=index_glyphs(firsts))


def _plurals(card: Card) -> str:
    """"kings and clubs" for a king of clubs."""
    if card.rank is None or card.suit is None:
        return "cards"
    rank = RANK_NAMES[card.rank]
    return f"{rank}s and {SUIT_PLURALS[card.suit]}"


def _index_frames(norm: FloatImage, lone_ok: bool) -> tuple[
        FloatImage, Blob, npt.NDArray[np.float64], list[npt.NDArray[np.float64]], bool]:
    """Where a card's index is learned from: the card (turned round if its index shows only at
    the bottom right), the pip (or the lone mark), the frames' origin, the rank anchors, and
    whether the corner shows a lone mark.

    The origin is the pip's centroid; the anchors are each rank mark's centroid and, where the
    rank has several marks, their joint centroid. A corner with one mark and nothing below it
    (some jokers' star), where ``lone_ok``, is framed by that mark alone (``lone_points``,
    upright on the card)."""
    error: NoIndexFoundError | None = None
    both_ways = (norm, cv2.rotate(norm, cv2.ROTATE_180))
    # Rank over pip, else a lone mark, the card upright and then turned round; else a mark
    # larger than a star, likewise; else a rank with the art below it for a pip.
    for art_pip in (False, True):
        may_be_lone = lone_ok and not art_pip
        large: tuple[FloatImage, Blob] | None = None  # the first found
        for turned in both_ways:
            mark = None
            try:
                # (A star comes apart at the darker levels: they are tried only where a rank
                # over a pip is found at the usual level, its pip in pieces.)
                pip, ranks = find_index(turned, art_pip,
                                        INDEX_LEVELS[:1] if may_be_lone else INDEX_LEVELS,
                                        INDEX_LEVELS[1:] if may_be_lone else ())
            except NoIndexFoundError as exc:
                error = error or exc
                if not may_be_lone:
                    continue
                # A star is looked for before the darker levels (a pale star comes apart there
                # into specks that pass for a tiny rank over a tinier pip); a mark larger than
                # a star (court art reaching into the corner, an index below) only after
                # both ways round: a word index ("Joker") whose first letters blur into one
                # mark at the top may still show a rank over a pip turned round.
                mark = lone_mark(turned)
                if mark is None:
                    try:
                        pip, ranks = find_index(turned, art_pip, INDEX_LEVELS[1:])
                    except NoIndexFoundError:
                        larger = lone_mark(turned, most=None)
                        if larger is not None and large is None:
                            large = (turned, larger)
                        continue
            if mark is not None:
                return _lone_frames(turned, mark)
            anchors = [r.centroid for r in ranks]
            if len(ranks) > 1:
                anchors.append(_joint_centroid(ranks))
            return turned, pip, pip.centroid, anchors, False
        if large is not None:
            return _lone_frames(*large)
    assert error is not None
    raise error


def _lone_frames(norm: FloatImage, mark: Blob) -> tuple[
        FloatImage, Blob, npt.NDArray[np.float64], list[npt.NDArray[np.float64]], bool]:
    """``_index_frames`` of a card whose corner shows the lone ``mark``."""
    origin, anchor = lone_points(mark.centroid, math.sqrt(mark.area), np.array([0.0, 1.0]))
    return norm, mark, origin, [anchor], True


def lone_mark(norm: FloatImage, most: float | None = LONE_MAX) -> Blob | None:
    """The one mark a card's top-left corner shows when it shows no rank over a pip (a joker's
    star): the compact mark nearest the corner in ``LONE_BOX``, at least ``LONE_MIN`` of the
    card's width (and at most ``most`` of it, if given), with next to no ink right below it
    where a pip would be (``_without_frame``, ``_faint_pip_below``); its area is that of the
    mark with its holes filled (``filled_area``)."""
    h, w = norm.shape[:2]
    ink, margin = _corner_ink(norm, INK_LEVEL)
    compact = [b for b in ink_blobs(ink, min_area=6)
               if b.x < LONE_BOX[0] * w and b.y < LONE_BOX[1] * h and b.x > margin
               and b.y > margin
               and LONE_MIN * w <= b.size <= (math.inf if most is None else most) * w
               and 0.5 <= b.w / b.h <= 2.0]
    # Each with its holes filled (a ring's unit is its disc's), within ``LONE_DEPTH`` of its
    # units of the corner.
    marks = [m for m in (replace(b, area=filled_area(ink, b)) for b in compact)
             if max(m.x, m.y) <= LONE_DEPTH * math.sqrt(m.area)]
    if not marks:
        return None
    top = min(marks, key=lambda b: b.x + b.y)
    # Ink right below it, where a pip would be (even one that touches the art), makes it a
    # rank, not a lone mark; the frame a star is drawn inside (a ring joined to the card's
    # printed border) does not. So does a pale pip of thin strokes that comes apart at the
    # usual level, looked for whole at a fainter one.
    bottom = top.y + top.h
    below = _without_frame(ink, top, LONE_MAX * w)[bottom:bottom + round(PIP_GAP * top.h),
                                                   top.x:top.x + top.w]
    if not below.size or float(below.mean()) >= LONE_BELOW or _faint_pip_below(norm, top):
        return None
    return top


def _faint_pip_below(norm: FloatImage, top: Blob) -> bool:
    """Whether a mark that could be a pip lies right below ``top`` at the ``LONE_FAINT`` ink
    level: from ``PIP_MIN`` to ``LONE_MAX`` of the card's width across (larger is art), its
    top at most ``PIP_GAP`` of ``top``'s height below it, and under it. (``_pip_below``
    reaches a rank's width to either side: it took the art beside the Paris jokers' wide
    wheel for a pip.)"""
    w = norm.shape[1]
    bottom = top.y + top.h
    for b in ink_blobs(_corner_ink(norm, LONE_FAINT)[0], min_area=6):
        if (PIP_MIN * w <= b.size <= LONE_MAX * w
                and bottom - 0.2 * top.h <= b.y <= bottom + PIP_GAP * top.h
                and b.x < top.x + top.w and top.x < b.x + b.w):
            return True
    return False


def _without_frame(ink: Mask, mark: Blob, most: float) -> Mask:
    """An ink mask without the marks larger than ``most`` pixels across whose box holds
    ``mark``'s: the printed frame or art a star is drawn inside, not a pip below it.

    >>> m = np.zeros((30, 30), bool); m[1:29, 1] = m[1, 1:29] = True; m[5:9, 5:9] = True
    >>> m[12:16, 5:9] = True
    >>> int(_without_frame(m, Blob(np.zeros(2), 5, 5, 4, 4, 16), 20).sum())
    32
    """
    _, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    x, y, w, h = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
    frame = ((np.maximum(w, h) > most) & (x <= mark.x) & (y <= mark.y)
             & (x + w >= mark.x + mark.w) & (y + h >= mark.y + mark.h))
    frame[0] = True
    out: Mask = ~frame[labels]
    return out


def sharpness(norm: FloatImage) -> float:
    """How sharp a normalised canonical card's ink is: variance of the Laplacian of its inkness
    over the inkness variance (so faint gold ink and bold black ink score alike). Low means
    blurred."""
    ink = inkness(norm)
    lap: FloatImage = cv2.Laplacian(ink, cv2.CV_32F)
    return float(lap.var() / max(float(ink.var()), 1e-4))
