"""The production WSGI server: cheroot with one thread per open connection.

A live page holds its connection (and so one worker thread) for as long as it is open, so the
pool is sized for the number of phones, tablets and displays at the table plus headroom; cheroot
writes each streamed chunk straight to the socket (no response buffering), and idle keep-alive
connections wait in its selector, not in a thread.
"""

from __future__ import annotations

import sys
import threading
from typing import Any

from cheroot import wsgi
from flask import Flask

#: Per-thread stack: hundreds of mostly idle stream threads stay light on a Raspberry Pi.
THREAD_STACK_BYTES = 1024 * 1024
SWITCH_INTERVAL = 0.001


def make_server(app: Flask, host: str, port: int, threads: int | None = None) -> wsgi.Server:
    """A cheroot server for ``app``, not yet started (call ``prepare()`` then ``serve()``)."""
    threading.stack_size(THREAD_STACK_BYTES)
    # A request thread waiting for the GIL behind many stream threads waits up to one switch
    # interval (5 ms by default): a shorter one keeps writes quick while pages are open.
    sys.setswitchinterval(SWITCH_INTERVAL)
    numthreads = threads or int(app.config.get("THREADS", 400))
    return wsgi.Server(
        (host, port), app, numthreads=numthreads, max=numthreads,
        request_queue_size=256, timeout=30, shutdown_timeout=3,
        server_name="toss-scorekeeper",
    )


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
        self.server.stop()
