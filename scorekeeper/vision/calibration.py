"""Learning a deck from one photo per card.

Each photo shows one card lying flat, taken roughly from above; the file's stem is the card's
code (``Qsh.jpg``, ``10di.png``, ``boss.jpg``). The card is found as the largest white region
(or, where that is no card shape or only a piece of the card, as the region unlike the table,
or GrabCut's foreground), its outline straightened to a canonical upright card, checked for
sharpness, and its corner index learned.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.cards import SUIT_PLURALS, Card, CardError, DeckKind, deck_codes, in_deck
from scorekeeper.vision.errors import (
    BlurryImageError,
    CalibrationError,
    CardCodeError,
    NoCardFoundError,
    NoIndexFoundError,
    VisionError,
)
from scorekeeper.vision.features import CANON_H, CANON_W, FloatImage, Image
from scorekeeper.vision.images import decode, read_bytes
from scorekeeper.vision.learn import (
    deck_fit,
    learn_from_deck,
    learn_normalised,
    learn_picture,
    normalise_card,
    sharpness,
    shows_its_suit,
    suited_peers,
)
from scorekeeper.vision.profile import CardModel, DeckProfile
from scorekeeper.vision.scene import card_mask, fill_regions, white_balance

#: File suffixes read as calibration photos.
IMAGE_SUFFIXES: Final = (".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff")
#: Below this Laplacian variance a canonical card is too blurred to learn.
MIN_SHARPNESS: Final = 0.04
#: A suited card's index is doubted (learned, with a warning) when the distance from its rank
#: to its pip lies more than this factor off the other suited cards' median, or its pip's size
#: off the median of its own suit's (suits' pips differ in size). Court cards that show no
#: index had their picture learned as one, and pale ink broke a rank or a pip in two: on 28
#: decks, 13 such cards lay 1.64 to 4.5 times off, the rest 1.43 at most. Some decks print
#: their courts' indices apart from the pip cards', so a doubt is no refusal.
LIKE_DECK: Final = 1.6
#: ... judged once this many other suited cards (of its suit, for the pip) are learned.
LIKE_PEERS: Final = 4
#: An outline is card-shaped when its opposite sides differ by this factor at most (the photo
#: is taken roughly from above) and its long sides are this many times its short ones at most.
OPPOSITE_SIDES: Final = 1.6
CARD_ASPECT: Final = 2.4
#: The white region found is only a piece of the card (a court's picture split its white)
#: when the next outline found holds its centre and is this many times its area or more: on
#: Paris courts the pieces were a fifth to a tenth of their card.
WHITE_PIECE: Final = 3.0


@dataclass(frozen=True, slots=True)
class Calibration:
    """The outcome of calibrating a folder: the profile, and per card what happened."""

    profile: DeckProfile
    learned: dict[str, str] = field(default_factory=dict)  # code -> file name
    failed: dict[str, str] = field(default_factory=dict)  # file name -> reason
    missing: tuple[str, ...] = ()  # deck codes without a photo
    doubts: dict[str, str] = field(default_factory=dict)  # code -> why its index is doubted

    def to_json(self) -> dict[str, object]:
        return {
            "profile": self.profile.name,
            "deck": self.profile.deck,
            "learned": sorted(self.learned),
            "failed": dict(sorted(self.failed.items())),
            "missing": list(self.missing),
            "doubts": dict(sorted(self.doubts.items())),
        }


def find_card_quad(img: Image) -> npt.NDArray[np.float64]:
    """The four corners of the largest card in a photo, clockwise from the top-left of the card
    standing upright (its short side on top). Raises NoCardFoundError."""
    return card_quads(img)[0]


def card_quads(img: Image) -> list[npt.NDArray[np.float64]]:
    """The card's outline found three ways, best first: as the largest white region (with the
    ink inside it), as the largest region unlike the table at the photo's border (for cards
    whose art reaches their edges), and as the foreground that GrabCut separates from the
    photo's border (for tables whose grain or stripes come near the card's colours). Raises
    the first way's NoCardFoundError if none works."""
    return list(_card_quads(img))


def _card_quads(img: Image) -> Iterator[npt.NDArray[np.float64]]:
    """``card_quads`` one at a time (the later ways cost more and are often not needed).

    Where the white region is found, the next outline is found too: a court card whose
    picture splits its white leaves a white piece that looks like a card, and the outline
    that holds it (``_piece_of``) comes first."""
    f = white_balance(img)
    h, w = f.shape[:2]
    found = False
    first: NoCardFoundError | None = None
    white: npt.NDArray[np.float64] | None = None  # held until the next outline is known
    for way, find in enumerate((_white_region, _unlike_table, _foreground)):
        quad = _outline(find, img, f, h, w)
        if isinstance(quad, NoCardFoundError):
            first = first or quad
            continue
        found = True
        if way == 0:
            white = quad
            continue
        if white is not None:
            yield from (quad, white) if _piece_of(white, quad) else (white, quad)
            white = None
            continue
        yield quad
    if white is not None:
        yield white
    if not found:
        assert first is not None
        raise first


