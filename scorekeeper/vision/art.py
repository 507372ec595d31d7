"""Card art from third-party decks, for judging recognition on designs this project did not draw.

Six sources, each installed by whoever needs it (the benchmark, the tests), never shipped:

- Debian's ``gnome-cards-data``: the Aisleriot card themes, SVG sheets of 13 x 5 cards
  (clubs, diamonds, hearts, spades, then the black joker, the red joker and the back),
  in ``/usr/share/aisleriot/cards``. Rendered with librsvg's ``rsvg-convert``.
- npm's ``@letele/playing-cards`` (CC0): one React SVG component per card, rendered to SVG
  by Node with ``react-dom/server`` and then to pixels by ``rsvg-convert``.
- npm's ``@younestouati/playing-cards-standard-deck`` (LGPL-3.0): one SVG file per card (the
  "Responsive Playing Cards" redrawing of Chris Aguilar's vectorized deck), rendered by
  ``rsvg-convert``; one joker, whose corners show a lone red star.
- Debian's ``kdegames-card-data-kf5``: the KDE card decks, one SVG per deck in
  ``/usr/share/carddecks``, each card an element named by rank and suit (``7_heart``,
  ``king_club``), rendered one at a time with ``rsvg-convert --export-id``.
- npm's ``react-free-playing-cards`` (the package MIT, its cards Adrian Kennard's CC0 deck
  from www.me.uk/cards): one SVG file per card in four variants (two or four colours, normal
  or big faces: a large index, a small picture), rendered by ``rsvg-convert``; one joker
  without an index. Only the package's tarball is used (``npm pack``), never its code.
- Debian's ``fonts-symbola`` and ``fonts-noto-core``: the glyphs of Unicode's Playing Cards
  block in two fonts (Symbola, Noto Sans Symbols2), each a whole card with its corner index,
  rendered by ``rsvg-convert`` through fontconfig (``glyph_deck``).

A Toss-like deck is made from a standard one: the gold suits (crosses, oracles) are the clubs
and spades with their black ink turned gold, the blue suits (castles, shields) the hearts and
diamonds with their red ink turned blue; the gold and blue jokers are the black and red jokers
recoloured; the Boss and the null are drawn as a letter over a symbol in a DejaVu font.

Rendered cards are kept in a cache folder (``SCOREKEEPER_ART_CACHE``, default
``~/.cache/scorekeeper/art``) as PNG files with alpha.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.vision.errors import ArtMissingError
from scorekeeper.vision.features import Image
from scorekeeper.vision.reference import CARD_W, DrawnCard

#: Where Debian's gnome-cards-data puts the Aisleriot themes.
AISLERIOT_DIR: Final = Path("/usr/share/aisleriot/cards")
#: Where Debian's kdegames-card-data-kf5 puts the KDE card decks.
KDE_DIR: Final = Path("/usr/share/carddecks")
#: The npm package (CC0) of the second source, and its exact version.
LETELE_PACKAGE: Final = "@letele/playing-cards@0.1.0"
#: The npm package (LGPL-3.0) of the third source, and its exact version.
AGUILAR_PACKAGE: Final = "@younestouati/playing-cards-standard-deck@3.0.0"
#: The npm package (MIT; its cards CC0) of the fifth source, and its exact version.
KENNARD_PACKAGE: Final = "react-free-playing-cards@0.4.2"
#: Its four variants, by the folder of its ``src/images`` they are in.
KENNARD_VARIANTS: Final = ("2color", "2color-bf", "4color", "4color-bf")
_RANK_COLUMNS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SHEET_ROWS: Final = ("cl", "di", "he", "sp")
#: The suits by the capital letter the second and fifth sources' file names give them.
_SUIT_LETTERS: Final = {"C": "cl", "D": "di", "H": "he", "S": "sp"}
#: Rendering width of one card (pixels), before it is scaled to ``CARD_W``.
_RENDER_W: Final = 600


@dataclass(frozen=True, slots=True)
class ArtDeck:
    """A deck of drawn cards by code; ``name`` says where the art came from."""

    name: str
    kind: str  # "toss" or "standard"
    cards: dict[str, DrawnCard]

    @property
    def codes(self) -> list[str]:
        return list(self.cards)


def cache_dir() -> Path:
    """The folder where rendered third-party cards are kept."""
    env = os.environ.get("SCOREKEEPER_ART_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "scorekeeper" / "art"


def _rsvg() -> str:
    tool = shutil.which("rsvg-convert")
    if tool is None:
        raise ArtMissingError("rsvg-convert is not installed: apt-get install librsvg2-bin")
    return tool


def _render_svg(svg: Path, width: int, element: str | None = None) -> Image:
    """An SVG (or SVGZ) file, or one ``element`` of it (by id), rendered to BGRA pixels
    ``width`` wide."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.png"
        only = ["-i", element] if element else []
        subprocess.run([_rsvg(), *only, "-w", str(width), "-o", str(out), str(svg)], check=True,
                       capture_output=True, timeout=300)
        read = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
    if read is None:
        raise ArtMissingError(f"rsvg-convert could not render {svg}")
    img: Image = read
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGRA)
    elif img.shape[2] == 3:
        img = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    return img


