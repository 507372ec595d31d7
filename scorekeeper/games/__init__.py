"""The rules packs: one module per game behind one interface (:mod:`scorekeeper.games.base`).

>>> sorted(GAMES)[:3]
['carousel', 'indian-chief', 'rummy']
>>> get_game("Toss Hearts").title
'Toss Hearts'
"""

from __future__ import annotations

from typing import Final

from scorekeeper.games.base import (
    Field,
    GameError,
    HandEntryError,
    HandScore,
    RulesPack,
    UnknownGameError,
)
from scorekeeper.games.carousel import Carousel
from scorekeeper.games.indian_chief import IndianChief
from scorekeeper.games.rummy import Rummy
from scorekeeper.games.three_thirteen import ThreeThirteen
from scorekeeper.games.tong_its import TongIts
from scorekeeper.games.toss_colors import TossColors
from scorekeeper.games.toss_hearts import TossHearts
from scorekeeper.games.tossni import Tossni
from scorekeeper.options import Option, OptionError

#: Every rules pack by name. A new game is one module and one line here.
GAMES: Final[dict[str, RulesPack]] = {
    pack.name: pack
    for pack in (
        TossColors(), TossHearts(), Tossni(), TongIts(), IndianChief(), Carousel(),
        ThreeThirteen(), Rummy(),
    )
}


def get_game(name: str) -> RulesPack:
    """The rules pack of a game by name (case and spaces forgiven; ``tossní`` is ``tossni``)."""
    key = name.strip().lower().replace(" ", "-").replace("_", "-").replace("í", "i")
    pack = GAMES.get(key)
    if pack is None:
        raise UnknownGameError(f"unknown game {name!r}: use one of {', '.join(GAMES)}")
    return pack


__all__ = [
    "GAMES",
    "Field",
    "GameError",
    "OptionError",
    "HandEntryError",
    "HandScore",
    "Option",
    "RulesPack",
    "UnknownGameError",
    "get_game",
]
