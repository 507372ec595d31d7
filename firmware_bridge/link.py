"""The serial link to the board: a background thread that keeps the board showing the latest
state, whatever the cable does.

``BoardLink.show(scene)`` never blocks: it replaces the "latest state" and wakes the thread.
The thread sends only what the board does not show yet (intermediate states that arrive while
a frame is in flight are dropped), waits for the acknowledgement, retries a frame that is not
acknowledged (3 tries about 200 ms apart), and on unplug (``SerialException``, ``OSError``,
``termios.error``) closes the port, rescans, reconnects and sends the full state again. A board
that restarted with the cable in (our firmware's unasked hello; WLED's uptime going down, its
segment 0 no longer frozen, or WLED off when it should be on) gets the full state again the
same way. Its status is a property and goes to an ``on_status`` callback.
"""

from __future__ import annotations

import contextlib
import termios
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Final

import serial

from firmware_bridge import protocol as p
from firmware_bridge import wled
from firmware_bridge.layout import Layout, default_layout
from firmware_bridge.ports import (
    AUTO,
    DTR_AUTO,
    DTR_MODES,
    PortError,
    PortMatch,
    find_port,
    holds_lines,
    open_port,
)
from firmware_bridge.scene import Scene

OURS: Final = "ours"
WLED: Final = "wled"
MODES: Final = (OURS, WLED)

CONNECTING: Final = "connecting"
CONNECTED: Final = "connected"
DISCONNECTED: Final = "disconnected"
NOT_RESPONDING: Final = "not-responding"
REFUSED: Final = "refused"
STOPPED: Final = "stopped"

#: What an unplugged or vanished port raises.
LINK_ERRORS: Final = (serial.SerialException, OSError, termios.error)


class LinkError(Exception):
    """The board did not do what the link asked (internal to the link thread)."""


class NoAck(LinkError):
    """No acknowledgement after every try."""


class DeviceRefused(LinkError):
    """The board answered with a NAK that retrying cannot fix, or does not fit the layout."""


class DeviceReset(LinkError):
    """The board restarted (or, WLED, was switched off or on) and lost the state it showed."""


@dataclass(frozen=True, slots=True)
class LinkStatus:
    """``status`` is one of connecting, connected, disconnected, not-responding, refused,
    stopped; ``detail`` says why in words for the keeper page."""

    status: str
    detail: str = ""
    port: str | None = None
    device: str | None = None

    def to_json(self) -> dict[str, str | None]:
        return {"status": self.status, "detail": self.detail, "port": self.port,
                "device": self.device}


@dataclass
class LinkStats:
    bytes_sent: int = 0
    bytes_received: int = 0
    frames_sent: int = 0
    retries: int = 0
    garbage: int = 0
    naks: int = 0
    connects: int = 0
    sends: list[tuple[str, int]] = field(default_factory=list)  # (kind, bytes), last 1000

    def record(self, kind: str, size: int) -> None:
        self.sends.append((kind, size))
        del self.sends[:-1000]


class Driver:
    """One open port and the protocol spoken on it."""

    def __init__(self, port: serial.Serial, layout: Layout, stats: LinkStats, tries: int,
                 retry_interval: float, hello_timeout: float) -> None:
        self.port = port
        self.layout = layout
        self.stats = stats
        self.tries = tries
        self.retry_interval = retry_interval
        self.hello_timeout = hello_timeout
        self.decoder = p.FrameDecoder()  # our protocol
        self.seq = 0
        self._line = bytearray()  # WLED
        self.notes: tuple[str, ...] = ()  # what the board shows differently from the state

    def _write(self, data: bytes) -> None:
        self.port.write(data)
        self.stats.bytes_sent += len(data)
        self.stats.frames_sent += 1

    def _read(self) -> bytes:
        data: bytes = self.port.read(max(1, self.port.in_waiting))
        self.stats.bytes_received += len(data)
        return data

    def handshake(self) -> str:
        raise NotImplementedError

    def send(self, before: Scene | None, after: Scene) -> int:
        """Show ``after`` (the board shows ``before``, or something unknown when None);
        returns the bytes written."""
        raise NotImplementedError

    def heartbeat(self) -> None:
        raise NotImplementedError

    def test_light(self, index: int, colour: tuple[int, int, int], brightness: int) -> None:
        raise NotImplementedError


def changes(layout: Layout, before: Scene | None, after: Scene) -> list[p.Message]:
    """The frames that take a board from ``before`` (None: unknown) to ``after``: the full
    state, or only the pegs that moved and the brightness if it changed."""
    level = layout.capped(after.brightness)
    if before is None or len(before.boards) != len(after.boards) or any(
            a.colour != b.colour for a, b in zip(before.boards, after.boards, strict=True)):
        return [p.FullState(level, after.boards)]
    out: list[p.Message] = []
    moved = tuple(p.PegChange.of(i, new) for i, (old, new)
                  in enumerate(zip(before.boards, after.boards, strict=True))
                  if not old.same_pegs(new))
    if moved:
        out.append(p.Pegs(moved))
    if layout.capped(before.brightness) != level:
        out.append(p.Brightness(level))
    return out


