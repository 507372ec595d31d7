"""Club-night benchmark: a real club night of 30 tables of 6 players, each table with 6 live
pages, and 3 room displays, on PostgreSQL with 2 server processes against SQLite with 1, in
the same run.

For each database it starts the real server (``scorekeeper serve``; ``--workers 2`` on
PostgreSQL, so the pages of one table sit on both processes and every write crosses to the
other process through LISTEN/NOTIFY), creates a club night, checks its players in, seats round
1 and starts it, so the night's 30 tables are the tables played. It opens 6 Server-Sent-Event
streams per table and the night's 3 room-display streams (``/api/club/events/<id>/stream``),
then every table's keeper posts its events at the same time, each based on the previous one's
sequence number. It prints the delivery latency (from sending the write to a page's receipt;
for a room display, to the first room message showing that table at that update or later) at
p50/p99/max, for the pages and the room displays together and for the room displays alone, the
committed events per second and the CPU seconds of the server processes (and of PostgreSQL's
own).

PostgreSQL is a private server started for the run (Debian's ``postgresql`` package, as the
tests do: tests/pgserver.py), or ``--postgres URL``. Bounded: loopback only, 120 s per run.

    python bench/club_bench.py                       # 30 tables x 6 pages + 3, 40 events each
    python bench/club_bench.py --tables 30 --events 40 --rate 4
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.load_bench import (  # noqa: E402
    HOST,
    RUN_TIMEOUT,
    Client,
    cpu_seconds,
    exchange,
    free_port,
    request,
)
from web.club import ROOM_MIN_SECONDS  # noqa: E402

SEATS = 6
ROOM_DISPLAYS = 3


def start_server(database: str, port: int, workers: int, threads: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "scorekeeper", "serve", "--host", HOST, "--port", str(port),
               "--database", database, "--threads", str(threads), "--workers", str(workers)]
    log = open(os.environ.get("CLUB_BENCH_SERVER_LOG", os.devnull), "ab")  # noqa: SIM115
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                              start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            __import__("socket").create_connection((HOST, port), timeout=0.5).close()
            time.sleep(1.0 if workers > 1 else 0)  # every worker has bound the port
            return server
        time.sleep(0.1)
    server.kill()
    raise RuntimeError("the server did not start")


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (Linux /proc)."""
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        with contextlib.suppress(OSError):
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
            todo.extend(int(c) for c in children)
    return out


def tree_cpu(root: int | None) -> dict[int, float]:
    """CPU seconds so far of ``root`` and each of its descendants, by pid."""
    out: dict[int, float] = {}
    for pid in process_tree(root) if root else []:
        with contextlib.suppress(OSError):
            out[pid] = cpu_seconds(pid)
    return out


