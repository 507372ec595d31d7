"""Naming the cards in a photo by their corner indices.

Every pair of nearby ink marks on a card region is a guess "this is a rank, that is the suit
pip below it" (and so are the two halves of a mark that narrows to a waist: a rank joined to
its pip); where the deck has cards whose corner shows one mark (a joker's star), every
compact mark is also a guess "this is such a mark", turned along the edges around it. Each
guess is sampled as an index patch in its own frame and compared with every learned index of
its kind (normalised cross-correlation around the learned glyphs, plus the ink's colour
relative to the card white), then with its best few candidates closely (aligned, and again
only around each glyph: in a fan, the edge and pips of the card above reach into an index's
window). The best guesses become cards; a card's outline follows from where its index sits.
Where two cards overlap, the one whose learned picture the photo shows there lies above: that
marks the top card of a group, and drops "cards" read from marks that lie under another card.
"""

from __future__ import annotations

import math
import weakref
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final, NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.cards import Card
from scorekeeper.outline import JsonObject
from scorekeeper.vision.align import Glyph, align
from scorekeeper.vision.features import (
    CANON_H,
    CANON_W,
    FINE_PARTS,
    GLYPH_GROW,
    INK_LEVEL,
    PATCH_H,
    PATCH_W,
    REMAP_ROWS,
    STEP,
    Blob,
    FloatImage,
    GlyphTemplates,
    blur_for_step,
    frame_matrices,
    glyph_mask,
    grown,
    index_glyphs,
    ink_colours,
    inkness,
    lone_points,
    patch_matrix,
    sample_patches,
)
from scorekeeper.vision.images import decode, read_bytes
from scorekeeper.vision.profile import DeckProfile
from scorekeeper.vision.scene import Scene, analyse, card_ink

#: Long side of the working copy of a photo, in pixels.
WORK_SIDE: Final = 1400
#: Lowest rough score (``GlyphTemplates.rough``) for a guess to be compared in full, under
#: ``SHORTLIST`` by a margin for the rough score's error: on the tuned and probe photos, one
#: guess in ten thousand of those scoring 0.6 or more in full scored 0.1 less roughly (the
#: worst 0.16 less), and about a third of all guesses score 0.45 or more.
ROUGH: Final = 0.45
#: Index guesses compared with the learned templates at a time (bounds the memory a busy
#: print takes: each guess gets a score per template).
SCORE_ROWS: Final = 2048
#: Lowest coarse score (shape alone) for an index guess to have its ink colour read and its
#: finalists chosen.
SHORTLIST: Final = 0.6
#: Lowest coarse score, less the colour difference, for a guess to be compared closely (the
#: coarse colour reading of a small or blurred index is rough; the close comparison decides).
CLOSE_LOOK: Final = 0.55
#: Lowest fine score (aligned correlation less the colour difference) to count as a card.
ACCEPT: Final = 0.7
#: How many best cards of the coarse comparison are compared closely.
FINALISTS: Final = 4
#: ... as long as their coarse score is within this of the best; and up to this many cards
#: that take their rank from one finalist and their suit from another (``_crosses``).
FINALIST_GAP: Final = 0.12
CROSSES: Final = 2
#: Up to this many further finalists: the best cards compared around the index's own glyphs
#: only, within ``FINALIST_GAP`` of the best so compared. Around all the glyphs of the window,
#: a fanned card whose body pips the card above hides (KDE standard's six of spades) comes
#: closer to a card with none beside its index (the three) than to itself.
RESCUED: Final = 2
#: Weight of the ink colour difference against the shape correlation.
COLOUR_WEIGHT: Final = 0.6
#: The close comparison reads the larger decoded photo when it is this much larger.
DETAIL_MIN: Final = 1.2
#: Ink colour differences up to this are measurement noise.
COLOUR_FREE: Final = 0.2
#: Rank-to-pip distance over pip size may be this much below / above the deck's own range.
PAIR_SLACK: Final = (0.6, 1.6)
#: A rank's size over its pip's lies strictly between these.
PAIR_SCALE: Final = (0.3, 3.5)
#: Smallest ink mark (pixels of the working image) read as part of an index.
MIN_MARK: Final = 4
#: Largest, as a fraction of the photo's long side (cards fill at most about 40% of it).
MAX_MARK: Final = 0.1
#: A mark of this many pixels or more (working image), this much longer than wide (ratio of
#: its moments), that narrows to this share of the narrower half's widest (smoothed over 3
#: pixels) somewhere in its middle half, is also read as its two halves, each at least this
#: share of it: a rank joined to its pip (blur, a rank's tail) is no pair of marks.
WAIST_MIN_AREA: Final = 40
WAIST_LONG: Final = 2.0
WAIST_NARROW: Final = 0.4
WAIST_SHARE: Final = 0.2
#: Most pairs of marks read as possible indices in one photo (photos of cards on a table make
#: a few hundred to a few thousand). A cloth whose pattern passes as card white (a grey and
#: green check) makes hundreds of alike marks on one region and hundreds of thousands of
#: pairs; past this many, pairs are left out from the marks with the most twins (``_twins``).
GUESS_BUDGET: Final = 20000
#: Marks are twins whose widths and heights differ by at most about this share (log steps).
TWIN_STEP: Final = 0.1
#: From this fine score a card may be partly hidden (a finger on its far end).
SURE: Final = 0.85
#: An index read with less confidence than this is read again from up to ``RIVALS`` other
#: pairs of marks that share a mark with it (the best by coarse score), and the best close
#: score of them all wins: a rank's mark at another ink level, or another mark as its pip,
#: may frame the index better than the pair that came first (``_contest``).
CONTEST_BELOW: Final = 0.85
RIVALS: Final = 2
#: Half the width of the band across a predicted card edge that is looked at (card widths).
EDGE_BAND: Final = 0.06
#: How much darker (or differently coloured) than the card white the edge must look.
EDGE_STEP: Final = 0.12
#: ... for the corner next to an index read (``_corner_exposed``), where a card lying on another
#: white card shows its edge only as a faint rim (an Aguilar probe deck's 5 of diamonds, read
#: for certain, was dropped: its rim dipped 0.1 below the white). Art read as an index
#: predicts edges over blank card white, which shows no dip at all. Choosing where a lone
#: mark's card lies keeps ``EDGE_STEP``: there, 0.1 put three jokers' cards the wrong way.
CORNER_STEP: Final = 0.1
#: Below this coarse score a guess is compared closely only where its card, placed by the
#: marks' frame, shows that corner (``_may_lie``). On the 420 tuned and probe photos and the
#: 80 Aguilar photos every card read before is read as before, in 0.77-0.79 of the time; without
#: the exception one card was lost (its index's frame, refined by the close comparison, showed
#: the corner; the marks' did not).
CORNER_FIRST: Final = 0.7
#: How much of a card placed by its index's marks alone (their frame is a few percent off the
#: close comparison's, more at a steep tilt) must lie on card regions before the close
#: comparison looks at it: the card's outline shrunk to this towards the index's corner. On the
#: 560 A/B photos 0.8 read the same cards as 0.9 (a paris king more than the whole outline,
#: which had dropped it as lying off its card), and one extra detection fewer.
COARSE_REACH: Final = 0.8
#: Before the comparison, a pair of marks is kept only where its card could lie on the cards:
#: placed around the marks in one of this many typical places of the deck's cards around
#: their index (``_placements``) and shrunk to ``COARSE_REACH`` towards the index's corner,
#: at least ``PLACED_ON`` of a few points spread over it (``PLACED_GRID`` across and along)
#: lie within the card regions' convex hulls (a court's picture may fill its card to the rim).
PLACEMENTS: Final = 16
PLACED_ON: Final = 0.75
PLACED_GRID: Final = (3, 4)
#: Share of the edge's length that must show for the card's corner to count as seen.
EDGE_SHOWN: Final = 0.6
#: Share of a sure reading's card that must lie within the card regions' convex hulls when
#: the regions themselves do not hold it (a court card's picture may reach its rim), each
#: region's or those of all it lies on taken together (a picture that reaches both long sides
#: splits the card's white into pieces).
HULL_INSIDE: Final = 0.9
#: Where two cards overlap, the part of the overlap compared with both learned pictures
#: leaves out this much of its size (outlines are a few percent off).
OVERLAP_INSET: Final = 0.2
#: Card width (pixels) at which that comparison is made.
OVERLAP_SIDE: Final = 64
#: Blur before that comparison, in card widths (it forgives outlines a few percent off).
OVERLAP_BLUR: Final = 0.02
#: How much better one card's picture must explain the overlap for it to count as above.
TOP_LEAD: Final = 0.1
#: ... and for a reading to be dropped as covered (a near tie between two cards lying almost
#: one on the other is no evidence against either).
COVER_LEAD: Final = 0.4
#: How far inside a card's outline (a fraction of its size) another card's index must lie to
#: count as covered by it.
COVERED_INSET: Final = 0.15
#: A reading with no strength whose outline lies this much within a card read for certain,
#: its index on that card, is a misreading of that card's marks.
WITHIN_SURE: Final = 0.5
#: And this much within a card read with some strength, not for certain.
WITHIN_READ: Final = 0.75
#: Below this confidence a card gets a warning asking the player to check it.
CHECK_BELOW: Final = 0.5
#: Inkness levels at which ink marks are looked for: the usual one, and a fainter one for
#: thin or pale glyphs that blur and JPEG break apart at the usual level.
MARK_LEVELS: Final = (1.0 - INK_LEVEL, 0.28)
#: Sizes (pixels of the working image) of the openings that cut thin lines (a card's rim, the
#: shadow of the card above in a fan) away from the glyphs they touch: each gives further marks.
#: In a tight fan the rim of the card above, with its shadow, reads about 5 pixels thick: on the
#: 705 tuned and probe photos of 47 decks, 7 rather than 5 read 2,807 cards rather than 2,794
#: (15 more, 2 fewer; 63 extra detections rather than 66) in about the same time; 6 read 2,806,
#: 9 read 2,801, and 5 and 7 together 2,807 in 15% more time.
OPENINGS: Final = (7,)
#: An opened mark is new when its unopened mark is at least this many times larger.
OPEN_SPLIT: Final = 1.5
#: A darker inkness level at which two glyphs that blur into one mark come apart (an index pip
#: touching the corner's large pip, the J touching the o of "Joker"); its marks are new as
#: opened ones are, and kept only where a first-level mark gives at most ``SPLIT_PARTS`` of
#: them (court art comes apart into many, each a cost in guesses).
SPLIT_LEVEL: Final = 0.7
SPLIT_PARTS: Final = 2
#: The close comparison looks this many pixels around a learned part's glyph.
FINE_MARGIN: Final = 3
#: Largest correction of a guess's frame by the close comparison's alignment: how far its
#: origin moves (frame units), and how far its axes turn, stretch or shear (frame units).
REFINE_MAX: Final = (0.5, 0.4)
#: How differently the alignment may correct the frame for a card's rank and for its pip
#: (frame units, in stretch or shear) before the card ranks lower among the finalists
#: (``_bend``), and by how much per unit past that. On the tuned and probe decks (420 photos
#: and 80 of the Aguilar decks), against no bend: 2 more cards right, 2 fewer extra detections.
BEND_FREE: Final = 0.1
BEND_COST: Final = 0.2
#: Two finalists' learned parts that correlate this well are one glyph (one rank in two suits,
#: one suit in two ranks): the sample is aligned once for both.
SAME_GLYPH: Final = 0.9
#: A part of the sample that fits the first finalist's glyph this well (aligned to it) is that
#: glyph: the other finalists are judged in the same alignment.
ALIGNED_SURE: Final = 0.95
#: Most steps of the alignment (``align``) of a part of the sample to the first distinct glyph
#: among the finalists, and to each further one (starting from the first alignment).
ALIGN_STEPS: Final = (10, 3)
#: Two finalists of different inks whose mean fits lie this close are told apart by ink alone
#: (on Toss-like probe decks, one glyph in two inks fits a sample up to about 0.04 apart).
TWIN_FIT: Final = 0.05
#: Between two cards of one glyph in two inks, how much of the difference between the sample
#: ink's distances to their learned inks counts against the farther one (a lead of 0.03 is a
#: full lead for ``_confidence``: a sure reading needs the sample's ink nearer by about 0.45,
#: half the distance between black and gold).
TWIN_COLOUR: Final = 0.05
#: Ink marks whose boxes are this close (a fraction of the smaller mark's size) may be one
#: glyph broken apart by blur, JPEG or thin strokes: their union is tried as a mark too.
MERGE_GAP: Final = 0.35
#: Above this many marks (a busy print) no unions are tried (their pairs would be too many).
MAX_UNION_MARKS: Final = 2500
#: Marks are compared with each other in blocks of rows of at most this many entries.
PAIR_BLOCK: Final = 1 << 20
#: A lone corner mark (a joker's star) is looked for among compact marks (width over height
#: within these, and filling at least ``LONE_FILL`` of their box) ...
LONE_SHAPE: Final = (0.45, 2.2)
LONE_FILL: Final = 0.3
#: ... and read in frames turned along the edges around it: the ways they run (modulo a
#: right angle) within this many of the mark's units (square root of its area), in bins of
#: this many degrees; the two strongest that lie at least ``LONE_APART`` degrees apart, the
#: second if at least ``LONE_SECOND`` as strong as the first.
LONE_REACH: Final = 4.0
LONE_BIN: Final = 3
LONE_APART: Final = 12
LONE_SECOND: Final = 0.5
#: Past this many compact marks that could be lone marks (on the probe photos a hundred, nine
#: photos in ten under 250), those with more twins than ``LONE_TWINS`` on their region
#: (``_twins``) are left out: on the probe photos the stars read had at most 13, and cloths
#: whose pattern passes as card white gave a thousand compact marks with hundreds each (4,000-
#: 6,000 lone guesses, a second's work).
LONE_BUDGET: Final = 300
LONE_TWINS: Final = 30
#: A lone mark's guess is looked at closely from this coarse score (a star is a simple shape:
#: stars read from pips and art came to 0.81 on the probe decks, right ones to 0.77-0.99).
LONE_LOOK: Final = 0.75
#: ... and read from this close score (there, stars read from pips and art came to 0.89, right
#: ones to 0.93-0.99).
LONE_ACCEPT: Final = 0.9
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
#: Which way a lone mark's card lies is told by its learned picture over this share of the
#: card's width and height next to the mark (in a fan, little more of a card shows).
LONE_PICTURE: Final = 0.3