def _render_markup(svg: str, width: int) -> Image:
    """SVG markup rendered to BGRA pixels ``width`` wide (``_render_svg``)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "card.svg"
        path.write_text(svg, encoding="utf-8")
        return _render_svg(path, width)


def _trim(cell: Image, opaque: int = 8) -> DrawnCard | None:
    """The card inside a sheet cell (BGRA), cropped to its outline (pixels more opaque than
    ``opaque``: more than a faint drop shadow, where a deck draws one) and scaled to CARD_W."""
    alpha = cell[..., 3]
    ys, xs = np.nonzero(alpha > opaque)
    if len(xs) < 100:
        return None
    crop = cell[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    h, w = crop.shape[:2]
    height = round(CARD_W * h / w)
    crop = cv2.resize(crop, (CARD_W, height), interpolation=cv2.INTER_AREA)
    a = crop[..., 3:4].astype(np.float32) / 255.0
    # Premultiply over white: a card's face is opaque; only its rounded corners are not.
    bgr = (crop[..., :3].astype(np.float32) * a + 255.0 * (1 - a)).astype(np.uint8)
    return DrawnCard("", bgr, crop[..., 3].copy())


def _store(folder: Path, cards: dict[str, DrawnCard]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for code, card in cards.items():
        bgra = np.dstack([card.image, card.alpha])
        cv2.imwrite(str(folder / f"{code}.png"), bgra)


def _load(folder: Path) -> dict[str, DrawnCard]:
    out = {}
    for path in sorted(folder.glob("*.png")):
        bgra = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if bgra is None:
            raise ArtMissingError(f"{path} cannot be read: delete {folder} to render it again")
        out[path.stem] = DrawnCard(path.stem, bgra[..., :3].copy(), bgra[..., 3].copy())
    return out


def aisleriot(theme: str) -> ArtDeck:
    """A standard deck (52 cards and two jokers where the theme has them) from an Aisleriot
    theme of Debian's gnome-cards-data."""
    folder = cache_dir() / f"aisleriot-{theme}"
    if not (folder / "Kcl.png").exists():
        svg = AISLERIOT_DIR / f"{theme}.svgz"
        if not svg.exists():
            raise ArtMissingError(
                f"{svg} is missing: install Debian's card themes (apt-get install "
                "gnome-cards-data librsvg2-bin)")
        sheet = _render_svg(svg, 13 * _RENDER_W)
        h, w = sheet.shape[:2]
        cw, ch = w / 13, h / 5
        cards: dict[str, DrawnCard] = {}
        for row, suit in enumerate(_SHEET_ROWS):
            for col, rank in enumerate(_RANK_COLUMNS):
                card = _trim(sheet[round(row * ch):round((row + 1) * ch),
                                   round(col * cw):round((col + 1) * cw)])
                if card is not None:
                    cards[f"{rank}{suit}"] = card
        for col, code in ((0, "jk-black"), (1, "jk-red")):
            card = _trim(sheet[round(4 * ch):h, round(col * cw):round((col + 1) * cw)])
            if card is not None and _looks_like_face(card):
                cards[code] = card
        _store(folder, cards)
    return ArtDeck(f"aisleriot:{theme}", "standard", _load(folder))


def _looks_like_face(card: DrawnCard) -> bool:
    """Whether a joker cell holds a face (mostly white) rather than a card back."""
    return float((card.image.min(axis=2) > 200).mean()) > 0.35