def used(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds used between two readings (a process started meanwhile counts whole)."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


class RoomDisplay:
    """One room display: the night's room stream, read with HTTP/1.0 (unchunked). Records
    when each table's update first shows (a room message carries each table's ``seq``)."""

    def __init__(self) -> None:
        self.received: dict[tuple[str, int], float] = {}
        self.ready = asyncio.Event()
        self.shown: dict[str, int] = {}

    async def run(self, port: int, event_id: str, until: dict[str, int]) -> None:
        reader, writer = await asyncio.open_connection(HOST, port)
        writer.write(f"GET /api/club/events/{event_id}/stream HTTP/1.0\r\n"
                     f"Host: {HOST}\r\n\r\n".encode())
        await writer.drain()
        buffer = b""
        try:
            while any(self.shown.get(t, 0) < n for t, n in until.items()):
                chunk = await reader.read(262144)
                if not chunk:
                    return
                now = time.monotonic()
                buffer += chunk
                *blocks, buffer = buffer.split(b"\n\n")
                for block in blocks:
                    if not block.startswith(b"event: room"):
                        continue
                    self.record(json.loads(block.split(b"data: ", 1)[1]), now)
        finally:
            writer.close()

    def record(self, room: dict[str, Any], now: float) -> None:
        for table in room["tables"]:
            table_id, seq = str(table["table_id"]), int(table["seq"])
            for shown in range(self.shown.get(table_id, 0) + 1, seq + 1):
                self.received[(table_id, shown)] = now
            self.shown[table_id] = max(seq, self.shown.get(table_id, 0))
        self.ready.set()


async def club_night(port: int, tables: int) -> tuple[str, list[dict[str, Any]]]:
    """A club night with ``tables`` full tables: created, its players checked in, round 1
    seated and started. Returns its id and its tables (with each keeper's token)."""
    status, created = await request(port, "POST", "/api/club/events", {
        "name": "Benchmark night", "game": "complex-toss-rummy", "rounds": 1,
        "seats": SEATS})
    assert status == 201, created
    event_id, token = str(created["event_id"]), str(created["organiser_token"])
    for n in range(tables * SEATS):
        status, reply = await request(port, "POST", f"/api/club/events/{event_id}/checkins",
                                      {"name": f"Player {n + 1:03d}"}, token)
        assert status == 201, reply
    for path in ("rounds", "rounds/1/start"):
        status, reply = await request(port, "POST", f"/api/club/events/{event_id}/{path}",
                                      None, token)
        assert status in (200, 201), reply
    status, view = await request(port, "GET", f"/api/club/events/{event_id}", None, token)
    assert status == 200, view
    night_tables: list[dict[str, Any]] = view["tables"]  # type: ignore[assignment]
    assert len(night_tables) == tables and all(t["table_id"] for t in night_tables)
    return event_id, night_tables


async def keeper_writes(port: int, table: dict[str, Any], events: int,
                        rate: float | None) -> dict[int, float]:
    """The table's keeper posts the deal, then corrections alternating +1/-1 (no game ends
    during the run), one after another, each based on the previous one's sequence number."""
    players = [p["name"] for p in table["players"]]
    plan: list[dict[str, object]] = [{"type": "new-hand", "dealer": players[-1]}]
    for i in range(events - 1):
        plan.append({"type": "correction", "target": players[i % len(players)],
                     "points": 1 if i % 2 == 0 else -1, "reason": f"load {i}"})
    reader, writer = await asyncio.open_connection(HOST, port)
    sent: dict[int, float] = {}
    started = time.monotonic()
    path = f"/api/tables/{table['table_id']}/events"
    for i, event in enumerate(plan):
        if rate:
            await asyncio.sleep(max(0.0, started + i / rate - time.monotonic()))
        sent[i + 1] = time.monotonic()
        status, reply = await exchange(reader, writer, "POST", path,
                                       {"base_seq": i, "event": event},
                                       str(table["keeper_token"]))
        if status != 201:
            raise RuntimeError(f"event {i + 1} got {status}: {reply}")
    writer.close()
    return sent


def percentiles(delays: list[float]) -> dict[str, float]:
    delays = sorted(delays)
    return {"p50": statistics.median(delays), "p99": delays[max(0, int(len(delays) * 0.99) - 1)],
            "max": delays[-1]}


async def club(port: int, tables: int, pages: int, events: int,
               rate: float | None) -> dict[str, float]:
    """A night of ``tables`` tables with ``pages`` streams each plus the room displays; every
    keeper posts ``events`` at once with the others."""
    event_id, boards = await club_night(port, tables)
    streams = [(t, Client()) for t in range(tables) for _ in range(pages)]
    tasks = [asyncio.create_task(c.run(port, str(boards[t]["table_id"]),
                                       str(boards[t]["display_token"]), events))
             for t, c in streams]
    until = {str(b["table_id"]): events for b in boards}
    rooms = [RoomDisplay() for _ in range(ROOM_DISPLAYS)]
    tasks += [asyncio.create_task(r.run(port, event_id, until)) for r in rooms]
    await asyncio.wait_for(asyncio.gather(*(c.ready.wait() for _, c in streams),
                                          *(r.ready.wait() for r in rooms)), 60)
    started = time.monotonic()
    sent = await asyncio.gather(*(keeper_writes(port, b, events, rate) for b in boards))
    committed = time.monotonic() - started
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*tasks), RUN_TIMEOUT)
    page_delays = [(c.received[s] - sent[t][s]) * 1000
                   for t, c in streams for s in sent[t] if s in c.received]
    room_delays = [(r.received[(str(b["table_id"]), s)] - sent[t][s]) * 1000
                   for r in rooms for t, b in enumerate(boards) for s in sent[t]
                   if (str(b["table_id"]), s) in r.received]
    every = percentiles(page_delays + room_delays)
    room = {f"room_{k}": v for k, v in percentiles(room_delays).items()}
    page = {f"page_{k}": v for k, v in percentiles(page_delays).items()}
    expected = (len(streams) + len(rooms) * tables) * events
    return {"streams": len(streams) + len(rooms), "events": events * tables,
            "events_per_s": events * tables / committed, **every, **page, **room,
            "missing": expected - len(page_delays) - len(room_delays)}


