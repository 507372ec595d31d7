"""Load benchmark of the live scorekeeper: N open Server-Sent-Event clients, 1,000 events.

Starts the real server (``scorekeeper serve``, cheroot) on 127.0.0.1 in a subprocess with a
temporary SQLite file, then for each client count: opens the streams, posts the events one
after another as fast as the server acknowledges them (each names the sequence number it is
based on), and records when every client receives every event. Prints the delivery latency
(from sending the write to the client's receipt) at p50/p99/max and the committed events per
second. Bounded: loopback only, at most 400 clients, 5,000 events, 120 s per run.

    python bench/load_bench.py                 # 50 and 200 clients, 1,000 events each
    python bench/load_bench.py --clients 200 --events 1000 --rate 200
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HOST = "127.0.0.1"
MAX_CLIENTS = 400
MAX_EVENTS = 5000
RUN_TIMEOUT = 120.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def start_server(database: Path, port: int, threads: int,
                 synchronous: str) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "scorekeeper", "serve", "--host", HOST, "--port", str(port),
               "--database", str(database), "--threads", str(threads)]
    env = {**os.environ, "SCOREKEEPER_SYNCHRONOUS": synchronous}
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                              env=env)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection((HOST, port), timeout=0.5).close()
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("the server did not start")


async def request(port: int, method: str, path: str, body: object | None = None,
                  token: str | None = None) -> tuple[int, dict[str, object]]:
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        return await exchange(reader, writer, method, path, body, token, keep_alive=False)
    finally:
        writer.close()


async def exchange(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, method: str,
                   path: str, body: object | None, token: str | None,
                   keep_alive: bool = True) -> tuple[int, dict[str, object]]:
    data = json.dumps(body).encode() if body is not None else b""
    head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}", f"Content-Length: {len(data)}",
            "Content-Type: application/json",
            f"Connection: {'keep-alive' if keep_alive else 'close'}"]
    if token:
        head.append(f"Authorization: Bearer {token}")
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
    await writer.drain()
    status_line = await reader.readline()
    length = 0
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b""):
            break
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    payload = await reader.readexactly(length) if length else b"{}"
    return int(status_line.split()[1]), json.loads(payload)


class Client:
    """One live page: an SSE stream read with HTTP/1.0 (unchunked)."""

    def __init__(self) -> None:
        self.received: dict[int, float] = {}
        self.ready = asyncio.Event()
        self.last = -1

    async def run(self, port: int, table: str, token: str, until: int) -> None:
        reader, writer = await asyncio.open_connection(HOST, port)
        writer.write(f"GET /api/tables/{table}/stream?token={token} HTTP/1.0\r\n"
                     f"Host: {HOST}\r\n\r\n".encode())
        await writer.drain()
        buffer = b""
        try:
            while self.last < until:
                chunk = await reader.read(262144)
                if not chunk:
                    return
                now = time.monotonic()
                buffer += chunk
                *blocks, buffer = buffer.split(b"\n\n")
                for block in blocks:
                    start = block.find(b"id: ")
                    if start < 0 or b"event: state" not in block:
                        continue
                    end = block.find(b"\n", start)
                    seq = int(block[start + 4:end])
                    self.received[seq] = now
                    self.last = max(self.last, seq)
                    self.ready.set()
        finally:
            writer.close()


async def keeper_writes(port: int, table: str, keeper: str, events: int,
                        rate: float | None) -> dict[int, float]:
    """Post the deal, then corrections alternating +1/-1 (so no game ends during the run),
    one after another, each based on the previous one's sequence number."""
    plan: list[dict[str, object]] = [{"type": "new-hand", "dealer": "ann"}]
    for i in range(events - 1):
        plan.append({"type": "correction", "target": ["ann", "bob", "cy", "dee"][i % 4],
                     "points": 1 if i % 2 == 0 else -1, "reason": f"load {i}"})
    reader, writer = await asyncio.open_connection(HOST, port)
    sent: dict[int, float] = {}
    started = time.monotonic()
    for i, event in enumerate(plan):
        if rate:
            await asyncio.sleep(max(0.0, started + i / rate - time.monotonic()))
        sent[i + 1] = time.monotonic()
        status, reply = await exchange(reader, writer, "POST", f"/api/tables/{table}/events",
                                       {"base_seq": i, "event": event}, keeper)
        if status != 201:
            raise RuntimeError(f"event {i + 1} got {status}: {reply}")
    writer.close()
    return sent


