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
A card read unsurely from its index is read again from the part of its picture that shows;
a card-shaped part of a card region that no card read covers (a card printed without an
index, or whose index is hidden) is read from its picture alone, and the player asked; so is
a card that the keypoints of its learned picture place where a part of a region shows a
picture no card read explains (such a card dropped on a pile). A photo in which no index is
read goes through those last two steps too.

Each stage has its module: ``marks`` (ink marks), ``guesses`` (pairs and lone marks read as
indices), ``coarse`` and ``fine`` (the two comparisons), ``outlines`` (where a read index puts
its card), ``assemble`` (from readings to cards), ``covering`` (which card lies above),
``rereading`` (an unsure card read again from its picture), ``by_picture`` (a card with
no index read, from its picture alone) and ``by_keypoints`` (one placed by its picture's
keypoints); ``kept`` holds what is derived once from a profile,
``pictures`` the learned card pictures.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from scorekeeper.outline import JsonObject
from scorekeeper.vision.assemble import (
    _assemble,
    _Card,
    _confidence,
    _not_within_stronger,
    _same_size,
)
from scorekeeper.vision.by_keypoints import _by_keypoints
from scorekeeper.vision.by_picture import _by_picture, _left_over
from scorekeeper.vision.coarse import _score
from scorekeeper.vision.covering import _leads, _mark_top, _uncovered
from scorekeeper.vision.features import Blob
from scorekeeper.vision.fine import _Fine
from scorekeeper.vision.guesses import _chain_guesses, _guesses, _lone_guesses, _waist_guesses
from scorekeeper.vision.images import decode, read_bytes
from scorekeeper.vision.kept import _kept
from scorekeeper.vision.marks import Chain, _marks
from scorekeeper.vision.outlines import _placeable
from scorekeeper.vision.perspective import in_perspective
from scorekeeper.vision.profile import DeckProfile
from scorekeeper.vision.rereading import _reread
from scorekeeper.vision.scene import Scene, analyse, card_ink

#: Long side of the working copy of a photo, in pixels.
WORK_SIDE: Final = 1400
#: Below this confidence a card gets a warning asking the player to check it.
CHECK_BELOW: Final = 0.5


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
    marks: list[tuple[int, npt.NDArray[np.float64], float]] = []
    cards, leads, failure = _read_indices(img, scene, profile, detail, marks)
    left = _left_over(scene, cards, profile)
    pictured = _by_picture(scene, cards, profile, left, marks)
    if pictured:
        left = _left_over(scene, cards + pictured, profile)
    pictured += _by_keypoints(scene, cards + pictured, profile, left)
    if pictured:
        cards += pictured
        leads = _leads(cards, scene.ink, profile)
    elif failure:
        warnings.append(failure)
    _mark_top(cards, leads)
    cards.sort(key=lambda c: float(c.quad[:, 0].mean()))
    return cards, warnings


def _read_indices(img: npt.NDArray[np.uint8], scene: Scene, profile: DeckProfile,
                  detail: npt.NDArray[np.uint8] | None,
                  marks: list[tuple[int, npt.NDArray[np.float64], float]] | None = None) -> tuple[
        list[_Card], dict[tuple[int, int], float], str | None]:
    """The cards read from their indices, how the overlapping ones lie (``covering._leads``),
    and what to tell the player where none is read."""
    long_side = max(img.shape[:2])
    erode = max(2, round(long_side / 500))
    ink = card_ink(scene, erode)
    waists: list[tuple[Blob, Blob]] = []
    chains: list[Chain] = []
    kept = _kept(profile)
    blobs, parts = _marks(ink, waists, chains if kept.chains else None)
    guesses = [g for g in _guesses(scene, blobs, profile) if not parts[g.pip] & parts[g.anchor]]
    # A rank joined to its pip is read from its two halves, paired with each other only.
    halves = []
    for a, b in waists:
        halves.append((len(blobs), len(blobs) + 1))
        blobs += [a, b]
        parts += [frozenset((-len(parts) - 1,)), frozenset((-len(parts) - 2,))]
    guesses += _waist_guesses(scene, blobs, halves, profile)
    # Lone marks are looked for among the marks of the photo, not those made up for words.
    lone = (_lone_guesses(scene, ink, blobs, kept.lone_shapes) if profile.lone.any()
            else [])
    if kept.chains:
        # A word index whose letters blur into one mark, read where the deck's word has them.
        words, made = _chain_guesses(scene, chains, kept.chains)
        for g in words:
            g.pip, g.anchor = g.pip + len(blobs), g.anchor + len(blobs)
        parts += [frozenset((-len(parts) - 1 - k,)) for k in range(len(made))]
        blobs += made
        guesses += words
    guesses += lone  # the lone marks' guesses come last (``_score``)
    guesses = _placeable(scene, guesses, kept.placements)
    if not guesses:
        return [], {}, "no card corners found: make sure each card's corner (rank and suit) shows"
    _score(scene, ink, guesses, profile)
    if kept.chains:
        word_cards = {card for card, *_ in kept.chains}
        guesses = [g for g in guesses if not g.chain or g.card in word_cards]
    cards = _assemble(scene, blobs, parts, guesses, profile, _Fine(scene, ink, profile, detail))
    if marks is not None:
        marks += [(g.card, blobs[g.pip].centroid, g.score) for g in lone if g.card >= 0]
    cards = _same_size(_not_within_stronger(cards))
    failure = ("no card could be read: hold the phone closer or steadier and retake"
               if not cards else None)
    cards, leads = _uncovered(cards, _leads(cards, scene.ink, profile))
    # Which readings are kept was judged on the outlines as the indices place them (its
    # thresholds allow for their error); which card lies on top, on the outlines in perspective.
    if _in_perspective(scene, cards):
        leads = _leads(cards, scene.ink, profile)
    if _reread(cards, leads, scene.ink, profile):
        leads = _leads(cards, scene.ink, profile)
    return cards, leads, failure


def _in_perspective(scene: Scene, cards: list[_Card]) -> bool:
    """Place the cards read from one index again through the table's perspective (the others
    are placed through their two indices, ``assemble._add_reading``); whether any moved."""
    single = [c for c in cards if len(c.index_points) == 1]
    placed = [c.quad for c in single]
    quads = in_perspective(scene, placed, [c.index_points[0] for c in single])
    if quads is placed:
        return False
    for card, quad in zip(single, quads, strict=True):
        card.quad = quad
    return True
