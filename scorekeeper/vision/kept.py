"""What recognition derives once from a deck profile and keeps while the profile lives: the
templates in their two groups, their glyphs, the close comparison's learned parts, and the
typical places of a card around its index.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.cards import Card
from scorekeeper.vision.features import (
    GLYPH_GROW,
    HU_MOMENTS,
    GlyphTemplates,
    grown,
    index_glyphs,
    mark_shape,
)
from scorekeeper.vision.profile import DeckProfile

if TYPE_CHECKING:
    from scorekeeper.vision.fine import _Part

#: Before the comparison, a pair of marks is kept only where its card could lie on the cards:
#: placed around the marks in one of this many typical places of the deck's cards around
#: their index (``_placements``) and shrunk to ``COARSE_REACH`` towards the index's corner,
#: at least ``PLACED_ON`` of a few points spread over it (``PLACED_GRID`` across and along)
#: lie within the card regions' convex hulls (a court's picture may fill its card to the rim).
PLACEMENTS: Final = 16
#: A learned index is a line of glyphs (a word such as "Joker" printed down the card) where its
#: rank and pip lie in one mark of the learned card's ink grown by this many canonical pixels
#: (1% of the card's width: the blur of a photo) that is ``CHAIN_SHAPE`` times longer than wide.
CHAIN_GROW: Final = 2
CHAIN_SHAPE: Final = 3.2
#: ... and at most this wide (frame units: about a glyph's width), not an index run into a
#: column of pips.
CHAIN_WIDTH: Final = 1.0


@dataclass(frozen=True)
class _Group:
    """The templates a kind of guess is compared with: a pair of marks with the cards whose
    corner shows a rank over a pip, a lone mark with those whose corner shows one mark."""

    lone: bool
    columns: npt.NDArray[np.int64]  # the templates' rows in the profile
    owner: npt.NDArray[np.int32]
    glyphs: GlyphTemplates
    own: GlyphTemplates  # around the index's own glyphs only


@dataclass(frozen=True)
class _Kept:
    """What recognition derives from a profile and keeps while the profile lives (the server
    reads every photo of a table against the same one). It holds no reference to the profile,
    so the profile (replaced when a table learns a card) and this go together."""

    groups: tuple[_Group, ...]  # the templates in their two groups (``_groups``)
    glyphs: npt.NDArray[np.uint8]  # each template's index glyphs grown by ``GLYPH_GROW``
    parts: dict[tuple[int, int, int], _Part]  # the close comparison's learned parts, by
    # (card, template, part), filled as photos need them
    shown: tuple[tuple[int, str] | None, ...]  # each card's rank and suit (``_rank_and_suit``)
    card_of: dict[tuple[int, str], int]  # and back
    placements: npt.NDArray[np.float64]  # typical places of a card around a pair of marks
    chains: tuple[tuple[int, float, float, float], ...] = ()  # the word indices (``_chains``)
    lone_shapes: npt.NDArray[np.float64] = field(  # the lone marks' (``features.mark_shape``)
        default_factory=lambda: np.zeros((0, HU_MOMENTS)))


_KEPT: weakref.WeakKeyDictionary[DeckProfile, _Kept] = weakref.WeakKeyDictionary()


def _kept(profile: DeckProfile) -> _Kept:
    """The work kept with ``profile`` (made on its first photo)."""
    if profile not in _KEPT:
        own = index_glyphs(profile.templates)
        glyphs = np.stack([grown(g, GLYPH_GROW) for g in own]) if len(own) else own
        shown = tuple(_rank_and_suit(code) for code in profile.codes)
        paired = profile.paired
        _KEPT[profile] = _Kept(_groups(profile, own), glyphs, {}, shown, {
            rank_and_suit: card for card, rank_and_suit in enumerate(shown)
            if rank_and_suit is not None and paired[card]},
            _placements(profile.corners[~profile.lone[profile.owner]]), _chains(profile),
            _lone_shapes(own[profile.lone[profile.owner]]))
    return _KEPT[profile]


def _lone_shapes(glyphs: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]:
    """The shapes (``features.mark_shape``) of the lone marks' templates' own glyphs
    (``features.index_glyph``), of those that show one.

    >>> star = np.zeros((2, 30, 24), np.uint8); star[0, 10:20, 8:16] = 1
    >>> _lone_shapes(star).shape
    (1, 4)
    """
    shown = [mark_shape(g) for g in glyphs if g.any()]
    return np.array(shown) if shown else np.zeros((0, HU_MOMENTS))


def _chains(profile: DeckProfile) -> tuple[tuple[int, float, float, float], ...]:
    """The cards whose index is a line of glyphs (``CHAIN_SHAPE``), as (card, where the line
    starts along the index's axis, its middle across it, its width), in the frame units of
    the card's first template (the rank at (0, -1), the pip at the origin)."""
    out = []
    grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * CHAIN_GROW + 1,) * 2)
    for card in np.nonzero(profile.paired)[0].tolist():
        template = int(np.nonzero(profile.owner == card)[0][0])
        to_canon = profile.to_canon[template].astype(np.float64)
        ink = (profile.ink[card] > 127).astype(np.uint8)
        _, labels = cv2.connectedComponents(cv2.dilate(ink, grow), connectivity=8)
        ends = to_canon @ np.array([[0.0, 0.0], [-1.0, 0.0], [1.0, 1.0]])
        at = [_label_near(labels, x, y) for x, y in ends.T]
        if at[0] == 0 or at[0] != at[1]:
            continue
        ys, xs = np.nonzero((labels == at[0]) & (ink > 0))
        back = cv2.invertAffineTransform(to_canon)
        frame = np.column_stack([xs, ys, np.ones(len(xs))]) @ back.T
        (x0, y0), (x1, y1) = frame.min(axis=0), frame.max(axis=0)
        if y1 - y0 >= CHAIN_SHAPE * (x1 - x0) and x1 - x0 <= CHAIN_WIDTH:
            out.append((card, float(y0), float(x0 + x1) / 2, float(x1 - x0)))
    return tuple(out)