_LETELE_SCRIPT: Final = """
import * as React from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { writeFileSync } from 'fs';
const cards = await import(process.argv[2]);
for (const [name, component] of Object.entries(cards)) {
  if (typeof component !== 'function') continue;
  writeFileSync(process.argv[3] + '/' + name + '.svg',
                renderToStaticMarkup(React.createElement(component)));
}
"""


def letele() -> ArtDeck:
    """The CC0 deck of npm's ``@letele/playing-cards`` (52 cards and two jokers)."""
    folder = cache_dir() / "letele"
    if not (folder / "Kcl.png").exists():
        modules = cache_dir() / "npm" / "node_modules"
        entry = modules / "@letele" / "playing-cards" / "dist" / "index.esm.js"
        if not entry.exists() or shutil.which("node") is None:
            raise ArtMissingError(
                f"the npm package {LETELE_PACKAGE} is missing: npm install --prefix "
                f"{cache_dir() / 'npm'} {LETELE_PACKAGE} react@18 react-dom@18 @babel/runtime")
        with tempfile.TemporaryDirectory() as tmp:
            script = modules.parent / "render.mjs"
            script.write_text(_LETELE_SCRIPT)
            subprocess.run(["node", str(script), str(entry), tmp], check=True,
                           capture_output=True, timeout=300)
            cards = _render_files(Path(tmp).glob("*.svg"), _letele_code)
        _store(folder, cards)
    return ArtDeck("npm:@letele/playing-cards", "standard", _load(folder))


def _render_files(paths: Iterable[Path], code_of: Callable[[str], str | None]) -> dict[
        str, DrawnCard]:
    """One SVG file per card, each named so that ``code_of`` gives its code from the file's
    stem (None: no card), rendered and cropped to the card."""
    cards: dict[str, DrawnCard] = {}
    for path in sorted(paths):
        code = code_of(path.stem)
        if code is None:
            continue
        card = _trim(_render_svg(path, _RENDER_W))
        if card is not None:
            cards[code] = card
    return cards


def _letele_code(name: str) -> str | None:
    """A card's code from its component's name in the second source (suit letter, then rank;
    ``J1`` and ``J2`` its red and black jokers).

    >>> _letele_code("Hk"), _letele_code("D10"), _letele_code("J2"), _letele_code("B1")
    ('Khe', '10di', 'jk-black', None)
    """
    if name[:1] in _SUIT_LETTERS:
        return name[1:].upper() + _SUIT_LETTERS[name[0]]
    return {"J1": "jk-red", "J2": "jk-black"}.get(name)


def _aguilar_code(name: str) -> str | None:
    """A card's code from its file's name in the third source (rank number, suit letter).

    >>> _aguilar_code("13c"), _aguilar_code("1h"), _aguilar_code("joker"), _aguilar_code("back")
    ('Kcl', 'Ahe', 'jk-red', None)
    """
    ranks = {"1": "A", "11": "J", "12": "Q", "13": "K"}
    suits = {"c": "cl", "d": "di", "h": "he", "s": "sp"}
    if name == "joker":
        return "jk-red"
    if name[-1:] in suits and name[:-1].isdigit():
        return ranks.get(name[:-1], name[:-1]) + suits[name[-1]]
    return None


def _kennard_code(name: str) -> str | None:
    """A card's code from its file's name in the fifth source (rank letter, T for ten, and
    suit letter; ``2J`` its joker).

    >>> _kennard_code("TD"), _kennard_code("KS"), _kennard_code("2J"), _kennard_code("back")
    ('10di', 'Ksp', 'jk-black', None)
    """
    rank, suit = name[:-1], name[-1:]
    if suit == "J":
        return "jk-black"
    if suit in _SUIT_LETTERS and rank:
        return ("10" if rank == "T" else rank) + _SUIT_LETTERS[suit]
    return None


