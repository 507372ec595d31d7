"""Cards found by their picture's keypoints where no index was read.

``by_picture`` reads a card only from a card-shaped part of a card region that no read card
covers. A card lying on cards that were read (a joker without an index dropped on a meld), or
a court fanned over another with its index hidden, leaves no such part. Where some of the card
regions is still unexplained, local features (SIFT keypoints) of the learned pictures are
looked for in the photo around it; where enough of one picture's agree on one placement (a
homography, by RANSAC) whose outline covers some of the unexplained part, that outline is a
card's. The learned picture then names it as in ``by_picture``: the picture must fit the photo
within the outline well, and clearly better than any card drawn otherwise. Where several
pictures place a card at one place (courts drawn in one frame), the one named that fits best
is taken. Cards drawn alike (a deck's jokers in several inks, ``ALIKE``) share their
keypoints; of those, the one whose picture fits best is named, with the next as its
alternative. Cards so read are unsure (``by_picture.PICTURE_WORST``): the player is asked.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.vision.assemble import _Card, _overlap_share
from scorekeeper.vision.by_picture import PICTURE_WORST, _clearly_best, _LeftOver, _short_side
from scorekeeper.vision.features import CANON_CORNERS, CANON_H, CANON_W
from scorekeeper.vision.pictures import _correlation, _picture_samples, _Pictures
from scorekeeper.vision.profile import DeckProfile
from scorekeeper.vision.rereading import REREAD_INSET, _scaled
from scorekeeper.vision.scene import Scene

#: Card width (pixels) at which the photo's keypoints are found, and the learned pictures'
#: (half of ``CANON_W``). SIFT doubles its image before it looks; over whole photos of the
#: looked-at joker set, at twice this it took 0.86 s a photo against 0.11 s; of the cards
#: missed on six of its decks, it placed 7 against 4.
KEYPOINT_WIDTH: Final = 80
#: The most pixels keypoints are looked for on: past this, the part's surroundings are looked at
#: smaller. SIFT's pyramid takes about 230 bytes a pixel of what it looks at (84 MB for 700 x
#: 525 pixels), and a server reading photos keeps under 500 MB.
KEYPOINT_AREA: Final = 300_000
#: SIFT's contrast threshold: lower than its default (0.04), for pale and blurred prints.
CONTRAST: Final = 0.02
#: A photo keypoint matches a learned picture's nearest keypoint when that lies nearer than
#: this share of the distance to the picture's next nearest (Lowe's ratio test, within each
#: picture). Tested against every picture's keypoints at once, a court's keypoints were
#: vetoed by the court of another suit drawn alike (a Swiss king of spades on top of a fan
#: gathered 9 matches, its king of oracles 11: neither was placed).
MATCH_RATIO: Final = 0.8
#: Photo keypoints matched at a time (the distances to every learned keypoint are held).
MATCH_ROWS: Final = 256
#: The fewest matches that agree on one placement (within ``RANSAC_PIXELS`` of the photo's
#: keypoints, at ``KEYPOINT_WIDTH``) for it to be a card's. Over whole photos of the looked-at
#: joker set, cards absent gathered up to 10; up to 15 where a joker drawn nearly alike (under
#: ``ALIKE``) lay in the photo: for those, the learned pictures' fit decides (``_named``).
LEAST_INLIERS: Final = 12
RANSAC_PIXELS: Final = 4.0
#: Before a placement is looked for, a group's matches are cut to those that agree on the
#: picture's size and turn in the photo: within two bins of these (log2 of the size; degrees)
#: each way (``_agreeing``), which hold a card tilted 45 degrees. Its chance matches then do
#: not reach ``LEAST_INLIERS`` or are outnumbered; and RANSAC gives up after ``RANSAC_TRIES``:
#: on an ``oxygen-white`` photo, 25 groups of up to 380 matches each took it 40-130 ms.
POSE_BINS: Final = (0.5, 30.0)
#: ... and, of those, to the matches that put the card's centre within this share of its
#: width of where most of them put it (``_centres``, ``_gathered``).
CENTRE_REACH: Final = 0.25
RANSAC_TRIES: Final = 500
#: Two learned pictures whose inkness correlates at least this much are drawn alike.
ALIKE: Final = 0.95
#: The placed outline's long side over its short side may be this far (share) from the card's.
SHAPE_SLACK: Final = 0.2
#: At least this share of the placed outline lies where no read card does.
EXPLAINS: Final = 0.2
#: Keypoints are looked for only around unexplained parts that show a picture: at least this
#: share of their pixels ink (inkness over ``PART_INK_LEVEL``). On the decks looked at, the
#: parts where cards were found showed 0.22-0.57; five in six of the others (glare, the gaps
#: of a fan, a cloth that passes as card white), under 0.1.
PART_INK: Final = 0.15
PART_INK_LEVEL: Final = 0.3
#: The card width (share of the photo's long side) keypoints are found at where no card is read.
UNREAD_WIDTH: Final = 0.2
#: A placement whose outline and a read card's overlap by more than this (of the smaller) is
#: of that card, placed short by its index (two cards do not lie in one place). On the decks
#: looked at, a joker found on a pile overlapped a card under it by 0.51; one found over a
#: joker read short, by 1.0.
SAME_PLACE: Final = 0.8


@dataclass(frozen=True)
class _Learned:
    """The learned pictures' keypoints, one set for each group of cards drawn alike."""

    groups: tuple[tuple[int, ...], ...]  # cards drawn alike
    points: npt.NDArray[np.float32]  # (K, 2) on the canonical card
    poses: npt.NDArray[np.float32]  # (K, 2): log2 of its size on the canonical card, its angle
    descriptors: npt.NDArray[np.float32]  # (K, 128)
    group_of: npt.NDArray[np.int32]  # (K,) which group each keypoint is of


