"""The shared test vectors (``tests/vectors/protocol.json``): frames as the Python side encodes
them, and a device session with the replies and LED buffers the firmware must produce. The tests
check the Python code and the compiled C++ core against the same file.

``python -m firmware_bridge.vectors tests/vectors/protocol.json`` rewrites the file.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Final

from firmware_bridge import protocol as p
from firmware_bridge.device import Device
from firmware_bridge.layout import default_layout
from firmware_bridge.scene import Scene
from scorekeeper.pegboard import MAX_BOARDS

LED_COUNT = 192
#: The colours of six boards, fixed so that the vectors do not change with the default peg
#: colours.
COLOURS: Final = ("#e5383b", "#2f6fde", "#e0a800", "#2a9d4b", "#f2f2f2", "#8e44ad")
assert len(COLOURS) == MAX_BOARDS


def scenes() -> list[Scene]:
    """The states used by the vectors (six boards, then three)."""
    return [
        Scene.from_scores(zip(COLOURS, [0, 0, 0, 0, 0, 0], strict=True), brightness=64),
        Scene.from_scores(zip(COLOURS, [437, -25, 1040, 99, 0, 999], strict=True), 64),
        Scene.from_scores(zip(COLOURS, [452, -25, 1040, 99, 0, 999], strict=True), 64),
        Scene.from_scores(zip(COLOURS[:3], [452, 15, 2007], strict=True), brightness=255),
    ]


def _frames() -> list[tuple[str, p.Message, int]]:
    layout = default_layout()
    states = scenes()
    return [
        ("hello request", p.HelloRequest(), 1),
        ("layout board 0", p.Layout(0, layout.boards[0].wire_indexes()), 2),
        ("layout board 5 without thousand light",
         p.Layout(5, layout.boards[5].wire_indexes()[:31] + (0xFFFF,)), 3),
        ("full state six boards", p.FullState.of(states[1]), 4),
        ("pegs one board", p.Pegs((p.PegChange.of(0, states[2].boards[0]),)), 5),
        ("pegs two boards", p.Pegs((p.PegChange(1, 0, 1, 5, 0), p.PegChange(2, 0, 0, 7, 2))),
         6),
        ("brightness", p.Brightness(32), 7),
        ("heartbeat", p.Heartbeat(), 8),
        ("test light", p.TestLight(37, 1, (255, 255, 255)), 9),
        ("seq wraps at 255", p.Heartbeat(), 255),
        ("hello", p.Hello(1, (1, 0, 0), 192, 6), 0),
        ("ack", p.Ack(), 5),
        ("nak bad frame", p.Nak(p.NAK_BAD_FRAME), 0),
        ("nak bad value", p.Nak(p.NAK_BAD_VALUE), 12),
    ]


def _hand_made(kind: int, seq: int, body: bytes) -> bytes:
    """A wire frame with a valid CRC that the encoder would not build (unknown type, bad
    length)."""
    raw = bytes([kind, seq]) + body
    return p.cobs_encode(raw + p.crc16(raw).to_bytes(2, "big")) + b"\0"


def _session() -> list[tuple[str, bytes]]:
    """Host -> device traffic, including the faults a serial line produces."""
    layout = default_layout()
    states = scenes()
    steps: list[tuple[str, bytes]] = [("hello request", p.encode(p.HelloRequest(), 1))]
    seq = 2
    for b, board in enumerate(layout.boards):
        indexes = board.wire_indexes()
        if b == 5:  # prove the map is used: board 5's ones row wired the other way round
            indexes = indexes[:20] + tuple(reversed(indexes[20:30])) + indexes[30:]
        steps.append((f"layout {b}", p.encode(p.Layout(b, indexes), seq)))
        seq += 1
    steps.append(("full state", p.encode(p.FullState.of(states[0]), seq)))
    seq += 1
    steps.append(("full state scores", p.encode(p.FullState.of(states[1]), seq)))
    seq += 1
    changes = tuple(p.PegChange.of(b, pegs) for b, pegs in enumerate(states[2].boards)
                    if not pegs.same_pegs(states[1].boards[b]))
    steps.append(("pegs", p.encode(p.Pegs(changes), seq)))
    seq += 1
    steps.append(("garbage between frames", bytes([0x13, 0x37, 0xFF, 0x00])))
    bad_crc = bytearray(p.frame_bytes(p.Brightness(10), seq))
    bad_crc[-1] ^= 0x55
    steps.append(("bad crc", p.cobs_encode(bytes(bad_crc)) + b"\x00"))
    steps.append(("brightness", p.encode(p.Brightness(40), seq)))
    seq += 1
    steps.append(("unknown type", _hand_made(0x42, seq, b"\x01")))
    seq += 1
    steps.append(("wrong length", _hand_made(p.PEGS, seq, b"\x00\x01\x02")))
    seq += 1
    steps.append(("hole out of range", p.encode(p.Pegs((p.PegChange(0, 1, 2, 10, 0),)), seq)))
    seq += 1
    steps.append(("board not shown", p.encode(p.FullState(64, ()), seq)))
    seq += 1
    steps.append(("pegs on a dark board", p.encode(p.Pegs((p.PegChange(0, 1, 2, 3),)), seq)))
    seq += 1
    steps.append(("too long", b"\x05" * 120 + b"\x00"))
    steps.append(("fewer boards, brightness over the cap",
                  p.encode(p.FullState.of(states[3]), seq)))
    seq += 1
    steps.append(("test light", p.encode(p.TestLight(40, 3, (1, 2, 3)), seq)))
    seq += 1
    steps.append(("heartbeat", p.encode(p.Heartbeat(), seq)))
    return steps


def build() -> dict[str, Any]:
    cobs_cases = [b"", b"\x00", b"\x00\x00", b"\x11\x22\x00\x33", b"\x11\x22\x33\x44",
                  b"\x11\x00\x00\x00", bytes(range(1, 255)), bytes(range(0, 255)),
                  bytes(range(1, 256)), bytes(range(2, 256)) + b"\x00",
                  bytes(range(3, 256)) + b"\x00\x01", bytes(i % 255 + 1 for i in range(600))]
    device = Device(led_count=LED_COUNT)
    session = []
    for name, wire in _session():
        replies = device.feed(wire)
        session.append({"name": name, "wire": wire.hex(), "replies": [r.hex() for r in replies],
                        "brightness": device.brightness, "active": device.active,
                        "leds": bytes(device.leds).hex()})
    return {
        "about": "Shared vectors for the board protocol (hardware/PROTOCOL.md); regenerate with "
                 "python -m firmware_bridge.vectors tests/vectors/protocol.json",
        "crc16": [{"data": d.hex(), "crc": f"{p.crc16(d):04x}"}
                  for d in (b"123456789", b"", b"\x00", b"\xff" * 4, bytes(range(64)))],
        "cobs": [{"data": d.hex(), "encoded": p.cobs_encode(d).hex()} for d in cobs_cases],
        "frames": [{"name": name, "seq": seq, "message": repr(msg),
                    "wire": p.encode(msg, seq).hex()} for name, msg, seq in _frames()],
        "session": {"led_count": LED_COUNT, "hello": device.hello(0).hex(), "steps": session},
    }


def dumps() -> str:
    return json.dumps(build(), indent=1) + "\n"


def main(argv: list[str]) -> int:
    text = dumps()
    if argv:
        with open(argv[0], "w", encoding="utf-8") as out:
            out.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