def _outline(find: Callable[[Image, npt.NDArray[np.float32]], npt.NDArray[np.uint8]],
             img: Image, f: npt.NDArray[np.float32], h: int, w: int) -> (
        npt.NDArray[np.float64] | NoCardFoundError):
    """The card-shaped quad of the region ``find`` finds, or why there is none."""
    try:
        return _quad_of(find(img, f), h, w)
    except NoCardFoundError as exc:
        return exc


def _piece_of(piece: npt.NDArray[np.float64], whole: npt.NDArray[np.float64]) -> bool:
    """Whether quad ``piece`` is only a piece of quad ``whole``: ``whole`` holds its centre
    and is WHITE_PIECE times its area or more."""
    centre = piece.mean(axis=0)
    inside = cv2.pointPolygonTest(whole.astype(np.float32),
                                  (float(centre[0]), float(centre[1])), False) >= 0
    return inside and (cv2.contourArea(whole.astype(np.float32))
                       >= WHITE_PIECE * cv2.contourArea(piece.astype(np.float32)))


def _white_region(img: Image, f: npt.NDArray[np.float32]) -> npt.NDArray[np.uint8]:
    h, w = f.shape[:2]
    labels, _ = fill_regions(card_mask(f), min_area=0.01 * h * w)
    if labels.max() == 0:
        raise NoCardFoundError("no card found: lay the card on a darker, plain surface")
    areas = np.bincount(labels.ravel())
    areas[0] = 0
    region: npt.NDArray[np.uint8] = (labels == int(areas.argmax())).astype(np.uint8)
    return region


