"""Bad input, forbidden writes and hostile pages, through Flask's test client over a real SQLite
file: each refusal is a clear 4xx naming what was wrong, and nothing is stored."""

from __future__ import annotations

import io
import json
import re
import sqlite3
import zipfile
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient

from web import create_app
from web.edge import RateLimiter
from web.store import UNDO_KEEP, UNDO_SLACK

PLAYERS = ["ann", "bob", "cy"]
STORED = ("tables", "seats", "events", "proposals", "confirmations", "deck_profiles",
          "deck_cards")


def counts(app: Flask) -> dict[str, int]:
    """How many rows each table of the database holds."""
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return {name: conn.execute(f"SELECT count(*) FROM {name}").fetchone()[0]
                for name in STORED}


def create(client: FlaskClient, **extra: Any) -> dict[str, Any]:
    reply = client.post("/api/tables", json={"players": PLAYERS, **extra})
    assert reply.status_code == 201, reply.json
    data: dict[str, Any] = reply.json
    return data


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def refused(reply: Any, status: int, words: str) -> None:
    """The reply is ``status`` with an error message containing ``words``."""
    assert reply.status_code == status, (reply.status_code, reply.get_data(as_text=True)[:300])
    assert words in reply.json["error"], reply.json["error"]


def raw_post(client: FlaskClient, url: str, text: str, token: str | None = None,
             content_type: str = "application/json") -> Any:
    return client.post(url, data=text.encode("utf-8"), content_type=content_type,
                       headers=bearer(token) if token else {})


def deal(client: FlaskClient, table: dict[str, Any]) -> None:
    reply = client.post(f"/api/tables/{table['table_id']}/events",
                        headers=bearer(table["keeper_token"]),
                        json={"base_seq": 0, "event": {"type": "new-hand", "dealer": "ann"}})
    assert reply.status_code == 201


# -- a lone surrogate or an unknown field --------------------------------------------------------

def test_a_proposal_with_a_lone_surrogate_is_refused_and_every_page_still_opens(
        app: Flask, client: FlaskClient) -> None:
    table = create(client)
    deal(client, table)
    before = counts(app)
    url = f"/api/tables/{table['table_id']}/proposals"
    body = ('{"kind": "event", "event": {"type": "meld", "cards": ["7cl", "7sp", "7he"], '
            '"note": "\\ud800"}}')
    refused(raw_post(client, url, body, table["seats"]["bob"]), 400, "lone UTF-16 surrogate")
    body = '{"kind": "event", "event": {"type": "meld", "cards": ["7cl", "7sp", "7he"]}, "note": 1}'
    refused(raw_post(client, url, body, table["seats"]["bob"]), 400, "unknown field 'note'")
    body = '{"kind": "event", "event": {"type": "meld", "cards": ["7cl", "7sp", "7he"], "note": 1}}'
    refused(raw_post(client, url, body, table["seats"]["bob"]), 400, "unknown field 'note'")
    assert counts(app) == before
    for page in ("keeper", "play", "display", "history"):
        reply = client.get(f"/t/{table['table_id']}/{page}")
        assert reply.status_code == 200, page


def test_a_stored_proposal_with_broken_text_does_not_break_the_keeper(
        app: Flask, client: FlaskClient) -> None:
    table = create(client)
    with sqlite3.connect(app.config["DATABASE"]) as conn:  # written before the edge checked
        conn.execute("INSERT INTO proposals (table_id, player, kind, payload_json, created_at)"
                     " VALUES (?, 'bob', 'event', ?, 0)",
                     (table["table_id"], '{"type": "meld", "note": "\\ud800"}'))
    store = app.extensions["scorekeeper.store"]
    store.set_auto_accept(store.table(table["table_id"]), False)  # the meta is read again
    assert client.get(f"/t/{table['table_id']}/keeper").status_code == 200
    _, message = store.meta_message(store.table(table["table_id"]))
    assert b"\\ud800" in message


# -- markup in names and notes ------------------------------------------------------------------

def test_a_comment_or_script_in_a_name_cannot_break_the_page(client: FlaskClient) -> None:
    table = create(client, players=["<!--<script>", "</script><b>x", "cy"])
    page = client.get(f"/t/{table['table_id']}/keeper").get_data(as_text=True)
    boot = re.search(r'<script[^>]*id="boot"[^>]*>(.*?)</script>', page, re.S)
    assert boot is not None
    assert "<" not in boot.group(1) and "\\u003c!--\\u003cscript\\u003e" in boot.group(1)
    assert json.loads(boot.group(1))["setup"]["players"][:2] == ["<!--<script>", "</script><b>x"]


