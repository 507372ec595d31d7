"""The history notes and chart timeline kept by the store as events land (web.store.notes):
GET /history serves them without reading the log, they agree with the whole log read afresh
(points, undo, amendments and removals, a Toss's captured card), a cold start gives the same
reply byte for byte after every event, and another process's write shows in them."""

from __future__ import annotations

import doctest
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from log_reading import amended_by, undone_by
from simulate import FOUR, HAND_ONE, HEARTS, MELD, bench_setup, random_game

from web import create_app
from web.store import Store, notes

THREE = {"game": "complex-toss-rummy", "players": ["ann", "bob", "cy"]}
BENCH = {"players": ["ann", "bob", "cy", "dee"],
         "teams": [{"name": "North", "members": ["ann", "cy"]},
                   {"name": "South", "members": ["bob", "dee"]}],
         "options": {"ruleset": "complex-toss-rummy", "goal": 1_000_000}}
UNDO = {"type": "undo"}
#: After hand 1: amend, undo it, amend with a removal, amend again, three undos (the two
#: amendments and the hand's end), amend.
AMENDMENTS: list[tuple[str, dict[str, Any]]] = [
    ("amend", {"target": 2, "event": FOUR, "reason": "the 6 of clubs too"}),
    ("event", UNDO),
    ("amend", {"target": 2, "event": HEARTS, "reason": "hearts", "remove": [4]}),
    ("amend", {"target": 2, "event": MELD, "reason": "clubs after all"}),
    ("event", UNDO), ("event", UNDO), ("event", UNDO),
    ("amend", {"target": 2, "event": FOUR, "reason": "the 6 of clubs again"}),
]


