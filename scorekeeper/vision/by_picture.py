"""Cards that show no index that was read, read from their picture alone.

Some cards print no corner index at all (a joker drawn as a picture to its rim, the courts of
a Swiss pattern), and a finger or glare can hide an index. Where a card region of the photo
holds a card-shaped part that no card read covers, the learned picture that explains that
part best, clearly better than any other card's and well in itself, names the card; unless it
is a card read elsewhere in the photo (an outline placed off its card leaves its card's
picture uncovered). Such a card is read unsurely (``PICTURE_WORST``): the player is asked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.vision.assemble import _Card
from scorekeeper.vision.calibration import _quad_of
from scorekeeper.vision.errors import NoCardFoundError
from scorekeeper.vision.features import CANON_CORNERS, FloatImage
from scorekeeper.vision.pictures import _picture_fits, _Pictures
from scorekeeper.vision.profile import DeckProfile
from scorekeeper.vision.rereading import REREAD_INSET, _scaled
from scorekeeper.vision.scene import Scene

#: How well (correlation) the best learned picture must explain the part, and by how much
#: better than any other card's. On the decks looked at, the cards so found came to 0.93-0.998
#: with a lead of 0.49 at least; a card the profile lacks (calibration refused it), to 0.85
#: as a card of its pips' number.
PICTURE_ALONE: Final = 0.9
PICTURE_LEAD: Final = 0.15
#: Read cards cover their outline grown by this share of their size (outlines are a few
#: percent off), and what is left is opened by this share of the median card's width.
COVER_GROWTH: Final = 0.06
SLIVER: Final = 0.1
#: The part's short sides lie within this factor of the read cards' median width ...
SIZE_SLACK: Final = 1.35
#: ... or, with no card read, are at least this share of the photo's long side.
LEAST_WIDTH: Final = 0.06
#: The poorer part's score recorded for a card read so (``assemble._confidence``: 0.4
#: strength, so its confidence is under ``recognition.CHECK_BELOW``).
PICTURE_WORST: Final = 0.83


def _by_picture(scene: Scene, cards: list[_Card], profile: DeckProfile,
                left: _LeftOver) -> list[_Card]:
    """The cards read from their picture alone in the parts of ``scene``'s card regions that
    none of ``cards`` covers (``left``, from ``_left_over``)."""
    if not len(profile.codes):
        return []
    read = {c.card for c in cards}
    pictures = _Pictures(profile)
    out: list[_Card] = []
    for label in left.labels:
        quad = _card_part(left.parts == label, left.least, left.most)
        if quad is None:
            continue
        found = _named(scene.ink, pictures, quad, len(profile.codes))
        if found is None or found[0] in read:
            continue
        card, turned = found
        read.add(card)
        out.append(_Card(card, PICTURE_WORST, 0.0, -1, turned, canon=CANON_CORNERS,
                         worst=PICTURE_WORST))
    return out


@dataclass(frozen=True)
class _LeftOver:
    """The parts of a photo's card regions that no read card covers, at half size."""

    parts: npt.NDArray[np.int32]  # labels of the parts (0: covered, or table)
    labels: list[int]  # the parts large enough to hold a card
    least: float  # the short side a card may have, in working pixels, at least ...
    most: float  # ... and at most
    width: float | None  # the read cards' median width (working pixels), None if none is read


def _left_over(scene: Scene, cards: list[_Card]) -> _LeftOver:
    """What of ``scene``'s card regions none of ``cards`` covers (their outlines grown by
    ``COVER_GROWTH``), opened by ``SLIVER``; with the card sizes a part may hold."""
    labels = scene.filled
    h, w = labels.shape
    widths = [float(np.linalg.norm(c.quad[1] - c.quad[0])) for c in cards]
    width = float(np.median(widths)) if widths else None
    covered = np.zeros((h, w), np.uint8)
    for c in cards:
        cv2.fillConvexPoly(covered, np.round(_scaled(c.quad, 1.0 + COVER_GROWTH) / 2.0)
                           .astype(np.int32), 1)
    left = ((labels > 0) & (covered == 0)).astype(np.uint8)
    if width is not None:
        k = max(3, round(SLIVER * width / 2.0)) | 1
        left = cv2.morphologyEx(left, cv2.MORPH_OPEN,
                                cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    _, parts, stats, _ = cv2.connectedComponentsWithStats(left, connectivity=8)
    long_side = 2.0 * max(h, w)
    least, most = ((width / SIZE_SLACK, width * SIZE_SLACK) if width is not None
                   else (LEAST_WIDTH * long_side, long_side))
    # A part smaller than a square of the least short side is no card (most parts are slivers
    # by cards read).
    large = np.flatnonzero(stats[1:, cv2.CC_STAT_AREA] >= (least / 2.0) ** 2) + 1
    return _LeftOver(parts, large.tolist(), least, most, width)


def _card_part(part: npt.NDArray[np.bool_], least: float, most: float) -> (
        npt.NDArray[np.float64] | None):
    """The card-shaped quad (working pixels, a short side first, clockwise) of a part at half
    size whose short sides lie from ``least`` to ``most`` working pixels; None if it is no
    card's shape or size."""
    h, w = part.shape
    try:
        quad = 2.0 * _quad_of(part.astype(np.uint8), h, w)
    except NoCardFoundError:
        return None
    return quad if least <= _short_side(quad) <= most else None


def _short_side(quad: npt.NDArray[np.float64]) -> float:
    """The shorter of a card outline's two short sides (its first and third).

    >>> _short_side(np.array([[0.0, 0.0], [10.0, 0.0], [12.0, 14.0], [0.0, 14.0]]))
    10.0
    """
    return min(float(np.linalg.norm(quad[1] - quad[0])), float(np.linalg.norm(quad[3] - quad[2])))


def _named(ink: FloatImage, pictures: _Pictures, quad: npt.NDArray[np.float64], n: int) -> (
        tuple[int, npt.NDArray[np.float64]] | None):
    """The card whose picture explains the photo inside ``quad`` (either way up) well and
    clearly best of the ``n`` learned cards, with its outline that way up; None if none does
    (cards drawn alike, such as a deck's jokers in several inks, are not told apart here: the
    ink of a many-coloured drawing is no guide to its index's)."""
    shown = _scaled(quad, 1.0 - REREAD_INSET)
    width = float(np.linalg.norm(quad[1] - quad[0]))
    turns = (quad, np.roll(quad, 2, axis=0))
    # Both ways up in one comparison: the photo's side of it is sampled once.
    fits = _picture_fits(ink, pictures, shown, width,
                         [(i, CANON_CORNERS, turned) for turned in turns for i in range(n)])
    if fits is None:
        return None
    per_turn = np.array(fits).reshape(2, n)
    per_card = per_turn.max(axis=0)
    order = np.argsort(-per_card)
    best = int(order[0])
    rival = float(per_card[order[1]]) if n > 1 else -1.0
    if per_card[best] < PICTURE_ALONE or per_card[best] - rival < PICTURE_LEAD:
        return None
    return best, turns[int(np.argmax(per_turn[:, best]))]