_LEARNED: weakref.WeakKeyDictionary[DeckProfile, _Learned] = weakref.WeakKeyDictionary()


def _sift() -> cv2.SIFT:
    return cv2.SIFT.create(contrastThreshold=CONTRAST)


def _learned(profile: DeckProfile) -> _Learned:
    """The keypoints of ``profile``'s pictures (found on its first photo that needs them)."""
    if profile not in _LEARNED:
        groups = _alike(profile.ink)
        sift = _sift()
        points, poses, descriptors, group_of = [], [], [], []
        k = KEYPOINT_WIDTH / CANON_W
        for g, members in enumerate(groups):
            found, described = sift.detectAndCompute(cv2.resize(
                profile.ink[members[0]], None, fx=k, fy=k, interpolation=cv2.INTER_AREA), None)
            if described is None:
                continue
            points.append(np.array([p.pt for p in found], np.float32) / k)
            poses.append(_poses(found, k))
            descriptors.append(described.astype(np.float32))
            group_of.append(np.full(len(found), g, np.int32))
        _LEARNED[profile] = _Learned(
            tuple(groups),
            np.concatenate(points) if points else np.zeros((0, 2), np.float32),
            np.concatenate(poses) if poses else np.zeros((0, 2), np.float32),
            np.concatenate(descriptors) if descriptors else np.zeros((0, 128), np.float32),
            np.concatenate(group_of) if group_of else np.zeros(0, np.int32))
    return _LEARNED[profile]


