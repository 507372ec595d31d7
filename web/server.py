"""The production WSGI server: cheroot with one thread per open connection.

A live page holds its connection (and so one worker thread) for as long as it is open, so the
pool is sized for the number of phones, tablets and displays at the table plus headroom; cheroot
writes each streamed chunk straight to the socket (no response buffering), and idle keep-alive
connections wait in its selector, not in a thread.
"""

from __future__ import annotations

import contextlib
import io
import socket
import sys
import threading
import time
from typing import Any

from cheroot import server as cheroot_server
from cheroot import wsgi
from cheroot.makefile import StreamReader
from flask import Flask

#: Per-thread stack: hundreds of mostly idle stream threads stay light on a Raspberry Pi.
THREAD_STACK_BYTES = 1024 * 1024
SWITCH_INTERVAL = 0.001
#: A request's line and headers must arrive within this many seconds (else 408)...
HEAD_SECONDS = 10.0
#: ...and its body within this many more, plus one second per BODY_MIN_RATE bytes.
BODY_SECONDS = 10.0
BODY_MIN_RATE = 32 * 1024
#: Requests one client address may have stalled half-sent (headers still arriving after
#: STALLED_SECONDS) at once; its further requests are answered 503 at once, so slow senders
#: cannot take every worker thread (a burst of quick requests is never refused).
PER_ADDRESS_STALLED = 8
STALLED_SECONDS = 1.0
REAP_SECONDS = 0.25


class DeadlineSocketIO(socket.SocketIO):
    """A socket reader that times out at ``deadline`` however slowly the bytes trickle in."""

    deadline: float | None = None
    base_timeout: float | None = None

    def readinto(self, b: Any) -> int | None:
        if self.deadline is None:
            return super().readinto(b)
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("timed out")  # cheroot answers 408 Request Timeout
        sock = self._sock  # type: ignore[attr-defined]
        base = sock.gettimeout()
        sock.settimeout(remaining if base is None else min(remaining, base))
        try:
            return super().readinto(b)
        finally:
            sock.settimeout(base)


class DeadlineReader(StreamReader):
    """cheroot's socket reader over :class:`DeadlineSocketIO`."""

    def __init__(self, sock: socket.socket, bufsize: int = io.DEFAULT_BUFFER_SIZE) -> None:
        super(StreamReader, self).__init__(DeadlineSocketIO(sock, "r"), bufsize)
        self.bytes_read = 0


class HalfSent:
    """The requests each client address has half-sent: when each began, and its socket.

    A request whose headers are still arriving after ``stalled_after`` seconds is stalled. An
    address with ``limit`` stalled requests gets 503 for any more at once, and :meth:`reap`
    (every REAP_SECONDS, on its own thread) closes its stalled requests beyond ``limit``: slow
    senders cannot keep every worker thread, even when they arrive all at once.
    """

    def __init__(self, limit: int, stalled_after: float = STALLED_SECONDS) -> None:
        self.limit, self.stalled_after = limit, stalled_after
        self.started: dict[str, dict[int, tuple[float, socket.socket]]] = {}
        self.lock = threading.Lock()
        self.next_key = 0

    def _stalled(self, address: str, now: float) -> list[tuple[float, socket.socket]]:
        started = self.started.get(address, {})
        return sorted(entry for entry in started.values() if now - entry[0] > self.stalled_after)

    def enter(self, address: str, sock: socket.socket) -> int | None:
        """A key for a new request from ``address``, or None when it has too many stalled."""
        now = time.monotonic()
        with self.lock:
            if len(self._stalled(address, now)) >= self.limit:
                return None
            self.next_key += 1
            self.started.setdefault(address, {})[self.next_key] = (now, sock)
            return self.next_key

    def leave(self, address: str, key: int) -> None:
        with self.lock:
            started = self.started.get(address, {})
            started.pop(key, None)
            if not started:
                self.started.pop(address, None)

    def reap(self) -> int:
        """Close each address's stalled requests beyond ``limit``; returns how many."""
        now = time.monotonic()
        with self.lock:
            excess = [sock for address in list(self.started)
                      for _, sock in self._stalled(address, now)[self.limit:]]
        for sock in excess:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        return len(excess)

    def reap_until(self, stop: threading.Event) -> None:
        while not stop.wait(REAP_SECONDS):
            self.reap()


class GuardedRequest(cheroot_server.HTTPRequest):
    """A request whose head and body must arrive in time, a few at once per address."""

    def parse_request(self) -> None:
        conn: Any = self.conn
        raw: DeadlineSocketIO = conn.rfile.raw
        half_sent: HalfSent = conn.server.half_sent
        address = str(conn.remote_addr or "")
        key = half_sent.enter(address, conn.socket)
        if key is None:
            self.simple_response("503 Service Unavailable",
                                 "too many unfinished requests from this address")
            self.close_connection = True
            return
        raw.deadline = time.monotonic() + HEAD_SECONDS
        try:
            super().parse_request()
        finally:
            half_sent.leave(address, key)
        length = self.inheaders.get(b"Content-Length", b"0")
        size = int(length) if length.isdigit() else 64 * 1024
        raw.deadline = time.monotonic() + BODY_SECONDS + size / BODY_MIN_RATE

    def respond(self) -> None:
        try:
            super().respond()
        finally:
            self.conn.rfile.raw.deadline = None


class GuardedConnection(cheroot_server.HTTPConnection):
    """A connection read through :class:`DeadlineReader`."""

    RequestHandlerClass = GuardedRequest

    def __init__(self, server: Any, sock: socket.socket, *args: Any, **kwargs: Any) -> None:
        super().__init__(server, sock, *args, **kwargs)
        self.rfile = DeadlineReader(sock, self.rbufsize)


def make_server(app: Flask, host: str, port: int, threads: int | None = None) -> wsgi.Server:
    """A cheroot server for ``app``, not yet started (call ``prepare()`` then ``serve()``)."""
    threading.stack_size(THREAD_STACK_BYTES)
    # A request thread waiting for the GIL behind many stream threads waits up to one switch
    # interval (5 ms by default): a shorter one keeps writes quick while pages are open.
    sys.setswitchinterval(SWITCH_INTERVAL)
    numthreads = threads or int(app.config.get("THREADS", 400))
    server = wsgi.Server(
        (host, port), app, numthreads=numthreads, max=numthreads,
        request_queue_size=256, timeout=30, shutdown_timeout=3,
        server_name="toss-scorekeeper",
    )
    server.ConnectionClass = GuardedConnection
    half_sent = HalfSent(PER_ADDRESS_STALLED)
    server.half_sent = half_sent  # type: ignore[attr-defined]
    server.reaper_stop = threading.Event()  # type: ignore[attr-defined]
    threading.Thread(target=half_sent.reap_until, args=(server.reaper_stop,),  # type: ignore[attr-defined]
                     name="scorekeeper-reaper", daemon=True).start()
    return server


def bound_port(server: wsgi.Server) -> int:
    address: Any = server.bind_addr
    return int(address[1])


class ServerThread(threading.Thread):
    """The real server in a background thread (tests, screenshots): ``start()``, ``.url``,
    ``stop()``."""

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0,
                 threads: int | None = None) -> None:
        super().__init__(daemon=True, name="scorekeeper-server")
        self.app = app
        self.server = make_server(app, host, port, threads)
        self.server.prepare()
        self.url = f"http://{host}:{bound_port(self.server)}"

    def run(self) -> None:
        self.server.serve()

    def stop(self) -> None:
        self.app.extensions["scorekeeper.store"].stop_streams()
        self.server.reaper_stop.set()  # type: ignore[attr-defined]
        self.server.stop()