class OurDriver(Driver):
    """Our framed protocol (hardware/PROTOCOL.md)."""

    def _next_seq(self) -> int:
        self.seq = self.seq % 255 + 1  # 1..255: seq 0 is the device's own hello after reset
        return self.seq

    def exchange(self, message: p.Message, tries: int | None = None,
                 interval: float | None = None) -> p.Frame:
        """Send until acknowledged; returns the ACK (or HELLO) frame."""
        seq = self._next_seq()
        wire = p.encode(message, seq)
        tries = tries or self.tries
        interval = interval or self.retry_interval
        for attempt in range(tries):
            if attempt:
                self.stats.retries += 1
            self._write(wire)
            deadline = time.monotonic() + interval
            resend = False
            while not resend and time.monotonic() < deadline:
                data = self._read()
                for item in self.decoder.feed(data) if data else []:
                    if isinstance(item, p.ProtocolError):
                        self.stats.garbage += 1
                        continue
                    reply = item.message
                    if isinstance(reply, p.Hello) and item.seq == 0 and \
                            not isinstance(message, p.HelloRequest):
                        raise DeviceReset("the board restarted: sending the state again")
                    if isinstance(reply, p.Nak):
                        self.stats.naks += 1
                        if reply.reason in (p.NAK_BAD_FRAME, p.NAK_TOO_LONG):
                            resend = True  # damaged on the way: send it again now
                        elif item.seq == seq:
                            raise DeviceRefused(f"the board refused {type(message).__name__}: "
                                                f"{reply.text}")
                        continue
                    if item.seq == seq and isinstance(reply, p.Ack | p.Hello):
                        return item
        raise NoAck(f"no acknowledgement after {tries} tries")

    def handshake(self) -> str:
        self.port.reset_input_buffer()
        tries = max(1, int(self.hello_timeout / 0.25))
        frame = self.exchange(p.HelloRequest(), tries=tries, interval=0.25)
        hello = frame.message
        assert isinstance(hello, p.Hello)
        if hello.protocol != p.PROTOCOL_VERSION:
            raise DeviceRefused(f"the board speaks protocol {hello.protocol}, this bridge "
                                f"{p.PROTOCOL_VERSION}: update the firmware")
        if hello.led_count < self.layout.led_count:
            raise DeviceRefused(f"the layout needs {self.layout.led_count} LEDs but the firmware "
                                f"drives {hello.led_count}: set SKB_LED_COUNT in the sketch or "
                                "use a smaller layout")
        if hello.max_boards < len(self.layout.boards):
            raise DeviceRefused(f"the layout has {len(self.layout.boards)} boards but the "
                                f"firmware takes {hello.max_boards}")
        for b, board in enumerate(self.layout.boards):
            self.exchange(p.Layout(b, board.wire_indexes()))
        return f"firmware {hello.version}, {hello.led_count} LEDs"

    def send(self, before: Scene | None, after: Scene) -> int:
        start = self.stats.bytes_sent
        for message in changes(self.layout, before, after):
            self.exchange(message)
            self.stats.record(type(message).__name__, len(p.encode(message, 1)))
        return self.stats.bytes_sent - start

    def heartbeat(self) -> None:
        self.exchange(p.Heartbeat())

    def test_light(self, index: int, colour: tuple[int, int, int], brightness: int) -> None:
        self.exchange(p.TestLight(index, 1, colour))
        self.exchange(p.Brightness(self.layout.capped(brightness)))


