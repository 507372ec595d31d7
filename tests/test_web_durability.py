"""Nothing acknowledged is lost: SIGKILL the real server (``scorekeeper serve``, one process on
SQLite or PostgreSQL, two processes on PostgreSQL) in the middle of a load of writes, restart it
on the same database, and find every acknowledged event.

On SQLite the log is written in WAL mode with ``synchronous=FULL`` inside ``BEGIN IMMEDIATE``;
on PostgreSQL each COMMIT waits for its WAL flush (``synchronous_commit=on``). Either way the
201 is sent only after COMMIT returned, so the row is on disk before the keeper hears back.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import requests

HOST = "127.0.0.1"
ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def serve(database: Path | str, port: int, workers: int = 1,
          env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """``scorekeeper serve`` in its own process group (a SIGKILL to the group takes its
    workers too), once it listens."""
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper", "serve", "--host", HOST, "--port", str(port),
         "--database", str(database), "--workers", str(workers)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
        env=None if env is None else {**os.environ, **env},
    )
    listening(process, port, 20)
    return process


def listening(process: subprocess.Popen[str], port: int, seconds: float) -> None:
    """Return once ``process`` answers HTTP on ``port``; kill it and fail if it exits first or
    does not within ``seconds``. A TCP accept alone is not enough: after a SIGKILL, a dying
    worker's socket may still accept a connection for a moment, and then reset it."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if requests.get(f"http://{HOST}:{port}/api/games", timeout=1).ok:
                return
        except requests.RequestException:
            pass
        if process.poll() is not None:
            output = process.stdout.read() if process.stdout else ""
            raise AssertionError(f"serve exited: {output}")
        time.sleep(0.05)
    process.kill()
    raise AssertionError(f"serve did not start listening within {seconds:g} s")


