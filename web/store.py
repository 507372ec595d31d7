"""Tables and their event logs: the SQLite file is the truth, the folded state is a cache.

Every table keeps its log of events (append-only, numbered 1, 2, 3...), its tokens, the
proposals players make and the hand confirmations. The one fold (``scorekeeper.log``, for
whichever game the table plays) folds the log into the game state; the store keeps that fold
in memory per table, refolds it from the log the first time a table is used after a start, and
wakes the live streams when a write lands.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from scorekeeper import log
from scorekeeper.errors import http_status
from scorekeeper.game import GameSetup, GameState, read_setup, setup_json
from scorekeeper.outline import StateOutline
from web import db

if TYPE_CHECKING:
    from flask import Flask

#: The store's name among the app's extensions.
EXTENSION: Final = "scorekeeper.store"
#: How many recent live-stream messages each table keeps ready to resend.
MESSAGE_CACHE = 2000
#: Earlier states kept in memory for undo (the chain through ``state.previous``); it is cut
#: back to UNDO_KEEP once it grows past UNDO_KEEP + UNDO_SLACK. An undo past the kept states
#: folds the log again (the log holds every state).
UNDO_KEEP = 64
UNDO_SLACK = 64
ROLES = ("keeper", "player", "display")


class StoreError(ValueError):
    """A request the store refuses; ``status`` is the HTTP status it maps to."""

    status = 400


class TableNotFoundError(StoreError):
    status = 404

    def __init__(self, table_id: str) -> None:
        super().__init__(
            f"no table {table_id!r}: check the link or create a table on the start page"
        )


class ProposalNotFoundError(StoreError):
    status = 404


class TokenError(StoreError):
    """A missing, wrong or expired token."""

    status = 403


class ForbiddenError(StoreError):
    """The token is right but its role may not do this."""

    status = 403


class RefusedError(StoreError):
    """The rules core refused the event: nothing is stored. ``status`` 422 for a rule,
    400 for a malformed event."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class StaleWriteError(Exception):
    """The write was based on an older sequence number than the table's. ``missed`` lists
    the events stored since ``base_seq`` (what another device just did)."""

    def __init__(self, seq: int, state: StateOutline, base_seq: int,
                 missed: list[dict[str, Any]] | None = None) -> None:
        super().__init__(
            f"nothing was stored: this action was based on update {base_seq} but the table is "
            f"at update {seq} (another device wrote meanwhile): see what it did before "
            "entering anything"
        )
        self.seq = seq
        self.state = state
        self.missed = missed or []


class RepeatedActionError(Exception):
    """A write whose action id is already stored: the first answer is given again and
    nothing new is stored (a double tap, or a page that retried)."""

    def __init__(self, action_id: str, seq: int, event: dict[str, Any], table_seq: int,
                 state: StateOutline) -> None:
        super().__init__(f"action {action_id} was already stored as update {seq}")
        self.action_id, self.seq, self.event = action_id, seq, event
        self.table_seq, self.state = table_seq, state


#: A page's action id: 8 to 64 letters, digits, ``-`` or ``_`` (a random id per tap).
ACTION_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def check_action_id(action_id: Any) -> str | None:
    """The write's action id, None when absent, or a clear :class:`StoreError`."""
    if action_id is None:
        return None
    if (not isinstance(action_id, str) or not 8 <= len(action_id) <= 64
            or not set(action_id) <= ACTION_ID_CHARS):
        raise StoreError('"action_id" must be 8 to 64 letters, digits, "-" or "_" (a random id '
                         "the page makes once per action, sent again on a retry)")
    return action_id


class SeatRequestNotFoundError(StoreError):
    status = 404


class SeatRequestsFullError(StoreError):
    """Too many phones wait for the keeper's answer: nothing is stored."""

    status = 429


#: Requests for taken seats that may wait for the keeper's answer at once, per table.
MAX_SEAT_REQUESTS = 6


@dataclass(frozen=True)
class SeatClaim:
    """A tap on a seat: its token when given, else the pending request for a claimed seat."""

    player: str
    token: str | None = None
    request_id: int | None = None
    secret: str | None = None


@dataclass(frozen=True)
class Role:
    """Who a token belongs to: the keeper, a seated player, or a display."""

    kind: str
    player: str | None = None

    @property
    def name(self) -> str:
        return self.player if self.kind == "player" and self.player else self.kind


@dataclass
class Table:
    """One table in memory: its setup, tokens and the folded state of its log."""

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
    #: The kept state whose ``previous`` was cut off (an undo from it refolds the log).
    cut_state: Any = None
    #: Encoded replies kept for the current state (name -> (seq, bytes)), e.g. the history.
    replies: dict[str, tuple[int, bytes]] = field(default_factory=dict)
    board_status: dict[str, Any] = field(
        default_factory=lambda: {"status": "none", "detail": "no LED board reported", "at": None}
    )

    def state_json(self) -> StateOutline:
        return self.state.to_json()