class WledDriver(Driver):
    """Stock WLED: one JSON line per state; the state reply line is the acknowledgement."""

    uptime: int | None = None  # WLED's info.uptime in its last reply
    expect_on = False  # whether the last state sent has WLED on (brightness above 0)

    def _lines(self, deadline: float) -> list[bytes]:
        # WLED answers with its whole state (1-3 kB, up to 260 ms at 115200 baud): while a
        # reply is arriving the wait goes on, up to a second past the deadline.
        limit = deadline + 1.0
        while time.monotonic() < deadline:
            data = self._read()
            if not data:
                continue
            deadline = min(limit, max(deadline, time.monotonic() + 0.05))
            self._line += data
            if b"\n" in self._line:
                *lines, rest = bytes(self._line).split(b"\n")
                self._line = bytearray(rest)
                return [line.strip() for line in lines if line.strip()]
        return []

    def exchange(self, command: bytes, tries: int | None = None,
                 interval: float | None = None) -> dict[str, object]:
        tries = tries or self.tries
        interval = interval or self.retry_interval
        self.port.reset_input_buffer()
        self._line.clear()
        for attempt in range(tries):
            if attempt:
                self.stats.retries += 1
            self._write(command)
            deadline = time.monotonic() + interval
            while time.monotonic() < deadline:
                for line in self._lines(deadline):
                    try:
                        return wled.parse_reply(line)
                    except wled.WledError:
                        self.stats.garbage += 1
        raise NoAck(f"no reply from WLED after {tries} tries")

    def checked(self, command: bytes) -> dict[str, object]:
        """Exchange ``command``; raises :class:`DeviceReset` when the reply shows that WLED no
        longer shows what was sent (it restarted, or was switched off or on)."""
        reply = self.exchange(command)
        lost = wled.lost_state(reply, self.uptime, self.expect_on)
        self.uptime = wled.uptime(reply)
        if lost:
            raise DeviceReset(f"{lost}: sending the state again")
        return reply

    def handshake(self) -> str:
        tries = max(1, int(self.hello_timeout / 0.25))
        reply = self.exchange(wled.PROBE, tries=tries, interval=0.25)
        name, count = wled.describe(reply)
        if count is not None and count < self.layout.led_count:
            raise DeviceRefused(f"the layout needs {self.layout.led_count} LEDs but WLED is set "
                                f"up for {count}: raise the LED count in WLED's LED settings")
        problem = wled.segment_problems(reply, self.layout.led_count)
        if problem:
            raise DeviceRefused(problem)
        self.uptime = wled.uptime(reply)
        return f"{name}, {count if count is not None else '?'} LEDs"

    def send(self, before: Scene | None, after: Scene) -> int:
        # back from brightness 0 WLED has unfrozen the segment: the whole state again
        full = before is None or self.layout.capped(before.brightness) == 0
        command = (wled.change_command(self.layout, before, after)
                   if before is not None and not full
                   else wled.full_command(self.layout, after))
        self.expect_on = self.layout.capped(after.brightness) > 0
        self.notes = tuple(wled.dark_colours(after))
        self.checked(command)
        self.stats.record("full" if full else "change", len(command))
        return len(command)

    def heartbeat(self) -> None:
        self.checked(wled.PROBE)

    def test_light(self, index: int, colour: tuple[int, int, int], brightness: int) -> None:
        self.exchange(wled.test_command(self.layout, index, colour, brightness))


DRIVERS: Final[dict[str, type[Driver]]] = {OURS: OurDriver, WLED: WledDriver}


def connect(path: str, layout: Layout, mode: str = OURS, stats: LinkStats | None = None,
            tries: int = 3, retry_interval: float = 0.2,
            hello_timeout: float = 4.0, dtr: str = DTR_AUTO) -> tuple[Driver, str]:
    """Open ``path`` and greet the board; returns the driver and the board's description.
    ``dtr``: hold DTR and RTS up (``hold``), release them (``drop``), or ``auto`` (held for
    native-USB ESP32-S2/S3 boards only)."""
    if mode not in DRIVERS:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    port = open_port(path, hold_lines=holds_lines(path, dtr))
    driver = DRIVERS[mode](port, layout, stats or LinkStats(), tries, retry_interval,
                           hello_timeout)
    try:
        description = driver.handshake()
    except BaseException:
        port.close()
        raise
    return driver, description


