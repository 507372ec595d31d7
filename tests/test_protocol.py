"""Our board protocol: Python encoder/decoder, the Python device model and the compiled C++
firmware core agree byte for byte on the shared vectors (tests/vectors/protocol.json)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol as p
from firmware_bridge import vectors
from firmware_bridge.device import Device
from firmware_bridge.layout import default_layout
from firmware_bridge.link import changes
from firmware_bridge.scene import BoardPegs, Scene

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "tests" / "vectors" / "protocol.json"
FIRMWARE = ROOT / "hardware" / "firmware"
#: The firmware core and the host harness that drives it from the command line.
HARNESS_SOURCES = [str(FIRMWARE / "host" / "skb_harness.cpp"),
                   str(FIRMWARE / "scorekeeper_board" / "skb_core.cpp")]


@pytest.fixture(scope="module")
def data() -> dict:
    return json.loads(VECTORS.read_text())


@pytest.fixture(scope="session")
def gxx() -> str:
    found = shutil.which("g++")
    if found is None:
        pytest.skip("g++ is not installed (apt-get install g++): cannot compile the firmware core")
    return found


@pytest.fixture(scope="session")
def harness(gxx: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    exe = tmp_path_factory.mktemp("harness") / "skb_harness"
    subprocess.run([gxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-O1", "-o", str(exe),
                    *HARNESS_SOURCES], check=True, capture_output=True, text=True)
    return exe


def run(harness: Path, *args: str, stdin: bytes = b"") -> list[str]:
    out = subprocess.run([str(harness), *args], input=stdin, capture_output=True, check=True)
    return out.stdout.decode().split()


def test_vectors_file_is_current() -> None:
    assert json.loads(VECTORS.read_text()) == vectors.build(), \
        "run: python -m firmware_bridge.vectors tests/vectors/protocol.json"


def test_crc_known_check_value(data: dict) -> None:
    assert p.crc16(b"123456789") == 0x29B1
    for case in data["crc16"]:
        assert f"{p.crc16(bytes.fromhex(case['data'])):04x}" == case["crc"]


def test_crc_and_cobs_in_cpp(harness: Path, data: dict) -> None:
    for case in data["crc16"]:
        if case["data"]:
            assert run(harness, "crc", case["data"]) == [case["crc"]]
    for case in data["cobs"]:
        encoded = run(harness, "cobs", case["data"] or "")
        assert (encoded[0] if encoded else "") == case["encoded"], case["data"][:20]
        decoded = run(harness, "uncobs", case["encoded"])
        assert (decoded[0] if decoded else "") == case["data"]
    assert run(harness, "uncobs", "05112233") == ["error"]  # block runs past the end


def test_cobs_known_encodings(data: dict) -> None:
    assert p.cobs_encode(b"\x11\x22\x00\x33") == bytes.fromhex("0311220233")
    assert p.cobs_encode(bytes(range(1, 255))) == b"\xff" + bytes(range(1, 255))
    for case in data["cobs"]:
        assert p.cobs_encode(bytes.fromhex(case["data"])).hex() == case["encoded"]
        assert p.cobs_decode(bytes.fromhex(case["encoded"])).hex() == case["data"]


def test_frames_round_trip(data: dict) -> None:
    for case in data["frames"]:
        frame = p.decode(bytes.fromhex(case["wire"]))
        assert frame.seq == case["seq"]
        assert repr(frame.message) == case["message"]
        assert p.encode(frame.message, frame.seq).hex() == case["wire"]
        assert 0 not in bytes.fromhex(case["wire"])[:-1]


def test_cpp_decodes_every_vector_frame(harness: Path, data: dict) -> None:
    wire = b"".join(bytes.fromhex(case["wire"]) for case in data["frames"])
    bad = bytearray(p.frame_bytes(p.Heartbeat(), 3))
    bad[-1] ^= 0xFF
    wire += p.cobs_encode(bytes(bad)) + b"\x00" + b"\x09\x01\x00"
    lines = subprocess.run([str(harness), "decode"], input=wire, capture_output=True,
                           check=True).stdout.decode().splitlines()
    expected = []
    for case in data["frames"]:
        frame = p.decode(bytes.fromhex(case["wire"]))
        raw = p.frame_bytes(frame.message, frame.seq)
        expected.append(f"frame {raw[0]:02x} {raw[1]:02x} {raw[2:-2].hex()}")
    assert lines == [*expected, "error crc", "error cobs"]


def test_score_change_is_small() -> None:
    wire = p.encode(p.Pegs((p.PegChange(3, 4, 5, 2, 1),)), 200)
    assert len(wire) == 11


def test_cpp_hello_decodes(harness: Path, data: dict) -> None:
    (line,) = [x for x in run(harness, "hello", "192") if x != "tx"]
    assert line == data["session"]["hello"]
    assert p.decode(bytes.fromhex(line)) == p.Frame(0, p.Hello(1, (1, 0, 0), 192, 6))


def _harness_session(harness: Path, steps: list[dict], led_count: int) -> list[dict]:
    wire = b"".join(bytes.fromhex(s["wire"]) for s in steps)
    tokens = run(harness, "feed", str(led_count), stdin=wire)
    results: list[dict] = []
    replies: list[str] = []
    i = 0
    while i < len(tokens):
        if tokens[i] == "tx":
            replies.append(tokens[i + 1])
            i += 2
        else:
            assert tokens[i] == "state"
            results.append({"replies": replies, "brightness": int(tokens[i + 1]),
                            "active": int(tokens[i + 2]), "leds": tokens[i + 3]})
            replies = []
            i += 4
    return results


def test_cpp_core_session_matches_vectors(harness: Path, data: dict) -> None:
    session = data["session"]
    steps = session["steps"]
    got = _harness_session(harness, steps, session["led_count"])
    assert len(got) == len(steps)
    for step, result in zip(steps, got, strict=True):
        for key in ("replies", "brightness", "active", "leds"):
            assert result[key] == step[key], f"{step['name']}: {key} differs"


def test_python_device_session_matches_vectors(data: dict) -> None:
    device = Device(led_count=data["session"]["led_count"])
    for step in data["session"]["steps"]:
        replies = device.feed(bytes.fromhex(step["wire"]))
        assert [r.hex() for r in replies] == step["replies"], step["name"]
        assert bytes(device.leds).hex() == step["leds"], step["name"]


def test_session_replies_mean_what_they_say(data: dict) -> None:
    by_name = {s["name"]: [p.decode(bytes.fromhex(r)) for r in s["replies"]]
               for s in data["session"]["steps"]}
    assert isinstance(by_name["pegs"][0].message, p.Ack)
    assert by_name["bad crc"][0] == p.Frame(0, p.Nak(p.NAK_BAD_FRAME))
    assert by_name["garbage between frames"][0].message == p.Nak(p.NAK_BAD_FRAME)
    assert by_name["unknown type"][0].message == p.Nak(p.NAK_UNKNOWN_TYPE)
    assert by_name["wrong length"][0].message == p.Nak(p.NAK_BAD_LENGTH)
    assert by_name["hole out of range"][0].message == p.Nak(p.NAK_BAD_VALUE)
    assert by_name["pegs on a dark board"][0].message == p.Nak(p.NAK_BAD_VALUE)
    assert by_name["too long"][0].message == p.Nak(p.NAK_TOO_LONG)


def test_device_leds_equal_the_layout_rendering(data: dict) -> None:
    """The firmware's LED buffer is exactly what the bridge's layout renders for the state
    (board 5 of the session has its ones row wired the other way round)."""
    layout = default_layout()
    b5 = layout.boards[5]
    layout = replace(layout, boards=layout.boards[:5] + (replace(b5, ones=b5.ones[::-1]),))
    states = vectors.scenes()
    steps = {s["name"]: s for s in data["session"]["steps"]}
    assert bytes.fromhex(steps["full state scores"]["leds"]) == layout.render(states[1])
    assert bytes.fromhex(steps["pegs"]["leds"]) == layout.render(states[2])
    lit = layout.lit(states[2])
    assert len(lit) == 6 * 3 + 1 + 1  # board 1 its minus light, board 2 its thousand light
    assert bytes.fromhex(steps["fewer boards, brightness over the cap"]["leds"]) == \
        layout.render(states[3])


def test_device_caps_brightness() -> None:
    device = Device(led_count=32, max_brightness=96)
    device.feed(p.encode(p.FullState(200, (BoardPegs((1, 2, 3), 1, 2, 3),)), 1))
    assert device.brightness == 96


def test_decoder_reports_garbage_and_recovers() -> None:
    decoder = p.FrameDecoder()
    good = p.encode(p.Ack(), 7)
    out = decoder.feed(b"\x01\x02\x03\x00" + b"\xff" * 300 + b"\x00" + good)
    assert [type(x) for x in out] == [p.ProtocolError, p.ProtocolError, p.Frame]
    assert out[-1] == p.Frame(7, p.Ack())


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=600))
def test_cobs_round_trip(data: bytes) -> None:
    encoded = p.cobs_encode(data)
    assert 0 not in encoded
    assert p.cobs_decode(encoded) == data


pegs = st.builds(p.PegChange, st.integers(0, 5), st.integers(0, 9), st.integers(0, 9),
                 st.integers(0, 9), st.integers(0, 3))


@settings(max_examples=60, deadline=None)
@given(st.lists(pegs, min_size=1, max_size=6), st.integers(0, 255))
def test_pegs_round_trip(changes: list[p.PegChange], seq: int) -> None:
    message = p.Pegs(tuple(changes))
    assert p.decode(p.encode(message, seq)) == p.Frame(seq, message)


@settings(max_examples=25, deadline=None)
@given(st.binary(min_size=1, max_size=300))
def test_cpp_cobs_agrees_on_random_data(harness: Path, data: bytes) -> None:
    assert run(harness, "cobs", data.hex()) == [p.cobs_encode(data).hex()]


def test_corrupted_frames_are_rejected() -> None:
    raw = bytearray(p.frame_bytes(p.Pegs((p.PegChange(0, 1, 2, 3),)), 3))
    raw[4] ^= 0x01
    with pytest.raises(p.ProtocolError, match="CRC"):
        p.decode(p.cobs_encode(bytes(raw)))
    with pytest.raises(p.ProtocolError, match="unknown message type"):
        raw = b"\x42\x00"
        p.parse_frame(raw + p.crc16(raw).to_bytes(2, "big"))


ARDUINO_STUBS = {
    "Arduino.h": """
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <vector>
struct SerialStub {
  std::vector<uint8_t> in, out;
  void begin(long) {}
  int available() { return (int)in.size(); }
  int read() { int c = in.front(); in.erase(in.begin()); return c; }
  size_t write(const uint8_t *data, size_t n) { out.insert(out.end(), data, data + n); return n; }
};
extern SerialStub Serial;
inline unsigned long millis() { return 0; }
""",
    "FastLED.h": """