def refusal(exc: Exception) -> RefusedError:
    """A refusal of the rules core as the store's error, its status by the error's class: 422
    for a rule refusing the play, 400 for malformed input."""
    return RefusedError(str(exc), http_status(exc))


def score_point(seq: int, state: GameState, state_json: Mapping[str, Any]) -> dict[str, Any]:
    """Each board's score after event ``seq``."""
    return {"seq": seq, "hand_no": state_json.get("hand_no"),
            "scores": {b.owner: b.score for b in state.boards()}}


def trim_undo_chain(state: object) -> Any:
    """Cut the chain of earlier states (or folds) after UNDO_KEEP of them once it is longer than
    UNDO_KEEP + UNDO_SLACK; returns the state whose ``previous`` was cut, or None."""
    node: Any = state
    for _ in range(UNDO_KEEP):
        node = getattr(node, "previous", None)
        if node is None:
            return None
    deeper: Any = node
    for _ in range(UNDO_SLACK):
        deeper = getattr(deeper, "previous", None)
        if deeper is None:
            return None
    # the states are frozen for their readers; the store owns this chain and frees its tail
    object.__setattr__(node, "previous", None)
    return node


def new_token() -> str:
    return secrets.token_urlsafe(18)


def sse_message(kind: str, seq: int, payload: Mapping[str, Any]) -> bytes:
    """One Server-Sent Events message, ``id`` = the table's sequence number."""
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    try:
        return f"id: {seq}\nevent: {kind}\ndata: {data}\n\n".encode()
    except UnicodeEncodeError:  # text stored before the edge refused broken characters
        data = json.dumps(payload, ensure_ascii=True, separators=(",", ":"))
        return f"id: {seq}\nevent: {kind}\ndata: {data}\n\n".encode()


