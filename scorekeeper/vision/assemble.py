"""From read guesses to cards: the best reading of each index, its outline, a second index of
one card folded into it, contests between readings, and confidence.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.vision.features import Blob
from scorekeeper.vision.fine import _Fine
from scorekeeper.vision.guesses import _Guess
from scorekeeper.vision.outlines import (
    CORNER_STEP,
    _canon_corners,
    _corner_exposed,
    _edges_shown_many,
    _lone_quad,
    _lone_rank,
    _mapped,
    _near_index,
    _on_cards,
    _on_cards_many,
    _quads,
)
from scorekeeper.vision.pictures import _picture_fits, _Pictures
from scorekeeper.vision.profile import DeckProfile
from scorekeeper.vision.scene import Scene

#: Lowest coarse score, less the colour difference, for a guess to be compared closely (the
#: coarse colour reading of a small or blurred index is rough; the close comparison decides).
CLOSE_LOOK: Final = 0.55
#: Lowest fine score (aligned correlation less the colour difference) to count as a card.
ACCEPT: Final = 0.7
#: An index read with less confidence than this is read again from up to ``RIVALS`` other
#: pairs of marks that share a mark with it (the best by coarse score), and the best close
#: score of them all wins: a rank's mark at another ink level, or another mark as its pip,
#: may frame the index better than the pair that came first (``_contest``).
CONTEST_BELOW: Final = 0.85
RIVALS: Final = 2
#: Below this coarse score a guess is compared closely only where its card, placed by the
#: marks' frame, shows that corner (``_may_lie``). On the 420 tuned and probe photos and the
#: 80 Aguilar photos every card read before is read as before, in 0.77-0.79 of the time; without
#: the exception one card was lost (its index's frame, refined by the close comparison, showed
#: the corner; the marks' did not).
CORNER_FIRST: Final = 0.7
#: A reading with no strength whose outline lies this much within a card read for certain,
#: its index on that card, is a misreading of that card's marks.
WITHIN_SURE: Final = 0.5
#: And this much within a card read with some strength, not for certain.
WITHIN_READ: Final = 0.75
#: A lone mark's guess is looked at closely from this coarse score (a star is a simple shape:
#: stars read from pips and art came to 0.81 on the probe decks, right ones to 0.77-0.99; in a
#: tight fan the card above clips a joker's wheel at its rim, and the rim's line crosses the
#: mark's window: two jokers of a looked-at fan came to 0.66 and 0.67, and 0.92 and 0.93 when
#: compared closely) ...
LONE_LOOK: Final = 0.65
#: ... and, under this coarse score, read only where its card lies wholly on card regions
#: (``outlines._lone_quad``): the round frame of a joker's picture, 0.73, was read as another
#: joker for certain, its card placed over the table, which only a sure reading's card may
#: reach.
LONE_WHOLE: Final = 0.75
#: ... and read from this close score (there, stars read from pips and art came to 0.89, right
#: ones to 0.93-0.99).
LONE_ACCEPT: Final = 0.9
#: ... or from this close score where a second lone mark, read as the same card from at least
#: as much, lies at another corner of its card (``_corroborated``): a joker's stars in a
#: blurred photo read at 0.85-0.9, and a star read from a pip or from art has no twin where the
#: joker's other star would be.
LONE_PAIRED: Final = 0.85
#: A lone mark's guess from this coarse score is read in turn with the pairs of marks, the
#: others after them.
LONE_PLAIN: Final = 0.85
#: A lone mark this far (a fraction of the card's size) outside a card of its reading is
#: still that card's other corner.
CORNER_SLACK: Final = 0.05
#: An index read where a card already read shows its own index mirrored (at the other end of
#: its top edge, or turned at the other end of its left edge), within this share of the
#: card's width, is another index of it.
MIRROR_NEAR: Final = 0.1
#: ... and of two outlines of such a card, the one whose picture shows along this share of
#: its width by its edge between the two indices is kept (``_edge_fit``).
EDGE_STRIP: Final = 0.3


@dataclass
class _Card:
    card: int
    score: float
    second: float
    second_card: int
    quad: npt.NDArray[np.float64]
    index_points: list[npt.NDArray[np.float64]] = field(default_factory=list)
    blobs: set[int] = field(default_factory=set)
    top: bool = False
    canon: npt.NDArray[np.float64] | None = None  # the quad's corners on the learned card
    worst: float = -1.0  # as ``_Guess.worst``


def _confidence(score: float, second: float, worst: float) -> float:
    """0..1 from the poorer of the two parts' fine scores and the lead over the runner-up.

    The poorer part, not the mean: a card the profile does not hold (refused at calibration,
    or from another deck) is read as its nearest learned card, which shares its rank or its
    pip exactly and differs in the other part. Measured on the tuned decks with a quarter of
    each profile's cards left out: those misreadings score up to 0.92 on their poorer part,
    while 5% of right readings score below 0.89 on it (half of those from 0.85 up); a club
    and a spade of one rank may lead each other by only 0.01."""
    lead = min(1.0, max(0.0, (score - second) / 0.03))
    return round(_strength(worst) * (0.6 + 0.4 * lead), 3)


def _strength(worst: float) -> float:
    """0..1: how surely a card is read, from its poorer part's fine score.

    >>> _strength(0.96), _strength(0.7)
    (1.0, 0.0)
    """
    return min(1.0, max(0.0, (worst - 0.75) / 0.2))


def _assemble(
    scene: Scene, blobs: list[Blob], parts: list[frozenset[int]], guesses: list[_Guess],
    profile: DeckProfile, fine: _Fine
) -> list[_Card]:
    # Lone marks that are not plainly one come last: most compact marks that look somewhat
    # like a star are a read card's rank or pip.
    ranked = sorted((g for g in guesses if g.score >= (LONE_LOOK if g.lone else CLOSE_LOOK)),
                    key=lambda g: (g.lone and g.score < LONE_PLAIN, -g.score))
    used: set[int] = set()
    cards: list[_Card] = []
    turns: dict[int, list[_Guess]] = {}
    for g in guesses:
        if g.lone:
            turns.setdefault(g.pip, []).append(g)
    judged: set[int] = set()
    coarse = {id(g): g.score for g in ranked if g.lone}  # before the close comparison
    pictures = _Pictures(profile)
    pairs = [g for g in ranked if not g.lone]
    may_lie = dict(zip((id(g) for g in pairs), _may_lie(
        scene, np.array([_mapped(g.frame, profile.corners[g.template]) for g in pairs]),
        np.array([g.score for g in pairs])).tolist(), strict=True))
    for n, g in enumerate(ranked):
        marks = parts[g.pip] | parts[g.anchor]
        if id(g) in judged or marks & used or (parts[g.pip] & parts[g.anchor] and not g.lone):
            continue
        # A lone mark is read once, in its best frame; its card lies the way that fits best.
        lone = turns.pop(g.pip, None) if g.lone else None
        if g.lone and lone is None:
            continue
        accept = LONE_PAIRED if g.lone else ACCEPT
        if not g.lone and not may_lie[id(g)]:
            continue
        fine.settle(g, accept)
        if g.score < accept:
            continue
        if not g.lone and _confidence(g.score, g.second, g.worst) < CONTEST_BELOW:
            g = _contest(g, ranked[n + 1:], parts, used, judged, fine, accept)
            marks = parts[g.pip] | parts[g.anchor]
        template = g.template
        quad: npt.NDArray[np.float64] | None
        if lone is not None:
            placed = _lone_placed(scene, blobs, g, lone, ranked[n + 1:], turns, parts, used,
                                  fine, profile, pictures, coarse)
            if placed is None:
                continue
            g, quad, template, marks = placed
        else:
            quad = next((q for q in _quads(g, profile)
                         if _on_cards(scene, q, g.score) and _corner_exposed(scene, q, g.score)),
                        None)
            if quad is None:
                continue
        point = blobs[g.pip].centroid
        used.update(marks)
        if g.lone and _another_corner(cards, g.card, quad, point, profile, template):
            continue
        if not g.lone and _mirrored_index(scene, pictures, cards, g.card, quad, point, profile,
                                          template):
            continue
        same = next((c for c in cards if _same_card(c, g.card, quad, point)), None)
        if same is not None:
            _add_reading(same, g.card, g.score, g.worst, quad, point)
            same.blobs.update((g.pip, g.anchor))
            continue
        cards.append(_Card(g.card, g.score, g.second, g.second_card, quad,
                           [blobs[g.pip].centroid], {g.pip, g.anchor},
                           canon=_canon_corners(profile, template), worst=g.worst))
    return cards


def _lone_placed(scene: Scene, blobs: list[Blob], g: _Guess, own: list[_Guess],
                 later: list[_Guess], turns: dict[int, list[_Guess]],
                 parts: list[frozenset[int]], used: set[int], fine: _Fine,
                 profile: DeckProfile, pictures: _Pictures, coarse: dict[int, float]) -> tuple[
                     _Guess, npt.NDArray[np.float64], int, frozenset[int]] | None:
    """Where the card of a lone mark read as ``g`` (in its frames ``own``) lies: placed from
    that mark or from another lone mark in ``later`` (coarse order; its frames in ``turns``,
    taken from there once it is read) read as the same card, whichever fits the better
    (``_lone_quad``; a mark's card may lie only partly on card regions where its coarse score,
    in ``coarse`` by the guess's id, reaches ``LONE_WHOLE``). A joker may show its star at two
    corners, and one of them where no turn of the learned corner puts the card (a star at the
    bottom left): the first read, by coarse score, placed such a card across the cards beside
    it. Returns the reading placed (with the scores of the surest of the marks read as that
    card), its card's corners and template, and those marks; None if it lies nowhere, or if
    no mark read as that card reaches ``LONE_ACCEPT`` and no two of them lie at two corners of
    it (``_corroborated``)."""
    best = _lone_quad(scene, g, own, profile, pictures, coarse[id(g)] >= LONE_WHOLE)
    chosen, surest, marks = g, g, parts[g.pip]
    points = [blobs[g.pip].centroid]
    for r in later:
        if (not r.lone or r.card != g.card or r.pip not in turns
                or parts[r.pip] & marks or parts[r.pip] & used):
            continue
        fine.settle(r, LONE_PAIRED)
        if r.score < LONE_PAIRED or r.card != g.card:
            continue
        frames = turns.pop(r.pip)
        marks |= parts[r.pip]
        points.append(blobs[r.pip].centroid)
        surest = max(surest, r, key=lambda x: x.score)
        placed = _lone_quad(scene, r, frames, profile, pictures, coarse[id(r)] >= LONE_WHOLE)
        if placed is not None and (best is None or _lone_rank(placed[2]) > _lone_rank(best[2])):
            best, chosen = placed, r
    if best is None or (surest.score < LONE_ACCEPT and not _corroborated(best[0], points)):
        return None
    if surest is not chosen:
        # The card lies where one mark places it best; it is read as surely as its surest mark.
        chosen = replace(chosen, score=surest.score, second=surest.second,
                         second_card=surest.second_card, worst=surest.worst)
    return chosen, best[0], best[1], marks


def _corroborated(quad: npt.NDArray[np.float64], points: list[npt.NDArray[np.float64]]) -> bool:
    """Whether two of a lone card's marks (``points``) lie on its card at ``quad`` at two of
    its corners: more than half the card's width apart, both inside it.

    >>> quad = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 14.0], [0.0, 14.0]])
    >>> _corroborated(quad, [np.array([1.0, 1.5]), np.array([9.0, 12.5])])
    True
    >>> _corroborated(quad, [np.array([1.0, 1.5]), np.array([3.0, 4.0])])
    False
    >>> _corroborated(quad, [np.array([1.0, 1.5]), np.array([19.0, 12.5])])
    False
    """
    inside = [p for p in points if _point_in_quad(p, quad, -CORNER_SLACK)]
    width = float(np.linalg.norm(quad[1] - quad[0]))
    return any(float(np.linalg.norm(a - b)) > 0.5 * width
               for k, a in enumerate(inside) for b in inside[k + 1:])


def _may_lie(scene: Scene, quads: npt.NDArray[np.float64], coarse: npt.NDArray[np.float64]) -> (
        npt.NDArray[np.bool_]):
    """Whether cards read from indices with coarse scores ``coarse`` (M,), placed at ``quads``
    (M, 4, 2) by the indices' marks, could lie there: on card regions as a sure reading may
    (``_on_cards``) and, below ``CORNER_FIRST``, with the corner showing
    (``_corner_exposed``). Most guesses that the close comparison (a few times as costly)
    would reject are marks in a card's middle. The marks place the card less well than the
    close comparison's frame, so the card is judged shrunk to ``COARSE_REACH`` of its size
    towards the index's corner."""
    if not len(quads):
        return np.zeros(0, np.bool_)
    quads = _near_index(quads)
    out = _on_cards_many(scene, quads, 1.0)
    check = out & (coarse < CORNER_FIRST)
    out[check] = _edges_shown_many(scene, quads[check], CORNER_STEP) >= 1
    return out


