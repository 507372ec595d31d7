"""Every JSON endpoint fuzzed with Hypothesis (random JSON, plausible bodies with wrong values,
raw bytes, each role's token) over a real SQLite file: never a 5xx, and a 4xx stores nothing."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from web import create_app
from web.api import FIELDS
from web.edge import RateLimiter

STORED = ("tables", "seats", "events", "proposals", "confirmations", "deck_profiles",
          "deck_cards")
PLAYERS = ["ann", "bob", "cy"]
EVENT_TYPES = ["new-hand", "meld", "lay-off", "toss", "double-cross", "steal", "next-turn",
               "end-hand", "correction", "undo", "hand", "bogus"]
CARDS = ["7cl", "7sp", "7he", "7di", "boss", "jk-red", "Ksh", "10di", "Acl", "zz"]

characters = st.characters(codec=None, exclude_categories=())  # surrogates and controls too
text = st.text(characters, max_size=12) | st.sampled_from(PLAYERS + CARDS + [""])
scalars = (st.none() | st.booleans() | st.integers(min_value=-(10**40), max_value=10**40)
           | st.floats(allow_nan=False, allow_infinity=False) | text)
json_values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(text, inner, max_size=4), max_leaves=10)
events = st.fixed_dictionaries({"type": st.sampled_from(EVENT_TYPES)}, optional={
    "player": st.sampled_from(PLAYERS) | json_values,
    "dealer": st.sampled_from(PLAYERS) | json_values,
    "cards": st.lists(st.sampled_from(CARDS), max_size=5) | json_values,
    "meld": st.integers(-2, 5) | json_values,
    "joker": st.sampled_from(CARDS) | json_values,
    "target": st.sampled_from(PLAYERS) | json_values,
    "points": st.integers(-(10**12), 10**12) | json_values,
    "reason": text,
    "went_out": st.sampled_from(PLAYERS) | json_values,
    "note": json_values,
})
PLAUSIBLE: dict[str, Any] = {
    "base_seq": st.integers(-1, 4) | json_values, "event": events | json_values,
    "players": st.lists(text | st.fixed_dictionaries({"name": text, "colour": text}),
                        max_size=7) | json_values,
    "options": st.dictionaries(st.sampled_from(["ace", "goal", "decks", "wild_scoring",
                                                "chips_per_points", "bogus"]), scalars,
                               max_size=3) | json_values,
    "cards": st.lists(st.sampled_from(CARDS), max_size=5) | json_values,
    "hands": st.dictionaries(st.sampled_from(PLAYERS), st.lists(st.sampled_from(CARDS)),
                             max_size=3) | json_values,
    "kind": st.sampled_from(["event", "hand", "x"]) | json_values,
    "player": st.sampled_from(PLAYERS) | json_values,
    "hand_no": st.integers(-1, 3) | json_values,
    "game": st.sampled_from(["complex-toss-rummy", "toss-rummy", "rummy", "toss-colors", "x"])
    | json_values,
}


def plausible(endpoint: str) -> st.SearchStrategy[dict[str, Any]]:
    """The endpoint's own fields, each plausible or any JSON, and sometimes one unknown field."""
    optional = {name: PLAUSIBLE.get(name, json_values) for name in FIELDS[endpoint]}
    optional["unknown"] = json_values
    return st.fixed_dictionaries({}, optional=optional)