class Store:
    """The tables of one database file, shared by every request thread."""

    def __init__(self, path: str | Path, synchronous: str = "FULL", join_ttl: float = 12 * 3600):
        self.path = str(path)
        self.join_ttl = join_ttl
        self._conn = db.connect(self.path, synchronous)
        self._db_lock = threading.RLock()
        self._tables: dict[str, Table] = {}
        self._tables_lock = threading.Lock()
        self.closed = threading.Event()
        self.listeners = 0
        #: Bumped to make every open stream write at once (a page that has gone is found).
        self.probes = 0
        self._last_probe = 0.0
        with self._db_lock:
            db.migrate(self._conn)

    # -- the Flask extension ----------------------------------------------------------

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Store:
        """The store of an app's config: ``DATABASE``, ``SYNCHRONOUS``, ``JOIN_TOKEN_TTL``."""
        return cls(config["DATABASE"], config["SYNCHRONOUS"], config["JOIN_TOKEN_TTL"])

    def init_app(self, app: Flask) -> Store:
        """Make this the app's store (``get_store()`` in a request); returns the store."""
        app.extensions[EXTENSION] = self
        return self

    # -- database helpers -------------------------------------------------------------

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._db_lock:
            return self._conn.execute(sql, args).fetchall()

    def _write(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        with self._db_lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    self._conn.execute(sql, args)
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise

    def add_listener(self, table: Table, delta: int) -> None:
        """Count the open live streams, per table and in all."""
        with self._tables_lock:
            table.listeners += delta
            self.listeners += delta

    def probe_streams(self, every: float = 1.0) -> None:
        """Make every open stream write now (at most once per ``every`` seconds): a page that
        has gone away is found at once and its slot freed, not at the next heartbeat."""
        now = time.monotonic()
        with self._tables_lock:
            if now - self._last_probe < every:
                return
            self._last_probe = now
            self.probes += 1
        for table in list(self._tables.values()):
            with table.cond:
                table.cond.notify_all()

    def stop_streams(self) -> None:
        """End every live stream (the server is stopping)."""
        self.closed.set()
        for table in list(self._tables.values()):
            with table.cond:
                table.cond.notify_all()

    def close(self) -> None:
        self.stop_streams()
        with self._db_lock:
            self._conn.close()

    # -- tables ------------------------------------------------------------------------

    def create_table(self, setup: GameSetup, *, auto_accept: bool = False) -> Table:
        """Store a new table with fresh tokens; returns it."""
        log.start(setup)  # the game validates the setup
        table_id = secrets.token_hex(4)
        now = time.time()
        seats = {player: new_token() for player in setup.players}
        keeper, display, join = new_token(), new_token(), new_token()
        statements: list[tuple[str, tuple[Any, ...]]] = [(
            "INSERT INTO tables (id, created_at, setup_json, keeper_token, display_token,"
            " join_token, join_expires_at, auto_accept) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (table_id, now, json.dumps(setup_json(setup)), keeper, display, join,
             now + self.join_ttl, int(auto_accept)),
        )]
        for position, (player, token) in enumerate(seats.items()):
            statements.append((
                "INSERT INTO seats (table_id, position, player, token) VALUES (?, ?, ?, ?)",
                (table_id, position, player, token),
            ))
        self._write(statements)
        return self.table(table_id)

    def table(self, table_id: str) -> Table:
        """The table, folded from its log the first time it is asked for."""
        table = self._tables.get(table_id)
        if table is not None:
            return table
        with self._tables_lock:
            table = self._tables.get(table_id)
            if table is None:
                table = self._load(table_id)
                self._tables[table_id] = table
            return table

    def table_ids(self) -> list[str]:
        return [row["id"] for row in self._query("SELECT id FROM tables ORDER BY created_at DESC")]

    def _load(self, table_id: str) -> Table:
        rows = self._query("SELECT * FROM tables WHERE id = ?", (table_id,))
        if not rows:
            raise TableNotFoundError(table_id)
        row = rows[0]
        setup = read_setup(json.loads(row["setup_json"]))
        seats = self._query(
            "SELECT player, token, claimed_at FROM seats WHERE table_id = ? ORDER BY position",
            (table_id,),
        )
        table = Table(
            id=table_id, setup=setup, keeper_token=row["keeper_token"],
            display_token=row["display_token"], join_token=row["join_token"],
            join_expires_at=row["join_expires_at"], auto_accept=bool(row["auto_accept"]),
            seats={s["player"]: s["token"] for s in seats},
            claimed={s["player"] for s in seats if s["claimed_at"] is not None},
            state=log.start(setup),
        )
        self._refold(table)
        return table

    def _refold(self, table: Table) -> None:
        """Fold the whole log again (on load, or when another process wrote)."""
        fold, seq = log.begin(table.setup), 0
        table.messages.clear()
        first = fold.state.to_json()
        table.messages[0] = sse_message("state", 0, {"seq": 0, "state": first, "event": None})
        table.points = [score_point(0, fold.state, first)]
        for seq, event in self._logged_events(table.id):
            fold = log.step(fold, event, seq)
            self._remember(table, seq, fold.state, event)
        table.fold, table.state, table.seq = fold, fold.state, seq
        table.cut_state = trim_undo_chain(fold.state)
        trim_undo_chain(fold)

    def _fold_of(self, table: Table) -> log.Fold:
        if table.fold is None:
            self._refold(table)
        assert table.fold is not None
        return table.fold

    def _full_fold(self, table: Table) -> log.Fold:
        """The table's log folded again, with every earlier fold for undo."""
        fold = log.begin(table.setup)
        for seq, event in self._logged_events(table.id):
            fold = log.step(fold, event, seq)
        return fold

    def _step(self, table: Table, event: dict[str, Any]) -> log.Fold:
        """The fold after ``event`` (an undo past the kept folds folds the log again)."""
        fold = self._fold_of(table)
        if event.get("type") == log.UNDO and fold.previous is None:
            fold = self._full_fold(table)
        return log.step(fold, event, table.seq + 1)

    def _logged_events(self, table_id: str, since: int = 0) -> Iterator[tuple[int, dict[str, Any]]]:
        rows = self._query(
            "SELECT seq, event_json FROM events WHERE table_id = ? AND seq > ? ORDER BY seq",
            (table_id, since),
        )
        for row in rows:
            yield row["seq"], json.loads(row["event_json"])

    def _folded(self, table: Table) -> Iterator[tuple[int, dict[str, Any], GameState]]:
        """Each logged event with its number and the state after it, by the one fold."""
        fold = log.begin(table.setup)
        for seq, event in self._logged_events(table.id):
            fold = log.step(fold, event, seq)
            yield seq, event, fold.state

    def _remember(self, table: Table, seq: int, state: GameState | dict[str, Any],
                  event: Any) -> None:
        state_json = state if isinstance(state, dict) else state.to_json()
        table.messages[seq] = sse_message(
            "state", seq, {"seq": seq, "state": state_json, "event": event}
        )
        if not isinstance(state, dict):
            table.points.append(score_point(seq, state, state_json))
        while len(table.messages) > MESSAGE_CACHE:
            table.messages.popitem(last=False)

    # -- tokens and roles -------------------------------------------------------------

    def role(self, table: Table, token: str | None) -> Role:
        """The role of a token at this table, or :class:`TokenError`."""
        if not token:
            raise TokenError(
                "this table needs a token: open the join link (scan the QR code) or send "
                "Authorization: Bearer TOKEN"
            )
        if not isinstance(token, str) or not token.isascii():
            raise TokenError("this token is not one this app makes (tokens are plain ASCII): "
                             "scan the table's QR code again")
        if secrets.compare_digest(token, table.keeper_token):
            return Role("keeper")
        if secrets.compare_digest(token, table.display_token):
            return Role("display")
        for player, seat_token in table.seats.items():
            if secrets.compare_digest(token, seat_token):
                return Role("player", player)
        if token in table.revoked:
            raise TokenError(
                f"the keeper freed or handed on {table.revoked[token]}'s seat, so this link no "
                "longer works: scan the table's QR code and ask the keeper for the seat again"
            )
        raise TokenError("this token does not belong to this table: scan the table's QR code again")

    def check_join_token(self, table: Table, join_token: str | None) -> None:
        if (not isinstance(join_token, str) or not join_token or not join_token.isascii()
                or not secrets.compare_digest(join_token, table.join_token)):
            raise TokenError(
                "this join link is wrong or has been replaced: "
                "ask the keeper to show the QR code again"
            )
        if time.time() > table.join_expires_at:
            raise TokenError(
                "this join link has expired: ask the keeper to make a new one (Rotate join code)"
            )

    def claim_seat(self, table: Table, join_token: str | None, player: str) -> SeatClaim:
        """Give a free seat's token to whoever holds the join token. A seat someone already
        claimed is not handed out: the claim becomes a request the keeper approves or refuses
        (its ``secret`` lets this phone, and only it, collect the seat once approved)."""
        self.check_join_token(table, join_token)
        self._check_seat(table, player)
        with table.cond:
            if player not in table.claimed:
                self._write([(
                    "UPDATE seats SET claimed_at = ? WHERE table_id = ? AND player = ?",
                    (time.time(), table.id, player),
                )])
                table.claimed.add(player)
                self._meta_changed(table)
                return SeatClaim(player, token=table.seats[player])
            waiting = self._query("SELECT count(*) AS n FROM seat_requests WHERE table_id = ?"
                                  " AND status = 'pending'", (table.id,))[0]["n"]
            if waiting >= MAX_SEAT_REQUESTS:
                raise SeatRequestsFullError(
                    f"{waiting} phones are already waiting for a seat: ask the keeper to answer "
                    "them on the keeper page first")
            secret = new_token()
            with self._db_lock:
                cur = self._conn.execute(
                    "INSERT INTO seat_requests (table_id, player, secret, created_at)"
                    " VALUES (?, ?, ?, ?)", (table.id, player, secret, time.time()))
            self._meta_changed(table)
            return SeatClaim(player, request_id=int(cur.lastrowid or 0), secret=secret)

    @staticmethod
    def _check_seat(table: Table, player: str) -> None:
        if player not in table.seats:
            raise StoreError(
                f"there is no seat {player!r} at this table: pick one of {', '.join(table.seats)}"
            )

    def _seat_request(self, table: Table, request_id: int) -> sqlite3.Row:
        rows = self._query("SELECT * FROM seat_requests WHERE table_id = ? AND id = ?",
                           (table.id, request_id))
        if not rows:
            raise SeatRequestNotFoundError(
                f"there is no request {request_id} for a seat at this table: tap your name "
                "on the join page again")
        return rows[0]

    def collect_seat(self, table: Table, request_id: int, secret: Any) -> SeatClaim:
        """What became of a request for a claimed seat, asked by the phone that made it: the
        seat's token once the keeper approved (``token`` None while it waits)."""
        row = self._seat_request(table, request_id)
        if not isinstance(secret, str) or not secrets.compare_digest(secret, row["secret"]):
            raise TokenError("this request for a seat was made by another phone")
        status, player = row["status"], row["player"]
        if status == "pending":
            return SeatClaim(player, request_id=request_id)
        if status == "approved" and table.seats.get(player) == row["token"]:
            return SeatClaim(player, token=row["token"], request_id=request_id)
        why = {"refused": "the keeper refused it", "approved": "the seat was handed on since",
               "cancelled": "the keeper freed the seat meanwhile"}.get(status, status)
        raise TokenError(f"your request for {player}'s seat is over ({why}): tap your name "
                         "again, or ask the keeper")

    def resolve_seat_request(self, table: Table, request_id: int, approve: bool) -> str:
        """The keeper approves a request (the seat gets a new token, given to the requesting
        phone; the seat's old token ends) or refuses it; returns the new status."""
        with table.cond:
            row = self._seat_request(table, request_id)
            if row["status"] != "pending":
                raise StoreError(f"request {request_id} for {row['player']}'s seat is already "
                                 f"{row['status']}")
            if not approve:
                self._write([("UPDATE seat_requests SET status = 'refused' WHERE id = ?",
                              (request_id,))])
                self._meta_changed(table)
                return "refused"
            token = new_token()
            self._reissue(table, row["player"], token, claimed=True, extra=[
                ("UPDATE seat_requests SET status = 'refused' WHERE table_id = ? AND player = ?"
                 " AND status = 'pending' AND id != ?", (table.id, row["player"], request_id)),
                ("UPDATE seat_requests SET status = 'approved', token = ? WHERE id = ?",
                 (token, request_id)),
            ])
            return "approved"

    def free_seat(self, table: Table, player: str) -> None:
        """The keeper frees a seat: its token ends, and the next phone to tap it takes it."""
        self._check_seat(table, player)
        with table.cond:
            self._reissue(table, player, new_token(), claimed=False, extra=[
                ("UPDATE seat_requests SET status = 'cancelled' WHERE table_id = ? AND player = ?"
                 " AND status = 'pending'", (table.id, player)),
            ])

    def _reissue(self, table: Table, player: str, token: str, *, claimed: bool,
                 extra: list[tuple[str, tuple[Any, ...]]]) -> None:
        """Give the seat a new token (the old one ends), in one transaction with ``extra``."""
        old = table.seats[player]
        self._write([(
            "UPDATE seats SET token = ?, claimed_at = ? WHERE table_id = ? AND player = ?",
            (token, time.time() if claimed else None, table.id, player),
        ), *extra])
        table.seats[player] = token
        table.revoked[old] = player
        if claimed:
            table.claimed.add(player)
        else:
            table.claimed.discard(player)
        self._meta_changed(table)

    def seat_token_valid(self, table: Table, role: Role, token: str | None) -> bool:
        """Whether a player's token is still their seat's (a freed seat's stream ends)."""
        return role.kind != "player" or table.seats.get(role.player or "") == token

    def rotate_join_token(self, table: Table) -> str:
        """A new join token (the old QR code stops working), valid for ``join_ttl`` seconds."""
        with table.cond:
            token, expires = new_token(), time.time() + self.join_ttl
            self._write([(
                "UPDATE tables SET join_token = ?, join_expires_at = ? WHERE id = ?",
                (token, expires, table.id),
            )])
            table.join_token, table.join_expires_at = token, expires
        return token

    def set_auto_accept(self, table: Table, value: bool) -> None:
        with table.cond:
            self._write([
                ("UPDATE tables SET auto_accept = ? WHERE id = ?", (int(value), table.id))
            ])
            table.auto_accept = value
            self._meta_changed(table)

    # -- events -------------------------------------------------------------------------

    @staticmethod
    def _checked_event(event: Any) -> dict[str, Any]:
        if not isinstance(event, dict):
            raise RefusedError('"event" must be a JSON object like {"type": "next-turn"}', 400)
        if not isinstance(event.get("type"), str):
            raise RefusedError('the event needs a "type", e.g. "meld", "toss" or "undo"', 400)
        return dict(event)

    def dry_run(self, table: Table, event: Any) -> GameState:
        """The state the event would give, without storing it (a refusal raises)."""
        event = self._checked_event(event)
        try:
            return self._step(table, event).state
        except ValueError as exc:
            raise refusal(exc) from exc

    def preview_amendment(self, table: Table, event: Any) -> dict[str, Any]:
        """What an ``amend`` event would do, without storing it: each board's score before and
        after, the change, the hands rescored, and the later events that no longer hold (which
        the amendment must then name in ``"remove"``)."""
        event = self._checked_event(event)
        fold = self._fold_of(table)
        try:
            amendment = log.read_amendment(log.read_event(event, (log.AMEND,)), table.setup)
            plan = log.plan(fold, amendment)
        except ValueError as exc:
            raise refusal(exc) from exc
        before = {b.owner: b.score for b in fold.state.boards()}
        after = {b.owner: b.score for b in plan.state.boards()}
        original = next(e.event for e in fold.entries if e.seq == amendment.target)
        return {
            "target": amendment.target, "original": original, "event": amendment.event,
            "reason": amendment.reason, "before": before, "after": after,
            "change": {o: after[o] - before.get(o, 0) for o in after},
            "hands": log.changed_hands(fold.state, plan.state),
            "broken": [b.to_json() for b in plan.broken],
            "state": plan.state.to_json(),
        }

    def append(
        self, table: Table, base_seq: int, event: Any, by: str, action_id: str | None = None
    ) -> tuple[int, StateOutline]:
        """Check the event with the rules core and append it to the log.

        Returns ``(seq, state)`` once the row is committed. Raises :class:`StaleWriteError`
        when ``base_seq`` is not the table's current sequence number and :class:`RefusedError`
        when the rules refuse it; either way nothing is stored. An ``action_id`` already in the
        log raises :class:`RepeatedActionError` (checked first: a retry is never stale).
        """
        seq, state_json, _ = self.append_encoded(table, base_seq, event, by, action_id)
        return seq, state_json

    def append_encoded(
        self, table: Table, base_seq: int, event: Any, by: str, action_id: str | None = None
    ) -> tuple[int, StateOutline, str]:
        """:meth:`append`, also returning the new state already encoded as JSON text."""
        event = self._checked_event(event)
        event["by"] = by
        action_id = check_action_id(action_id)
        # Writes to one table go one at a time (write_lock); the condition that the live
        # streams wait on is held only to publish the result, never during the disk write.
        with table.write_lock:
            if action_id is not None:
                self.check_repeat(table, action_id)
            if base_seq != table.seq:
                raise self._stale(table, base_seq)
            try:
                fold = self._step(table, event)
            except ValueError as exc:
                raise refusal(exc) from exc
            state, seq = fold.state, table.seq + 1
            rescored: list[int] = []
            if event["type"] == log.AMEND:
                rescored = log.changed_hands(table.state, state)
                event["rescored_hands"] = rescored
            state_json = state.to_json()
            state_text = json.dumps(state_json, ensure_ascii=False, separators=(",", ":"))
            event_text = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
            message = (f"id: {seq}\nevent: state\ndata: "
                       f'{{"seq":{seq},"state":{state_text},"event":{event_text}}}\n\n').encode()
            with self._db_lock:
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    row = self._conn.execute(
                        "SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = ?", (table.id,)
                    ).fetchone()
                    if row[0] != table.seq:  # another process wrote to this table
                        self._conn.execute("ROLLBACK")
                        with table.cond:
                            self._refold(table)
                            table.cond.notify_all()
                        raise self._stale(table, base_seq)
                    self._conn.execute(
                        "INSERT INTO events (table_id, seq, event_json, by, at, action_id)"
                        " VALUES (?, ?, ?, ?, ?, ?)",
                        (table.id, seq, event_text, by, time.time(), action_id),
                    )
                    for hand_no in rescored:  # the players confirm a rescored hand again
                        self._conn.execute(
                            "DELETE FROM confirmations WHERE table_id = ? AND hand_no = ?",
                            (table.id, hand_no))
                    self._conn.execute("COMMIT")
                except sqlite3.Error:
                    self._conn.execute("ROLLBACK")
                    raise
            point = score_point(seq, state, state_json)
            cut = trim_undo_chain(state)
            trim_undo_chain(fold)
            with table.cond:
                table.fold, table.state, table.seq = fold, state, seq
                table.points.append(point)
                if cut is not None:
                    table.cut_state = cut
                if rescored:
                    table.meta_version += 1
                table.messages[seq] = message
                while len(table.messages) > MESSAGE_CACHE:
                    table.messages.popitem(last=False)
                table.cond.notify_all()
            return seq, state_json, state_text

    def check_repeat(self, table: Table, action_id: Any) -> None:
        """Raise :class:`RepeatedActionError` when ``action_id`` is already in the log."""
        if check_action_id(action_id) is None:
            return
        rows = self._query(
            "SELECT seq, event_json FROM events WHERE table_id = ? AND action_id = ?",
            (table.id, action_id),
        )
        if rows:
            raise RepeatedActionError(action_id, rows[0]["seq"], json.loads(rows[0]["event_json"]),
                                      table.seq, table.state_json())

    def _stale(self, table: Table, base_seq: int) -> StaleWriteError:
        """The refusal of a write based on ``base_seq``, with the events it missed."""
        missed = self.events(table, base_seq)[-20:] if 0 <= base_seq < table.seq else []
        return StaleWriteError(table.seq, table.state_json(), base_seq, missed)

    def events(self, table: Table, since: int = 0) -> list[dict[str, Any]]:
        """The log with who entered each event and when."""
        rows = self._query(
            "SELECT seq, event_json, by, at FROM events"
            " WHERE table_id = ? AND seq > ? ORDER BY seq",
            (table.id, since),
        )
        return [
            {"seq": r["seq"], "by": r["by"], "at": r["at"], "event": json.loads(r["event_json"])}
            for r in rows
        ]

    def messages_after(self, table: Table, last_seq: int) -> list[tuple[int, bytes]]:
        """Live-stream messages ``(seq, bytes)`` for each event after ``last_seq``, in order."""
        with table.cond:
            current = table.seq
            if last_seq >= current:
                return []
            if last_seq + 1 in table.messages:
                return [(s, table.messages[s]) for s in range(last_seq + 1, current + 1)]
        # Older than the cache: fold the log again up to now.
        out: list[tuple[int, bytes]] = []
        for seq, event, state in self._folded(table):
            if last_seq < seq <= current:
                out.append((seq, sse_message(
                    "state", seq, {"seq": seq, "state": state.to_json(), "event": event})))
        return out

    def snapshot_message(self, table: Table) -> tuple[int, bytes]:
        """The current state as one live-stream message (``event`` null)."""
        with table.cond:
            return table.seq, sse_message(
                "state", table.seq, {"seq": table.seq, "state": table.state_json(), "event": None}
            )

    def meta_message(self, table: Table, seq: int | None = None) -> tuple[int, bytes]:
        """The table's side information (seats, proposals...) as one ``table`` message.

        Its id is ``seq``, the last state the stream has sent (by default the table's): a page
        that reconnects after it resumes from that state, never past one it has not seen.
        """
        with table.cond:
            version = table.meta_version
            seq = table.seq if seq is None else seq
            cached = table.meta_cache
        if cached is not None and cached[0] == version and cached[1] == seq:
            return version, cached[2]
        message = sse_message("table", seq, {"seq": seq, "table": self.meta(table)})
        table.meta_cache = (version, seq, message)
        return version, message

    def states_over_time(self, table: Table) -> list[dict[str, Any]]:
        """Each board's score after every event (for the history chart and the CSV), from
        the points kept as the log grew: a reader never folds the log again."""
        with table.cond:
            return list(table.points)

    def timeline(self, table: Table) -> list[dict[str, Any]]:
        """Each board's score after every event in effect, amended events as amended (the
        history chart: the game as it now stands, without undone or removed events)."""
        return [{"seq": seq, "hand_no": state.to_json().get("hand_no"),
                 "scores": {b.owner: b.score for b in state.boards()}}
                for seq, state in log.timeline(self._fold_of(table))]

    # -- proposals, confirmations, board status ------------------------------------------

    def _meta_changed(self, table: Table) -> None:
        with table.cond:
            table.meta_version += 1
            table.cond.notify_all()

    def repeated_proposal(self, table: Table, action_id: str | None) -> dict[str, Any] | None:
        """The proposal already stored under this action id (a double tap), or None."""
        if check_action_id(action_id) is None:
            return None
        rows = self._query("SELECT * FROM proposals WHERE table_id = ? AND action_id = ?",
                           (table.id, action_id))
        return self._proposal_json(rows[0]) if rows else None

    def propose(self, table: Table, player: str, kind: str, payload: Any,
                action_id: str | None = None) -> int:
        """Store a player's proposal (an event, or the cards left in hand) for the keeper."""
        action_id = check_action_id(action_id)
        with table.cond:
            cur = None
            with self._db_lock:
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    if kind == "hand":
                        self._conn.execute(
                            "UPDATE proposals SET status = 'replaced' WHERE table_id = ? AND "
                            "player = ? AND kind = 'hand' AND status = 'pending'",
                            (table.id, player),
                        )
                    cur = self._conn.execute(
                        "INSERT INTO proposals (table_id, player, kind, payload_json, created_at,"
                        " action_id) VALUES (?, ?, ?, ?, ?, ?)",
                        (table.id, player, kind, json.dumps(payload), time.time(), action_id),
                    )
                    self._conn.execute("COMMIT")
                except BaseException:
                    self._conn.execute("ROLLBACK")
                    raise
            self._meta_changed(table)
            return int(cur.lastrowid or 0)

    def proposal(self, table: Table, proposal_id: int) -> dict[str, Any]:
        if not 0 < proposal_id < 2**63:  # SQLite's integers are 64-bit
            raise ProposalNotFoundError(f"there is no proposal {proposal_id} at this table")
        rows = self._query(
            "SELECT * FROM proposals WHERE table_id = ? AND id = ?", (table.id, proposal_id)
        )
        if not rows:
            raise ProposalNotFoundError(f"there is no proposal {proposal_id} at this table")
        return self._proposal_json(rows[0])

    @staticmethod
    def _proposal_json(row: sqlite3.Row) -> dict[str, Any]:
        return {"id": row["id"], "player": row["player"], "kind": row["kind"],
                "payload": json.loads(row["payload_json"]), "status": row["status"],
                "created_at": row["created_at"], "resolved_seq": row["resolved_seq"]}

    def resolve_proposal(self, table: Table, proposal_id: int, status: str,
                         seq: int | None = None) -> None:
        with table.cond:
            self._write([(
                "UPDATE proposals SET status = ?, resolved_seq = ? WHERE table_id = ? AND id = ?",
                (status, seq, table.id, proposal_id),
            )])
            self._meta_changed(table)

    def confirm_hand(self, table: Table, player: str, hand_no: int) -> None:
        with table.cond:
            self._write([(
                "INSERT OR IGNORE INTO confirmations (table_id, hand_no, player, at)"
                " VALUES (?, ?, ?, ?)",
                (table.id, hand_no, player, time.time()),
            )])
            self._meta_changed(table)

    def set_board_status(self, table: Table, status: str, detail: str) -> None:
        with table.cond:
            table.board_status = {"status": status, "detail": detail, "at": time.time()}
            self._meta_changed(table)

    def meta(self, table: Table) -> dict[str, Any]:
        """What the pages show beside the game state: seats, proposals, confirmations, board."""
        pending = self._query(
            "SELECT * FROM proposals WHERE table_id = ? AND status = 'pending' ORDER BY id",
            (table.id,),
        )
        confirmed: dict[str, list[str]] = {}
        for row in self._query(
            "SELECT hand_no, player FROM confirmations WHERE table_id = ? ORDER BY at", (table.id,)
        ):
            confirmed.setdefault(str(row["hand_no"]), []).append(row["player"])
        requests = self._query(
            "SELECT id, player, created_at FROM seat_requests WHERE table_id = ? AND"
            " status = 'pending' ORDER BY id", (table.id,))
        return {
            "seats": [{"player": p, "claimed": p in table.claimed} for p in table.seats],
            "seat_requests": [{"id": r["id"], "player": r["player"], "at": r["created_at"]}
                              for r in requests],
            "auto_accept": table.auto_accept,
            "proposals": [self._proposal_json(r) for r in pending],
            "confirmations": confirmed,
            "board_status": table.board_status,
            "join_expires_at": table.join_expires_at,
            "amendments": self.amendment_notices(table),
        }

    def amendment_notices(self, table: Table, latest: int = 5) -> list[dict[str, Any]]:
        """The latest amendments in effect, for the notice on the players' phones: which
        update they amend, who, when, why, and the hands they rescored."""
        numbers = self._fold_of(table).amendments[-latest:]
        if not numbers:
            return []
        rows = self._query(
            f"SELECT seq, event_json, by, at FROM events WHERE table_id = ? AND seq IN"
            f" ({', '.join('?' * len(numbers))}) ORDER BY seq", (table.id, *numbers))
        notices = []
        for row in rows:
            event = json.loads(row["event_json"])
            notices.append({"seq": row["seq"], "target": event.get("target"), "by": row["by"],
                            "at": row["at"], "reason": event.get("reason"),
                            "hands": event.get("rescored_hands", []),
                            "removed": event.get("remove", [])})
        return notices

    # -- learned deck profiles (web/photos.py) -----------------------------------------

    def deck_head(self, table: Table) -> sqlite3.Row | None:
        """The table's deck profile row (``name``, ``deck``, ``updated_at``), or None."""
        rows = self._query(
            "SELECT name, deck, updated_at FROM deck_profiles WHERE table_id = ?", (table.id,))
        return rows[0] if rows else None

    def learned_codes(self, table: Table) -> set[str]:
        return {r["code"] for r in self._query(
            "SELECT code FROM deck_cards WHERE table_id = ?", (table.id,))}

    def learned_models(self, table: Table) -> dict[str, bytes]:
        """Each learned card's model, by code."""
        return {r["code"]: bytes(r["model"]) for r in self._query(
            "SELECT code, model FROM deck_cards WHERE table_id = ?", (table.id,))}

    def learned_stamp(self, table: Table) -> tuple[int, float] | None:
        """How many cards the table has learned and when the last was, or None for none."""
        row = self._query(
            "SELECT count(*) AS n, max(learned_at) AS at FROM deck_cards WHERE table_id = ?",
            (table.id,))[0]
        return (int(row["n"]), float(row["at"])) if row["n"] else None

    def save_learned_card(self, table: Table, code: str, model: bytes, source: str, deck: str,
                          name: str | None) -> None:
        now = time.time()
        self._write([
            ("INSERT INTO deck_profiles (table_id, name, deck, updated_at) VALUES (?, ?, ?, ?)"
             " ON CONFLICT (table_id) DO UPDATE SET updated_at = excluded.updated_at,"
             " name = COALESCE(?, name)",
             (table.id, name or f"table {table.id}", deck, now, name)),
            ("INSERT OR REPLACE INTO deck_cards (table_id, code, model, source, learned_at)"
             " VALUES (?, ?, ?, ?, ?)", (table.id, code, model, source[:200], now)),
        ])

    def forget_learned(self, table: Table, code: str | None = None) -> None:
        """Forget one learned card, or the table's whole deck profile."""
        if code is None:
            self._write([("DELETE FROM deck_cards WHERE table_id = ?", (table.id,)),
                         ("DELETE FROM deck_profiles WHERE table_id = ?", (table.id,))])
        else:
            self._write([("DELETE FROM deck_cards WHERE table_id = ? AND code = ?",
                          (table.id, code)),
                         ("UPDATE deck_profiles SET updated_at = ? WHERE table_id = ?",
                          (time.time(), table.id))])