def aguilar() -> ArtDeck:
    """The deck of npm's ``@younestouati/playing-cards-standard-deck`` (52 cards and a joker
    with a red star in its corners, kept as the red joker)."""
    folder = cache_dir() / "aguilar"
    if not (folder / "Kcl.png").exists():
        source = cache_dir() / "npm" / "node_modules" / "@younestouati" / (
            "playing-cards-standard-deck") / "cards"
        if not (source / "13c.svg").exists():
            raise ArtMissingError(
                f"the npm package {AGUILAR_PACKAGE} is missing: npm install --prefix "
                f"{cache_dir() / 'npm'} {AGUILAR_PACKAGE}")
        _store(folder, _render_files(source.glob("*.svg"), _aguilar_code))
    return ArtDeck("npm:@younestouati/playing-cards-standard-deck", "standard", _load(folder))


def kennard_tarball() -> Path:
    """Where the fifth source's npm tarball is kept (``npm pack`` puts it there)."""
    name, version = KENNARD_PACKAGE.split("@")
    return cache_dir() / "npm" / f"{name}-{version}.tgz"


def kennard(variant: str = "2color") -> ArtDeck:
    """Adrian Kennard's CC0 deck from npm's ``react-free-playing-cards``, in one of its
    ``KENNARD_VARIANTS`` (52 cards and a joker without an index, kept as the black joker)."""
    if variant not in KENNARD_VARIANTS:
        raise ValueError(f"unknown variant {variant!r}: one of {', '.join(KENNARD_VARIANTS)}")
    folder = cache_dir() / f"kennard-{variant}"
    if not (folder / "Kcl.png").exists():
        tarball = kennard_tarball()
        if not tarball.exists():
            raise ArtMissingError(
                f"the npm package {KENNARD_PACKAGE} is missing: npm pack {KENNARD_PACKAGE} "
                f"--pack-destination {tarball.parent}")
        with tempfile.TemporaryDirectory() as tmp, tarfile.open(tarball) as tar:
            prefix = f"package/src/images/{variant}/"
            for member in tar.getmembers():
                name = member.name[len(prefix):]
                source = tar.extractfile(member) if member.name.startswith(prefix) else None
                if source is not None and name.endswith(".svg") and "/" not in name:
                    (Path(tmp) / name).write_bytes(source.read())
            cards = _render_files(Path(tmp).glob("*.svg"), _kennard_code)
        _store(folder, cards)
    return ArtDeck(f"npm:{KENNARD_PACKAGE.split('@')[0]}:{variant}", "standard", _load(folder))


#: The KDE card decks' names for ranks and suits in their element ids.
_KDE_RANKS: Final = {"1": "A", "jack": "J", "queen": "Q", "king": "K",
                     **{str(n): str(n) for n in range(2, 11)}}
_KDE_SUITS: Final = {"club": "cl", "diamond": "di", "heart": "he", "spade": "sp"}


def kde(deck: str) -> ArtDeck:
    """A standard deck (52 cards, and the jokers the deck has: one plain ``joker`` is kept as
    the red joker) from a KDE card deck of Debian's kdegames-card-data-kf5 (``deck`` is the
    folder's name without ``svg-``)."""
    folder = cache_dir() / f"kde-{deck}"
    if not (folder / "Kcl.png").exists():
        found = sorted((KDE_DIR / f"svg-{deck}").glob("*.svgz"))
        if not found:
            raise ArtMissingError(
                f"{KDE_DIR / f'svg-{deck}'} is missing: install Debian's KDE card decks "
                "(apt-get install kdegames-card-data-kf5 librsvg2-bin)")
        elements = {f"{rank}_{suit}": f"{code}{short}" for rank, code in _KDE_RANKS.items()
                    for suit, short in _KDE_SUITS.items()}
        elements.update({"black_joker": "jk-black", "red_joker": "jk-red", "joker": "jk-red"})
        cards: dict[str, DrawnCard] = {}
        with tempfile.TemporaryDirectory() as tmp:
            svg = Path(tmp) / "deck.svg"
            with svg.open("wb") as out:
                subprocess.run(["gzip", "-dc", str(found[0])], check=True, timeout=60,
                               stdout=out)
            for element, code in elements.items():
                card = None if code in cards else kde_card(svg, element)
                if card is not None:
                    cards[code] = card
        _store(folder, cards)
    return ArtDeck(f"kde:{deck}", "standard", _load(folder))


