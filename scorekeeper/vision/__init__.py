"""Card recognition from phone photos, for a deck learned from one photo per card.

The only part of ``scorekeeper`` that reads files (images and deck profiles). OpenCV is imported
only when a function here is first called, so the rest of the package never loads it.

For a web upload: ``recognize(request_bytes, profile)`` returns a ``Recognition`` whose
``to_json()`` is ``{"cards": [{"code", "confidence", "top", "corners"}], "warnings": [...]}``;
bad uploads raise ``NotAnImageError`` (``EmptyImageError``) or ``ImageTooLargeError``, all
``VisionError``/``ValueError``. A table's own deck is a ``DeckProfile``: ``load_profile(path)``
or ``DeckProfile.from_bytes(blob)``; learn it a card at a time with ``learn_photo(bytes, code)``
and ``profile.with_card(model)``, store it with ``profile.to_bytes()``.

>>> from scorekeeper.vision import NotAnImageError, recognize
>>> try:
...     recognize(b"not a photo")
... except NotAnImageError as exc:
...     print(exc)
the file is not an image that can be read (JPEG, PNG, WebP or BMP expected)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorekeeper.vision.errors import (
    BlurryImageError,
    CalibrationError,
    CardCodeError,
    EmptyImageError,
    ImageTooLargeError,
    NoCardFoundError,
    NoIndexFoundError,
    NotAnImageError,
    ProfileError,
    VisionError,
)

if TYPE_CHECKING:
    from scorekeeper.vision.calibration import Calibration
    from scorekeeper.vision.profile import DeckProfile
    from scorekeeper.vision.recognition import Recognition, RecognizedCard

__all__ = [
    "BlurryImageError",
    "Calibration",
    "CalibrationError",
    "CardCodeError",
    "DeckProfile",
    "EmptyImageError",
    "ImageTooLargeError",
    "NoCardFoundError",
    "NoIndexFoundError",
    "NotAnImageError",
    "ProfileError",
    "Recognition",
    "RecognizedCard",
    "VisionError",
    "builtin_profile",
    "calibrate",
    "calibrate_dir",
    "learn_photo",
    "load_profile",
    "recognize",
    "save_profile",
]


def recognize(
    image: bytes | bytearray | memoryview | str | Path, profile: DeckProfile | None = None
) -> Recognition:
    """Name the cards in a photo (JPEG/PNG bytes or a path), left to right as seen.

    ``profile`` is a learned deck (``load_profile``); None uses the built-in reference deck.
    Raises NotAnImageError (EmptyImageError) or ImageTooLargeError for bad images.
    """
    from scorekeeper.vision import recognition as module

    return module.recognize(image, profile)


def calibrate(
    folder: str | Path, deck: str = "toss", name: str | None = None, progress: Any = None
) -> Calibration:
    """Learn a deck from a folder holding one photo per card (file stem = card code)."""
    from scorekeeper.vision.calibration import calibrate_dir as run

    if deck not in ("toss", "standard"):
        raise VisionError(f"unknown deck kind {deck!r}: use toss or standard")
    return run(folder, deck, name, progress)  # type: ignore[arg-type]


calibrate_dir = calibrate


def learn_photo(image: bytes | str | Path, code: str, peers: Sequence[Any] = ()) -> Any:
    """Learn one card from its photo (returns a CardModel); for adding cards one at a time.
    ``peers``, the deck's cards learned so far, tell where its index lies when it is not
    found on its own (court art touching it)."""
    from scorekeeper.vision.calibration import learn_photo as run

    return run(image, code, peers)


def load_profile(path: str | Path) -> DeckProfile:
    """Read a deck profile file."""
    from scorekeeper.vision.profile import load_profile as run

    return run(path)


def save_profile(profile: DeckProfile, path: str | Path) -> None:
    """Write a deck profile file."""
    from scorekeeper.vision.profile import save_profile as run

    run(profile, path)


_LAZY = {
    "Calibration": "scorekeeper.vision.calibration",
    "DeckProfile": "scorekeeper.vision.profile",
    "Recognition": "scorekeeper.vision.recognition",
    "RecognizedCard": "scorekeeper.vision.recognition",
}


def __getattr__(name: str) -> Any:
    """The value types, imported (with OpenCV) on first use."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'scorekeeper.vision' has no attribute {name!r}")


def builtin_profile() -> DeckProfile:
    """The built-in profile of the project's reference Toss deck."""
    from scorekeeper.vision.builtin import reference_profile

    return reference_profile()