def _contest(g: _Guess, later: list[_Guess], parts: list[frozenset[int]], used: set[int],
             judged: set[int], fine: _Fine, accept: float) -> _Guess:
    """The best reading of an unsure index: ``g`` (settled and accepted) or one of the first
    ``RIVALS`` pairs of marks in ``later`` (coarse order) that share a mark with it and hold
    no taken one (``used``), each settled here and put in ``judged`` (read once). Pairs that
    share a mark read the same index in other frames (the rank's mark at another ink level,
    another mark as its pip), and the one that frames it best fits best."""
    marks = parts[g.pip] | parts[g.anchor]
    rivals: list[_Guess] = []
    for r in later:
        if len(rivals) == RIVALS:
            break
        theirs = parts[r.pip] | parts[r.anchor]
        if (r.lone or id(r) in judged or not theirs & marks or theirs & used
                or parts[r.pip] & parts[r.anchor]):
            continue
        judged.add(id(r))
        fine.settle(r, accept)
        rivals.append(r)
    return max([g, *rivals], key=lambda r: r.score)


def _another_corner(cards: list[_Card], code: int, quad: npt.NDArray[np.float64],
                    point: npt.NDArray[np.float64], profile: DeckProfile, template: int) -> bool:
    """Whether a lone mark read as ``code`` (at ``point``, its card at ``quad``) is another
    corner of a card already read: a joker shows its star in two or four corners, and a star's
    card may be placed the wrong way round. Of the two outlines, the one that holds both
    marks is kept. A mark by a corner may lie just off an outline a few percent out
    (``CORNER_SLACK``)."""
    def holds(outline: npt.NDArray[np.float64], mark: npt.NDArray[np.float64]) -> bool:
        return _point_in_quad(mark, outline, -CORNER_SLACK)

    for card in cards:
        first = card.index_points[0]
        if card.card != code or not (holds(card.quad, point) or holds(quad, first)):
            continue
        if holds(quad, first) and holds(quad, point) and not holds(card.quad, point):
            card.quad, card.canon = quad, _canon_corners(profile, template)
        return True
    return False


