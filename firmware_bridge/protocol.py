"""Our board protocol (``hardware/PROTOCOL.md``): COBS-framed messages with a CRC-16.

A frame on the wire is ``COBS(type, seq, body..., crc_hi, crc_lo)`` followed by one ``0x00``.
The CRC is CRC-16/CCITT-FALSE over type, seq and body.

>>> wire = encode(Pegs((PegChange(0, 4, 3, 7),)), seq=5)
>>> wire.hex(" "), len(wire)
('03 04 05 04 04 03 07 03 79 3f 00', 11)
>>> FrameDecoder().feed(wire)
[Frame(seq=5, message=Pegs(changes=(PegChange(board=0, hundreds=4, tens=3, ones=7, flags=0),)))]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from firmware_bridge.scene import BoardPegs, Scene

PROTOCOL_VERSION: Final = 1
MAX_FRAME: Final = 96  # largest decoded frame a device must accept (type..crc)

# Host -> device
HELLO_REQUEST: Final = 0x01
LAYOUT: Final = 0x02
FULL_STATE: Final = 0x03
PEGS: Final = 0x04
BRIGHTNESS: Final = 0x05
HEARTBEAT: Final = 0x06
TEST_LIGHT: Final = 0x07
# Device -> host
HELLO: Final = 0x81
ACK: Final = 0x82
NAK: Final = 0x83

#: NAK reasons.
NAK_BAD_FRAME: Final = 1  # COBS or CRC failed (seq is 0: it could not be read)
NAK_UNKNOWN_TYPE: Final = 2
NAK_BAD_LENGTH: Final = 3
NAK_BAD_VALUE: Final = 4  # a board, hole or LED index out of range
NAK_TOO_LONG: Final = 5
NAK_REASONS: Final = {
    NAK_BAD_FRAME: "corrupted frame (CRC or COBS)",
    NAK_UNKNOWN_TYPE: "unknown message type",
    NAK_BAD_LENGTH: "wrong body length",
    NAK_BAD_VALUE: "value out of range",
    NAK_TOO_LONG: "frame too long",
}


class ProtocolError(ValueError):
    """Bytes that are not a valid frame: says what failed (COBS, CRC, type, length)."""


# -- COBS and CRC ---------------------------------------------------------------------------
def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF).

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result has no zero byte.

    >>> cobs_encode(bytes([0x11, 0x22, 0x00, 0x33])).hex(" ")
    '03 11 22 02 33'
    """
    out = bytearray([0])
    code_at: int | None = 0  # where the current block's length byte goes
    code = 1
    for i, byte in enumerate(data):
        if byte == 0:
            out[code_at or 0] = code
            code_at, code = len(out), 1
            out.append(0)
            continue
        out.append(byte)
        code += 1
        if code == 0xFF:  # a full block of 254 bytes: no zero follows it
            out[code_at or 0] = code
            code_at, code = None, 1
            if i + 1 < len(data):
                code_at = len(out)
                out.append(0)
    if code_at is not None:
        out[code_at] = code
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Inverse of :func:`cobs_encode`; raises :class:`ProtocolError` on a malformed block."""
    out = bytearray()
    i = 0
    while i < len(data):
        code = data[i]
        if code == 0:
            raise ProtocolError("COBS: zero byte inside a frame")
        end = i + code
        if end > len(data):
            raise ProtocolError("COBS: block runs past the end of the frame")
        block = data[i + 1:end]
        if 0 in block:
            raise ProtocolError("COBS: zero byte inside a frame")
        out += block
        i = end
        if code < 255 and i < len(data):
            out.append(0)
    return bytes(out)


# -- messages -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class HelloRequest:
    """Host asks the device to introduce itself (it answers :class:`Hello`)."""

    TYPE = HELLO_REQUEST

    def body(self) -> bytes:
        return b""


@dataclass(frozen=True, slots=True)
class Layout:
    """The 32 LED indexes of one board (hundreds 0-9, tens 0-9, ones 0-9, minus, thousand);
    0xFFFF for a light that is not fitted."""

    board: int
    leds: tuple[int, ...]
    TYPE = LAYOUT

    def body(self) -> bytes:
        if len(self.leds) != 32:
            raise ProtocolError(f"a layout message carries 32 LED indexes, got {len(self.leds)}")
        return bytes([self.board]) + b"".join(i.to_bytes(2, "big") for i in self.leds)


@dataclass(frozen=True, slots=True)
class FullState:
    """Every board (colour, holes, lights) and the brightness; boards beyond are dark."""

    brightness: int
    boards: tuple[BoardPegs, ...]
    TYPE = FULL_STATE

    @classmethod
    def of(cls, scene: Scene) -> FullState:
        return cls(scene.brightness, scene.boards)

    def body(self) -> bytes:
        out = bytearray([self.brightness, len(self.boards)])
        for b in self.boards:
            out += bytes((*b.colour, b.hundreds, b.tens, b.ones, b.flags))
        return bytes(out)


@dataclass(frozen=True, slots=True)
class PegChange:
    """The new holes and lights of one board (its colour is unchanged)."""

    board: int
    hundreds: int
    tens: int
    ones: int
    flags: int = 0

    @classmethod
    def of(cls, board: int, pegs: BoardPegs) -> PegChange:
        return cls(board, pegs.hundreds, pegs.tens, pegs.ones, pegs.flags)


@dataclass(frozen=True, slots=True)
class Pegs:
    """Changed pegs: one entry per board whose holes or lights moved."""

    changes: tuple[PegChange, ...]
    TYPE = PEGS

    def body(self) -> bytes:
        return b"".join(bytes((c.board, c.hundreds, c.tens, c.ones, c.flags))
                        for c in self.changes)


@dataclass(frozen=True, slots=True)
class Brightness:
    level: int
    TYPE = BRIGHTNESS

    def body(self) -> bytes:
        return bytes([self.level])


@dataclass(frozen=True, slots=True)
class Heartbeat:
    TYPE = HEARTBEAT

    def body(self) -> bytes:
        return b""


@dataclass(frozen=True, slots=True)
class TestLight:
    """Clear the strip and light ``count`` LEDs from ``start`` in one colour (board test)."""

    start: int
    count: int
    colour: tuple[int, int, int]
    TYPE = TEST_LIGHT

    def body(self) -> bytes:
        return self.start.to_bytes(2, "big") + self.count.to_bytes(2, "big") + bytes(self.colour)


@dataclass(frozen=True, slots=True)
class Hello:
    """The device's introduction, sent after reset and in answer to :class:`HelloRequest`."""

    protocol: int
    firmware: tuple[int, int, int]
    led_count: int
    max_boards: int
    TYPE = HELLO

    def body(self) -> bytes:
        return bytes([self.protocol, *self.firmware]) + self.led_count.to_bytes(2, "big") + \
            bytes([self.max_boards])

    @property
    def version(self) -> str:
        return "{}.{}.{}".format(*self.firmware)


