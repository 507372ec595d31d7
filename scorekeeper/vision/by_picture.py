"""Cards that show no index that was read, read from their picture alone.

Some cards print no corner index at all (a joker drawn as a picture to its rim, the courts of
a Swiss pattern), and a finger or glare can hide an index. Where a card region of the photo
holds a card-shaped part that no card read covers, the learned picture that explains that
part best, clearly better than any other card's and well in itself, names the card; unless it
is a card read elsewhere in the photo (an outline placed off its card leaves its card's
picture uncovered). Such a card is read unsurely (``PICTURE_WORST``): the player is asked.
In a deck with cards known by their picture alone (calibration found no index on them), a read
card covers only what its picture explains (``_left_over``), so such a card is looked for on
top of read cards too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.vision.assemble import _Card
from scorekeeper.vision.calibration import _quad_of
from scorekeeper.vision.errors import NoCardFoundError
from scorekeeper.vision.features import CANON_CORNERS, FloatImage
from scorekeeper.vision.pictures import _correlation, _picture_samples, _Pictures, _told_apart
from scorekeeper.vision.profile import DeckProfile
from scorekeeper.vision.rereading import REREAD_INSET, _scaled
from scorekeeper.vision.scene import Scene

#: How well (correlation) the best learned picture must explain the part, and by how much
#: better than any other card's. On the decks looked at, the cards so found came to 0.93-0.998
#: with a lead of 0.49 at least; a card the profile lacks (calibration refused it), to 0.85
#: as a card of its pips' number.
PICTURE_ALONE: Final = 0.9
PICTURE_LEAD: Final = 0.15
#: ... or by less, where the photo follows it against the rival's picture this surely where
#: the two differ (``pictures._told_apart``): court cards drawn in one frame (KDE's oxygen
#: decks) fit each other's photos within the lead, and a fully shown king went unread.
TOLD_APART: Final = 0.5
#: Read cards cover their outline grown by this share of their size (outlines are a few
#: percent off), and what is left is opened by this share of the median card's width.
COVER_GROWTH: Final = 0.06
SLIVER: Final = 0.1
#: Within a read card's outline, photo ink over its learned picture's by this much (both
#: blurred by ``MISFIT_BLUR`` of the card's width) is unexplained by it.
MISFIT: Final = 0.25
MISFIT_BLUR: Final = 0.03
#: Unexplained parts this close (share of the read cards' median width) are one part.
JOIN: Final = 0.15
#: The part's short sides lie within this factor of the read cards' median width ...
SIZE_SLACK: Final = 1.35
#: ... or, with no card read, are at least this share of the photo's long side.
LEAST_WIDTH: Final = 0.06
#: The poorer part's score recorded for a card read so (``assemble._confidence``: 0.4
#: strength, so its confidence is under ``recognition.CHECK_BELOW``).
PICTURE_WORST: Final = 0.83
#: A part whose picture fits cards drawn alike, not told apart (a deck's jokers differing only
#: in the colour of their wheels), is the one of them that the lone marks inside it within this
#: share of its width of a corner were read as, from this score (a blurred Swiss joker's wheels,
#: under ``assemble.LONE_PAIRED``, 0.81 and 0.83).
TIE_CORNER: Final = 0.35
TIE_MARK: Final = 0.78
#: A card known by its picture alone lying whole on top of a pile, whose picture is as blank
#: as the read cards' below it and whose read neighbours' outlines reach over it, is left only
#: as a strip along its region's rim: it is laid from that edge inwards, as deep as the edge's
#: length over the read cards' aspect (or times it) times each of these, the first named kept
#: (the depth is a few percent off where the photo's perspective shortens the card) ...
RIM_DEPTHS: Final = (1.0, 0.95, 1.05)
#: ... unless it lies where a read card does, its centre within this share of the read cards'
#: width of one's: the strip is a sliver that a read card's outline left by its own rim.
RIM_READ: Final = 0.15


def _by_picture(scene: Scene, cards: list[_Card], profile: DeckProfile,
                left: _LeftOver,
                marks: Sequence[tuple[int, npt.NDArray[np.float64], float]] = ()) -> list[_Card]:
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
        found = _named(scene.ink, pictures, quad, len(profile.codes), marks)
        if found is None or found[0] in read:
            continue
        card, turned = found
        read.add(card)
        out.append(_Card(card, PICTURE_WORST, 0.0, -1, turned, canon=CANON_CORNERS,
                         worst=PICTURE_WORST))
    if left.pictured and left.width is not None:
        out += _at_rims(scene, pictures, cards + out, left, left.width, profile, marks)
    return out


def _at_rims(scene: Scene, pictures: _Pictures, cards: list[_Card], left: _LeftOver,
             width: float, profile: DeckProfile,
             marks: Sequence[tuple[int, npt.NDArray[np.float64], float]]) -> list[_Card]:
    """The cards known by their picture alone laid from the strips ``left`` leaves along its
    regions' rims (``RIM_DEPTHS``) and read from their picture, none of them one of ``cards``
    (of median ``width``). A card with an index lying whole on top shows it, and was read by
    it: a quad is named among all the learned cards only where one of those known by their
    picture alone fits it well (naming six quads among a Toss-like Swiss deck's 111 learned
    pictures took 0.3 s)."""
    alone = np.flatnonzero(profile.picture_only)
    read = {c.card for c in cards}
    centres = [c.quad.mean(axis=0) for c in cards]
    aspect = float(np.median([_long_side(c.quad) / _short_side(c.quad) for c in cards]))
    out: list[_Card] = []
    for strip in _rim_strips(left):
        for quad in _rim_quads(left, strip, aspect):
            if any(np.linalg.norm(quad.mean(axis=0) - centre) < RIM_READ * width
                   for centre in centres):
                break
            if not _fits_well(scene.ink, pictures, quad, alone):
                continue
            found = _named(scene.ink, pictures, quad, len(profile.codes), marks)
            if found is None:
                continue
            if found[0] not in read:
                read.add(found[0])
                centres.append(quad.mean(axis=0))
                out.append(_Card(found[0], PICTURE_WORST, 0.0, -1, found[1],
                                 canon=CANON_CORNERS, worst=PICTURE_WORST))
            break
    return out


#: A strip along a region's rim: the middle of its edge on the rim, the unit normal from there
#: inwards, and the edge's length (half size).
_Strip = tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], float]


def _rim_strips(left: _LeftOver) -> list[_Strip]:
    """The parts of ``left`` too thin to hold a card but as long as a card's side that lie
    along the rim of their region (just outside one of their long edges lies no region)."""
    out = []
    labels = set(left.labels)
    h, w = left.region.shape
    for label in range(1, int(left.parts.max()) + 1):
        if label in labels:
            continue
        contours, _ = cv2.findContours((left.parts == label).astype(np.uint8),
                                       cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not contours:
            continue
        box = cv2.minAreaRect(max(contours, key=cv2.contourArea))
        length, thickness = max(box[1]), min(box[1])
        if 2.0 * thickness >= left.least or 2.0 * length < left.least:
            continue
        corners = cv2.boxPoints(box).astype(np.float64)
        centre = corners.mean(axis=0)
        for i in range(4):
            p, q = corners[i], corners[(i + 1) % 4]
            if np.linalg.norm(q - p) < length - 0.5:
                continue
            middle = (p + q) / 2.0
            normal = np.array([p[1] - q[1], q[0] - p[0]]) / max(float(np.linalg.norm(q - p)), 1e-6)
            if float(np.dot(centre - middle, normal)) < 0:
                normal = -normal
            x, y = np.round(middle - 3.0 * normal).astype(int)
            if not (0 <= y < h and 0 <= x < w) or not left.region[y, x]:
                out.append((middle, normal, length))
                break
    return out


def _rim_quads(left: _LeftOver, strip: _Strip, aspect: float) -> list[npt.NDArray[np.float64]]:
    """The card quads (working pixels, clockwise, a short side first) laid from a rim strip's
    edge inwards, ``RIM_DEPTHS`` times the card's depth (of ``aspect``, long side over short:
    the edge a long side, then a short one). The card's two corners on the rim are those of
    the card-shaped part of the region that deep from the strip's edge; its sides run square
    to the edge between them, or along the part's sides (a pile's lower cards may jut out
    beside it; the photo's perspective turns its sides)."""
    middle, normal, length = strip
    h, w = left.region.shape
    ys, xs = np.mgrid[0:h, 0:w]
    inwards = (xs - middle[0]) * normal[0] + (ys - middle[1]) * normal[1]
    out = []
    for depth in (length / aspect, length * aspect):
        if not left.least <= 2.0 * min(depth, length) <= left.most:
            continue
        parts = [_card_part(left.region & (inwards >= -2.0) & (inwards <= f * depth),
                            left.least, left.most) for f in RIM_DEPTHS]
        if parts[0] is None:
            continue
        on_rim = np.argsort(np.abs((parts[0] / 2.0 - middle) @ normal))[:2]
        a, b = parts[0][on_rim]
        edge = float(np.linalg.norm(b - a))
        inwards_unit = np.array([b[1] - a[1], a[0] - b[0]]) / max(edge, 1e-6)
        if float(inwards_unit @ normal) < 0:
            inwards_unit = -inwards_unit
        if inwards_unit[0] * (b - a)[1] - inwards_unit[1] * (b - a)[0] > 0:  # clockwise, y down
            a, b = b, a
        across = (edge / aspect if depth < length else edge * aspect) * inwards_unit
        for f in RIM_DEPTHS:
            quad = np.array([a, b, b + f * across, a + f * across])
            out.append(quad if depth > length else np.roll(quad, -1, axis=0))
        out += [part for part in parts if part is not None]
    return out


