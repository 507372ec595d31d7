"""What the live streams ask the store: the messages after a sequence number, a snapshot,
the side information as a message, and the count of open streams."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from web.store import live
from web.store.proposals import ProposalStore
from web.store.table import Table

if TYPE_CHECKING:
    from flask import Flask

#: The store's name among the app's extensions.
EXTENSION: Final = "scorekeeper.store"


class Store(ProposalStore):
    """The tables of one database (SQLite file or PostgreSQL), shared by every request
    thread of this process."""

    def __init__(self, database: Any, synchronous: str = "FULL",
                 join_ttl: float = 12 * 3600) -> None:
        super().__init__(database, synchronous, join_ttl)
        #: Bumped to make every open stream write at once (a page that has gone is found).
        self.probes = 0
        self._last_probe = 0.0
        self._probe_lock = threading.Lock()

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Store:
        """The store of an app's config: ``DATABASE``, ``SYNCHRONOUS``, ``JOIN_TOKEN_TTL``."""
        return cls(config["DATABASE"], config["SYNCHRONOUS"], config["JOIN_TOKEN_TTL"])

    def init_app(self, app: Flask) -> Store:
        """Make this the app's store (``get_store()`` in a request); returns the store."""
        app.extensions[EXTENSION] = self
        return self

    def add_listener(self, table: Table, delta: int) -> None:
        """Count the open live streams, per table and in all."""
        with self._tables_lock:
            table.listeners += delta
            self.listeners += delta

    def probe_streams(self, every: float = 1.0) -> None:
        """Make every open stream write now (at most once per ``every`` seconds): a page that
        has gone away is found at once and its slot freed, not at the next heartbeat."""
        now = time.monotonic()
        with self._probe_lock:
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
        self.fanout.stop()
        self.db.dispose()

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
            if seq > current:
                break
            if last_seq < seq:
                out.append((seq, live.sse_message(
                    "state", seq, {"seq": seq, "state": state.to_json(), "event": event})))
        return out

    def snapshot_message(self, table: Table) -> tuple[int, bytes]:
        """The current state as one live-stream message (``event`` null)."""
        with table.cond:
            return table.seq, live.sse_message(
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
        message = live.sse_message("table", seq, {"seq": seq, "table": self.meta(table)})
        table.meta_cache = (version, seq, message)
        return version, message
