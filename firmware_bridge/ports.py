"""Finding and opening the board's serial port.

With no port named (``auto``) the board is found among ``serial.tools.list_ports`` by USB
vendor/product id (the USB-serial chips of ESP32 and Arduino boards) and, when given, serial
number. A port may also be one of pyserial's URLs, e.g. ``spy:///dev/ttyACM0?file=trace.txt``
(every byte and every DTR/RTS change written to ``trace.txt``) or ``rfc2217://host:4000``.

ESP32-S2 and S3 boards on their own USB port (Espressif's USB id 0x303A, TinyUSB CDC) read
nothing until the host raises DTR and RTS, so for them both lines are held up
(:func:`holds_lines`); every other board gets the reset-safe sequence of :func:`open_port`.

>>> parse_vid_pid("1a86:7523")
(6790, 29987)
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import serial
from serial.tools import list_ports

BAUD: Final = 115200
AUTO: Final = "auto"

#: USB (vendor, product) ids of the serial chips found on ESP32, ESP8266 and Arduino boards;
#: ``None`` as product matches any product of that vendor.
KNOWN_USB_IDS: Final[tuple[tuple[int, int | None, str], ...]] = (
    (0x303A, None, "Espressif USB (ESP32-S2/S3/C3 native USB)"),
    (0x10C4, 0xEA60, "Silicon Labs CP210x"),
    (0x1A86, 0x7523, "WCH CH340"),
    (0x1A86, 0x55D4, "WCH CH9102"),
    (0x0403, 0x6001, "FTDI FT232R"),
    (0x0403, 0x6015, "FTDI FT231X"),
    (0x2341, None, "Arduino"),
    (0x2A03, None, "Arduino (arduino.org)"),
)


#: USB vendor ids of boards whose serial port is the chip's own USB (TinyUSB CDC): the sketch
#: only reads while the host holds DTR (and RTS) up.
NATIVE_USB_VIDS: Final = frozenset({0x303A})
#: ``--dtr`` settings: hold DTR and RTS up for native-USB boards only, always, or never.
DTR_AUTO: Final = "auto"
DTR_HOLD: Final = "hold"
DTR_DROP: Final = "drop"
DTR_MODES: Final = (DTR_AUTO, DTR_HOLD, DTR_DROP)


class PortError(ValueError):
    """No board port could be found or opened; the message says what to plug in or pass."""


def parse_vid_pid(text: str) -> tuple[int, int | None]:
    """``"1a86:7523"`` or ``"303a"`` (any product) -> ids."""
    try:
        vid, _, pid = text.partition(":")
        return int(vid, 16), (int(pid, 16) if pid else None)
    except ValueError as exc:
        raise PortError(f"USB id {text!r} must be VID:PID in hex, e.g. 1a86:7523") from exc


@dataclass(frozen=True, slots=True)
class PortMatch:
    """How to recognise the board among the ports."""

    usb_ids: tuple[tuple[int, int | None], ...] = tuple((v, p) for v, p, _ in KNOWN_USB_IDS)
    serial_number: str | None = None

    def matches(self, port: Any) -> bool:
        if port.vid is None:
            return False
        if self.serial_number and port.serial_number != self.serial_number:
            return False
        return any(port.vid == vid and (pid is None or port.pid == pid)
                   for vid, pid in self.usb_ids)


def choose_port(ports: Iterable[Any], match: PortMatch) -> str | None:
    """The device path of the first matching port (sorted by path, so stable)."""
    for port in sorted(ports, key=lambda p: p.device):
        if match.matches(port):
            return str(port.device)
    return None


def find_port(match: PortMatch) -> str:
    path = choose_port(list_ports.comports(), match)
    if path is None:
        wanted = f" with serial number {match.serial_number}" if match.serial_number else ""
        raise PortError(f"no board found on USB{wanted}: plug it in, or name the port "
                        "(--port /dev/ttyUSB0)")
    return path


def device_of(path: str) -> str:
    """The device behind a port name: ``spy:///dev/ttyACM0?file=x`` -> ``/dev/ttyACM0``."""
    if path.startswith("spy://"):
        return path[len("spy://"):].partition("?")[0]
    return path


def port_info(path: str, ports: Iterable[Any] | None = None) -> Any | None:
    """The ``list_ports`` entry of ``path`` (symlinks followed), or None (a pty, a URL)."""
    real = os.path.realpath(device_of(path))
    for port in list_ports.comports() if ports is None else ports:
        if os.path.realpath(port.device) == real:
            return port
    return None


def holds_lines(path: str, dtr: str = DTR_AUTO, ports: Iterable[Any] | None = None) -> bool:
    """Whether to hold DTR and RTS up on ``path``: ``hold``, ``drop``, or ``auto`` (up for a
    native-USB board, :data:`NATIVE_USB_VIDS`).

    >>> holds_lines("/dev/ttyACM0", "hold"), holds_lines("/dev/ttyACM0", "drop")
    (True, False)
    """
    if dtr not in DTR_MODES:
        raise PortError(f"DTR setting must be one of {', '.join(DTR_MODES)}, got {dtr!r}")
    if dtr != DTR_AUTO:
        return dtr == DTR_HOLD
    info = port_info(path, ports)
    return info is not None and info.vid in NATIVE_USB_VIDS


def open_port(path: str, baudrate: int = BAUD, write_timeout: float = 0.5,
              hold_lines: bool = False) -> serial.Serial:
    """Open ``path`` (a device or a pyserial URL) without holding an ESP32 in reset.

    An ESP32 dev board's auto-reset circuit resets the chip while RTS is asserted and DTR is
    not, and holds it in the bootloader while DTR is asserted and RTS is not at reset. Opening
    asserts DTR before RTS, never "RTS alone"; then, unless ``hold_lines``, RTS is released
    first and DTR second. With ``hold_lines`` (a native-USB ESP32-S2/S3, whose WLED reads
    nothing otherwise) both stay up: no reset circuit sits on those lines. An Arduino Uno/Nano
    resets whenever the port opens (DTR through a capacitor): the link then waits for its hello.
    """
    port = serial.serial_for_url(path, do_not_open=True)
    port.baudrate = baudrate
    port.timeout = 0.01
    port.write_timeout = write_timeout
    port.dtr = True
    port.rts = hold_lines
    if hasattr(port, "exclusive"):
        port.exclusive = True
    port.open()
    if not hold_lines:
        try:
            port.dtr = False
        except OSError as exc:  # a pseudo-terminal (the emulator) has no modem lines
            if exc.errno not in (errno.EINVAL, errno.ENOTTY):
                port.close()
                raise
    return port


def describe_ports(ports: Sequence[Any] | None = None) -> list[dict[str, Any]]:
    """The serial ports seen, for ``scorekeeper board --list``."""
    ports = list_ports.comports() if ports is None else ports
    match = PortMatch()
    return [{"port": p.device, "description": p.description,
             "usb": f"{p.vid:04x}:{p.pid:04x}" if p.vid is not None else None,
             "serial_number": p.serial_number, "looks_like_a_board": match.matches(p),
             "native_usb": p.vid in NATIVE_USB_VIDS}
            for p in ports]