def _alike(ink: npt.NDArray[np.uint8]) -> list[tuple[int, ...]]:
    """The cards grouped by their pictures (inkness, ``CANON_H`` x ``CANON_W`` each): a card
    joins the first group whose first card's picture correlates with its at ``ALIKE`` or more.

    >>> star = np.zeros((CANON_H, CANON_W), np.uint8); star[100:180, 60:140] = 255
    >>> ring = np.zeros_like(star); ring[20:60, 20:180] = 255
    >>> _alike(np.stack([star, ring, star]))
    [(0, 2), (1,)]
    """
    if not len(ink):
        return []
    small = np.stack([cv2.resize(i, (CANON_W // 4, CANON_H // 4), interpolation=cv2.INTER_AREA)
                      for i in ink]).reshape(len(ink), -1).astype(np.float32)
    small -= small.mean(axis=1, keepdims=True)
    small /= np.maximum(np.linalg.norm(small, axis=1, keepdims=True), 1e-6)
    groups: list[list[int]] = []
    for card in range(len(ink)):
        for group in groups:
            if float(small[group[0]] @ small[card]) >= ALIKE:
                group.append(card)
                break
        else:
            groups.append([card])
    return [tuple(g) for g in groups]


def _by_keypoints(scene: Scene, cards: list[_Card], profile: DeckProfile,
                  left: _LeftOver) -> list[_Card]:
    """The cards found by their pictures' keypoints where some of ``scene``'s card regions is
    left unexplained by ``cards`` (``left``, from ``by_picture._left_over``), named by their
    learned pictures."""
    n = len(profile.codes)
    if not n or not left.joined_labels:
        return []
    unexplained = _showing(scene, left)
    if not unexplained.any():
        return []
    width = left.width or UNREAD_WIDTH * max(scene.ink.shape)
    learned = _learned(profile)
    found = _placements(scene, unexplained, width, learned)
    read = {c.card for c in cards}
    pictures = _Pictures(profile)
    # Each placement named, then taken best fitting first: pictures drawn in one frame place
    # a card alike, and the keypoints of the one with the most may lie on another's card.
    named: list[tuple[tuple[int, int, float], int, npt.NDArray[np.float64]]] = []
    for group, quad in found:
        if not left.least <= _short_side(quad) <= left.most or _placed_on(quad, cards):
            continue
        if _share_within(quad, unexplained) < EXPLAINS:
            continue
        fit = _named(scene.ink, pictures, quad, learned.groups[group], read, n, left.explained)
        if fit is not None:
            named.append((fit, group, quad))
    out: list[_Card] = []
    for first, group, quad in sorted(named, key=lambda found: -found[0][2]):
        if _placed_on(quad, out):
            continue
        # Named as a card found since (a deck's jokers drawn alike): the next of them.
        again = first if first[0] not in read else _named(
            scene.ink, pictures, quad, learned.groups[group], read, n, left.explained)
        if again is None:
            continue
        card, second, _ = again
        read.add(card)
        out.append(_Card(card, PICTURE_WORST, 0.0, second, quad, canon=CANON_CORNERS,
                         worst=PICTURE_WORST))
    return out


def _placed_on(quad: npt.NDArray[np.float64], cards: list[_Card]) -> bool:
    """Whether ``quad`` lies where one of ``cards`` lies (``SAME_PLACE``), their overlap as a
    share of the smaller outline: the larger of the two shares."""
    return any(max(_overlap_share(quad, c.quad), _overlap_share(c.quad, quad)) > SAME_PLACE
               for c in cards)


def _showing(scene: Scene, left: _LeftOver) -> npt.NDArray[np.bool_]:
    """The unexplained parts (``left``, joined, at half size) that show a picture
    (``PART_INK``); for a deck with cards known by their picture alone, each with what no read
    card explains within its convex hull: a picture dark to its card's rim lies outside the
    card region (the card's white), around it."""
    h, w = left.parts.shape
    inked = np.zeros((h, w), np.bool_)
    small = scene.ink[:2 * h:2, :2 * w:2] > PART_INK_LEVEL
    inked[:small.shape[0], :small.shape[1]] = small
    out = np.zeros((h, w), np.bool_)
    for label in left.joined_labels:
        part = left.joined == label
        if left.pictured:
            hull = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(hull, cv2.convexHull(cv2.findNonZero(part.astype(np.uint8))), 1)
            part = (hull > 0) & ~left.explained
        if inked[part].mean() >= PART_INK:
            out |= part
    return out


def _placements(scene: Scene, unexplained: npt.NDArray[np.bool_], width: float,
                learned: _Learned) -> list[tuple[int, npt.NDArray[np.float64]]]:
    """Where the learned pictures' keypoints place a card around the ``unexplained`` part (at
    half size) of the card regions, for cards ``width`` working pixels wide: (group of cards
    drawn alike, its outline in working pixels as ``CANON_CORNERS``), the best supported
    first."""
    if not len(learned.descriptors):
        return []
    ys, xs = np.nonzero(unexplained)
    h, w = scene.ink.shape
    x0, x1 = max(0, int(2 * xs.min() - width)), min(w, int(2 * xs.max() + width))
    y0, y1 = max(0, int(2 * ys.min() - width)), min(h, int(2 * ys.max() + width))
    f = min(1.0, KEYPOINT_WIDTH / max(width, 1.0),
            (KEYPOINT_AREA / max((x1 - x0) * (y1 - y0), 1)) ** 0.5)
    size = (max(1, round(f * (x1 - x0))), max(1, round(f * (y1 - y0))))
    crop = cv2.resize(np.clip(scene.ink[y0:y1, x0:x1] * 255.0, 0, 255).astype(np.uint8), size,
                      interpolation=cv2.INTER_AREA)
    cut = (slice(y0 // 2, (y1 + 1) // 2), slice(x0 // 2, (x1 + 1) // 2))
    regions = ((scene.filled[cut] > 0) | unexplained[cut]).astype(np.uint8)
    mask = cv2.resize(regions, size, interpolation=cv2.INTER_NEAREST)
    keys, described = _sift().detectAndCompute(crop, mask)
    if described is None or len(keys) < LEAST_INLIERS:
        return []
    by_group: dict[int, list[tuple[int, int]]] = {}
    for pair in _matches(described.astype(np.float32), learned.descriptors, learned.group_of):
        by_group.setdefault(int(learned.group_of[pair[1]]), []).append(pair)
    photo_points = np.array([k.pt for k in keys], np.float32)
    photo_poses = _poses(keys, 1.0)
    out: list[tuple[int, int, npt.NDArray[np.float64]]] = []
    for group, matched in by_group.items():
        if len(matched) < LEAST_INLIERS:
            continue
        pairs = np.array(matched, np.int64)
        query, train = _consistent(pairs[:, 0], pairs[:, 1], photo_points, photo_poses, learned)
        if len(query) < LEAST_INLIERS:
            continue
        homography, inliers = cv2.findHomography(learned.points[train], photo_points[query],
                                                 cv2.RANSAC, RANSAC_PIXELS,
                                                 maxIters=RANSAC_TRIES)
        if homography is None or int(inliers.sum()) < LEAST_INLIERS:
            continue
        corners = cv2.perspectiveTransform(CANON_CORNERS[None].astype(np.float32), homography)[0]
        quad = corners.astype(np.float64) / f + (x0, y0)
        if _card_shaped(quad):
            out.append((int(inliers.sum()), group, quad))
    out.sort(key=lambda found: -found[0])
    return [(group, quad) for _, group, quad in out]


def _consistent(query: npt.NDArray[np.int64], train: npt.NDArray[np.int64],
                photo_points: npt.NDArray[np.float32], photo_poses: npt.NDArray[np.float32],
                learned: _Learned) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Of one picture's matches (photo keypoint ``query``, learned keypoint ``train``), those
    that agree on how the picture lies in the photo: on its size and turn (``_agreeing``), then
    on where its centre lies (``CENTRE_REACH``)."""
    change = photo_poses[query] - learned.poses[train]
    agree = _agreeing(change)
    query, train, change = query[agree], train[agree], change[agree]
    centres = _centres(photo_points[query], learned.points[train], change)
    width = CANON_W * 2.0 ** float(np.median(change[:, 0]))
    near = _gathered(centres, CENTRE_REACH * width)
    return query[near], train[near]


def _poses(keys: Sequence[cv2.KeyPoint], k: float) -> npt.NDArray[np.float32]:
    """Each keypoint's log2 size (in pixels of the image shrunk by ``k``) and angle (degrees)."""
    return np.array([(np.log2(p.size / k), p.angle) for p in keys], np.float32).reshape(-1, 2)


def _agreeing(change: npt.NDArray[np.float32]) -> npt.NDArray[np.bool_]:
    """Which matches agree on how a picture lies in the photo (Lowe's clustering of poses):
    of each match's change of keypoint size (log2) and turn (degrees), those within the two
    by two bins of ``POSE_BINS`` that hold the most. A card's matches agree; chance matches,
    to a picture drawn alike or to none, scatter.

    >>> change = np.array([[0.1, 10.0], [0.2, 20.0], [0.15, 355.0], [2.0, 180.0]], np.float32)
    >>> _agreeing(change).tolist()
    [True, True, True, False]
    """
    size_bin, turn_bin = POSE_BINS
    turns = round(360.0 / turn_bin)
    size = np.floor(change[:, 0] / size_bin).astype(np.int64)
    size -= size.min()
    turn = np.floor(np.mod(change[:, 1], 360.0) / turn_bin).astype(np.int64) % turns
    counts = np.zeros((int(size.max()) + 2, turns), np.int64)
    np.add.at(counts, (size, turn), 1)
    # Each bin with the next larger size and the next turn round.
    windows = counts[:-1] + counts[1:]
    windows = windows + np.roll(windows, -1, axis=1)
    at_size, at_turn = np.unravel_index(int(np.argmax(windows)), windows.shape)
    agree: npt.NDArray[np.bool_] = (((size == at_size) | (size == at_size + 1))
                                    & ((turn == at_turn) | (turn == (at_turn + 1) % turns)))
    return agree


def _centres(photo: npt.NDArray[np.float32], learned: npt.NDArray[np.float32],
             change: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """Where each match puts the learned card's centre in the photo: its photo keypoint plus
    the way from its learned keypoint to the card's centre, scaled and turned as the two
    keypoints differ (``change``: log2 of the size, degrees; OpenCV's angles turn the photo's
    way).

    >>> _centres(np.array([[10.0, 10.0]], np.float32), np.array([[100.0, 140.0]], np.float32),
    ...          np.array([[1.0, 90.0]], np.float32)).round(3).tolist()
    [[10.0, 10.0]]
    >>> _centres(np.array([[10.0, 10.0]], np.float32), np.array([[100.0, 130.0]], np.float32),
    ...          np.array([[1.0, 90.0]], np.float32)).round(3).tolist()
    [[-10.0, 10.0]]
    """
    scale = np.exp2(change[:, 0].astype(np.float64))
    turn = np.radians(change[:, 1].astype(np.float64))
    way = np.array([CANON_W / 2.0, CANON_H / 2.0]) - learned
    cos, sin = np.cos(turn), np.sin(turn)
    turned = np.column_stack([cos * way[:, 0] - sin * way[:, 1], sin * way[:, 0] + cos * way[:, 1]])
    out: npt.NDArray[np.float64] = photo + scale[:, None] * turned
    return out


def _gathered(points: npt.NDArray[np.float64], reach: float) -> npt.NDArray[np.bool_]:
    """The points within ``reach`` of the point that has the most others within it.

    >>> _gathered(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [9.0, 9.0]]), 2.0).tolist()
    [True, True, True, False]
    """
    near = np.linalg.norm(points[:, None] - points[None], axis=2) <= reach
    out: npt.NDArray[np.bool_] = near[int(np.argmax(near.sum(axis=1)))]
    return out


def _matches(photo: npt.NDArray[np.float32], learned: npt.NDArray[np.float32],
             group_of: npt.NDArray[np.int32]) -> list[tuple[int, int]]:
    """(photo keypoint, learned keypoint) of each photo descriptor and each group of learned
    keypoints (``group_of``, ascending: one group's keypoints lie together) whose nearest
    keypoint of the group lies nearer than ``MATCH_RATIO`` of the distance to the group's
    next nearest; a group of one keypoint matches nothing.

    >>> learned = np.array([[0.0, 0.0], [10.0, 0.0], [0.0, 10.0], [9.0, 0.0]], np.float32)
    >>> photo = np.array([[9.0, 1.0], [5.0, 5.0]], np.float32)
    >>> _matches(photo, learned, np.array([0, 0, 0, 1], np.int32))
    [(0, 1)]
    >>> _matches(photo, learned, np.array([0, 0, 1, 1], np.int32))
    [(0, 1), (0, 3)]
    """
    if len(learned) < 2 or not len(photo):
        return []
    starts = np.flatnonzero(np.r_[True, group_of[1:] != group_of[:-1]])
    sizes = np.diff(np.r_[starts, len(group_of)])
    group_at = np.repeat(np.arange(len(starts)), sizes)
    squares = np.square(learned).sum(axis=1)[None, :]
    out: list[tuple[int, int]] = []
    # A few hundred rows at a time: the distances of all at once (thousands of keypoints by
    # thousands) took a server's memory up by a hundred megabytes and more.
    for start in range(0, len(photo), MATCH_ROWS):
        rows = photo[start:start + MATCH_ROWS]
        # Squared distances, less each photo descriptor's own square (the same along a row).
        distances = squares - 2.0 * (rows @ learned.T)
        first = np.minimum.reduceat(distances, starts, axis=1)
        nearest = distances <= first[:, group_at]
        second = np.minimum.reduceat(np.where(nearest, np.inf, distances), starts, axis=1)
        # Two keypoints as near as each other: the nearest's rival is as near as it.
        second = np.where(np.add.reduceat(nearest, starts, axis=1) > 1, first, second)
        own = np.square(rows).sum(axis=1)[:, None]
        first, second = np.maximum(first + own, 0.0), np.maximum(second + own, 0.0)
        good = (first < MATCH_RATIO ** 2 * second) & (sizes >= 2)
        row, column = np.nonzero(nearest & good[:, group_at])
        out += [(start + q, t) for q, t in zip(row.tolist(), column.tolist(), strict=True)]
    return out


def _card_shaped(quad: npt.NDArray[np.float64]) -> bool:
    """Whether a placed outline is a card's: convex, as long for its width as the card.

    >>> _card_shaped(np.array([[0.0, 0.0], [100.0, 0.0], [100.0, 140.0], [0.0, 140.0]]))
    True
    >>> _card_shaped(np.array([[0.0, 0.0], [100.0, 0.0], [0.0, 140.0], [100.0, 140.0]]))
    False
    """
    if not cv2.isContourConvex(quad.astype(np.float32)):
        return False
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    short, long = (sides[0] + sides[2]) / 2.0, (sides[1] + sides[3]) / 2.0
    return bool(short > 0 and abs(long / short / (CANON_H / CANON_W) - 1.0) <= SHAPE_SLACK)


def _share_within(quad: npt.NDArray[np.float64], part: npt.NDArray[np.bool_]) -> float:
    """The share of a quad (working pixels) that lies on ``part`` (half size)."""
    inside = np.zeros(part.shape, np.uint8)
    cv2.fillConvexPoly(inside, np.round(quad / 2.0).astype(np.int32), 1)
    area = int(inside.sum())
    return float((inside.astype(bool) & part).sum()) / area if area else 0.0


def _named(ink: npt.NDArray[np.float32], pictures: _Pictures, quad: npt.NDArray[np.float64],
           alike: tuple[int, ...], read: set[int], n: int,
           explained: npt.NDArray[np.bool_]) -> tuple[int, int, float] | None:
    """The card of ``alike`` (not among ``read``) whose picture explains the photo inside
    ``quad`` (less what read cards ``explained``, at half size) best, its runner-up, and its
    fit; None unless it fits clearly better than any card drawn otherwise
    (``by_picture._clearly_best``)."""
    shown = _scaled(quad, 1.0 - REREAD_INSET)
    width = float(np.linalg.norm(quad[1] - quad[0]))
    samples = _picture_samples(ink, pictures, shown, width,
                               [(i, CANON_CORNERS, quad) for i in range(n)], blocked=explained)
    if samples is None:
        return None
    photo, drawn = samples
    per_card = np.array([_correlation(photo, d) for d in drawn])
    members = [c for c in alike if c not in read]
    if not members:
        return None
    best = max(members, key=lambda c: per_card[c])
    if not _clearly_best(photo, drawn, per_card, best, (c for c in range(n) if c not in alike)):
        return None
    runners = sorted((c for c in range(n) if c != best), key=lambda c: -per_card[c])
    return best, runners[0] if runners else -1, float(per_card[best])
