"""Photographed melds and deck calibration through the API, with real generated JPEGs and a
real SQLite file."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.vision.reference import ALTERNATE
from scorekeeper.vision.synth import calibration_photo, make_photo
from tests.storedb import query
from web import create_app

PLAYERS = [{"name": "ann"}, {"name": "bob"}, {"name": "cy"}]
FAN = ["7cl", "7sp", "7he"]
LEARNED = ["Qor", "5ca", "9sh"]


def fan_photo(codes: list[str], seed: int = 0, style: Any = None) -> bytes:
    kwargs = {"style": style} if style is not None else {}
    shot = make_photo(np.random.default_rng(seed), codes, size=(1600, 1200), kind="fan",
                      max_tilt=20, quality=(85, 90), exif=False, **kwargs)
    return shot.jpeg


@pytest.fixture(scope="module")
def fan_jpeg() -> bytes:
    return fan_photo(FAN)


def create(client: FlaskClient) -> dict[str, Any]:
    reply = client.post("/api/tables", json={"players": PLAYERS})
    assert reply.status_code == 201, reply.json
    table: dict[str, Any] = reply.json
    client.delete_cookie(f"sk_{table['table_id']}_keeper")  # every call names its token
    return table


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def upload(client: FlaskClient, url: str, token: str, data: bytes, name: str = "meld.jpg",
           field: str = "photo") -> Any:
    return client.post(url, headers=bearer(token), content_type="multipart/form-data",
                       data={field: (io.BytesIO(data), name)})


def deal(client: FlaskClient, table: dict[str, Any]) -> None:
    reply = client.post(f"/api/tables/{table['table_id']}/events",
                        headers=bearer(table["keeper_token"]),
                        json={"base_seq": 0, "event": {"type": "new-hand", "dealer": "ann"}})
    assert reply.status_code == 201, reply.json


def stored_rows(app: Flask, table_id: str) -> tuple[int, int, int]:
    """(events, proposals, learned cards) of a table, read from the database itself."""
    return tuple(query(app, f"SELECT count(*) FROM {name} WHERE table_id = :t", t=table_id)[0][0]  # type: ignore[return-value]
                 for name in ("events", "proposals", "deck_cards"))


def test_photographed_fan_becomes_an_accepted_scored_meld(app: Flask, client: FlaskClient,
                                                          fan_jpeg: bytes) -> None:
    table = create(client)
    tid = table["table_id"]
    deal(client, table)  # bob's turn
    reply = upload(client, f"/api/tables/{tid}/photos", table["seats"]["bob"], fan_jpeg)
    assert reply.status_code == 200, reply.json
    result = reply.json
    assert sorted(c["code"] for c in result["cards"]) == sorted(FAN)
    assert (result["width"], result["height"]) == (1600, 1200)
    assert result["profile"]["source"] == "built-in"
    for card in result["cards"]:
        assert len(card["corners"]) == 4
        assert all(-50 < x < 1650 and -50 < y < 1250 for x, y in card["corners"])
        assert card["check"] == (card["confidence"] < result["check_below"])
        assert card["doubt"] == (card["confidence"] < result["doubt_below"])
    assert [c["top"] for c in result["cards"]].count(True) == 1
    assert next(c for c in result["cards"] if c["code"] == "7he")["name"]
    assert stored_rows(app, tid) == (1, 0, 0)  # recognising stores nothing

    # The phone sends the recognised cards as an ordinary proposal; the keeper accepts it.
    top = next(c["code"] for c in result["cards"] if c["top"])
    proposal = client.post(f"/api/tables/{tid}/proposals", headers=bearer(table["seats"]["bob"]),
                           json={"kind": "event", "event": {
                               "type": "meld", "cards": [c["code"] for c in result["cards"]],
                               "top": top}})
    assert proposal.status_code == 201 and proposal.json["status"] == "pending"
    accepted = client.post(f"/api/tables/{tid}/proposals/{proposal.json['id']}/accept",
                           headers=bearer(table["keeper_token"]), json={"base_seq": 1})
    assert accepted.status_code == 201, accepted.json
    state = accepted.json["state"]
    assert state["melds"][0]["owner"] == "bob" and sorted(state["melds"][0]["cards"]) == sorted(FAN)
    assert state["melds"][0]["top"] == top
    assert {p["name"]: p["score"] for p in state["players"]}["bob"] == 21


def test_keeper_may_photograph_too_but_not_the_display(client: FlaskClient,
                                                       fan_jpeg: bytes) -> None:
    table = create(client)
    url = f"/api/tables/{table['table_id']}/photos"
    assert upload(client, url, table["keeper_token"], fan_jpeg).status_code == 200
    refused = upload(client, url, table["display_token"], fan_jpeg)
    assert refused.status_code == 403 and "player or keeper" in refused.json["error"]
    assert upload(client, url, "wrong-token", fan_jpeg).status_code == 403
    # a raw image body works as well as a form
    raw = client.post(url, headers=bearer(table["keeper_token"]), data=fan_jpeg,
                      content_type="image/jpeg")
    assert raw.status_code == 200 and len(raw.json["cards"]) == 3


def png_header(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk
            + struct.pack(">I", zlib.crc32(chunk)))


@pytest.mark.parametrize(("data", "status", "message"), [
    (b"this is a shopping list, not a photo", 400, "not an image"),
    (b"", 400, "empty"),
    (png_header(10_000, 8_000), 413, "megapixels"),
    (b"\xff\xd8\xff\xe0" + b"\x00" * 300, 400, "not an image"),  # a truncated JPEG
])
def test_bad_photos_get_a_clear_message_and_store_nothing(
        app: Flask, client: FlaskClient, data: bytes, status: int, message: str) -> None:
    table = create(client)
    tid = table["table_id"]
    deal(client, table)
    reply = upload(client, f"/api/tables/{tid}/photos", table["seats"]["bob"], data)
    assert reply.status_code == status, reply.json
    assert message in reply.json["error"]
    assert stored_rows(app, tid) == (1, 0, 0)


def test_missing_photo_field_is_explained(client: FlaskClient) -> None:
    table = create(client)
    reply = client.post(f"/api/tables/{table['table_id']}/photos",
                        headers=bearer(table["keeper_token"]), json={"photo": "x"})
    assert reply.status_code == 400 and "'photo'" in reply.json["error"]


def test_oversized_upload_is_refused_with_413(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite"),
                      "PHOTO_MAX_BYTES": 1024 * 1024})
    try:
        client = app.test_client()
        table = create(client)
        tid = table["table_id"]
        big = b"\xff\xd8" + bytes(1024 * 1024 + 10)
        reply = upload(client, f"/api/tables/{tid}/photos", table["seats"]["ann"], big)
        assert reply.status_code == 413
        assert "the limit is 1 MB" in reply.json["error"]
        # a streamed body without Content-Length (chunked) is cut at the limit and refused
        chunked = client.post(f"/api/tables/{tid}/photos", headers=bearer(table["keeper_token"]),
                              input_stream=io.BytesIO(big), content_type="image/jpeg",
                              environ_overrides={"wsgi.input_terminated": True})
        assert chunked.status_code == 413 and "1 MB" in chunked.json["error"]
        # the JSON routes keep their small limit
        assert client.post("/api/tables", data=b"{" + b" " * 70_000 + b"}",
                           content_type="application/json").status_code == 413
        assert stored_rows(app, tid) == (0, 0, 0)
    finally:
        app.extensions["scorekeeper.store"].close()


def test_photo_limit_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREKEEPER_PHOTO_MAX_MB", "3")
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite")})
    assert app.config["PHOTO_MAX_BYTES"] == 3 * 1024 * 1024
    app.extensions["scorekeeper.store"].close()


def test_calibrated_cards_are_kept_in_sqlite_and_used_for_recognition(
        app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    table = create(client)
    tid, keeper = table["table_id"], table["keeper_token"]
    rng = np.random.default_rng(5)
    for i, code in enumerate(LEARNED, 1):
        photo = calibration_photo(rng, code, ALTERNATE, size=(1200, 900))
        reply = upload(client, f"/api/tables/{tid}/deck/cards/{code}", keeper, photo,
                       name=f"{code}.jpg")
        assert reply.status_code == 201, reply.json
        assert reply.json["learned"] == i and reply.json["total"] == 110
    info = client.get(f"/api/tables/{tid}/deck", headers=bearer(keeper)).json
    assert info["source"] == "table" and info["learned"] == ["Qor", "5ca", "9sh"]  # deck order
    assert stored_rows(app, tid) == (0, 0, 3)

    # Photos of this (non-reference) deck read right with the table's profile only.
    meld = fan_photo(LEARNED, seed=1, style=ALTERNATE)
    reply = upload(client, f"/api/tables/{tid}/photos", table["seats"]["cy"], meld)
    assert reply.status_code == 200
    assert reply.json["profile"]["source"] == "table" and reply.json["profile"]["cards"] == 3
    assert sorted(c["code"] for c in reply.json["cards"]) == sorted(LEARNED)
    other = create(client)  # a table without a profile reads with the built-in deck
    builtin = upload(client, f"/api/tables/{other['table_id']}/photos", other["keeper_token"],
                     meld)
    assert builtin.json["profile"]["source"] == "built-in"
    assert sorted(c["code"] for c in builtin.json["cards"]) != sorted(LEARNED)

    # The profile survives a restart of the app on the same file, and can be downloaded.
    again = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"]})
    try:
        reply = upload(again.test_client(), f"/api/tables/{tid}/photos", keeper, meld)
        assert sorted(c["code"] for c in reply.json["cards"]) == sorted(LEARNED)
        npz = again.test_client().get(f"/api/tables/{tid}/deck/profile.npz",
                                      headers=bearer(keeper))
        assert npz.status_code == 200
        from scorekeeper.vision import DeckProfile
        assert set(DeckProfile.from_bytes(npz.data).codes) == set(LEARNED)
    finally:
        again.extensions["scorekeeper.store"].close()

    # Forget one card, then the whole profile.
    forgot = client.delete(f"/api/tables/{tid}/deck/cards/5ca", headers=bearer(keeper))
    assert forgot.json["forgotten"] == 1 and forgot.json["deck"]["learned"] == ["Qor", "9sh"]
    assert client.delete(f"/api/tables/{tid}/deck/cards/5ca",
                         headers=bearer(table["seats"]["ann"])).status_code == 403
    assert client.delete(f"/api/tables/{tid}/deck", headers=bearer(keeper)).json["forgotten"] == 2
    assert stored_rows(app, tid) == (0, 0, 0)


def test_learning_a_card_decodes_no_stored_card_twice(client: FlaskClient,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from scorekeeper.vision import DeckProfile

    table = create(client)
    tid, keeper = table["table_id"], table["keeper_token"]
    decoded: list[str] = []
    original = DeckProfile.from_bytes.__func__  # type: ignore[attr-defined]

    def counting(cls: type[DeckProfile], data: bytes, source: str = "the profile") -> Any:
        decoded.append(source)
        return original(cls, data, source)

    monkeypatch.setattr(DeckProfile, "from_bytes", classmethod(counting))
    rng = np.random.default_rng(5)
    for code in LEARNED:
        photo = calibration_photo(rng, code, ALTERNATE, size=(1200, 900))
        assert upload(client, f"/api/tables/{tid}/deck/cards/{code}", keeper, photo,
                      name=f"{code}.jpg").status_code == 201
    meld = fan_photo(LEARNED, seed=1, style=ALTERNATE)
    reply = upload(client, f"/api/tables/{tid}/photos", keeper, meld)
    assert sorted(c["code"] for c in reply.json["cards"]) == sorted(LEARNED)
    # Each stored card was decoded once, however often the profile was assembled since.
    assert sorted(decoded) == sorted(f"card {code}" for code in LEARNED)


def test_bad_calibration_photos_are_refused_and_store_nothing(app: Flask,
                                                              client: FlaskClient) -> None:
    import cv2

    from scorekeeper.vision.synth import background

    table = create(client)
    tid, keeper = table["table_id"], table["keeper_token"]
    ok, empty_table = cv2.imencode(".jpg", background(np.random.default_rng(2), 1200, 900))
    reply = upload(client, f"/api/tables/{tid}/deck/cards/Qor", keeper, empty_table.tobytes())
    assert reply.status_code == 400 and "no card" in reply.json["error"]
    good = calibration_photo(np.random.default_rng(3), "Qor", ALTERNATE, size=(1200, 900))
    reply = upload(client, f"/api/tables/{tid}/deck/cards/Zzz", keeper, good)
    assert reply.status_code == 400 and "not a card code" in reply.json["error"]
    reply = upload(client, f"/api/tables/{tid}/deck/cards/Qor", keeper, b"")
    assert reply.status_code == 400 and "empty" in reply.json["error"]
    reply = upload(client, f"/api/tables/{tid}/deck/cards/Qor", table["seats"]["ann"], good)
    assert reply.status_code == 403
    assert stored_rows(app, tid) == (0, 0, 0)


def test_zip_of_photos_is_learned_file_by_file(app: Flask, client: FlaskClient) -> None:
    table = create(client)
    tid, keeper = table["table_id"], table["keeper_token"]
    rng = np.random.default_rng(9)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        archive.writestr("deck/Qor.jpg", calibration_photo(rng, "Qor", ALTERNATE, (1200, 900)))
        archive.writestr("deck/9sh.jpg", calibration_photo(rng, "9sh", ALTERNATE, (1200, 900)))
        archive.writestr("deck/joker.jpg", b"not a card")
        archive.writestr("deck/notes.txt", b"ignored")
    reply = upload(client, f"/api/tables/{tid}/deck/import", keeper, buf.getvalue(),
                   name="deck.zip", field="archive")
    assert reply.status_code == 200, reply.json
    assert sorted(reply.json["learned"]) == ["9sh", "Qor"]
    assert list(reply.json["failed"]) == ["joker.jpg"]
    assert stored_rows(app, tid) == (0, 0, 2)
    bad = upload(client, f"/api/tables/{tid}/deck/import", keeper, b"not a zip",
                 name="deck.zip", field="archive")
    assert bad.status_code == 400 and "not a zip" in bad.json["error"]


def test_calibration_page_is_for_the_keeper(client: FlaskClient) -> None:
    table = create(client)
    tid = table["table_id"]
    page = client.get(f"/t/{tid}/calibrate", headers=bearer(table["keeper_token"]))
    assert page.status_code == 200 and b"calibrate.js" in page.data
    assert client.get(f"/t/{tid}/calibrate",
                      headers=bearer(table["seats"]["ann"])).status_code == 403