def _mirrored_index(scene: Scene, pictures: _Pictures, cards: list[_Card], code: int,
                    quad: npt.NDArray[np.float64], point: npt.NDArray[np.float64],
                    profile: DeckProfile, template: int) -> bool:
    """Whether an index read as ``code`` at ``point`` (its card at ``quad``) is another index of
    a card already read, printed at the other end of an edge: a four-index deck (skat decks,
    poker decks with jumbo indices) shows an index at every corner, and one read as a top-left
    index puts a second card beside the first. The top-right index runs the same way as the
    card's own and lies where that one lies mirrored left to right; the bottom-left one runs
    the other way round and lies where it lies mirrored top to bottom (``MIRROR_NEAR``,
    seen from either outline). Of the two outlines, the one that holds both indices is kept;
    where both do (the bottom-left one), the one whose learned picture the photo shows better
    along the edge between the two indices (``_edge_fit``): the other is that outline turned
    over about the edge, and lies on the table or on the cards beside it. (Which lies more on
    card regions chose worse: in a fan both lie on cards.) A card already read from two
    indices keeps its outline, placed through both."""
    for card in cards:
        first = card.index_points[0]
        turned = _turn_cos(card.quad, quad) < -0.8
        if card.card != code or not (turned or _same_way(card.quad, quad)):
            continue
        seen = (_mirror_offset(card.quad, first, point, turned),
                _mirror_offset(quad, point, first, turned))
        # A card's far end, placed from its index, is a few percent out in perspective, one
        # way from one index and the other way from the other: the bottom-left index (the
        # far end from the first) is judged from both outlines at once.
        off = (float(np.linalg.norm((seen[0] + seen[1]) / 2)) if turned
               else min(float(np.linalg.norm(o)) for o in seen))
        if off >= MIRROR_NEAR:
            continue
        holds_both = _point_in_quad(first, quad, -CORNER_SLACK)
        canon = _canon_corners(profile, template)
        if len(card.index_points) > 1:
            better = False
        elif turned:
            better = holds_both and card.canon is not None and (
                _edge_fit(scene, pictures, code, canon, quad)
                > _edge_fit(scene, pictures, code, card.canon, card.quad))
        else:
            better = holds_both and not _point_in_quad(point, card.quad, -CORNER_SLACK)
        if better:
            card.quad, card.canon = quad, canon
            card.index_points[0] = point
        return True
    return False


