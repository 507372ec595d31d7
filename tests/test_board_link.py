"""The serial link against the board emulator over a real pseudo-terminal: a scripted Complex
Toss Rummy hand in both protocols, unplug and replug mid-game, garbage, dropped and late
acknowledgements."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.layout import default_layout
from firmware_bridge.link import (
    CONNECTED,
    DISCONNECTED,
    NOT_RESPONDING,
    REFUSED,
    BoardLink,
    LinkStatus,
)
from firmware_bridge.ports import PortMatch
from firmware_bridge.scene import Scene, parse_colour

HAND = json.loads((Path(__file__).parent / "vectors" / "complex_hand.json").read_text())
SETUP: dict[str, Any] = HAND["setup"]
HAND_EVENTS: list[dict[str, Any]] = HAND["events"]


def hand_states() -> list[dict[str, Any]]:
    """``GameState.to_json()`` after every event of a four-player team hand."""
    log = pytest.importorskip("scorekeeper.log")
    game = pytest.importorskip("scorekeeper.game")
    return [state.to_json() for state in log.trail(game.read_setup(SETUP), HAND_EVENTS)]


def expected_leds(boards: list[dict[str, Any]]) -> dict[int, tuple[int, int, int]]:
    """The default wiring written out by hand: 32 LEDs per board, hundreds left to right,
    tens right to left, ones left to right, minus, thousand."""
    lit = {}
    for b, board in enumerate(boards):
        base, rgb = 32 * b, parse_colour(board["colour"])
        lit[base + board["hundreds"]] = rgb
        lit[base + 19 - board["tens"]] = rgb
        lit[base + 20 + board["ones"]] = rgb
        if board["negative"]:
            lit[base + 30] = rgb
        if board["thousands"]:
            lit[base + 31] = rgb
    return lit


@pytest.fixture
def statuses() -> list[LinkStatus]:
    return []


def make_link(path: str, mode: str, statuses: list[LinkStatus], **kw: Any) -> BoardLink:
    return BoardLink(path, mode=mode, on_status=statuses.append, hello_timeout=1.0, **kw)


def wait_until(predicate: Callable[[], bool], timeout: float = 5.0,
               interval: float = 0.02) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return False


def wait_status(link: BoardLink, status: str, timeout: float = 3.0) -> bool:
    return wait_until(lambda: link.status.status == status, timeout, interval=0.01)


def wait_reported(statuses: list[LinkStatus], predicate: Callable[[LinkStatus], bool],
                  timeout: float = 3.0) -> bool:
    """The link shows a new status before its reporter hears of it: wait for the report."""
    return wait_until(lambda: any(predicate(s) for s in statuses), timeout, interval=0.01)


@pytest.fixture(params=["ours", "wled"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def emulator(mode: str, tmp_path: Path) -> Iterator[BoardEmulator]:
    with BoardEmulator(mode=mode, link=tmp_path / "board") as emu:
        yield emu


def test_scripted_hand_lights_exactly_the_right_leds(emulator: BoardEmulator, mode: str,
                                                     statuses: list[LinkStatus]) -> None:
    states = hand_states()
    scores = [[b["score"] for b in s["boards"]] for s in states]
    assert [92, 30] in scores and [1144, -150] in scores  # the hand shows both lights
    with make_link(emulator.path, mode, statuses) as link:
        for state in states:
            scene = Scene.from_state(state)
            link.show(scene)
            assert link.wait_shown(scene, 2.0), link.status
            assert emulator.lit() == expected_leds(state["boards"]), state["boards"]
    assert statuses[0].status == CONNECTED
    if mode == "ours":
        # after the first full state, every score change went out as one small pegs frame
        kinds = [kind for kind, _ in link.stats.sends]
        assert kinds[0] == "FullState" and set(kinds[1:]) == {"Pegs"}
        assert max(size for kind, size in link.stats.sends if kind == "Pegs") < 40
        assert emulator.brightness == default_layout().capped(scene.brightness)
    else:
        assert emulator.brightness == scene.brightness


def test_unplug_and_replug_mid_game(emulator: BoardEmulator, mode: str,
                                    statuses: list[LinkStatus]) -> None:
    states = hand_states()
    with make_link(emulator.path, mode, statuses, heartbeat_interval=0.2) as link:
        first = Scene.from_state(states[1])
        link.show(first)
        assert link.wait_shown(first)
        emulator.unplug()
        assert wait_status(link, DISCONNECTED), link.status
        slowest = 0.0
        for state in states[2:]:  # the game goes on while the board is away
            start = time.perf_counter()
            link.show(Scene.from_state(state))
            slowest = max(slowest, time.perf_counter() - start)
        assert slowest < 0.01, "show() must never wait for the board"
        time.sleep(0.3)
        emulator.replug()
        replugged = time.monotonic()
        assert emulator.wait_for(
            lambda emu: emu.lit() == expected_leds(states[-1]["boards"]), timeout=2.0)
        assert time.monotonic() - replugged < 2.0
        assert link.status.status == CONNECTED
        assert wait_until(lambda: statuses[-1].status == CONNECTED, 1.0)
        seen = [s.status for s in statuses]
    assert seen[0] == CONNECTED and DISCONNECTED in seen and seen[-1] == CONNECTED
    assert "unplugged" in next(s.detail for s in statuses if s.status == DISCONNECTED)


def test_garbage_and_dropped_acks_recover(emulator: BoardEmulator, mode: str,
                                          statuses: list[LinkStatus]) -> None:
    states = hand_states()
    with make_link(emulator.path, mode, statuses) as link:
        link.show(Scene.from_state(states[0]))
        assert link.wait_shown(Scene.from_state(states[0]))
        for i, state in enumerate(states[1:8]):
            scene = Scene.from_state(state)
            if i % 3 == 0:
                emulator.garbage(40)
                emulator.noise_next = 1
            if i % 3 == 1:
                emulator.drop_next_acks = 1
            if i % 3 == 2 and mode == "ours":
                emulator.corrupt_next = 1
            link.show(scene)
            assert link.wait_shown(scene, 2.0), link.status
            assert emulator.lit() == expected_leds(state["boards"])
        assert link.stats.retries >= 2
        assert link.stats.garbage >= 1
        assert link.status.status == CONNECTED
    if mode == "ours":
        assert link.stats.naks >= 1 and emulator.device.frames_bad >= 1


def test_a_board_that_stops_answering_is_reported_and_recovered(
        emulator: BoardEmulator, mode: str, statuses: list[LinkStatus]) -> None:
    states = hand_states()
    with make_link(emulator.path, mode, statuses) as link:
        emulator.drop_next_acks = 10_000
        scene = Scene.from_state(states[3])
        link.show(scene)
        assert wait_status(link, "not-responding", 3.0), link.status
        assert wait_reported(statuses, lambda s: s.status == NOT_RESPONDING)
        emulator.drop_next_acks = 0
        assert link.wait_shown(scene, 3.0)
        assert emulator.lit() == expected_leds(states[3]["boards"])


def test_slow_device_still_gets_the_latest_state(emulator: BoardEmulator, mode: str,
                                                 statuses: list[LinkStatus]) -> None:
    states = hand_states()
    emulator.delay = 0.03
    with make_link(emulator.path, mode, statuses) as link:
        start = time.perf_counter()
        for state in states:  # faster than the device: intermediate states are dropped
            link.show(Scene.from_state(state))
        assert time.perf_counter() - start < 0.05
        assert link.wait_shown(Scene.from_state(states[-1]), 3.0)
        assert emulator.lit() == expected_leds(states[-1]["boards"])
        assert link.stats.frames_sent < len(states) + 8


def test_layout_larger_than_the_board_is_refused(tmp_path: Path, mode: str,
                                                 statuses: list[LinkStatus]) -> None:
    with BoardEmulator(mode=mode, led_count=64) as emu, \
            make_link(emu.path, mode, statuses) as link:
        assert wait_status(link, REFUSED), link.status
        assert "192 LEDs" in link.status.detail and "64" in link.status.detail


def test_no_port_reports_disconnected(tmp_path: Path, statuses: list[LinkStatus]) -> None:
    with make_link(str(tmp_path / "nothing"), "ours", statuses) as link:
        link.show(Scene.from_scores([("#ffffff", 5)]))
        assert wait_status(link, DISCONNECTED)
        assert "cannot open" in link.status.detail


def test_device_that_is_not_ours_is_reported(tmp_path: Path,
                                             statuses: list[LinkStatus]) -> None:
    with BoardEmulator(mode="wled") as emu, make_link(emu.path, "ours", statuses) as link:
        assert wait_status(link, NOT_RESPONDING)
        assert "does not answer" in link.status.detail and "--mode" in link.status.detail


def test_board_restart_is_noticed_and_the_state_sent_again(
        tmp_path: Path, statuses: list[LinkStatus]) -> None:
    states = hand_states()
    with BoardEmulator() as emu, make_link(emu.path, "ours", statuses,
                                           heartbeat_interval=0.1) as link:
        scene = Scene.from_state(states[5])
        link.show(scene)
        assert link.wait_shown(scene)
        emu.restart()
        assert emu.lit() == {}
        assert emu.wait_for(lambda e: e.lit() == expected_leds(states[5]["boards"]), 2.0)
        assert wait_reported(statuses, lambda s: "restarted" in s.detail)
        assert link.stats.connects == 2


def test_arduino_that_resets_when_the_port_opens(statuses: list[LinkStatus]) -> None:
    """The board reboots on every open and ignores input for 0.5 s; the link keeps asking for
    its hello and gets the state on within a second, on each new connection."""
    states = hand_states()
    with BoardEmulator(reset_on_open=0.5) as emu:
        for n, state in enumerate(states[3:5], start=1):
            start = time.monotonic()
            with make_link(emu.path, "ours", statuses) as link:
                scene = Scene.from_state(state)
                link.show(scene)
                assert link.wait_shown(scene, 3.0), link.status
                took = time.monotonic() - start
            assert 0.5 <= took < 1.5
            assert emu.resets == n
            assert emu.lit() == expected_leds(state["boards"])
            # A person replugs after the port is closed, never within the same millisecond.
            assert wait_until(lambda: not emu.host_open, 2.0)


def test_auto_port_without_a_board_says_what_to_do(statuses: list[LinkStatus]) -> None:
    with BoardLink("auto", match=PortMatch(((0xDEAD, 0xBEEF),)),
                   on_status=statuses.append) as link:
        assert wait_status(link, DISCONNECTED)
        assert "no board found on USB" in link.status.detail
        assert "--port" in link.status.detail
