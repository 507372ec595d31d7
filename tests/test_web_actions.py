"""Writes from the pages: an action id stores a double tap once (durably, with the event), and a
stale write says what the other device did."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from tests.test_web_api import create, keeper, log
from web import create_app, db


def events_url(table: dict[str, Any]) -> str:
    return f"/api/tables/{table['table_id']}/events"


def write(client: FlaskClient, table: dict[str, Any], base_seq: int, event: dict[str, Any],
          action_id: str | None) -> Any:
    body: dict[str, Any] = {"base_seq": base_seq, "event": event}
    if action_id is not None:
        body["action_id"] = action_id
    return client.post(events_url(table), headers=keeper(table), json=body)


def test_a_double_tap_on_next_turn_passes_the_turn_once(client: FlaskClient) -> None:
    table = create(client)
    deal = write(client, table, 0, {"type": "new-hand", "dealer": "ann"}, "deal-0001")
    assert deal.status_code == 201
    first = write(client, table, 1, {"type": "next-turn"}, "turn-0001")
    assert first.status_code == 201 and first.json["state"]["turn"] == "cy"
    # the same tap again, on the update the page had then (now stale) or on the new one
    for base in (1, 2):
        again = write(client, table, base, {"type": "next-turn"}, "turn-0001")
        assert again.status_code == 200, again.json
        assert again.json["repeat"] is True and again.json["seq"] == 2
        assert again.json["event"]["type"] == "next-turn"
        assert again.json["table_seq"] == 2 and again.json["state"]["turn"] == "cy"
    assert [e["event"]["type"] for e in log(client, table)] == ["new-hand", "next-turn"]


def test_the_action_id_is_stored_with_the_event_and_survives_a_restart(tmp_path: Path) -> None:
    database = str(tmp_path / "durable.sqlite")
    first_app = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "t"})
    table = create(first_app.test_client())
    assert write(first_app.test_client(), table, 0, {"type": "new-hand", "dealer": "ann"},
                 "deal-durable").status_code == 201
    first_app.extensions["scorekeeper.store"].close()
    second_app = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "t"})
    try:
        again = write(second_app.test_client(), table, 0, {"type": "new-hand", "dealer": "ann"},
                      "deal-durable")
        assert again.status_code == 200 and again.json["repeat"] is True and again.json["seq"] == 1
        assert len(log(second_app.test_client(), table)) == 1
    finally:
        second_app.extensions["scorekeeper.store"].close()


def test_a_stale_write_lists_what_the_other_device_did(client: FlaskClient) -> None:
    table = create(client)
    write(client, table, 0, {"type": "new-hand", "dealer": "ann"}, None)
    assert write(client, table, 1, {"type": "next-turn"}, "tablet-one").status_code == 201
    stale = write(client, table, 1, {"type": "next-turn"}, "tablet-two")
    assert stale.status_code == 409
    assert "another device" in stale.json["error"]
    assert [(m["seq"], m["event"]["type"]) for m in stale.json["missed"]] == [(2, "next-turn")]
    assert stale.json["state"]["turn"] == "cy"
    assert len(log(client, table)) == 2


def test_a_bad_action_id_is_refused_and_nothing_is_stored(client: FlaskClient) -> None:
    table = create(client)
    for bad in ("short", 12345678, "x" * 65, "has space!"):
        reply = write(client, table, 0, {"type": "new-hand", "dealer": "ann"}, bad)  # type: ignore[arg-type]
        assert reply.status_code == 400 and "action_id" in reply.json["error"]
    assert log(client, table) == []


def test_a_double_tap_on_a_proposal_sends_it_once(client: FlaskClient) -> None:
    table = create(client)
    write(client, table, 0, {"type": "new-hand", "dealer": "ann"}, None)
    bob = {"Authorization": f"Bearer {table['seats']['bob']}"}
    url = f"/api/tables/{table['table_id']}/proposals"
    body = {"kind": "event", "event": {"type": "meld", "cards": ["7cl", "7sp", "7he"]},
            "action_id": "phone-tap-1"}
    first = client.post(url, headers=bob, json=body)
    again = client.post(url, headers=bob, json=body)
    assert first.status_code == 201 and again.status_code == 200
    assert again.json == {"id": first.json["id"], "status": "pending", "repeat": True}
    meta = client.get(f"/api/tables/{table['table_id']}", headers=keeper(table)).json["table"]
    assert len(meta["proposals"]) == 1
    accept = f"{url}/{first.json['id']}/accept"
    tap = {"base_seq": 1, "action_id": "keeper-accept-1"}
    assert client.post(accept, headers=keeper(table), json=tap).status_code == 201
    second = client.post(accept, headers=keeper(table), json=tap)
    assert second.status_code == 200 and second.json["repeat"] is True and second.json["seq"] == 2
    assert len(log(client, table)) == 2


def test_a_database_written_before_action_ids_keeps_its_log(tmp_path: Path) -> None:
    conn = db.connect(tmp_path / "old.sqlite")
    for migration in db.MIGRATIONS[:2]:
        for statement in migration.split(";"):
            if statement.strip():
                conn.execute(statement)
    conn.execute("PRAGMA user_version=2")
    conn.execute("INSERT INTO tables VALUES ('t1', 0, '{}', 'k', 'd', 'j', 0, 0)")
    conn.execute("INSERT INTO events (table_id, seq, event_json, by, at)"
                 " VALUES ('t1', 1, '{}', 'keeper', 0)")
    assert db.migrate(conn) == 1 and db.schema_version(conn) == db.SCHEMA_VERSION
    assert [tuple(r) for r in conn.execute("SELECT seq, action_id FROM events")] == [(1, None)]
    conn.close()
