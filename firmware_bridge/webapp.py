"""The board inside ``scorekeeper serve --board PORT|auto|sim``: :data:`BOARD`, registered under
the ``scorekeeper.board`` entry-point group (pyproject.toml) as the web app's
:class:`web.board.BoardHook`; the server calls ``BOARD.start(app, spec, tables)``.

In-process the board follows the table store directly (no HTTP): the table named by
``BOARD_TABLE`` (config, from ``SCOREKEEPER_BOARD_TABLE``), else the newest table, switching when a
newer one is created. Its link status is stored as the table's board status (shown on the
keeper page). Settings, from the app config (``web.config`` reads the environment): ``BOARD_MODE``
(``ours``/``wled``), ``BOARD_LAYOUT`` (a layout file), ``BOARD_BRIGHTNESS`` (0-255),
``BOARD_DTR`` (``auto``/``hold``/``drop``: hold DTR and RTS up for native-USB boards).
"""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.layout import Layout, default_layout
from firmware_bridge.link import OURS, BoardLink, LinkStatus
from firmware_bridge.ports import DTR_AUTO
from firmware_bridge.scene import DEFAULT_BRIGHTNESS, Scene, SceneError

if TYPE_CHECKING:
    from flask import Flask

    from web.board import BoardHook, BoardTable, BoardTables

SIM = "sim"

TableT = TypeVar("TableT", bound="BoardTable")


def setting(app: Flask, name: str, default: str | None = None) -> str | None:
    """A board setting from the app's config (which reads the ``SCOREKEEPER_*`` variables)."""
    value = app.config.get(name)
    if value in (None, ""):
        value = default
    return None if value is None else str(value)


class StoreFollower(Generic[TableT]):
    """Shows the followed table's state on the link whenever its sequence number moves."""

    def __init__(self, store: BoardTables[TableT], link: BoardLink, table_id: str | None = None,
                 brightness: int = DEFAULT_BRIGHTNESS, poll: float = 1.0) -> None:
        self.store = store
        self.link = link
        self.pinned = table_id
        self.brightness = brightness
        self.poll = poll
        self.table: TableT | None = None
        self._status_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="board-follower", daemon=True)

    def start(self) -> StoreFollower[TableT]:
        self.link.on_status = self._status
        self.link.start()
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        table = self.table
        if table is not None:
            with table.cond:
                table.cond.notify_all()
        self._thread.join(3)
        self.link.stop()

    def _status(self, status: LinkStatus | None = None) -> None:
        # The link thread and this one both report; under the lock, whoever writes last
        # writes the link's newest status.
        with self._status_lock:
            table = self.table
            if table is not None:
                current = self.link.status
                self.store.set_board_status(table, current.status, current.detail)

    def _current_table(self) -> TableT | None:
        if self.pinned:
            return self.store.table(self.pinned)
        ids = self.store.table_ids()
        return self.store.table(ids[0]) if ids else None

    def _run(self) -> None:
        seen: tuple[str, int] | None = None
        while not self._stop.is_set() and not self.store.closed.is_set():
            try:
                table = self._current_table()
            except Exception as exc:  # a missing pinned table: say so, keep trying
                print(f"board: cannot follow table {self.pinned}: {exc}", file=sys.stderr)
                self._stop.wait(5)
                continue
            if table is None:
                self._stop.wait(self.poll)
                continue
            if table is not self.table:
                self.table = table
                self._status()
            with table.cond:
                if seen == (table.id, table.seq):
                    table.cond.wait(self.poll)
                seq, state = table.seq, table.state_json()
            if seen != (table.id, seq):
                seen = (table.id, seq)
                try:
                    self.link.show(Scene.from_state(state, self.brightness))
                except (SceneError, ValueError) as exc:
                    print(f"board: state {seq} not shown: {exc}", file=sys.stderr)


class LedBoard:
    """The LED board link as the web app's board hook (:class:`web.board.BoardHook`)."""

    def start(self, app: Flask, spec: str, tables: BoardTables[Any]) -> StoreFollower[Any]:
        """Start the link (and the emulator for ``sim``) and follow the tables."""
        mode = setting(app, "BOARD_MODE", OURS) or OURS
        layout_path = setting(app, "BOARD_LAYOUT")
        layout: Layout = Layout.load(layout_path) if layout_path else default_layout()
        brightness = int(setting(app, "BOARD_BRIGHTNESS", str(DEFAULT_BRIGHTNESS)) or 0)
        port = spec
        if spec == SIM:
            emulator = BoardEmulator(mode=mode, layout=layout)
            port = emulator.start()
            app.extensions["scorekeeper.board_sim"] = emulator
            print(f"board: simulated board on {port}", file=sys.stderr)
        link = BoardLink(port, layout=layout, mode=mode,
                         dtr=setting(app, "BOARD_DTR", DTR_AUTO) or DTR_AUTO)
        follower = StoreFollower(tables, link, setting(app, "BOARD_TABLE"), brightness)
        app.extensions["scorekeeper.board"] = follower
        follower.start()
        return follower


#: The board hook the ``scorekeeper.board`` entry point names.
BOARD: BoardHook = LedBoard()
