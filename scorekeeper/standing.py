"""A game's standing as every game gives it through the one door (:meth:`Game.standing
<scorekeeper.game.Game.standing>`): whose board each player scores on, the boards counting
complete hands only, each complete hand's points, and whether the game is over and who won.
The club night reads a table's result from it (:mod:`scorekeeper.club.outcome`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Standing:
    """A game's standing: ``owners`` maps each player to the owner of their board (the player,
    or their team); ``boards`` is each board's score counting complete hands only (a hand
    under way does not count); ``hands`` each complete hand's points per board owner;
    ``lower_wins`` whether the lowest score wins."""

    owners: Mapping[str, str]
    boards: Mapping[str, int]
    hands: tuple[Mapping[str, int], ...]
    lower_wins: bool
    finished: bool
    winner: str | None
    hand_no: int
