"""Amending a past event through the API (POST /api/tables/<id>/amend), over a real SQLite
file: the preview, the refusal naming a later event, the removal, undo, the history notes, the
exports, the players' re-confirmation and the action ids."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from simulate import FOUR, HAND_ONE, HEARTS, MELD

from scorekeeper.game import read_setup
from web import create_app


def keeper(table: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {table['keeper_token']}"}


def seat(table: dict[str, Any], player: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {table['seats'][player]}"}


def played(client: FlaskClient, game: str, events: list[dict[str, Any]],
           players: tuple[str, ...] = ("ann", "bob", "cy")) -> dict[str, Any]:
    reply = client.post("/api/tables", json={"game": game, "players": list(players)})
    assert reply.status_code == 201, reply.json
    table: dict[str, Any] = reply.json
    for seq, event in enumerate(events):
        answer = client.post(f"/api/tables/{table['table_id']}/events", headers=keeper(table),
                             json={"base_seq": seq, "event": event})
        assert answer.status_code == 201, answer.json
    return table


def amend(client: FlaskClient, table: dict[str, Any], **fields: Any) -> Any:
    return client.post(f"/api/tables/{table['table_id']}/amend",
                       headers=fields.pop("headers", keeper(table)), json=fields)


def scores(client: FlaskClient, table: dict[str, Any]) -> dict[str, int]:
    state = client.get(f"/api/tables/{table['table_id']}/state", headers=keeper(table)).json
    return {b["owner"]: b["score"] for b in state["state"]["boards"]}


def test_preview_then_refusal_naming_the_later_lay_off_then_another_amendment(
        client: FlaskClient) -> None:
    table = played(client, "complex-toss-rummy", HAND_ONE)
    preview = amend(client, table, target=2, event=HEARTS, reason="it was hearts", preview=True)
    assert preview.status_code == 200
    assert preview.json["preview"]["broken"][0]["seq"] == 4
    assert preview.json["preview"]["change"] == {"ann": 0, "bob": -20, "cy": 0}
    assert scores(client, table) == {"ann": 48, "bob": 15, "cy": -10}  # nothing stored

    refused = amend(client, table, target=2, event=HEARTS, reason="it was hearts", base_seq=7)
    assert refused.status_code == 422
    assert "update 4 (lay-off): 10cl does not fit 7he-8he-9he" in refused.json["error"]

    other = amend(client, table, target=2, event=FOUR, reason="the 6 of clubs too",
                  preview=True).json["preview"]
    assert other["change"] == {"ann": 12, "bob": 0, "cy": 0} and other["hands"] == [1]
    assert other["broken"] == [] and other["original"]["cards"] == MELD["cards"]
    stored = amend(client, table, target=2, event=FOUR, reason="the 6 of clubs too",
                   base_seq=7, action_id="amend-0001")
    assert stored.status_code == 201 and stored.json["seq"] == 8
    assert scores(client, table) == {"ann": 60, "bob": 15, "cy": -10}


def test_the_keeper_may_store_the_amendment_with_the_removal_of_the_events_named(
        client: FlaskClient) -> None:
    table = played(client, "complex-toss-rummy", HAND_ONE)
    stored = amend(client, table, target=2, event=HEARTS, reason="hearts", remove=[4],
                   base_seq=7)
    assert stored.status_code == 201
    assert scores(client, table) == {"ann": 48, "bob": -5, "cy": -10}
    wrong = amend(client, table, target=2, event=HEARTS, reason="hearts", remove=[3],
                  base_seq=8)
    assert wrong.status_code == 422 and "update 3 (next-turn) still holds" in wrong.json["error"]
    history = client.get(f"/api/tables/{table['table_id']}/history", headers=keeper(table)).json
    assert history["notes"]["4"]["removed_by"] == 8
    assert [p["seq"] for p in history["timeline"]] == [0, 1, 2, 3, 5, 6, 7]


def test_undo_of_an_amendment_restores_the_original_and_the_log_keeps_both(
        client: FlaskClient) -> None:
    table = played(client, "complex-toss-rummy", HAND_ONE)
    tid = table["table_id"]
    amend(client, table, target=2, event=FOUR, reason="the 6 of clubs too", base_seq=7)
    history = client.get(f"/api/tables/{tid}/history", headers=keeper(table)).json
    assert history["notes"]["2"]["amended_by"] == [8]
    assert history["notes"]["8"]["amends"] == 2 and history["notes"]["8"]["points"] == {"ann": 12}
    assert history["timeline"][-1]["scores"]["ann"] == 60
    undo = client.post(f"/api/tables/{tid}/events", headers=keeper(table),
                       json={"base_seq": 8, "event": {"type": "undo"}})
    assert undo.status_code == 201
    assert scores(client, table) == {"ann": 48, "bob": 15, "cy": -10}
    events = client.get(f"/api/tables/{tid}/events", headers=keeper(table)).json["events"]
    assert events[1]["event"]["cards"] == MELD["cards"]  # the original is never rewritten
    amendment = events[7]
    assert amendment["by"] == "keeper" and amendment["event"]["reason"] == "the 6 of clubs too"
    assert amendment["event"]["event"]["cards"] == FOUR["cards"]
    notes = client.get(f"/api/tables/{tid}/history", headers=keeper(table)).json["notes"]
    assert "amended_by" not in notes["2"] and notes["8"]["undone_by"] == 9


def test_both_exports_show_the_amendment(client: FlaskClient) -> None:
    table = played(client, "complex-toss-rummy", HAND_ONE)
    tid = table["table_id"]
    amend(client, table, target=2, event=FOUR, reason="the 6 of clubs too", base_seq=7)
    rows = list(csv.DictReader(io.StringIO(client.get(
        f"/api/tables/{tid}/export.csv", headers=keeper(table)).data.decode())))
    assert rows[1]["amended by"] == "8" and rows[7]["type"] == "amend"
    assert json.loads(rows[7]["event"])["reason"] == "the 6 of clubs too"
    document = json.loads(client.get(f"/api/tables/{tid}/export.json", headers=keeper(table)).data)
    assert document["events"][7]["event"]["target"] == 2
    assert {b["owner"]: b["score"] for b in document["state"]["boards"]}["ann"] == 60


def test_players_confirm_a_rescored_hand_again_and_see_the_notice(client: FlaskClient) -> None:
    table = played(client, "complex-toss-rummy", HAND_ONE)
    tid = table["table_id"]
    for player in ("ann", "bob"):
        assert client.post(f"/api/tables/{tid}/confirm", headers=seat(table, player),
                           json={"hand_no": 1}).status_code == 200
    amend(client, table, target=2, event=FOUR, reason="the 6 of clubs too", base_seq=7)
    meta = client.get(f"/api/tables/{tid}", headers=seat(table, "bob")).json["table"]
    assert meta["confirmations"].get("1") is None
    notice = meta["amendments"][0]
    assert (notice["seq"], notice["target"], notice["hands"]) == (8, 2, [1])
    assert notice["reason"] == "the 6 of clubs too" and notice["by"] == "keeper"


def test_a_repeated_amendment_is_answered_not_stored_twice(client: FlaskClient) -> None:
    table = played(client, "complex-toss-rummy", HAND_ONE)
    fields = {"target": 2, "event": FOUR, "reason": "six", "base_seq": 7,
              "action_id": "amend-0002"}
    assert amend(client, table, **fields).status_code == 201
    again = amend(client, table, **fields)
    assert again.status_code == 200 and again.json["repeat"] and again.json["seq"] == 8
    stale = amend(client, table, **{**fields, "action_id": "amend-0003"})
    assert stale.status_code == 409


def test_bad_amendments_are_refused_with_what_to_fix_and_store_nothing(
        client: FlaskClient) -> None:
    table = played(client, "complex-toss-rummy", HAND_ONE)
    no_reason = amend(client, table, target=2, event=FOUR, base_seq=7)
    assert no_reason.status_code == 400 and '"reason" is required' in no_reason.json["error"]
    no_target = amend(client, table, target=12, event=FOUR, reason="x", base_seq=7)
    assert no_target.status_code == 400 and "there is no update 12" in no_target.json["error"]
    player = amend(client, table, target=2, event=FOUR, reason="x", base_seq=7,
                   headers=seat(table, "ann"))
    assert player.status_code == 403
    illegal = amend(client, table, target=2, event={**MELD, "cards": ["7cl", "8he", "Kdi"]},
                    reason="x", base_seq=7)
    assert illegal.status_code == 422 and "the amended update 2" in illegal.json["error"]
    events = client.get(f"/api/tables/{table['table_id']}/events", headers=keeper(table)).json
    assert events["seq"] == 7


def test_a_toss_hearts_hand_amended_and_the_table_refolded_from_the_file(
        client: FlaskClient, app: Flask) -> None:
    hands = [{"type": "hand", "entry": {"taken": {"ann": ["Qsp"], "bob": ["2he"]}}},
             {"type": "hand", "entry": {"taken": {"bob": ["Qsp", "3he"]}}}]
    table = played(client, "toss-hearts", hands, ("ann", "bob"))
    fixed = {"type": "hand", "entry": {"taken": {"bob": ["Qsp"], "ann": ["2he"]}}}
    preview = amend(client, table, target=1, event=fixed, reason="queen to bob", preview=True)
    assert preview.json["preview"]["change"] == {"ann": -12, "bob": 12}
    assert preview.json["preview"]["hands"] == [1]
    assert amend(client, table, target=1, event=fixed, reason="queen to bob",
                 base_seq=2).status_code == 201
    assert scores(client, table) == {"ann": 1, "bob": 27}
    # a fresh app on the same file folds the log, amendment included, to the same state
    other = create_app({"DATABASE": app.config["DATABASE"], "TESTING": True})
    state = other.test_client().get(f"/api/tables/{table['table_id']}/state",
                                    headers=keeper(table)).json
    other.extensions["scorekeeper.store"].close()
    assert {b["owner"]: b["score"] for b in state["state"]["boards"]} == {"ann": 1, "bob": 27}


def test_undo_of_an_amendment_past_the_states_kept_in_memory(app: Flask) -> None:
    store = app.extensions["scorekeeper.store"]
    setup = read_setup({"game": "toss-hearts", "players": ["ann", "bob"]})
    table = store.create_table(setup)
    store.append(table, 0, {"type": "hand", "entry": {"taken": {"ann": ["Qsp"]}}}, "keeper")
    fixed = {"type": "hand", "entry": {"taken": {"bob": ["Qsp"]}}}
    store.append(table, 1, {"type": "amend", "target": 1, "event": fixed, "reason": "bob"},
                 "keeper")
    later = 140  # more than the undo chain keeps (UNDO_KEEP + UNDO_SLACK)
    for seq in range(2, 2 + later):
        store.append(table, seq, {"type": "correction", "target": "ann",
                                  "points": 1 if seq % 2 else -1, "reason": "r"}, "keeper")
    assert table.fold is not None and table.fold.previous is not None
    for seq in range(2 + later, 2 + 2 * later + 1):
        store.append(table, seq, {"type": "undo"}, "keeper")
    assert {b.owner: b.score for b in table.state.boards()} == {"ann": 13, "bob": 0}
