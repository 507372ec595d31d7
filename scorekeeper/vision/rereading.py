"""A card read unsurely from its index, read again from its picture.

An index misread as a card of its suit (a 9 read as an 8, a 2 as a 4 in a fan's shadow) leaves
the card's body saying otherwise: the pips or the court picture that show. Where the part of
the card that shows (its outline less the cards lying above it) fits another card of its suit,
or its index's runner-up, clearly better than the card the index read, and well in itself,
it is that card; unless the picture that fits best is of a card read elsewhere in the photo
(an outline misplaced over its neighbour shows the neighbour's picture). Its confidence stays
as low as its index's, with the card first read as its alternative.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from scorekeeper.cards import Card
from scorekeeper.vision.assemble import _Card, _confidence
from scorekeeper.vision.covering import TOP_LEAD
from scorekeeper.vision.features import FloatImage
from scorekeeper.vision.pictures import _picture_fits, _Pictures
from scorekeeper.vision.profile import DeckProfile

#: A card read with less confidence than this from its index is read again from its picture.
REREAD_BELOW: Final = 0.5
#: How much better (correlation) another card's picture must explain the part that shows.
REREAD_LEAD: Final = 0.1
#: ... and how well at least (where no picture fits well, the outline may be off).
REREAD_FIT: Final = 0.5
#: The part compared leaves out this much of the card's size by its edges (outlines are a few
#: percent off) ...
REREAD_INSET: Final = 0.08
#: ... and the cards lying above it, grown by this much of their size.
COVER_GROWTH: Final = 0.04


def _reread(cards: list[_Card], leads: dict[tuple[int, int], float], ink: FloatImage,
            profile: DeckProfile) -> bool:
    """Read again from their pictures the ``cards`` read unsurely (``REREAD_BELOW``), given
    which of each two overlapping cards lies above (``covering._leads``); True where any card
    changed."""
    suits = [Card.parse(code).suit for code in profile.codes]
    pictures = _Pictures(profile)
    changed = False
    for k, card in enumerate(cards):
        if card.canon is None or _confidence(card.score, card.second, card.worst) >= REREAD_BELOW:
            continue
        own = suits[card.card]
        rivals = [i for i in range(len(profile.codes)) if i != card.card
                  and (i == card.second_card or (own is not None and suits[i] == own))]
        if not rivals:
            continue
        shown = _scaled(card.quad, 1.0 - REREAD_INSET)
        hidden = [_scaled(cards[j].quad, 1.0 + COVER_GROWTH) for j in _above(k, leads)]
        width = float(np.linalg.norm(card.quad[1] - card.quad[0]))
        fits = _picture_fits(ink, pictures, shown, width,
                             [(i, card.canon, card.quad) for i in (card.card, *rivals)], hidden)
        if fits is None:
            continue
        best = int(np.argmax(fits[1:]))
        if rivals[best] in {other.card for other in cards}:
            continue
        if fits[1 + best] >= max(REREAD_FIT, fits[0] + REREAD_LEAD):
            card.second_card, card.card = card.card, rivals[best]
            changed = True
    return changed


def _above(k: int, leads: dict[tuple[int, int], float]) -> list[int]:
    """The cards that the photo shows lying above card ``k`` where they overlap.

    >>> _above(1, {(0, 1): 0.3, (1, 2): -0.5, (1, 3): 0.05})
    [0, 2]
    """
    out = []
    for (i, j), lead in leads.items():
        if j == k and lead > TOP_LEAD:
            out.append(i)
        elif i == k and lead < -TOP_LEAD:
            out.append(j)
    return out


def _scaled(quad: npt.NDArray[np.float64], factor: float) -> npt.NDArray[np.float64]:
    """A quad scaled about its centre."""
    centre = quad.mean(axis=0)
    out: npt.NDArray[np.float64] = centre + (quad - centre) * factor
    return out