def _edge_fit(scene: Scene, pictures: _Pictures, code: int, canon: npt.NDArray[np.float64],
              quad: npt.NDArray[np.float64]) -> float:
    """How well card ``code``'s learned picture (``canon`` its corners on it) explains the
    photo along its outline's left edge, from the index corner to the next one, over
    ``EDGE_STRIP`` of its width (``_picture_fits``); 0 where too small to tell."""
    side = EDGE_STRIP * (quad[1] - quad[0])
    strip = np.stack([quad[0], quad[0] + side, quad[3] + side, quad[3]])
    fits = _picture_fits(scene.ink, pictures, strip, float(np.linalg.norm(quad[1] - quad[0])),
                         [(code, canon, quad)])
    return 0.0 if fits is None else fits[0]


def _mirror_offset(quad: npt.NDArray[np.float64], own: npt.NDArray[np.float64],
                   other: npt.NDArray[np.float64], turned: bool = False) -> npt.NDArray[np.float64]:
    """How far ``other`` lies from where the index at ``own`` of the card at ``quad`` lies
    mirrored left to right (or, ``turned``, top to bottom), across and along the card, in
    the card's widths.

    >>> quad = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 14.0], [0.0, 14.0]])
    >>> own = np.array([1.0, 2.0])
    >>> [_mirror_offset(quad, own, np.array(p)).round(2).tolist() for p in ([9.2, 2.0], [5.0, 2.0])]
    [[0.02, 0.0], [-0.4, 0.0]]
    >>> _mirror_offset(quad, own, np.array([1.0, 12.1]), turned=True).round(2).tolist()
    [0.0, 0.01]
    """
    to_unit = cv2.getAffineTransform(quad[:3].astype(np.float32),
                                     np.array([[0, 0], [1, 0], [1, 1]], np.float32))
    (u, v), (x, y) = _mapped(to_unit, np.stack([own, other]))
    aspect = float(np.linalg.norm(quad[3] - quad[0])
                   / max(float(np.linalg.norm(quad[1] - quad[0])), 1e-6))
    if turned:
        return np.array([x - u, (y - (1 - v)) * aspect])
    return np.array([x - (1 - u), (y - v) * aspect])


