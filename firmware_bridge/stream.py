"""The board as a client of a table's live stream (``docs/api.md``), like the display page.

``GET /api/tables/<id>/state`` once, then ``GET /api/tables/<id>/stream`` (Server-Sent Events)
resuming with ``Last-Event-ID``; every ``state`` message goes to the :class:`BoardLink`. The
link's status goes back with ``POST /api/tables/<id>/board-status``. Only the standard library
(``http.client``) is used.

>>> list(parse_events([b"id: 4\\n", b"event: state\\n", b'data: {"seq": 4}\\n', b"\\n",
...                    b": heartbeat\\n", b"\\n"]))
[SseEvent(id='4', event='state', data='{"seq": 4}')]
"""

from __future__ import annotations

import contextlib
import http.client
import json
import queue
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

from firmware_bridge.link import BoardLink, LinkStatus
from firmware_bridge.scene import DEFAULT_BRIGHTNESS, Scene, SceneError


class StreamError(ValueError):
    """The server refused us (bad URL, table or token): retrying will not help."""


@dataclass(frozen=True, slots=True)
class SseEvent:
    id: str | None
    event: str
    data: str


def parse_events(lines: Iterable[bytes]) -> Iterator[SseEvent]:
    """Server-Sent Events from raw lines (the parts of the format the server uses)."""
    event_id: str | None = None
    kind, data = "message", list[str]()
    for raw in lines:
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        if not line:
            if data:
                yield SseEvent(event_id, kind, "\n".join(data))
            kind, data = "message", list[str]()
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "id":
            event_id = value
        elif name == "event":
            kind = value
        elif name == "data":
            data.append(value)


@dataclass(frozen=True, slots=True)
class Server:
    """Where the table lives: ``http://host:port`` plus the table id and a token."""

    url: str
    table: str
    token: str

    def _connection(self, timeout: float) -> http.client.HTTPConnection:
        parts = urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise StreamError(f"server URL {self.url!r} must look like http://host:8000")
        cls = (http.client.HTTPSConnection if parts.scheme == "https"
               else http.client.HTTPConnection)
        return cls(parts.hostname, parts.port, timeout=timeout)

    def path(self, what: str) -> str:
        base = urlsplit(self.url).path.rstrip("/")
        return f"{base}/api/tables/{quote(self.table, safe='')}/{what}"

    def request(self, method: str, what: str, body: dict[str, Any] | None = None,
                headers: dict[str, str] | None = None,
                timeout: float = 10.0) -> tuple[http.client.HTTPConnection,
                                                http.client.HTTPResponse]:
        conn = self._connection(timeout)
        all_headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        all_headers.update(headers or {})
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            all_headers["Content-Type"] = "application/json"
        conn.request(method, self.path(what), body=payload, headers=all_headers)
        response = conn.getresponse()
        if response.status in (401, 403, 404):
            detail = response.read(500).decode("utf-8", "replace")
            conn.close()
            raise StreamError(f"{method} {self.path(what)}: HTTP {response.status} "
                              f"({_error_text(detail)}): check the table id and token")
        return conn, response

    def get_state(self) -> tuple[int, dict[str, Any]]:
        conn, response = self.request("GET", "state")
        try:
            if response.status != 200:
                raise OSError(f"GET state: HTTP {response.status}")
            doc = json.loads(response.read())
        finally:
            conn.close()
        return int(doc["seq"]), doc["state"]

    def post_status(self, status: LinkStatus) -> None:
        conn, response = self.request("POST", "board-status",
                                      {"status": status.status, "detail": status.detail})
        response.read()
        conn.close()


def _error_text(body: str) -> str:
    try:
        doc = json.loads(body)
    except json.JSONDecodeError:
        return body.strip()[:120] or "no detail"
    return str(doc.get("error", doc)) if isinstance(doc, dict) else str(doc)


class StatusPoster:
    """Posts the link's status changes from its own thread (a slow server never holds up the
    link); only the latest status is kept."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self._queue: queue.Queue[LinkStatus | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="board-status", daemon=True)
        self.posted: list[LinkStatus] = []
        self._thread.start()

    def __call__(self, status: LinkStatus) -> None:
        self._queue.put(status)

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(5)

    def _run(self) -> None:
        while True:
            status = self._queue.get()
            while not self._queue.empty():  # only the latest matters
                newer = self._queue.get()
                if newer is None:
                    return
                status = newer
            if status is None:
                return
            try:
                self.server.post_status(status)
                self.posted.append(status)
            except (OSError, http.client.HTTPException, StreamError):
                pass


class StreamFollower:
    """Follows the table's live stream and shows every state on the link."""

    def __init__(self, server: Server, link: BoardLink, brightness: int = DEFAULT_BRIGHTNESS,
                 read_timeout: float = 45.0,
                 on_error: Callable[[str], None] | None = None) -> None:
        self.server = server
        self.link = link
        self.brightness = brightness
        self.read_timeout = read_timeout  # the server sends a heartbeat every 15 s
        self.on_error = on_error
        self.last_id: str | None = None
        self.states = 0
        self._stop = threading.Event()
        self._conn: http.client.HTTPConnection | None = None

    def show(self, state: dict[str, Any]) -> None:
        try:
            self.link.show(Scene.from_state(state, self.brightness))
            self.states += 1
        except (SceneError, ValueError) as exc:
            self._error(f"state not shown on the board: {exc}")

    def _error(self, message: str) -> None:
        if self.on_error:
            self.on_error(message)

    def stop(self) -> None:
        self._stop.set()
        conn = self._conn
        if conn is not None and conn.sock is not None:
            with contextlib.suppress(OSError):
                conn.sock.shutdown(2)

    def run(self) -> None:
        """Until :meth:`stop`: reconnects with back-off; raises :class:`StreamError` when the
        server refuses the table or token."""
        backoff = 0.5
        while not self._stop.is_set():
            try:
                if self.last_id is None:
                    seq, state = self.server.get_state()
                    self.show(state)
                    self.last_id = str(seq)
                self._follow()
                backoff = 0.5
            except StreamError:
                raise
            except (OSError, http.client.HTTPException, ValueError, KeyError) as exc:
                if self._stop.is_set():
                    break
                self._error(f"live stream lost ({exc}); reconnecting in {backoff:.1f} s")
                self._stop.wait(backoff)
                backoff = min(backoff * 2, 10.0)

    def _follow(self) -> None:
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
        if self.last_id is not None:
            headers["Last-Event-ID"] = self.last_id
        conn, response = self.server.request("GET", "stream", headers=headers,
                                             timeout=self.read_timeout)
        self._conn = conn
        try:
            if response.status != 200:
                raise OSError(f"GET stream: HTTP {response.status}")
            for event in parse_events(iter(response.readline, b"")):
                if self._stop.is_set():
                    return
                if event.event != "state":
                    continue
                doc = json.loads(event.data)
                self.show(doc["state"])
                self.last_id = event.id or str(doc.get("seq", self.last_id))
            if not self._stop.is_set():
                raise OSError("the server closed the stream")
        finally:
            self._conn = None
            conn.close()

