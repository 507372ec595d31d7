"""Shared fixtures: the Flask app over each database the store supports (a temporary SQLite
file, and a fresh database on a private PostgreSQL server the suite starts itself), its test
client and CLI runner.

Without PostgreSQL (Debian's ``postgresql`` package) the PostgreSQL cases are skipped with the
reason, unless ``SCOREKEEPER_REQUIRE_POSTGRES=1`` (CI), where they fail instead.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from tests import pgserver
from web import create_app
from web.store import Store

DATABASES = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def postgres() -> Iterator[pgserver.PostgresServer]:
    """A private PostgreSQL server for the whole run (Unix socket only; see tests/pgserver.py)."""
    try:
        server = pgserver.start()
    except RuntimeError as exc:
        if os.environ.get("SCOREKEEPER_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"SCOREKEEPER_REQUIRE_POSTGRES=1 but {exc}")
        pytest.skip(str(exc))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_template(postgres: pgserver.PostgresServer) -> str:
    """The name of a database holding the migrated schema: each test's database is a quick
    copy of it."""
    import psycopg

    with psycopg.connect(host=str(postgres.socket_dir), user=pgserver.USER, dbname="postgres",
                         autocommit=True) as conn:
        conn.execute("CREATE DATABASE sk_template")
    Store(postgres.url("sk_template")).close()
    return "sk_template"


@pytest.fixture
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[str], str]:
    """Makes a fresh database of a kind ("sqlite" or "postgresql"); returns its address."""

    def make(kind: str) -> str:
        if kind == "sqlite":
            return str(tmp_path / "scorekeeper.sqlite")
        server: pgserver.PostgresServer = request.getfixturevalue("postgres")
        return server.create_database(request.getfixturevalue("postgres_template"))

    return make


@pytest.fixture(params=DATABASES)
def database(request: pytest.FixtureRequest, database_url: Callable[[str], str]) -> str:
    """A fresh database: a SQLite file path, or a PostgreSQL URL."""
    return database_url(request.param)


@pytest.fixture
def app(database: str) -> Iterator[Flask]:
    """The app over a fresh database of each kind (SQLite in WAL, like production)."""
    app = create_app({
        "TESTING": True,
        "DATABASE": database,
        "SECRET_KEY": "test",
        "HEARTBEAT_SECONDS": 0.2,
    })
    yield app
    app.extensions["scorekeeper.store"].close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
