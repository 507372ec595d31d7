"""``scorekeeper board`` and ``scorekeeper board-sim`` as real processes over real ptys."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_board_link import expected_leds, hand_states, wait_until

from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.layout import default_layout
from firmware_bridge.link import CONNECTED, BoardLink, LinkStatus
from firmware_bridge.scene import Scene

CLI = [sys.executable, "-m", "scorekeeper"]


def scorekeeper(*args: str, timeout: float = 60, stdin: str | None = None
                ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout,
                          input=stdin)


@pytest.mark.parametrize("mode", ["ours", "wled"])
def test_board_state_shows_one_state_and_exits(mode: str, tmp_path: Path) -> None:
    state = hand_states()[-1]
    (tmp_path / "state.json").write_text(json.dumps({"seq": 14, "state": state}))
    with BoardEmulator(mode=mode) as emu:
        result = scorekeeper("board", "--port", emu.path, "--mode", mode,
                             "--state", str(tmp_path / "state.json"))
        assert result.returncode == 0, result.stderr
        out = json.loads(result.stdout)
        assert out["shown"] is True and out["boards"] == 2 and out["port"] == emu.path
        assert emu.lit() == expected_leds(state["boards"])


@pytest.mark.parametrize("mode", ["ours", "wled"])
def test_board_test_lights_every_hole_in_turn(mode: str) -> None:
    seen: list[dict[int, tuple[int, int, int]]] = []
    layout = default_layout()
    with BoardEmulator(mode=mode, on_change=lambda emu: seen.append(emu.lit())) as emu:
        result = scorekeeper("board", "--test", "--port", emu.path, "--mode", mode,
                             "--step", "0")
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["tested"] == 192
        assert emu.lit() == {}  # dark again at the end
    alone = [next(iter(lit)) for lit in seen if len(lit) == 1]
    order = [i for b in layout.boards for name in ("hundreds", "tens", "ones")
             for i in b.row(name)]
    assert [i for i in dict.fromkeys(alone) if i in order][:30] == order[:30]
    assert set(alone) == set(range(192))
    assert "board 1 hundreds hole 0: LED 0" in result.stderr
    assert "board 6 thousand: LED 191" in result.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["board"], "say what to do"),
    (["board", "--server", "http://127.0.0.1:9"], "needs --table, --token"),
    (["board", "--test", "--port", "/nonexistent/tty"], "cannot reach the board"),
    (["board", "--layout", "/nonexistent.json", "--list"], "cannot read layout"),
    (["board", "--brightness", "300", "--list"], "--brightness must be 0-255"),
    (["board", "--server", "http://127.0.0.1:9", "--table", "t", "--token", "x"],
     "cannot reach http://127.0.0.1:9"),
    (["board-sim", "--mode", "dmx"], "invalid choice"),
])
def test_bad_input_is_refused_clearly(args: list[str], message: str) -> None:
    result = scorekeeper(*args)
    assert result.returncode == 2
    assert message in json.loads(result.stdout)["error"]


def test_bad_state_file(tmp_path: Path) -> None:
    (tmp_path / "s.json").write_text('{"boards": [{"owner": "a", "colour": "blue"}]}')
    result = scorekeeper("board", "--port", "/dev/null", "--state", str(tmp_path / "s.json"))
    assert result.returncode == 2
    assert "#rrggbb" in json.loads(result.stdout)["error"]


@pytest.fixture
def sim(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], dict[str, Any]]]:
    process = subprocess.Popen([*CLI, "board-sim", "--link", str(tmp_path / "board"),
                                "--svg", str(tmp_path / "board.svg")],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    first = json.loads(process.stdout.readline())
    yield process, first
    if process.poll() is None:
        process.terminate()
        process.wait(10)


def test_board_sim_process_unplug_and_replug(
        sim: tuple[subprocess.Popen[str], dict[str, Any]], tmp_path: Path) -> None:
    process, first = sim
    assert first["port"] == str(tmp_path / "board") and first["device"].startswith("/dev/pts/")
    assert process.stdin is not None and process.stdout is not None
    statuses: list[LinkStatus] = []
    states = hand_states()
    with BoardLink(first["port"], on_status=statuses.append, heartbeat_interval=0.2) as link:
        scene = Scene.from_state(states[3])
        link.show(scene)
        assert link.wait_shown(scene, 3)
        process.stdin.write("unplug\n")
        process.stdin.flush()
        assert json.loads(process.stdout.readline()) == {"done": "unplug",
                                                         "port": first["port"]}
        wait_until(lambda: link.status.status != CONNECTED, 3)
        scene = Scene.from_state(states[-1])
        link.show(scene)
        process.stdin.write("replug\n")
        process.stdin.flush()
        process.stdout.readline()
        replugged = time.monotonic()
        assert link.wait_shown(scene, 2.0)
        assert time.monotonic() - replugged < 2.0
    assert [s.status for s in statuses].count(CONNECTED) == 2
    svg = (tmp_path / "board.svg").read_text()
    assert svg.count('fill="#2f6fde"') == 4  # North 1144: holes 1, 4, 4 and the thousand light
    process.stdin.write("quit\n")
    process.stdin.flush()
    assert process.wait(10) == 0
    done = [json.loads(line) for line in process.stdout.read().splitlines()]
    assert done[-1]["frames"] > 5


def test_write_layout_and_drawing_for_fewer_boards(tmp_path: Path) -> None:
    result = scorekeeper("board", "--write-layout", str(tmp_path / "l.json"), "--boards", "2")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["leds"] == 64
    result = scorekeeper("board", "--layout", str(tmp_path / "l.json"),
                         "--map-svg", str(tmp_path / "l.svg"))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "l.svg").read_text().count("<circle") == 64
    assert scorekeeper("board", "--write-layout", str(tmp_path / "x.json"),
                       "--boards", "7").returncode == 2


def test_board_state_on_a_native_usb_wled_holds_dtr(tmp_path: Path) -> None:
    state = hand_states()[-1]
    (tmp_path / "state.json").write_text(json.dumps({"seq": 14, "state": state}))
    with BoardEmulator(mode="wled", native_usb=True) as emu:
        base = ["board", "--port", emu.port_url, "--mode", "wled", "--timeout", "6",
                "--state", str(tmp_path / "state.json")]
        dropped = scorekeeper(*base, "--dtr", "drop")
        assert dropped.returncode == 2 and "--dtr hold" in dropped.stderr
        assert emu.lit() != expected_leds(state["boards"])
        held = scorekeeper(*base, "--dtr", "hold")
        assert held.returncode == 0, held.stderr
        assert emu.lit() == expected_leds(state["boards"])


def test_board_sim_wled_restart_app_and_prefix_commands(tmp_path: Path) -> None:
    process = subprocess.Popen([*CLI, "board-sim", "--mode", "wled", "--link",
                                str(tmp_path / "board"), "--svg", str(tmp_path / "board.svg")],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdin is not None and process.stdout is not None
    try:
        first = json.loads(process.stdout.readline())
        statuses: list[LinkStatus] = []
        states = hand_states()

        def command(text: str) -> dict[str, Any]:
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(text + "\n")
            process.stdin.flush()
            return dict(json.loads(process.stdout.readline()))

        def board_svg_has_pegs() -> bool:
            # North's colour on its three holes and the thousand light; nothing in WLED orange
            svg = (tmp_path / "board.svg").read_text()
            return svg.count('fill="#2f6fde"') == 4 and 'fill="#ffa000"' not in svg

        with BoardLink(first["port"], mode="wled", on_status=statuses.append) as link:
            scene = Scene.from_state(states[-1])
            link.show(scene)
            assert link.wait_shown(scene, 3)
            assert command("reset") == {"done": "reset", "port": first["port"]}
            assert wait_until(board_svg_has_pegs, 3)
            assert command('app {"on": false}')["done"] == "app"
            assert wait_until(lambda: any("switched off" in s.detail for s in statuses), 3)
            assert command("prefix [DBG] heap 41234")["done"] == "prefix"
            assert command("app {not json")["error"].startswith("app:")
            scene = Scene.from_state(states[5])
            link.show(scene)
            assert link.wait_shown(scene, 3), link.status
            assert link.status.status == CONNECTED
        process.stdin.write("quit\n")
        process.stdin.flush()
        assert process.wait(10) == 0
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(10)
