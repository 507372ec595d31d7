"""Stock WLED as the board, over a real pseudo-terminal: a restart with the cable in, segment 0
not spanning the layout, brightness 0, dark peg colours, debug output before a reply, and an
ESP32-S2/S3 on native USB that reads nothing unless the host holds DTR and RTS."""

from __future__ import annotations

import importlib.util
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serial.tools.list_ports_common import ListPortInfo

from firmware_bridge import wled
from firmware_bridge.emulator import WLED_BOOT_COLOUR, BoardEmulator, WledDevice
from firmware_bridge.layout import default_layout
from firmware_bridge.link import CONNECTED, NOT_RESPONDING, REFUSED, BoardLink, LinkStatus
from firmware_bridge.ports import holds_lines
from firmware_bridge.scene import Scene
from firmware_bridge.vectors import COLOURS

LAYOUT = default_layout()


def scene(scores: list[int], brightness: int = 64,
          colours: tuple[str, ...] = COLOURS) -> Scene:
    return Scene.from_scores(zip(colours, scores, strict=True), brightness)


FIRST = scene([437, 152, 988, 61, 275, 340])
SECOND = scene([452, 152, 988, 61, 275, 340])


def expected(s: Scene) -> dict[int, tuple[int, int, int]]:
    return LAYOUT.lit(s)


