"""The club's tables (members, nights, check-ins, rounds, seats, results), declared with
SQLAlchemy Core on their own ``MetaData`` and kept in the app's database.

The URL comes from :func:`database_url`: ``SCOREKEEPER_DATABASE_URL`` when set, else the
app's SQLite file. Games themselves stay ordinary tables of the store; a seat names the
store's table id.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
)
from sqlalchemy.engine import Engine
from sqlalchemy.pool import NullPool, StaticPool

metadata = MetaData()

members = Table(
    "club_members", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(24), nullable=False),
    Column("name_key", String(24), nullable=False, unique=True),  # the name, case-folded
    Column("colour", String(7), nullable=False),
    Column("link", String(32), nullable=False, unique=True),
    Column("created_at", Float, nullable=False),
)

events = Table(
    "club_events", metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("config_json", Text, nullable=False),
    Column("seed", String(32), nullable=False),
    Column("organiser_token", String(32), nullable=False),
    Column("checkin_token", String(32), nullable=False),
)

checkins = Table(
    "club_checkins", metadata,
    Column("event_id", String(16), ForeignKey("club_events.id"), primary_key=True),
    Column("member_id", Integer, ForeignKey("club_members.id"), primary_key=True),
    Column("at", Float, nullable=False),
    Column("dropped", Boolean, nullable=False, default=False),
    Column("after_round", Integer, nullable=False),  # rounds already seated at check-in
)

rounds = Table(
    "club_rounds", metadata,
    Column("event_id", String(16), ForeignKey("club_events.id"), primary_key=True),
    Column("round_no", Integer, primary_key=True),
    Column("status", String(10), nullable=False),  # seated, running, finished
    Column("game_json", Text, nullable=False),
    Column("seated_at", Float, nullable=False),
    Column("started_at", Float),
    Column("ends_at", Float),
    Column("finished_at", Float),
    Column("ended_by", String(10)),  # games, clock, organiser
)

seats = Table(
    "club_seats", metadata,
    Column("event_id", String(16), ForeignKey("club_events.id"), primary_key=True),
    Column("round_no", Integer, primary_key=True),
    Column("member_id", Integer, ForeignKey("club_members.id"), primary_key=True),
    Column("table_no", Integer, nullable=False),  # 0: a bye
    Column("position", Integer, nullable=False),
    Column("table_id", String(16)),  # the store's table, once the round starts
    UniqueConstraint("event_id", "round_no", "table_no", "position"),
)

results = Table(
    "club_results", metadata,
    Column("event_id", String(16), ForeignKey("club_events.id"), primary_key=True),
    Column("round_no", Integer, primary_key=True),
    Column("member_id", Integer, ForeignKey("club_members.id"), primary_key=True),
    Column("table_no", Integer, nullable=False),
    Column("table_id", String(16)),
    Column("game", String(40), nullable=False),
    Column("bye", Boolean, nullable=False),
    Column("score", Float, nullable=False),
    Column("place", Integer),
    Column("points", Float, nullable=False),
    Column("best_hand", Float),
    Column("hands", Integer, nullable=False),
    Column("finished", Boolean, nullable=False),  # the game was played to its end
)


def database_url(config: Mapping[str, Any], environ: Mapping[str, str] | None = None) -> str:
    """The database the club keeps its tables in: ``SCOREKEEPER_DATABASE_URL`` (or the
    ``DATABASE_URL`` config key) when set, else the app's SQLite file.

    >>> database_url({"DATABASE": "/tmp/x.sqlite"}, {})
    'sqlite:////tmp/x.sqlite'
    >>> database_url({"DATABASE": ":memory:"}, {})
    'sqlite://'
    """
    environ = os.environ if environ is None else environ
    url = environ.get("SCOREKEEPER_DATABASE_URL") or config.get("DATABASE_URL")
    if url:
        return str(url)
    path = str(config["DATABASE"])
    if "://" in path:  # the store's DATABASE may be an address too (postgresql://...)
        return path
    return "sqlite://" if path == ":memory:" else f"sqlite:///{path}"


def driver_url(url: str) -> str:
    """A PostgreSQL URL with its driver named: psycopg 3.

    >>> driver_url("postgresql://club@db/scores")
    'postgresql+psycopg://club@db/scores'
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def make_engine(url: str) -> Engine:
    """An engine for ``url``, its tables created. On SQLite every transaction takes the
    write lock at its start (``BEGIN IMMEDIATE``), so that it never fails half way because the
    store wrote meanwhile; the connection waits up to 30 s for the lock."""
    if not url.startswith("sqlite"):
        engine = create_engine(driver_url(url), pool_pre_ping=True)
    else:
        # One connection per use on a file (nothing held open once the app is gone); the one
        # shared connection of an in-memory database.
        memory = url in ("sqlite://", "sqlite:///:memory:")
        engine = create_engine(
            url, connect_args={"timeout": 30, "check_same_thread": False},
            poolclass=StaticPool if memory else NullPool)

        @event.listens_for(engine, "connect")
        def manual_transactions(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.isolation_level = None

        @event.listens_for(engine, "begin")
        def begin_immediate(connection: Any) -> None:
            reading = connection.info.get("reading")
            connection.exec_driver_sql("BEGIN" if reading else "BEGIN IMMEDIATE")

    metadata.create_all(engine)
    return engine