class BoardLink:
    """Keeps a board showing the latest :class:`Scene`, in its own thread."""

    def __init__(self, port: str = AUTO, layout: Layout | None = None, mode: str = OURS,
                 match: PortMatch | None = None,
                 on_status: Callable[[LinkStatus], None] | None = None, tries: int = 3,
                 retry_interval: float = 0.2, heartbeat_interval: float | None = None,
                 rescan_interval: float = 0.25, hello_timeout: float = 4.0,
                 dtr: str = DTR_AUTO) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        if dtr not in DTR_MODES:
            raise ValueError(f"dtr must be one of {', '.join(DTR_MODES)}, got {dtr!r}")
        self.dtr = dtr
        self.port_spec = port
        self.layout = layout or default_layout()
        self.mode = mode
        self.match = match or PortMatch()
        self.on_status = on_status
        self.tries = tries
        self.retry_interval = retry_interval
        # A heartbeat after 1 s without traffic: an unplugged board, or a WLED that restarted
        # with the cable in, is noticed and shown the state again within 2 s. (WLED answers
        # with its whole state, 1-3 kB: at most a quarter of the idle line at 115200 baud.)
        self.heartbeat_interval = heartbeat_interval or 1.0
        self.rescan_interval = rescan_interval
        self.hello_timeout = hello_timeout
        self.stats = LinkStats()
        self._status = LinkStatus(CONNECTING, "looking for the board", None)
        self._cond = threading.Condition()
        self._pending: Scene | None = None
        self._shown: Scene | None = None
        self._driver: Driver | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_io = 0.0
        self._description = ""

    # -- the caller's side: never blocks ---------------------------------------------------
    def start(self) -> BoardLink:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="board-link", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self._thread:
            self._thread.join(timeout)
        self._close()
        self._set_status(STOPPED, "the board link was stopped")

    def __enter__(self) -> BoardLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def show(self, scene: Scene) -> None:
        """Make ``scene`` the state to show; returns at once."""
        if len(scene.boards) > len(self.layout.boards):
            raise ValueError(f"the state has {len(scene.boards)} boards but the layout only "
                             f"{len(self.layout.boards)}")
        with self._cond:
            self._pending = scene
            self._cond.notify_all()

    @property
    def status(self) -> LinkStatus:
        return self._status

    @property
    def shown(self) -> Scene | None:
        """The scene the board has acknowledged (None when unknown)."""
        return self._shown

    def wait_shown(self, scene: Scene, timeout: float = 2.0) -> bool:
        """Wait until the board has acknowledged ``scene``."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._shown != scene:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(remaining)
        return True

    # -- the thread ------------------------------------------------------------------------
    def _set_status(self, status: str, detail: str = "", device: str | None = None) -> None:
        if self._stop.is_set() and status != STOPPED:
            return  # a connect that finishes after stop() says nothing
        port = self._status.port
        new = LinkStatus(status, detail, port, device)
        if new == self._status:
            return
        self._status = new
        if self.on_status:
            with contextlib.suppress(Exception):  # a status reporter must never stop the link
                self.on_status(new)

    def _close(self) -> None:
        driver, self._driver = self._driver, None
        if driver is not None:
            with contextlib.suppress(*LINK_ERRORS):
                driver.port.close()
        with self._cond:
            self._shown = None

    def _connect(self) -> bool:
        try:
            path = find_port(self.match) if self.port_spec == AUTO else self.port_spec
        except PortError as exc:
            self._set_status(DISCONNECTED, str(exc))
            return False
        self._status = replace(self._status, port=path)
        try:
            driver, description = connect(path, self.layout, self.mode, self.stats, self.tries,
                                          self.retry_interval, self.hello_timeout, self.dtr)
        except NoAck:
            what = "our firmware" if self.mode == OURS else "WLED"
            self._set_status(NOT_RESPONDING, f"{path} is open but the board does not answer: "
                             f"check it runs {what} at 115200 baud, or pick the other --mode; "
                             "an ESP32-S2/S3 on its own USB port reads nothing unless DTR is "
                             "held up (--dtr hold)")
            return False
        except DeviceRefused as exc:
            self._set_status(REFUSED, str(exc))
            self._stop.wait(2.0)
            return False
        except LINK_ERRORS as exc:
            self._set_status(DISCONNECTED, f"cannot open {path}: {exc}")
            return False
        self._driver = driver
        self.stats.connects += 1
        self._last_io = time.monotonic()
        self._description = description
        self._set_status(CONNECTED, f"{description} on {path}", description)
        return True

    def _connected_status(self, driver: Driver) -> None:
        """CONNECTED, with what the board shows differently from the state (if anything)."""
        path = self._status.port
        detail = "; ".join((f"{self._description} on {path}", *driver.notes))
        self._set_status(CONNECTED, detail, self._description)

    def _run(self) -> None:
        try:
            self._loop()
        finally:
            self._close()

    def _loop(self) -> None:
        while not self._stop.is_set():
            if self._driver is None and not self._connect():
                self._stop.wait(self.rescan_interval)
                continue
            driver = self._driver
            assert driver is not None
            with self._cond:
                if self._pending is None or self._pending == self._shown:
                    wait = self._last_io + self.heartbeat_interval - time.monotonic()
                    if wait > 0:
                        self._cond.wait(wait)
                target, shown = self._pending, self._shown
            if self._stop.is_set():
                break
            try:
                if target is not None and target != shown:
                    driver.send(shown, target)
                    with self._cond:
                        self._shown = target
                        self._cond.notify_all()
                    self._last_io = time.monotonic()
                    self._connected_status(driver)
                elif time.monotonic() - self._last_io >= self.heartbeat_interval:
                    driver.heartbeat()
                    self._last_io = time.monotonic()
            except DeviceReset as exc:
                self._close()
                self._set_status(CONNECTING, str(exc))
            except NoAck:
                self._close()
                self._set_status(NOT_RESPONDING, "the board stopped acknowledging: reconnecting")
            except DeviceRefused as exc:
                self._close()
                self._set_status(REFUSED, str(exc))
                self._stop.wait(2.0)
            except LINK_ERRORS as exc:
                self._close()
                self._set_status(DISCONNECTED, f"the board was unplugged ({exc}): waiting for it")