# -- photos that are not JPEG, PNG, WebP or BMP ---------------------------------------------------

def tiff_bytes() -> bytes:
    ok, data = cv2.imencode(".tiff", np.full((64, 64, 3), 200, np.uint8))
    assert ok
    return bytes(data)


def test_a_tiff_is_refused_before_decoding(app: Flask, client: FlaskClient) -> None:
    table = create(client)
    before = counts(app)
    tiff = tiff_bytes()
    reply = client.post(f"/api/tables/{table['table_id']}/photos", headers=bearer(
        table["seats"]["bob"]), data=tiff, content_type="image/tiff")
    refused(reply, 400, "JPEG, PNG, WebP or BMP")
    reply = client.post(f"/api/tables/{table['table_id']}/deck/cards/Qsh",
                        headers=bearer(table["keeper_token"]), content_type="multipart/form-data",
                        data={"photo": (io.BytesIO(tiff), "Qsh.jpg")})
    refused(reply, 400, "JPEG, PNG, WebP or BMP")
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("Qsh.jpg", tiff)
        zf.writestr("Ksh.tif", tiff)
    reply = client.post(f"/api/tables/{table['table_id']}/deck/import",
                        headers=bearer(table["keeper_token"]), content_type="multipart/form-data",
                        data={"archive": (io.BytesIO(archive.getvalue()), "deck.zip")})
    assert reply.status_code == 200
    assert reply.json["learned"] == [] and "JPEG, PNG, WebP" in reply.json["failed"]["Qsh.jpg"]
    assert "Ksh.tif" not in reply.json["failed"]  # not a photo format the app reads
    assert counts(app) == before


def test_a_tiny_file_claiming_a_huge_image_is_refused_from_its_header(
        client: FlaskClient) -> None:
    table = create(client)
    png = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + (20000).to_bytes(4, "big")
           + (20000).to_bytes(4, "big") + b"\x08\x02\x00\x00\x00")
    reply = client.post(f"/api/tables/{table['table_id']}/deck/cards/Qsh",
                        headers=bearer(table["keeper_token"]), data=png, content_type="image/png")
    refused(reply, 413, "20000x20000")


# -- writes from another site's page --------------------------------------------------------------

def test_cross_site_and_non_json_writes_are_refused(app: Flask, client: FlaskClient) -> None:
    table = create(client)  # the keeper cookie is set in this client
    url = f"/api/tables/{table['table_id']}/events"
    event = {"base_seq": 0, "event": {"type": "correction", "target": "ann", "points": 900,
                                      "reason": "csrf"}}
    before = counts(app)
    refused(client.post(url, data=json.dumps(event), content_type="text/plain"), 415,
            "Content-Type: application/json")
    refused(client.post(url, data={"x": json.dumps(event)}), 415, "application/json")
    refused(client.post(url, json=event, headers={"Origin": "http://localhost:9999"}), 403,
            "http://localhost:9999")
    refused(client.post(url, json=event, headers={"Sec-Fetch-Site": "same-site"}), 403,
            "another site")
    client.delete_cookie(f"sk_{table['table_id']}_keeper")
    refused(client.post(f"{url}?token={table['keeper_token']}", json=event), 403, "?token=")
    assert counts(app) == before
    reply = client.post(url, json=event, headers={
        "Origin": "http://localhost", "Sec-Fetch-Site": "same-origin",
        **bearer(table["keeper_token"])})
    assert reply.status_code == 201


# -- malformed input that used to be a 500 --------------------------------------------------------

def test_malformed_input_is_a_clear_4xx(app: Flask, client: FlaskClient) -> None:
    table = create(client)
    tid, keeper, bob = table["table_id"], table["keeper_token"], table["seats"]["bob"]
    before = counts(app)
    refused(raw_post(client, f"/api/tables/{tid}/events", "[" * 30000, keeper), 400,
            "nested too deeply")
    refused(client.get(f"/api/tables/{tid}/events?since={10**30}", headers=bearer(keeper)),
            400, "since")
    refused(client.post(f"/api/tables/{tid}/proposals/{10**30}/accept", headers=bearer(keeper),
                        json={"base_seq": 0}), 404, "no proposal")
    refused(client.post("/api/tables", json={"players": PLAYERS, "options": {"decks": "2"}}),
            400, 'option "decks"')
    refused(client.post("/api/tables", json={"game": "rummy", "players": PLAYERS,
                                              "options": {"decks": "2"}}), 400, '"decks"')
    for top in (5, ["7cl"]):
        refused(client.post("/api/rules/check", json={"cards": "7cl 7sp 7he", "top": top}),
                400, '"top"')
    refused(client.post(f"/api/tables/{tid}/join", json={"join_token": 5, "player": "bob"}),
            400, "join_token")
    refused(client.get(f"/api/tables/{tid}/state", headers={"Authorization": "Bearer é"}),
            403, "plain ASCII")
    refused(client.post(f"/api/tables/{tid}/join", json={"join_token": "é", "player": "bob"}),
            403, "join link")
    refused(client.post(f"/api/tables/{tid}/confirm", headers=bearer(bob),
                        json={"hand_no": 10**30}), 400, "out of range")
    assert counts(app) == before


