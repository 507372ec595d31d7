"""Layout files, scenes from game states, the WLED commands, pictures, port matching."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest
from serial.tools.list_ports_common import ListPortInfo

import firmware_bridge.device
import firmware_bridge.layout
import firmware_bridge.ports
import firmware_bridge.protocol
import firmware_bridge.render
import firmware_bridge.scene
import firmware_bridge.stream
import firmware_bridge.wled
from firmware_bridge import wled
from firmware_bridge.emulator import WledDevice
from firmware_bridge.layout import Layout, LayoutError, default_layout
from firmware_bridge.ports import PortMatch, choose_port, parse_vid_pid
from firmware_bridge.render import board_svg, board_text
from firmware_bridge.scene import BoardPegs, Scene, SceneError
from firmware_bridge.vectors import COLOURS

HARDWARE = Path(__file__).resolve().parent.parent / "hardware"


@pytest.mark.parametrize("module", [
    firmware_bridge.device, firmware_bridge.layout, firmware_bridge.ports,
    firmware_bridge.protocol, firmware_bridge.render, firmware_bridge.scene,
    firmware_bridge.stream, firmware_bridge.wled])
def test_doctests(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)  # type: ignore
    assert result.attempted > 0 and result.failed == 0


def test_committed_layout_is_the_default() -> None:
    assert Layout.load(HARDWARE / "layout.json") == default_layout()
    assert (HARDWARE / "layout.json").read_text() == default_layout().dumps()


def test_committed_drawing_is_generated_from_the_layout() -> None:
    svg = (HARDWARE / "board-map.svg").read_text()
    assert svg == board_svg(Layout.load(HARDWARE / "layout.json"))
    assert svg.count("<circle") == 192
    assert ">191</text>" in svg and "minus" in svg


def test_layout_round_trip_and_serpentine() -> None:
    layout = default_layout(6)
    assert Layout.from_json(json.loads(layout.dumps())) == layout
    board = layout.boards[2]
    assert board.hundreds[0] == 64 and board.tens[0] == 83 and board.tens[9] == 74
    assert board.ones == tuple(range(84, 94)) and (board.minus, board.thousand) == (94, 95)
    every = sorted(i for b in layout.boards for i in b.all_leds())
    assert every == list(range(192))


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["boards"][0].update(tens=list(range(9))), "row 'tens' must list 10"),
    (lambda d: d["boards"][1]["ones"].__setitem__(3, 5), "already used by board 0"),
    (lambda d: d.update(led_count=100), "outside the strip"),
    (lambda d: d["boards"][0].pop("hundreds"), "has no row 'hundreds'"),
    (lambda d: d.update(format="something"), "not a board layout"),
    (lambda d: d["boards"][0].update(minus="x"), "must be an integer"),
    (lambda d: d.update(boards=[]), "1-6 boards"),
])
def test_bad_layouts_say_what_is_wrong(change: object, message: str) -> None:
    data = json.loads(default_layout().dumps())
    change(data)  # type: ignore[operator]
    with pytest.raises(LayoutError, match=message):
        Layout.from_json(data)


def test_layout_file_errors(tmp_path: Path) -> None:
    with pytest.raises(LayoutError, match="cannot read layout"):
        Layout.load(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{nope")
    with pytest.raises(LayoutError, match="not valid JSON"):
        Layout.load(tmp_path / "bad.json")


def test_lights_may_be_missing() -> None:
    layout = Layout(30, (firmware_bridge.layout.BoardLayout(
        tuple(range(10)), tuple(range(10, 20)), tuple(range(20, 30)), None, None),))
    assert layout.lit(Scene.from_scores([("#010203", -1999)])) == {
        9: (1, 2, 3), 19: (1, 2, 3), 29: (1, 2, 3)}
    with pytest.raises(LayoutError, match="no minus light"):
        layout.index(0, "minus", 0)


def test_scene_from_state_and_errors() -> None:
    state = {"seq": 3, "state": {"boards": [
        {"owner": "a", "colour": "#FF0000", "score": -1040, "negative": True, "thousands": 1,
         "hundreds": 0, "tens": 4, "ones": 0}]}}
    scene = Scene.from_state(state)
    assert scene.boards == (BoardPegs((255, 0, 0), 0, 4, 0, True, True),)
    with pytest.raises(SceneError, match="no 'boards'"):
        Scene.from_state({"phase": "waiting"})
    with pytest.raises(SceneError, match="#rrggbb"):
        Scene.from_scores([("red", 5)])
    with pytest.raises(SceneError, match="has no 'tens'"):
        Scene.from_state({"boards": [{"owner": "x", "colour": "#000000", "hundreds": 1}]})
    with pytest.raises(SceneError, match="at most 6"):
        Scene.from_scores([("#000000", 1)] * 7)
    with pytest.raises(SceneError, match="0-9"):
        BoardPegs((0, 0, 0), 10, 0, 0)
    with pytest.raises(LayoutError, match="only 2"):
        default_layout(2).lit(Scene.from_scores([("#000000", 1)] * 3))


def six_boards(scores: list[int]) -> Scene:
    return Scene.from_scores(zip(COLOURS, scores, strict=True), brightness=200)


def test_wled_full_state_is_small_and_exact() -> None:
    layout = default_layout()
    scene = six_boards([-999, 1999, -1234, 888, 1000, -555])  # four lights lit on several
    command = wled.full_command(layout, scene)
    assert len(command) < 400
    doc = json.loads(command)
    assert doc["v"] is True and doc["bri"] == layout.max_brightness  # capped
    device = WledDevice(192)
    device.feed(command)
    assert bytes(device.leds) == layout.render(scene)


def test_wled_change_command_updates_only_what_moved() -> None:
    layout = default_layout()
    before, after = six_boards([437, 0, 0, 0, 0, 0]), six_boards([452, 0, 0, 0, 0, 0])
    device = WledDevice(192)
    device.feed(wled.full_command(layout, before))
    change = wled.change_command(layout, before, after)
    assert json.loads(change)["seg"]["i"] == [14, "E5383B", 16, "000000", 22, "E5383B",
                                              27, "000000"]
    device.feed(change)
    assert bytes(device.leds) == layout.render(after)


def test_wled_ranges_merge_neighbours() -> None:
    assert wled._runs({3: (1, 1, 1), 4: (1, 1, 1), 5: (1, 1, 1), 7: (2, 2, 2)}) == [
        3, 6, "010101", 7, "020202"]


def test_wled_reply_parsing() -> None:
    reply = wled.parse_reply(b'{"state":{"on":true},"info":{"ver":"0.14.4","leds":{"count":9}}}')
    assert wled.describe(reply) == ("WLED 0.14.4", 9)
    with pytest.raises(wled.WledError):
        wled.parse_reply(b"WLED 0.14.4")
    with pytest.raises(wled.WledError):
        wled.parse_reply(b'{"success":true}')


def test_text_and_svg_pictures() -> None:
    layout = default_layout(2)
    leds = layout.render(Scene.from_scores([("#102030", 1205), ("#ffffff", 7)]))
    text = board_text(layout, leds)
    assert "board 1  #102030   .   1000 o" in text
    assert text.splitlines()[7] == "    1s  . . . . . . . o . ."
    svg = board_svg(layout, leds, title="t")
    assert svg.count('fill="#102030"') == 4 and svg.count('fill="#ffffff"') == 3


def port(device: str, vid: int | None, pid: int | None, serial: str | None = None) -> ListPortInfo:
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid, info.serial_number = vid, pid, serial
    return info


def test_port_choice_by_usb_id_and_serial_number() -> None:
    ports = [port("/dev/ttyS0", None, None), port("/dev/ttyUSB1", 0x1A86, 0x7523, "B"),
             port("/dev/ttyUSB0", 0x0403, 0x6001, "A"), port("/dev/ttyACM0", 0x1234, 1)]
    assert choose_port(ports, PortMatch()) == "/dev/ttyUSB0"
    assert choose_port(ports, PortMatch(serial_number="B")) == "/dev/ttyUSB1"
    assert choose_port(ports, PortMatch(((0x1234, None),))) == "/dev/ttyACM0"
    assert choose_port(ports, PortMatch(serial_number="Z")) is None
    assert parse_vid_pid("303a") == (0x303A, None)
    with pytest.raises(firmware_bridge.ports.PortError, match="VID:PID"):
        parse_vid_pid("cp2102")


def test_power_sizing() -> None:
    layout = default_layout()
    # every LED at full white at the brightness cap, plus 1 mA idle per LED
    assert layout.supply_milliamps() == 192 * 60 * 96 // 255 + 192
    # a game lights at most 5 LEDs per board
    assert layout.supply_milliamps(lit_leds=30) < 1000
