"""``scorekeeper serve``: run the app for the table on the production server."""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
import threading
from types import FrameType
from typing import TYPE_CHECKING, Any

from web.qr import lan_address, qr_text

if TYPE_CHECKING:
    from flask import Flask

    from web import BoardHook


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve", help="run the scorekeeper for the table (phones, tablet and display)",
        description="Serve the app on the local network; open the printed address or scan "
                    "the QR code.",
    )
    parser.add_argument("--host", default=None,
                        help="address to bind (default 0.0.0.0: every interface)")
    parser.add_argument("--port", type=int, default=None, help="TCP port (default 8000)")
    parser.add_argument("--database", default=None, help="SQLite file (default: instance folder)")
    parser.add_argument("--threads", type=int, default=None,
                        help="worker threads = most open pages at once (default 400)")
    parser.add_argument("--board", default=None, metavar="PORT|auto|sim",
                        help="drive an LED peg board: a serial port, the first found (auto), "
                             "or the simulator (sim)")
    parser.add_argument("--board-mode", choices=("ours", "wled"), default=None,
                        help="the board's firmware: ours (default) or stock WLED")
    parser.add_argument("--board-layout", default=None, metavar="FILE",
                        help="layout file mapping holes to LEDs (default: the built-in layout "
                             "for up to six boards, as in hardware/layout.json)")
    parser.add_argument("--board-table", default=None, metavar="TABLE_ID",
                        help="the table the board shows (default: the newest table)")
    parser.set_defaults(handler=serve)


def start_board_hooks(app: Flask, spec: str) -> None:
    """Let the board link add its hooks, then start them; a failing board never stops the app."""
    try:
        bridge = importlib.import_module("firmware_bridge")
    except ImportError:
        bridge = None
    init_app = getattr(bridge, "init_app", None)
    if callable(init_app):
        init_app(app)
    hooks: list[BoardHook] = app.extensions["scorekeeper.board_hooks"]
    if not hooks:
        print(f"note: --board {spec}: no LED board link is installed", file=sys.stderr)
    for hook in hooks:
        try:
            hook(app, spec)
        except Exception as exc:  # the table goes on without the board
            print(f"warning: LED board link failed to start: {exc}", file=sys.stderr)


def serve(args: argparse.Namespace) -> int:
    from web import create_app
    from web.server import bound_port, make_server

    config: dict[str, Any] = {}
    if args.database:
        config["DATABASE"] = args.database
    if args.host:
        config["HOST"] = args.host
    if args.port is not None:
        config["PORT"] = args.port
    if args.threads:
        config["THREADS"] = args.threads
    config["BOARD"] = args.board
    for key in ("board_mode", "board_layout", "board_table"):
        if getattr(args, key):
            config[key.upper()] = getattr(args, key)
    app = create_app(config)

    server = make_server(app, app.config["HOST"], int(app.config["PORT"]))
    store = app.extensions["scorekeeper.store"]

    def shutdown() -> None:
        store.stop_streams()
        server.stop()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        threading.Thread(target=shutdown, name="shutdown").start()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    server.prepare()
    port = bound_port(server)
    host = app.config["HOST"]
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    url = f"http://{shown}:{port}/"
    print(f"Toss Scorekeeper is serving on {url}  (database {app.config['DATABASE']})")
    print("Open it on the keeper's tablet, or scan:")
    print(qr_text(url), flush=True)
    if args.board:
        start_board_hooks(app, args.board)

    try:
        server.serve()
    finally:
        shutdown()
        store.close()
    print("Toss Scorekeeper stopped.", flush=True)
    return 0