@dataclass(frozen=True, slots=True)
class Ack:
    TYPE = ACK

    def body(self) -> bytes:
        return b""


@dataclass(frozen=True, slots=True)
class Nak:
    reason: int
    TYPE = NAK

    def body(self) -> bytes:
        return bytes([self.reason])

    @property
    def text(self) -> str:
        return NAK_REASONS.get(self.reason, f"reason {self.reason}")


Message = (HelloRequest | Layout | FullState | Pegs | Brightness | Heartbeat | TestLight
           | Hello | Ack | Nak)


@dataclass(frozen=True, slots=True)
class Frame:
    seq: int
    message: Message


def frame_bytes(message: Message, seq: int) -> bytes:
    """The decoded frame: type, seq, body, CRC (before COBS)."""
    if not 0 <= seq <= 255:
        raise ProtocolError(f"seq must be 0-255, got {seq}")
    raw = bytes([message.TYPE, seq]) + message.body()
    raw += crc16(raw).to_bytes(2, "big")
    if len(raw) > MAX_FRAME:
        raise ProtocolError(f"frame of {len(raw)} bytes exceeds the {MAX_FRAME}-byte limit")
    return raw


def encode(message: Message, seq: int) -> bytes:
    """The frame as sent on the wire: COBS-encoded, ending in ``0x00``."""
    return cobs_encode(frame_bytes(message, seq)) + b"\x00"