def _add_reading(card: _Card, code: int, score: float, worst: float,
                 quad: npt.NDArray[np.float64], point: npt.NDArray[np.float64]) -> None:
    """Fold another reading of ``card`` (its other index, or the same index read again from
    other marks) into it. The other index's outline runs the other way round: the two are
    averaged, then moved, turned and scaled as one so that each index lies where its own
    reading put it on the card (each index frames its card from a few marks, so its outline's
    far end errs; the two indices lie a card's diagonal apart). If the readings disagree, the
    better one wins, with less confidence; if they agree, the better shown of the two indices
    counts for the confidence."""
    if not _same_way(card.quad, quad):
        turned = np.roll(quad, 2, axis=0)
        mean = (card.quad + turned) / 2
        if len(card.index_points) == 1:
            first = card.index_points[0]
            marks = np.array([_in_unit(card.quad, first), _in_unit(turned, point)])
            mean = _through(mean, marks, np.array([first, point]))
        card.quad = mean
        card.index_points.append(point)
    if code == card.card:
        card.worst = max(card.worst, worst)
    elif score > card.score:
        card.second, card.second_card = card.score, card.card
        card.card, card.score, card.worst = code, score, worst
    elif score > card.second:
        card.second, card.second_card = score, code


#: The card's outline in card units, clockwise from its top-left corner.
_UNIT: Final = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)


def _in_unit(quad: npt.NDArray[np.float64], point: npt.NDArray[np.float64]) -> (
        npt.NDArray[np.float64]):
    """Where ``point`` lies on the card ``quad`` outlines, in units of the card (0..1 each way)."""
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), _UNIT)
    out: npt.NDArray[np.float64] = cv2.perspectiveTransform(
        point.astype(np.float32).reshape(1, 1, 2), m).reshape(2).astype(np.float64)
    return out


