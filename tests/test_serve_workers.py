"""Serving from several processes: ``serve --workers N --board`` drives the board from one
process only (one serial port, one process), and the documented gunicorn command line (the
app factory ``web:create_app()``, 2 workers on PostgreSQL) sends a write made through one
worker to the live pages of both."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import requests

from tests.sse_client import SSEReader
from tests.test_web_durability import HOST, ROOT, free_port, listening

DEAL = {"type": "new-hand", "dealer": "ann"}


def stop(process: subprocess.Popen[str]) -> str:
    os.killpg(process.pid, signal.SIGTERM)
    output, _ = process.communicate(timeout=40)
    return output


def test_the_board_is_driven_by_one_worker_only(database_url: Callable[[str], str]) -> None:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper", "serve", "--host", HOST, "--port", str(port),
         "--database", database_url("postgresql"), "--workers", "2", "--board", "sim"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        listening(process, port, 60)
        time.sleep(1.0)  # both workers have started their hooks
        table = requests.post(f"http://{HOST}:{port}/api/tables",
                              json={"players": ["ann", "bob"]}, timeout=10).json()
        assert table["table_id"]
    finally:
        output = stop(process)
    assert "driven by the first of the 2 processes" in output
    assert output.count("board: simulated board on ") == 1, output
    assert "no LED board link is installed" not in output
    assert "LED board link failed" not in output


def children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as listing:
        return [int(child) for child in listing.read().split()]


def catches_sigterm(pid: int) -> bool:
    """Whether the process has its own SIGTERM handler (without one, a SIGTERM kills it
    even while it is stopped)."""
    status = Path(f"/proc/{pid}/status").read_text()
    caught = int(next(line for line in status.splitlines()
                      if line.startswith("SigCgt:")).split()[1], 16)
    return bool(caught & (1 << (signal.SIGTERM - 1)))


def wait_for_handlers(pids: list[int]) -> None:
    # the port answers once one worker listens; the other may still be starting
    deadline = time.monotonic() + 60
    while not all(catches_sigterm(pid) for pid in pids):
        assert time.monotonic() < deadline, "the workers did not set their handlers in 60 s"
        time.sleep(0.05)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")
def test_a_worker_that_hangs_does_not_keep_the_server_from_stopping(
        database_url: Callable[[str], str]) -> None:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper", "serve", "--host", HOST, "--port", str(port),
         "--database", database_url("postgresql"), "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        listening(process, port, 60)
        workers = children(process.pid)
        assert len(workers) == 2
        wait_for_handlers(workers)
        os.kill(workers[0], signal.SIGSTOP)  # hung: it never answers the stop
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert f"worker {workers[0]} did not stop: killing it" in output, output
    assert "Toss Scorekeeper stopped." in output, output
    for worker in workers:  # the server reaps each worker before it exits
        assert not Path(f"/proc/{worker}").exists(), f"worker {worker} is still running"


def gunicorn_available() -> bool:
    try:
        import gunicorn  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.skipif(not gunicorn_available(), reason="gunicorn is not installed (dev extra)")
def test_gunicorn_with_two_workers_serves_a_live_update_across_them(
        database_url: Callable[[str], str]) -> None:
    port = free_port()
    url = f"http://{HOST}:{port}"
    # the command line of the README, on the test's PostgreSQL
    environ = {**os.environ, "PYTHONPATH": str(ROOT),
               "SCOREKEEPER_DATABASE_URL": database_url("postgresql")}
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-w", "2", "-k", "gthread", "--threads", "20",
         "--graceful-timeout", "5", "-b", f"{HOST}:{port}", "web:create_app()"],
        cwd=ROOT, env=environ,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    readers: list[SSEReader] = []
    try:
        listening(process, port, 60)
        table = requests.post(f"{url}/api/tables", json={"players": ["ann", "bob"]},
                              timeout=10).json()
        stream = f"{url}/api/tables/{table['table_id']}/stream?token={table['display_token']}"
        readers = [SSEReader(stream) for _ in range(8)]  # new connections: either worker
        for reader in readers:
            assert reader.next(timeout=10).data["seq"] == 0
        for seq in (1, 2):
            event = DEAL if seq == 1 else {"type": "correction", "target": "ann",
                                           "points": 3, "reason": "test"}
            reply = requests.post(f"{url}/api/tables/{table['table_id']}/events", timeout=10,
                                  headers={"Authorization": f"Bearer {table['keeper_token']}",
                                           "Connection": "close"},
                                  json={"base_seq": seq - 1, "event": event})
            assert reply.status_code == 201, reply.text
            for reader in readers:
                assert reader.next(timeout=10).data["seq"] == seq
        workers = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
        assert len(workers) == 2  # gunicorn's master and its two workers
    finally:
        for reader in readers:
            reader.close()
        stop(process)
