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

from scorekeeper import engine
from scorekeeper.games.session import SessionState
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


class UnknownGameStateError(ValueError):
    """A state of neither the Toss engine nor a game entered hand by hand."""


def outcome(state: State) -> TableOutcome:
    """A table's standing, counting complete hands only (a hand under way does not count)."""
    if isinstance(state, SessionState):
        players = list(state.setup.players)
        owners = {p: p for p in players}
        board = {p: float(state.totals[p]) for p in players}
        deltas = [dict(h.deltas) for h in state.hands]
        lower, finished = state.setup.pack.lower_wins, state.game_over
        winner, hand_no = state.winner, state.hand_no
    elif isinstance(state, engine.GameState):
        setup = state.setup
        owners = dict(setup.owner_of)
        scores = state.hand_start if state.phase == engine.PLAYING else state.board_scores()
        board = {o: float(scores.get(o, 0)) for o in setup.board_owners}
        deltas = [dict(h["deltas"]) for h in state.hands]
        lower, finished = False, state.phase == engine.GAME_OVER
        winner, hand_no = state.winner, state.hand_no
    else:
        raise UnknownGameStateError(f"no club outcome for a {type(state).__name__}")
    best: dict[str, float | None] = {}
    for player, owner in owners.items():
        values = [float(d[owner]) for d in deltas if owner in d]
        best[player] = (min(values) if lower else max(values)) if values else None
    leader = winner
    if leader is None and any(board.values()):
        leader = sorted(board, key=lambda o: board[o] if lower else -board[o])[0]
    return TableOutcome({p: board[o] for p, o in owners.items()}, owners, finished, lower,
                        best, len(deltas), leader, hand_no, winner)


def game_over(state: object) -> bool:
    """Whether ``state`` is a game played to its end (cheap: checked after every write)."""
    if isinstance(state, SessionState):
        return bool(state.game_over)
    if isinstance(state, engine.GameState):
        return bool(state.phase == engine.GAME_OVER)
    return False
