"""The JSON API (contract D) through Flask's test client, over a real SQLite file."""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web import create_app, db

PLAYERS = [{"name": "ann", "colour": "#e5383b"}, {"name": "bob"}, {"name": "cy"}]


def create(client: FlaskClient, **extra: Any) -> dict[str, Any]:
    reply = client.post("/api/tables", json={"players": PLAYERS, **extra})
    assert reply.status_code == 201, reply.json
    data: dict[str, Any] = reply.json
    return data


def keeper(table: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {table['keeper_token']}"}


def post(client: FlaskClient, table: dict[str, Any], base_seq: int, event: dict[str, Any],
         headers: dict[str, str] | None = None) -> Any:
    return client.post(f"/api/tables/{table['table_id']}/events", headers=headers or keeper(table),
                       json={"base_seq": base_seq, "event": event})


def log(client: FlaskClient, table: dict[str, Any]) -> list[dict[str, Any]]:
    reply = client.get(f"/api/tables/{table['table_id']}/events", headers=keeper(table))
    events: list[dict[str, Any]] = reply.json["events"]
    return events


def deal_and_meld(client: FlaskClient, table: dict[str, Any]) -> int:
    assert post(client, table, 0, {"type": "new-hand", "dealer": "ann"}).status_code == 201
    reply = post(client, table, 1, {"type": "meld", "player": "bob",
                                    "cards": ["7cl", "7sp", "7he"], "top": "7cl"})
    assert reply.status_code == 201
    return int(reply.json["seq"])


def test_create_table_sets_an_httponly_keeper_cookie(client: FlaskClient) -> None:
    reply = client.post("/api/tables", json={"players": PLAYERS, "options": {"ace": "high"}})
    assert reply.status_code == 201
    cookie = reply.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert reply.json["state"]["options"]["ace"] == "high"
    assert [b["owner"] for b in reply.json["state"]["boards"]] == ["ann", "bob", "cy"]
    assert reply.json["state"]["boards"][0]["colour"] == "#e5383b"
    # the cookie alone now reads the state
    state = client.get(f"/api/tables/{reply.json['table_id']}/state")
    assert state.status_code == 200 and state.json["seq"] == 0


def test_create_table_with_teams_and_toss_rummy(client: FlaskClient) -> None:
    players = [{"name": n} for n in ("ann", "bob", "cy", "dee")]
    teams = [{"name": "North", "members": ["ann", "cy"], "colour": "#2a9d4b"},
             {"name": "South", "members": ["bob", "dee"]}]
    reply = client.post("/api/tables", json={"game": "toss-rummy", "players": players,
                                             "teams": teams})
    assert reply.status_code == 201, reply.json
    state = reply.json["state"]
    assert state["ruleset"] == "toss-rummy" and state["goal"] == 1010
    assert [(b["owner"], b["colour"]) for b in state["boards"]][0] == ("North", "#2a9d4b")


@pytest.mark.parametrize(("body", "message"), [
    ({"players": [{"name": "ann"}]}, "2 to 6 players"),
    ({"players": ["ann", "ann"]}, "two players are called"),
    ({"players": ["ann", "bob"], "options": {"ace": "sideways"}}, "ace"),
    ({"players": ["ann", "bob", "cy"], "teams": [{"name": "N", "members": ["ann", "bob"]},
                                                 {"name": "S", "members": ["cy"]}]}, "team"),
    ({"players": ["ann", "bob"], "options": {"colour": 3}}, "unknown option"),
])
def test_bad_setups_are_refused_and_nothing_is_stored(
        app: Flask, client: FlaskClient, body: dict[str, Any], message: str) -> None:
    reply = client.post("/api/tables", json=body)
    assert reply.status_code == 400
    assert message in reply.json["error"]
    assert app.extensions["scorekeeper.store"].table_ids() == []


def test_a_play_is_stored_and_the_next_seq_is_returned(client: FlaskClient) -> None:
    table = create(client)
    seq = deal_and_meld(client, table)
    assert seq == 2
    state = client.get(f"/api/tables/{table['table_id']}/state", headers=keeper(table)).json
    assert state["seq"] == 2
    assert state["state"]["boards"][1]["score"] == 21
    events = log(client, table)
    assert [e["seq"] for e in events] == [1, 2]
    assert events[1]["by"] == "keeper" and events[1]["event"]["cards"] == ["7cl", "7sp", "7he"]


def test_a_stale_write_gets_409_with_the_current_state(client: FlaskClient) -> None:
    table = create(client)
    deal_and_meld(client, table)
    reply = post(client, table, 1, {"type": "next-turn"})
    assert reply.status_code == 409
    assert reply.json["seq"] == 2 and reply.json["state"]["boards"][1]["score"] == 21
    assert "update 2" in reply.json["error"]
    assert len(log(client, table)) == 2


@pytest.mark.parametrize(("event", "status", "message"), [
    ({"type": "meld", "player": "bob", "cards": ["7xx", "7sp", "7he"]}, 400, "7xx"),
    ({"type": "meld", "player": "bob", "cards": ["7cl", "8sp", "Khe"]}, 422, ""),
    ({"type": "meld", "player": "cy", "cards": ["7cl", "7sp", "7he"]}, 422, ""),
    ({"type": "fold"}, 400, "unknown event type"),
    ({"player": "bob"}, 400, "type"),
])
def test_refused_events_say_why_and_store_nothing(
        client: FlaskClient, event: dict[str, Any], status: int, message: str) -> None:
    table = create(client)
    post(client, table, 0, {"type": "new-hand", "dealer": "ann"})
    reply = post(client, table, 1, event)
    assert reply.status_code == status, reply.json
    assert reply.json["error"] and message in reply.json["error"]
    assert len(log(client, table)) == 1
    state = client.get(f"/api/tables/{table['table_id']}/state", headers=keeper(table)).json
    assert state["seq"] == 1 and state["state"]["melds"] == []


@pytest.mark.parametrize(("takes", "taken_melds", "bob_after"), [
    (None, [2, 3], 27 + 30 + 30 + 50),  # the default: the whole play, the kings included
    ("toss-meld", [2], 27 + 30 + 50),
])
def test_double_cross_takes_option_through_the_api(client: FlaskClient, takes: str | None,
                                                   taken_melds: list[int],
                                                   bob_after: int) -> None:
    options = {} if takes is None else {"double_cross_takes": takes}
    table = create(client, options=options)
    assert table["state"]["options"]["double_cross_takes"] == (takes or "whole-play")
    events: list[dict[str, Any]] = [
        {"type": "new-hand", "dealer": "ann"},
        {"type": "meld", "player": "bob", "cards": ["8di", "9di", "10di"], "top": "10di"},
        {"type": "next-turn"},
        {"type": "toss", "player": "cy", "meld": 1, "joker": "jk-red", "cards": ["10cl", "10sp"]},
        {"type": "meld", "player": "cy", "cards": ["Kcl", "Ksp", "Kdi"]},
        {"type": "next-turn"}]
    for seq, event in enumerate(events):
        reply = post(client, table, seq, event)
        assert reply.status_code == 201, reply.json
    takes_now = reply.json["state"]["double_cross"]["takes"]
    assert [t["meld"] for t in takes_now] == taken_melds
    crossed = post(client, table, len(events), {"type": "double-cross", "player": "bob",
                                                "jokers": ["boss"]})
    assert crossed.status_code == 201, crossed.json
    assert crossed.json["state"]["boards"][1]["score"] == bob_after - 10
    undone = post(client, table, len(events) + 1, {"type": "undo"})
    assert undone.json["state"]["double_cross"]["takes"] == takes_now


def test_a_bad_double_cross_takes_value_is_refused_naming_the_option(
        client: FlaskClient) -> None:
    reply = client.post("/api/tables", json={"players": PLAYERS,
                                             "options": {"double_cross_takes": "everything"}})
    assert reply.status_code == 400
    assert "double_cross_takes" in reply.json["error"] and "whole-play" in reply.json["error"]


def test_toss_joker_melded_table_refuses_a_toss_without_the_joker(client: FlaskClient) -> None:
    table = create(client, options={"toss_joker": "melded", "double_cross_back": False})
    assert table["state"]["options"]["toss_joker"] == "melded"
    assert table["state"]["options"]["double_cross_back"] is False
    seq = deal_and_meld(client, table)  # bob melds 7cl 7sp 7he, 7cl on top
    assert post(client, table, seq, {"type": "next-turn"}).status_code == 201
    before = client.get(f"/api/tables/{table['table_id']}/state", headers=keeper(table)).json
    toss = {"type": "toss", "player": "cy", "meld": 1, "joker": "jk-black",
            "cards": ["7di", "7cr"]}
    reply = post(client, table, seq + 1, toss)
    assert reply.status_code == 422, reply.json
    assert "toss_joker" in reply.json["error"]
    assert len(log(client, table)) == seq + 1
    after = client.get(f"/api/tables/{table['table_id']}/state", headers=keeper(table)).json
    assert after == before
    accepted = post(client, table, seq + 1, {**toss, "cards": ["jk-black", "7di"]})
    assert accepted.status_code == 201, accepted.json


def test_out_of_turn_play_is_a_rule_violation_with_a_reason(client: FlaskClient) -> None:
    table = create(client)
    post(client, table, 0, {"type": "new-hand", "dealer": "ann"})
    reply = post(client, table, 1, {"type": "meld", "player": "cy",
                                    "cards": ["7cl", "7sp", "7he"]})
    assert reply.status_code == 422
    assert "turn" in reply.json["error"].lower()


@pytest.mark.parametrize("data", [b"not json", b"[1, 2]", b'{"event": {"type": "undo"}}',
                                  b'{"base_seq": "1", "event": {"type": "undo"}}'])
def test_malformed_bodies_get_400(client: FlaskClient, data: bytes) -> None:
    table = create(client)
    reply = client.post(f"/api/tables/{table['table_id']}/events", data=data,
                        headers={**keeper(table), "Content-Type": "application/json"})
    assert reply.status_code == 400
    assert reply.json["error"]
    assert log(client, table) == []


def test_a_huge_body_gets_413(client: FlaskClient) -> None:
    table = create(client)
    big = json.dumps({"base_seq": 0, "event": {"type": "correction", "target": "ann",
                                                "points": 1, "reason": "x" * 100_000}})
    reply = client.post(f"/api/tables/{table['table_id']}/events", data=big,
                        headers={**keeper(table), "Content-Type": "application/json"})
    assert reply.status_code == 413
    assert "too large" in reply.json["error"]
    assert log(client, table) == []


def test_writes_need_the_keeper_token(client: FlaskClient) -> None:
    table = create(client)
    client.delete_cookie(f"sk_{table['table_id']}_keeper")
    event = {"base_seq": 0, "event": {"type": "new-hand", "dealer": "ann"}}
    url = f"/api/tables/{table['table_id']}/events"
    assert client.post(url, json=event).status_code == 403
    wrong = client.post(url, json=event, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 403 and "does not belong" in wrong.json["error"]
    display = {"Authorization": f"Bearer {table['display_token']}"}
    assert client.post(url, json=event, headers=display).status_code == 403
    seat = {"Authorization": f"Bearer {table['seats']['bob']}"}
    assert client.post(url, json=event, headers=seat).status_code == 403
    assert client.get(url).status_code in (403, 405)
    assert log(client, table) == []


def test_no_write_by_get(client: FlaskClient) -> None:
    table = create(client)
    for path in ("events", "join", "join-token", "proposals", "confirm", "settings"):
        reply = client.get(f"/api/tables/{table['table_id']}/{path}", headers=keeper(table))
        assert reply.status_code in (403, 405) or path == "events"
    assert client.get(f"/api/tables/{table['table_id']}/join-token",
                      headers=keeper(table)).status_code == 405


def test_reads_accept_any_table_token(client: FlaskClient) -> None:
    table = create(client)
    client.delete_cookie(f"sk_{table['table_id']}_keeper")
    url = f"/api/tables/{table['table_id']}/state"
    for token in (table["keeper_token"], table["display_token"], table["seats"]["cy"]):
        assert client.get(url, headers={"Authorization": f"Bearer {token}"}).status_code == 200
        assert client.get(f"{url}?token={token}").status_code == 200
    assert client.get(url).status_code == 403
    assert client.get("/api/tables/nosuch/state").status_code == 404


def test_undo_is_a_compensating_event(client: FlaskClient) -> None:
    table = create(client)
    seq = deal_and_meld(client, table)
    reply = post(client, table, seq, {"type": "undo"})
    assert reply.status_code == 201
    assert reply.json["seq"] == 3
    assert reply.json["state"]["melds"] == [] and reply.json["state"]["boards"][1]["score"] == 0
    assert [e["event"]["type"] for e in log(client, table)] == ["new-hand", "meld", "undo"]


def test_join_with_the_qr_link_claims_a_seat(client: FlaskClient, app: Flask) -> None:
    table = create(client)
    tid = table["table_id"]
    phone = app.test_client()
    page = phone.get(f"/t/{tid}/join?t={table['join_token']}")
    assert page.status_code == 200 and b"data-seat=\"bob\"" in page.data
    reply = phone.post(f"/api/tables/{tid}/join",
                       json={"join_token": table["join_token"], "player": "bob"})
    assert reply.status_code == 200 and reply.json["token"] == table["seats"]["bob"]
    assert "HttpOnly" in reply.headers["Set-Cookie"]
    info = phone.get(f"/api/tables/{tid}").json
    assert info["role"] == {"kind": "player", "player": "bob"}
    assert {"player": "bob", "claimed": True} in info["table"]["seats"]
    assert phone.get(f"/t/{tid}/play").status_code == 200
    assert phone.get(f"/t/{tid}/keeper").status_code == 403


def test_wrong_rotated_and_expired_join_tokens_are_refused(client: FlaskClient,
                                                           app: Flask) -> None:
    table = create(client)
    tid = table["table_id"]
    phone = app.test_client()
    wrong = phone.post(f"/api/tables/{tid}/join", json={"join_token": "guess", "player": "bob"})
    assert wrong.status_code == 403 and "wrong" in wrong.json["error"]
    page = phone.get(f"/t/{tid}/join?t=guess")
    assert page.status_code == 403 and b"QR code again" in page.data
    rotated = client.post(f"/api/tables/{tid}/join-token", headers=keeper(table))
    assert rotated.status_code == 200
    old = phone.post(f"/api/tables/{tid}/join",
                     json={"join_token": table["join_token"], "player": "bob"})
    assert old.status_code == 403
    store = app.extensions["scorekeeper.store"]
    store.table(tid).join_expires_at = time.time() - 1
    expired = phone.post(f"/api/tables/{tid}/join",
                         json={"join_token": rotated.json["join_token"], "player": "bob"})
    assert expired.status_code == 403 and "expired" in expired.json["error"]
    seatless = client.post(f"/api/tables/{tid}/join-token", headers=keeper(table))
    nobody = phone.post(f"/api/tables/{tid}/join",
                        json={"join_token": seatless.json["join_token"], "player": "zed"})
    assert nobody.status_code == 400 and "no seat" in nobody.json["error"]


def test_player_proposal_accepted_by_the_keeper(client: FlaskClient) -> None:
    table = create(client)
    tid = table["table_id"]
    bob = {"Authorization": f"Bearer {table['seats']['bob']}"}
    post(client, table, 0, {"type": "new-hand", "dealer": "ann"})
    bad = client.post(f"/api/tables/{tid}/proposals", headers=bob,
                      json={"event": {"type": "meld", "cards": ["7cl", "8cl", "Khe"]}})
    assert bad.status_code == 422 and bad.json["error"]
    reply = client.post(f"/api/tables/{tid}/proposals", headers=bob,
                        json={"event": {"type": "meld", "player": "ann",
                                        "cards": ["Qcl", "Qsp", "Qhe"]}})
    assert reply.status_code == 201 and reply.json["status"] == "pending"
    pending = client.get(f"/api/tables/{tid}", headers=keeper(table)).json["table"]["proposals"]
    assert pending[0]["player"] == "bob" and pending[0]["payload"]["player"] == "bob"
    forbidden = client.post(f"/api/tables/{tid}/proposals/{reply.json['id']}/accept",
                            headers=bob, json={"base_seq": 1})
    assert forbidden.status_code == 403
    accepted = client.post(f"/api/tables/{tid}/proposals/{reply.json['id']}/accept",
                           headers=keeper(table), json={"base_seq": 1})
    assert accepted.status_code == 201 and accepted.json["seq"] == 2
    assert log(client, table)[-1]["by"] == "bob"
    again = client.post(f"/api/tables/{tid}/proposals/{reply.json['id']}/accept",
                        headers=keeper(table), json={"base_seq": 2})
    assert again.status_code == 400 and "already accepted" in again.json["error"]
    missing = client.post(f"/api/tables/{tid}/proposals/999/reject", headers=keeper(table))
    assert missing.status_code == 404 and "no proposal 999" in missing.json["error"]


def test_auto_accept_commits_a_players_proposal(client: FlaskClient) -> None:
    table = create(client, auto_accept=True)
    tid = table["table_id"]
    post(client, table, 0, {"type": "new-hand", "dealer": "ann"})
    reply = client.post(f"/api/tables/{tid}/proposals",
                        headers={"Authorization": f"Bearer {table['seats']['bob']}"},
                        json={"event": {"type": "meld", "cards": ["Qcl", "Qsp", "Qhe"]}})
    assert reply.status_code == 201 and reply.json["status"] == "accepted"
    assert reply.json["state"]["boards"][1]["score"] == 30


def test_end_hand_preview_commit_and_confirmations(client: FlaskClient) -> None:
    table = create(client)
    tid = table["table_id"]
    seq = deal_and_meld(client, table)
    cy = {"Authorization": f"Bearer {table['seats']['cy']}"}
    hand = client.post(f"/api/tables/{tid}/proposals", headers=cy,
                       json={"kind": "hand", "cards": "5he Kcl"})
    assert hand.status_code == 201
    hands = {"ann": ["Acr"], "bob": [], "cy": "5he Kcl"}
    preview = client.post(f"/api/tables/{tid}/preview-end-hand", headers=keeper(table),
                          json={"went_out": "bob", "hands": hands})
    assert preview.status_code == 200, preview.json
    tally = preview.json["tally"]["players"]
    assert tally["cy"]["hand_points"] == 15 and tally["ann"]["net"] == -20
    assert client.get(f"/api/tables/{tid}/state", headers=keeper(table)).json["seq"] == seq
    early = client.post(f"/api/tables/{tid}/confirm", headers=cy, json={"hand_no": 1})
    assert early.status_code == 400
    commit = post(client, table, seq, {"type": "end-hand", "went_out": "bob",
                                       "hands": {"ann": ["Acr"], "bob": [], "cy": ["5he", "Kcl"]}})
    assert commit.status_code == 201, commit.json
    assert commit.json["state"]["hands"][0]["hand_no"] == 1
    ok = client.post(f"/api/tables/{tid}/confirm", headers=cy, json={"hand_no": 1})
    assert ok.status_code == 200
    meta = client.get(f"/api/tables/{tid}", headers=keeper(table)).json["table"]
    assert meta["confirmations"] == {"1": ["cy"]}
    assert meta["proposals"] == []  # the hand proposal was used
    bad_card = client.post(f"/api/tables/{tid}/preview-end-hand", headers=keeper(table),
                           json={"went_out": "bob", "hands": {"ann": ["1zz"]}})
    assert bad_card.status_code in (400, 422)


def test_board_status_reported_by_the_display_token(client: FlaskClient) -> None:
    table = create(client)
    tid = table["table_id"]
    display = {"Authorization": f"Bearer {table['display_token']}"}
    reply = client.post(f"/api/tables/{tid}/board-status", headers=display,
                        json={"status": "connected", "detail": "WLED on /dev/ttyUSB0"})
    assert reply.status_code == 200
    seat = {"Authorization": f"Bearer {table['seats']['ann']}"}
    assert client.post(f"/api/tables/{tid}/board-status", headers=seat,
                       json={"status": "x"}).status_code == 403
    assert client.post(f"/api/tables/{tid}/board-status", headers=display,
                       json={"detail": "no status"}).status_code == 400
    status = client.get(f"/api/tables/{tid}/board-status", headers=seat).json
    assert status["status"] == "connected" and status["detail"] == "WLED on /dev/ttyUSB0"


def test_history_and_exports(client: FlaskClient) -> None:
    table = create(client)
    tid = table["table_id"]
    deal_and_meld(client, table)
    history = client.get(f"/api/tables/{tid}/history", headers=keeper(table)).json
    assert [p["scores"]["bob"] for p in history["points"]] == [0, 0, 21]
    exported = client.get(f"/api/tables/{tid}/export.json", headers=keeper(table))
    assert "attachment" in exported.headers["Content-Disposition"]
    assert [e["seq"] for e in json.loads(exported.data)["events"]] == [1, 2]
    csv_text = client.get(f"/api/tables/{tid}/export.csv", headers=keeper(table)).data.decode()
    lines = csv_text.splitlines()
    assert lines[0].startswith("seq,at,by,type,event,score ann")
    assert lines[2].startswith("2,") and lines[2].endswith(",0,21,0,,")  # not undone, amended


def test_rules_check(client: FlaskClient) -> None:
    good = client.post("/api/rules/check", json={"cards": "7cl 7sp 7he 7di"})
    assert good.status_code == 200 and good.json["valid"] and good.json["points"] == 28
    bad = client.post("/api/rules/check", json={"cards": ["7cl", "8sp", "Khe"]})
    assert bad.status_code == 200 and not bad.json["valid"] and bad.json["reason"]
    toss = client.post("/api/rules/check", json={"cards": "7cl 7sp 7he 7di",
                                                 "options": {"ruleset": "toss-rummy"}})
    assert toss.json["points"] == 20
    unknown = client.post("/api/rules/check", json={"cards": "7cl 7sp 7hx"})
    assert unknown.status_code == 400 and "7hx" in unknown.json["error"]
    twice = client.post("/api/rules/check", json={"cards": "7cl 7cl 7he"})
    assert twice.status_code == 400 and "7cl" in twice.json["error"]
    assert client.post("/api/rules/check", json={"cards": ""}).status_code == 400


def test_state_is_refolded_from_the_log_after_a_restart(app: Flask, client: FlaskClient) -> None:
    table = create(client)
    seq = deal_and_meld(client, table)
    post(client, table, seq, {"type": "correction", "target": "ann", "points": 15,
                              "reason": "scored on paper"})
    before = client.get(f"/api/tables/{table['table_id']}/state", headers=keeper(table)).json
    app.extensions["scorekeeper.store"].close()
    again = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"]})
    try:
        after = again.test_client().get(f"/api/tables/{table['table_id']}/state",
                                        headers=keeper(table)).json
    finally:
        again.extensions["scorekeeper.store"].close()
    assert after == before and after["seq"] == 3


def test_schema_is_versioned_and_migrations_are_idempotent(app: Flask) -> None:
    conn = db.connect(app.config["DATABASE"])
    try:
        assert db.schema_version(conn) == db.SCHEMA_VERSION
        assert db.migrate(conn) == 0
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        conn.execute(f"PRAGMA user_version={db.SCHEMA_VERSION + 1}")
        with pytest.raises(db.SchemaTooNewError):
            db.migrate(conn)
    finally:
        conn.close()


def test_log_rows_are_only_appended(client: FlaskClient, app: Flask) -> None:
    table = create(client)
    seq = deal_and_meld(client, table)
    post(client, table, seq, {"type": "undo"})
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        rows = conn.execute("SELECT seq, event_json FROM events ORDER BY seq").fetchall()
    assert [r[0] for r in rows] == [1, 2, 3]
    assert json.loads(rows[1][1])["type"] == "meld"  # the undone meld is still in the log


def test_pages_render_and_a_token_link_sets_the_cookie(client: FlaskClient, app: Flask) -> None:
    assert b"New table" in client.get("/").data
    assert b"Is it a meld" in client.get("/rules").data
    table = create(client)
    tid = table["table_id"]
    tv = app.test_client()
    reply = tv.get(f"/t/{tid}/display?token={table['display_token']}")
    assert reply.status_code == 302 and "HttpOnly" in reply.headers["Set-Cookie"]
    assert reply.headers["Location"].endswith(f"/t/{tid}/display")
    page = tv.get(f"/t/{tid}/display")
    assert page.status_code == 200 and b'id="boot"' in page.data
    assert tv.get(f"/t/{tid}/keeper").status_code == 403
    assert client.get(f"/t/{tid}/keeper").status_code == 200
    assert client.get(f"/t/{tid}/history").status_code == 200
    stranger = app.test_client().get(f"/t/{tid}/display")
    assert stranger.status_code == 403 and b"join link" in stranger.data
    bad = app.test_client().get(f"/t/{tid}/display?token=nope")
    assert bad.status_code == 403


def test_every_page_asset_is_served_locally(client: FlaskClient) -> None:
    for page in ("/", "/rules"):
        html = client.get(page).data.decode()
        assert "http://" not in html and "https://" not in html
    for asset in ("sk.css", "sk.js", "keeper.js", "player.js", "start.js", "history.js",
                  "icon.svg"):
        assert client.get(f"/static/{asset}").status_code == 200


def test_config_from_environment(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREKEEPER_DATABASE", str(tmp_path / "env.sqlite"))
    monkeypatch.setenv("SCOREKEEPER_PORT", "8123")
    app = create_app()
    try:
        assert app.config["PORT"] == 8123 and app.config["HOST"] == "0.0.0.0"
        assert app.config["DATABASE"] == str(tmp_path / "env.sqlite")
    finally:
        app.extensions["scorekeeper.store"].close()
    monkeypatch.setenv("SCOREKEEPER_PORT", "eighty")
    with pytest.raises(ValueError, match="SCOREKEEPER_PORT"):
        create_app()


def test_init_db_command(runner: Any) -> None:
    result = runner.invoke(args=["init-db"])
    assert "database ready" in result.output


def test_every_card_field_refuses_an_empty_code_and_stores_nothing(client: FlaskClient) -> None:
    table = create(client)
    tid = table["table_id"]
    seq = deal_and_meld(client, table)
    bob = {"Authorization": f"Bearer {table['seats']['bob']}"}
    replies = [
        client.post("/api/rules/check", json={"cards": ["", "Kcl", "Ksp"]}),
        client.post("/api/rules/check", json={"cards": "Kcl,,Ksp Khe"}),
        client.post(f"/api/tables/{tid}/preview-end-hand", headers=keeper(table),
                    json={"went_out": "bob", "hands": {"ann": ["", "5he"]}}),
        client.post(f"/api/tables/{tid}/proposals", headers=bob,
                    json={"kind": "hand", "cards": ["5he", ""]}),
        client.post(f"/api/tables/{tid}/proposals", headers=bob,
                    json={"event": {"type": "lay-off", "meld": 1, "cards": ["", "7di"]}}),
        post(client, table, seq, {"type": "meld", "player": "bob",
                                  "cards": ["", "Kcl", "Ksp", "Khe"]}),
        post(client, table, seq, {"type": "end-hand", "went_out": "bob",
                                  "hands": {"ann": ["Acr", ""], "bob": [], "cy": []}}),
    ]
    for reply in replies:
        assert reply.status_code == 400, reply.json
        assert "empty card code ''" in reply.json["error"], reply.json
    after = client.get(f"/api/tables/{tid}", headers=keeper(table)).json
    assert after["seq"] == seq and after["table"]["proposals"] == []