def kde_card(svg: Path, element: str) -> DrawnCard | None:
    """One card of a KDE deck's (unzipped) SVG by its element id, or None if the deck has no
    such element (most have one joker or none). The card's element may lie anywhere on a
    canvas larger than the card, with a faint shadow: it is rendered large and cropped to its
    opaque part."""
    try:
        img = _render_svg(svg, 3 * _RENDER_W, element)
    except subprocess.CalledProcessError:
        return None
    return _trim(img, opaque=128)


def _recolour(card: DrawnCard, source: str, ink: tuple[int, int, int],
              black: npt.NDArray[np.float32] | None = None) -> DrawnCard:
    """The card with its ``source`` ink ("black", "red" or "any") turned to ``ink`` (BGR),
    keeping how dark each pixel is (so anti-aliased edges stay smooth). ``black`` is the
    deck's own black ink (0..1 BGR; a slate or a navy in some themes): pixels between the white
    and it count as that ink too."""
    f = card.image.astype(np.float32) / 255.0
    hi, lo = f.max(axis=2), f.min(axis=2)
    sat = (hi - lo) / np.maximum(hi, 1e-3)
    b, g, r = f[..., 0], f[..., 1], f[..., 2]
    if source == "black":
        weight = np.clip(1.0 - sat / 0.35, 0.0, 1.0)
    elif source == "red":
        weight = np.clip((r - np.maximum(g, b)) / np.maximum(r, 1e-3) / 0.35, 0.0, 1.0)
    else:
        weight = np.ones_like(hi)
    depth = (1.0 - (hi + lo) / 2 if source != "red" else 1.0 - (g + b) / 2)
    if source == "black" and black is not None:
        weight = np.maximum(weight, _near_line(f, black))
    depth = np.clip(depth, 0.0, 1.0)
    target = np.array(ink, np.float32) / 255.0
    painted = 1.0 - depth[..., None] * (1.0 - target[None, None, :])
    out = f * (1 - weight[..., None]) + painted * weight[..., None]
    return DrawnCard("", (np.clip(out, 0, 1) * 255).astype(np.uint8), card.alpha)


#: A pixel this far (0..1 BGR) from the line between white and a deck's black is that ink;
#: the weight falls to nothing at twice the distance.
INK_LINE: Final = 0.06


def _near_line(f: npt.NDArray[np.float32], ink: npt.NDArray[np.float32]) -> (
        npt.NDArray[np.float32]):
    """How much each pixel of ``f`` (0..1 BGR) is a tint of ``ink``: 1 on the line from white
    to it, none from ``2 * INK_LINE`` away.

    >>> f = np.array([[[0.2, 0.25, 0.3], [0.6, 0.62, 0.65], [0.1, 0.5, 0.9]]], np.float32)
    >>> _near_line(f, np.array([0.2, 0.25, 0.3], np.float32)).round(2).tolist()
    [[1.0, 1.0, 0.0]]
    """
    span = 1.0 - ink
    t = np.clip(((1.0 - f) @ span) / max(float(span @ span), 1e-6), 0.0, 1.0)
    off = np.linalg.norm((1.0 - f) - t[..., None] * span, axis=2)
    out: npt.NDArray[np.float32] = np.clip(2.0 - off / INK_LINE, 0.0, 1.0).astype(np.float32)
    return out


def black_ink(card: DrawnCard) -> npt.NDArray[np.float32]:
    """A card's black ink (0..1 BGR): the median of its dark, nearly colourless pixels (a
    plain black pip card's print; some themes print a slate or a navy).

    >>> img = np.full((4, 4, 3), 255, np.uint8); img[:2] = (61, 54, 41)
    >>> (black_ink(DrawnCard("7cl", img, img[..., 0])) * 255).round().tolist()
    [61.0, 54.0, 41.0]
    """
    f = card.image.astype(np.float32) / 255.0
    hi, lo = f.max(axis=2), f.min(axis=2)
    dark = (hi < 0.5) & (hi - lo < 0.15)
    if not dark.any():
        return np.zeros(3, np.float32)
    out: npt.NDArray[np.float32] = np.median(f[dark], axis=0).astype(np.float32)
    return out


#: Fonts whose glyphs of Unicode's Playing Cards block (U+1F0A0-1F0FF) are whole cards with a
#: corner index, one deck each: the font's family and the Debian package that installs it.
GLYPH_FONTS: Final = {"symbola": ("Symbola", "fonts-symbola"),
                      "noto": ("Noto Sans Symbols2", "fonts-noto-core")}