def test_a_zip_with_a_damaged_member_is_refused_whole(app: Flask, client: FlaskClient) -> None:
    table = create(client)
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("Qsh.jpg", b"\xff\xd8" + b"a" * 500)
    data = bytearray(archive.getvalue())
    at = data.index(b"a" * 500)
    data[at] = ord("b")  # the stored CRC no longer matches
    before = counts(app)
    reply = client.post(f"/api/tables/{table['table_id']}/deck/import",
                        headers=bearer(table["keeper_token"]), content_type="multipart/form-data",
                        data={"archive": (io.BytesIO(bytes(data)), "deck.zip")})
    refused(reply, 400, "the zip is damaged at 'Qsh.jpg'")
    assert counts(app) == before


# -- weak validation ------------------------------------------------------------------------------

@pytest.mark.parametrize(("body", "words"), [
    ({"players": PLAYERS, "auto_accept": "false"}, '"auto_accept" must be true or false'),
    ({"game": "rummy", "players": [{"name": "ann", "colour": "red;background-image:url(x)"},
                                   "bob"]}, "is not a colour"),
    ({"players": [{"name": "ann", "colour": "red;x"}, "bob"]}, "is not a colour"),
    ({"players": PLAYERS, "options": {"goal": 10**30}}, "out of range"),
    ({"game": "toss-colors", "players": PLAYERS, "start_chips": 10**30}, "out of range"),
    ({"players": ["a\u200b", "a"]}, "U+200B"),
    ({"players": ["a\x00", "b"]}, "U+0000"),
    ({"players": ["\u202eann", "b"]}, "U+202E"),
    ({"players": ["Ann", "ann"]}, "two players are called"),
    ({"players": PLAYERS, "options": {"goal": float("nan")}}, "finite"),
])
def test_weak_values_are_refused(app: Flask, client: FlaskClient, body: dict[str, Any],
                                 words: str) -> None:
    before = counts(app)
    text = json.dumps(body)  # NaN goes out as the bare word NaN, which JSON does not allow
    refused(raw_post(client, "/api/tables", text), 400, words)
    assert counts(app) == before


def test_a_huge_correction_is_refused(app: Flask, client: FlaskClient) -> None:
    table = create(client)
    before = counts(app)
    reply = client.post(f"/api/tables/{table['table_id']}/events",
                        headers=bearer(table["keeper_token"]),
                        json={"base_seq": 0, "event": {"type": "correction", "target": "ann",
                                                       "points": 10**30, "reason": "x"}})
    refused(reply, 400, "out of range")
    assert counts(app) == before


def test_named_peg_colours_are_kept_as_hex(client: FlaskClient) -> None:
    from scorekeeper.pegboard import PEG_COLOURS

    table = create(client, players=[{"name": "ann", "colour": "Blue"}, "bob"])
    assert table["state"]["boards"][0]["colour"] == PEG_COLOURS["blue"]


# -- readers do not refold the log; memory stays bounded ------------------------------------------

def corrections(client: FlaskClient, table: dict[str, Any], n: int, start: int = 0) -> int:
    url = f"/api/tables/{table['table_id']}/events"
    seq = start
    for i in range(n):
        reply = client.post(url, headers=bearer(table["keeper_token"]), json={
            "base_seq": seq, "event": {"type": "correction", "target": PLAYERS[i % 3],
                                       "points": 1 if i % 2 else -1, "reason": "r"}})
        assert reply.status_code == 201, reply.json
        seq = reply.json["seq"]
    return seq


