"""Refusals say what was wrong and how to fix it (a Correction without points, an empty meld,
a Toss that lists the captured card), typed suit symbols read as cards, and the history's and
the CSV export's reading of the log (undone events, Toss captures, local ISO 8601 times)."""

from __future__ import annotations

import csv
import io
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from log_reading import event_notes, undone_by

from scorekeeper import engine, log
from scorekeeper.cards import Card, parse_cards
from scorekeeper.melds import judge_meld
from web import create_app
from web.history import local_time
from web.store.notes import HistoryNotes

PLAYS: list[dict[str, Any]] = [
    {"type": "new-hand", "dealer": "Ann"},
    {"type": "meld", "player": "Bob", "cards": ["2he", "3he", "4he"], "top": "4he"},
    {"type": "next-turn"},
]


@pytest.fixture
def client(tmp_path: Path) -> FlaskClient:
    return create_app({"DATABASE": str(tmp_path / "t.sqlite")}).test_client()


def table_after(client: FlaskClient, events: list[dict[str, Any]]) -> tuple[str, int]:
    created = client.post("/api/tables", json={"game": "complex-toss-rummy",
                                               "players": ["Ann", "Bob", "Cy"]}).json
    table_id, seq = created["table_id"], created["seq"]
    for event in events:
        reply = client.post(f"/api/tables/{table_id}/events",
                            json={"base_seq": seq, "event": event})
        assert reply.status_code == 201, reply.json
        seq = reply.json["seq"]
    return table_id, seq


def refusal(client: FlaskClient, table_id: str, seq: int, event: dict[str, Any]) -> str:
    reply = client.post(f"/api/tables/{table_id}/events", json={"base_seq": seq, "event": event})
    assert reply.status_code in (400, 422)
    assert client.get(f"/api/tables/{table_id}/state").json["seq"] == seq  # nothing stored
    return str(reply.json["error"])


def test_correction_without_points_says_what_to_type(client: FlaskClient) -> None:
    table_id, seq = table_after(client, PLAYS[:1])
    error = refusal(client, table_id, seq, {"type": "correction", "target": "Ann",
                                            "points": None, "reason": "miscounted"})
    assert "None" not in error
    assert error == "the correction needs its points: a whole number such as 10 or -20"


def test_empty_meld_says_no_cards_were_given(client: FlaskClient) -> None:
    table_id, seq = table_after(client, PLAYS[:1])
    error = refusal(client, table_id, seq, {"type": "meld", "player": "Bob", "cards": []})
    assert "nothing is too short" not in error
    assert error.startswith("no cards were given: a meld needs at least 3 cards")
    assert judge_meld([]).reason == "no cards were given: a meld needs at least 3 cards"


def test_toss_listing_the_captured_card_says_leave_it_out(client: FlaskClient) -> None:
    table_id, seq = table_after(client, PLAYS)
    error = refusal(client, table_id, seq, {"type": "toss", "player": "Cy", "meld": 1,
                                            "joker": "jk-red",
                                            "cards": ["4he", "5he", "6he"]})
    assert error == ("Leave the captured 4he out of cards: it comes from meld 1; list only the"
                     " cards from your hand.")


def test_suit_symbols_read_as_suit_codes(client: FlaskClient) -> None:
    assert [c.code for c in parse_cards("7\u2663 7\u2660\ufe0f 10\u2665 Q\u2666")] == [
        "7cl", "7sp", "10he", "Qdi"]
    assert Card.parse("k\u2661").code == "Khe"
    table_id, seq = table_after(client, PLAYS[:1])
    reply = client.post(f"/api/tables/{table_id}/events", json={"base_seq": seq, "event": {
        "type": "meld", "player": "Bob", "cards": ["7\u2663", "7\u2660", "7\u2665"]}})
    assert reply.status_code == 201
    assert reply.json["state"]["melds"][0]["cards"] == ["7cl", "7sp", "7he"]


def test_undone_by_follows_the_undo_stack() -> None:
    log = [{"seq": s, "event": {"type": t}} for s, t in
           enumerate(["meld", "meld", "undo", "meld", "undo", "undo", "undo"], start=1)]
    assert undone_by(log) == {2: 3, 4: 5, 1: 6}  # the last undo had nothing left to undo


def test_event_notes_give_points_undo_and_captured_card() -> None:
    setup = engine.TableSetup(players=("Ann", "Bob", "Cy"))
    toss = {"type": "toss", "player": "Cy", "meld": 1, "joker": "jk-red",
            "cards": ["5he", "6he"]}
    events = [*PLAYS, toss, {"type": "undo"}, toss]
    notes = event_notes(setup, [{"seq": i, "event": e} for i, e in enumerate(events, start=1)])
    assert notes[2] == {"points": {"Bob": 9}}
    assert notes[4] == {"points": {"Bob": -4, "Cy": 15}, "undone_by": 5, "captured": "4he"}
    assert notes[5] == {"points": {"Bob": 4, "Cy": -15}}
    assert notes[6]["captured"] == "4he" and "undone_by" not in notes[6]


def test_notes_kept_event_by_event_agree_with_the_log_read_afresh() -> None:
    setup = engine.TableSetup(players=("Ann", "Bob", "Cy"))
    toss = {"type": "toss", "player": "Cy", "meld": 1, "joker": "jk-red",
            "cards": ["5he", "6he"]}
    rows = [{"seq": i, "event": e} for i, e in
            enumerate([*PLAYS, toss, {"type": "undo"}, toss, {"type": "undo"},
                       {"type": "undo"}], start=1)]
    fold, kept = log.begin(setup), HistoryNotes.begin(log.start(setup))
    for n, row in enumerate(rows, start=1):
        fold = log.step(fold, row["event"], row["seq"])
        kept.add(row["seq"], row["event"], fold.state)
        assert kept.notes == event_notes(setup, rows[:n])
    assert undone_by(rows) == {4: 5, 6: 7, 3: 8}
    assert {n: note["undone_by"] for n, note in kept.notes.items() if "undone_by" in note} == {
        4: 5, 6: 7, 3: 8}


def test_csv_files_split_and_times_are_local_iso(client: FlaskClient) -> None:
    table_id, _ = table_after(client, [*PLAYS, {"type": "undo"}])
    events = list(csv.DictReader(io.StringIO(
        client.get(f"/api/tables/{table_id}/export.csv").data.decode())))
    logged = client.get(f"/api/tables/{table_id}/events").json["events"]
    assert [int(r["seq"]) for r in events] == [1, 2, 3, 4]
    assert [r["undone by"] for r in events] == ["", "", "4", ""]
    for row, entry in zip(events, logged, strict=True):
        at = datetime.fromisoformat(row["at"])
        assert row["at"] == local_time(entry["at"]) and at.tzinfo is not None
        assert abs(at.timestamp() - entry["at"]) < 1
    hands = client.get(f"/api/tables/{table_id}/export-hands.csv")
    assert "attachment" in hands.headers["Content-Disposition"]
    assert hands.data.decode().splitlines() == ["hand,Ann,Bob,Cy"]  # no hand finished yet