#: (endpoint's fields, method, path template).
ENDPOINTS = [
    ("create", "POST", "/api/tables"),
    ("join", "POST", "/api/tables/{t}/join"),
    ("settings", "POST", "/api/tables/{t}/settings"),
    ("event", "POST", "/api/tables/{t}/events"),
    ("preview", "POST", "/api/tables/{t}/preview-end-hand"),
    ("dry-run", "POST", "/api/tables/{t}/dry-run"),
    ("propose", "POST", "/api/tables/{t}/proposals"),
    ("accept", "POST", "/api/tables/{t}/proposals/1/accept"),
    ("accept", "POST", "/api/tables/{t}/proposals/1/reject"),
    ("confirm", "POST", "/api/tables/{t}/confirm"),
    ("board-status", "POST", "/api/tables/{t}/board-status"),
    ("rules-check", "POST", "/api/rules/check"),
    ("join", "POST", "/api/tables/{t}/join-token"),
]


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, dict[str, Any]]]:
    path: Path = tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite"
    app = create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "fuzz"})
    app.extensions["scorekeeper.table_limiter"] = RateLimiter(10**9, 1)
    client = app.test_client()
    table = client.post("/api/tables", json={"players": PLAYERS}).json
    keeper = {"Authorization": f"Bearer {table['keeper_token']}"}
    client.post(f"/api/tables/{table['table_id']}/events", headers=keeper,
                json={"base_seq": 0, "event": {"type": "new-hand", "dealer": "ann"}})
    client.post(f"/api/tables/{table['table_id']}/proposals",
                headers={"Authorization": f"Bearer {table['seats']['bob']}"},
                json={"kind": "event", "event": {"type": "meld", "cards": ["7cl", "7sp", "7he"]}})
    yield app, table
    app.extensions["scorekeeper.store"].close()


def snapshot(app: Flask, table_id: str) -> tuple[Any, ...]:
    """What is stored: the row counts, the proposals' states and the table's settings."""
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        rows = tuple(conn.execute(f"SELECT count(*) FROM {name}").fetchone()[0]
                     for name in STORED)
        proposals = tuple(conn.execute("SELECT id, status FROM proposals ORDER BY id"))
        settings = tuple(conn.execute("SELECT auto_accept, join_token FROM tables WHERE id = ?",
                                      (table_id,)))
    return rows, proposals, settings


def encode(body: Any) -> bytes:
    return json.dumps(body).encode()  # lone surrogates go out as \\udXXX escapes


plausible_bodies = st.integers(0, len(ENDPOINTS) - 1).flatmap(
    lambda i: st.tuples(st.just(i), plausible(ENDPOINTS[i][0]).map(encode)))
bodies = st.one_of(
    plausible_bodies, plausible_bodies, plausible_bodies,
    st.tuples(st.integers(0, len(ENDPOINTS) - 1), json_values.map(encode)),
    st.tuples(st.integers(0, len(ENDPOINTS) - 1), st.binary(max_size=40)),
)


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=bodies, who=st.sampled_from(["keeper", "bob", "display", "none", "cookie"]),
       content_type=st.sampled_from(["application/json"] * 4 + ["text/plain"]))
def test_no_json_endpoint_fails_or_stores_on_bad_input(
        fuzzed: tuple[Flask, dict[str, Any]], case: tuple[int, bytes], who: str,
        content_type: str) -> None:
    app, table = fuzzed
    index, data = case
    _, method, template = ENDPOINTS[index]
    tokens = {"keeper": table["keeper_token"], "bob": table["seats"]["bob"],
              "display": table["display_token"]}
    client: FlaskClient = app.test_client()
    headers = {"Authorization": f"Bearer {tokens[who]}"} if who in tokens else {}
    if who == "cookie":
        client.set_cookie(f"sk_{table['table_id']}_keeper", table["keeper_token"])
    before = snapshot(app, table["table_id"])
    seq = app.extensions["scorekeeper.store"].table(table["table_id"]).seq
    reply = client.open(template.format(t=table["table_id"]), method=method, data=data,
                        content_type=content_type, headers=headers)
    assert reply.status_code < 500, reply.get_data(as_text=True)[:500]
    if reply.status_code >= 400:
        assert reply.json and reply.json["error"]
        assert snapshot(app, table["table_id"]) == before
        assert app.extensions["scorekeeper.store"].table(table["table_id"]).seq == seq


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(since=st.text(max_size=12) | st.integers(-(10**40), 10**40).map(str),
       path=st.sampled_from(["events?since={}", "history?x={}", "state?token={}",
                             "export.csv?token={}", "board-status?x={}"]))
def test_no_read_fails_on_a_bad_query(fuzzed: tuple[Flask, dict[str, Any]], since: str,
                                      path: str) -> None:
    app, table = fuzzed
    reply = app.test_client().get(f"/api/tables/{table['table_id']}/{path.format(since)}",
                                  headers={"Authorization": f"Bearer {table['keeper_token']}"}
                                  if "token" not in path else {})
    assert reply.status_code < 500, reply.get_data(as_text=True)[:500]
