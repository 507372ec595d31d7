"""Club-night benchmark: 30 tables of 6 live pages plus 3 room displays, on PostgreSQL with 2
server processes against SQLite with 1, in the same run.

For each database it starts the real server (``scorekeeper serve``; ``--workers 2`` on
PostgreSQL, so the pages of one table sit on both processes and every write crosses to the
other process through LISTEN/NOTIFY), creates the tables, opens 6 Server-Sent-Event streams per
table and the room displays, then every table's keeper posts its events at the same time, each
based on the previous one's sequence number. It prints the delivery latency (from sending the
write to a page's receipt) at p50/p99/max, the committed events per second and the CPU seconds
of the server processes (and of PostgreSQL's own).

Until the club's room display page exists, each room display is stood in for by one more
stream on one table each (tables 1-3): 183 streams in all.

PostgreSQL is a private server started for the run (Debian's ``postgresql`` package, as the
tests do: tests/pgserver.py), or ``--postgres URL``. Bounded: loopback only, 120 s per run.

    python bench/club_bench.py                       # 30 tables x 6 pages + 3, 40 events each
    python bench/club_bench.py --tables 30 --events 40 --rate 4
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.load_bench import (  # noqa: E402
    HOST,
    RUN_TIMEOUT,
    Client,
    cpu_seconds,
    free_port,
    keeper_writes,
    request,
)

PLAYERS = ["ann", "bob", "cy", "dee", "eve", "fay"]
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


async def club(port: int, tables: int, pages: int, events: int,
               rate: float | None) -> dict[str, float]:
    """``tables`` tables with ``pages`` streams each plus the room displays; every keeper
    posts ``events`` at once with the others."""
    boards = []
    for _ in range(tables):
        status, created = await request(port, "POST", "/api/tables", {"players": PLAYERS})
        assert status == 201, created
        boards.append(created)
    streams = [(t, Client()) for t in range(tables) for _ in range(pages)]
    streams += [(t % tables, Client()) for t in range(ROOM_DISPLAYS)]
    tasks = [asyncio.create_task(c.run(port, str(boards[t]["table_id"]),
                                       str(boards[t]["display_token"]), events))
             for t, c in streams]
    await asyncio.wait_for(asyncio.gather(*(c.ready.wait() for _, c in streams)), 60)
    started = time.monotonic()
    sent = await asyncio.gather(*(
        keeper_writes(port, str(b["table_id"]), str(b["keeper_token"]), events, rate)
        for b in boards))
    committed = time.monotonic() - started
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*tasks), RUN_TIMEOUT)
    delays = sorted((c.received[s] - sent[t][s]) * 1000
                    for t, c in streams for s in sent[t] if s in c.received)
    return {"streams": len(streams), "events": events * tables,
            "events_per_s": events * tables / committed,
            "p50": statistics.median(delays), "p99": delays[int(len(delays) * 0.99) - 1],
            "max": delays[-1], "missing": len(streams) * events - len(delays)}


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
              f"{result['max']:.1f} ms; committed {result['events_per_s']:.0f} events/s; "
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
    print(f"{args.tables} tables x {args.pages} pages + {ROOM_DISPLAYS} room displays (stand-in "
          f"streams), {args.events} events per table at "
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
