"""The coarse comparison: each guess's index patch correlated with every learned index of its
kind around the learned glyphs, with the ink's colour; its best few become its finalists.
"""

from __future__ import annotations

from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

from scorekeeper.vision.features import (
    PATCH_H,
    PATCH_W,
    STEP,
    FloatImage,
    blur_for_step,
    ink_colours,
    sample_patches,
)
from scorekeeper.vision.guesses import _Guess
from scorekeeper.vision.kept import _Group, _kept
from scorekeeper.vision.profile import DeckProfile
from scorekeeper.vision.scene import Scene

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
#: Ink colour differences up to this are measurement noise.
COLOUR_FREE: Final = 0.2


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


def _colour_penalty(colours: npt.NDArray[np.float32], colour: npt.NDArray[np.float32]) -> (
        npt.NDArray[np.float32]):
    """Score lost for a difference in ink colour; small differences (blur, JPEG, light) are
    free, different inks (red, gold, blue, black) are not."""
    dist = np.linalg.norm(colours - colour, axis=-1)
    out: npt.NDArray[np.float32] = (COLOUR_WEIGHT * np.maximum(dist - COLOUR_FREE, 0.0)).astype(
        np.float32)
    return out
