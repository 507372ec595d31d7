"""A deck profile: what recognition knows of one deck, learned from one picture per card.

A profile holds, for every learned card, index patches (the corner's rank over suit pip, seen
straight and as through a tilted phone), where the card's corners lie relative to its index,
and the ink's colour. It is saved as a NumPy ``.npz`` file with a small JSON header.

>>> p = DeckProfile.empty("demo", "toss")
>>> p.codes, p.templates.shape[1] == PATCH_W * PATCH_H
((), True)
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from scorekeeper.cards import DECK_KINDS, Card
from scorekeeper.vision.errors import ProfileError
from scorekeeper.vision.features import CANON_H, CANON_W, PATCH_H, PATCH_W

PROFILE_VERSION: Final = 1
_FORMAT: Final = "scorekeeper-deck-profile"


@dataclass(frozen=True, slots=True)
class CardModel:
    """What was learned of one card."""

    code: str
    templates: npt.NDArray[np.float32]  # (k, PATCH_W * PATCH_H), zero-mean unit-norm
    corners: npt.NDArray[np.float32]  # (k, 4, 2): card corners in each template's frame units
    d_ratio: npt.NDArray[np.float32]  # (k,): rank-to-pip distance / card width
    colour: npt.NDArray[np.float32]  # (3,): ink absorption B, G, R, largest 1
    pip_ratio: float  # pip size / card width
    to_canon: npt.NDArray[np.float32]  # (k, 2, 3): frame units -> canonical card pixels
    ink: npt.NDArray[np.uint8]  # (CANON_H, CANON_W): the card's inkness, 0..255
    lone: bool = False  # the corner shows one mark (a joker's star): templates of it alone

    @property
    def picture_only(self) -> bool:
        """No corner index was found: the card is known by its picture alone.

        >>> empty_model("Kcl").picture_only, empty_model("Kcl", d_ratio=0.1).picture_only
        (True, False)
        """
        return len(self.templates) == 0

    @property
    def paired(self) -> bool:
        """Learned by a corner index of a rank and a suit pip (not a lone mark, not by its
        picture alone), as ``DeckProfile.paired``."""
        return not self.lone and not self.picture_only


@dataclass(frozen=True, slots=True, eq=False, weakref_slot=True)
class DeckProfile:
    """Every card model of one deck, stacked for fast matching."""

    name: str
    deck: str
    codes: tuple[str, ...]
    templates: npt.NDArray[np.float32]  # (T, P)
    owner: npt.NDArray[np.int32]  # (T,) index into codes
    corners: npt.NDArray[np.float32]  # (T, 4, 2)
    d_ratio: npt.NDArray[np.float32]  # (T,)
    colours: npt.NDArray[np.float32]  # (N, 3)
    pip_ratio: npt.NDArray[np.float32]  # (N,)
    to_canon: npt.NDArray[np.float32]  # (T, 2, 3)
    ink: npt.NDArray[np.uint8]  # (N, CANON_H, CANON_W)
    lone: npt.NDArray[np.bool_]  # (N,): the card's corner shows one mark (``CardModel.lone``)

    @classmethod
    def empty(cls, name: str, deck: str) -> DeckProfile:
        return cls.from_models(name, deck, [])

    @classmethod
    def from_models(cls, name: str, deck: str, models: list[CardModel]) -> DeckProfile:
        """Stack card models (in the given order) into a profile."""
        if deck not in DECK_KINDS:
            raise ProfileError(f"unknown deck kind {deck!r}: use one of {', '.join(DECK_KINDS)}")
        p = PATCH_W * PATCH_H
        if not models:
            return cls(name, deck, (), np.zeros((0, p), np.float32), np.zeros(0, np.int32),
                       np.zeros((0, 4, 2), np.float32), np.zeros(0, np.float32),
                       np.zeros((0, 3), np.float32), np.zeros(0, np.float32),
                       np.zeros((0, 2, 3), np.float32), np.zeros((0, CANON_H, CANON_W), np.uint8),
                       np.zeros(0, np.bool_))
        return cls(
            name=name,
            deck=deck,
            codes=tuple(m.code for m in models),
            templates=np.concatenate([m.templates for m in models]).astype(np.float32),
            owner=np.concatenate(
                [np.full(len(m.templates), i, np.int32) for i, m in enumerate(models)]),
            corners=np.concatenate([m.corners for m in models]).astype(np.float32),
            d_ratio=np.concatenate([m.d_ratio for m in models]).astype(np.float32),
            colours=np.stack([m.colour for m in models]).astype(np.float32),
            pip_ratio=np.array([m.pip_ratio for m in models], np.float32),
            to_canon=np.concatenate([m.to_canon for m in models]).astype(np.float32),
            ink=np.stack([m.ink for m in models]).astype(np.uint8),
            lone=np.array([m.lone for m in models], np.bool_),
        )

    def __len__(self) -> int:
        return len(self.codes)

    @property
    def picture_only(self) -> npt.NDArray[np.bool_]:
        """(N,): the cards known by their picture alone (``CardModel.picture_only``)."""
        out: npt.NDArray[np.bool_] = np.bincount(self.owner, minlength=len(self.codes)) == 0
        return out

    @property
    def paired(self) -> npt.NDArray[np.bool_]:
        """(N,): the cards learned by a corner index of a rank and a suit pip (not a lone
        mark, not by their picture alone)."""
        out: npt.NDArray[np.bool_] = ~self.lone & ~self.picture_only
        return out

    def models(self) -> list[CardModel]:
        """The card models, in the profile's order."""
        out = []
        for i, code in enumerate(self.codes):
            rows = self.owner == i
            out.append(CardModel(code, self.templates[rows], self.corners[rows],
                                 self.d_ratio[rows], self.colours[i], float(self.pip_ratio[i]),
                                 self.to_canon[rows], self.ink[i], bool(self.lone[i])))
        return out

    def with_card(self, model: CardModel) -> DeckProfile:
        """A copy with one card learned (again): for calibrating a card at a time.

        >>> empty = DeckProfile.empty("demo", "toss")
        >>> len(empty.with_card(empty_model("Qsh")))
        1
        """
        models = [m for m in self.models() if m.code != model.code] + [model]
        return DeckProfile.from_models(self.name, self.deck, models)

    def without(self, code: str) -> DeckProfile:
        """A copy with one card forgotten."""
        return DeckProfile.from_models(self.name, self.deck,
                                       [m for m in self.models() if m.code != code])

    def to_bytes(self) -> bytes:
        """The profile as ``.npz`` bytes."""
        header = {"format": _FORMAT, "version": PROFILE_VERSION, "name": self.name,
                  "deck": self.deck, "codes": list(self.codes)}
        buf = io.BytesIO()
        np.savez_compressed(
            buf, header=np.frombuffer(json.dumps(header).encode(), np.uint8),
            templates=self.templates.astype(np.float16), owner=self.owner, corners=self.corners,
            d_ratio=self.d_ratio, colours=self.colours, pip_ratio=self.pip_ratio,
            to_canon=self.to_canon, ink=self.ink, lone=self.lone,
        )
        return buf.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes, source: str = "the profile") -> DeckProfile:
        """Read a profile from ``.npz`` bytes; ProfileError when it is not one."""
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as npz:
                header = json.loads(npz["header"].tobytes().decode())
                arrays = {k: npz[k] for k in ("templates", "owner", "corners", "d_ratio",
                                              "colours", "pip_ratio", "to_canon", "ink")}
                # Profiles saved before lone-mark corners were learned have no such cards.
                lone = npz["lone"] if "lone" in npz.files else None
        except (OSError, ValueError, KeyError, zipfile.BadZipFile, UnicodeDecodeError) as exc:
            raise ProfileError(
                f"{source} is not a deck profile (make one with: scorekeeper deck calibrate)"
            ) from exc
        if not isinstance(header, dict) or header.get("format") != _FORMAT:
            raise ProfileError(f"{source} is not a deck profile")
        if header.get("version") != PROFILE_VERSION:
            raise ProfileError(
                f"{source} is a version {header.get('version')} profile; this program reads "
                f"version {PROFILE_VERSION}: calibrate the deck again"
            )
        codes = tuple(str(c) for c in header["codes"])
        for code in codes:
            Card.parse(code)
        n, t = len(codes), len(arrays["templates"])
        owner = arrays["owner"].astype(np.int32)
        if (arrays["templates"].shape[1:] != (PATCH_W * PATCH_H,) or owner.shape != (t,)
                or arrays["corners"].shape != (t, 4, 2) or arrays["colours"].shape != (n, 3)
                or arrays["to_canon"].shape != (t, 2, 3)
                or arrays["ink"].shape != (n, CANON_H, CANON_W)
                or (lone is not None and lone.shape != (n,))
                or (t and (owner.min() < 0 or owner.max() >= n))):
            raise ProfileError(f"{source} is a damaged deck profile: calibrate the deck again")
        return cls(
            name=str(header.get("name", "")), deck=str(header.get("deck", "toss")), codes=codes,
            templates=arrays["templates"].astype(np.float32), owner=owner,
            corners=arrays["corners"].astype(np.float32),
            d_ratio=arrays["d_ratio"].astype(np.float32),
            colours=arrays["colours"].astype(np.float32),
            pip_ratio=arrays["pip_ratio"].astype(np.float32),
            to_canon=arrays["to_canon"].astype(np.float32),
            ink=arrays["ink"].astype(np.uint8),
            lone=np.zeros(n, np.bool_) if lone is None else lone.astype(np.bool_),
        )


def empty_model(code: str, d_ratio: float | None = None, pip_ratio: float = 0.0) -> CardModel:
    """A card model with no templates (matches nothing); for tests and examples. With
    ``d_ratio``, one blank template with that rank-to-pip distance."""
    k = 0 if d_ratio is None else 1
    return CardModel(code, np.zeros((k, PATCH_W * PATCH_H), np.float32),
                     np.zeros((k, 4, 2), np.float32), np.full(k, d_ratio or 0.0, np.float32),
                     np.ones(3, np.float32), pip_ratio, np.zeros((k, 2, 3), np.float32),
                     np.zeros((CANON_H, CANON_W), np.uint8))


def save_profile(profile: DeckProfile, path: str | Path) -> None:
    """Write a profile file (``.npz``)."""
    Path(path).write_bytes(profile.to_bytes())


def load_profile(path: str | Path) -> DeckProfile:
    """Read a profile file written by ``save_profile`` or ``scorekeeper deck calibrate``."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ProfileError(f"cannot read the deck profile {path}: {exc.strerror or exc}") from exc
    return DeckProfile.from_bytes(data, str(path))
