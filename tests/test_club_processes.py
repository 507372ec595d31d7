"""A club night served by several processes on one PostgreSQL database: every club change
(check-in, seating, round start and end, a table's result) is told to the other processes
through the store's fan-out (LISTEN/NOTIFY), so a room display connected to one process shows
what was done through another, live; a table's results are recorded by the process that wrote
its finishing event.

Two apps in one test process stand for two server processes (each has its own store, its own
listener connection and origin id), and a real ``serve --workers 2`` runs the room streams.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
import requests
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from tests.club_helpers import finish_events, play
from tests.sse_client import SSEReader
from tests.test_web_durability import HOST, free_port, serve
from web import create_app
from web.store import club_schema
from web.store.live import CHANNEL


@pytest.fixture
def two_apps(database_url: Callable[[str], str]) -> Iterator[tuple[Flask, Flask, str]]:
    url = database_url("postgresql")
    apps = [create_app({"TESTING": True, "DATABASE": url, "SECRET_KEY": "test"})
            for _ in range(2)]
    yield apps[0], apps[1], url
    for app in apps:
        app.extensions["scorekeeper.store"].close()


def names(table: dict[str, Any]) -> list[str]:
    return [p["name"] for p in table["players"]]


class Notes:
    """The club notes on the store's channel, as another process hears them."""

    def __init__(self, url: str) -> None:
        self.conn = psycopg.connect(url.replace("postgresql+psycopg", "postgresql"),
                                    autocommit=True)
        self.conn.execute(f"LISTEN {CHANNEL}")

    def club_note(self, event_id: str, seconds: float = 10) -> bool:
        """Whether a note that night ``event_id`` changed arrives within ``seconds``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for notify in self.conn.notifies(timeout=0.2):
                data = json.loads(notify.payload)
                if data["k"] == "club" and data["t"] == event_id:
                    return True
        return False


def test_every_club_change_through_one_process_reaches_the_others_rooms(
        two_apps: tuple[Flask, Flask, str]) -> None:
    room_app, write_app, url = two_apps
    shown = room_app.extensions["scorekeeper.club"]
    writer: FlaskClient = write_app.test_client()
    created = writer.post("/api/club/events", json={"rounds": 1, "seats": 3}).get_json()
    event_id = created["event_id"]
    organiser = {"Authorization": f"Bearer {created['organiser_token']}"}
    shown.room(event_id)  # the room display opens on the first process
    notes = Notes(url)

    def change(step: Callable[[], Any]) -> dict[str, Any]:
        """Do ``step`` through the second process; the first one's rooms are woken."""
        version = shown.rooms.version(event_id)
        step()
        assert shown.rooms.wait(event_id, version, 10) != version
        assert notes.club_note(event_id)
        return dict(shown.room(event_id))

    for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo"):
        room = change(lambda n=name: writer.post(f"/api/club/events/{event_id}/checkins",
                                                 json={"name": n}, headers=organiser))
    assert room["checked_in"] == 6
    room = change(lambda: writer.post(f"/api/club/events/{event_id}/rounds", headers=organiser))
    assert room["round"]["status"] == "seated" and len(room["tables"]) == 2
    room = change(lambda: writer.post(f"/api/club/events/{event_id}/rounds/1/start",
                                      headers=organiser))
    assert room["round"]["status"] == "running"
    tables = writer.get(f"/api/club/events/{event_id}", headers=organiser).get_json()["tables"]
    first, second = tables
    room = change(lambda: play(writer, first, finish_events(names(first), names(first)[0])))
    with write_app.extensions["scorekeeper.club"].db.read() as conn:  # recorded by the writer
        assert conn.execute(select(func.count()).select_from(club_schema.results)
                            ).scalar_one() == 3
    assert room["tables"][0]["finished"] is True
    assert {s["player"]: s["points"] for s in room["standings"]}[names(first)[0]] == 4
    room = change(lambda: writer.post(f"/api/club/events/{event_id}/rounds/1/end",
                                      headers=organiser))
    assert room["round"]["ended_by"] == "organiser" and room["finished"] is True
    notes.conn.close()


def next_room(reader: SSEReader, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The reader's room messages until one for which ``done`` holds."""
    for _ in range(50):
        room: dict[str, Any] = reader.next(timeout=10, kind="room").data
        if done(room):
            return room
    raise AssertionError("the room display never showed the change")


def test_room_displays_on_two_worker_processes_follow_the_night_live(
        database_url: Callable[[str], str]) -> None:
    port = free_port()
    url = f"http://{HOST}:{port}"
    server = serve(database_url("postgresql"), port, workers=2)
    readers: list[SSEReader] = []
    session = requests.Session()
    session.headers["Connection"] = "close"  # each request on a new connection: either process

    def post(path: str, data: Any = None, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        reply = session.post(f"{url}{path}", json=data, headers=headers, timeout=10)
        assert reply.status_code in (200, 201), reply.text
        return reply.json()

    try:
        created = post("/api/club/events", {"rounds": 1, "seats": 2})
        event_id, token = created["event_id"], created["organiser_token"]
        readers = [SSEReader(f"{url}/api/club/events/{event_id}/stream") for _ in range(6)]
        for reader in readers:
            assert reader.next(timeout=10, kind="room").data["checked_in"] == 0
        for count, name in enumerate(("Ann", "Bo", "Cy", "Di"), 1):
            post(f"/api/club/events/{event_id}/checkins", {"name": name}, token)
            for reader in readers:
                next_room(reader, lambda r, c=count: r["checked_in"] == c)
        post(f"/api/club/events/{event_id}/rounds", None, token)
        post(f"/api/club/events/{event_id}/rounds/1/start", None, token)
        for reader in readers:
            next_room(reader, lambda r: r["round"]["status"] == "running")
        view = session.get(f"{url}/api/club/events/{event_id}", timeout=10,
                           headers={"Authorization": f"Bearer {token}"}).json()
        for table in view["tables"]:
            play(session_client(session, url), table,
                 finish_events(names(table), names(table)[1]))
        for reader in readers:
            room = next_room(reader, lambda r: r["round"]["status"] == "finished")
            assert room["round"]["ended_by"] == "games"
            assert sorted(s["points"] for s in room["standings"]) == [2, 2, 4, 4]
    finally:
        for reader in readers:
            reader.close()
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(20)


class session_client:  # noqa: N801 - stands in for a Flask test client in play()
    """``post(path, headers=, json=)`` over HTTP, answering with ``status_code`` and
    ``get_json()``."""

    def __init__(self, session: requests.Session, url: str) -> None:
        self.session, self.url = session, url

    def post(self, path: str, headers: dict[str, str], json: Any) -> Any:
        reply = self.session.post(f"{self.url}{path}", headers=headers, json=json, timeout=10)
        reply.get_json = reply.json  # type: ignore[attr-defined]
        return reply