#: The block's first code point of each suit's row, and each rank's place in a row (the
#: knight, 12, is left out); the red and the black joker.
_GLYPH_SUITS: Final = {"sp": 0x1F0A0, "he": 0x1F0B0, "di": 0x1F0C0, "cl": 0x1F0D0}
_GLYPH_RANKS: Final = {"A": 1, **{str(n): n for n in range(2, 11)}, "J": 11, "Q": 13, "K": 14}
_GLYPH_JOKERS: Final = {"jk-red": 0x1F0BF, "jk-black": 0x1F0CF}
#: The inks the glyphs are printed in (BGR): the fonts draw them in one colour.
_GLYPH_RED: Final = (40, 30, 190)
_GLYPH_BLACK: Final = (35, 30, 30)


def glyph_deck(font: str) -> ArtDeck:
    """A standard deck (52 cards, a red and a black joker) from a font's playing-card glyphs
    (``GLYPH_FONTS``): each glyph's outline is the card, its printed border is left out, its
    ink is red or black by suit, and the card is stretched to a card's proportions (the glyphs
    are squatter)."""
    family, package = GLYPH_FONTS[font]
    folder = cache_dir() / f"glyph-{font}"
    if not (folder / "Kcl.png").exists():
        if not font_installed(family):
            raise ArtMissingError(f"the font {family} is missing: apt-get install {package} "
                                  "fontconfig librsvg2-bin")
        points = {f"{rank}{suit}": first + n for suit, first in _GLYPH_SUITS.items()
                  for rank, n in _GLYPH_RANKS.items()}
        points.update(_GLYPH_JOKERS)
        cards: dict[str, DrawnCard] = {}
        for code, point in points.items():
            red = code[-2:] in ("he", "di") or code == "jk-red"
            card = glyph_card(family, point, _GLYPH_RED if red else _GLYPH_BLACK)
            if card is not None:
                cards[code] = card
        _store(folder, cards)
    return ArtDeck(f"font:{font}", "standard", _load(folder))


def font_installed(family: str) -> bool:
    """Whether fontconfig knows a font ``family`` (``fc-list``; False without fontconfig)."""
    if shutil.which("fc-list") is None:
        return False
    listed = subprocess.run(["fc-list", f":family={family}", "family"], capture_output=True,
                            text=True, timeout=60, check=False)
    return bool(listed.stdout.strip())