def test_history_and_exports_come_from_the_fold_cache(app: Flask, client: FlaskClient,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    table = create(client)
    corrections(client, table, 5)
    fresh = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"]})
    expected = fresh.test_client().get(f"/api/tables/{table['table_id']}/history",
                                       headers=bearer(table["keeper_token"])).json
    store = app.extensions["scorekeeper.store"]

    def no_refold(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a reader folded the log again")

    monkeypatch.setattr(store, "_logged_events", no_refold)
    reply = client.get(f"/api/tables/{table['table_id']}/history")
    assert reply.status_code == 200 and reply.json == expected
    assert len(reply.json["points"]) == 6 and reply.json["points"][1]["scores"]["ann"] == -1
    assert client.get(f"/api/tables/{table['table_id']}/export.csv").status_code == 200
    fresh.extensions["scorekeeper.store"].close()


def chain_length(state: Any) -> int:
    n = 0
    while state.previous is not None:
        state, n = state.previous, n + 1
    return n


def test_memory_keeps_a_bounded_undo_chain_and_deep_undo_still_works(
        app: Flask, client: FlaskClient) -> None:
    table = create(client)
    total = UNDO_KEEP + UNDO_SLACK + 40
    seq = corrections(client, table, total)
    store = app.extensions["scorekeeper.store"]
    live = store.table(table["table_id"])
    assert chain_length(live.state) <= UNDO_KEEP + UNDO_SLACK
    url = f"/api/tables/{table['table_id']}/events"
    for _ in range(UNDO_KEEP + UNDO_SLACK + 10):  # deeper than the states kept
        reply = client.post(url, headers=bearer(table["keeper_token"]),
                            json={"base_seq": seq, "event": {"type": "undo"}})
        assert reply.status_code == 201, reply.json
        seq = reply.json["seq"]
    fresh = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"]})
    again = fresh.extensions["scorekeeper.store"].table(table["table_id"])
    assert live.state_json() == again.state_json()
    assert chain_length(live.state) <= UNDO_KEEP + UNDO_SLACK
    fresh.extensions["scorekeeper.store"].close()


# -- the live stream's table message resumes at the last state sent -------------------------------

def test_a_table_message_carries_the_id_of_the_last_state_sent(
        app: Flask, client: FlaskClient) -> None:
    table = create(client)
    store = app.extensions["scorekeeper.store"]
    live = store.table(table["table_id"])
    reply = client.get(f"/api/tables/{table['table_id']}/stream", buffered=False,
                       headers=bearer(table["display_token"]))
    chunks = iter(reply.response)
    assert next(chunks).startswith(b"retry:")
    assert next(chunks).startswith(b"id: 0\nevent: state")
    store.append(live, 0, {"type": "new-hand", "dealer": "ann"}, "keeper")  # lands in between
    meta = next(chunks)
    assert meta.startswith(b"id: 0\nevent: table"), meta[:40]
    assert next(chunks).startswith(b"id: 1\nevent: state")
    reply.close()


# -- headers, cookies per role, table creation rate ----------------------------------------------

def test_pages_and_replies_carry_security_headers(client: FlaskClient) -> None:
    table = create(client)
    for url in (f"/t/{table['table_id']}/keeper", f"/api/tables/{table['table_id']}/state", "/"):
        reply = client.get(url)
        csp = reply.headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in csp
        assert ("object-src 'none'" in csp) == ("/api/" not in url)
        assert ("default-src 'none'" in csp) == ("/api/" in url)
        assert reply.headers["X-Frame-Options"] == "DENY"
        assert reply.headers["X-Content-Type-Options"] == "nosniff"
    page = client.get("/rules")
    nonce = re.search(r"'nonce-([^']+)'", page.headers["Content-Security-Policy"])
    assert nonce is not None
    scripts = re.findall(rb"<script(?![^>]*\bsrc=)[^>]*>", page.get_data())
    assert scripts and all(f'nonce="{nonce.group(1)}"'.encode() in s for s in scripts)


def test_opening_the_display_link_keeps_the_keepers_cookie(client: FlaskClient) -> None:
    table = create(client)
    tid = table["table_id"]
    reply = client.get(f"/t/{tid}/display?token={table['display_token']}")
    assert reply.status_code == 302 and f"sk_{tid}_display=" in reply.headers["Set-Cookie"]
    assert client.get(f"/t/{tid}/keeper").status_code == 200  # still the keeper
    assert client.get(f"/t/{tid}/display").status_code == 200
    referer = {"Referer": f"http://localhost/t/{tid}/display"}
    assert client.get(f"/api/tables/{tid}", headers=referer).json["role"]["kind"] == "display"
    assert client.get(f"/api/tables/{tid}").json["role"]["kind"] == "keeper"


def test_creating_tables_is_rate_limited(app: Flask, client: FlaskClient) -> None:
    app.extensions["scorekeeper.table_limiter"] = RateLimiter(3, 600)
    for _ in range(3):
        create(client)
    before = counts(app)
    reply = client.post("/api/tables", json={"players": PLAYERS})
    refused(reply, 429, "too many new tables")
    assert int(reply.headers["Retry-After"]) > 0
    assert counts(app) == before
    other = client.post("/api/tables", json={"players": PLAYERS},
                        environ_overrides={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 201
