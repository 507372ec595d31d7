"""The built-in profile: the reference Toss deck of ``reference.py``, learned from its drawings.

It is made on first use (a few seconds; ``scorekeeper serve`` makes it as it starts) and kept
in memory, and cached as a file in the user's cache directory (``$XDG_CACHE_HOME/scorekeeper``
or ``~/.cache/scorekeeper``) so later processes start fast. A damaged or outdated cache file is
simply remade.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

from scorekeeper.cards import deck_codes
from scorekeeper.vision.errors import ProfileError
from scorekeeper.vision.learn import learn_card
from scorekeeper.vision.profile import PROFILE_VERSION, DeckProfile
from scorekeeper.vision.reference import REFERENCE, DeckStyle, draw_card


def profile_from_drawings(style: DeckStyle, deck: str = "toss") -> DeckProfile:
    """Learn a deck straight from its drawings (no photos)."""
    models = []
    for code in deck_codes("toss" if deck == "toss" else "standard"):
        models.append(learn_card(code, draw_card(code, style).image))  # learn_card resizes
    return DeckProfile.from_models(f"{style.name} ({deck})", deck, models)


def _cache_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    source = Path(__file__).parent
    digest = hashlib.sha256()
    for name in ("reference.py", "learn.py", "features.py", "profile.py"):
        digest.update((source / name).read_bytes())
    name = f"reference-v{PROFILE_VERSION}-{digest.hexdigest()[:12]}.npz"
    return Path(base) / "scorekeeper" / name


@functools.cache
def reference_profile() -> DeckProfile:
    """The built-in profile of the reference Toss deck (cached in memory and on disk)."""
    path = _cache_path()
    try:
        return DeckProfile.from_bytes(path.read_bytes(), str(path))
    except (OSError, ProfileError):
        pass
    profile = profile_from_drawings(REFERENCE)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(profile.to_bytes())
        tmp.replace(path)
    except OSError:
        pass  # a read-only home only costs the second it takes to remake
    return profile
