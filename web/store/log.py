"""The event log and the tables: the database is the truth, the folded state is a cache.

Every table keeps its log of events (append-only, numbered 1, 2, 3...). The rules core
(``scorekeeper.tables``: the Toss engine or a rules-pack session, whichever game the table
plays) folds the log into the game state; the store keeps that fold in memory per table,
folds it from the log the first time a table is used after a start, and brings it up to date
from the log when another process wrote (PostgreSQL).

A write reads top to bottom in :meth:`LogStore.append_encoded`: the repeat check, the stale
check, the rules, then one transaction that inserts the row and tells the other processes; the
201 is sent only after it committed. The log's key (table, seq) is the arbiter between
processes: of two writes of the same update, the second fails and is answered as stale (or as
a repeat, when it carried the same action id).
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from scorekeeper import log as game_log
from scorekeeper.game import GameSetup, GameState, read_setup, setup_json
from scorekeeper.outline import StateOutline
from web.store import live, schema
from web.store.database import Database
from web.store.errors import (
    RefusedError,
    RepeatedActionError,
    StaleWriteError,
    TableNotFoundError,
    check_action_id,
    refusal,
)
from web.store.notes import HistoryNotes
from web.store.table import Table

#: Earlier states kept in memory for undo (the chain through ``state.previous``); it is cut
#: back to UNDO_KEEP once it grows past UNDO_KEEP + UNDO_SLACK. An undo past the kept states
#: folds the log again (the log holds every state).
UNDO_KEEP = 64
UNDO_SLACK = 64

EVENTS = schema.events
TABLE_ID: sa.BindParameter[str] = sa.bindparam("table_id", type_=sa.Text)
# The log's statements, built once (each write and each stream reads them).
SINCE = (sa.select(EVENTS.c.seq, EVENTS.c.event_json, EVENTS.c.by, EVENTS.c.at)
         .where(EVENTS.c.table_id == TABLE_ID, EVENTS.c.seq > sa.bindparam("since"))
         .order_by(EVENTS.c.seq))
BY_ACTION = (sa.select(EVENTS.c.seq, EVENTS.c.event_json)
             .where(EVENTS.c.table_id == TABLE_ID,
                    EVENTS.c.action_id == sa.bindparam("action_id")))
INSERT = EVENTS.insert()
#: PostgreSQL: the row and the note to the other processes in one statement.
INSERT_AND_NOTIFY = live.notifying(
    EVENTS.insert().values({c.name: sa.bindparam(c.name, type_=c.type) for c in EVENTS.c})
    .returning(EVENTS.c.seq))

LOG = logging.getLogger(__name__)


def new_token() -> str:
    return secrets.token_urlsafe(18)


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


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


class LogStore:
    """The tables of one database and their logs, shared by every request thread."""

    def __init__(self, database: str | Path, synchronous: str = "FULL",
                 join_ttl: float = 12 * 3600) -> None:
        self.path = str(database)
        self.join_ttl = join_ttl
        self.db = Database(database, synchronous)
        self._tables: dict[str, Table] = {}
        self._tables_lock = threading.Lock()
        self.closed = threading.Event()
        self.listeners = 0
        #: Called as ``watcher(table, local)`` after a table's log grew: ``local`` when this
        #: process wrote the event (right after its commit, in the writing request), else
        #: once another process's event is folded in.
        self.watchers: list[Callable[[Table, bool], None]] = []
        #: Handlers of other kinds of fan-out notes, by kind (``None``: notes may be lost).
        self.note_handlers: dict[str, Callable[[live.Note | None], None]] = {}
        self.fanout = live.Fanout(self.db.url if self.db.is_postgresql else None,
                                  self._on_note)
        self.fanout.start()

    # -- tables ------------------------------------------------------------------------

    def create_table(self, setup: GameSetup, *, auto_accept: bool = False) -> Table:
        """Store a new table with fresh tokens; returns it."""
        game_log.start(setup)  # the game validates the setup
        table_id = secrets.token_hex(4)
        now = time.time()
        with self.db.write() as conn:
            conn.execute(schema.tables.insert().values(
                id=table_id, created_at=now, setup_json=json.dumps(setup_json(setup)),
                keeper_token=new_token(), display_token=new_token(), join_token=new_token(),
                join_expires_at=now + self.join_ttl, auto_accept=int(auto_accept)))
            conn.execute(schema.seats.insert(), [
                {"table_id": table_id, "position": position, "player": player,
                 "token": new_token()}
                for position, player in enumerate(setup.players)])
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
        rows = self.db.rows(sa.select(schema.tables.c.id)
                            .order_by(schema.tables.c.created_at.desc()))
        return [row.id for row in rows]

    def _load(self, table_id: str) -> Table:
        rows = self.db.rows(sa.select(schema.tables).where(schema.tables.c.id == table_id))
        if not rows:
            raise TableNotFoundError(table_id)
        row = rows[0]
        setup = read_setup(json.loads(row.setup_json))
        table = Table(
            id=table_id, setup=setup, keeper_token=row.keeper_token,
            display_token=row.display_token, join_token=row.join_token,
            join_expires_at=row.join_expires_at, auto_accept=bool(row.auto_accept),
            seats={}, claimed=set(), state=game_log.start(setup),
        )
        self._read_seats(table)
        self._refold(table)
        return table

    def _read_seats(self, table: Table) -> None:
        """The seats' tokens as the database has them (a replaced token is revoked)."""
        seats = schema.seats
        rows = self.db.rows(sa.select(seats.c.player, seats.c.token, seats.c.claimed_at)
                            .where(seats.c.table_id == table.id).order_by(seats.c.position))
        for row in rows:
            old = table.seats.get(row.player)
            if old is not None and old != row.token:
                table.revoked[old] = row.player
        table.seats = {row.player: row.token for row in rows}
        table.claimed = {row.player for row in rows if row.claimed_at is not None}

    def _refold(self, table: Table) -> None:
        """Fold the whole log again (on load)."""
        fold, seq = game_log.begin(table.setup), 0
        table.messages.clear()
        first = fold.state.to_json()
        table.messages[0] = live.sse_message("state", 0, {"seq": 0, "state": first,
                                                         "event": None})
        table.points = [score_point(0, fold.state, first)]
        notes = HistoryNotes.begin(fold.state)
        for seq, event in self._logged_events(table.id):
            fold = game_log.step(fold, event, seq)
            self._remember(table, seq, fold.state, event)
            notes.add(seq, event, fold.state)
        table.notes = notes
        table.fold, table.state, table.seq = fold, fold.state, seq
        table.cut_state = trim_undo_chain(fold.state)
        trim_undo_chain(fold)

    def _remember(self, table: Table, seq: int, state: GameState, event: Any) -> None:
        state_json = state.to_json()
        table.messages[seq] = live.sse_message(
            "state", seq, {"seq": seq, "state": state_json, "event": event})
        table.points.append(score_point(seq, state, state_json))
        while len(table.messages) > live.MESSAGE_CACHE:
            table.messages.popitem(last=False)

    def _logged_events(self, table_id: str, since: int = 0) -> Iterator[tuple[int, Any]]:
        for row in self.db.rows(SINCE, {"table_id": table_id, "since": since}):
            yield row.seq, json.loads(row.event_json)

    def _folded(self, table: Table) -> Iterator[tuple[int, dict[str, Any], GameState]]:
        """Each logged event with its number and the state after it, by the one fold."""
        fold = game_log.begin(table.setup)
        for seq, event in self._logged_events(table.id):
            fold = game_log.step(fold, event, seq)
            yield seq, event, fold.state

    def _fold_of(self, table: Table) -> game_log.Fold:
        if table.fold is None:
            self._refold(table)
        assert table.fold is not None
        return table.fold

    def _full_fold(self, table: Table) -> game_log.Fold:
        """The table's log folded again, with every earlier fold for undo."""
        fold = game_log.begin(table.setup)
        for seq, event in self._logged_events(table.id):
            fold = game_log.step(fold, event, seq)
        return fold

    def _step(self, table: Table, event: dict[str, Any]) -> game_log.Fold:
        """The fold after ``event`` (an undo past the kept folds folds the log again)."""
        fold = self._fold_of(table)
        if event.get("type") == game_log.UNDO and fold.previous is None:
            fold = self._full_fold(table)
        return game_log.step(fold, event, table.seq + 1)

    # -- other processes' writes (PostgreSQL) ------------------------------------------

    def catch_up(self, table: Table, note: live.Note | None = None) -> None:
        """Fold in the events other processes appended since this one last looked (the
        note's own event when it is the next one, else from the log)."""
        with table.write_lock:
            if note is not None and note.event is not None and note.seq == table.seq + 1:
                events: Any = [(note.seq, json.loads(note.event))]
            else:
                events = self._logged_events(table.id, table.seq)
            folded = False
            for seq, event in events:
                fold = self._step(table, event)
                state_json = fold.state.to_json()
                message = live.state_message(seq, compact(state_json), compact(event))
                self._land(table, seq, fold, event, state_json, message,
                           meta=event.get("type") == game_log.AMEND)
                folded = True
            if folded:
                self._changed(table, local=False)

    def reload_meta(self, table: Table) -> None:
        """Read the table's tokens and settings again (another process changed them)."""
        rows = self.db.rows(sa.select(schema.tables).where(schema.tables.c.id == table.id))
        with table.cond:
            if rows:
                row = rows[0]
                table.join_token, table.join_expires_at = row.join_token, row.join_expires_at
                table.auto_accept = bool(row.auto_accept)
            self._read_seats(table)
        live.meta_changed(table)

    def _on_note(self, note: live.Note | None) -> None:
        """A note from another process: bring the held table (or all of them) up to date."""
        if note is not None and note.kind in self.note_handlers:
            self.note_handlers[note.kind](note)
            return
        held = list(self._tables.values()) if note is None else [
            t for t in [self._tables.get(note.table_id)] if t is not None]
        for table in held:
            if note is None or (note.kind == live.EVENTS and note.seq > table.seq):
                self.catch_up(table, note)
            if note is None or note.kind == live.META:
                self.reload_meta(table)
        if note is None:
            for handler in list(self.note_handlers.values()):
                handler(None)

    def _changed(self, table: Table, *, local: bool) -> None:
        """Tell the watchers; one failing never undoes or hides the committed write."""
        for watcher in list(self.watchers):
            try:
                watcher(table, local)
            except Exception:
                LOG.exception("a watcher of table %s failed", table.id)

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
            amendment = game_log.read_amendment(game_log.read_event(event, (game_log.AMEND,)),
                                                table.setup)
            plan = game_log.plan(fold, amendment)
        except ValueError as exc:
            raise refusal(exc) from exc
        before = {b.owner: b.score for b in fold.state.boards()}
        after = {b.owner: b.score for b in plan.state.boards()}
        original = next(e.event for e in fold.entries if e.seq == amendment.target)
        return {
            "target": amendment.target, "original": original, "event": amendment.event,
            "reason": amendment.reason, "before": before, "after": after,
            "change": {o: after[o] - before.get(o, 0) for o in after},
            "hands": game_log.changed_hands(fold.state, plan.state),
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
        # Writes to one table go one at a time in this process (write_lock); the condition
        # that the live streams wait on is held only to publish the result.
        with table.write_lock:
            if action_id is not None:
                self.check_repeat(table, action_id)
            if base_seq > table.seq:  # the page saw another process's newer write
                self.catch_up(table)
            if base_seq != table.seq:
                raise self._stale(table, base_seq)
            try:
                fold = self._step(table, event)
            except ValueError as exc:
                raise refusal(exc) from exc
            state, seq = fold.state, table.seq + 1
            rescored: list[int] = []
            if event["type"] == game_log.AMEND:
                rescored = game_log.changed_hands(table.state, state)
                event["rescored_hands"] = rescored
            state_json = state.to_json()
            state_text, event_text = compact(state_json), compact(event)
            try:
                self._insert(table, seq, event_text, by, action_id, rescored)
            except sa.exc.IntegrityError:  # another process stored this update (or action)
                self.catch_up(table)
                self.check_repeat(table, action_id)
                raise self._stale(table, base_seq) from None
            self._land(table, seq, fold, event, state_json,
                       live.state_message(seq, state_text, event_text), meta=bool(rescored))
        self._changed(table, local=True)  # after the table's write lock: watchers may read
        return seq, state_json, state_text

    @staticmethod
    def _land(table: Table, seq: int, fold: game_log.Fold, event: Mapping[str, Any],
              state_json: Mapping[str, Any], message: bytes, meta: bool) -> None:
        """Make the fold after stored event ``seq`` the table's: its score point and history
        note kept, and its streams woken, all at once for a reader holding ``table.cond``."""
        state = fold.state
        cut = trim_undo_chain(state)
        trim_undo_chain(fold)
        point = score_point(seq, state, state_json)
        with table.cond:
            table.fold = fold
            table.notes.add(seq, event, state)
            if event.get("type") in (game_log.UNDO, game_log.AMEND):
                table.timeline = None  # earlier events changed: folded again when asked
            elif table.timeline is not None:
                table.timeline.append(point)  # one more event in effect
            live.publish(table, seq, state, message, point, cut, meta=meta)

    def _insert(self, table: Table, seq: int, event_text: str, by: str,
                action_id: str | None, rescored: list[int]) -> None:
        """Append row ``seq`` in one transaction; on PostgreSQL the same statement tells the
        other processes, who hear of it once it commits. The log's key (table, seq) holds one
        row per update, so when another process stored update ``seq`` first this raises
        IntegrityError and stores nothing."""
        row = {"table_id": table.id, "seq": seq, "event_json": event_text, "by": by,
               "at": time.time(), "action_id": action_id}
        if self.db.is_postgresql and not rescored:  # one statement in autocommit: one trip
            with self.db.read() as conn:
                conn.execute(INSERT_AND_NOTIFY, {
                    **row, "payload": self.fanout.payload(table.id, live.EVENTS, seq,
                                                          event_text)})
            return
        with self.db.write() as conn:
            conn.execute(INSERT, row)
            for hand_no in rescored:  # the players confirm a rescored hand again
                conn.execute(schema.confirmations.delete().where(
                    schema.confirmations.c.table_id == table.id,
                    schema.confirmations.c.hand_no == hand_no))
            if rescored:
                self.fanout.announce(conn, table.id, live.EVENTS, seq, event_text)

    def check_repeat(self, table: Table, action_id: Any) -> None:
        """Raise :class:`RepeatedActionError` when ``action_id`` is already in the log."""
        if check_action_id(action_id) is None:
            return
        rows = self.db.rows(BY_ACTION, {"table_id": table.id, "action_id": action_id})
        if rows:
            if rows[0].seq > table.seq:
                self.catch_up(table)
            raise RepeatedActionError(action_id, rows[0].seq, json.loads(rows[0].event_json),
                                      table.seq, table.state_json())

    def _stale(self, table: Table, base_seq: int) -> StaleWriteError:
        """The refusal of a write based on ``base_seq``, with the events it missed."""
        missed = self.events(table, base_seq)[-20:] if 0 <= base_seq < table.seq else []
        return StaleWriteError(table.seq, table.state_json(), base_seq, missed)

    def events(self, table: Table, since: int = 0) -> list[dict[str, Any]]:
        """The log with who entered each event and when."""
        rows = self.db.rows(SINCE, {"table_id": table.id, "since": since})
        return [{"seq": r.seq, "by": r.by, "at": r.at, "event": json.loads(r.event_json)}
                for r in rows]

    def timeline(self, table: Table) -> list[dict[str, Any]]:
        """Each board's score after every event in effect, amended events as amended (the
        history chart: the game as it now stands, without undone or removed events). Kept as
        events land; after an undo or an amendment the events in effect are folded again once."""
        with table.cond:
            kept, fold, seq = table.timeline, table.fold, table.seq
            if kept is not None:
                return list(kept)
        points = [score_point(n, state, state.to_json())
                  for n, state in game_log.timeline(fold or self._fold_of(table))]
        with table.cond:
            if table.seq == seq:
                table.timeline = points
        return list(points)

    def states_over_time(self, table: Table) -> list[dict[str, Any]]:
        """Each board's score after every event (for the history chart and the CSV), from
        the points kept as the log grew: a reader never folds the log again."""
        with table.cond:
            return list(table.points)
