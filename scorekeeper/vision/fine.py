"""The close comparison: a guess's rank and pip sampled finely, aligned to each finalist's
glyphs (ECC, affine) and compared by gradient correlation near them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.vision.align import Glyph, align
from scorekeeper.vision.coarse import COLOUR_FREE, _colour_penalty
from scorekeeper.vision.features import (
    FINE_PARTS,
    FloatImage,
    blur_for_step,
    glyph_mask,
    inkness,
    patch_matrix,
)
from scorekeeper.vision.guesses import _Guess
from scorekeeper.vision.kept import _kept
from scorekeeper.vision.profile import DeckProfile
from scorekeeper.vision.scene import Scene

#: The close comparison reads the larger decoded photo when it is this much larger.
DETAIL_MIN: Final = 1.2
#: The close comparison looks this many pixels around a learned part's glyph.
FINE_MARGIN: Final = 3
#: Largest correction of a guess's frame by the close comparison's alignment: how far its
#: origin moves (frame units), and how far its axes turn, stretch or shear (frame units).
REFINE_MAX: Final = (0.5, 0.4)
#: How differently the alignment may correct the frame for a card's rank and for its pip
#: (frame units, in stretch or shear) before the card ranks lower among the finalists
#: (``_bend``), and by how much per unit past that. On the tuned and probe decks (420 photos
#: and 80 of the Aguilar decks), against no bend: 2 more cards right, 2 fewer extra detections.
#: A cost of 0.2 then was too much where a learned rank's window holds a bit of the card's own
#: pips, so that its alignment shears apart from the pip's (an 8 of hearts read as the 6): on
#: 260 tuned and probe photos, against 0.2, a cost of 0.1 reads 4 more cards right and 2 more
#: confidently (all right); 0.05 and no cost read the same there, 0.15 reads 2 more.
BEND_FREE: Final = 0.1
BEND_COST: Final = 0.1
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
