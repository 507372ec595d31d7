"""``scorekeeper board`` (drive a real board) and ``scorekeeper board-sim`` (the emulator).

    scorekeeper board --server http://pi:8000 --table T --token TOKEN --port auto
    scorekeeper board --port /dev/ttyUSB0 --state state.json     # show one state and exit
    scorekeeper board --test --port /dev/ttyUSB0                 # light every hole in turn
    scorekeeper board --list                                     # the serial ports seen
    scorekeeper board --map-svg hardware/board-map.svg           # the hole-to-LED drawing
    scorekeeper board --write-layout my-layout.json --boards 4   # a layout to edit
    scorekeeper board-sim --mode wled --link /tmp/board --show   # a board on a pty
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time
from pathlib import Path
from types import FrameType

from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.layout import LIGHTS, ROWS, Layout, LayoutError, default_layout
from firmware_bridge.link import (
    LINK_ERRORS,
    MODES,
    OURS,
    BoardLink,
    LinkError,
    LinkStatus,
    connect,
)
from firmware_bridge.ports import (
    AUTO,
    DTR_AUTO,
    DTR_MODES,
    PortError,
    PortMatch,
    describe_ports,
    parse_vid_pid,
)
from firmware_bridge.render import board_svg
from firmware_bridge.scene import DEFAULT_BRIGHTNESS, Scene, parse_colour
from firmware_bridge.stream import Server, StatusPoster, StreamError, StreamFollower
from scorekeeper.cli import InputError, Subparsers, emit, read_json
from scorekeeper.pegboard import PEG_COLOURS


def register(subparsers: Subparsers) -> None:
    board = subparsers.add_parser(
        "board", help="drive an LED peg board over USB serial",
        description="Drive the LED peg board: follow a table's live stream, show one state, "
                    "or test the board hole by hole.")
    board.add_argument("--port", default=AUTO,
                       help="serial port, or auto: the first USB board found (default)")
    board.add_argument("--mode", choices=MODES, default=OURS,
                       help="ours: our firmware (default); wled: stock WLED JSON over serial")
    board.add_argument("--layout", help="layout JSON (default: six serpentine boards)")
    board.add_argument("--brightness", type=int, default=DEFAULT_BRIGHTNESS,
                       help=f"0-255, capped by the layout (default {DEFAULT_BRIGHTNESS})")
    board.add_argument("--vid-pid", action="append", default=[], metavar="VID:PID",
                       help="USB id to look for with --port auto (repeatable; hex)")
    board.add_argument("--serial-number", help="USB serial number of the board (--port auto)")
    board.add_argument("--dtr", choices=DTR_MODES, default=DTR_AUTO,
                       help="hold DTR and RTS up: auto (for ESP32-S2/S3 boards on their own USB "
                            "port, USB id 303a, which read nothing otherwise; default), hold "
                            "(always) or drop (never: the reset-safe sequence)")
    board.add_argument("--server", help="the scorekeeper's URL, e.g. http://192.168.1.20:8000")
    board.add_argument("--table", help="table id (with --server)")
    board.add_argument("--token", help="the table's display or keeper token (with --server)")
    board.add_argument("--state", metavar="FILE",
                       help="show this GameState JSON (or - for stdin) and exit")
    board.add_argument("--test", action="store_true", help="light every hole in turn")
    board.add_argument("--step", type=float, default=0.3,
                       help="seconds per hole with --test (default 0.3)")
    board.add_argument("--list", action="store_true", help="list the serial ports and exit")
    board.add_argument("--map-svg", metavar="OUT",
                       help="write the layout's hole-to-LED drawing (SVG) and exit")
    board.add_argument("--write-layout", metavar="OUT",
                       help="write the default layout for --boards boards and exit")
    board.add_argument("--boards", type=int, default=6,
                       help="boards in the layout written by --write-layout (1-6, default 6)")
    board.add_argument("--timeout", type=float, default=10.0,
                       help="seconds to wait for the board with --state/--test (default 10)")
    board.set_defaults(handler=board_command)

    sim = subparsers.add_parser(
        "board-sim", help="emulate an LED peg board on a pseudo-terminal",
        description="A board on a pty: prints its path, speaks our protocol or WLED's, and "
                    "shows what is lit. Commands on stdin: unplug, replug, reset, garbage [N], "
                    "drop [N], slow MS, svg PATH, show, quit; for WLED also app JSON (a change "
                    "made in WLED's app, e.g. {\"on\":false}) and prefix TEXT (debug output "
                    "before each reply).")
    sim.add_argument("--mode", choices=MODES, default=OURS)
    sim.add_argument("--layout", help="layout JSON (for the pictures and the LED count)")
    sim.add_argument("--leds", type=int, help="LED count of the strip (default: the layout's)")
    sim.add_argument("--link", help="keep a symlink at this path pointing at the current pty")
    sim.add_argument("--show", action="store_true", help="print the board after every change")
    sim.add_argument("--svg", metavar="PATH", help="rewrite this SVG after every change")
    sim.add_argument("--delay-ms", type=float, default=0.0, help="answer this much later")
    sim.add_argument("--drop-every", type=int, default=0, metavar="N",
                     help="drop every Nth acknowledgement")
    sim.add_argument("--garbage-every", type=int, default=0, metavar="N",
                     help="send line noise before every Nth reply")
    sim.add_argument("--unplug-after", type=float, help="unplug after this many seconds")
    sim.add_argument("--replug-after", type=float,
                     help="replug this many seconds after unplugging")
    sim.add_argument("--reset-on-open", type=float, metavar="SECONDS",
                     help="act like an Arduino: reset whenever the port is opened and boot for "
                          "this long (e.g. 1.5)")
    sim.add_argument("--native-usb", action="store_true",
                     help="act like an ESP32-S2/S3 on its own USB port: read nothing unless the "
                          "host holds DTR and RTS up (open the printed url, a pyserial spy:// "
                          "URL that reports the host's lines)")
    sim.add_argument("--duration", type=float, help="exit after this many seconds")
    sim.set_defaults(handler=sim_command)


def _layout(args: argparse.Namespace) -> Layout:
    return Layout.load(args.layout) if args.layout else default_layout()


def _match(args: argparse.Namespace) -> PortMatch:
    if args.vid_pid:
        return PortMatch(tuple(parse_vid_pid(v) for v in args.vid_pid), args.serial_number)
    return PortMatch(serial_number=args.serial_number)


def _stop_on_signals(stop: threading.Event) -> None:
    def handler(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)


def _print_status(status: LinkStatus) -> None:
    print(json.dumps({"board": status.to_json()}), file=sys.stderr, flush=True)


def board_command(args: argparse.Namespace) -> int:
    if not 0 <= args.brightness <= 255:
        raise InputError(f"--brightness must be 0-255, got {args.brightness}")
    if args.write_layout:
        written = default_layout(args.boards)
        Path(args.write_layout).write_text(written.dumps(), encoding="utf-8")
        return emit({"written": args.write_layout, "boards": args.boards,
                     "leds": written.led_count})
    layout = _layout(args)
    if args.list:
        return emit({"ports": describe_ports()})
    if args.map_svg:
        Path(args.map_svg).write_text(board_svg(layout), encoding="utf-8")
        return emit({"written": args.map_svg, "boards": len(layout.boards),
                     "leds": layout.led_count})
    if args.test:
        return _test(args, layout)
    if args.state:
        return _show_once(args, layout)
    if args.server or args.table or args.token:
        missing = [f"--{n}" for n in ("server", "table", "token") if not getattr(args, n)]
        if missing:
            raise InputError(f"following a table needs {', '.join(missing)} as well")
        return _follow(args, layout)
    raise InputError("say what to do: --server/--table/--token to follow a table, --state FILE, "
                     "--test, --list, --map-svg or --write-layout")


def _resolve_port(args: argparse.Namespace) -> str:
    if args.port != AUTO:
        return str(args.port)
    from firmware_bridge.ports import find_port

    return find_port(_match(args))


def _show_once(args: argparse.Namespace, layout: Layout) -> int:
    scene = Scene.from_state(read_json(args.state), args.brightness)
    if len(scene.boards) > len(layout.boards):
        raise LayoutError(f"the state has {len(scene.boards)} boards, the layout "
                          f"{len(layout.boards)}")
    with BoardLink(args.port, layout, args.mode, _match(args), on_status=_print_status,
                   hello_timeout=4.0, dtr=args.dtr) as link:
        link.show(scene)
        if not link.wait_shown(scene, args.timeout):
            raise InputError(f"the board did not show the state within {args.timeout:g} s: "
                             f"{link.status.status}: {link.status.detail}")
        status = link.status
        sent = link.stats.bytes_sent
    return emit({"shown": True, "port": status.port, "device": status.device,
                 "boards": len(scene.boards), "bytes_sent": sent})


def _test(args: argparse.Namespace, layout: Layout) -> int:
    try:
        port = _resolve_port(args)
        driver, description = connect(port, layout, args.mode, hello_timeout=args.timeout,
                                      dtr=args.dtr)
    except (PortError, LinkError, *LINK_ERRORS) as exc:
        raise InputError(f"cannot reach the board: {exc}") from exc
    colours = list(PEG_COLOURS.values())
    lit = 0
    try:
        for b, board in enumerate(layout.boards):
            colour = parse_colour(colours[b % len(colours)])
            places = [(name, hole, board.row(name)[hole]) for name in ROWS for hole in range(10)]
            places += [(name, 0, led) for name, led in
                       zip(LIGHTS, (board.minus, board.thousand), strict=True) if led is not None]
            for name, hole, led in places:
                driver.test_light(led, colour, args.brightness)
                lit += 1
                where = name if name in LIGHTS else f"{name} hole {hole}"
                print(f"board {b + 1} {where}: LED {led}", file=sys.stderr, flush=True)
                time.sleep(args.step)
        driver.send(None, Scene(()))  # all dark again
    except (LinkError, *LINK_ERRORS) as exc:
        raise InputError(f"the board stopped answering after {lit} LEDs: {exc}") from exc
    finally:
        driver.port.close()
    return emit({"tested": lit, "port": port, "device": description})


def _follow(args: argparse.Namespace, layout: Layout) -> int:
    server = Server(args.server, args.table, args.token)
    try:
        server.get_state()
    except StreamError as exc:
        raise InputError(str(exc)) from exc
    except OSError as exc:
        raise InputError(f"cannot reach {args.server}: {exc}") from exc
    poster = StatusPoster(server)

    def on_status(status: LinkStatus) -> None:
        _print_status(status)
        poster(status)

    stop = threading.Event()
    _stop_on_signals(stop)
    link = BoardLink(args.port, layout, args.mode, _match(args), on_status=on_status,
                     dtr=args.dtr).start()
    follower = StreamFollower(server, link, args.brightness,
                              on_error=lambda m: print(m, file=sys.stderr, flush=True))
    failure: list[str] = []

    def run() -> None:
        try:
            follower.run()
        except StreamError as exc:
            failure.append(str(exc))
        stop.set()

    thread = threading.Thread(target=run, name="board-stream", daemon=True)
    thread.start()
    stop.wait()
    follower.stop()
    link.stop()
    poster.close()
    if failure:
        raise InputError(failure[0])
    return emit({"stopped": True, "states": follower.states, "last_seq": follower.last_id})


def sim_command(args: argparse.Namespace) -> int:
    layout = _layout(args)
    stop = threading.Event()

    def changed(emu: BoardEmulator) -> None:
        if args.show:
            print(emu.text() + "\n", flush=True)
        if args.svg:
            Path(args.svg).write_text(emu.svg(), encoding="utf-8")

    emulator = BoardEmulator(args.mode, layout, args.link, args.leds, on_change=changed,
                             reset_on_open=args.reset_on_open, native_usb=args.native_usb)
    emulator.delay = args.delay_ms / 1000
    emulator.drop_every = args.drop_every
    emulator.noise_every = args.garbage_every
    path = emulator.start()
    print(json.dumps({"port": path, "device": emulator.device_path, "mode": args.mode,
                      "leds": emulator.led_count, "url": emulator.port_url}), flush=True)
    _stop_on_signals(stop)
    threading.Thread(target=_sim_commands, args=(emulator, stop), daemon=True).start()
    started = time.monotonic()
    unplugged_at: float | None = None
    while not stop.wait(0.05):
        now = time.monotonic() - started
        if args.duration is not None and now >= args.duration:
            break
        if args.unplug_after is not None and unplugged_at is None and now >= args.unplug_after:
            emulator.unplug()
            unplugged_at = now
            print(json.dumps({"unplugged": True}), flush=True)
        if args.replug_after is not None and unplugged_at is not None and \
                not emulator.plugged and now >= unplugged_at + args.replug_after:
            emulator.replug()
            print(json.dumps({"port": emulator.path, "device": emulator.device_path,
                              "replugged": True}), flush=True)
    emulator.stop()
    return emit({"frames": emulator.frames, "received_bytes": emulator.received_bytes,
                 "dropped": emulator.dropped})


def _sim_commands(emulator: BoardEmulator, stop: threading.Event) -> None:
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command, rest = words[0], words[1:]
        try:
            if command == "unplug":
                emulator.unplug()
            elif command == "replug":
                emulator.replug()
            elif command == "reset":
                emulator.restart()
            elif command == "garbage":
                emulator.garbage(int(rest[0]) if rest else 24)
            elif command == "drop":
                emulator.drop_next_acks = int(rest[0]) if rest else 1
            elif command == "app" and rest:
                emulator.wled_app(json.loads(line.split(None, 1)[1]))
            elif command == "prefix":
                emulator.reply_prefix = line.split(None, 1)[1].rstrip("\n").encode() \
                    if rest else b""
            elif command == "slow":
                emulator.delay = float(rest[0]) / 1000 if rest else 0.0
            elif command == "svg" and rest:
                Path(rest[0]).write_text(emulator.svg(), encoding="utf-8")
            elif command == "show":
                print(emulator.text(), flush=True)
            elif command == "quit":
                stop.set()
                return
            else:
                print(json.dumps({"error": f"unknown command {line.strip()!r}: use unplug, "
                                  "replug, reset, garbage [N], drop [N], slow MS, app JSON, "
                                  "prefix TEXT, svg PATH, show, quit"}), flush=True)
                continue
            print(json.dumps({"done": command, "port": emulator.path}), flush=True)
        except (ValueError, OSError) as exc:
            print(json.dumps({"error": f"{command}: {exc}"}), flush=True)