def measure(label: str, database: str, workers: int, args: argparse.Namespace,
            postmaster: int | None) -> None:
    port = free_port()
    server = start_server(database, port, workers, args.threads)
    try:
        before, pg_before = tree_cpu(server.pid), tree_cpu(postmaster)
        result = asyncio.run(club(port, args.tables, args.pages, args.events,
                                  args.rate or None))
        server_cpu = used(before, tree_cpu(server.pid))
        pg_cpu = used(pg_before, tree_cpu(postmaster))
        pg = f", PostgreSQL {pg_cpu:.1f}" if postmaster else ""
        print(f"{label}: {result['streams']:.0f} streams, {result['events']:.0f} events: "
              f"delivery p50 {result['p50']:.1f} ms, p99 {result['p99']:.1f} ms, max "
              f"{result['max']:.1f} ms (table pages: p50 {result['page_p50']:.1f} ms, p99 "
              f"{result['page_p99']:.1f} ms; room displays, at most {1 / ROOM_MIN_SECONDS:.0f} "
              f"updates a second: p50 {result['room_p50']:.1f} ms, p99 "
              f"{result['room_p99']:.1f} ms); committed {result['events_per_s']:.0f} events/s; "
              f"missing deliveries {result['missing']:.0f}; CPU s: server {server_cpu:.1f}{pg}",
              flush=True)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, 15)
        server.wait(20)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--pages", type=int, default=6, help="live pages per table")
    parser.add_argument("--events", type=int, default=40, help="events per table")
    parser.add_argument("--rate", type=float, default=4.0,
                        help="events per second per table (0: as fast as acknowledged)")
    parser.add_argument("--workers", type=int, default=2, help="processes on PostgreSQL")
    parser.add_argument("--threads", type=int, default=400, help="worker threads per process")
    parser.add_argument("--postgres", default=None, metavar="URL",
                        help="an empty PostgreSQL database (default: a private server)")
    args = parser.parse_args()
    if args.tables * args.pages > 400 or args.events > 1000:
        parser.error("at most 400 pages and 1000 events per table")
    print(f"a club night of {args.tables} tables x {SEATS} players, {args.pages} pages per "
          f"table + {ROOM_DISPLAYS} room displays, {args.events} events per table at "
          f"{args.rate or 'full'} events/s per table; {os.cpu_count()} CPUs")
    server = None
    url, postmaster = args.postgres, None
    if url is None:
        from tests import pgserver

        server = pgserver.start()
        url = server.create_database()
        postmaster = int((server.data / "postmaster.pid").read_text().split()[0])
    try:
        measure(f"PostgreSQL, {args.workers} processes", url, args.workers, args, postmaster)
        with tempfile.TemporaryDirectory() as tmp:
            measure("SQLite, 1 process", str(Path(tmp) / "club.sqlite"), 1, args, None)
    finally:
        if server is not None:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
