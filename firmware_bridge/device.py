"""A board device in Python: the behaviour of ``hardware/firmware/scorekeeper_board/skb_core.cpp``
(layout map, boards, brightness cap, rendering, ACK/NAK), used by the emulator. The tests feed the
same bytes to this model and to the compiled C++ core and compare every reply and LED buffer.

>>> from firmware_bridge import protocol
>>> device = Device(led_count=64)
>>> replies = device.feed(protocol.encode(protocol.HelloRequest(), seq=9))
>>> protocol.decode(replies[0])
Frame(seq=9, message=Hello(protocol=1, firmware=(1, 0, 0), led_count=64, max_boards=6))
"""

from __future__ import annotations

from dataclasses import dataclass, field

from firmware_bridge import protocol as p
from firmware_bridge.layout import LEDS_PER_BOARD, NO_LED, serpentine_board

FIRMWARE_VERSION = (1, 0, 0)
MAX_BOARDS = 6
MAX_ENCODED = p.MAX_FRAME + 2


@dataclass
class BoardRecord:
    rgb: bytes = b"\x00\x00\x00"
    holes: bytes = b"\x00\x00\x00"
    flags: int = 0


@dataclass
class Device:
    """Our firmware's state machine. :meth:`feed` takes wire bytes and returns the reply
    frames (wire bytes) it would write."""

    led_count: int = 192
    max_brightness: int = 255
    brightness: int = 64
    active: int = 0
    frames_ok: int = 0
    frames_bad: int = 0
    leds: bytearray = field(default_factory=bytearray)
    map: list[list[int]] = field(default_factory=list)
    boards: list[BoardRecord] = field(default_factory=list)
    _rx: bytearray = field(default_factory=bytearray)
    _overflow: bool = False

    def __post_init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Power-on state: default serpentine layout, dark strip."""
        self.map = [list(serpentine_board(b * LEDS_PER_BOARD).wire_indexes())
                    for b in range(MAX_BOARDS)]
        self.boards = [BoardRecord() for _ in range(MAX_BOARDS)]
        self.active = 0
        self.brightness = min(64, self.max_brightness)
        self._rx.clear()
        self._overflow = False
        self.render()

    def hello(self, seq: int = 0) -> bytes:
        return p.encode(p.Hello(p.PROTOCOL_VERSION, FIRMWARE_VERSION, self.led_count,
                                MAX_BOARDS), seq)

    def render(self) -> None:
        leds = bytearray(self.led_count * 3)

        def light(index: int, rgb: bytes) -> None:
            if index != NO_LED and index < self.led_count:
                leds[index * 3:index * 3 + 3] = rgb

        for b in range(self.active):
            board = self.boards[b]
            for row in range(3):
                light(self.map[b][row * 10 + board.holes[row]], board.rgb)
            if board.flags & 1:
                light(self.map[b][30], board.rgb)
            if board.flags & 2:
                light(self.map[b][31], board.rgb)
        self.leds = leds

    def feed(self, data: bytes) -> list[bytes]:
        replies: list[bytes] = []
        for byte in data:
            if byte != 0:
                if len(self._rx) < MAX_ENCODED:
                    self._rx.append(byte)
                else:
                    self._overflow = True
                continue
            if self._overflow:
                self.frames_bad += 1
                replies.append(p.encode(p.Nak(p.NAK_TOO_LONG), 0))
            elif self._rx:
                try:
                    raw = p.cobs_decode(bytes(self._rx))
                except p.ProtocolError:
                    self.frames_bad += 1
                    replies.append(p.encode(p.Nak(p.NAK_BAD_FRAME), 0))
                else:
                    replies.append(self.handle_frame(raw))
            self._rx.clear()
            self._overflow = False
        return replies

    def handle_frame(self, f: bytes) -> bytes:
        """One decoded frame -> the reply frame (wire bytes)."""
        if len(f) < 4 or p.crc16(f[:-2]) != int.from_bytes(f[-2:], "big"):
            self.frames_bad += 1
            return p.encode(p.Nak(p.NAK_BAD_FRAME), 0)
        kind, seq, body = f[0], f[1], f[2:-2]
        n = len(body)
        self.frames_ok += 1

        def nak(reason: int) -> bytes:
            return p.encode(p.Nak(reason), seq)

        ack = p.encode(p.Ack(), seq)
        if kind == p.HELLO_REQUEST and n == 0:
            return self.hello(seq)
        if kind == p.HEARTBEAT and n == 0:
            return ack
        if kind == p.LAYOUT and n == 1 + 2 * LEDS_PER_BOARD:
            if body[0] >= MAX_BOARDS:
                return nak(p.NAK_BAD_VALUE)
            indexes = [int.from_bytes(body[1 + 2 * i:3 + 2 * i], "big")
                       for i in range(LEDS_PER_BOARD)]
            if any(i != NO_LED and i >= self.led_count for i in indexes):
                return nak(p.NAK_BAD_VALUE)
            self.map[body[0]] = indexes
            self.render()
            return ack
        if kind == p.FULL_STATE and n >= 2 and n == 2 + 7 * body[1]:
            count = body[1]
            if count > MAX_BOARDS:
                return nak(p.NAK_BAD_VALUE)
            entries = [body[2 + 7 * b:9 + 7 * b] for b in range(count)]
            if any(max(e[3:6]) > 9 for e in entries):
                return nak(p.NAK_BAD_VALUE)
            for b, e in enumerate(entries):
                self.boards[b] = BoardRecord(bytes(e[0:3]), bytes(e[3:6]), e[6])
            self.active = count
            self.brightness = min(body[0], self.max_brightness)
            self.render()
            return ack
        if kind == p.PEGS and n > 0 and n % 5 == 0:
            changes = [body[i:i + 5] for i in range(0, n, 5)]
            if any(c[0] >= self.active or max(c[1:4]) > 9 for c in changes):
                return nak(p.NAK_BAD_VALUE)
            for c in changes:
                self.boards[c[0]].holes = bytes(c[1:4])
                self.boards[c[0]].flags = c[4]
            self.render()
            return ack
        if kind == p.BRIGHTNESS and n == 1:
            self.brightness = min(body[0], self.max_brightness)
            return ack
        if kind == p.TEST_LIGHT and n == 7:
            start, count = int.from_bytes(body[0:2], "big"), int.from_bytes(body[2:4], "big")
            if start + count > self.led_count:
                return nak(p.NAK_BAD_VALUE)
            self.active = 0
            self.leds = bytearray(self.led_count * 3)
            self.leds[start * 3:(start + count) * 3] = bytes(body[4:7]) * count
            return ack
        known = (p.HELLO_REQUEST, p.HEARTBEAT, p.LAYOUT, p.FULL_STATE, p.PEGS, p.BRIGHTNESS,
                 p.TEST_LIGHT)
        return nak(p.NAK_BAD_LENGTH if kind in known else p.NAK_UNKNOWN_TYPE)
