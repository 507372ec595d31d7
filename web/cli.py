"""``scorekeeper serve``: run the app for the table on the production server."""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from types import FrameType
from typing import Any

from scorekeeper.cli import Subparsers
from scorekeeper.pegboard import MAX_BOARDS
from web.board import DTR_CHOICES, start_boards
from web.qr import lan_address, qr_text

#: The ``serve`` options that set up the LED board (with ``--board`` itself), as they are named
#: in the parsed arguments.
BOARD_OPTIONS = ("board_mode", "board_layout", "board_table", "board_dtr")
#: How long a stopping server may take to finish its requests before it is ended anyway (a
#: write is acknowledged only once committed, so nothing acknowledged is lost).
STOP_GRACE_SECONDS = 10.0


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "serve", help="run the scorekeeper for the table (phones, tablet and display)",
        description="Serve the app on the local network; open the printed address or scan "
                    "the QR code.",
    )
    parser.add_argument("--host", default=None,
                        help="address to bind (default 0.0.0.0: every interface)")
    parser.add_argument("--port", type=int, default=None, help="TCP port (default 8000)")
    parser.add_argument("--database", default=None,
                        help="SQLite file (default: instance folder), or a postgresql:// "
                             "address (default: SCOREKEEPER_DATABASE_URL when set)")
    parser.add_argument("--threads", type=int, default=None,
                        help="worker threads = most open pages at once (default 400)")
    parser.add_argument("--workers", type=positive, default=1, metavar="N",
                        help="serve from N processes sharing the port (PostgreSQL only: live "
                             "updates reach every process through LISTEN/NOTIFY)")
    # one of --workers N processes: the parent's pid (set by the parent, not by people)
    parser.add_argument("--worker-of", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--board", default=None, metavar="PORT|auto|sim",
                        help="drive an LED peg board: a serial port, the first found (auto), "
                             "or the simulator (sim)")
    parser.add_argument("--board-mode", choices=("ours", "wled"), default=None,
                        help="the board's firmware: ours (default) or stock WLED")
    parser.add_argument("--board-layout", default=None, metavar="FILE",
                        help="layout file mapping holes to LEDs (default: the built-in layout "
                             f"for up to {MAX_BOARDS} boards, as in hardware/layout.json)")
    parser.add_argument("--board-table", default=None, metavar="TABLE_ID",
                        help="the table the board shows (default: the newest table)")
    parser.add_argument("--board-dtr", choices=DTR_CHOICES, default=None,
                        help="hold DTR and RTS up: auto (for native-USB boards, the default), "
                             "hold (always) or drop (never); as SCOREKEEPER_BOARD_DTR")
    parser.set_defaults(handler=serve)


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return value


class WorkersNeedPostgresError(ValueError):
    """``--workers`` above 1 over a SQLite file."""


def database_kind(database: str) -> str:
    """``sqlite`` or ``postgresql``, for a SQLite path or a database address."""
    from web.store.database import engine_url

    return engine_url(database).get_backend_name()


def check_workers(workers: int, database: str) -> None:
    if workers > 1 and database_kind(database) != "postgresql":
        raise WorkersNeedPostgresError(
            f"--workers {workers} needs PostgreSQL: a SQLite file is served by one process. "
            "Set SCOREKEEPER_DATABASE_URL=postgresql://USER@HOST/DATABASE (or --database "
            "postgresql://...), or leave out --workers")


def app_config(args: argparse.Namespace) -> dict[str, Any]:
    """The app's config from the command line (over the ``SCOREKEEPER_*`` variables)."""
    config: dict[str, Any] = {}
    if args.database:
        config["DATABASE"] = args.database
        config["DATABASE_URL"] = None  # the command line wins over the variable
    if args.host:
        config["HOST"] = args.host
    if args.port is not None:
        config["PORT"] = args.port
    if args.threads:
        config["THREADS"] = args.threads
    config["BOARD"] = args.board
    for key in BOARD_OPTIONS:
        if getattr(args, key):
            config[key.upper()] = getattr(args, key)
    return config


def serve(args: argparse.Namespace) -> int:
    from scorekeeper.vision import builtin_profile
    from web import create_app

    # The built-in deck profile is made (or read from its cache file) before the server listens,
    # not by the first photo of a table without a deck of its own: learning it takes seconds
    # (far longer on a Raspberry Pi), once per version. Made on a thread beside the server
    # instead, it held up the server's stop past its grace time, and OpenCV aborted the process
    # when the interpreter shut down under it. Workers read the parent's file at their first
    # photo: reading it as they start kept one from its signal handlers a second after another
    # was serving, and a stop then came before it could take one.
    if args.worker_of is None:
        builtin_profile()

    if args.workers > 1:
        return serve_workers(args)
    app = create_app(app_config(args))
    return serve_app(app, args, worker_of=args.worker_of)


def banner(host: str, port: int, database: str) -> None:
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    url = f"http://{shown}:{port}/"
    print(f"Toss Scorekeeper is serving on {url}  (database {database})")
    print("Open it on the keeper's tablet, or scan:")
    print(qr_text(url), flush=True)


def shown_database(database: str) -> str:
    """The database for the banner, without a password."""
    if "://" not in database:
        return database
    from web.store.database import engine_url

    return engine_url(database).render_as_string(hide_password=True)