def keeper(table: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {table['keeper_token']}"}


def history(client: FlaskClient, table: dict[str, Any]) -> Any:
    reply = client.get(f"/api/tables/{table['table_id']}/history", headers=keeper(table))
    assert reply.status_code == 200, reply.json
    return reply


def play(client: FlaskClient, table: dict[str, Any], steps: list[tuple[str, dict[str, Any]]],
         after_each: Callable[[int], None] = lambda seq: None) -> int:
    """Store each step (an event, or an amendment's fields) on the table; returns the seq."""
    seq = client.get(f"/api/tables/{table['table_id']}/state", headers=keeper(table)).json["seq"]
    for kind, fields in steps:
        path, data = (("amend", {**fields, "base_seq": seq}) if kind == "amend"
                      else ("events", {"base_seq": seq, "event": fields}))
        reply = client.post(f"/api/tables/{table['table_id']}/{path}", headers=keeper(table),
                            json=data)
        assert reply.status_code == 201, reply.json
        seq = reply.json["seq"]
        after_each(seq)
    return seq


def new_table(client: FlaskClient, setup: dict[str, Any]) -> dict[str, Any]:
    reply = client.post("/api/tables", json=setup)
    assert reply.status_code == 201, reply.json
    table: dict[str, Any] = reply.json
    return table


def expected_notes(client: FlaskClient, table: dict[str, Any], reply: Any
                   ) -> dict[str, dict[str, Any]]:
    """The notes as the whole log says, read afresh: each event's points from the score
    points, its undo (log_reading.undone_by) and the amendments in effect (amended_by)."""
    events = client.get(f"/api/tables/{table['table_id']}/events",
                        headers=keeper(table)).json["events"]
    points = reply["points"]
    undone, amended = undone_by(events), amended_by(events)
    out = {}
    for before, after, row in zip(points, points[1:], events, strict=False):
        seq = row["seq"]
        change = {o: s - before["scores"].get(o, 0) for o, s in after["scores"].items()
                  if s != before["scores"].get(o, 0)}
        own = {"points": change}
        captured = reply["notes"][str(seq)].get("captured")
        if row["event"]["type"] == "toss":
            assert captured, row  # every Toss captures a meld's top card
            own["captured"] = captured
        out[str(seq)] = {**own, **({"undone_by": undone[seq]} if seq in undone else {}),
                         **amended.get(seq, {})}
    return out


@pytest.fixture
def sqlite_app(tmp_path: Any) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite")})
    yield app
    app.extensions["scorekeeper.store"].close()


def log_reads(store: Store) -> list[str]:
    """The statements that read the events table from now on (every engine of the store)."""
    seen: list[str] = []

    def note(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT") and " events" in statement:
            seen.append(statement)

    for engine in {store.db.engine, getattr(store.db, "_reader", store.db.engine)}:
        if isinstance(engine, sa.Engine):
            sa.event.listen(engine, "before_cursor_execute", note)
    return seen


def test_history_after_each_write_reads_no_log_and_matches_the_log_read_afresh(
        app: Flask, client: FlaskClient) -> None:
    table = new_table(client, THREE)
    reads = log_reads(app.extensions["scorekeeper.store"])
    seen: list[str] = []

    def check(seq: int) -> None:
        warm = history(client, table)
        reply = warm.json
        assert reply["seq"] == seq and len(reply["notes"]) == seq
        seen.extend(reads)
        reads.clear()
        assert reply["notes"] == expected_notes(client, table, reply)
        fresh = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"]})
        assert history(fresh.test_client(), table).data == warm.data  # as a cold start folds
        fresh.extensions["scorekeeper.store"].close()
        reads.clear()  # the expectation itself read the log through /events

    play(client, table, [("event", e) for e in HAND_ONE] + AMENDMENTS, check)
    assert seen == []  # GET /history never read the events table
    notes = history(client, table).json["notes"]
    assert notes["2"]["amended_by"] == [15] and notes["15"]["amends"] == 2
    assert notes["8"]["undone_by"] == 9 and "amends" not in notes["8"]
    assert "removed_by" not in notes["4"] and notes["10"]["undone_by"] == 13
    assert notes["7"]["undone_by"] == 14


def test_a_removal_is_noted_and_its_undo_takes_the_note_back(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = new_table(client, THREE)
    play(client, table, [("event", e) for e in HAND_ONE] + AMENDMENTS[2:3])
    assert history(client, table).json["notes"]["4"]["removed_by"] == 8
    play(client, table, [("event", UNDO)])
    notes = history(client, table).json["notes"]
    assert notes["4"] == {"points": {"bob": 10}} and "amended_by" not in notes["2"]


def test_a_cold_start_serves_the_same_history_byte_for_byte(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = new_table(client, BENCH)
    events = random_game(bench_setup(), seed=3, max_events=120, undo_rate=0.1)
    assert {"toss", "undo"} <= {e["type"] for e in events}
    play(client, table, [("event", e) for e in events])
    warm = history(client, table)
    assert warm.json["notes"] == expected_notes(client, table, warm.json)
    fresh = create_app({"TESTING": True, "DATABASE": sqlite_app.config["DATABASE"]})
    cold = history(fresh.test_client(), table)
    fresh.extensions["scorekeeper.store"].close()
    assert cold.data == warm.data


def test_another_processs_write_shows_in_the_history_notes(
        database_url: Callable[[str], str]) -> None:
    url = database_url("postgresql")
    first, second = (create_app({"TESTING": True, "DATABASE": url}) for _ in range(2))
    try:
        one, two = first.test_client(), second.test_client()
        table = new_table(one, THREE)
        play(one, table, [("event", e) for e in HAND_ONE])
        assert len(history(two, table).json["notes"]) == 7  # the second process holds it now
        mirror = second.extensions["scorekeeper.store"].table(table["table_id"])
        play(one, table, AMENDMENTS[:1])
        with mirror.cond:  # the note from the first process reaches the second's listener
            assert mirror.cond.wait_for(lambda: mirror.seq == 8, 10)
        notes = history(two, table).json["notes"]
        assert notes["2"]["amended_by"] == [8] and notes["8"]["amends"] == 2
        assert history(two, table).data == history(one, table).data
    finally:
        first.extensions["scorekeeper.store"].close()
        second.extensions["scorekeeper.store"].close()


def test_the_notes_module_examples_hold() -> None:
    result = doctest.testmod(notes, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
