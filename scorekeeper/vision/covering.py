"""Which card lies above where two overlap (the one whose learned picture the photo shows
there), the top card of each group, and readings from marks under another card dropped.
"""

from __future__ import annotations

from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.vision.assemble import _Card, _point_in_quad
from scorekeeper.vision.features import FloatImage
from scorekeeper.vision.outlines import SURE
from scorekeeper.vision.pictures import _correlation, _picture_samples, _Pictures
from scorekeeper.vision.profile import DeckProfile

#: Where two cards overlap, the part of the overlap compared with both learned pictures
#: leaves out this much of its size (outlines are a few percent off).
OVERLAP_INSET: Final = 0.2
#: How much better one card's picture must explain the overlap for it to count as above.
TOP_LEAD: Final = 0.1
#: ... and for a reading to be dropped as covered (a near tie between two cards lying almost
#: one on the other is no evidence against either).
COVER_LEAD: Final = 0.4
#: A card's picture whose inkness over the overlap spreads less than this fraction of the
#: other card's is blank there (an ace's white, a pip card's middle): its fit is how flat the
#: photo is there beside the other picture (``_overlap_fits``).
BLANK_SPREAD: Final = 0.2
#: How far inside a card's outline (a fraction of its size) another card's index must lie to
#: count as covered by it.
COVERED_INSET: Final = 0.15


def _overlap(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> bool:
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    smaller = min(cv2.contourArea(a.astype(np.float32)), cv2.contourArea(b.astype(np.float32)))
    return bool(area > 0.03 * smaller)


def _above(ink: FloatImage, pictures: _Pictures, a: _Card, b: _Card) -> float:
    """How much better card ``a``'s learned picture than ``b``'s explains the photo where the
    two overlap (``_overlap_fits`` of their inkness, compared at ``OVERLAP_SIDE``): above 0 when
    ``a`` lies on top; 0 when unknown (a card without its picture, an overlap too small, or
    blank on both cards)."""
    if a.canon is None or b.canon is None:
        return 0.0
    area, poly = cv2.intersectConvexConvex(a.quad.astype(np.float32), b.quad.astype(np.float32))
    if poly is None or area <= 0:
        return 0.0
    poly = poly.reshape(-1, 2).astype(np.float64)
    centre = poly.mean(axis=0)
    poly = centre + (poly - centre) * (1.0 - OVERLAP_INSET)
    samples = _picture_samples(ink, pictures, poly, float(np.linalg.norm(a.quad[1] - a.quad[0])),
                               [(a.card, a.canon, a.quad), (b.card, b.canon, b.quad)])
    if samples is None:
        return 0.0
    fit_a, fit_b = _overlap_fits(*samples)
    return fit_a - fit_b


def _overlap_fits(photo: FloatImage, drawn: list[FloatImage]) -> tuple[float, float]:
    """How well each of two cards' pictures drawn over their overlap explains the photo there:
    the correlation; but for a picture blank there beside the other (``BLANK_SPREAD``), how
    much flatter than the other picture the photo is there (an ace lying on a court shows its
    white where the court's picture would be; correlation with a blank says nothing).

    >>> ramp = np.linspace(0.0, 1.0, 50, dtype=np.float32)
    >>> blank = np.zeros(50, np.float32)
    >>> [round(f, 2) for f in _overlap_fits(0.05 * ramp, [blank, ramp])]  # the blank one above
    [0.95, 1.0]
    >>> [round(f, 2) for f in _overlap_fits(ramp, [blank, ramp])]  # the other above
    [0.0, 1.0]
    """
    spreads = [float(d.std()) for d in drawn]

    def fit(own: int) -> float:
        other = spreads[1 - own]
        if spreads[own] < BLANK_SPREAD * other:
            return 1.0 - min(1.0, float(photo.std()) / other)
        return _correlation(photo, drawn[own])

    return fit(0), fit(1)


def _leads(cards: list[_Card], ink: FloatImage, profile: DeckProfile) -> dict[
        tuple[int, int], float]:
    """For each pair of overlapping cards (i < j), how much better card i's picture than card
    j's explains the photo where they overlap (``_above``)."""
    pictures = _Pictures(profile)
    return {(i, j): _above(ink, pictures, cards[i], cards[j])
            for i in range(len(cards)) for j in range(i + 1, len(cards))
            if _overlap(cards[i].quad, cards[j].quad)}


def _uncovered(cards: list[_Card], leads: dict[tuple[int, int], float]) -> tuple[
        list[_Card], dict[tuple[int, int], float]]:
    """The cards less readings whose index lies well inside a card read for sure, and more
    surely, that the photo shows lying above them there (a pair of pips in a card's middle
    read as an index), and the leads of the pairs left. A card read less surely may have its
    outline far off."""
    hidden = set()
    for (i, j), lead in leads.items():
        if abs(lead) <= COVER_LEAD:
            continue
        high, low = (i, j) if lead > 0 else (j, i)
        if cards[low].score < cards[high].score and cards[high].score >= SURE and any(
                _point_in_quad(p, cards[high].quad, COVERED_INSET)
                for p in cards[low].index_points):
            hidden.add(low)
    renumbered = {old: new for new, old in enumerate(k for k in range(len(cards))
                                                     if k not in hidden)}
    return ([cards[k] for k in renumbered],
            {(renumbered[i], renumbered[j]): lead for (i, j), lead in leads.items()
             if i in renumbered and j in renumbered})


def _mark_top(cards: list[_Card], leads: dict[tuple[int, int], float]) -> None:
    """In each group of overlapping cards, mark the card on top: where two cards overlap, the
    one whose picture the photo shows there lies above; where that does not tell (blank card
    on both), the one whose index the other's outline holds."""
    n = len(cards)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    below = dict.fromkeys(range(n), 0)
    for (i, j), lead in leads.items():
        parent[root(i)] = root(j)
        if lead > TOP_LEAD:
            below[j] += 1
        elif lead < -TOP_LEAD:
            below[i] += 1
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    for members in groups.values():
        if len(members) < 2:
            continue
        covered = {
            i: sum(
                1 for j in members if j != i
                for p in cards[j].index_points if _point_in_quad(p, cards[i].quad)
            )
            for i in members
        }
        best = min(members, key=lambda i: (below[i], covered[i], -len(cards[i].index_points)))
        cards[best].top = True