def _need(body: bytes, size: int, name: str, multiple: bool = False) -> None:
    ok = (len(body) % size == 0 and len(body) > 0) if multiple else len(body) == size
    if not ok:
        raise ProtocolError(f"{name}: body of {len(body)} bytes, expected "
                            f"{'a multiple of ' if multiple else ''}{size}")


def parse_frame(raw: bytes) -> Frame:
    """Parse a decoded frame (type, seq, body, CRC)."""
    if len(raw) < 4:
        raise ProtocolError(f"frame of {len(raw)} bytes is too short (at least 4)")
    if crc16(raw[:-2]) != int.from_bytes(raw[-2:], "big"):
        raise ProtocolError("CRC mismatch")
    kind, seq, body = raw[0], raw[1], raw[2:-2]
    message: Message
    if kind == HELLO_REQUEST:
        _need(body, 0, "hello request")
        message = HelloRequest()
    elif kind == LAYOUT:
        _need(body, 65, "layout")
        message = Layout(body[0], tuple(int.from_bytes(body[i:i + 2], "big")
                                        for i in range(1, 65, 2)))
    elif kind == FULL_STATE:
        if len(body) < 2 or len(body) != 2 + 7 * body[1]:
            raise ProtocolError(f"full state: body of {len(body)} bytes does not match its "
                                "board count")
        boards = []
        for i in range(body[1]):
            r, g, b, h, t, o, flags = body[2 + 7 * i:9 + 7 * i]
            try:
                boards.append(BoardPegs((r, g, b), h, t, o, bool(flags & 1), bool(flags & 2)))
            except ValueError as exc:
                raise ProtocolError(f"full state board {i}: {exc}") from exc
        message = FullState(body[0], tuple(boards))
    elif kind == PEGS:
        _need(body, 5, "pegs", multiple=True)
        message = Pegs(tuple(PegChange(*body[i:i + 5]) for i in range(0, len(body), 5)))
    elif kind == BRIGHTNESS:
        _need(body, 1, "brightness")
        message = Brightness(body[0])
    elif kind == HEARTBEAT:
        _need(body, 0, "heartbeat")
        message = Heartbeat()
    elif kind == TEST_LIGHT:
        _need(body, 7, "test light")
        message = TestLight(int.from_bytes(body[0:2], "big"), int.from_bytes(body[2:4], "big"),
                            (body[4], body[5], body[6]))
    elif kind == HELLO:
        _need(body, 7, "hello")
        message = Hello(body[0], (body[1], body[2], body[3]),
                        int.from_bytes(body[4:6], "big"), body[6])
    elif kind == ACK:
        _need(body, 0, "ack")
        message = Ack()
    elif kind == NAK:
        _need(body, 1, "nak")
        message = Nak(body[0])
    else:
        raise ProtocolError(f"unknown message type 0x{kind:02x}")
    return Frame(seq, message)


def decode(wire: bytes) -> Frame:
    """Decode one wire frame (with or without its trailing ``0x00``)."""
    if wire.endswith(b"\x00"):
        wire = wire[:-1]
    return parse_frame(cobs_decode(wire))


@dataclass
class FrameDecoder:
    """Splits a byte stream at ``0x00`` and decodes each frame. Garbage yields a
    :class:`ProtocolError` in the output list (never an exception), so the caller can count
    and report it and go on with the next frame.
    """

    max_encoded: int = MAX_FRAME + 4
    _buffer: bytearray = field(default_factory=bytearray)
    _overflow: bool = False

    def feed(self, data: Iterable[int]) -> list[Frame | ProtocolError]:
        out: list[Frame | ProtocolError] = []
        for byte in data:
            if byte != 0:
                if len(self._buffer) < self.max_encoded:
                    self._buffer.append(byte)
                else:
                    self._overflow = True
                continue
            if self._overflow:
                out.append(ProtocolError(f"frame longer than {self.max_encoded} bytes dropped"))
            elif self._buffer:
                try:
                    out.append(parse_frame(cobs_decode(bytes(self._buffer))))
                except ProtocolError as exc:
                    out.append(exc)
            self._buffer.clear()
            self._overflow = False
        return out