def _through(quad: npt.NDArray[np.float64], marks: npt.NDArray[np.float64],
             points: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """``quad`` moved, turned and scaled as one so that the two places ``marks`` (card units)
    it puts its marks land on ``points``."""
    m = cv2.getPerspectiveTransform(_UNIT, quad.astype(np.float32))
    a, b = cv2.perspectiveTransform(marks.astype(np.float32).reshape(2, 1, 2), m).reshape(2, 2)
    c, d = points
    v, u = b - a, d - c
    if float(np.linalg.norm(v)) < 1e-6:
        return quad
    z = complex(u[0], u[1]) / complex(float(v[0]), float(v[1]))
    rot = np.array([[z.real, -z.imag], [z.imag, z.real]])
    out: npt.NDArray[np.float64] = (quad - a) @ rot.T + c
    return out


def _same_card(card: _Card, code: int, quad: npt.NDArray[np.float64],
               point: npt.NDArray[np.float64]) -> bool:
    """Whether an index read at ``point`` (outline ``quad``, card ``code``) is one already read
    for ``card``, or its other index: the same card with the same centre; or (a misreading of
    one of the two) an index where ``card``'s was read, running the same way, or a card lying
    the other way round whose index sits where ``card``'s second index should."""
    width = float(np.linalg.norm(card.quad[1] - card.quad[0]))
    centre, other = card.quad.mean(axis=0), quad.mean(axis=0)
    if code == card.card and np.linalg.norm(centre - other) < 0.3 * width:
        return True
    if _same_way(card.quad, quad):
        return any(bool(np.linalg.norm(p - point) < 0.15 * width) for p in card.index_points)
    first = card.index_points[0]
    return bool(_turn_cos(card.quad, quad) < -0.8
                and np.linalg.norm(2 * centre - first - point) < 0.15 * width
                and np.linalg.norm(2 * other - point - first) < 0.15 * width)


def _turn_cos(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> float:
    """Cosine of the angle between two outlines' top edges (-1: turned half round)."""
    da, db = a[1] - a[0], b[1] - b[0]
    return float(da @ db) / max(1e-6, float(np.linalg.norm(da) * np.linalg.norm(db)))


def _same_way(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> bool:
    """Whether two outlines of one card run the same way round (read from the same index)."""
    return _turn_cos(a, b) > 0.0


def _same_size(cards: list[_Card]) -> list[_Card]:
    """Drop readings whose card would be far larger or smaller than the others: cards on one
    table photo are all about the same size, art misread as an index is not. The size to
    match is the median of the sizes weighted by how surely each card is read (``_strength``
    of its poorer part): misreadings, even two of them at a fair score (a card's big middle
    pips read as an ace's index), must not outvote a card read for certain. A reading that
    holds half the weight or more stays whatever its size: it could itself be the median (of
    two cards read for certain in a steeply tilted photo, the nearer may be nearly twice the
    size of the farther, and nothing tells which of the two is odd). Without a reading of any
    strength, the plain median of three or more."""
    sizes = np.array([math.sqrt(abs(cv2.contourArea(c.quad.astype(np.float32))))
                      for c in cards])
    weights = np.array([_strength(c.worst) for c in cards])
    if weights.sum() > 0:
        order = np.argsort(sizes)
        cumulative = np.cumsum(weights[order])
        median = float(sizes[order[int(np.searchsorted(cumulative, cumulative[-1] / 2))]])
    elif len(cards) >= 3:
        median = float(np.median(sizes))
    else:
        return cards
    return [c for c, s, w in zip(cards, sizes.tolist(), weights.tolist(), strict=True)
            if 0.55 < s / median < 1.8 or 2 * w >= weights.sum() > 0]


def _not_within_stronger(cards: list[_Card]) -> list[_Card]:
    """Drop readings with no strength (``_strength`` 0) whose index lies on a card read with
    some strength and whose outline lies on it: mostly (``WITHIN_SURE``) where that card is
    read for certain, almost wholly (``WITHIN_READ``) where it is not. Such a reading is
    another reading of that card's own marks: its second index turned half round, read as
    another card with a crooked outline (on a blurred photo, where neither reading is sure,
    each card of it was read twice)."""
    def within(c: _Card, s: _Card) -> bool:
        share = WITHIN_SURE if _strength(s.worst) >= 1.0 else WITHIN_READ
        return (_point_in_quad(c.index_points[0], s.quad, 0.0)
                and _overlap_share(c.quad, s.quad) >= share)
    read = [c for c in cards if _strength(c.worst) > 0.0]
    return [c for c in cards if _strength(c.worst) > 0.0 or not any(within(c, s) for s in read)]


def _overlap_share(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> float:
    """Share of outline ``a``'s area that lies within outline ``b``."""
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(area) / max(1e-6, float(cv2.contourArea(a.astype(np.float32))))


def _point_in_quad(point: npt.NDArray[np.float64], quad: npt.NDArray[np.float64],
                   shrink: float = 0.04) -> bool:
    centre = quad.mean(axis=0)
    q = centre + (quad - centre) * (1.0 - shrink)
    contour = q.astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) > 0
