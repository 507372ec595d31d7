"""Seats: a claimed seat is handed on only with the keeper's approval (or the seat's own link);
the keeper frees seats, and a freed or re-issued seat's token ends. The display's QR link."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.test_web_api import create, keeper


def join(phone: FlaskClient, table: dict[str, Any], player: str) -> Any:
    return phone.post(f"/api/tables/{table['table_id']}/join",
                      json={"join_token": table["join_token"], "player": player})


def state(phone: FlaskClient, table: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else None
    return phone.get(f"/api/tables/{table['table_id']}/state", headers=headers)


def test_a_second_phone_waits_for_the_keeper_and_the_first_phones_token_ends(
        client: FlaskClient, app: Flask) -> None:
    table = create(client)
    tid = table["table_id"]
    first, second = app.test_client(), app.test_client()
    taken = join(first, table, "bob")
    assert taken.status_code == 200
    again = join(first, table, "bob")  # the phone holding the seat taps it again
    assert again.status_code == 200 and again.json["token"] == taken.json["token"]
    asked = join(second, table, "bob")
    assert asked.status_code == 202 and "token" not in asked.json
    assert asked.json["status"] == "pending" and "keeper" in asked.json["message"]
    assert state(second, table).status_code == 403
    request_id, secret = asked.json["request"], asked.json["secret"]
    collect = f"/api/tables/{tid}/seat-requests/{request_id}/collect"
    assert second.post(collect, json={"secret": secret}).status_code == 202
    assert second.post(collect, json={"secret": "not-the-secret"}).status_code == 403
    meta = client.get(f"/api/tables/{tid}", headers=keeper(table)).json["table"]
    assert [(r["id"], r["player"]) for r in meta["seat_requests"]] == [(request_id, "bob")]
    # only the keeper answers
    bob = {"Authorization": f"Bearer {taken.json['token']}"}
    approve = f"/api/tables/{tid}/seat-requests/{request_id}/approve"
    assert client.post(approve, headers=bob, json={}).status_code == 403
    assert client.post(approve, headers=keeper(table), json={}).json["status"] == "approved"
    given = second.post(collect, json={"secret": secret})
    assert given.status_code == 200 and given.json["token"] not in (taken.json["token"],
                                                                     table["seats"]["bob"])
    assert state(second, table).status_code == 200
    ended = state(first, table, taken.json["token"])
    assert ended.status_code == 403 and "bob's seat" in ended.json["error"]
    twice = client.post(approve, headers=keeper(table), json={})
    assert twice.status_code == 400 and "already approved" in twice.json["error"]


def test_a_refused_request_gets_no_seat(client: FlaskClient, app: Flask) -> None:
    table = create(client)
    tid = table["table_id"]
    join(app.test_client(), table, "cy")
    other = app.test_client()
    asked = join(other, table, "cy").json
    refuse = f"/api/tables/{tid}/seat-requests/{asked['request']}/refuse"
    assert client.post(refuse, headers=keeper(table), json={}).json["status"] == "refused"
    reply = other.post(f"/api/tables/{tid}/seat-requests/{asked['request']}/collect",
                       json={"secret": asked["secret"]})
    assert reply.status_code == 403 and "refused" in reply.json["error"]
    bad = client.post(f"/api/tables/{tid}/seat-requests/{asked['request']}/maybe",
                      headers=keeper(table), json={})
    assert bad.status_code == 400
    missing = client.post(f"/api/tables/{tid}/seat-requests/999/approve", headers=keeper(table),
                          json={})
    assert missing.status_code == 404


def test_the_keeper_frees_a_seat_and_its_token_ends(client: FlaskClient, app: Flask) -> None:
    table = create(client)
    tid = table["table_id"]
    phone = app.test_client()
    token = join(phone, table, "ann").json["token"]
    asked = join(app.test_client(), table, "ann").json
    free = f"/api/tables/{tid}/seats/ann/free"
    assert client.post(free, headers={"Authorization": f"Bearer {token}"}, json={}).status_code \
        == 403
    assert client.post(free, headers=keeper(table), json={}).status_code == 200
    assert state(phone, table, token).status_code == 403
    meta = client.get(f"/api/tables/{tid}", headers=keeper(table)).json["table"]
    assert {"player": "ann", "claimed": False} in meta["seats"] and meta["seat_requests"] == []
    cancelled = app.test_client().post(
        f"/api/tables/{tid}/seat-requests/{asked['request']}/collect",
        json={"secret": asked["secret"]})
    assert cancelled.status_code == 403 and "freed" in cancelled.json["error"]
    newcomer = join(app.test_client(), table, "ann")  # free again: the next tap takes it
    assert newcomer.status_code == 200 and newcomer.json["token"] != token
    unknown = client.post(f"/api/tables/{tid}/seats/zed/free", headers=keeper(table), json={})
    assert unknown.status_code == 400 and "no seat" in unknown.json["error"]


def test_a_freed_seats_live_stream_ends(client: FlaskClient, app: Flask) -> None:
    table = create(client)
    tid = table["table_id"]
    token = table["seats"]["bob"]
    stream = app.test_client().get(f"/api/tables/{tid}/stream",
                                   headers={"Authorization": f"Bearer {token}"})
    chunks = stream.response
    first = next(iter(chunks))
    assert b"retry" in first
    client.post(f"/api/tables/{tid}/seats/bob/free", headers=keeper(table), json={})
    rest = b"".join(chunks)  # ends by itself (the heartbeat is 0.2 s in tests)
    assert b"event: table" in rest
    stream.close()


def test_the_keeper_has_the_displays_and_each_seats_qr_code(client: FlaskClient,
                                                            app: Flask) -> None:
    table = create(client)
    tid = table["table_id"]
    display = client.get(f"/api/tables/{tid}/display-qr.svg", headers=keeper(table))
    assert display.status_code == 200 and display.mimetype == "image/svg+xml"
    seat = client.get(f"/api/tables/{tid}/seats/bob/qr.svg", headers=keeper(table))
    assert seat.status_code == 200 and b"<svg" in seat.data
    bob = {"Authorization": f"Bearer {table['seats']['bob']}"}
    assert client.get(f"/api/tables/{tid}/display-qr.svg", headers=bob).status_code == 403
    assert client.get(f"/api/tables/{tid}/seats/bob/qr.svg", headers=bob).status_code == 403
    page = app.test_client().get(f"/t/{tid}/keeper", headers=keeper(table))
    assert f"/t/{tid}/display?token={table['display_token']}".encode() in page.data


def test_a_flood_of_requests_for_a_seat_is_refused(client: FlaskClient, app: Flask) -> None:
    table = create(client)
    join(app.test_client(), table, "bob")
    for _ in range(6):
        assert join(app.test_client(), table, "bob").status_code == 202
    flood = join(app.test_client(), table, "bob")
    assert flood.status_code == 429 and "waiting" in flood.json["error"]
    meta = client.get(f"/api/tables/{table['table_id']}", headers=keeper(table)).json["table"]
    assert len(meta["seat_requests"]) == 6