def _unlike_table(img: Image, f: npt.NDArray[np.float32]) -> npt.NDArray[np.uint8]:
    """The largest region (holes filled) whose colour is unlike the photo's border (the table)."""
    h, w = img.shape[:2]
    k = max(1, max(h, w) // 400)
    small = cv2.resize(img, (w // k, h // k), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (0, 0), 1.5), cv2.COLOR_BGR2LAB).astype(np.float32)
    sh, sw = lab.shape[:2]
    ring = max(2, round(0.03 * max(sh, sw)))
    border = np.concatenate([lab[:ring].reshape(-1, 3), lab[-ring:].reshape(-1, 3),
                             lab[:, :ring].reshape(-1, 3), lab[:, -ring:].reshape(-1, 3)])
    centre = np.median(border, axis=0)
    spread = np.linalg.norm(border - centre, axis=1)
    limit = max(12.0, 1.5 * float(np.percentile(spread, 98)))
    unlike = (np.linalg.norm(lab - centre, axis=2) > limit).astype(np.uint8)
    unlike = cv2.morphologyEx(unlike, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return _largest_filled(unlike.astype(bool), h, w)


def _foreground(img: Image, f: npt.NDArray[np.float32]) -> npt.NDArray[np.uint8]:
    """The largest region (holes filled) that GrabCut, told that the photo's border is table,
    sets apart as foreground."""
    h, w = img.shape[:2]
    k = max(1, max(h, w) // 320)
    small = cv2.resize(img, (w // k, h // k), interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    ring = max(2, round(0.03 * max(sh, sw)))
    mask = np.zeros((sh, sw), np.uint8)
    background = np.zeros((1, 65), np.float64)
    foreground = np.zeros((1, 65), np.float64)
    cv2.setRNGSeed(0)  # GrabCut's k-means starts from OpenCV's RNG: one photo, one outline
    try:
        cv2.grabCut(small, mask, (ring, ring, sw - 2 * ring, sh - 2 * ring), background,
                    foreground, 4, cv2.GC_INIT_WITH_RECT)
    except cv2.error as exc:
        raise NoCardFoundError("no card found: lay the card on a darker, plain surface") from exc
    return _largest_filled((mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD), h, w)


def _largest_filled(found: npt.NDArray[np.bool_], h: int, w: int) -> npt.NDArray[np.uint8]:
    """The largest region of ``found`` (a small copy of the photo; holes filled), at the
    photo's size ``h`` by ``w``."""
    sh, sw = found.shape
    labels, _ = fill_regions(found, min_area=0.01 * sh * sw, bridge=3)
    if labels.max() == 0:
        raise NoCardFoundError("no card found: lay the card on a darker, plain surface")
    areas = np.bincount(labels.ravel())
    areas[0] = 0
    region = (labels == int(areas.argmax())).astype(np.uint8)
    big: npt.NDArray[np.uint8] = cv2.resize(region, (w, h), interpolation=cv2.INTER_NEAREST)
    return big


def _quad_of(region: npt.NDArray[np.uint8], h: int, w: int) -> npt.NDArray[np.float64]:
    """The card-shaped quad of a region, upright; NoCardFoundError when it is not one card."""
    ys, xs = np.nonzero(region[::4, ::4])
    if float(region.sum()) > 0.6 * h * w or (ys.min() == 0 and xs.min() == 0
                                              and ys.max() >= (h - 1) // 4
                                              and xs.max() >= (w - 1) // 4):
        raise NoCardFoundError("no card found: the card should lie whole in the photo, on a "
                               "darker or coloured surface")
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(contour)
    quad = None
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            break
    if quad is None:
        raise NoCardFoundError("no card-shaped (four-cornered) white region found in the photo")
    quad = _refine(contour.reshape(-1, 2).astype(np.float64), quad)
    area = cv2.contourArea(quad.astype(np.float32))
    if area < 0.01 * h * w:
        raise NoCardFoundError("the card is too small in the photo: fill the photo with it")
    fill = float(region.sum()) / max(area, 1.0)
    if not 0.85 < fill < 1.1:
        raise NoCardFoundError("the white region is not a single card: photograph one card alone")
    # Clockwise order, then start so that the first edge is a short one (card upright).
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]
    sides = [float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4)]
    if not card_shaped(sides):
        raise NoCardFoundError("no card-shaped region found: photograph the card from above, "
                               "whole and alone")
    if sides[0] + sides[2] > sides[1] + sides[3]:
        quad = np.roll(quad, -1, axis=0)
    return quad


def card_shaped(sides: Sequence[float]) -> bool:
    """Whether a quad with these side lengths (in order round it) could be a card seen
    roughly from above.

    >>> card_shaped([25, 35, 25, 35]), card_shaped([10, 35, 10, 35]), card_shaped([25, 35, 10, 35])
    (True, False, False)
    """
    a, b, c, d = sides
    if min(sides) <= 0 or max(a, c) > OPPOSITE_SIDES * min(a, c) or (
            max(b, d) > OPPOSITE_SIDES * min(b, d)):
        return False
    return max(a + c, b + d) <= CARD_ASPECT * min(a + c, b + d)


def _refine(points: npt.NDArray[np.float64], quad: npt.NDArray[np.float64]) -> (
        npt.NDArray[np.float64]):
    """Fit a line to the outline points along each side and intersect neighbouring lines."""
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        ab = b - a
        length = float(np.linalg.norm(ab))
        if length < 1:
            return quad
        t = ((points - a) @ ab) / length**2
        rel = points - a
        off = np.abs(ab[0] * rel[:, 1] - ab[1] * rel[:, 0]) / length
        near = points[(t > 0.15) & (t < 0.85) & (off < 0.05 * length)]
        if len(near) < 5:
            return quad
        vx, vy, x0, y0 = cv2.fitLine(near.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return quad
        s = np.linalg.solve(m, p2 - p1)
        out.append(p1 + s[0] * d1)
    return np.array(out)


def straighten(img: Image, quad: npt.NDArray[np.float64]) -> Image:
    """The card inside ``quad`` warped to an upright canonical card (CANON_W x CANON_H)."""
    dst = np.array([[0, 0], [2 * CANON_W, 0], [2 * CANON_W, 2 * CANON_H], [0, 2 * CANON_H]],
                   np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    big = cv2.warpPerspective(img, m, (2 * CANON_W, 2 * CANON_H), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    out: Image = cv2.resize(big, (CANON_W, CANON_H), interpolation=cv2.INTER_AREA)
    return out


def learn_photo(image: bytes | str | Path, code: str,
                peers: Sequence[CardModel] = ()) -> CardModel:
    """Learn one card from its photo. Raises a CalibrationError subclass saying why not.

    Where its corner index is not found on its own, or what was found looks unlike the
    deck's (``index_doubt``), the card is learned where the deck's learned cards, ``peers``,
    show theirs (``learn_from_deck``): in the second case only if that looks more like the
    deck's cards of its rank and suit (``deck_fit``)."""
    cards: list[FloatImage] = []
    try:
        model = _learn_alone(image, code, cards)
    except NoIndexFoundError as exc:
        return _learn_from_deck(code, cards, peers, exc)
    if index_doubt(model, peers) is None:
        return model
    try:
        other = learn_from_deck(code, cards[-1], peers)
    except NoIndexFoundError:
        return model
    return other if (deck_fit(other, peers) or 0.0) > (deck_fit(model, peers) or 0.0) else model


def _learn_alone(image: bytes | str | Path, code: str, cards: list[FloatImage]) -> CardModel:
    """Learn a card from its photo on its own (each outline found, best first, until one
    gives an index); the straightened cards that were sharp enough are added to ``cards``."""
    photo = decode(read_bytes(image), max_side=1600)
    error: CalibrationError | None = None
    for quad in _card_quads(photo.image):
        norm = normalise_card(straighten(photo.image, quad))
        try:
            if sharpness(norm) < MIN_SHARPNESS:
                raise BlurryImageError(
                    "the photo is too blurred: hold the phone steady, focus, retake")
            cards.append(norm)
            return learn_normalised(code, norm)
        except CalibrationError as exc:
            error = error or exc
    assert error is not None
    raise error


def _learn_from_deck(code: str, cards: list[FloatImage], peers: Sequence[CardModel],
                     error: NoIndexFoundError, whole_suit: bool = False) -> CardModel:
    """``learn_from_deck`` on each straightened card in turn (a suited card's); where none
    gives an index, the card learned by its picture alone (``learn_picture``) from the first:
    its corner shows none (a Swiss pattern's court, a joker drawn to its rim). The last
    refusal where no card was straightened (the card's own, ``error``), or where the deck's
    learned cards do not yet show where its suit's index lies: learned later, it is looked for
    there first; unless every card of its suit is being learned (``whole_suit``), when none
    will."""
    if Card.parse(code).suit is not None:
        for norm in cards:
            try:
                return learn_from_deck(code, norm, peers)
            except NoIndexFoundError as exc:
                error = exc
        if not whole_suit and not shows_its_suit(code, peers):
            raise error
    if not cards:
        raise error
    return learn_picture(code, cards[0])


def calibrate_dir(
    folder: str | Path,
    deck: DeckKind = "toss",
    name: str | None = None,
    progress: Callable[[int, int, str, str | None], None] | None = None,
) -> Calibration:
    """Learn every card photo in a folder (file stem = card code).

    A card whose index is found neither on its own nor where the deck's learned cards show
    theirs is learned by its picture alone where some card of its suit shows an index, or
    where the folder holds every card of its suit (a deck that prints a suit's rank apart
    from its pip): asking for more of the suit first would not help.

    ``progress(done, total, file_name, error_or_None)`` is called after each photo.
    """
    path = Path(folder)
    if not path.is_dir():
        raise VisionError(f"{folder} is not a folder of card photos")
    files = sorted(p for p in path.iterdir()
                   if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise VisionError(
            f"{folder} holds no photos (.jpg, .png, ...): put one photo per card there, named by "
            "its code, like Qsh.jpg or 10di.png"
        )
    models: dict[str, CardModel] = {}
    learned: dict[str, str] = {}
    failed: dict[str, str] = {}
    # Cards whose index is not found on their own are learned last, where the deck's learned
    # cards show theirs (``learn_photo``'s peers).
    unfound: list[tuple[Path, str, list[FloatImage], NoIndexFoundError]] = []
    done = 0

    def tell(file: Path, error: str | None) -> None:
        nonlocal done
        done += 1
        if error is not None:
            failed[file.name] = error
        if progress is not None:
            progress(done, len(files), file.name, error)

    for file in files:
        error: str | None = None
        cards: list[FloatImage] = []
        try:
            code = _code_of(file, deck)
            if code in models:
                raise CardCodeError(f"{code} already learned from {learned[code]}")
            models[code] = _learn_alone(file, code, cards)
            learned[code] = file.name
        except NoIndexFoundError as exc:
            unfound.append((file, code, cards, exc))
            continue
        except (CalibrationError, VisionError) as exc:
            error = str(exc)
        tell(file, error)
    peers = list(models.values())
    whole = _whole_suits(deck, set(models) | {code for _, code, _, _ in unfound})
    for file, code, cards, alone in unfound:
        error = None
        try:
            models[code] = _learn_from_deck(code, cards, peers, alone,
                                            Card.parse(code).suit in whole)
            learned[code] = file.name
        except CalibrationError as exc:
            error = str(exc)
        tell(file, error)
    # Cards whose index looks unlike the deck's, learned again where the deck shows its own.
    for code, model in list(models.items()):
        if index_doubt(model, models.values()) is not None:
            # one learned from the deck before and now found nowhere is kept as it was
            with contextlib.suppress(CalibrationError):
                models[code] = learn_photo(path / learned[code], code, [
                    m for c, m in models.items() if c != code])
    doubts = {code: doubt for code, model in models.items()
              if (doubt := learned_doubt(model, models.values())) is not None}
    order = [c for c in deck_codes(deck) if c in models]
    profile = DeckProfile.from_models(name or path.name, deck, [models[c] for c in order])
    missing = tuple(c for c in deck_codes(deck) if c not in models
                    and not any(f.stem.lower() == c.lower() for f in files))
    return Calibration(profile, learned, failed, missing, doubts)


def _whole_suits(deck: DeckKind, given: set[str]) -> set[str]:
    """The suits of ``deck`` whose every card is among the codes ``given``: where none of
    them shows an index that was found, no card learned later will show where it lies.

    >>> sorted(_whole_suits("standard", {f"{r}cl" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()}))
    ['cl']
    >>> _whole_suits("standard", {"2cl", "3cl"})
    set()
    """
    suits: dict[str, bool] = {}
    for code in deck_codes(deck):
        suit = Card.parse(code).suit
        if suit is not None:
            suits[suit] = suits.get(suit, True) and code in given
    return {suit for suit, whole in suits.items() if whole}


def index_doubt(model: CardModel, others: Iterable[CardModel]) -> str | None:
    """Why a suited card's learned corner index looks unlike the deck's other learned cards'
    (``LIKE_DECK``), or None; jokers, the Boss and the null are not judged.

    >>> from scorekeeper.vision.profile import empty_model
    >>> deck = [empty_model(c, d_ratio=0.1, pip_ratio=0.05) for c in ("2he", "3he", "4he", "5he")]
    >>> index_doubt(empty_model("6he", d_ratio=0.11, pip_ratio=0.05), deck) is None
    True
    >>> index_doubt(empty_model("Khe", d_ratio=0.1, pip_ratio=0.02), deck)[:60]
    'Khe: the suit pip found in its corner is 0.40 times the size'
    """
    card = Card.parse(model.code)
    if card.suit is None or not model.paired:
        return None
    peers = suited_peers(model.code, list(others))
    suited = [m for m, _ in peers]
    problem = None
    same = [m.pip_ratio for m, c in peers if c.suit == card.suit]
    if len(same) >= LIKE_PEERS:
        factor = model.pip_ratio / float(np.median(same))
        if not 1 / LIKE_DECK <= factor <= LIKE_DECK:
            problem = (f"the suit pip found in its corner is {factor:.2f} times the size of the "
                       f"other {SUIT_PLURALS[card.suit]}' pips")
    if problem is None and len(suited) >= LIKE_PEERS:
        factor = float(np.max(model.d_ratio)) / float(np.median(
            [float(np.max(m.d_ratio)) for m in suited]))
        if not 1 / LIKE_DECK <= factor <= LIKE_DECK:
            problem = (f"the rank found in its corner lies {factor:.2f} times as far from its "
                       "pip as on the deck's other cards")
    if problem is None:
        return None
    return (f"{model.code}: {problem}. If its corner shows no rank over a pip (some court "
            "cards show only a picture), what was learned is part of the picture and the card "
            "may be misread: check it in a test photo, or retake this one sharp, in even light, "
            "with the top-left corner in full view")


def learned_doubt(model: CardModel, others: Iterable[CardModel]) -> str | None:
    """What the player should know of a learned card: that it was learned by its picture
    alone (no corner index was found), or why its index looks unlike the deck's
    (``index_doubt``); None where nothing.

    >>> from scorekeeper.vision.profile import empty_model
    >>> learned_doubt(empty_model("Kcl"), [])[:63]
    'Kcl: no corner index (rank above suit) was found in its corner,'
    """
    if not model.picture_only:
        return index_doubt(model, others)
    return (f"{model.code}: no corner index (rank above suit) was found in its corner, so it was "
            "learned by its picture alone: it is read only where most of its face shows, and "
            "the player is asked to check it. If its corner does show an index, retake this "
            "photo sharp, in even light, with the top-left corner in full view")


def _code_of(file: Path, deck: DeckKind) -> str:
    try:
        card = Card.parse(file.stem)
    except CardError as exc:
        raise CardCodeError(f"the file name is not a card code: {exc}") from exc
    if not in_deck(card, deck):
        raise CardCodeError(f"{card} is not in a {deck} deck")
    return card.code
