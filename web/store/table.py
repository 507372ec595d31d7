"""One table in memory (its setup, tokens and the folded state of its log), and who a token
belongs to."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from scorekeeper import log
from scorekeeper.game import GameSetup, GameState
from scorekeeper.outline import StateOutline
from web.store.notes import HistoryNotes

ROLES = ("keeper", "player", "display")


@dataclass(frozen=True)
class Role:
    """Who a token belongs to: the keeper, a seated player, or a display."""

    kind: str
    player: str | None = None

    @property
    def name(self) -> str:
        return self.player if self.kind == "player" and self.player else self.kind


@dataclass(frozen=True)
class SeatClaim:
    """A tap on a seat: its token when given, else the pending request for a claimed seat."""

    player: str
    token: str | None = None
    request_id: int | None = None
    secret: str | None = None


@dataclass
class Table:
    """One table in memory: its setup, tokens and the folded state of its log.

    ``write_lock`` lets one write at a time change the table in this process; ``cond`` is what
    the live streams wait on, held only to publish a result.
    """

    id: str
    setup: GameSetup
    keeper_token: str
    display_token: str
    join_token: str
    join_expires_at: float
    auto_accept: bool
    seats: dict[str, str]
    claimed: set[str]
    state: GameState
    #: Seat tokens the keeper ended (freed or re-issued seat): token -> player, for the message.
    revoked: dict[str, str] = field(default_factory=dict)
    #: The log folded (the events in effect with their numbers), for amendments.
    fold: log.Fold | None = None
    seq: int = 0
    cond: threading.Condition = field(default_factory=threading.Condition)
    write_lock: threading.RLock = field(default_factory=threading.RLock)
    messages: OrderedDict[int, bytes] = field(default_factory=OrderedDict)
    meta_version: int = 0
    meta_cache: tuple[int, int, bytes] | None = None
    listeners: int = 0
    #: Each board's score after every event (the history chart and the CSV), kept as it goes.
    points: list[dict[str, Any]] = field(default_factory=list)
    #: Each event's history note (points, undo, amendments), kept as it goes like ``points``.
    notes: HistoryNotes = field(default_factory=lambda: HistoryNotes({}))
    #: Each board's score after every event in effect (the history chart), kept as events
    #: land; None after an undo or an amendment until it is folded again from ``fold``.
    timeline: list[dict[str, Any]] | None = None
    #: The kept state whose ``previous`` was cut off (an undo from it refolds the log).
    cut_state: Any = None
    #: Encoded replies kept for the current state (name -> (seq, bytes)), e.g. the history.
    replies: dict[str, tuple[int, bytes]] = field(default_factory=dict)
    board_status: dict[str, Any] = field(
        default_factory=lambda: {"status": "none", "detail": "no LED board reported", "at": None}
    )

    def state_json(self) -> StateOutline:
        return self.state.to_json()