def _label_near(labels: npt.NDArray[Any], x: float, y: float) -> int:
    """The commonest label other than 0 within ``CHAIN_GROW`` pixels of a point (a glyph's
    centre of mass, a J's say, may fall off its ink); 0 where there is none.

    >>> labels = np.zeros((9, 9), np.int32); labels[0:3, 0:3] = 4
    >>> _label_near(labels, 4.0, 4.0), _label_near(labels, 8.0, 8.0)
    (4, 0)
    """
    h, w = labels.shape
    r = CHAIN_GROW
    x0, y0 = min(w - 1, max(0, int(x))), min(h - 1, max(0, int(y)))
    near = labels[max(0, y0 - r):y0 + r + 1, max(0, x0 - r):x0 + r + 1]
    found = near[near > 0]
    return int(np.bincount(found).argmax()) if len(found) else 0


def _placements(corners: npt.NDArray[np.float32], k: int = PLACEMENTS) -> (
        npt.NDArray[np.float64]):
    """Typical places of a card around its index (at most ``k``, 4, 2; the most common
    first): the learned templates' card corners in their index's frame (T, 4, 2), gathered
    into ``k`` clusters, each at its members' mean (seeded by the corners farthest apart, so
    that the same profile always gives the same places).

    >>> near = np.array([[0, 0], [7, 0], [7, 10], [0, 10]], np.float32)
    >>> corners = np.stack([near, near + 0.2, near + 0.4, -near])
    >>> np.round(_placements(corners, 2)[:, 1], 3).tolist()  # the three alike, then the other
    [[7.2, 0.2], [-7.0, 0.0]]
    """
    flat = corners.reshape(len(corners), -1).astype(np.float64)
    if not len(flat):
        return np.zeros((0, 4, 2))
    seeds = [int(np.argmin(np.linalg.norm(flat - flat.mean(axis=0), axis=1)))]
    apart = np.linalg.norm(flat - flat[seeds[0]], axis=1)
    while len(seeds) < k and apart.max() > 0:
        seeds.append(int(apart.argmax()))
        apart = np.minimum(apart, np.linalg.norm(flat - flat[seeds[-1]], axis=1))
    centres = flat[seeds]
    for _ in range(10):
        label = np.argmin(((flat[:, None] - centres[None]) ** 2).sum(axis=2), axis=1)
        centres = np.stack([flat[label == j].mean(axis=0) if (label == j).any() else centres[j]
                            for j in range(len(centres))])
    order = np.argsort(-np.bincount(label, minlength=len(centres)), kind="stable")
    out: npt.NDArray[np.float64] = centres[order].reshape(-1, 4, 2)
    return out


def _rank_and_suit(code: str) -> tuple[int, str] | None:
    """The rank and suit a card's two fine parts show; None for a card without a suit (a
    joker, the Boss, the null: their parts are their own). A profile's codes are cards (it is
    refused when read otherwise).

    >>> _rank_and_suit("10cr"), _rank_and_suit("jk-gold")
    ((10, 'cr'), None)
    """
    card = Card.parse(code)
    return None if card.suit is None else (card.rank, card.suit)


def _groups(profile: DeckProfile, own: npt.NDArray[np.uint8]) -> tuple[_Group, ...]:
    """The profile's templates in their two groups, prepared for comparison around their
    glyphs (and around their index's own glyphs, ``own``: ``index_glyph`` of each)."""
    lone = profile.lone[profile.owner]
    groups = []
    for kind in (False, True):
        columns = np.nonzero(lone == kind)[0]
        if not len(columns):
            continue
        templates = profile.templates if len(columns) == len(lone) else (
            profile.templates[columns])
        groups.append(_Group(kind, columns, profile.owner[columns],
                             GlyphTemplates.of(templates, rough=True),
                             GlyphTemplates.of(templates, own[columns])))
    return tuple(groups)
