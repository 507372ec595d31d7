"""The board as a client of the real web app (contract D) over HTTP, and in-process through the
app's board hook: states reach the emulated board, the link status reaches the table."""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from test_board_link import HAND_EVENTS, SETUP, expected_leds, wait_until

import firmware_bridge.webapp
from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.link import BoardLink
from firmware_bridge.stream import Server, StatusPoster, StreamError, StreamFollower
from scorekeeper import engine
from web.board import board_hooks, start_boards
from web.server import ServerThread


@pytest.fixture
def server(app: Flask) -> Iterator[ServerThread]:
    thread = ServerThread(app, threads=12)
    thread.start()
    yield thread
    thread.stop()


@pytest.fixture
def table(app: Flask) -> Any:
    return app.extensions["scorekeeper.store"].create_table(engine.TableSetup.from_json(SETUP))


def post_event(url: str, table: Any, base_seq: int, event: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{url}/api/tables/{table.id}/events", method="POST",
        data=json.dumps({"base_seq": base_seq, "event": event}).encode(),
        headers={"Content-Type": "application/json",
                 "Authorization": f"Bearer {table.keeper_token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201
        result: dict[str, Any] = json.loads(response.read())
        return result


def follow(follower: StreamFollower) -> threading.Thread:
    thread = threading.Thread(target=follower.run, daemon=True)
    thread.start()
    return thread


def test_board_follows_the_live_stream_and_reports_its_status(
        server: ServerThread, table: Any) -> None:
    remote = Server(server.url, table.id, table.display_token)
    poster = StatusPoster(remote)
    with BoardEmulator() as emu, BoardLink(emu.path, on_status=poster) as link:
        follower = StreamFollower(remote, link)
        thread = follow(follower)
        state: dict[str, Any] = {}
        for seq, event in enumerate(HAND_EVENTS):
            state = post_event(server.url, table, seq, event)["state"]
        assert emu.wait_for(lambda e: e.lit() == expected_leds(state["boards"]), 5.0)
        assert wait_until(lambda: table.board_status["status"] == "connected")
        assert "firmware 1.0.0" in table.board_status["detail"]
        assert follower.last_id == str(len(HAND_EVENTS))
        follower.stop()
        thread.join(5)
        assert not thread.is_alive()
    poster.close()
    assert wait_until(lambda: table.board_status["status"] == "stopped")


def test_stream_resumes_with_last_event_id(server: ServerThread, table: Any) -> None:
    remote = Server(server.url, table.id, table.display_token)
    with BoardEmulator() as emu, BoardLink(emu.path) as link:
        first = StreamFollower(remote, link)
        thread = follow(first)
        for seq, event in enumerate(HAND_EVENTS[:4]):
            post_event(server.url, table, seq, event)
        assert wait_until(lambda: first.last_id == "4")
        first.stop()
        thread.join(5)
        state: dict[str, Any] = {}
        for seq, event in enumerate(HAND_EVENTS[4:], start=4):  # missed while away
            state = post_event(server.url, table, seq, event)["state"]
        second = StreamFollower(remote, link)
        second.last_id = first.last_id
        thread = follow(second)
        assert emu.wait_for(lambda e: e.lit() == expected_leds(state["boards"]), 5.0)
        assert wait_until(lambda: second.states == len(HAND_EVENTS) - 4)  # the missed ones
        second.stop()
        thread.join(5)


def test_wrong_token_is_a_clear_error(server: ServerThread, table: Any) -> None:
    with pytest.raises(StreamError, match="HTTP 40[13].*check the table id and token"):
        Server(server.url, table.id, "not-a-token").get_state()
    with pytest.raises(StreamError, match="HTTP 404"):
        Server(server.url, "nosuchtable", table.display_token).get_state()


def test_in_process_board_hook_follows_the_newest_table(app: Flask) -> None:
    app.config["BOARD_HOOKS"] = ["firmware_bridge.webapp:BOARD"]
    assert board_hooks(app) == [firmware_bridge.webapp.BOARD]
    store = app.extensions["scorekeeper.store"]
    table = store.create_table(engine.TableSetup.from_json(SETUP))
    [follower] = start_boards(app, "sim")
    try:
        emulator = app.extensions["scorekeeper.board_sim"]
        state: dict[str, Any] = {}
        for seq, event in enumerate(HAND_EVENTS[:6]):
            state = store.append(table, seq, event, by="keeper")[1]
        assert emulator.wait_for(lambda e: e.lit() == expected_leds(state["boards"]), 5.0)
        assert wait_until(lambda: table.board_status["status"] == "connected")
    finally:
        follower.stop()
        app.extensions["scorekeeper.board_sim"].stop()
