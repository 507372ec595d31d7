"""What a table's log means for a club night: each player's score counting complete hands
only, whether the game has ended, the leader, and each player's best hand.

>>> from scorekeeper import tables
>>> setup = tables.setup_from_json({"players": ["ann", "bob", "cy"]})
>>> state = tables.replay(setup, [
...     {"type": "new-hand", "dealer": "cy"},
...     {"type": "end-hand", "went_out": "ann", "hands": {"ann": [], "bob": ["7cl"],
...                                                      "cy": ["Kcl", "Qhe"]}},
...     {"type": "new-hand", "dealer": "ann"}])
>>> result = outcome(state)
>>> result.scores, result.finished, result.leader, result.best_hand["bob"]
({'ann': 0.0, 'bob': -7.0, 'cy': -20.0}, False, 'ann', -7.0)
"""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.game import game_of
from scorekeeper.tables import State


@dataclass(frozen=True)
class TableOutcome:
    """What a table's log says for the night: each player's score (their board's), whether
    the game ended, the best hand each scored, and the hands played."""

    scores: dict[str, float]
    owners: dict[str, str]
    finished: bool
    lower_wins: bool
    best_hand: dict[str, float | None]
    hands: int
    leader: str | None
    hand_no: int = 0
    winner: str | None = None


def outcome(state: State) -> TableOutcome:
    """A table's standing, counting complete hands only (a hand under way does not count), as
    the table's game gives it (:meth:`scorekeeper.game.Game.standing`)."""
    standing = game_of(state.setup).standing(state)
    owners = dict(standing.owners)
    board = {o: float(score) for o, score in standing.boards.items()}
    deltas = standing.hands
    lower, finished = standing.lower_wins, standing.finished
    winner, hand_no = standing.winner, standing.hand_no
    best: dict[str, float | None] = {}
    for player, owner in owners.items():
        values = [float(d[owner]) for d in deltas if owner in d]
        best[player] = (min(values) if lower else max(values)) if values else None
    leader = winner
    if leader is None and any(board.values()):
        leader = sorted(board, key=lambda o: board[o] if lower else -board[o])[0]
    return TableOutcome({p: board[o] for p, o in owners.items()}, owners, finished, lower,
                        best, len(deltas), leader, hand_no, winner)
