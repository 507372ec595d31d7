"""Streams and slow clients against the real server (cheroot on a loopback port): pages that
go away free their stream slots at once, slow senders cannot hold the keeper's write, and a
chunked body over the limit is a 413."""

from __future__ import annotations

import contextlib
import http.client
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests
from sse_client import SSEReader

from web import create_app, server
from web.server import ServerThread


@pytest.fixture
def live(tmp_path: Path) -> Iterator[ServerThread]:
    """The server with room for 3 streams and a heartbeat too slow to find gone pages."""
    app = create_app({"DATABASE": str(tmp_path / "live.sqlite"), "HEARTBEAT_SECONDS": 120,
                      "MAX_STREAMS": 3})
    thread = ServerThread(app, threads=14)
    thread.start()
    yield thread
    thread.stop()
    app.extensions["scorekeeper.store"].close()


def new_table(url: str) -> dict[str, Any]:
    reply = requests.post(f"{url}/api/tables", json={"players": ["ann", "bob"]}, timeout=5)
    assert reply.status_code == 201
    data: dict[str, Any] = reply.json()
    return data


def stream_url(url: str, table: dict[str, Any]) -> str:
    return f"{url}/api/tables/{table['table_id']}/stream?token={table['display_token']}"


def test_pages_that_went_away_free_their_stream_slots_at_once(live: ServerThread) -> None:
    table = new_table(live.url)
    gone = [SSEReader(stream_url(live.url, table)) for _ in range(3)]
    for reader in gone:
        assert reader.status == 200 and reader.next().id == "0"
        reader.close()  # the page is closed: no goodbye reaches the server
    statuses = []
    for _ in range(40):  # a page retries; the 503 makes every open stream write at once
        reader = SSEReader(stream_url(live.url, table))
        statuses.append(reader.status)
        if reader.status == 200:
            assert reader.next().id == "0"
            reader.close()
            break
        reader.close()
        time.sleep(0.25)
    assert statuses[-1] == 200, statuses
    assert live.app.extensions["scorekeeper.store"].listeners <= 3


def half_sent(url: str, source: str) -> socket.socket:
    """A connection from ``source`` that sends half a request and stops."""
    parts = urlsplit(url)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=5,
                                    source_address=(source, 0))
    sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Le")
    return sock


def test_slow_senders_cannot_hold_the_keepers_write(live: ServerThread) -> None:
    table = new_table(live.url)
    slow = [half_sent(live.url, "127.0.0.2") for _ in range(30)]  # more than the threads
    try:
        time.sleep(0.5)
        reply = requests.post(f"{live.url}/api/tables/{table['table_id']}/events", timeout=5,
                              headers={"Authorization": f"Bearer {table['keeper_token']}"},
                              json={"base_seq": 0, "event": {"type": "new-hand",
                                                             "dealer": "ann"}})
        assert reply.status_code == 201
    finally:
        for sock in slow:
            sock.close()


def test_a_request_trickling_in_is_cut_off(live: ServerThread,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server, "HEAD_SECONDS", 0.5)
    sock = half_sent(live.url, "127.0.0.3")
    answer = b""
    with contextlib.suppress(OSError):
        for _ in range(25):  # one byte every 0.2 s: never idle long enough for a timeout
            sock.sendall(b"n")
            time.sleep(0.2)
    with contextlib.suppress(OSError):
        answer = sock.recv(200)
    sock.close()
    assert answer.startswith(b"HTTP/1.1 408"), answer


def test_a_chunked_body_over_the_limit_is_413(live: ServerThread) -> None:
    table = new_table(live.url)
    parts = urlsplit(live.url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    body = b'{"base_seq": 0, "event": {"type": "next-turn", "x": "' + b"a" * 70_000 + b'"}}'
    conn.request("POST", f"/api/tables/{table['table_id']}/events", body=iter([body]),
                 headers={"Content-Type": "application/json",
                          "Authorization": f"Bearer {table['keeper_token']}"},
                 encode_chunked=True)
    reply = conn.getresponse()
    assert reply.status == 413
    assert b"too large" in reply.read()
    conn.close()
