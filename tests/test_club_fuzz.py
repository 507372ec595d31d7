"""Every club endpoint fuzzed with Hypothesis (random JSON and plausible bodies with wrong
values) over a real SQLite file: never a 5xx, and a refusal stores nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from web import create_app
from web.store import club_schema as club_db

NAMES = ["Ann", "Bo", "Cy", "Di"]
text = st.text(st.characters(codec=None, exclude_categories=()), max_size=10) | st.sampled_from(
    [*NAMES, "", "gold", "#123456", "complex-toss-rummy", "toss-hearts", "placement", "bye"])
scalars = (st.none() | st.booleans() | st.integers(-(10**12), 10**12)
           | st.floats(allow_nan=False, allow_infinity=False) | text)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(text, inner, max_size=4), max_leaves=10)
PLAUSIBLE: dict[str, Any] = {
    "name": text | json_values, "colour": text | json_values, "member": text | json_values,
    "t": text | json_values, "dropped": st.booleans() | json_values,
    "a": st.sampled_from(NAMES) | json_values, "b": st.sampled_from(NAMES) | json_values,
    "game": text | json_values, "options": st.dictionaries(
        st.sampled_from(["ace", "goal", "decks", "moon", "bogus"]), scalars, max_size=3)
    | json_values,
    "games": st.lists(text | st.fixed_dictionaries({"game": text, "options": json_values}),
                      max_size=3) | json_values,
    "rounds": st.integers(-1, 22) | json_values, "seats": st.integers(0, 8) | json_values,
    "teams": st.booleans() | json_values, "odd": text | json_values,
    "scoring": st.fixed_dictionaries({}, optional={
        "mode": text, "points": st.lists(scalars, max_size=7), "bye_points": scalars})
    | json_values,
    "minutes": st.integers(-1, 700) | json_values,
}
bodies = st.dictionaries(st.sampled_from(sorted(PLAUSIBLE)), json_values, max_size=4) | \
    st.fixed_dictionaries({}, optional=PLAUSIBLE) | json_values
ENDPOINTS = ["/api/club/members", "/api/club/events", "/api/club/events/{e}/checkins",
             "/api/club/events/{e}/players/1", "/api/club/events/{e}/rounds/1/swap",
             "/api/club/events/{e}/rounds", "/api/club/events/{e}/rounds/1/start",
             "/api/club/events/{e}/rounds/1/end", "/api/club/events/{e}/rounds/9/swap"]


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, str]]:
    """An app with a night: four players checked in, round 1 seated, not started."""
    path: Path = tmp_path_factory.mktemp("club-fuzz") / "fuzz.sqlite"
    app = create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "fuzz"})
    client = app.test_client()
    event_id = client.post("/api/club/events", json={"rounds": 2, "seats": 2}).get_json()[
        "event_id"]
    for name in NAMES:
        client.post(f"/api/club/events/{event_id}/checkins", json={"name": name})
    assert client.post(f"/api/club/events/{event_id}/rounds").status_code == 201
    yield app, event_id
    app.extensions["scorekeeper.store"].close()


def stored(app: Flask) -> dict[str, int]:
    """Rows in every club table, and the store's tables."""
    with app.extensions["scorekeeper.club"].db.read() as conn:
        counts = {t.name: int(conn.execute(select(func.count()).select_from(t)).scalar_one())
                  for t in club_db.TABLES}
    counts["game tables"] = len(app.extensions["scorekeeper.store"].table_ids())
    return counts


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.sampled_from(ENDPOINTS), bodies)
def test_no_club_write_fails_and_a_refusal_stores_nothing(fuzzed: tuple[Flask, str],
                                                          endpoint: str, body: Any) -> None:
    app, event_id = fuzzed
    client = app.test_client()
    organiser = app.extensions["scorekeeper.club"].event(event_id).organiser_token
    before = stored(app)
    reply = client.post(endpoint.format(e=event_id), json=body,
                        headers={"Authorization": f"Bearer {organiser}"})
    assert reply.status_code < 500, reply.get_data(as_text=True)
    if reply.status_code >= 400:
        assert reply.get_json()["error"]
        assert stored(app) == before