#pragma once
struct CRGB { uint8_t r, g, b; };
enum { GRB };
template <uint8_t PIN, int ORDER> struct WS2812B {};
struct CFastLED {
  CRGB *leds = nullptr; int count = 0; uint8_t brightness = 0; int shows = 0;
  template <template <uint8_t, int> class CHIP, uint8_t PIN, int ORDER>
  void addLeds(CRGB *l, int n) { leds = l; count = n; }
  void setMaxPowerInVoltsAndMilliamps(int, int) {}
  void setBrightness(uint8_t b) { brightness = b; }
  void show() { shows++; }
};
extern CFastLED FastLED;
""",
    "Adafruit_NeoPixel.h": """
#pragma once
#define NEO_GRB 0
#define NEO_KHZ800 0
struct Adafruit_NeoPixel {
  Adafruit_NeoPixel(int, int, int) {}
  void begin() {}
  void setBrightness(uint8_t) {}
  void setPixelColor(uint16_t, uint8_t, uint8_t, uint8_t) {}
  void show() {}
};
""",
    "main.cpp": """
#include <stdio.h>
#include "Arduino.h"
SerialStub Serial;
#ifndef SKB_USE_NEOPIXEL
#include "FastLED.h"
CFastLED FastLED;
#endif
void setup();
void loop();
int main() {
  setup();
  // a HELLO_REQUEST with seq 7 arrives
  const uint8_t request[] = {%s};
  Serial.in.assign(request, request + sizeof request);
  loop();
  for (uint8_t b : Serial.out) printf("%%02x", b);
  printf("\\n");
  return 0;
}
""",
}


@pytest.mark.parametrize("driver", ["fastled", "neopixel"])
def test_arduino_sketch_compiles_and_answers(gxx: str, tmp_path: Path, driver: str) -> None:
    """The sketch against stand-ins for the Arduino core and the LED libraries: it builds,
    says hello after reset and answers a hello request (the real libraries are not here)."""
    request = ", ".join(f"0x{b:02x}" for b in p.encode(p.HelloRequest(), 7))
    for name, text in ARDUINO_STUBS.items():
        (tmp_path / name).write_text(text % request if name == "main.cpp" else text)
    sketch = FIRMWARE / "scorekeeper_board"
    exe = tmp_path / "sketch"
    defines = ["-DSKB_USE_NEOPIXEL"] if driver == "neopixel" else []
    subprocess.run([gxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", *defines,
                    "-I", str(tmp_path), "-I", str(sketch), "-include", "Arduino.h",
                    "-x", "c++", str(sketch / "scorekeeper_board.ino"),
                    "-x", "c++", str(sketch / "skb_core.cpp"), str(tmp_path / "main.cpp"),
                    "-o", str(exe)], check=True, capture_output=True, text=True)
    out = bytes.fromhex(subprocess.run([str(exe)], capture_output=True, text=True,
                                       check=True).stdout.strip())
    frames = p.FrameDecoder().feed(out)
    assert frames == [p.Frame(0, p.Hello(1, (1, 0, 0), 192, 6)),
                      p.Frame(7, p.Hello(1, (1, 0, 0), 192, 6))]


scores = st.lists(st.integers(-2500, 2500), min_size=1, max_size=6)


@settings(max_examples=25, deadline=None)
@given(scores, scores, st.integers(0, 255))
def test_cpp_core_renders_any_game_like_the_layout(harness: Path, first: list[int],
                                                   second: list[int], brightness: int) -> None:
    """Random scores: a full state then the changed pegs, as the link sends them; the C++
    core's LED buffer equals the bridge's rendering of the state after each frame."""
    layout = default_layout()
    a = Scene.from_scores(zip(vectors.COLOURS, first, strict=False), brightness)
    b = Scene.from_scores(zip(vectors.COLOURS, (second + first)[:len(first)], strict=False),
                          brightness)
    wire = [p.encode(m, 1) for m in changes(layout, None, a)]
    steps = [a] * len(wire)
    for message in changes(layout, a, b):
        wire.append(p.encode(message, 2))
        steps.append(b)
    results = _harness_session(harness, [{"wire": w.hex()} for w in wire], 192)
    for scene, result in zip(steps, results, strict=True):
        assert [p.decode(bytes.fromhex(r)).message for r in result["replies"]] == [p.Ack()]
        assert result["leds"] == layout.render(scene).hex()
        assert result["brightness"] == layout.capped(brightness)


def test_cpp_core_survives_line_noise_under_sanitizers(gxx: str, tmp_path: Path,
                                                       data: dict) -> None:
    """The firmware core with AddressSanitizer and UBSan: the vector session plus random
    noise, with strips shorter and longer than the layout, never touches memory it should not."""
    exe = tmp_path / "skb_asan"
    build = subprocess.run([gxx, "-std=c++17", "-g", "-O1", "-fsanitize=address,undefined",
                            "-fno-sanitize-recover=all", "-o", str(exe), *HARNESS_SOURCES],
                           capture_output=True, text=True)
    if build.returncode != 0 and "asan" in build.stderr.lower():
        pytest.skip(f"no sanitizer runtime for g++: {build.stderr[-200:]}")
    assert build.returncode == 0, build.stderr
    rng = random.Random(1234)
    session = b"".join(bytes.fromhex(s["wire"]) for s in data["session"]["steps"])
    noise = bytes(rng.randrange(256) for _ in range(4000))
    long_block = bytes(range(1, 256)) * 3 + b"\x00"
    for led_count in ("192", "10", "1", "300"):
        result = subprocess.run([str(exe), "feed", led_count], capture_output=True,
                                input=session + noise + b"\x00" + long_block + session)
        assert result.returncode == 0, result.stderr.decode()[-500:]
        assert b"runtime error" not in result.stderr
