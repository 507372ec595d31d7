"""The schema moves with Alembic: a SQLite file written before Alembic (by the store's own
numbered migrations, its version in PRAGMA user_version) upgrades in place with every row kept,
the migrations build exactly the store's schema on both databases, and a database from a newer
app is refused."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext

from tests import pgserver
from tests.storedb import query
from web import create_app
from web.store import SchemaTooNewError, Store
from web.store.database import MIGRATIONS, DatabaseURLError, engine_url, head_revision
from web.store.schema import metadata

VECTORS = Path(__file__).with_name("vectors")
#: The dump of a database written by the store before Alembic (schema version 3).
BEFORE_ALEMBIC = VECTORS / "store-before-alembic.sql"
LEGACY_TABLE, LEGACY_KEEPER = "801bd2ed", "FtysAP4jiATod8PAO8PhBJjG"

#: The store's numbered migrations before Alembic, verbatim (version N -> N+1).
LEGACY_MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        created_at REAL NOT NULL,
        setup_json TEXT NOT NULL,
        keeper_token TEXT NOT NULL UNIQUE,
        display_token TEXT NOT NULL UNIQUE,
        join_token TEXT NOT NULL,
        join_expires_at REAL NOT NULL,
        auto_accept INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE seats (
        table_id TEXT NOT NULL REFERENCES tables(id),
        position INTEGER NOT NULL,
        player TEXT NOT NULL,
        token TEXT NOT NULL UNIQUE,
        claimed_at REAL,
        PRIMARY KEY (table_id, player)
    );
    CREATE TABLE events (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seq INTEGER NOT NULL,
        event_json TEXT NOT NULL,
        by TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (table_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE proposals (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id TEXT NOT NULL REFERENCES tables(id),
        player TEXT NOT NULL,
        kind TEXT NOT NULL,
        payload_json TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending',
        created_at REAL NOT NULL,
        resolved_seq INTEGER
    );
    CREATE TABLE confirmations (
        table_id TEXT NOT NULL REFERENCES tables(id),
        hand_no INTEGER NOT NULL,
        player TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (table_id, hand_no, player)
    );
    """,
    # 1 -> 2: each table's learned deck profile (web/photos.py), one row per learned card
    """
    CREATE TABLE deck_profiles (
        table_id TEXT PRIMARY KEY REFERENCES tables(id),
        name TEXT NOT NULL,
        deck TEXT NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE TABLE deck_cards (
        table_id TEXT NOT NULL REFERENCES deck_profiles(table_id),
        code TEXT NOT NULL,
        model BLOB NOT NULL,
        source TEXT NOT NULL,
        learned_at REAL NOT NULL,
        PRIMARY KEY (table_id, code)
    );
    """,
    # 2 -> 3: the page's action id stored with each write (a repeat is answered, not redone),
    # and the requests to take a seat that is already claimed (the keeper approves them)
    """
    ALTER TABLE events ADD COLUMN action_id TEXT;
    CREATE UNIQUE INDEX events_action ON events (table_id, action_id)
        WHERE action_id IS NOT NULL;
    ALTER TABLE proposals ADD COLUMN action_id TEXT;
    CREATE UNIQUE INDEX proposals_action ON proposals (table_id, action_id)
        WHERE action_id IS NOT NULL;
    CREATE TABLE seat_requests (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id TEXT NOT NULL REFERENCES tables(id),
        player TEXT NOT NULL,
        secret TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL DEFAULT 'pending',
        created_at REAL NOT NULL,
        token TEXT
    );
    """,
)


def legacy_database(path: Path, version: int) -> sqlite3.Connection:
    """A SQLite file at schema version ``version`` as the store wrote it before Alembic."""
    conn = sqlite3.connect(path, isolation_level=None)
    for migration in LEGACY_MIGRATIONS[:version]:
        conn.executescript(migration)
    conn.execute(f"PRAGMA user_version={version}")
    return conn