@dataclass(frozen=True)
class _LeftOver:
    """The parts of a photo's card regions that no read card explains, at half size."""

    parts: npt.NDArray[np.int32]  # labels of the parts (0: explained, or table)
    labels: list[int]  # the parts large enough to hold a card
    least: float  # the short side a card may have, in working pixels, at least ...
    most: float  # ... and at most
    width: float | None  # the read cards' median width (working pixels), None if none is read
    explained: npt.NDArray[np.bool_]  # where a read card explains the photo
    joined: npt.NDArray[np.int32]  # ``parts`` within ``JOIN`` of each other joined ...
    joined_labels: list[int]  # ... and those large enough to hold a card
    pictured: bool  # the deck has cards known by their picture alone (``_left_over``)
    region: npt.NDArray[np.bool_]  # the card regions the parts are of (hulls if ``pictured``)


def _left_over(scene: Scene, cards: list[_Card], profile: DeckProfile) -> _LeftOver:
    """What of ``scene``'s card regions none of ``cards`` explains, opened by ``SLIVER``; with
    the card sizes a part may hold.

    Where the deck has cards known by their picture alone (no corner index,
    ``DeckProfile.picture_only``), read cards explain what their pictures do (``_explained``),
    and the parts are also joined (``JOIN``): such a card is found lying on read cards, and
    where read cards leave only its picture's parts; and the card regions are taken whole to
    their convex hulls: such a card's picture may reach its rim, and a court lying on top of a
    fan was then no part of its region's white. Elsewhere read cards explain what their
    outlines cover (grown by ``COVER_GROWTH``), and the parts stand apart: on the 28 looked-at
    decks and the joker set, pictures found the same cards there, in 2-7% more time a photo."""
    h, w = scene.filled.shape
    widths = [float(np.linalg.norm(c.quad[1] - c.quad[0])) for c in cards]
    width = float(np.median(widths)) if widths else None
    pictured = bool(profile.picture_only.any())
    explained = _explained(scene, cards, profile) if pictured else _covered(scene, cards)
    long_side = 2.0 * max(h, w)
    least, most = ((width / SIZE_SLACK, width * SIZE_SLACK) if width is not None
                   else (LEAST_WIDTH * long_side, long_side))
    region = (scene.hulls if pictured and scene.hulls is not None else scene.filled) > 0
    left = (region & ~explained).astype(np.uint8)
    parts, labels = _parts(left, width, least)
    if width is None or not pictured:
        return _LeftOver(parts, labels, least, most, width, explained, parts, labels, pictured,
                         region)
    # The blank card between the parts of a picture that read cards leave unexplained is
    # explained by any card's blank: for a card's picture, they are joined within their region.
    # At quarter size, with square shapes: what is joined need not be drawn as finely.
    quarter = (w // 2, h // 2)
    k = max(3, round(JOIN * width / 4.0)) | 1
    closed = cv2.morphologyEx(cv2.resize(left, quarter, interpolation=cv2.INTER_NEAREST),
                              cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    within = cv2.resize(region.astype(np.uint8), quarter, interpolation=cv2.INTER_NEAREST)
    small, large = _parts(np.minimum(closed, within), width, least, 4.0, cv2.MORPH_RECT)
    joined = np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_NEAREST), np.int32)
    return _LeftOver(parts, labels, least, most, width, explained, joined, large, pictured,
                     region)


