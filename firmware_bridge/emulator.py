"""A board on a pseudo-terminal: speaks our protocol (the firmware's behaviour, see
:mod:`firmware_bridge.device`) or the WLED JSON-over-serial subset, and shows the lit board.

Faults for testing the link: garbage bytes, dropped acknowledgements, corrupted incoming frames,
a slow device, unplug (the pty is closed and the link path removed) and replug (a new pty; the
link path, a symlink, points at it).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import select
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from firmware_bridge.device import Device
from firmware_bridge.layout import Layout, default_layout
from firmware_bridge.link import MODES, OURS
from firmware_bridge.render import board_svg, board_text

WLED_VERSION: Final = "0.14.4"


class EmulatorError(ValueError):
    """Bad emulator settings (mode, LED count)."""


class WledDevice:
    """The subset of WLED's serial JSON API the bridge uses: ``on``, ``bri``, ``seg`` (object
    or list; ``id`` 0) with ``i`` (index + colour, or start, stop + colour), ``v``."""

    def __init__(self, led_count: int) -> None:
        self.led_count = led_count
        self.reset()

    def reset(self) -> None:
        self.leds = bytearray(self.led_count * 3)
        self.brightness = 128
        self.on = True
        self.frozen = False
        self._line = bytearray()
        self.frames_ok = 0
        self.frames_bad = 0

    def feed(self, data: bytes) -> list[bytes]:
        replies: list[bytes] = []
        for byte in data:
            if byte not in (0x0A, 0x0D):
                if len(self._line) < 8192:
                    self._line.append(byte)
                continue
            line, self._line = bytes(self._line), bytearray()
            if not line.startswith(b"{"):
                continue
            reply = self.handle(line)
            if reply is not None:
                replies.append(reply)
        return replies

    def handle(self, line: bytes) -> bytes | None:
        try:
            doc = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            self.frames_bad += 1  # WLED ignores a line it cannot parse: no reply
            return None
        if not isinstance(doc, dict):
            self.frames_bad += 1
            return None
        self.frames_ok += 1
        if isinstance(doc.get("bri"), int):
            self.brightness = max(0, min(255, doc["bri"]))
        if isinstance(doc.get("on"), bool):
            self.on = doc["on"]
        segs = doc.get("seg")
        for seg in segs if isinstance(segs, list) else [segs] if isinstance(segs, dict) else []:
            if isinstance(seg, dict) and seg.get("id", 0) == 0 and isinstance(seg.get("i"), list):
                try:
                    self._individual(seg["i"])
                except (TypeError, ValueError):  # WLED skips what it cannot read
                    self.frames_bad += 1
        if doc.get("v") is not True:
            return None
        state = {"on": self.on, "bri": self.brightness,
                 "seg": [{"id": 0, "start": 0, "stop": self.led_count, "frz": self.frozen}]}
        info = {"ver": WLED_VERSION, "name": "WLED board-sim",
                "leds": {"count": self.led_count, "rgbw": False}}
        return json.dumps({"state": state, "info": info}, separators=(",", ":")).encode() + b"\n"

    def _individual(self, items: list[Any]) -> None:
        if not self.frozen:
            self.frozen = True
            self.leds = bytearray(self.led_count * 3)
        numbers: list[int] = []
        for item in items:
            if isinstance(item, int) and not isinstance(item, bool):
                numbers.append(abs(item))
                continue
            if isinstance(item, str) and len(item) == 6:
                try:
                    rgb = bytes.fromhex(item)
                except ValueError:
                    rgb = b"\0\0\0"
            elif isinstance(item, list):
                rgb = bytes(max(0, min(255, int(c))) for c in (item + [0, 0, 0])[:3])
            else:
                numbers = []
                continue
            if not numbers:
                continue
            start = numbers[0]
            stop = numbers[1] if len(numbers) > 1 and numbers[1] > start else start + 1
            for index in range(start, min(stop, self.led_count)):
                self.leds[index * 3:index * 3 + 3] = rgb
            numbers = []


class BoardEmulator:
    """A board device on a pty. ``start()`` returns the device path (or the link path when
    ``link`` is given: a symlink kept pointing at the current pty across replugs)."""

    def __init__(self, mode: str = OURS, layout: Layout | None = None,
                 link: str | Path | None = None, led_count: int | None = None,
                 max_brightness: int = 255,
                 on_change: Callable[[BoardEmulator], None] | None = None,
                 reset_on_open: float | None = None) -> None:
        if mode not in MODES:
            raise EmulatorError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        self.mode = mode
        self.layout = layout or default_layout()
        self.led_count = led_count or self.layout.led_count
        if not 1 <= self.led_count <= 4096:
            raise EmulatorError(f"LED count must be 1-4096, got {self.led_count}")
        self.link = Path(link) if link else None
        self.on_change = on_change
        # Like an Arduino Uno: every time the host opens the port the board resets, ignores
        # input for this many seconds (the bootloader), then says hello.
        self.reset_on_open = reset_on_open
        self.resets = 0
        self._host_open = False
        self._booted_at: float | None = None
        self.device: Device | WledDevice = (
            Device(led_count=self.led_count, max_brightness=max_brightness)
            if mode == OURS else WledDevice(self.led_count))
        # faults
        self.delay = 0.0          # seconds before each reply (a slow device)
        self.baud: int | None = None  # emulate the line time of a real UART at this rate
        self.drop_next_acks = 0   # replies to swallow
        self.corrupt_next = 0     # incoming frames to damage (flip a bit before decoding)
        self.noise_next = 0       # replies to precede with line noise
        self.drop_every = 0       # drop every Nth reply (0: never)
        self.noise_every = 0      # line noise before every Nth reply (0: never)
        self.replies = 0
        # observation
        self.received_bytes = 0
        self.sent_bytes = 0
        self.frames = 0
        self.dropped = 0
        self.plugged = False
        self.device_path: str | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- life cycle --------------------------------------------------------------------------
    def start(self) -> str:
        self._plug()
        self._thread = threading.Thread(target=self._run, name="board-emulator", daemon=True)
        self._thread.start()
        return self.path

    @property
    def path(self) -> str:
        return str(self.link) if self.link else (self.device_path or "")

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(2)
        self._unplug()

    def __enter__(self) -> BoardEmulator:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        with self._lock:
            self._master, self._slave = master, slave
            self.device_path = os.ttyname(slave)
            self.device.reset()
            self.plugged = True
            self._host_open = False
            if self.reset_on_open is not None:  # watch the host open and close the port
                os.close(slave)
                self._slave = None
        if self.link:
            temp = self.link.with_name(self.link.name + ".new")
            with contextlib.suppress(FileNotFoundError):
                temp.unlink()
            temp.symlink_to(self.device_path)
            os.replace(temp, self.link)
        if isinstance(self.device, Device):  # the firmware's hello after reset (lost when no
            self._write(self.device.hello(0))  # host has the port open, as on real hardware)

    def _unplug(self) -> None:
        with self._lock:
            if self.link:
                with contextlib.suppress(FileNotFoundError):
                    self.link.unlink()
            for fd in (self._master, self._slave):
                if fd is not None:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self._master = self._slave = None
            self.plugged = False
            self._changed.notify_all()

    @property
    def host_open(self) -> bool:
        """Whether the emulator has seen the host open the port (with ``reset_on_open``)."""
        return self._host_open

    def unplug(self) -> None:
        """Pull the cable: the pty closes (the host's next read or write fails)."""
        self._unplug()

    def replug(self) -> str:
        """Plug back in: a fresh pty, a device just out of reset (dark, default layout)."""
        self._unplug()
        self._plug()
        return self.path

    # -- faults ------------------------------------------------------------------------------
    def restart(self) -> None:
        """The device resets while plugged in (brown-out, reset button): dark, default
        layout, and our firmware says hello with seq 0."""
        with self._lock:
            self.device.reset()
            self._changed.notify_all()
        if isinstance(self.device, Device):
            self._write(self.device.hello(0))

    def garbage(self, count: int = 24) -> None:
        """Send line noise to the host (bytes that are no valid frame, then a delimiter)."""
        noise = bytes((i * 37 + 11) % 251 + 1 for i in range(count))
        self._write(noise + (b"\x00" if self.mode == OURS else b"\n"))

    # -- the device loop ---------------------------------------------------------------------
    def _write(self, data: bytes) -> None:
        with self._lock:
            fd = self._master
        if fd is None:
            return
        try:
            os.write(fd, data)
            self.sent_bytes += len(data)
        except OSError:
            pass

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                fd = self._master
            if fd is None:
                time.sleep(0.01)
                continue
            self._boot_done()
            try:
                ready, _, _ = select.select([fd], [], [], 0.02)
                if not ready:
                    self._opened()  # quiet and no hang-up: the host has the port open
                    continue
                data = os.read(fd, 4096)
            except OSError as exc:
                if exc.errno == errno.EIO:  # nobody has the port open
                    self._host_open = False
                time.sleep(0.01)
                continue
            except ValueError:
                time.sleep(0.01)
                continue
            self._opened()
            if data and self._booted_at is None:
                self._receive(data)  # (while booting, input is lost as on the real board)

    def _opened(self) -> None:
        if self.reset_on_open is None or self._host_open:
            return
        self._host_open = True
        self.resets += 1
        with self._lock:
            self.device.reset()
            self._changed.notify_all()
        self._booted_at = time.monotonic() + self.reset_on_open

    def _boot_done(self) -> None:
        if self._booted_at is not None and time.monotonic() >= self._booted_at:
            self._booted_at = None
            if isinstance(self.device, Device):
                self._write(self.device.hello(0))

    def _receive(self, data: bytes) -> None:
        self.received_bytes += len(data)
        if self.corrupt_next and self.mode == OURS:
            damaged = bytearray(data)
            for i, byte in enumerate(damaged):
                if byte > 1 and self.corrupt_next:
                    damaged[i] = byte ^ 0x01
                    self.corrupt_next -= 1
                    break
            data = bytes(damaged)
        with self._lock:
            replies = self.device.feed(data)
            self.frames += len(replies)
            self._changed.notify_all()
        if replies and self.on_change:
            self.on_change(self)
        for reply in replies:
            self.replies += 1
            if self.drop_next_acks or (self.drop_every and self.replies % self.drop_every == 0):
                self.drop_next_acks = max(0, self.drop_next_acks - 1)
                self.dropped += 1
                continue
            if self.delay:
                time.sleep(self.delay)
            if self.baud:  # the request arrived, and the reply leaves, at 10 bits a byte
                time.sleep((len(data) + len(reply)) * 10 / self.baud)
            if self.noise_next or (self.noise_every and self.replies % self.noise_every == 0):
                self.noise_next = max(0, self.noise_next - 1)
                self.garbage()
            self._write(reply)

    # -- observation -------------------------------------------------------------------------
    @property
    def leds(self) -> bytes:
        with self._lock:
            return bytes(self.device.leds)

    @property
    def brightness(self) -> int:
        return self.device.brightness

    def lit(self) -> dict[int, tuple[int, int, int]]:
        """LED index -> colour of every LED that is on."""
        leds = self.leds
        return {i: (leds[3 * i], leds[3 * i + 1], leds[3 * i + 2])
                for i in range(len(leds) // 3) if any(leds[3 * i:3 * i + 3])}

    def wait_for(self, predicate: Callable[[BoardEmulator], bool], timeout: float = 2.0) -> bool:
        """Wait until ``predicate(self)`` holds (checked after every frame)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not predicate(self):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._changed.wait(min(remaining, 0.05))
        return True

    def text(self) -> str:
        return board_text(self.layout, self.leds)

    def svg(self) -> str:
        return board_svg(self.layout, self.leds, title=f"board-sim ({self.mode})")