@dataclass(frozen=True, slots=True)
class RecognizedCard:
    """One card seen in a photo. ``corners`` are in the upright photo's pixels, clockwise from
    the card's top-left (the corner of the index that was read)."""

    code: str
    confidence: float
    top: bool
    corners: tuple[tuple[float, float], ...]
    alternatives: tuple[str, ...] = ()

    def to_json(self) -> JsonObject:
        return {
            "code": self.code,
            "confidence": round(self.confidence, 3),
            "top": self.top,
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
        }


@dataclass(frozen=True, slots=True)
class Recognition:
    """The cards of one photo, left to right as seen, and warnings for the player."""

    cards: tuple[RecognizedCard, ...]
    warnings: tuple[str, ...] = ()
    width: int = 0
    height: int = 0

    @property
    def codes(self) -> list[str]:
        return [c.code for c in self.cards]

    @property
    def top(self) -> RecognizedCard | None:
        """The top card of the (first) overlapping group, if any."""
        return next((c for c in self.cards if c.top), None)

    def to_json(self) -> JsonObject:
        return {"cards": [c.to_json() for c in self.cards], "warnings": list(self.warnings)}


@dataclass
class _Guess:
    pip: int
    anchor: int
    frame: npt.NDArray[np.float64]
    unit: float
    region: int
    card: int = -1
    template: int = -1
    score: float = -1.0
    second: float = -1.0
    second_card: int = -1
    worst: float = -1.0  # the close comparison's poorer part (rank or pip), less colour
    finalists: tuple[int, ...] = ()
    templates: dict[int, int] = field(default_factory=dict)
    colour: npt.NDArray[np.float32] | None = None
    refined: npt.NDArray[np.float64] | None = None
    lone: bool = False  # a lone corner mark (``pip`` is ``anchor``), read as lone cards only


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


def recognize(
    image: bytes | bytearray | memoryview | str | Path, profile: DeckProfile | None = None
) -> Recognition:
    """Name the cards in a photo (bytes or a path) against a deck profile (built-in by default).

    Raises NotAnImageError, EmptyImageError or ImageTooLargeError for bad input.
    """
    if profile is None:
        from scorekeeper.vision.builtin import reference_profile

        profile = reference_profile()
    photo = decode(read_bytes(image), max_side=WORK_SIDE, quick=True)
    cards, warnings = find_cards(photo.image, profile, photo.detail)
    s = photo.scale
    out = [
        RecognizedCard(
            code=profile.codes[c.card],
            confidence=_confidence(c.score, c.second, c.worst),
            top=c.top,
            corners=tuple((float(x * s), float(y * s)) for x, y in c.quad),
            alternatives=(profile.codes[c.second_card],) if c.second_card >= 0 else (),
        )
        for c in cards
    ]
    warnings += _warnings(out, photo.width, photo.height)
    return Recognition(tuple(out), tuple(warnings), photo.width, photo.height)


