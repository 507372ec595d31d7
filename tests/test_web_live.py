"""The live stream over the real server (cheroot, as ``scorekeeper serve`` runs it)."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from sse_client import SSEReader

from web import create_app
from web.server import ServerThread


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    app = create_app({"DATABASE": str(tmp_path / "live.sqlite"), "HEARTBEAT_SECONDS": 0.3})
    thread = ServerThread(app, threads=80)
    thread.start()
    yield thread
    thread.stop()
    app.extensions["scorekeeper.store"].close()


def new_table(url: str) -> dict[str, Any]:
    reply = requests.post(f"{url}/api/tables", json={"players": ["ann", "bob", "cy"]}, timeout=5)
    assert reply.status_code == 201
    data: dict[str, Any] = reply.json()
    return data


def send(url: str, table: dict[str, Any], base: int, event: dict[str, Any]) -> requests.Response:
    return requests.post(f"{url}/api/tables/{table['table_id']}/events", timeout=5,
                         headers={"Authorization": f"Bearer {table['keeper_token']}"},
                         json={"base_seq": base, "event": event})


def stream_url(url: str, table: dict[str, Any], token: str | None = None) -> str:
    return f"{url}/api/tables/{table['table_id']}/stream?token={token or table['display_token']}"


def test_each_event_arrives_with_its_seq_as_id(server: ServerThread) -> None:
    table = new_table(server.url)
    reader = SSEReader(stream_url(server.url, table))
    try:
        first = reader.next()
        assert first.id == "0" and first.data["seq"] == 0 and first.data["event"] is None
        assert reader.next(kind="table").data["table"]["seats"][0]["player"] == "ann"
        assert send(server.url, table, 0, {"type": "new-hand", "dealer": "ann"}).status_code == 201
        message = reader.next()
        assert message.id == "1" and message.data["event"]["type"] == "new-hand"
        assert message.data["state"]["turn"] == "bob"
        send(server.url, table, 1, {"type": "meld", "player": "bob",
                                    "cards": ["7cl", "7sp", "7he"]})
        message = reader.next()
        assert message.id == "2" and message.data["state"]["boards"][1]["score"] == 21
        refused = send(server.url, table, 2, {"type": "meld", "player": "bob", "cards": ["7cl"]})
        assert refused.status_code in (400, 422)
        with pytest.raises(queue.Empty):
            reader.next(timeout=0.5)  # a refusal sends nothing
    finally:
        reader.close()


def test_a_dropped_phone_resumes_from_last_event_id(server: ServerThread) -> None:
    table = new_table(server.url)
    send(server.url, table, 0, {"type": "new-hand", "dealer": "ann"})
    send(server.url, table, 1, {"type": "correction", "target": "ann", "points": 5,
                                "reason": "a"})
    send(server.url, table, 2, {"type": "correction", "target": "cy", "points": 7,
                                "reason": "b"})
    reader = SSEReader(stream_url(server.url, table, table["seats"]["bob"]),
                       headers={"Last-Event-ID": "1"})
    try:
        got = [reader.next(), reader.next()]
        assert [m.id for m in got] == ["2", "3"]
        assert [m.data["event"]["points"] for m in got] == [5, 7]
        assert got[1].data["state"]["boards"][2]["score"] == 7
    finally:
        reader.close()


def test_resume_older_than_the_cache_refolds_from_the_log(server: ServerThread) -> None:
    table = new_table(server.url)
    store = server.app.extensions["scorekeeper.store"]
    send(server.url, table, 0, {"type": "new-hand", "dealer": "ann"})
    send(server.url, table, 1, {"type": "correction", "target": "bob", "points": 9,
                                "reason": "c"})
    store.table(table["table_id"]).messages.clear()
    reader = SSEReader(stream_url(server.url, table), headers={"Last-Event-ID": "0"})
    try:
        assert [reader.next().id, reader.next().id] == ["1", "2"]
    finally:
        reader.close()


def test_stream_headers_and_heartbeat(server: ServerThread) -> None:
    table = new_table(server.url)
    reader = SSEReader(stream_url(server.url, table))
    try:
        headers = reader.response_headers
        assert reader.status == 200
        assert headers["content-type"].startswith("text/event-stream")
        assert headers["x-accel-buffering"] == "no"
        assert "no-cache" in headers["cache-control"]
        beat = reader.next(timeout=3, kind="")
        assert beat.comment == "heartbeat"
    finally:
        reader.close()


def test_a_stop_between_the_loops_test_and_its_wait_still_ends_the_stream(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The server stopping must end every stream at once (it waits for their threads), even
    # when the stop lands after a stream has found the store open and before it waits.
    app = create_app({"DATABASE": str(tmp_path / "stop.sqlite"), "HEARTBEAT_SECONDS": 60.0})
    store = app.extensions["scorekeeper.store"]
    client = app.test_client()
    table = client.post("/api/tables", json={"players": ["ann", "bob"]}).get_json()
    check = store.seat_token_valid

    def stop_then_check(*args: Any) -> bool:
        store.stop_streams()  # lands inside the loop, after its test of store.closed
        return bool(check(*args))

    monkeypatch.setattr(store, "seat_token_valid", stop_then_check)
    response = client.get(f"/api/tables/{table['table_id']}/stream"
                          f"?token={table['display_token']}")
    chunks: list[bytes] = []
    reading = threading.Thread(target=lambda: chunks.extend(response.iter_encoded()),
                               daemon=True)
    reading.start()
    reading.join(10)
    try:
        assert not reading.is_alive(), "the stream slept through the stop until its heartbeat"
        assert chunks and chunks[0].startswith(b"retry:")
    finally:
        store.close()


def test_stream_needs_a_token(server: ServerThread) -> None:
    table = new_table(server.url)
    reply = requests.get(f"{server.url}/api/tables/{table['table_id']}/stream", timeout=5)
    assert reply.status_code == 403 and "token" in reply.json()["error"]


def test_proposals_and_board_status_reach_open_pages(server: ServerThread) -> None:
    table = new_table(server.url)
    send(server.url, table, 0, {"type": "new-hand", "dealer": "ann"})
    reader = SSEReader(stream_url(server.url, table, table["keeper_token"]))
    try:
        reader.next(kind="table")
        requests.post(f"{server.url}/api/tables/{table['table_id']}/proposals", timeout=5,
                      headers={"Authorization": f"Bearer {table['seats']['bob']}"},
                      json={"event": {"type": "meld", "cards": ["Qcl", "Qsp", "Qhe"]}})
        meta = reader.next(kind="table").data["table"]
        assert meta["proposals"][0]["player"] == "bob"
        requests.post(f"{server.url}/api/tables/{table['table_id']}/board-status", timeout=5,
                      headers={"Authorization": f"Bearer {table['display_token']}"},
                      json={"status": "disconnected", "detail": "unplugged"})
        assert reader.next(kind="table").data["table"]["board_status"]["detail"] == "unplugged"
    finally:
        reader.close()


def test_many_open_streams_all_get_the_event(server: ServerThread) -> None:
    table = new_table(server.url)
    readers = [SSEReader(stream_url(server.url, table)) for _ in range(40)]
    try:
        for reader in readers:
            reader.next()
        send(server.url, table, 0, {"type": "new-hand", "dealer": "cy"})
        assert {reader.next().id for reader in readers} == {"1"}
        # the server still answers ordinary requests while 40 streams are open
        state = requests.get(f"{server.url}/api/tables/{table['table_id']}/state", timeout=5,
                             headers={"Authorization": f"Bearer {table['keeper_token']}"})
        assert state.json()["seq"] == 1
    finally:
        for reader in readers:
            reader.close()


def test_streams_beyond_the_limit_get_503_and_writes_still_work(tmp_path: Path) -> None:
    app = create_app({"DATABASE": str(tmp_path / "limit.sqlite"), "MAX_STREAMS": 2})
    thread = ServerThread(app, threads=8)
    thread.start()
    readers: list[SSEReader] = []
    try:
        table = new_table(thread.url)
        for _ in range(2):
            readers.append(SSEReader(stream_url(thread.url, table)))
            readers[-1].next()
        extra = requests.get(stream_url(thread.url, table), timeout=5)
        assert extra.status_code == 503 and "too many live pages" in extra.json()["error"]
        assert send(thread.url, table, 0, {"type": "new-hand", "dealer": "ann"}).status_code == 201
        assert {r.next().id for r in readers} == {"1"}
    finally:
        for reader in readers:
            reader.close()
        thread.stop()
        app.extensions["scorekeeper.store"].close()