def glyph_card(family: str, point: int, ink: tuple[int, int, int]) -> DrawnCard | None:
    """One playing-card glyph of a font as a card: white inside the glyph's outer outline,
    its ink (but for the border the outline is drawn with) in ``ink``; None where the font
    draws nothing."""
    size = 3 * _RENDER_W
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}">'
           f'<text x="{size // 8}" y="{size * 3 // 4}" font-family="{family}" '
           f'font-size="{size * 5 // 8}">&#x{point:X};</text></svg>')
    drawn = _render_markup(svg, size)[..., 3]
    ys, xs = np.nonzero(drawn > 128)
    if len(xs) < 1000:
        return None
    drawn = drawn[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    solid = (drawn > 128).astype(np.uint8)
    outline = max(cv2.findContours(solid, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0],
                  key=cv2.contourArea)
    card = np.zeros_like(solid)
    cv2.drawContours(card, [outline], -1, 1, thickness=cv2.FILLED)
    if float(card.mean()) < 0.5:
        return None
    # The border is the ink joined to the outline; the index, pips and picture lie inside it.
    _, labels = cv2.connectedComponents(solid, connectivity=8)
    border = labels == labels[outline[0, 0, 1], outline[0, 0, 0]]
    border = cv2.dilate(border.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    face = np.where(border, 0.0, drawn.astype(np.float32) / 255.0) * card
    printed = (255.0 - face[..., None] * (255.0 - np.array(ink, np.float32))).astype(np.float32)
    height = round(CARD_W * 1.4)
    bgr = cv2.resize(printed, (CARD_W, height), interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(card.astype(np.float32) * 255.0, (CARD_W, height),
                       interpolation=cv2.INTER_AREA)
    return DrawnCard("", np.clip(bgr, 0, 255).astype(np.uint8),
                     np.clip(alpha, 0, 255).astype(np.uint8))


def _font_card(template: DrawnCard, letter: str, symbol: str, ink: tuple[int, int, int],
               font: str) -> DrawnCard:
    """A blank face the size of ``template`` with a corner index (``letter`` over ``symbol``)
    at both ends and a large ``symbol`` in the middle, set in a DejaVu ``font``."""
    h, w = template.image.shape[:2]
    colour = f"#{ink[2]:02x}{ink[1]:02x}{ink[0]:02x}"
    index = (f'<text x="{0.11 * w}" y="{0.13 * h}" font-size="{0.12 * h}">{letter}</text>'
             f'<text x="{0.11 * w}" y="{0.23 * h}" font-size="{0.09 * h}">{symbol}</text>')
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}">'
           f'<rect width="{w}" height="{h}" fill="#fff"/>'
           f'<g font-family="{font}" fill="{colour}" text-anchor="middle">{index}'
           f'<g transform="rotate(180 {w / 2} {h / 2})">{index}</g>'
           f'<text x="{w / 2}" y="{0.62 * h}" font-size="{0.3 * h}">{symbol}</text></g></svg>')
    img = _render_markup(svg, w)
    face = img[..., :3].astype(np.float32)
    a = img[..., 3:4].astype(np.float32) / 255.0
    bgr = (face * a + 255.0 * (1 - a)).astype(np.uint8)
    return DrawnCard("", bgr, template.alpha)


@dataclass(frozen=True, slots=True)
class TossInks:
    """The inks (BGR) and the font of a Toss-like deck made from a standard one."""

    gold: tuple[int, int, int]
    blue: tuple[int, int, int]
    boss: tuple[int, int, int]
    null: tuple[int, int, int]
    font: str


#: The Toss suit each standard suit is recoloured into (same shape, gold or blue ink).
TOSS_SUIT_OF: Final = {"cl": "cr", "sp": "or", "he": "ca", "di": "sh"}
#: Version of the recolouring, in the cache folder's name (a changed recolouring is not read
#: from an older cache): 2 recolours a theme's own black (slate, navy), not only pure black.
TOSS_RECOLOUR: Final = 2
#: A few plausible printings; which one a deck gets is part of what makes it that deck.
TOSS_INKS: Final = {
    "warm": TossInks((30, 160, 220), (170, 80, 20), (120, 30, 110), (110, 110, 110),
                     "DejaVu Serif"),
    "deep": TossInks((10, 135, 200), (140, 60, 0), (60, 120, 20), (130, 120, 110),
                     "DejaVu Sans"),
    "pale": TossInks((60, 175, 230), (190, 100, 40), (140, 40, 140), (120, 120, 120),
                     "DejaVu Sans Mono"),
}


def toss_like(base: ArtDeck, inks: str = "warm") -> ArtDeck:
    """A Toss-like deck (eight suits, five jokers, the null) made from a standard deck."""
    folder = cache_dir() / (f"toss{TOSS_RECOLOUR}-{base.name.replace(':', '-').replace('/', '-')}"
                            f"-{inks}")
    if not (folder / "Kcr.png").exists():
        ink = TOSS_INKS[inks]
        black_print = black_ink(base.cards["7cl"])
        cards: dict[str, DrawnCard] = {}
        for code, card in base.cards.items():
            if code.startswith("jk"):
                continue
            rank, suit = code[:-2], code[-2:]
            cards[code] = card
            source, target = ("black", ink.gold) if suit in ("cl", "sp") else ("red", ink.blue)
            cards[rank + TOSS_SUIT_OF[suit]] = _recolour(card, source, target, black_print)
        black, red = base.cards.get("jk-black"), base.cards.get("jk-red")
        if black is not None and red is not None:
            cards["jk-black"] = black
            cards["jk-red"] = red
            cards["jk-gold"] = _recolour(black, "black", ink.gold, black_print)
            cards["jk-blue"] = _recolour(red, "red", ink.blue)
        template = base.cards["Acl"]
        cards["boss"] = _font_card(template, "B", "\u265b", ink.boss, ink.font)
        cards["null"] = _font_card(template, "N", "\u2205", ink.null, ink.font)
        _store(folder, cards)
    return ArtDeck(f"toss-like from {base.name} ({inks} inks)", "toss", _load(folder))