async def run(port: int, clients: int, events: int, rate: float | None,
              tables: int) -> dict[str, float]:
    """``clients`` streams spread over ``tables`` tables; each table's keeper posts its share
    of ``events`` (the keepers of different tables write at the same time)."""
    boards = []
    for _ in range(tables):
        status, created = await request(port, "POST", "/api/tables",
                                        {"players": ["ann", "bob", "cy", "dee"]})
        assert status == 201, created
        boards.append(created)
    share = events // tables
    pages: list[tuple[int, Client]] = [(i % tables, Client()) for i in range(clients)]
    tasks = [asyncio.create_task(c.run(port, str(boards[t]["table_id"]),
                                       str(boards[t]["display_token"]), share))
             for t, c in pages]
    await asyncio.wait_for(asyncio.gather(*(c.ready.wait() for _, c in pages)), 30)
    started = time.monotonic()
    sent = await asyncio.gather(*(
        keeper_writes(port, str(b["table_id"]), str(b["keeper_token"]), share,
                      rate / tables if rate else None) for b in boards))
    committed = time.monotonic() - started
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*tasks), RUN_TIMEOUT)
    delays = [(c.received[s] - sent[t][s]) * 1000
              for t, c in pages for s in sent[t] if s in c.received]
    missing = clients * share - len(delays)
    delays.sort()
    return {"clients": clients, "events": share * tables,
            "events_per_s": share * tables / committed,
            "p50": statistics.median(delays), "p99": delays[int(len(delays) * 0.99) - 1],
            "max": delays[-1], "missing": missing}


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=None,
                        help="events per second to post (default: as fast as acknowledged)")
    parser.add_argument("--tables", type=int, default=1,
                        help="spread the clients over this many tables, each with its keeper")
    parser.add_argument("--threads", type=int, default=400, help="server worker threads")
    parser.add_argument("--synchronous", default="FULL", choices=["FULL", "NORMAL"],
                        help="SQLite synchronous mode of the server (default FULL)")
    args = parser.parse_args()
    if max(args.clients) > MAX_CLIENTS or args.events > MAX_EVENTS:
        parser.error(f"at most {MAX_CLIENTS} clients and {MAX_EVENTS} events")
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = start_server(Path(tmp) / "bench.sqlite", port, args.threads, args.synchronous)
        try:
            print(f"server: scorekeeper serve (cheroot, {args.threads} threads) on "
                  f"{HOST}:{port}, SQLite WAL synchronous={args.synchronous}, "
                  f"{os.cpu_count()} CPUs")
            for n in args.clients:
                server_cpu, own_cpu = cpu_seconds(server.pid), time.process_time()
                result = asyncio.run(run(port, n, args.events, args.rate, args.tables))
                server_cpu = cpu_seconds(server.pid) - server_cpu
                own_cpu = time.process_time() - own_cpu
                print(f"{n:4d} clients on {args.tables} table(s), {result['events']:.0f} events: "
                      f"delivery p50 {result['p50']:.1f} ms, p99 {result['p99']:.1f} ms, "
                      f"max {result['max']:.1f} ms; committed {result['events_per_s']:.0f} "
                      f"events/s; missing deliveries {result['missing']:.0f}; CPU s: server "
                      f"{server_cpu:.1f}, bench clients {own_cpu:.1f}", flush=True)
        finally:
            server.terminate()
            server.wait(10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
