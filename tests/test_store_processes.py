"""Several processes on one PostgreSQL database: live updates cross between them through
LISTEN/NOTIFY, and every guarantee of the log holds across them (a stale write is refused
with the current state, a repeated action id is answered, not stored twice). SQLite stays one
process: ``serve --workers 2`` over a SQLite file is refused with the reason.

Two stores in one test process stand for two server processes: each has its own connection
pool, its own listener connection and its own origin id, exactly as in separate processes.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import requests

from scorekeeper import tables
from tests.sse_client import SSEReader
from tests.test_web_durability import HOST, free_port, serve
from web.store import RepeatedActionError, StaleWriteError, Store, Table, TokenError

DEAL = {"type": "new-hand", "dealer": "ann"}


def correction(points: int) -> dict[str, object]:
    return {"type": "correction", "target": "ann", "points": points, "reason": "test"}


@pytest.fixture
def two_stores(database_url: Callable[[str], str]) -> Iterator[tuple[Store, Store]]:
    url = database_url("postgresql")
    first, second = Store(url), Store(url)
    yield first, second
    first.close()
    second.close()


def wait_until(table: Table, done: Callable[[], bool], seconds: float = 10) -> bool:
    """Wait on the table's condition (as a live stream does) until ``done()``."""
    with table.cond:
        return table.cond.wait_for(done, seconds)


def setup() -> tables.Setup:
    return tables.setup_from_json({"players": ["ann", "bob"]})


def test_an_event_written_in_one_process_reaches_the_others_streams(
        two_stores: tuple[Store, Store]) -> None:
    first, second = two_stores
    table = first.create_table(setup())
    mirror = second.table(table.id)  # held by the second process, as an open page does
    seq, state = first.append(table, 0, DEAL, "keeper")
    assert wait_until(mirror, lambda: mirror.seq == seq)
    assert mirror.state_json() == state
    assert [s for s, _ in second.messages_after(mirror, 0)] == [1]
    # and back the other way, building on what arrived
    second.append(mirror, 1, correction(5), "keeper")
    assert wait_until(table, lambda: table.seq == 2)
    assert table.state_json() == mirror.state_json()


def test_a_stale_write_in_another_process_is_refused_with_the_current_state(
        two_stores: tuple[Store, Store]) -> None:
    first, second = two_stores
    table = first.create_table(setup())
    mirror = second.table(table.id)
    first.append(table, 0, DEAL, "keeper")
    # the second process writes on update 0 whether or not the note has arrived yet
    with pytest.raises(StaleWriteError) as refused:
        second.append(mirror, 0, DEAL, "keeper")
    assert refused.value.seq == 1 and refused.value.state == table.state_json()
    assert [e["seq"] for e in first.events(table)] == [1]


def test_a_repeated_action_id_in_another_process_is_answered_not_stored(
        two_stores: tuple[Store, Store]) -> None:
    first, second = two_stores
    table = first.create_table(setup())
    mirror = second.table(table.id)
    first.append(table, 0, DEAL, "keeper", action_id="deal-once-01")
    with pytest.raises(RepeatedActionError) as repeat:
        second.append(mirror, 0, DEAL, "keeper", action_id="deal-once-01")
    assert repeat.value.seq == 1
    assert len(second.events(mirror)) == 1


def test_racing_writers_in_two_processes_store_each_update_once(
        two_stores: tuple[Store, Store]) -> None:
    first, second = two_stores
    table = first.create_table(setup())
    mirror = second.table(table.id)
    stored: list[int] = []

    def write(store: Store, held: Table) -> None:
        for _ in range(25):
            with contextlib.suppress(StaleWriteError):  # the other process got there first
                stored.append(store.append(held, held.seq, correction(1), "keeper")[0])

    threads = [threading.Thread(target=write, args=pair)
               for pair in ((first, table), (second, mirror))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    log = [e["seq"] for e in first.events(table)]
    assert sorted(stored) == log == list(range(1, len(log) + 1))
    assert wait_until(mirror, lambda: mirror.seq == len(log))
    assert wait_until(table, lambda: table.seq == len(log))
    assert mirror.state_json() == table.state_json()


def test_seat_changes_and_proposals_reach_the_other_process(
        two_stores: tuple[Store, Store]) -> None:
    first, second = two_stores
    table = first.create_table(setup())
    mirror = second.table(table.id)
    old_token = mirror.seats["bob"]
    version = mirror.meta_version
    first.free_seat(table, "bob")
    assert wait_until(mirror, lambda: mirror.meta_version > version)
    with pytest.raises(TokenError, match="freed or handed on bob's seat"):
        second.role(mirror, old_token)
    assert second.role(mirror, table.seats["bob"]).player == "bob"
    version = mirror.meta_version
    first.propose(table, "bob", "event", correction(3))
    assert wait_until(mirror, lambda: mirror.meta_version > version)
    assert [p["player"] for p in second.meta(mirror)["proposals"]] == ["bob"]


def test_workers_over_sqlite_are_refused_with_the_reason(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "serve", "--workers", "2", "--database",
         str(tmp_path / "one.sqlite")], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "--workers 2 needs PostgreSQL: a SQLite file is served by one process" in result.stderr
    assert not (tmp_path / "one.sqlite").exists()  # nothing was created


def test_two_worker_processes_send_a_write_to_every_open_stream(
        database_url: Callable[[str], str]) -> None:
    port = free_port()
    url = f"http://{HOST}:{port}"
    server = serve(database_url("postgresql"), port, workers=2)
    readers: list[SSEReader] = []
    try:
        table = requests.post(f"{url}/api/tables", json={"players": ["ann", "bob"]},
                              timeout=10).json()
        stream = f"{url}/api/tables/{table['table_id']}/stream?token={table['display_token']}"
        readers = [SSEReader(stream) for _ in range(8)]  # new connections: spread by the kernel
        for reader in readers:
            assert reader.next(timeout=10).data["seq"] == 0
        for seq in (1, 2):
            event = DEAL if seq == 1 else correction(4)
            reply = requests.post(f"{url}/api/tables/{table['table_id']}/events", timeout=10,
                                  headers={"Authorization": f"Bearer {table['keeper_token']}",
                                           "Connection": "close"},  # each on a new connection
                                  json={"base_seq": seq - 1, "event": event})
            assert reply.status_code == 201, reply.text
            for reader in readers:
                assert reader.next(timeout=10).data["seq"] == seq
    finally:
        for reader in readers:
            reader.close()
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(20)