def _covered(scene: Scene, cards: list[_Card]) -> npt.NDArray[np.bool_]:
    """Where (at half size) read cards' outlines, grown by ``COVER_GROWTH``, cover the photo."""
    covered = np.zeros(scene.filled.shape, np.uint8)
    for c in cards:
        cv2.fillConvexPoly(covered, np.round(_scaled(c.quad, 1.0 + COVER_GROWTH) / 2.0)
                           .astype(np.int32), 1)
    out: npt.NDArray[np.bool_] = covered > 0
    return out


def _parts(left: npt.NDArray[np.uint8], width: float | None, least: float,
           shrink: float = 2.0, shape: int = cv2.MORPH_ELLIPSE) -> tuple[
        npt.NDArray[np.int32], list[int]]:
    """The parts of ``left`` (the working image shrunk by ``shrink``; opened by ``SLIVER`` of
    the cards' ``width``, in ``shape``), labelled, and those large enough to hold a card (a
    square of the ``least`` short side: most parts are slivers by cards read)."""
    if width is not None:
        k = max(3, round(SLIVER * width / shrink)) | 1
        left = np.asarray(cv2.morphologyEx(
            left, cv2.MORPH_OPEN, cv2.getStructuringElement(shape, (k, k))), np.uint8)
    _, parts, stats, _ = cv2.connectedComponentsWithStats(left, connectivity=8)
    large = np.flatnonzero(stats[1:, cv2.CC_STAT_AREA] >= (least / shrink) ** 2) + 1
    return parts.astype(np.int32), large.tolist()


