"""A board on a pseudo-terminal: speaks our protocol (the firmware's behaviour, see
:mod:`firmware_bridge.device`) or the WLED JSON-over-serial subset, and shows the lit board.

Faults for testing the link: garbage bytes, dropped acknowledgements, corrupted incoming frames,
a slow device, unplug (the pty is closed and the link path removed) and replug (a new pty; the
link path, a symlink, points at it), a restart with the cable in, debug output before a WLED
reply, and an ESP32-S2/S3 on native USB that reads nothing unless the host holds DTR and RTS.

A pseudo-terminal has no modem lines, so a ``native_usb`` emulator learns them the way a USB
analyser would: the host opens :attr:`BoardEmulator.port_url`, pyserial's ``spy://`` wrapper of
the pty, which reports every DTR and RTS change the host makes into a pipe the emulator reads.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import select
import shutil
import tempfile
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


#: WLED's colour at first boot (effect Solid): what an unfrozen segment 0 shows.
WLED_BOOT_COLOUR: Final = (255, 160, 0)
WLED_BOOT_BRIGHTNESS: Final = 128
#: Segment 0 as WLED sets it up: the whole strip, no grouping, spacing, offset, reverse, mirror.
SEGMENT_FIELDS: Final = ("start", "stop", "grp", "spc", "of", "rev", "mi")


class WledDevice:
    """The part of WLED 0.14's serial JSON API the bridge uses, as ``wled00/json.cpp`` does it:
    ``bri`` and ``on`` (``"on":true`` with ``"bri":0`` turns WLED back on at its last
    brightness; switching on unfreezes every segment), ``seg`` (object or list; ``id`` 0) with
    ``i`` (index + colour, or start, stop + colour; the first ``i`` freezes the segment and
    blacks it out; indexes go through the segment's start, reverse, grouping, spacing, offset
    and mirror), and ``v`` (answer with state and info, including ``info.uptime``).

    Until the first ``i`` (after boot, or after being switched on) segment 0 runs its effect:
    Solid in :data:`WLED_BOOT_COLOUR`. ``segment`` (WLED's saved segment 0) survives a restart;
    ``up_for`` is the uptime in seconds at construction, as if WLED had been running that long.
    """

    def __init__(self, led_count: int, segment: dict[str, Any] | None = None,
                 up_for: float = 0.0) -> None:
        self.led_count = led_count
        self.segment: dict[str, Any] = {"start": 0, "stop": led_count, "grp": 1, "spc": 0,
                                        "of": 0, "rev": False, "mi": False}
        self.segment.update(segment or {})
        self.reset()
        self._booted -= up_for

    def reset(self) -> None:
        """Power on: the saved segment, its effect running, brightness 128."""
        self.pixels = bytearray(self.led_count * 3)
        self.bri = WLED_BOOT_BRIGHTNESS
        self.bri_last = WLED_BOOT_BRIGHTNESS
        self.frozen = False
        self.colour = WLED_BOOT_COLOUR
        self._line = bytearray()
        self._booted = time.monotonic()
        self.frames_ok = 0
        self.frames_bad = 0

    # -- what the strip shows ---------------------------------------------------------------
    @property
    def on(self) -> bool:
        return self.bri > 0

    @property
    def brightness(self) -> int:
        """The strip's brightness now (0: off)."""
        return self.bri

    @property
    def uptime(self) -> int:
        return int(time.monotonic() - self._booted)

    @property
    def leds(self) -> bytearray:
        """The strip's colours (before brightness): black when off, segment 0's effect when it
        is not frozen, else the pixels set by ``i``."""
        if not self.on:
            return bytearray(self.led_count * 3)
        if self.frozen:
            return self.pixels
        out = bytearray(self.led_count * 3)
        start, stop = self._bounds()
        out[start * 3:stop * 3] = bytes(self.colour) * (stop - start)
        return out

    def _bounds(self) -> tuple[int, int]:
        start = max(0, min(int(self.segment["start"]), self.led_count))
        return start, max(start, min(int(self.segment["stop"]), self.led_count))

    # -- input ------------------------------------------------------------------------------
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
        self.apply(doc)
        return self.reply() if doc.get("v") is True else None

    def apply(self, doc: dict[str, Any]) -> None:
        """A JSON state object, from the serial line or from WLED's own app."""
        on_before = self.on
        if isinstance(doc.get("bri"), int) and not isinstance(doc["bri"], bool):
            self.bri = max(0, min(255, doc["bri"]))
        on = doc["on"] if isinstance(doc.get("on"), bool) else self.bri > 0
        if (not on) != (not self.bri):  # WLED's toggleOnOff()
            if self.bri == 0:
                self.bri = self.bri_last
            else:
                self.bri_last, self.bri = self.bri, 0
        if self.bri and not on_before:
            self.frozen = False  # switching on unfreezes every segment
        if self.bri:
            self.bri_last = self.bri
        segs = doc.get("seg")
        for seg in segs if isinstance(segs, list) else [segs] if isinstance(segs, dict) else []:
            if isinstance(seg, dict) and seg.get("id", 0) == 0 and isinstance(seg.get("i"), list):
                try:
                    self._individual(seg["i"])
                except (TypeError, ValueError):  # WLED skips what it cannot read
                    self.frames_bad += 1

    def reply(self) -> bytes:
        start, stop = self._bounds()
        seg = {"id": 0, **{k: self.segment[k] for k in SEGMENT_FIELDS}, "len": stop - start,
               "on": True, "frz": self.frozen, "col": [list(self.colour), [0, 0, 0], [0, 0, 0]],
               "fx": 0}
        state = {"on": self.on, "bri": self.bri_last, "transition": 7, "ps": -1, "pl": -1,
                 "seg": [seg]}
        info = {"ver": WLED_VERSION, "name": "WLED board-sim", "uptime": self.uptime,
                "leds": {"count": self.led_count, "rgbw": False, "maxseg": 32}}
        return json.dumps({"state": state, "info": info}, separators=(",", ":")).encode() + b"\n"

    def _individual(self, items: list[Any]) -> None:
        if not self.frozen:
            self.frozen = True
            start, stop = self._bounds()
            self.pixels[start * 3:stop * 3] = bytes((stop - start) * 3)
        numbers: list[int] = []
        cursor = 0
        for item in items:
            if isinstance(item, int) and not isinstance(item, bool):
                numbers.append(abs(item))
                continue
            if isinstance(item, str) and len(item) in (6, 8):
                try:
                    rgb = bytes.fromhex(item)[-3:] if len(item) == 6 else bytes.fromhex(item)[1:]
                except ValueError:
                    rgb = b"\0\0\0"
            elif isinstance(item, list):
                rgb = bytes(max(0, min(255, int(c))) for c in (item + [0, 0, 0])[:3])
            else:
                rgb = b"\0\0\0"
            if numbers:  # else the colour goes to the LED after the last one set
                cursor = numbers[0]
            last = numbers[-1] if len(numbers) > 1 and numbers[-1] > cursor else cursor + 1
            while cursor < last:
                self._set_pixel(cursor, rgb)
                cursor += 1
            numbers = []

    def _set_pixel(self, i: int, rgb: bytes) -> None:
        """WLED 0.14's ``Segment::setPixelColor`` on a 1D strip."""
        start, stop = self._bounds()
        length = stop - start
        grouping, spacing = max(1, int(self.segment["grp"])), max(0, int(self.segment["spc"]))
        group = grouping + spacing
        virtual = (length + group - 1) // group
        if self.segment["mi"]:
            virtual = (virtual + 1) // 2
        if not 0 <= i < virtual:
            return
        if self.segment["rev"]:
            i = virtual - i - 1
        i = i * group + start
        offset = int(self.segment["of"])
        for j in range(grouping):
            index = i - j if self.segment["rev"] else i + j
            if not start <= index < stop:
                continue
            targets = [index]
            if self.segment["mi"]:
                targets.append(stop - index + start - 1)
            for target in targets:
                target += offset
                if target >= stop:
                    target -= length
                self.pixels[target * 3:target * 3 + 3] = rgb


class BoardEmulator:
    """A board device on a pty. ``start()`` returns the device path (or the link path when
    ``link`` is given: a symlink kept pointing at the current pty across replugs)."""

    def __init__(self, mode: str = OURS, layout: Layout | None = None,
                 link: str | Path | None = None, led_count: int | None = None,
                 max_brightness: int = 255,
                 on_change: Callable[[BoardEmulator], None] | None = None,
                 reset_on_open: float | None = None, native_usb: bool = False,
                 segment: dict[str, Any] | None = None, up_for: float = 0.0) -> None:
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
        # Like WLED on an ESP32-S2/S3's own USB port (TinyUSB CDC): ``if (Serial)`` is false,
        # and nothing is read, unless the host holds DTR and RTS up.
        self.native_usb = native_usb
        self.dtr = self.rts = False
        self._lines_dir: str | None = None
        self._lines_fd: int | None = None
        self._lines_buffer = b""
        self.ignored_bytes = 0
        self.resets = 0
        self._plugs = 0
        self._host_open = False
        self._booted_at: float | None = None
        self.device: Device | WledDevice = (
            Device(led_count=self.led_count, max_brightness=max_brightness)
            if mode == OURS else WledDevice(self.led_count, segment, up_for))
        # faults
        self.delay = 0.0          # seconds before each reply (a slow device)
        self.baud: int | None = None  # emulate the line time of a real UART at this rate
        self.drop_next_acks = 0   # replies to swallow
        self.corrupt_next = 0     # incoming frames to damage (flip a bit before decoding)
        self.noise_next = 0       # replies to precede with line noise
        self.drop_every = 0       # drop every Nth reply (0: never)
        self.noise_every = 0      # line noise before every Nth reply (0: never)
        self.reply_prefix = b""   # WLED: debug output before the JSON, on the same line
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
        if self.native_usb:
            self._lines_dir = tempfile.mkdtemp(prefix="board-sim-lines-")
            fifo = os.path.join(self._lines_dir, "lines")
            os.mkfifo(fifo)
            # read and write: the host's spy can always open it, and it never reads as ended
            self._lines_fd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
        self._plug()
        self._thread = threading.Thread(target=self._run, name="board-emulator", daemon=True)
        self._thread.start()
        return self.path

    @property
    def path(self) -> str:
        return str(self.link) if self.link else (self.device_path or "")

    @property
    def port_url(self) -> str:
        """What the host opens: the path, or with ``native_usb`` pyserial's ``spy://`` URL of
        it that reports the host's DTR and RTS to this emulator."""
        if self._lines_dir is None:
            return self.path
        return f"spy://{self.path}?file={os.path.join(self._lines_dir, 'lines')}"

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(2)
        self._unplug()
        if self._lines_fd is not None:
            os.close(self._lines_fd)
            self._lines_fd = None
        if self._lines_dir is not None:
            shutil.rmtree(self._lines_dir, ignore_errors=True)

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
            if self._plugs:  # plugged back in: powered up again (the first plug: as built)
                self.device.reset()
            self._plugs += 1
            self.plugged = True
            self._host_open = False
            self.dtr = self.rts = False
            if self._watch_open:  # watch the host open and close the port
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
    def _watch_open(self) -> bool:
        return self.reset_on_open is not None or self.native_usb

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
        """The device resets while plugged in (brown-out, watchdog, reset button, an update):
        our firmware comes up dark with the default layout and says hello with seq 0; WLED
        comes up running its effect on segment 0, uptime 0, and says nothing."""
        with self._lock:
            self.device.reset()
            self._changed.notify_all()
        if isinstance(self.device, Device):
            self._write(self.device.hello(0))

    def wled_app(self, doc: dict[str, Any]) -> None:
        """A change made in WLED's own app or web page (``{"on": false}``, ...)."""
        if not isinstance(self.device, WledDevice):
            raise EmulatorError("only a WLED board has WLED's app")
        with self._lock:
            self.device.apply(doc)
            self._changed.notify_all()

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
                    self._read_lines()
                    continue
                data = os.read(fd, 4096)
            except OSError as exc:
                if exc.errno == errno.EIO:  # nobody has the port open
                    self._host_open = False
                    self.dtr = self.rts = False  # closing the port drops both lines
                time.sleep(0.01)
                continue
            except ValueError:
                time.sleep(0.01)
                continue
            self._opened()
            self._read_lines()
            if self.native_usb and not (self.dtr and self.rts):
                self.ignored_bytes += len(data)  # WLED's handleSerial(): Serial is false
                continue
            if data and self._booted_at is None:
                self._receive(data)  # (while booting, input is lost as on the real board)

    def _read_lines(self) -> None:
        """Take the host's DTR and RTS changes from the spy's report (``native_usb``)."""
        if self._lines_fd is None:
            return
        while True:
            try:
                chunk = os.read(self._lines_fd, 65536)
            except BlockingIOError:
                break
            if not chunk:
                break
            self._lines_buffer += chunk
        *lines, self._lines_buffer = self._lines_buffer.split(b"\n")
        for line in lines:
            words = line.split()
            if len(words) == 3 and words[1] in (b"DTR", b"RTS"):
                setattr(self, words[1].decode().lower(), words[2] == b"active")

    def _opened(self) -> None:
        if not self._watch_open or self._host_open:
            return
        self._host_open = True
        if self.reset_on_open is None:
            return
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
            self._write(self.reply_prefix + reply if self.mode != OURS else reply)

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