def serve_app(app: Any, args: argparse.Namespace, worker_of: int | None = None) -> int:
    """Serve ``app`` until SIGTERM or SIGINT (or, for one of several workers, until the
    parent process is gone)."""
    from web.server import bound_port, make_server

    server = make_server(app, app.config["HOST"], int(app.config["PORT"]))
    server.reuse_port = worker_of is not None  # the workers share one port
    # every tablet and phone at every table may keep its connection open between writes
    # (cheroot closes idle ones beyond 10 by default, and the next write finds it gone)
    server.keep_alive_conn_limit = int(app.config["THREADS"])
    store = app.extensions["scorekeeper.store"]
    stopping = threading.Lock()  # held from the first stop on (shutdown may run twice at once)

    def stop_now() -> None:
        print(f"a request was still running {STOP_GRACE_SECONDS:g} s after the stop: "
              "stopping without it", file=sys.stderr, flush=True)
        os._exit(0)

    def shutdown() -> None:
        if stopping.acquire(blocking=False):
            timer = threading.Timer(STOP_GRACE_SECONDS, stop_now)
            timer.daemon = True  # a server that stops in time exits without waiting for it
            timer.start()
        store.stop_streams()
        reaper_stop = getattr(server, "reaper_stop", None)
        if reaper_stop is not None:
            reaper_stop.set()
        server.stop()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        threading.Thread(target=shutdown, name="shutdown").start()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    server.prepare()
    if worker_of is None:
        banner(app.config["HOST"], bound_port(server), shown_database(app.config["DATABASE"]))
    else:
        threading.Thread(target=follow_parent, args=(worker_of, shutdown), daemon=True,
                         name="follow-parent").start()
    if args.board:
        start_boards(app, args.board)

    try:
        # A stop that came before the server was ready found nothing to stop (cheroot's
        # stop() returns at once): serve() would run until the grace timer ended the process.
        if not stopping.locked():
            server.serve()
    finally:
        shutdown()
        store.close()
    if worker_of is None:
        print("Toss Scorekeeper stopped.", flush=True)
    return 0


def follow_parent(parent: int, shutdown: Any) -> None:
    """Stop this worker once the process that started it is gone (even killed)."""
    while os.getppid() == parent:
        time.sleep(0.5)
    shutdown()


def free_port(host: str) -> int:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def serve_workers(args: argparse.Namespace) -> int:
    """Start ``--workers`` processes that share the port (SO_REUSEPORT: the kernel spreads
    the connections) and stop them together."""
    from web import create_app
    from web.config import from_environment

    config = {**from_environment(), **app_config(args)}
    try:
        check_workers(args.workers, config.get("DATABASE_URL") or config.get("DATABASE") or "")
    except WorkersNeedPostgresError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    app = create_app(config)  # migrates the schema once, before the workers start
    database, host = app.config["DATABASE"], app.config["HOST"]
    app.extensions["scorekeeper.store"].close()
    port = int(app.config["PORT"]) or free_port(host)
    command = [sys.executable, "-m", "scorekeeper", "serve", "--host", host, "--port", str(port),
               "--worker-of", str(os.getpid())]
    if args.threads:
        command += ["--threads", str(args.threads)]
    # the address travels in the environment, not on the command line where ps shows it
    environ = {**os.environ, "SCOREKEEPER_DATABASE_URL": database}
    board = board_arguments(args)
    if board:
        print(f"the LED board (--board {args.board}) is driven by the first of the "
              f"{args.workers} processes: one serial port, one process", flush=True)
    workers = [subprocess.Popen(command + (board if n == 0 else []), env=environ)
               for n in range(args.workers)]
    stopping = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stopping.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    wait_for_port(host, port, workers)
    banner(host, port, f"{shown_database(database)}, {args.workers} processes")
    code = 0
    while not stopping.wait(0.2):
        ended = [w for w in workers if w.poll() is not None]
        if ended:
            code = ended[0].returncode or 1
            print(f"a worker stopped (exit {code}): stopping the others", file=sys.stderr)
            break
    for worker in workers:
        if worker.poll() is None:
            worker.terminate()
    for worker in workers:
        try:
            worker.wait(2 * STOP_GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            print(f"worker {worker.pid} did not stop: killing it", file=sys.stderr, flush=True)
            worker.kill()
            worker.wait()
    print("Toss Scorekeeper stopped.", flush=True)
    return code


def board_arguments(args: argparse.Namespace) -> list[str]:
    """The ``--board`` options for the one worker that drives the board (a serial port is
    opened by one process; the others' writes reach that one through the fan-out).

    >>> board_arguments(argparse.Namespace(board="sim", board_mode="wled", board_layout=None,
    ...                                    board_table=None, board_dtr="hold"))
    ['--board', 'sim', '--board-mode', 'wled', '--board-dtr', 'hold']
    """
    if not args.board:
        return []
    out = ["--board", args.board]
    for option in BOARD_OPTIONS:
        value = getattr(args, option)
        if value:
            out += ["--" + option.replace("_", "-"), str(value)]
    return out


def wait_for_port(host: str, port: int, workers: list[subprocess.Popen[bytes]]) -> None:
    """Return once the port accepts connections (or a worker has stopped)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and all(w.poll() is None for w in workers):
        try:
            socket.create_connection((host if host not in ("0.0.0.0", "::", "") else "127.0.0.1",
                                      port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