def _explained(scene: Scene, cards: list[_Card], profile: DeckProfile) -> npt.NDArray[np.bool_]:
    """Where (at half size) a read card explains the photo: within its outline grown by
    ``COVER_GROWTH``, save where its learned picture, laid on the photo there, leaves ink
    unexplained (``MISFIT``) and no other read card's explains it. A card without a read index
    lying on read cards (a court that shows none, on a fan) is unexplained there."""
    h, w = scene.filled.shape
    ink = scene.ink[::2, ::2]  # blurred below: every other pixel does
    fitting = np.zeros((h, w), np.bool_)
    for c in cards:
        grown = _scaled(c.quad / 2.0, 1.0 + COVER_GROWTH)
        x0, y0 = (max(0, int(v)) for v in np.floor(grown.min(axis=0)))
        x1 = min(w, ink.shape[1], int(np.ceil(grown[:, 0].max())) + 1)
        y1 = min(h, ink.shape[0], int(np.ceil(grown[:, 1].max())) + 1)
        if x1 <= x0 or y1 <= y0:
            continue
        quad = c.quad / 2.0 - (x0, y0)
        inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(inside, np.round(grown - (x0, y0)).astype(np.int32), 1)
        canon = CANON_CORNERS if c.canon is None else c.canon
        drawn = cv2.warpPerspective(
            profile.ink[c.card].astype(np.float32) / 255.0,
            cv2.getPerspectiveTransform(canon.astype(np.float32), quad.astype(np.float32)),
            (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
            borderValue=0.0)
        sigma = max(0.5, MISFIT_BLUR * _short_side(quad))
        # Photo ink the picture has not: a picture's ink where the photo shows white is what
        # the card above it hides.
        unexplained = cv2.GaussianBlur(ink[y0:y1, x0:x1] - drawn, (0, 0), sigma) > MISFIT
        fitting[y0:y1, x0:x1] |= (inside > 0) & ~unexplained
    return fitting


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


def _long_side(quad: npt.NDArray[np.float64]) -> float:
    """The longer of a card outline's two long sides (its second and fourth).

    >>> _long_side(np.array([[0.0, 0.0], [10.0, 0.0], [12.0, 14.0], [0.0, 14.0]]))
    14.142135623730951
    """
    return max(float(np.linalg.norm(quad[2] - quad[1])), float(np.linalg.norm(quad[0] - quad[3])))


def _named(ink: FloatImage, pictures: _Pictures, quad: npt.NDArray[np.float64], n: int,
           marks: Sequence[tuple[int, npt.NDArray[np.float64], float]] = ()) -> (
        tuple[int, npt.NDArray[np.float64]] | None):
    """The card whose picture explains the photo inside ``quad`` (either way up) well and
    clearly best of the ``n`` learned cards, with its outline that way up; None if none does
    (cards drawn alike, such as a deck's jokers in several inks, are not told apart here: the
    ink of a many-coloured drawing is no guide to its index's)."""
    shown = _scaled(quad, 1.0 - REREAD_INSET)
    width = float(np.linalg.norm(quad[1] - quad[0]))
    turns = (quad, np.roll(quad, 2, axis=0))
    # Both ways up in one comparison: the photo's side of it is sampled once.
    samples = _picture_samples(ink, pictures, shown, width,
                               [(i, CANON_CORNERS, turned) for turned in turns for i in range(n)])
    if samples is None:
        return None
    photo, drawn = samples
    per_turn = np.array([_correlation(photo, d) for d in drawn]).reshape(2, n)
    per_card = per_turn.max(axis=0)
    best = int(np.argmax(per_card))
    way = np.argmax(per_turn, axis=0)
    alike = [drawn[way[c] * n + c] for c in range(n)]
    if not _clearly_best(photo, alike, per_card, best, range(n)):
        if per_card[best] < PICTURE_ALONE:
            return None
        tied = [c for c in range(n) if c == best or not (
            per_card[c] <= per_card[best] - PICTURE_LEAD
            or _told_apart(photo, alike[best], alike[c]) >= TOLD_APART)]
        named = {card for card, point, score in marks if score >= TIE_MARK and card in tied
                 and _at_corner(quad, point)}
        if len(named) != 1:
            return None
        best = named.pop()
        if not all(per_card[c] <= per_card[best] - PICTURE_LEAD
                   or _told_apart(photo, alike[best], alike[c]) >= TOLD_APART
                   for c in range(n) if c not in tied):
            return None
    return best, turns[int(way[best])]


def _fits_well(ink: FloatImage, pictures: _Pictures, quad: npt.NDArray[np.float64],
               among: npt.NDArray[np.intp]) -> bool:
    """Whether the learned picture of one of the cards ``among`` explains the photo inside
    ``quad`` (either way up) as well as ``_named`` asks of the best."""
    turns = (quad, np.roll(quad, 2, axis=0))
    samples = _picture_samples(ink, pictures, _scaled(quad, 1.0 - REREAD_INSET),
                               float(np.linalg.norm(quad[1] - quad[0])),
                               [(int(i), CANON_CORNERS, turned) for turned in turns for i in among])
    return samples is not None and max(
        (_correlation(samples[0], d) for d in samples[1]), default=0.0) >= PICTURE_ALONE


def _at_corner(quad: npt.NDArray[np.float64], point: npt.NDArray[np.float64]) -> bool:
    """Whether ``point`` lies inside the card at ``quad`` within ``TIE_CORNER`` of its width of
    one of its corners.

    >>> quad = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 14.0], [0.0, 14.0]])
    >>> _at_corner(quad, np.array([1.5, 2.0])), _at_corner(quad, np.array([5.0, 7.0]))
    (True, False)
    """
    width = float(np.linalg.norm(quad[1] - quad[0]))
    inside = cv2.pointPolygonTest(quad.astype(np.float32).reshape(-1, 1, 2),
                                  (float(point[0]), float(point[1])), False) >= 0
    return inside and float(np.linalg.norm(quad - point, axis=1).min()) <= TIE_CORNER * width


def _clearly_best(photo: FloatImage, drawn: list[FloatImage], fits: npt.NDArray[np.float64],
                  best: int, rivals: Iterable[int]) -> bool:
    """Whether the learned picture ``best`` explains a photo's sample (``drawn``: each card's
    picture sampled there; ``fits``: their correlations with it) well, at ``PICTURE_ALONE``,
    and clearly better than each of ``rivals``: by ``PICTURE_LEAD``, or, within that, told
    apart where the two pictures differ (``TOLD_APART``)."""
    if fits[best] < PICTURE_ALONE:
        return False
    return all(fits[c] <= fits[best] - PICTURE_LEAD
               or _told_apart(photo, drawn[best], drawn[c]) >= TOLD_APART
               for c in rivals if c != best)