def _warnings(cards: list[RecognizedCard], width: int, height: int) -> list[str]:
    """What a player should check or redo before confirming."""
    out = []
    for i, card in enumerate(cards, 1):
        if card.confidence < CHECK_BELOW:
            maybe = f" (or {card.alternatives[0]}?)" if card.alternatives else ""
            out.append(f"card {i} read as {card.code} is uncertain{maybe}: please check it")
        margin = 0.02 * max(width, height)
        if any(x < -margin or y < -margin or x > width + margin or y > height + margin
               for x, y in card.corners):
            out.append(f"card {i} ({card.code}) is partly outside the photo")
    counts = Counter(card.code for card in cards)
    for code, count in counts.items():
        if count > 1:
            out.append(f"{code} was read {count} times: check it, unless the table plays with "
                       f"{count} or more decks")
    if cards:
        widths = sorted(float(np.hypot(*np.subtract(c.corners[1], c.corners[0])))
                        for c in cards)
        if widths[len(widths) // 2] < 0.06 * max(width, height):
            out.append("the cards look small: hold the phone closer for a surer reading")
    return out


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


def find_cards(
    img: npt.NDArray[np.uint8], profile: DeckProfile, detail: npt.NDArray[np.uint8] | None = None
) -> tuple[list[_Card], list[str]]:
    """The cards in an upright BGR working image, left to right; and warnings. ``detail`` is
    the same photo larger, if at hand: the close comparison samples the corners from it."""
    warnings: list[str] = []
    if len(profile) == 0:
        return [], ["the deck profile holds no cards: calibrate the deck first"]
    scene = analyse(img)
    if not scene.card_width:
        return [], ["no cards found: lay the cards on a plain table or cloth and fill the photo "
                    "with them"]
    long_side = max(img.shape[:2])
    erode = max(2, round(long_side / 500))
    ink = card_ink(scene, erode)
    waists: list[tuple[Blob, Blob]] = []
    blobs, parts = _marks(ink, waists)
    guesses = [g for g in _guesses(scene, blobs, profile) if not parts[g.pip] & parts[g.anchor]]
    # A rank joined to its pip is read from its two halves, paired with each other only.
    halves = []
    for a, b in waists:
        halves.append((len(blobs), len(blobs) + 1))
        blobs += [a, b]
        parts += [frozenset((-len(parts) - 1,)), frozenset((-len(parts) - 2,))]
    guesses += _waist_guesses(scene, blobs, halves, profile)
    if profile.lone.any():
        guesses += _lone_guesses(scene, blobs)
    guesses = _placeable(scene, guesses, _kept(profile).placements)
    if not guesses:
        return [], ["no card corners found: make sure each card's corner (rank and suit) shows"]
    _score(scene, ink, guesses, profile)
    cards = _assemble(scene, blobs, parts, guesses, profile, _Fine(scene, ink, profile, detail))
    cards = _same_size(_not_within_stronger(cards))
    if not cards:
        warnings.append("no card could be read: hold the phone closer or steadier and retake")
    cards, leads = _uncovered(cards, _leads(cards, scene.ink, profile))
    _mark_top(cards, leads)
    cards.sort(key=lambda c: float(c.quad[:, 0].mean()))
    return cards, warnings


def _marks(ink: FloatImage, waists: list[tuple[Blob, Blob]] | None = None) -> tuple[
        list[Blob], list[frozenset[int]]]:
    """Ink marks at each of ``MARK_LEVELS``, after each of ``OPENINGS`` and at ``SPLIT_LEVEL``
    (with the unions of nearby ones), and what each is made of: the ids of the first level's
    marks it holds (or an id of its own). Two marks that share an id are never read as parts
    of one index, nor as two indices. With ``waists``, the halves of each first-level mark
    that narrows to a waist are put in it (``_waist_halves``)."""
    blobs: list[Blob] = []
    parts: list[frozenset[int]] = []
    # Only the box around the cards is searched (the table reads as blank), with a margin of
    # blank so that the opening treats the box's edge as the rest of the photo.
    most = round(MAX_MARK * max(ink.shape))
    x0, y0, w0, h0 = cv2.boundingRect((ink > 0).astype(np.uint8))
    if w0 == 0 or h0 == 0:
        return blobs, parts
    pad = max(OPENINGS) + 1
    x1, y1 = min(ink.shape[1], x0 + w0 + pad), min(ink.shape[0], y0 + h0 + pad)
    x0, y0 = max(0, x0 - pad), max(0, y0 - pad)
    ink = ink[y0:y1, x0:x1]
    offset = np.array([x0, y0], np.float64)
    first: npt.NDArray[Any] | None = None
    first_area: npt.NDArray[Any] = np.zeros(0, np.int32)
    fresh = 0
    passes = ([(level, 0, False) for level in MARK_LEVELS]
              + [(MARK_LEVELS[0], k, False) for k in OPENINGS] + [(SPLIT_LEVEL, 0, True)])
    for level, opening, split in passes:
        mask: npt.NDArray[Any] = (ink > level).astype(np.uint8)
        if opening:
            mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(
                cv2.MORPH_ELLIPSE, (opening, opening)))
        # Grana's block-based labelling: the same labels as OpenCV's default, in half the time.
        count, labels, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(
            mask, 8, cv2.CV_32S, cv2.CCL_GRANA)
        holds: dict[int, frozenset[int]] = {}
        if first is None:
            first, first_area, fresh = labels, stats[:, 4], count
            holds = {k: frozenset((k,)) for k in range(1, count)}
            if waists is not None:
                waists += _waist_halves(labels, stats, (x0, y0), most)
        else:
            inside = first > 0
            codes = labels[inside].astype(np.int64) * fresh + first[inside]
            # Pixels come in runs of one pair along each row: unique runs are far fewer.
            pairs = np.unique(codes[np.flatnonzero(np.diff(codes, prepend=-1))])
            grouped: dict[int, set[int]] = {}
            for pair in pairs.tolist():
                grouped.setdefault(pair // fresh, set()).add(pair % fresh)
            holds = {k: frozenset(v) for k, v in grouped.items()}
        level_blobs, level_parts, cut_from = [], [], []
        for k in range(1, count):
            x, y, w, h, area = (int(v) for v in stats[k])
            held = holds.get(k)
            if area < 5:
                continue
            if opening or split:
                # An opened mark lies inside one unopened mark: the same mark unless it was cut
                # out of a larger one, and then a mark of its own.
                if held is not None and OPEN_SPLIT * area >= float(first_area[next(iter(held))]):
                    continue
                cut_from.append(-1 if held is None else next(iter(held)))
                held = None
            if held is None:
                held, fresh = frozenset((fresh,)), fresh + 1
            elif labels is not first and len(held) == 1 and (
                    1.3 * float(first_area[next(iter(held))]) >= area):
                continue  # the same mark as at the first level
            level_blobs.append(Blob(centroids[k].astype(np.float64) + offset, x + x0, y + y0,
                                    w, h, area))
            level_parts.append(held)
        if split:
            pieces = Counter(cut_from)
            kept = [j for j, mark in enumerate(cut_from) if pieces[mark] <= SPLIT_PARTS]
            level_blobs = [level_blobs[j] for j in kept]
            level_parts = [level_parts[j] for j in kept]
        level_blobs, level_parts = _with_unions(level_blobs, level_parts)
        blobs += level_blobs
        parts += level_parts
    return blobs, parts


def _waist_halves(labels: npt.NDArray[Any], stats: npt.NDArray[Any], offset: tuple[int, int],
                  most: int) -> list[tuple[Blob, Blob]]:
    """The two halves of each labelled mark of at least ``WAIST_MIN_AREA`` pixels and at most
    ``most`` across that narrows to a waist (``_waist_split``), in photo pixels."""
    out = []
    sizes = np.maximum(stats[:, 2], stats[:, 3])
    for k in np.nonzero((stats[:, 4] >= WAIST_MIN_AREA) & (sizes <= most))[0].tolist():
        if k == 0:
            continue
        x, y, w, h, _ = (int(v) for v in stats[k])
        pieces = _waist_split(labels[y:y + h, x:x + w] == k)
        x, y = x + offset[0], y + offset[1]
        halves = [Blob(centroid + (x, y), bx + x, by + y, bw, bh, area)
                  for centroid, (bx, by, bw, bh), area in pieces]
        if len(halves) == 2:
            out.append((halves[0], halves[1]))
    return out


def _waist_split(mask: npt.NDArray[np.bool_]) -> list[tuple[
        npt.NDArray[np.float64], tuple[int, int, int, int], int]]:
    """A long mark's two halves where it narrows to a waist between them (a rank and its pip
    that blur or a tail of the rank joined), as (centroid, box, area) in the mask's pixels;
    none for a mark without one.

    >>> m = np.zeros((30, 12), bool); m[1:13, 1:11] = True; m[17:29, 1:11] = True
    >>> m[13:17, 5:7] = True
    >>> [(c.round(1).tolist(), box, area) for c, box, area in _waist_split(m)]
    [([5.5, 6.6], (1, 1, 10, 13), 122), ([5.5, 22.3], (1, 15, 10, 14), 124)]
    >>> _waist_split(np.ones((30, 12), bool))
    []
    """
    ys, xs = np.nonzero(mask)
    pts = np.column_stack([xs, ys]).astype(np.float64)
    centred = pts - pts.mean(axis=0)
    values, vectors = np.linalg.eigh(centred.T @ centred)
    if values[1] < WAIST_LONG * max(values[0], 1e-6):
        return []
    along = centred @ vectors[:, 1]
    bins = np.floor(along - along.min()).astype(np.int64)
    profile = np.convolve(np.bincount(bins), np.ones(3) / 3, mode="same")
    n = len(profile)
    lo, hi = n // 4, n - n // 4
    if hi - lo < 1:
        return []
    cut = lo + int(np.argmin(profile[lo:hi]))
    if profile[cut] > WAIST_NARROW * min(profile[:cut].max(), profile[cut + 1:].max()):
        return []
    out = []
    for side in (bins < cut, bins > cut):
        if side.sum() < WAIST_SHARE * len(bins):
            return []
        p = pts[side]
        x0, y0 = p.min(axis=0).astype(int)
        x1, y1 = p.max(axis=0).astype(int)
        out.append((p.mean(axis=0), (int(x0), int(y0), int(x1 - x0 + 1), int(y1 - y0 + 1)),
                    int(side.sum())))
    return out


def _with_unions(blobs: list[Blob], parts: list[frozenset[int]]) -> tuple[
        list[Blob], list[frozenset[int]]]:
    """The ink marks, then the unions of pairs of nearby marks (a rank or pip broken in two
    reads as its union); and, for each, the first-level marks it is made of."""
    parts = list(parts)
    if not 2 <= len(blobs) <= MAX_UNION_MARKS:
        return blobs, parts
    box = np.array([(b.x, b.y, b.x + b.w, b.y + b.h) for b in blobs], np.float64)
    size = np.array([b.size for b in blobs], np.float64)
    pairs = []
    for lo, hi in _blocks(len(blobs)):
        rows = box[lo:hi, None]
        gap_x = np.maximum(box[None, :, 0] - rows[..., 2], rows[..., 0] - box[None, :, 2])
        gap_y = np.maximum(box[None, :, 1] - rows[..., 3], rows[..., 1] - box[None, :, 3])
        gap = np.maximum(np.maximum(gap_x, gap_y), 0.0)
        small = np.minimum(size[lo:hi, None], size[None, :])
        close = ((gap <= MERGE_GAP * small)
                 & (np.maximum(size[lo:hi, None], size[None, :]) < 3 * small))
        i, j = np.nonzero(np.triu(close, 1 + lo))
        pairs.append(np.column_stack([i + lo, j]))
    out = list(blobs)
    for i, j in np.concatenate(pairs).tolist():
        a, b = blobs[int(i)], blobs[int(j)]
        x0, y0 = min(a.x, b.x), min(a.y, b.y)
        x1, y1 = max(a.x + a.w, b.x + b.w), max(a.y + a.h, b.y + b.h)
        area = a.area + b.area
        centroid = (a.centroid * a.area + b.centroid * b.area) / area
        out.append(Blob(centroid, x0, y0, x1 - x0, y1 - y0, area))
        parts.append(parts[int(i)] | parts[int(j)])
    return out, parts


def _guesses(scene: Scene, blobs: list[Blob], profile: DeckProfile) -> list[_Guess]:
    """Every pair of ink marks on one card region that could be a rank over its suit pip.

    The pairing is judged by the marks alone (their distance against the pip's size, and
    the two sizes against each other, within what the deck's own indices show), not by an
    estimate of the card's size: that estimate fails when cards overlap or merge with a
    pale table."""
    if not (~profile.lone).any():
        return []
    r_lo, r_hi = _pair_range(profile)
    by_region: dict[int, list[int]] = {}
    max_mark = MAX_MARK * max(scene.norm.shape[:2])
    centres = np.array([b.centroid for b in blobs]).reshape(-1, 2)
    regions = scene.regions_at(centres, printed=True)
    for i, b in enumerate(blobs):
        region = int(regions[i])
        if region == 0 or b.size < MIN_MARK or b.size > max_mark:
            continue
        by_region.setdefault(region, []).append(i)
    found = []
    for members in by_region.values():
        if len(members) < 2:
            continue
        index = np.array(members)
        pts = centres[index]
        sizes = np.array([blobs[i].size for i in members], np.float64)
        for lo, hi in _blocks(len(members)):
            diff = pts[lo:hi, None, :] - pts[None, :, :]
            dist = np.hypot(diff[..., 0], diff[..., 1])
            rel = dist / sizes[None, :]  # [anchor, pip]: distance over the pip's size
            scale = sizes[lo:hi, None] / sizes[None, :]  # anchor size over pip size
            anchors, pips = np.nonzero(_pairable(rel, scale, r_lo, r_hi))
            found.append((index[lo + anchors], index[pips], dist[anchors, pips]))
    if not found:
        return []
    anchor, pip, unit = (np.concatenate([f[k] for f in found]) for k in range(3))
    if len(pip) > GUESS_BUDGET:
        twins = _twins(blobs, regions)
        alike = np.maximum(twins[pip], twins[anchor])
        # Marks with as many twins are treated alike: all their pairs are kept, or none.
        cut = np.sort(alike)[GUESS_BUDGET]
        keep = alike < cut
        anchor, pip, unit = anchor[keep], pip[keep], unit[keep]
    frames = frame_matrices(centres[pip], centres[anchor])
    return [_Guess(p, a, frame, u, r) for a, p, frame, u, r in zip(
        anchor.tolist(), pip.tolist(), frames, unit.tolist(), regions[pip].tolist(),
        strict=True)]


def _blocks(n: int) -> list[tuple[int, int]]:
    """Row ranges for comparing ``n`` marks with each other a block of rows at a time, each
    block's arrays at most ``PAIR_BLOCK`` entries: a region of a busy print holds thousands
    of marks, and all their pairs at once took a gigabyte.

    >>> _blocks(3), [hi - lo for lo, hi in _blocks(2048)], _blocks(0)
    ([(0, 3)], [512, 512, 512, 512], [])
    """
    step = max(1, PAIR_BLOCK // max(n, 1))
    return [(lo, min(n, lo + step)) for lo in range(0, n, step)]


def _twins(blobs: list[Blob], regions: npt.NDArray[np.int32],
           which: list[int] | None = None) -> npt.NDArray[np.int64]:
    """How many marks on the same region as each (or each of ``which``; itself included) are
    alike in width, height and area (within about ``TWIN_STEP``, twice that for the area): a
    patterned cloth's marks have hundreds, a card's print a few dozen at most.

    >>> b = [Blob(np.zeros(2), 0, 0, w, 10, 10 * w) for w in (10, 10, 10, 30)]
    >>> _twins(b, np.array([1, 1, 2, 1], np.int32)).tolist(), _twins(b, np.ones(4, np.int32), [1])
    ([2, 2, 1, 1], array([3]))
    """
    keys = np.column_stack([
        regions,
        np.round(np.log([max(b.w, 1) for b in blobs]) / TWIN_STEP),
        np.round(np.log([max(b.h, 1) for b in blobs]) / TWIN_STEP),
        np.round(np.log([max(b.area, 1) for b in blobs]) / (2 * TWIN_STEP)),
    ]).astype(np.int64)
    counts = Counter(map(tuple, keys.tolist()))
    steps = [(0, dw, dh, da) for dw in (-1, 0, 1) for dh in (-1, 0, 1) for da in (-1, 0, 1)]
    asked = keys.tolist() if which is None else keys[which].tolist()
    return np.array([sum(counts.get((k[0] + s[0], k[1] + s[1], k[2] + s[2], k[3] + s[3]), 0)
                         for s in steps) for k in asked], np.int64)


def _pair_range(profile: DeckProfile) -> tuple[float, float]:
    """How far from its pip (over the pip's size) a rank may lie, from the deck's indices."""
    paired = ~profile.lone[profile.owner]
    ratio = profile.d_ratio[paired] / np.maximum(profile.pip_ratio[profile.owner[paired]], 1e-3)
    return float(ratio.min()) * PAIR_SLACK[0], float(ratio.max()) * PAIR_SLACK[1]


def _pairable(rel: npt.NDArray[np.float64], scale: npt.NDArray[np.float64], r_lo: float,
              r_hi: float) -> npt.NDArray[np.bool_]:
    """Which anchors could be the rank over a pip, from their distance over the pip's size
    (``rel``, within ``_pair_range``) and their size over the pip's (``scale``).

    >>> _pairable(np.array([1.0, 1.0, 3.0]), np.array([1.0, 4.0, 1.0]), 0.5, 2.0).tolist()
    [True, False, False]
    """
    out: npt.NDArray[np.bool_] = ((rel >= r_lo) & (rel <= r_hi)
                                  & (scale > PAIR_SCALE[0]) & (scale < PAIR_SCALE[1]))
    return out


def _waist_guesses(scene: Scene, blobs: list[Blob], halves: list[tuple[int, int]],
                   profile: DeckProfile) -> list[_Guess]:
    """The two halves of each mark with a waist (``blobs`` at ``halves``) as a rank over its
    pip, either way round, where the deck's indices allow it (as ``_guesses``)."""
    if not halves or not (~profile.lone).any():
        return []
    r_lo, r_hi = _pair_range(profile)
    pairs = np.array([pair for a, b in halves for pair in ((a, b), (b, a))], np.int64)
    pts = np.array([[blobs[i].centroid for i in pair] for pair in pairs.tolist()])  # anchor, pip
    sizes = np.array([[blobs[i].size for i in pair] for pair in pairs.tolist()], np.float64)
    dist = np.hypot(*(pts[:, 0] - pts[:, 1]).T)
    ok = _pairable(dist / sizes[:, 1], sizes[:, 0] / sizes[:, 1], r_lo, r_hi)
    regions = scene.regions_at(pts[:, 1], printed=True)
    ok &= regions > 0
    frames = frame_matrices(pts[ok, 1], pts[ok, 0])
    return [_Guess(p, a, frame, unit, region) for (a, p), frame, unit, region in zip(
        pairs[ok].tolist(), frames, dist[ok].tolist(), regions[ok].tolist(), strict=True)]


def _lone_guesses(scene: Scene, blobs: list[Blob]) -> list[_Guess]:
    """Every compact ink mark on a card region that could be a card's lone corner mark, in
    frames turned along the edges around it (four ways up for each way they run).

    A lone mark gives no direction of its own (a star looks alike turned): the card's edges
    near it, the straightest and strongest there, give it."""
    max_mark = MAX_MARK * max(scene.norm.shape[:2])
    candidates = [i for i, b in enumerate(blobs)
                  if MIN_MARK <= b.size <= max_mark
                  and LONE_SHAPE[0] <= b.w / b.h <= LONE_SHAPE[1]
                  and b.area >= LONE_FILL * b.w * b.h]
    if not candidates:
        return []
    if len(candidates) > LONE_BUDGET:
        # A cloth whose pattern passes as card white gives thousands of compact marks, each
        # with hundreds of twins (a joker's star has a few: its other star, pips of its size).
        twins = _twins(blobs, scene.regions_at(np.array([b.centroid for b in blobs]),
                                               printed=True), candidates)
        candidates = [i for i, n in zip(candidates, twins.tolist(), strict=True)
                      if n <= LONE_TWINS]
    regions = scene.regions_at(np.array([blobs[i].centroid for i in candidates]).reshape(-1, 2),
                               printed=True)
    directions = _Directions(scene.ink)
    origins, anchors, units, owners = [], [], [], []
    for i, region in zip(candidates, regions.tolist(), strict=True):
        if region == 0:
            continue
        b = blobs[i]
        unit = math.sqrt(b.area)
        for angle in directions.near(b.centroid, unit):
            for quarter in range(4):
                a = math.radians(angle + 90 * quarter)
                origin, anchor = lone_points(b.centroid, unit, np.array([math.cos(a), math.sin(a)]))
                origins.append(origin)
                anchors.append(anchor)
                units.append(unit)
                owners.append((i, region))
    if not origins:
        return []
    frames = frame_matrices(np.array(origins), np.array(anchors))
    return [_Guess(i, i, frame, unit, region, lone=True)
            for (i, region), frame, unit in zip(owners, frames, units, strict=True)]


#: Each direction bin's neighbours, round the circle.
_BIN_BEFORE: Final = (np.arange(90 // LONE_BIN) - 1) % (90 // LONE_BIN)
_BIN_AFTER: Final = (np.arange(90 // LONE_BIN) + 1) % (90 // LONE_BIN)


class _Directions:
    """Which way the edges of a photo run (modulo a right angle: a card's two edges agree),
    at half size: each pixel's direction bin and squared edge strength."""

    def __init__(self, ink: FloatImage) -> None:
        h, w = ink.shape[:2]
        half = cv2.resize(ink, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA)
        strength, angle = cv2.cartToPolar(cv2.Sobel(half, cv2.CV_32F, 1, 0),
                                          cv2.Sobel(half, cv2.CV_32F, 0, 1),
                                          angleInDegrees=True)
        # An edge runs across its gradient; modulo a right angle, the same bin.
        self.bins = (angle // LONE_BIN).astype(np.int32) % (90 // LONE_BIN)
        self.strength = strength * strength

    def near(self, point: npt.NDArray[np.float64], unit: float) -> list[float]:
        """The directions (degrees) the edges mostly run in from 1 to ``LONE_REACH`` units of
        a point (not the mark's own outline): the strongest, and a second one if it is strong
        and apart."""
        h, w = self.bins.shape
        cx, cy = point / 2.0
        reach = LONE_REACH * unit / 2.0
        x0, x1 = max(0, int(cx - reach)), min(w, int(cx + reach) + 1)
        y0, y1 = max(0, int(cy - reach)), min(h, int(cy + reach) + 1)
        if x1 - x0 < 3 or y1 - y0 < 3:
            return []
        # Squared distances: half the time of np.hypot, in the innermost loop of lone marks.
        ring = (np.arange(x0, x1)[None, :] - cx) ** 2 + (np.arange(y0, y1)[:, None] - cy) ** 2
        keep = (ring >= (unit / 2.0) ** 2) & (ring <= reach ** 2)
        bins = 90 // LONE_BIN
        counts = np.bincount(self.bins[y0:y1, x0:x1][keep],
                             weights=self.strength[y0:y1, x0:x1][keep], minlength=bins)
        smooth = counts + 0.5 * (counts[_BIN_BEFORE] + counts[_BIN_AFTER])
        order = np.argsort(-smooth)
        best = int(order[0])
        out = [(best + 0.5) * LONE_BIN]
        for k in (int(k) for k in order[1:]):
            apart = min(abs(k - best), bins - abs(k - best)) * LONE_BIN
            if apart >= LONE_APART:
                if smooth[k] >= LONE_SECOND * smooth[best]:
                    out.append((k + 0.5) * LONE_BIN)
                break
        return out


def _score(scene: Scene, ink: FloatImage, guesses: list[_Guess], profile: DeckProfile) -> None:
    """The coarse comparison: each guess's index patch against every learned index, first over
    the whole window (cheap: it drops pairs of marks that are no index), then around each
    learned glyph; set the best card, the runner-up and the finalists of guesses that come
    close to one (with the best few around the index's own glyphs, ``RESCUED``)."""
    patches = np.empty((len(guesses), PATCH_W * PATCH_H), np.float32)
    frames = np.stack([g.frame for g in guesses])
    steps = STEP * np.array([g.unit for g in guesses])
    level_of = np.where(steps < 1.6, 0, np.where(steps < 3.2, 1, 2))
    for level in np.unique(level_of).tolist():
        at = np.nonzero(level_of == level)[0]
        patches[at] = sample_patches(blur_for_step(ink, (0.0, 2.4, 4.4)[level]), frames[at])
    n = len(profile.codes)
    kept = _kept(profile)
    # The pairs of marks come first, the lone marks after them.
    split = next((i for i, g in enumerate(guesses) if g.lone), len(guesses))
    found = [_compare(patches[split:] if group.lone else patches[:split], group, n,
                      split if group.lone else 0) for group in kept.groups]
    rows = np.concatenate([f.rows for f in found])
    per_card = np.concatenate([f.per_card for f in found])
    best_template = np.concatenate([f.best for f in found])
    if not len(rows):
        return
    # The ink is read on the glyphs of the card whose shape fits best: the window also holds
    # what lies around the index (the table by the card's edge, the card above).
    glyphs = kept.glyphs[best_template[np.arange(len(rows)), np.argmax(per_card, axis=1)]]
    colours = ink_colours(sample_patches(scene.norm, frames[rows]),
                          patches[rows] * glyphs.reshape(len(rows), -1))
    penalty = _colour_penalty(profile.colours[None], colours[:, None])
    combined = per_card - penalty
    orders = np.argsort(-combined, axis=1)[:, :max(FINALISTS, 2)]
    own = np.concatenate([f.own for f in found]) - penalty
    own_best = np.concatenate([f.own_best for f in found])
    own_orders = np.argsort(-own, axis=1)[:, :RESCUED]
    for k, i in enumerate(rows.tolist()):
        g, order, scores = guesses[i], orders[k], combined[k]
        g.card = int(order[0])
        g.score = float(scores[order[0]])
        g.second_card = int(order[1]) if n > 1 else -1
        g.second = float(scores[order[1]]) if n > 1 else -1.0
        g.template = int(best_template[k, g.card])
        g.colour = colours[k]
        g.finalists = tuple(int(c) for c in order[:FINALISTS]
                            if scores[c] >= scores[order[0]] - FINALIST_GAP)
        crosses = _crosses(g.finalists, kept.shown, kept.card_of)[:CROSSES]
        g.finalists += crosses
        g.templates = {int(c): int(best_template[k, c])
                       for c in (*order[:FINALISTS].tolist(), *crosses)}
        rescued = tuple(int(c) for c in own_orders[k] if int(c) not in g.finalists
                        and own[k, c] >= own[k, own_orders[k, 0]] - FINALIST_GAP)
        g.finalists += rescued
        g.templates.update({c: int(own_best[k, c]) for c in rescued})


def _crosses(finalists: tuple[int, ...], shown: tuple[tuple[int, str] | None, ...],
             card_of: dict[tuple[int, str], int]) -> tuple[int, ...]:
    """The cards, not among ``finalists``, that take their rank from one finalist and their
    suit from another: the coarse comparison judges whole indices, and a blurred 6 of
    diamonds may come closer to a 6 of hearts and a 5 of diamonds than to itself; the close
    comparison judges rank and pip apart (and shares each between finalists, ``_shared``).

    >>> shown = ((6, "he"), (5, "di"), (6, "di"), (5, "he"), None)
    >>> card_of = {s: c for c, s in enumerate(shown) if s is not None}
    >>> _crosses((0, 1), shown, card_of), _crosses((0, 4), shown, card_of)
    ((2, 3), ())
    """
    out: list[int] = []
    parts = [shown[c] for c in finalists]
    for rank_of in parts:
        for suit_of in parts:
            if rank_of is None or suit_of is None:
                continue
            card = card_of.get((rank_of[0], suit_of[1]))
            if card is not None and card not in finalists and card not in out:
                out.append(card)
    return tuple(out)


class _Compared(NamedTuple):
    """What ``_compare`` found: the rows of the guesses that come close to a learned index,
    each card's best score for them and which template (of the profile's) that is; and the
    same around the index's own glyphs only."""

    rows: npt.NDArray[np.int64]
    per_card: npt.NDArray[np.float32]
    best: npt.NDArray[np.int64]
    own: npt.NDArray[np.float32]
    own_best: npt.NDArray[np.int64]


def _compare(patches: FloatImage, group: _Group, n: int, first: int) -> _Compared:
    """Patches (guesses ``first`` on) against one group of templates: the guesses that come
    close to one of them around its glyphs (roughly, ``ROUGH``, and then in full,
    ``SHORTLIST``); for those, each card's best score around its glyphs and which template
    (of the profile's) that is, and the same around the index's own glyphs only. In chunks
    of rows: a busy print gives tens of thousands of guesses, and each row holds a score per
    template."""
    rows, per_card, best = [np.zeros(0, np.int64)], [np.zeros((0, n), np.float32)], [
        np.zeros((0, n), np.int64)]
    own_card, own_best = [np.zeros((0, n), np.float32)], [np.zeros((0, n), np.int64)]
    for start in range(0, len(patches), SCORE_ROWS):
        chunk = patches[start:start + SCORE_ROWS]
        kept = np.nonzero(group.glyphs.rough(chunk) >= ROUGH)[0]
        ncc = group.glyphs.correlate(chunk[kept])
        close = np.nonzero(ncc.max(axis=1, initial=-1.0) >= SHORTLIST)[0]
        top, which = _per_card(ncc[close], group.owner, n)
        rows.append(first + start + kept[close])
        per_card.append(top)
        best.append(group.columns[which])
        top, which = _per_card(group.own.correlate(chunk[kept[close]]), group.owner, n)
        own_card.append(top)
        own_best.append(group.columns[which])
    return _Compared(np.concatenate(rows), np.concatenate(per_card), np.concatenate(best),
                     np.concatenate(own_card), np.concatenate(own_best))


def _per_card(scores: npt.NDArray[np.float32], owner: npt.NDArray[np.int32], n: int) -> tuple[
        npt.NDArray[np.float32], npt.NDArray[np.int64]]:
    """Each card's best template score in each row of ``scores`` (rows by templates; -1 for a
    card without templates), and which template that is (the first of equals).

    >>> s = np.array([[0.25, 0.75, 0.5, 0.125]], np.float32)
    >>> best, which = _per_card(s, np.array([0, 2, 0, 2], np.int32), 3)
    >>> best.tolist(), which.tolist()
    ([[0.5, -1.0, 0.75]], [[2, 0, 1]])
    """
    best = np.full((len(scores), n), -1.0, np.float32)
    which = np.zeros((len(scores), n), np.int64)
    if not len(owner) or not len(scores):
        return best, which
    order = np.argsort(owner, kind="stable")
    cards, starts = np.unique(owner[order], return_index=True)
    grouped = scores[:, order]
    top = np.maximum.reduceat(grouped, starts, axis=1)
    at_top = grouped >= top[:, np.searchsorted(cards, owner[order])]
    first = np.minimum.reduceat(np.where(at_top, np.arange(len(order)), len(order)), starts,
                                axis=1)
    best[:, cards] = top
    which[:, cards] = order[first]
    return best, which


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


_KEPT: weakref.WeakKeyDictionary[DeckProfile, _Kept] = weakref.WeakKeyDictionary()


def _kept(profile: DeckProfile) -> _Kept:
    """The work kept with ``profile`` (made on its first photo)."""
    if profile not in _KEPT:
        own = index_glyphs(profile.templates)
        glyphs = np.stack([grown(g, GLYPH_GROW) for g in own]) if len(own) else own
        shown = tuple(_rank_and_suit(code) for code in profile.codes)
        _KEPT[profile] = _Kept(_groups(profile, own), glyphs, {}, shown, {
            rank_and_suit: card for card, rank_and_suit in enumerate(shown)
            if rank_and_suit is not None and not profile.lone[card]},
            _placements(profile.corners[~profile.lone[profile.owner]]))
    return _KEPT[profile]


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


def _placeable(scene: Scene, guesses: list[_Guess], placements: npt.NDArray[np.float64]) -> (
        list[_Guess]):
    """The guesses whose card could lie on the cards (``PLACED_ON``), before the comparison:
    most pairs of marks in a busy photo are pips in a card's middle or marks of a court's
    picture, and the card they would be the index of reaches off the cards in every place
    the deck's cards take around their index. Lone marks are kept (they place no card)."""
    pairs = np.array([i for i, g in enumerate(guesses) if not g.lone], np.int64)
    if not len(pairs) or not len(placements):
        return guesses
    frames = np.stack([guesses[i].frame for i in pairs.tolist()])
    # The points spread over each place in the index's frame, mapped through each pair's.
    local = _spread_points(_near_index(placements), 0.94, grid=PLACED_GRID)
    kept = np.zeros(len(pairs), np.bool_)
    # The commonest place first, and each next one for the pairs not yet placed only.
    for points in local:
        todo = np.flatnonzero(~kept)
        if not len(todo):
            break
        mapped = points @ frames[todo, :, :2].transpose(0, 2, 1) + frames[todo, None, :, 2]
        kept[todo] = _share_on_regions(scene, mapped, hull=True) >= PLACED_ON
    dropped = set(pairs[~kept].tolist())
    return [g for i, g in enumerate(guesses) if i not in dropped]


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


def _colour_penalty(colours: npt.NDArray[np.float32], colour: npt.NDArray[np.float32]) -> (
        npt.NDArray[np.float32]):
    """Score lost for a difference in ink colour; small differences (blur, JPEG, light) are
    free, different inks (red, gold, blue, black) are not."""
    dist = np.linalg.norm(colours - colour, axis=-1)
    out: npt.NDArray[np.float32] = (COLOUR_WEIGHT * np.maximum(dist - COLOUR_FREE, 0.0)).astype(
        np.float32)
    return out


@dataclass(frozen=True)
class _Part:
    """A learned card's rank or pip as the close comparison sees it."""

    shape: FloatImage
    gradients: npt.NDArray[np.float32]
    mask: npt.NDArray[np.float32]  # near the glyph (``_near_glyph``), laid out as the gradients
    glyph: Glyph | None  # what aligning to it takes; None: too plain to align to

    @classmethod
    def of(cls, shape: FloatImage) -> _Part:
        near = _near_glyph(shape)
        return cls(shape, _gradients(shape), _as_gradients(near), Glyph.of(shape, near))


class _Fine:
    """Close comparison: a larger patch aligned to each finalist's index by ECC (affine)."""

    def __init__(self, scene: Scene, ink: FloatImage, profile: DeckProfile,
                 detail: npt.NDArray[np.uint8] | None) -> None:
        self.scene = scene
        self.ink = ink
        self.profile = profile
        self.levels: dict[float, FloatImage] = {}
        self.cards: dict[int, FloatImage] = {}
        kept = _kept(profile)
        self.templates = kept.parts
        self.shown = kept.shown
        self.detail = detail
        self.inside = (ink > 0).astype(np.float32)
        self.k = 1.0 if detail is None else detail.shape[1] / ink.shape[1]

    def _sample(self, g: _Guess, part: int) -> FloatImage:
        """The guess's rank or pip as ink, from the larger photo when there is one."""
        window, width, height = FINE_PARTS[part]
        step = (window[0][1] - window[0][0]) / width * g.unit
        if self.detail is None or self.k < DETAIL_MIN or step * self.k < 1.0:
            out: FloatImage = cv2.warpAffine(
                self._source(step), patch_matrix(g.frame, width, height, window),
                (width, height), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                borderMode=cv2.BORDER_REPLICATE)
            return out
        # Sample twice as finely from the larger photo, then average down (no aliasing).
        to_detail = np.array([[self.k, 0.0, 0.5 * self.k - 0.5], [0.0, self.k, 0.5 * self.k - 0.5],
                              [0.0, 0.0, 1.0]])
        m = (to_detail @ np.vstack([patch_matrix(g.frame, 2 * width, 2 * height, window),
                                    [0, 0, 1]]))[:2]
        bgr = cv2.warpAffine(self.detail, m, (2 * width, 2 * height),
                             flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                             borderMode=cv2.BORDER_REPLICATE)
        bgr = cv2.resize(bgr, (width, height), interpolation=cv2.INTER_AREA)
        centre = g.frame[:, 2] / 4.0
        sh, sw = self.scene.white_scale.shape[:2]
        cx = min(sw - 1, max(0, int(centre[0])))
        cy = min(sh - 1, max(0, int(centre[1])))
        norm = bgr.astype(np.float32) * self.scene.white_scale[cy, cx][None, None, :]
        inside = cv2.warpAffine(self.inside, patch_matrix(g.frame, width, height, window),
                                (width, height), flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP,
                                borderMode=cv2.BORDER_CONSTANT)
        ink: FloatImage = inkness(norm) * inside
        return ink

    def _source(self, step: float) -> FloatImage:
        sigma = round(0.45 * step * 2) / 2
        if sigma not in self.levels:
            self.levels[sigma] = blur_for_step(self.ink, sigma / 0.45)
        return self.levels[sigma]

    def _card(self, card: int) -> FloatImage:
        if card not in self.cards:
            ink = self.profile.ink[card].astype(np.float32) / 255.0
            self.cards[card] = blur_for_step(ink, 1.6)
        return self.cards[card]

    def _template(
        self, card: int, t: int, part: int
    ) -> _Part:
        """A learned card's rank or pip in template ``t``'s frame (kept while the profile
        lives: a photo's guesses often have the same finalists, and so do the photos of one
        table)."""
        key = (card, t, part)
        if key not in self.templates:
            window, width, height = FINE_PARTS[part]
            to_canon = np.vstack([self.profile.to_canon[t].astype(np.float64), [0, 0, 1]])
            m = (to_canon @ np.vstack([patch_matrix(np.eye(3)[:2], width, height, window),
                                       [0, 0, 1]]))[:2]
            out: FloatImage = cv2.warpAffine(self._card(card), m, (width, height),
                                             flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                             borderMode=cv2.BORDER_REPLICATE)
            self.templates[key] = _Part.of(out)
        return self.templates[key]

    def settle(self, g: _Guess, accept: float) -> None:
        """Re-score a guess's finalists; set its card, score, poorer part and runner-up.

        Each part of the sample (rank, pip) is aligned to the best coarse candidate's glyph
        and, unless it plainly is that glyph, to each other distinct glyph among the
        finalists' (aligned to the first only, an 8 was judged in the frame that fits a 3);
        then compared by gradient correlation with every finalist, near the finalists' glyphs
        (``_fit``). A guess whose rank fits no finalist well enough to reach ``accept`` with
        any pip (a fit is at most 1) is left there: its score is then that bound, below
        ``accept``, and nothing else is set."""
        colour = g.colour if g.colour is not None else np.ones(3, np.float32)
        fits: dict[int, list[float]] = {card: [] for card in g.finalists}
        warps: dict[int, list[npt.NDArray[np.float64] | None]] = {c: [] for c in g.finalists}
        for part in range(len(FINE_PARTS)):
            if part == 1:
                bound = _score_bound(fits, self.profile.colours, colour)
                if bound < accept:
                    g.score = bound
                    return
            learned_parts = [self._template(card, g.templates[card], part)
                             for card in g.finalists]
            sample = self._sample(g, part)
            near = np.max([p.mask for p in learned_parts], axis=0)
            seen: list[_Aligned] = []
            for card, p in zip(g.finalists, learned_parts, strict=True):
                aligned = next((a for a in seen if a.sure or _fit(
                    a.learned.gradients, p.gradients, near) >= SAME_GLYPH), None)
                if aligned is None:
                    # After a refused first alignment, the others start from no warp, in a
                    # few steps too.
                    start = None if not seen else (
                        seen[0].warp if seen[0].warp is not None else np.eye(2, 3))
                    aligned = _aligned(p, sample, near, start, part)
                    seen.append(aligned)
                fits[card].append(_fit(p.gradients, aligned.gradients, near))
                warps[card].append(aligned.warp)
        results = _by_colour(_shared(fits, self.shown), self.profile.colours,
                             colour, g.templates,
                             {card: BEND_COST * max(0.0, _bend(warps[card]) - BEND_FREE)
                              for card in fits})
        g.score, g.card, g.template, g.worst = results[0]
        frames = [_refined(g.frame, warp, part)
                  for part, warp in enumerate(warps[g.card]) if warp is not None]
        if frames:
            g.refined = np.mean(frames, axis=0)
        if len(results) > 1:
            g.second, g.second_card = results[1][0], results[1][1]


def _shared(fits: dict[int, list[float]],
            shown: tuple[tuple[int, str] | None, ...]) -> dict[int, list[float]]:
    """The finalists' part fits (rank, pip), each part that two finalists share (one rank in
    two suits, one suit in two ranks) taken as the better of their fits for both.

    A rank is one glyph on every suit of a deck, and a suit one glyph on every rank; yet each
    card's learned copy of it fits the sample a little differently (each card is learned from
    its own photo, its index a pixel or two off in its frame, and the sample is judged in
    the alignment to the first finalist's copy). On the part two finalists share, that
    difference says nothing of which card it is: they are told apart by the part they do not
    share. (A 3 of clubs, its club plain, was read for certain as the 3 of spades whose
    learned 3 happened to fit the sample 0.1 better than the 3 of clubs' own.)

    >>> shown = ((3, "sp"), (3, "cl"), (8, "cl"), None)
    >>> _shared({0: [0.99, 0.94], 1: [0.89, 1.0], 2: [0.6, 0.9], 3: [0.7, 0.8]}, shown)
    {0: [0.99, 0.94], 1: [0.99, 1.0], 2: [0.6, 1.0], 3: [0.7, 0.8]}
    """
    out = {}
    for card, own in fits.items():
        mine = shown[card]
        out[card] = own if mine is None else [
            max(f[k] for other, f in fits.items()
                if (theirs := shown[other]) is not None and theirs[k] == mine[k])
            for k in range(len(own))]
    return out


def _bend(warps: list[npt.NDArray[np.float64] | None]) -> float:
    """How differently the alignments of a card's two parts (rank, pip) correct the guess's
    frame: the largest difference between their corrections' stretch and shear entries
    (frame units); 0 unless both parts were aligned.

    The rank and the pip of an index are printed together and seen through the same tilt:
    aligned to the right card's glyphs, both correct the frame alike. A wrong card's glyph is
    reached by bending one part on its own (a spade stretched one way and squeezed the other,
    by 0.19 more than its rank, to fit a club), and a card whose parts bend apart by more
    than ``BEND_FREE`` ranks as if it scored ``BEND_COST`` times the excess less. Its score
    is left as it is: bending tells which card a sample is, not whether it is one (a card of
    a deck the table never learned is still read, with doubt).

    >>> straight = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    >>> round(_bend([straight, straight]), 3), _bend([straight, None])
    (0.0, 0.0)
    >>> round(_bend([straight, np.array([[1.0, 0.0, 0.0], [0.0, 0.8, 0.0]])]), 3)
    0.2
    """
    if len(warps) < 2 or warps[0] is None or warps[1] is None:
        return 0.0
    difference = (_correction(warps[0], 0) - _correction(warps[1], 1))[:2, :2]
    return float(np.abs(difference).max())


def _score_bound(fits: dict[int, list[float]], colours: npt.NDArray[np.float32],
                 colour: npt.NDArray[np.float32]) -> float:
    """The most any finalist can score (``_by_colour``) once the parts fitted so far are
    known and every other part fits perfectly: the best mean with fits of 1 to come, less the
    smallest colour penalty among the finalists (the penalty ``_by_colour`` takes is never
    below it).

    >>> colours = np.array([[0.1, 0.1, 0.1], [0.1, 0.1, 0.8]], np.float32)
    >>> _score_bound({0: [0.2], 1: [0.5]}, colours, colours[0])
    0.75
    """
    parts = len(FINE_PARTS)
    best = max((sum(f) + parts - len(f)) / parts for f in fits.values())
    return best - float(_colour_penalty(colours[list(fits)], colour).min())


def _by_colour(fits: dict[int, list[float]], colours: npt.NDArray[np.float32],
               colour: npt.NDArray[np.float32], templates: dict[int, int],
               costs: dict[int, float] | None = None) -> list[tuple[float, int, int, float]]:
    """The finalists (score, card, template, poorer part), best first, from each one's part
    fits and how far its learned ink colour lies from the sample's; with ``costs``, in the order
    of their scores less their costs (which card it is), the scores themselves left as they are
    (whether it is one at all, and how surely).

    Where the sample fits two cards of different inks within ``TWIN_FIT`` (one glyph in two
    inks, or two glyphs the sample is too blurred to tell apart), shape cannot tell them apart:
    each gets the better fit and the smaller colour penalty of the two, and the one whose ink
    lies nearer the sample's leads by ``TWIN_COLOUR`` times the difference in distance. Two
    inks that lie close together (a dull gold and a bluish black) then never make a sure
    reading, as the colour penalty alone would once one of them is past ``COLOUR_FREE``."""
    cards = list(fits)
    dist = dict(zip(cards, np.linalg.norm(colours[cards] - colour, axis=1).tolist(), strict=True))
    penalties = dict(zip(cards, _colour_penalty(colours[cards], colour).tolist(), strict=True))
    mean = {card: sum(f) / len(f) for card, f in fits.items()}
    results = []
    for card in cards:
        group = [b for b in cards if b == card or (
            abs(mean[b] - mean[card]) <= TWIN_FIT
            and float(np.linalg.norm(colours[b] - colours[card])) > COLOUR_FREE)]
        penalty = (min(penalties[b] for b in group)
                   + TWIN_COLOUR * (dist[card] - min(dist[b] for b in group)))
        results.append((max(mean[b] for b in group) - penalty, card, templates[card],
                        max(min(fits[b]) for b in group) - penalty))
    results.sort(key=lambda r: (r[0] - (costs or {}).get(r[1], 0.0), r[1]), reverse=True)
    return results


@dataclass(frozen=True)
class _Aligned:
    """A part of the sample aligned to one learned glyph."""

    learned: _Part
    gradients: npt.NDArray[np.float32]  # of the aligned sample
    warp: npt.NDArray[np.float64] | None  # learned part's pixels to the sample's; None: failed
    sure: bool  # the sample plainly is this glyph (``ALIGNED_SURE``)


def _aligned(learned: _Part, sample: FloatImage, near: npt.NDArray[np.float32],
             start: npt.NDArray[np.float64] | None, part: int) -> _Aligned:
    """``sample`` (of fine part ``part``) aligned to ``learned``: from ``start`` (another
    glyph's alignment of it) in a few steps, or from scratch when there is none or that fails;
    sure when it then fits the learned glyph ``ALIGNED_SURE`` well ``near`` the glyphs
    compared. An alignment too large to be a correction of the guess's frame (``REFINE_MAX``:
    a V sheared flat onto a thin 1) fails: the sample is then compared as it is."""
    warp = None
    if learned.glyph is not None:
        if start is not None:
            warp = align(learned.glyph, sample, start, ALIGN_STEPS[1])
        if warp is None:
            warp = align(learned.glyph, sample, np.eye(2, 3), ALIGN_STEPS[0])
    if warp is not None and _too_far(_correction(warp, part)):
        warp = None
    out = sample if warp is None else cv2.warpAffine(
        sample, warp, sample.shape[::-1], flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE)
    gradients = _gradients(out)
    return _Aligned(learned, gradients, warp,
                    _fit(learned.gradients, gradients, near) >= ALIGNED_SURE)


def _fit(learned: npt.NDArray[np.float32], sample: npt.NDArray[np.float32],
         near: npt.NDArray[np.float32]) -> float:
    """Gradient correlation of a sample with a learned part where ``near`` is 1: near the
    glyphs of the candidates being compared, all on the same entries (the edge or pips of the
    card above may lie elsewhere in the window; where one candidate's glyph differs from
    another's, the sample's ink counts for or against both)."""
    a, b = learned * near, sample * near
    # As np.linalg.norm takes it (float32 square root of the dot), with less overhead.
    return float(a @ b) / max(1e-6, float(np.sqrt(a @ a) * np.sqrt(b @ b)))


def _refined(frame: npt.NDArray[np.float64], warp: npt.NDArray[np.float64],
             part: int) -> npt.NDArray[np.float64]:
    """The frame corrected by the ECC warp of one fine part (a guess's frame comes from two
    ink marks' centroids, a few degrees and percent off; the aligned glyphs are not).
    Unchanged if the correction is too large to be one."""
    correction = _correction(warp, part)
    if _too_far(correction):
        return frame
    out: npt.NDArray[np.float64] = (np.vstack([frame, [0, 0, 1]]) @ correction)[:2]
    return out


def _correction(warp: npt.NDArray[np.float64], part: int) -> npt.NDArray[np.float64]:
    """The ECC warp of one fine part (its pixels) as a 3 x 3 map in the guess's frame units."""
    to_frame, from_frame = _PART_FRAMES[part]
    full = np.eye(3)
    full[:2] = warp
    out: npt.NDArray[np.float64] = to_frame @ full @ from_frame
    return out


def _part_frames(part: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    window, width, height = FINE_PARTS[part]
    to_frame = np.vstack([patch_matrix(np.eye(3)[:2], width, height, window), [0, 0, 1]])
    return to_frame, np.linalg.inv(to_frame)


#: Each fine part's map from its pixels to frame units, and back.
_PART_FRAMES: Final = tuple(_part_frames(part) for part in range(len(FINE_PARTS)))


def _too_far(correction: npt.NDArray[np.float64]) -> bool:
    """Whether a fine part's correction (``_correction``) moves the frame's origin or changes
    its axes by more than ``REFINE_MAX`` (frame units)."""
    (a, b, x), (c, d, y) = correction[:2].tolist()
    return (math.hypot(x, y) > REFINE_MAX[0]
            or max(abs(a - 1.0), abs(b), abs(c), abs(d - 1.0)) > REFINE_MAX[1])


def _near_glyph(patch: FloatImage) -> npt.NDArray[np.uint8]:
    """255 within ``FINE_MARGIN`` pixels of a learned part's glyph, 0 elsewhere: where the
    alignment (``Glyph.of``) and the fits (``_as_gradients``) look."""
    out: npt.NDArray[np.uint8] = glyph_mask(patch, FINE_MARGIN) * 255
    return out


def _as_gradients(mask: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """A pixel mask laid out as ``_gradients`` lays out its entries (1 or 0)."""
    flat = (mask[1:-1, 1:-1] > 0).ravel().astype(np.float32)
    return np.concatenate([flat, flat])


def _gradients(patch: FloatImage) -> npt.NDArray[np.float32]:
    smooth = cv2.GaussianBlur(patch, (0, 0), 0.8)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0)[1:-1, 1:-1]
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1)[1:-1, 1:-1]
    return np.concatenate([gx.ravel(), gy.ravel()])


def _quads(g: _Guess, profile: DeckProfile) -> list[npt.NDArray[np.float64]]:
    """Where the card of a guess lies: by its frame as aligned in the close comparison, and
    by its frame from the marks' centroids (either may be the one that is right)."""
    local = profile.corners[g.template].astype(np.float64)
    frames = [g.frame] if g.refined is None else [g.refined, g.frame]
    return [_mapped(f, local) for f in frames]


def _mapped(m: npt.NDArray[Any], points: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Points (N, 2) through a 2 x 3 affine map."""
    out: npt.NDArray[np.float64] = points @ m[:, :2].T.astype(np.float64) + m[:, 2]
    return out


def _lone_quad(scene: Scene, g: _Guess, turns: list[_Guess], profile: DeckProfile,
               pictures: _Pictures) -> tuple[npt.NDArray[np.float64], int,
                                             tuple[bool, float, float]] | None:
    """Where the card of a lone mark read as ``g`` lies. The mark (a star, alike turned any
    way) does not tell which way the card lies: of its frames (``turns``, each way up along
    the edges around it), those whose card lies wholly on card regions, however sure the
    reading, with an edge at its corner showing; of those, the one whose learned picture
    best explains the photo next to the mark (``LONE_PICTURE``), then whose whole outline
    shows the more (``_outline_shown``). Counting both edges at the corner first put a
    joker's card over a checked cloth that passes as card white, whose checks give a corner
    its two edges; the outline alone put a joker in a fan across the cards beside it, whose
    edges run alike. Returns the card's corners, the template they come from, and how well
    it fits (edge shown, picture, outline)."""
    best: tuple[npt.NDArray[np.float64], int, tuple[bool, float, float]] | None = None
    for turn in turns:
        template = turn.templates.get(g.card, g.template)
        local = profile.corners[template].astype(np.float64)
        frames = [turn.frame] if turn is not g else [f for f in (g.refined, g.frame)
                                                       if f is not None]
        for frame in frames:
            quad = _mapped(frame, local)
            if not _on_cards(scene, quad, 0.0):
                continue
            shown = _edges_shown(scene, quad, enough=1) > 0
            if not shown and best is not None and best[2][0]:
                continue
            tl, tr, _, bl = quad
            near = tl + LONE_PICTURE * np.array([[0, 0], tr - tl, tr - tl + bl - tl, bl - tl])
            fits = _picture_fits(scene.ink, pictures, near, float(np.linalg.norm(tr - tl)),
                                 [(g.card, _canon_corners(profile, template), quad)])
            fit = (shown, 0.0 if fits is None else fits[0],
                   _outline_shown(scene, quad) if shown else 0.0)
            if best is None or fit > best[2]:
                best = quad, template, fit
    return best


def _outline_shown(scene: Scene, quad: npt.NDArray[np.float64]) -> float:
    """How much of a card's whole outline shows as an edge (``_edge_evidences`` from each
    corner along both its sides, 0..8): a card placed the wrong way round runs across the
    white of the cards beside it, or over the table."""
    sides = [(quad[i], along, normal) for i in range(4) for along, normal in _sides_at(quad, i)]
    corners, alongs, normals = (np.array(part) for part in zip(*sides, strict=True))
    width = float(np.linalg.norm(quad[1] - quad[0]))
    return float(_edge_evidences(scene, corners, alongs, normals, np.full(len(sides), width),
                                 EDGE_STEP).sum())


def _sides_at(quad: npt.NDArray[np.float64], i: int) -> list[tuple[
        npt.NDArray[np.float64], npt.NDArray[np.float64]]]:
    """The two sides of a card's outline (4, 2), or of many (M, 4, 2), that meet at its corner
    ``i``: each as the side (from that corner) and the unit normal into the card (along the
    other side).

    >>> quad = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 3.0], [0.0, 3.0]])
    >>> [(a.tolist(), n.tolist()) for a, n in _sides_at(quad, 0)]
    [([2.0, 0.0], [0.0, 1.0]), ([0.0, 3.0], [1.0, 0.0])]
    >>> [a.shape for a, n in _sides_at(np.stack([quad, quad]), 1)]
    [(2, 2), (2, 2)]
    """
    corner, ahead, behind = quad[..., i, :], quad[..., (i + 1) % 4, :], quad[..., (i + 3) % 4, :]
    return [(side, other / np.maximum(np.linalg.norm(other, axis=-1, keepdims=True), 1e-6))
            for side, other in ((ahead - corner, behind - corner),
                                (behind - corner, ahead - corner))]


def _on_cards(scene: Scene, quad: npt.NDArray[np.float64], score: float) -> bool:
    """Whether a card read with ``score`` at ``quad`` lies on card regions. A sure reading
    needs little of its card in view (a finger or the photo's edge may hide most of it), and
    may show only its rim as card (a court card's picture can fill it to its white margin);
    another needs all of it."""
    return bool(_on_cards_many(scene, quad[None], score)[0])


def _on_cards_many(scene: Scene, quads: npt.NDArray[np.float64], score: float) -> (
        npt.NDArray[np.bool_]):
    """``_on_cards`` of many quads (M, 4, 2) read with one score."""
    if score >= SURE:
        points = _spread_points(quads, 0.94)
        out: npt.NDArray[np.bool_] = (
            (_inside_fractions(scene, quads, 0.5) >= 0.4)
            | (_inside_fractions(scene, quads, 0.94, rim=True) >= 0.75)
            | (_share_on_regions(scene, points, hull=True) >= HULL_INSIDE))
        # The pieces of a card split by its picture, taken together; a quad on one region
        # was judged by its hull above.
        rest = np.flatnonzero(~out)
        labels = np.sort(scene.regions_at(points[rest].reshape(-1, 2)).reshape(
            len(rest), points.shape[1]), axis=1)
        regions = ((np.diff(labels, axis=1) != 0) & (labels[:, 1:] > 0)).sum(axis=1) + (
            labels[:, 0] > 0)
        for j in rest[regions > 1].tolist():
            out[j] = float(scene.in_joint_hull(points[j]).mean()) >= HULL_INSIDE
        return out
    return _inside_fractions(scene, quads, 0.94) >= 0.75


def _inside_fractions(scene: Scene, quads: npt.NDArray[np.float64], far: float,
                      rim: bool = False, hull: bool = False) -> npt.NDArray[np.float64]:
    """For each quad (M, 4, 2), the share of points spread over it (``_spread_points``) that
    fall on card regions (with ``hull``, their convex hulls).

    >>> scene = Scene(*(np.zeros((40, 40, 3), np.float32),) * 2, np.ones((20, 20), np.int32),
    ...               {1: 20.0}, np.zeros((10, 10, 3), np.float32))
    >>> quads = np.array([[[0, 0], [20, 0], [20, 30], [0, 30]],
    ...                   [[30, 0], [50, 0], [50, 30], [30, 30]]], np.float64)
    >>> _inside_fractions(scene, quads, 0.94).tolist()  # the second half off the photo
    [1.0, 0.5]
    """
    return _share_on_regions(scene, _spread_points(quads, far, rim), hull)


def _share_on_regions(scene: Scene, points: npt.NDArray[np.float64],
                      hull: bool = False) -> npt.NDArray[np.float64]:
    """For each row of points (M, P, 2), the share that falls on card regions (with ``hull``,
    their convex hulls)."""
    inside = scene.regions_at(points.reshape(-1, 2), hull) > 0
    out: npt.NDArray[np.float64] = inside.reshape(points.shape[:2]).mean(axis=1)
    return out


def _spread_points(quads: npt.NDArray[np.float64], far: float, rim: bool = False,
                   grid: tuple[int, int] = (6, 8)) -> npt.NDArray[np.float64]:
    """Points spread over each quad (M, 4, 2), from its index end to ``far`` of its length
    (M, P, 2), ``grid`` across and along it; with ``rim``, along its two long sides only."""
    u = np.linspace(0.08, 0.92, grid[0])
    v = np.linspace(0.06, far, grid[1])
    uu, vv = np.meshgrid(u, v)
    if rim:
        uu, vv = uu[:, [0, -1]], vv[:, [0, -1]]
    uu, vv = uu.ravel()[None, :, None], vv.ravel()[None, :, None]
    tl, tr, br, bl = (quads[:, None, k] for k in range(4))
    out: npt.NDArray[np.float64] = (
        (1 - uu) * ((1 - vv) * tl + vv * bl) + uu * ((1 - vv) * tr + vv * br))
    return out


def _corner_exposed(scene: Scene, quad: npt.NDArray[np.float64]) -> bool:
    """Whether one of the two card edges meeting at the corner next to the index read shows
    where predicted (``_edges_shown``, with ``CORNER_STEP``). A real index sits at a card's
    corner; art in the middle of a card, read as an index, predicts edges over blank card
    white."""
    return bool(_edges_shown_many(scene, quad[None], CORNER_STEP)[0] >= 1)


def _edges_shown(scene: Scene, quad: npt.NDArray[np.float64], enough: int = 2,
                 step: float = EDGE_STEP) -> int:
    """How many of the two card edges meeting at the corner next to the index read show where
    predicted (at most ``enough``): the table just outside and card just inside, or a step or
    a dark line (the card's rim, its shadow on the card below) where the card's white ends."""
    return min(enough, int(_edges_shown_many(scene, quad[None], step)[0]))


def _edges_shown_many(scene: Scene, quads: npt.NDArray[np.float64], step: float) -> (
        npt.NDArray[np.int64]):
    """``_edges_shown`` of many quads (M, 4, 2): how many of the two edges at each one's
    index corner show (0, 1 or 2)."""
    corner = quads[:, 0]
    width = np.linalg.norm(quads[:, 1] - corner, axis=1)
    shown = np.zeros(len(quads), np.int64)
    for along, normal in _sides_at(quads, 0):
        gap = (0.06 * width)[:, None, None]
        points = corner[:, None] + np.array([0.12, 0.3])[None, :, None] * along[:, None]
        outside = scene.regions_at((points - gap * normal[:, None]).reshape(-1, 2)) == 0
        inside = scene.regions_at((points + gap * normal[:, None]).reshape(-1, 2),
                                  printed=True) > 0
        clear = outside.reshape(-1, 2).all(axis=1) & inside.reshape(-1, 2).all(axis=1)
        shown += clear | (_edge_evidences(scene, corner, along, normal, width, step)
                          >= EDGE_SHOWN)
    return shown


#: Places along a predicted edge, and across it, that ``_edge_evidences`` looks at.
_EDGE_COLS: Final = 16
_EDGE_ROWS: Final = 13


def _edge_evidences(scene: Scene, corners: npt.NDArray[np.float64],
                    alongs: npt.NDArray[np.float64], normals: npt.NDArray[np.float64],
                    widths: npt.NDArray[np.float64], least: float) -> npt.NDArray[np.float64]:
    """For each predicted card edge (its corner, the side from there and the unit normal into
    the card (K, 2), and the card's width (K,)), the share of places along it (from 10% to 40%
    of its length from the corner) where the photo shows an edge: just across it, the card
    white ends (dips, steps or changes tint by ``least`` or more). The strips are sampled in
    one remap."""
    cols, rows = _EDGE_COLS, _EDGE_ROWS
    if not len(corners):
        return np.zeros(0)
    span = (EDGE_BAND * widths)[:, None]
    # Strips sampled with u along the edge and v across it (v < 0 outside, v > 0 inside).
    step_u, step_v = alongs * (0.3 / cols), normals * (2 * span / rows)
    origin = corners + 0.1 * alongs - span * normals
    u = np.arange(cols, dtype=np.float64)[None, None, :, None]
    v = np.arange(rows, dtype=np.float64)[None, :, None, None]
    xy = (origin[:, None, None] + u * step_u[:, None, None] + v * step_v[:, None, None])
    xy = xy.reshape(-1, cols, 2).astype(np.float32)
    strips = np.concatenate([
        cv2.remap(scene.norm, xy[k:k + REMAP_ROWS, :, 0], xy[k:k + REMAP_ROWS, :, 1],
                  cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        for k in range(0, len(xy), REMAP_ROWS)]).reshape(len(corners), rows, cols, 3)
    light = strips.mean(axis=3)
    colour = strips.max(axis=3) - strips.min(axis=3)
    inside = light[:, rows // 2 + 2:]
    level = np.median(inside, axis=1)
    dip = level - light[:, rows // 2 - 3:rows // 2 + 2].min(axis=1)
    step = np.abs(level - np.median(light[:, :rows // 2 - 1], axis=1))
    tint = np.abs(np.median(colour[:, :rows // 2 - 1], axis=1)
                  - np.median(colour[:, rows // 2 + 2:], axis=1))
    shown = (inside.min(axis=1) > 0.6) & ((dip > least) | (step > least) | (tint > least))
    out: npt.NDArray[np.float64] = shown.mean(axis=1)
    return out


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
        accept = LONE_ACCEPT if g.lone else ACCEPT
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
            placed = _lone_placed(scene, g, lone, ranked[n + 1:], turns, parts, used, fine,
                                  profile, pictures)
            if placed is None:
                continue
            g, quad, template, marks = placed
        else:
            quad = next((q for q in _quads(g, profile)
                         if _on_cards(scene, q, g.score) and _corner_exposed(scene, q)), None)
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


def _lone_placed(scene: Scene, g: _Guess, own: list[_Guess], later: list[_Guess],
                 turns: dict[int, list[_Guess]], parts: list[frozenset[int]], used: set[int],
                 fine: _Fine, profile: DeckProfile, pictures: _Pictures) -> tuple[
                     _Guess, npt.NDArray[np.float64], int, frozenset[int]] | None:
    """Where the card of a lone mark read as ``g`` (in its frames ``own``) lies: placed from
    that mark or from another lone mark in ``later`` (coarse order; its frames in ``turns``,
    taken from there once it is read) read as the same card, whichever fits the better
    (``_lone_quad``). A joker may show its star at two corners, and one of them where no turn
    of the learned corner puts the card (a star at the bottom left): the first read, by coarse
    score, placed such a card across the cards beside it. Returns the reading placed (with
    the scores of the surest of the marks read as that card), its card's corners and template,
    and those marks; None if it lies nowhere."""
    best = _lone_quad(scene, g, own, profile, pictures)
    chosen, surest, marks = g, g, parts[g.pip]
    for r in later:
        if (not r.lone or r.card != g.card or r.pip not in turns
                or parts[r.pip] & marks or parts[r.pip] & used):
            continue
        fine.settle(r, LONE_ACCEPT)
        if r.score < LONE_ACCEPT or r.card != g.card:
            continue
        placed = _lone_quad(scene, r, turns.pop(r.pip), profile, pictures)
        marks |= parts[r.pip]
        surest = max(surest, r, key=lambda x: x.score)
        if placed is not None and (best is None or placed[2] > best[2]):
            best, chosen = placed, r
    if best is None:
        return None
    if surest is not chosen:
        # The card lies where one mark places it best; it is read as surely as its surest mark.
        chosen = replace(chosen, score=surest.score, second=surest.second,
                         second_card=surest.second_card, worst=surest.worst)
    return chosen, best[0], best[1], marks


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


def _near_index(quads: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Card outlines (M, 4, 2) shrunk to ``COARSE_REACH`` of their size towards their index's
    corner (the first): where a card placed from its index's marks alone is judged to lie."""
    out: npt.NDArray[np.float64] = quads[:, :1] + COARSE_REACH * (quads - quads[:, :1])
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
    card regions chose worse: in a fan both lie on cards.)"""
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
        if turned:
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
    averaged. If the readings disagree, the better one wins, with less confidence; if they
    agree, the better shown of the two indices counts for the confidence."""
    if not _same_way(card.quad, quad):
        card.quad = (card.quad + np.roll(quad, 2, axis=0)) / 2
        card.index_points.append(point)
    if code == card.card:
        card.worst = max(card.worst, worst)
    elif score > card.score:
        card.second, card.second_card = card.score, card.card
        card.card, card.score, card.worst = code, score, worst
    elif score > card.second:
        card.second, card.second_card = score, code


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


def _overlap(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> bool:
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    smaller = min(cv2.contourArea(a.astype(np.float32)), cv2.contourArea(b.astype(np.float32)))
    return bool(area > 0.03 * smaller)


def _canon_corners(profile: DeckProfile, template: int) -> npt.NDArray[np.float64]:
    """Where the corners of a card read by ``template`` lie on the learned card's picture."""
    return _mapped(profile.to_canon[template], profile.corners[template].astype(np.float64))


def _above(ink: FloatImage, pictures: _Pictures, a: _Card, b: _Card) -> float:
    """How much better card ``a``'s learned picture than ``b``'s explains the photo where the
    two overlap (correlation of inkness, compared at ``OVERLAP_SIDE``): above 0 when ``a`` lies
    on top; 0 when unknown (a card without its picture, an overlap too small, or blank on both
    cards)."""
    if a.canon is None or b.canon is None:
        return 0.0
    area, poly = cv2.intersectConvexConvex(a.quad.astype(np.float32), b.quad.astype(np.float32))
    if poly is None or area <= 0:
        return 0.0
    poly = poly.reshape(-1, 2).astype(np.float64)
    centre = poly.mean(axis=0)
    poly = centre + (poly - centre) * (1.0 - OVERLAP_INSET)
    fits = _picture_fits(ink, pictures, poly, float(np.linalg.norm(a.quad[1] - a.quad[0])),
                         [(a.card, a.canon, a.quad), (b.card, b.canon, b.quad)])
    return 0.0 if fits is None else fits[0] - fits[1]


def _picture_fits(ink: FloatImage, pictures: _Pictures, poly: npt.NDArray[np.float64],
                  width: float, placed: list[tuple[int, npt.NDArray[np.float64],
                                                   npt.NDArray[np.float64]]]) -> list[float] | None:
    """How well each of ``placed`` (a card, its corners on its learned picture, and in the
    photo) explains the photo's inkness within the polygon ``poly`` (correlation, compared
    with the card ``width`` pixels wide scaled to ``OVERLAP_SIDE`` and blurred by
    ``OVERLAP_BLUR``); None where the polygon is too small to tell."""
    h, w = ink.shape
    x0, y0 = (max(0, int(v)) for v in np.floor(poly.min(axis=0)))
    x1, y1 = min(w, int(np.ceil(poly[:, 0].max()))), min(h, int(np.ceil(poly[:, 1].max())))
    f = min(1.0, OVERLAP_SIDE / max(width, 1.0))
    size = (round(f * (x1 - x0)), round(f * (y1 - y0)))
    if min(size) < 4:
        return None
    mask = np.zeros(size[::-1], np.uint8)
    cv2.fillConvexPoly(mask, np.round(f * (poly - (x0, y0))).astype(np.int32), 1)
    inside = mask > 0
    if inside.sum() < 16:
        return None
    sigma = max(0.5, OVERLAP_BLUR * width * f)
    to_crop = np.array([[f, 0.0, -f * x0], [0.0, f, -f * y0], [0.0, 0.0, 1.0]])
    photo = cv2.resize(ink[y0:y1, x0:x1], size, interpolation=cv2.INTER_AREA)
    photo = cv2.GaussianBlur(photo, (0, 0), sigma)[inside]
    fits = []
    for card, canon, quad in placed:
        picture, k = pictures.get(card)
        to_photo = to_crop @ cv2.getPerspectiveTransform((k * canon).astype(np.float32),
                                                         quad.astype(np.float32))
        drawn = cv2.warpPerspective(picture, to_photo, size, flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_REPLICATE)
        fits.append(_correlation(photo, cv2.GaussianBlur(drawn, (0, 0), sigma)[inside]))
    return fits


class _Pictures:
    """The learned cards' pictures (inkness) at ``OVERLAP_SIDE`` pixels wide, as needed."""

    def __init__(self, profile: DeckProfile) -> None:
        self.profile = profile
        self.small: dict[int, FloatImage] = {}

    def get(self, card: int) -> tuple[FloatImage, float]:
        """A card's picture, and its scale from the canonical card's pixels."""
        k = OVERLAP_SIDE / CANON_W
        if card not in self.small:
            self.small[card] = cv2.resize(
                self.profile.ink[card].astype(np.float32) / 255.0,
                (OVERLAP_SIDE, round(k * CANON_H)), interpolation=cv2.INTER_AREA)
        return self.small[card], k


def _correlation(x: FloatImage, y: FloatImage) -> float:
    """Pearson correlation of two samples; 0 where either is blank."""
    dx, dy = x - x.mean(), y - y.mean()
    nx, ny = float(np.linalg.norm(dx)), float(np.linalg.norm(dy))
    if nx < 1e-3 * math.sqrt(x.size) or ny < 1e-3 * math.sqrt(y.size):
        return 0.0
    return float(dx @ dy) / (nx * ny)


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
