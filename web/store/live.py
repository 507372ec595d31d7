"""The live fan-out: the Server-Sent Events framing, waking this process's streams, and on
PostgreSQL telling every other process through ``LISTEN/NOTIFY``.

A write wakes the streams of its own process directly (``publish``). On PostgreSQL it also
sends ``NOTIFY`` inside its transaction, so the note leaves only once the row is committed;
every process (on this machine or another) ``LISTEN``s on one channel in a thread of its own
and brings the tables it holds up to date from the log, which wakes its streams in turn.
After a lost connection the listener reconnects and catches every held table up, since notes
sent meanwhile are gone.
"""

from __future__ import annotations

import json
import logging
import threading
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from web.store.table import Table

#: How many recent live-stream messages each table keeps ready to resend.
MESSAGE_CACHE = 2000
#: The PostgreSQL channel every process listens on.
CHANNEL = "scorekeeper_tables"
#: A note about the log (new events) or about the side information (seats, proposals...).
EVENTS, META = "events", "meta"

NOTIFY = sa.text("SELECT pg_notify(:channel, :payload)")


def notifying(insert: Any) -> Any:
    """PostgreSQL: one statement that runs ``insert`` (an INSERT ... RETURNING) and sends the
    note ``:payload`` for its row: in autocommit it is one round trip, atomic and durable."""
    row = insert.cte("stored")
    return sa.select(sa.func.pg_notify(CHANNEL, sa.bindparam("payload", type_=sa.Text))
                     ).select_from(row)

log = logging.getLogger(__name__)


def sse_message(kind: str, seq: int, payload: Mapping[str, Any]) -> bytes:
    """One Server-Sent Events message, ``id`` = the table's sequence number."""
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    try:
        return f"id: {seq}\nevent: {kind}\ndata: {data}\n\n".encode()
    except UnicodeEncodeError:  # text stored before the edge refused broken characters
        data = json.dumps(payload, ensure_ascii=True, separators=(",", ":"))
        return f"id: {seq}\nevent: {kind}\ndata: {data}\n\n".encode()


def state_message(seq: int, state_text: str, event_text: str) -> bytes:
    """The ``state`` message of event ``seq`` from its already encoded state and event."""
    try:
        return (f"id: {seq}\nevent: state\ndata: "
                f'{{"seq":{seq},"state":{state_text},"event":{event_text}}}\n\n').encode()
    except UnicodeEncodeError:
        return sse_message("state", seq, {"seq": seq, "state": json.loads(state_text),
                                          "event": json.loads(event_text)})


def publish(table: Table, seq: int, state: Any, message: bytes,
            point: dict[str, Any] | None = None, cut: Any = None, meta: bool = False) -> None:
    """Make ``state`` (after event ``seq``) the table's and wake its streams (``meta``: the
    side information changed with it)."""
    with table.cond:
        if meta:
            table.meta_version += 1
        table.state, table.seq = state, seq
        table.messages[seq] = message
        while len(table.messages) > MESSAGE_CACHE:
            table.messages.popitem(last=False)
        if point is not None:
            table.points.append(point)
        if cut is not None:
            table.cut_state = cut
        table.cond.notify_all()


def meta_changed(table: Table) -> None:
    """The side information changed: streams send a fresh ``table`` message."""
    with table.cond:
        table.meta_version += 1
        table.cond.notify_all()


#: A note carries its event when it fits (NOTIFY payloads stop short of 8000 bytes).
EVENT_IN_NOTE = 7000


@dataclass(frozen=True)
class Note:
    """What a process tells the others: table ``table_id`` has news of ``kind`` at ``seq``,
    with the event's JSON text when it is one event that fits (else the log is read)."""

    table_id: str
    kind: str
    seq: int
    origin: str
    event: str | None = None

    def encode(self) -> str:
        data = {"t": self.table_id, "k": self.kind, "s": self.seq, "o": self.origin}
        text = json.dumps(data)
        if self.event is not None and len(text) + len(self.event) < EVENT_IN_NOTE:
            text = text[:-1] + ', "e": ' + self.event + "}"
        return text

    @classmethod
    def decode(cls, text: str) -> Note | None:
        try:
            data = json.loads(text)
            event = data.get("e")
            return cls(str(data["t"]), str(data["k"]), int(data["s"]), str(data["o"]),
                       None if event is None else json.dumps(event, ensure_ascii=False,
                                                             separators=(",", ":")))
        except (ValueError, KeyError, TypeError, AttributeError):
            return None


class Fanout:
    """Notes between processes over PostgreSQL; on SQLite (one process) it does nothing.

    ``on_note(note)`` is called from the listener thread for each other process's note, and
    ``on_note(None)`` after a reconnect (catch up everything).
    """

    def __init__(self, url: sa.URL | None, on_note: Callable[[Note | None], None]) -> None:
        self.url = url
        self.on_note = on_note
        self.origin = uuid.uuid4().hex[:12]
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()

    def announce(self, conn: Connection, table_id: str, kind: str, seq: int,
                 event: str | None = None) -> None:
        """Send a note inside the write's transaction (it leaves on commit)."""
        if self.url is None:
            return
        conn.execute(NOTIFY, {"channel": CHANNEL,
                              "payload": Note(table_id, kind, seq, self.origin, event).encode()})

    def payload(self, table_id: str, kind: str, seq: int, event: str | None = None) -> str:
        """The text of this process's note (for a statement that sends it itself)."""
        return Note(table_id, kind, seq, self.origin, event).encode()

    def start(self) -> None:
        """Start listening (PostgreSQL only); returns once the first LISTEN is in place."""
        if self.url is None or self._thread is not None:
            return
        self._thread = threading.Thread(target=self._listen, name="scorekeeper-listen",
                                        daemon=True)
        self._thread.start()
        self._ready.wait(10)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

    def _conninfo(self) -> str:
        assert self.url is not None
        return self.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def _listen(self) -> None:
        import psycopg

        first = True
        while not self._stop.is_set():
            try:
                with psycopg.connect(self._conninfo(), autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._ready.set()
                    if not first:
                        self.on_note(None)  # notes sent while disconnected are lost
                    first = False
                    while not self._stop.is_set():
                        for notify in conn.notifies(timeout=0.2):
                            self._deliver(notify.payload)
            except psycopg.Error as exc:
                log.warning("live updates from other processes paused: %s", exc)
                self._stop.wait(0.5)

    def _deliver(self, payload: str) -> None:
        note = Note.decode(payload)
        if note is None or note.origin == self.origin:
            return
        try:
            self.on_note(note)
        except Exception:  # one bad table never stops the others' updates
            log.exception("could not apply a note from another process: %s", payload)