def test_a_database_made_before_alembic_upgrades_in_place_with_every_row(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript(BEFORE_ALEMBIC.read_text())
    conn.close()
    app = create_app({"TESTING": True, "DATABASE": str(path)})
    client = app.test_client()
    keeper = {"Authorization": f"Bearer {LEGACY_KEEPER}"}
    url = f"/api/tables/{LEGACY_TABLE}"
    try:
        assert query(app, "SELECT version_num FROM alembic_version") == [(head_revision(),)]
        table = client.get(url, headers=keeper).json
        assert table["seq"] == 3 and table["state"]["hand_no"] == 1
        assert [p["player"] for p in table["table"]["proposals"]] == ["cat"]
        assert table["table"]["confirmations"] == {"1": ["bob"]}
        assert {s["player"]: s["claimed"] for s in table["table"]["seats"]} == {
            "ann": True, "bob": False, "cat": False}
        # the action id stored before the upgrade is still answered, not stored again
        again = client.post(f"{url}/events", headers=keeper, json={
            "base_seq": 0, "action_id": "legacy-act-1",
            "event": {"type": "new-hand", "dealer": "ann"}})
        assert again.status_code == 200 and again.json["repeat"] is True
        reply = client.post(f"{url}/events", headers=keeper, json={
            "base_seq": 3, "event": {"type": "correction", "target": "bob", "points": 2,
                                     "reason": "after the upgrade"}})
        assert reply.status_code == 201 and reply.json["seq"] == 4
        assert query(app, "SELECT count(*), min(seq) FROM events") == [(4, 1)]
        assert query(app, "SELECT code, model FROM deck_cards") == [("7cl", b"\x00\x01model")]
    finally:
        app.extensions["scorekeeper.store"].close()


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_schema_version_upgrades_and_keeps_its_log(tmp_path: Path, version: int) -> None:
    path = tmp_path / "old.sqlite"
    conn = legacy_database(path, version)
    conn.execute("INSERT INTO tables VALUES ('t1', 0, '{\"players\": [\"ann\", \"bob\"]}',"
                 " 'k', 'd', 'j', 0, 0)")
    conn.execute("INSERT INTO events (table_id, seq, event_json, by, at)"
                 " VALUES ('t1', 1, '{}', 'keeper', 0)")
    conn.close()
    Store(path).close()
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT seq, action_id FROM events").fetchall() == [(1, None)]
    assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [
        (head_revision(),)]
    assert conn.execute("SELECT count(*) FROM seat_requests").fetchone() == (0,)
    conn.close()


def test_a_schema_version_from_a_newer_app_is_refused(tmp_path: Path) -> None:
    legacy_database(tmp_path / "new.sqlite", 3).execute("PRAGMA user_version=9")
    with pytest.raises(SchemaTooNewError, match="schema version 9.*upgrade the app"):
        Store(tmp_path / "new.sqlite")


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_migrations_build_exactly_the_stores_schema(
        kind: str, database_url: Callable[[str], str]) -> None:
    store = Store(database_url(kind))
    try:
        with store.db.engine.connect() as conn:
            differences = compare_metadata(MigrationContext.configure(conn), metadata)
    finally:
        store.close()
    assert differences == []


@pytest.mark.parametrize("address", ["mysql://sk@db/club", "not a url://x"])
def test_an_unsupported_database_address_is_refused(address: str) -> None:
    with pytest.raises(DatabaseURLError, match="SQLite file path or postgresql://"):
        Store(address)


def test_the_database_url_variable_selects_the_database(
        monkeypatch: pytest.MonkeyPatch, database_url: Callable[[str], str]) -> None:
    url = database_url("postgresql")
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", url.replace("postgresql+psycopg", "postgresql"))
    app = create_app({"TESTING": True})
    try:
        assert app.extensions["scorekeeper.store"].db.kind == "postgresql"
        assert query(app, "SELECT count(*) FROM tables") == [(0,)]
    finally:
        app.extensions["scorekeeper.store"].close()


# -- the club's tables under Alembic (revision 0004) -----------------------------------------

def old_club_tables() -> sa.MetaData:
    """The club's tables as the club created them itself (``create_all``) before they were
    under Alembic, verbatim."""
    meta = sa.MetaData()
    sa.Table("club_members", meta,
             sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
             sa.Column("name", sa.String(24), nullable=False),
             sa.Column("name_key", sa.String(24), nullable=False, unique=True),
             sa.Column("colour", sa.String(7), nullable=False),
             sa.Column("link", sa.String(32), nullable=False, unique=True),
             sa.Column("created_at", sa.Float, nullable=False))
    sa.Table("club_events", meta,
             sa.Column("id", sa.String(16), primary_key=True),
             sa.Column("name", sa.String(80), nullable=False),
             sa.Column("created_at", sa.Float, nullable=False),
             sa.Column("config_json", sa.Text, nullable=False),
             sa.Column("seed", sa.String(32), nullable=False),
             sa.Column("organiser_token", sa.String(32), nullable=False),
             sa.Column("checkin_token", sa.String(32), nullable=False))
    sa.Table("club_checkins", meta,
             sa.Column("event_id", sa.String(16), sa.ForeignKey("club_events.id"),
                       primary_key=True),
             sa.Column("member_id", sa.Integer, sa.ForeignKey("club_members.id"),
                       primary_key=True),
             sa.Column("at", sa.Float, nullable=False),
             sa.Column("dropped", sa.Boolean, nullable=False, default=False),
             sa.Column("after_round", sa.Integer, nullable=False))
    sa.Table("club_rounds", meta,
             sa.Column("event_id", sa.String(16), sa.ForeignKey("club_events.id"),
                       primary_key=True),
             sa.Column("round_no", sa.Integer, primary_key=True),
             sa.Column("status", sa.String(10), nullable=False),
             sa.Column("game_json", sa.Text, nullable=False),
             sa.Column("seated_at", sa.Float, nullable=False),
             sa.Column("started_at", sa.Float), sa.Column("ends_at", sa.Float),
             sa.Column("finished_at", sa.Float), sa.Column("ended_by", sa.String(10)))
    sa.Table("club_seats", meta,
             sa.Column("event_id", sa.String(16), sa.ForeignKey("club_events.id"),
                       primary_key=True),
             sa.Column("round_no", sa.Integer, primary_key=True),
             sa.Column("member_id", sa.Integer, sa.ForeignKey("club_members.id"),
                       primary_key=True),
             sa.Column("table_no", sa.Integer, nullable=False),
             sa.Column("position", sa.Integer, nullable=False),
             sa.Column("table_id", sa.String(16)),
             sa.UniqueConstraint("event_id", "round_no", "table_no", "position"))
    sa.Table("club_results", meta,
             sa.Column("event_id", sa.String(16), sa.ForeignKey("club_events.id"),
                       primary_key=True),
             sa.Column("round_no", sa.Integer, primary_key=True),
             sa.Column("member_id", sa.Integer, sa.ForeignKey("club_members.id"),
                       primary_key=True),
             sa.Column("table_no", sa.Integer, nullable=False),
             sa.Column("table_id", sa.String(16)),
             sa.Column("game", sa.String(40), nullable=False),
             sa.Column("bye", sa.Boolean, nullable=False),
             sa.Column("score", sa.Float, nullable=False),
             sa.Column("place", sa.Integer),
             sa.Column("points", sa.Float, nullable=False),
             sa.Column("best_hand", sa.Float),
             sa.Column("hands", sa.Integer, nullable=False),
             sa.Column("finished", sa.Boolean, nullable=False))
    return meta


def empty_database(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if kind == "sqlite":
        return str(tmp_path / "at-0003.sqlite")
    server: pgserver.PostgresServer = request.getfixturevalue("postgres")
    return server.create_database()  # empty: no template, no schema


def database_at_0003(address: str, *, club_tables: bool) -> None:
    """A database as the app left it at revision 0003: the store's tables, with the club's
    made by the club itself (``club_tables``) holding a night of one member, or without."""
    engine = sa.create_engine(engine_url(address))
    with engine.begin() as conn:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = conn
        command.upgrade(config, "0003")
        if club_tables:
            old = old_club_tables()
            old.create_all(conn)
            t = old.tables
            member = conn.execute(t["club_members"].insert().values(
                name="Ann", name_key="ann", colour="#ff0000", link="ann-link",
                created_at=1.0)).inserted_primary_key
            assert member is not None
            conn.execute(t["club_events"].insert().values(
                id="night1", name="Friday", created_at=2.0, config_json=json.dumps({
                    "rounds": 1, "seats": 2, "teams": False, "odd": "table", "minutes": None,
                    "scoring": {"mode": "placement"},
                    "games": [{"game": "complex-toss-rummy", "options": {}}]}),
                seed="s", organiser_token="organiser", checkin_token="door"))
            conn.execute(t["club_checkins"].insert().values(
                event_id="night1", member_id=member[0], at=3.0, dropped=False, after_round=0))
    engine.dispose()


@pytest.mark.parametrize("club_tables", [True, False], ids=["club-made", "no-club"])
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_database_at_0003_upgrades_with_the_club_tables_under_alembic(
        kind: str, club_tables: bool, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    address = empty_database(kind, tmp_path, request)
    database_at_0003(address, club_tables=club_tables)
    app = create_app({"TESTING": True, "DATABASE": address})
    client = app.test_client()
    store = app.extensions["scorekeeper.store"]
    try:
        assert query(app, "SELECT version_num FROM alembic_version") == [(head_revision(),)]
        with store.db.engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
        members = client.get("/api/club/members").get_json()["members"]
        assert [m["name"] for m in members] == (["Ann"] if club_tables else [])
        if club_tables:  # the night made before the upgrade goes on
            organiser = {"Authorization": "Bearer organiser"}
            reply = client.post("/api/club/events/night1/checkins", json={"name": "Bo"},
                                headers=organiser)
            assert reply.status_code == 201, reply.get_json()
            assert client.post("/api/club/events/night1/rounds",
                               headers=organiser).status_code == 201
            room = client.get("/api/club/events/night1/room").get_json()
            assert sorted(p["name"] for p in room["tables"][0]["players"]) == ["Ann", "Bo"]
        else:
            assert client.post("/api/club/members", json={"name": "Cy"}).status_code == 201
    finally:
        store.close()