def group_gone(group: int, seconds: float) -> None:
    """Return once no process of process group ``group`` is alive (zombies waiting to be
    reaped count as gone), or after ``seconds``. A worker killed in the middle of a write may
    outlive the process that leads its group for a moment, and while it lives its socket
    shares the port (SO_REUSEPORT) with a server started again on it: the kernel may hand a
    new connection to that socket, which is reset when the worker dies."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        alive = False
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                # After the command's closing parenthesis: state, parent, process group.
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == group and fields[0] != "Z":
                alive = True
                break
        if not alive:
            return
        time.sleep(0.05)


def writer(url: str, table: dict[str, Any], acked: list[tuple[int, str]],
           stop: threading.Event) -> None:
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {table['keeper_token']}"
    seq = 1
    while not stop.is_set():
        reason = f"{table['table_id']}-{seq}"
        try:
            reply = session.post(f"{url}/api/tables/{table['table_id']}/events", timeout=5,
                                 json={"base_seq": seq, "event": {
                                     "type": "correction", "target": "ann",
                                     "points": 1 if seq % 2 else -1, "reason": reason}})
        except requests.RequestException:
            return  # the server is gone
        if reply.status_code != 201:
            return
        seq = reply.json()["seq"]
        acked.append((seq, reason))


@pytest.mark.parametrize(("kind", "workers"), [("sqlite", 1), ("postgresql", 1),
                                              ("postgresql", 2)])
def test_sigkill_during_writes_loses_no_acknowledged_event(
        kind: str, workers: int, database_url: Callable[[str], str]) -> None:
    database = database_url(kind)
    port = free_port()
    url = f"http://{HOST}:{port}"
    server = serve(database, port, workers)
    try:
        tables = []
        for _ in range(3):
            table = requests.post(f"{url}/api/tables", json={"players": ["ann", "bob"]},
                                  timeout=5).json()
            requests.post(f"{url}/api/tables/{table['table_id']}/events", timeout=5,
                          headers={"Authorization": f"Bearer {table['keeper_token']}"},
                          json={"base_seq": 0, "event": {"type": "new-hand", "dealer": "ann"}})
            tables.append(table)
        acked: dict[str, list[tuple[int, str]]] = {t["table_id"]: [] for t in tables}
        stop = threading.Event()
        threads = [threading.Thread(target=writer, args=(url, t, acked[t["table_id"]], stop))
                   for t in tables]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 20
        while sum(len(a) for a in acked.values()) < 150 and time.monotonic() < deadline:
            time.sleep(0.01)
        os.killpg(server.pid, signal.SIGKILL)  # in the middle of the writes, every process
        server.wait(10)
        stop.set()
        for thread in threads:
            thread.join(10)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(10)
    total = sum(len(a) for a in acked.values())
    assert total >= 150, "the writers should have been acknowledged before the kill"

    group_gone(server.pid, 10)
    server = serve(database, port)  # restart on the same file
    try:
        for table in tables:
            headers = {"Authorization": f"Bearer {table['keeper_token']}"}
            log = requests.get(f"{url}/api/tables/{table['table_id']}/events", headers=headers,
                               timeout=5).json()["events"]
            stored = {e["seq"]: e["event"].get("reason") for e in log}
            for seq, reason in acked[table["table_id"]]:
                assert stored.get(seq) == reason, f"acknowledged event {seq} was lost"
            assert sorted(stored) == list(range(1, len(stored) + 1))  # no gap in the log
            state = requests.get(f"{url}/api/tables/{table['table_id']}/state", headers=headers,
                                 timeout=5).json()
            assert state["seq"] == len(stored)
            assert state["state"]["events_applied"] == len(stored)
    finally:
        server.terminate()
        server.wait(10)


def test_serve_prints_the_lan_url_and_a_qr_code(tmp_path: Path) -> None:
    port = free_port()
    server = serve(tmp_path / "x.sqlite", port)
    try:
        assert server.stdout is not None
        first = server.stdout.readline()  # printed once the server is listening
        server.terminate()
        # Read the rest through the same buffered reader: communicate() would read the pipe
        # underneath it and miss what readline() already buffered.
        output = first + server.stdout.read()
        server.wait(10)
    finally:
        if server.poll() is None:
            server.kill()
    assert f"http://{HOST}:{port}/" in output
    assert "\u2588" in output or "\u2580" in output or "\u2584" in output  # the QR blocks
    assert server.returncode == 0


def test_serve_makes_the_built_in_deck_profile_before_the_first_photo(tmp_path: Path) -> None:
    # Learning it takes seconds (far longer on a Raspberry Pi): the first photo of a table
    # without a deck of its own must not wait for it. It is cached as a file once made.
    cache = tmp_path / "cache"
    server = serve(tmp_path / "x.sqlite", free_port(), env={"XDG_CACHE_HOME": str(cache)})
    try:
        deadline = time.monotonic() + 60
        while not list(cache.glob("scorekeeper/reference-*.npz")) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert list(cache.glob("scorekeeper/reference-*.npz")), "no profile made within 60 s"
        assert server.stdout is not None
        server.stdout.readline()  # printed once the server is listening
    finally:
        server.terminate()
        server.wait(10)


def test_a_worker_leaves_the_built_in_profile_to_the_process_that_started_it(
        tmp_path: Path) -> None:
    # The parent of ``--workers`` makes the profile before it starts them; a worker reading it
    # again as it starts was still without its signal handlers a second after another worker
    # was serving, and a stop then killed it outright.
    cache = tmp_path / "cache"
    port = free_port()
    worker = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper", "serve", "--host", HOST, "--port", str(port),
         "--database", str(tmp_path / "x.sqlite"), "--worker-of", str(os.getpid())],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
        env={**os.environ, "XDG_CACHE_HOME": str(cache)})
    try:
        listening(worker, port, 30)
        assert not list(cache.glob("scorekeeper/reference-*.npz"))
    finally:
        worker.terminate()
        worker.wait(20)


def test_serve_stopped_while_it_makes_the_built_in_profile_stops_cleanly(tmp_path: Path) -> None:
    # Made on a thread beside the server, the profile held the stop past its grace time, and
    # OpenCV aborted the process ("terminate called without an active exception") when the
    # interpreter shut down under that thread.
    server = serve(tmp_path / "x.sqlite", free_port(),
                   env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert server.stdout is not None
    first = server.stdout.readline()  # printed once the server is listening
    server.terminate()
    output = first + server.stdout.read()
    server.wait(10)
    assert server.returncode == 0, output
    assert "Toss Scorekeeper stopped." in output


_STOP_BEFORE_READY = """
import os, signal, sys, time
import web.server
made = web.server.make_server

def make_server(*args, **kwargs):
    server = made(*args, **kwargs)
    prepare = server.prepare

    def stopped_first():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(1.0)  # the stop has run before the socket is bound
        prepare()

    server.prepare = stopped_first
    return server

web.server.make_server = make_server
from scorekeeper.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_stop_that_comes_before_the_server_is_ready_stops_it_at_once(tmp_path: Path) -> None:
    # A worker stopped while it binds its port (its signal handlers already set) found nothing
    # to stop, then served until the grace time ran out and it exited as if a request hung.
    done = subprocess.run(
        [sys.executable, "-c", _STOP_BEFORE_READY, "serve", "--host", HOST, "--port",
         str(free_port()), "--database", str(tmp_path / "x.sqlite")],
        capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    output = done.stdout + done.stderr
    assert "still running" not in output, output
    assert "Toss Scorekeeper stopped." in output, output
    assert done.returncode == 0, output
