"""Shared fixtures: the Flask app over a temporary SQLite file, its test client and CLI runner."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from web import create_app


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """The app with its own database file in a temporary folder (WAL, like production)."""
    app = create_app({
        "TESTING": True,
        "DATABASE": str(tmp_path / "scorekeeper.sqlite"),
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
