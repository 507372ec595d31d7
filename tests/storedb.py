"""Read a test app's database directly (SQLite file or PostgreSQL), beside the store."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from flask import Flask


def query(app: Flask, sql: str, **params: Any) -> list[tuple[Any, ...]]:
    """The rows of ``sql`` (named ``:params``) on the app's own database."""
    engine: sa.Engine = app.extensions["scorekeeper.store"].db.engine
    with engine.connect() as conn:
        return [tuple(row) for row in conn.execute(sa.text(sql), params)]


def execute(app: Flask, sql: str, **params: Any) -> None:
    """Run ``sql`` (named ``:params``) on the app's own database and commit it."""
    engine: sa.Engine = app.extensions["scorekeeper.store"].db.engine
    with engine.begin() as conn:
        conn.execute(sa.text(sql), params)