def wait_until(predicate: Any, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return False


@pytest.fixture
def statuses() -> list[LinkStatus]:
    return []


def wled_link(path: str, statuses: list[LinkStatus], **kw: Any) -> BoardLink:
    return BoardLink(path, mode="wled", on_status=statuses.append, hello_timeout=1.0, **kw)


@pytest.fixture
def emu(tmp_path: Path) -> Iterator[BoardEmulator]:
    with BoardEmulator(mode="wled", link=tmp_path / "board", up_for=3600) as emulator:
        yield emulator


# -- a restart with the cable in -----------------------------------------------------------
def test_wled_restart_between_states_is_repaired_within_two_seconds(
        emu: BoardEmulator, statuses: list[LinkStatus]) -> None:
    with wled_link(emu.path, statuses) as link:
        link.show(FIRST)
        assert link.wait_shown(FIRST)
        assert emu.lit() == expected(FIRST)
        emu.restart()  # brown-out: WLED boots running its effect, the pegs are gone
        assert set(emu.lit().values()) == {WLED_BOOT_COLOUR} and len(emu.lit()) == 192
        assert emu.wait_for(lambda e: e.lit() == expected(FIRST), timeout=2.0), emu.text()
        assert link.stats.connects == 2
        assert wait_until(lambda: link.status.status == CONNECTED, 1.0)
    assert any("effect" in s.detail or "restarted" in s.detail for s in statuses)


def test_wled_restart_found_by_its_uptime_when_a_change_comes_first(
        emu: BoardEmulator, statuses: list[LinkStatus]) -> None:
    """The change's own ``"i"`` freezes the segment again (frz true, on true in the reply):
    only the uptime going down says WLED restarted and blacked out every other peg."""
    with wled_link(emu.path, statuses, heartbeat_interval=60) as link:
        link.show(FIRST)
        assert link.wait_shown(FIRST)
        emu.restart()
        link.show(SECOND)
        assert emu.wait_for(lambda e: e.lit() == expected(SECOND), timeout=2.0), emu.text()
        assert link.stats.connects == 2
    assert any("WLED restarted (uptime 3600 s, now 0 s)" in s.detail for s in statuses)


def test_wled_switched_off_and_on_from_its_own_app(
        emu: BoardEmulator, statuses: list[LinkStatus]) -> None:
    with wled_link(emu.path, statuses, heartbeat_interval=0.2) as link:
        link.show(FIRST)
        assert link.wait_shown(FIRST)
        emu.wled_app({"on": False})
        assert emu.wait_for(lambda e: e.brightness == 64 and e.lit() == expected(FIRST), 2.0)
        assert any("switched off" in s.detail for s in statuses)
        with emu._lock:  # off and on again before the next heartbeat: the effect runs
            emu.wled_app({"on": False})
            emu.wled_app({"on": True})
        assert set(emu.lit().values()) == {WLED_BOOT_COLOUR}
        assert emu.wait_for(lambda e: e.lit() == expected(FIRST), 2.0), emu.text()
    assert any("runs its effect" in s.detail for s in statuses)


# -- segment 0 -------------------------------------------------------------------------------
def test_short_segment_is_refused_with_what_to_change(tmp_path: Path,
                                                      statuses: list[LinkStatus]) -> None:
    with BoardEmulator(mode="wled", segment={"stop": 96}) as emu, \
            wled_link(emu.path, statuses) as link:
        link.show(FIRST)
        assert wait_until(lambda: link.status.status == REFUSED, 3.0), link.status
        detail = link.status.detail
        assert "segment 0" in detail and "it has 96 LEDs, the layout needs 192" in detail
        assert "stop 192" in detail
        assert CONNECTED not in [s.status for s in statuses]
        emu.device.segment["stop"] = 192  # the keeper fixes it in WLED: the link retries
        assert link.wait_shown(FIRST, 4.0), link.status
        assert emu.lit() == expected(FIRST)


@pytest.mark.parametrize(("segment", "fixes"), [
    ({"rev": True}, ["reverse is true", "reverse off"]),
    ({"mi": True}, ["mirror is true", "mirror off"]),
    ({"grp": 2, "spc": 1}, ["grouping is 2", "spacing is 1", "grouping 1, spacing 0"]),
    ({"start": 10}, ["its start is 10", "it has 182 LEDs", "stop 192, start 0"]),
    ({"of": 5}, ["offset is 5", "offset 0"]),
])
def test_odd_segment_is_refused_with_what_to_change(segment: dict[str, Any], fixes: list[str],
                                                    statuses: list[LinkStatus]) -> None:
    with BoardEmulator(mode="wled", segment=segment) as emu, \
            wled_link(emu.path, statuses) as link:
        assert wait_until(lambda: link.status.status == REFUSED, 3.0), link.status
        for words in fixes:
            assert words in link.status.detail


def test_emulated_segment_maps_indexes_like_wled() -> None:
    """What the refused segments would have done: the pegs land on the wrong LEDs."""
    one = default_layout(1)
    lit = one.lit(scene([437], colours=COLOURS[:1]))
    for segment, moved in [({"rev": True}, {63 - i for i in lit}),
                           ({"start": 2}, {i + 2 for i in lit}),
                           ({"grp": 2}, {2 * i for i in lit} | {2 * i + 1 for i in lit})]:
        device = WledDevice(64, segment)
        device.feed(wled.full_command(one, scene([437], colours=COLOURS[:1])))
        shown = {i for i in range(64) if any(device.leds[3 * i:3 * i + 3])}
        assert shown == {i for i in moved if i < 64}, segment


# -- brightness 0 ----------------------------------------------------------------------------
def test_brightness_zero_switches_wled_off_and_back_on(emu: BoardEmulator,
                                                       statuses: list[LinkStatus]) -> None:
    with wled_link(emu.path, statuses) as link:
        link.show(FIRST)
        assert link.wait_shown(FIRST)
        dark = FIRST.with_brightness(0)
        link.show(dark)
        assert link.wait_shown(dark)
        assert emu.brightness == 0 and emu.lit() == {}
        moved = SECOND.with_brightness(80)
        link.show(moved)  # back on: WLED unfreezes the segment, so the whole state goes
        assert link.wait_shown(moved)
        assert emu.brightness == 80 and emu.lit() == expected(SECOND)
    assert [kind for kind, _ in link.stats.sends] == ["full", "change", "full"]
    assert wled.full_command(LAYOUT, dark) == b'{"on":false,"v":true}\n'


def test_emulator_turns_wled_back_on_for_on_true_bri_zero() -> None:
    """WLED's own rule (json.cpp): ``"on":true`` wins over ``"bri":0``."""
    device = WledDevice(8)
    device.feed(b'{"on":true,"bri":90,"seg":{"id":0,"i":[0,"FF0000"]}}\n')
    device.feed(b'{"on":true,"bri":0}\n')
    assert device.brightness == 90
    device.feed(b'{"on":false}\n')
    assert device.brightness == 0 and not any(device.leds)
    reply = json.loads(device.feed(b'{"v":true}\n')[0])
    assert reply["state"]["on"] is False and reply["state"]["bri"] == 90


# -- dark peg colours ------------------------------------------------------------------------
def test_dark_peg_colours_are_lifted_and_the_status_says_so(
        emu: BoardEmulator, statuses: list[LinkStatus]) -> None:
    colours = ("#101020", "#000000", *COLOURS[2:])
    dim = scene([437, 152, 988, 61, 275, 340], colours=colours)
    with wled_link(emu.path, statuses) as link:
        link.show(dim)
        assert link.wait_shown(dim)
        lit = emu.lit()
        board1 = {lit.get(i) for i in LAYOUT.lit(scene([437], colours=colours[:1]))}
        assert board1 == {(18, 18, 36)}
        assert len(lit) == len(LAYOUT.lit(dim)) and min(max(c) for c in lit.values()) >= 36
        detail = link.status.detail
        assert "board 1's colour #101020 is too dark for WLED" in detail
        assert "shown as #121224" in detail
        assert "board 2's colour #000000" in detail and "shown as #242424" in detail
        assert link.status.status == CONNECTED
        link.show(FIRST)
        assert link.wait_shown(FIRST)
        assert wait_until(lambda: "too dark" not in link.status.detail, 1.0)


# -- debug output before the reply ------------------------------------------------------------
def test_reply_with_bytes_before_the_json_is_read(emu: BoardEmulator,
                                                  statuses: list[LinkStatus]) -> None:
    emu.reply_prefix = b"[DBG] heap 41234 \x1b[0m"
    with wled_link(emu.path, statuses) as link:
        link.show(FIRST)
        assert link.wait_shown(FIRST, 3.0), link.status
        assert emu.lit() == expected(FIRST)
        assert link.status.status == CONNECTED and "WLED 0.14.4" in link.status.detail
        assert link.stats.garbage == 0


# -- ESP32-S2/S3 on native USB ---------------------------------------------------------------
def test_native_usb_board_answers_when_dtr_and_rts_are_held(statuses: list[LinkStatus]) -> None:
    with BoardEmulator(mode="wled", native_usb=True) as emu, \
            wled_link(emu.port_url, statuses, dtr="hold") as link:
        link.show(FIRST)
        assert link.wait_shown(FIRST, 3.0), link.status
        assert emu.lit() == expected(FIRST)
        assert emu.dtr and emu.rts and emu.ignored_bytes == 0


def test_native_usb_board_with_dtr_dropped_reads_nothing_and_the_status_says_why(
        statuses: list[LinkStatus]) -> None:
    with BoardEmulator(mode="wled", native_usb=True) as emu, \
            wled_link(emu.port_url, statuses, dtr="drop") as link:
        link.show(FIRST)
        assert wait_until(lambda: link.status.status == NOT_RESPONDING, 4.0), link.status
        assert "--dtr hold" in link.status.detail
        assert emu.ignored_bytes > 0 and not emu.dtr and emu.lit() != expected(FIRST)


def usb_port(device: str, vid: int, pid: int) -> ListPortInfo:
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid = vid, pid
    return info


def test_dtr_is_held_for_espressif_native_usb_only() -> None:
    ports = [usb_port("/dev/ttyACM0", 0x303A, 0x1001), usb_port("/dev/ttyACM1", 0x303A, 0x0002),
             usb_port("/dev/ttyUSB0", 0x10C4, 0xEA60), usb_port("/dev/ttyUSB1", 0x1A86, 0x7523)]
    assert holds_lines("/dev/ttyACM0", ports=ports)
    assert holds_lines("spy:///dev/ttyACM1?file=trace.txt", ports=ports)
    assert not holds_lines("/dev/ttyUSB0", ports=ports)  # CP2102: the reset-safe sequence
    assert not holds_lines("/dev/ttyUSB1", ports=ports)
    assert not holds_lines("/dev/ttyACM0", "drop", ports=ports)
    assert holds_lines("/dev/ttyUSB0", "hold", ports=ports)
    with pytest.raises(ValueError, match="auto, hold, drop"):
        holds_lines("/dev/ttyUSB0", "up", ports=ports)


# -- the hardware documents -------------------------------------------------------------------
HARDWARE = Path(__file__).resolve().parent.parent / "hardware"


def test_documented_wled_full_state_sizes_are_the_measured_ones() -> None:
    spec = importlib.util.spec_from_file_location(
        "board_bench", Path(__file__).resolve().parent.parent / "bench" / "board_bench.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    worst = bench.worst_wled_full_state(LAYOUT)
    assert all(b.minus and b.thousand for b in worst.boards)
    longest = len(wled.full_command(LAYOUT, worst))
    assert longest == 386
    typical = len(wled.full_command(LAYOUT, scene([437, 152, 988, 61, 275, 340])))
    protocol = (HARDWARE / "PROTOCOL.md").read_text()
    assert f"{typical} bytes typically, {longest} at most (every minus and thousand" in protocol
    readme = (HARDWARE.parent / "README.md").read_text()
    assert f"| {typical} bytes ({longest} at most, every light on) |" in readme


def test_wiring_keeps_the_serial_pins_free_on_esp8266() -> None:
    wiring = (HARDWARE / "WIRING.md").read_text()
    words = " ".join(wiring.split())
    assert "**Keep GPIO3 (RX) and GPIO1 (TX) free.**" in words
    assert "The LED data pin must not be GPIO3" in words
    diagram = next(line for line in wiring.splitlines() if "DIN of LED 0" in line)
    assert "ESP8266 GPIO2" in diagram and "GPIO3" not in diagram and "GPIO1 " not in diagram
