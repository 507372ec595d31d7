"""The tables of the store, in SQLAlchemy Core: the same on SQLite and PostgreSQL.

The event log (``events``) is the truth and is only ever appended to, numbered per table
1, 2, 3...; everything else is side information. The Alembic migrations in
``web/store/migrations`` build exactly this schema (a test compares them).
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

#: Partial unique indexes: an action id is stored once per table.
HAS_ACTION = sa.text("action_id IS NOT NULL")

tables = sa.Table(
    "tables", metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("created_at", sa.Double, nullable=False),
    sa.Column("setup_json", sa.Text, nullable=False),
    sa.Column("keeper_token", sa.Text, nullable=False, unique=True),
    sa.Column("display_token", sa.Text, nullable=False, unique=True),
    sa.Column("join_token", sa.Text, nullable=False),
    sa.Column("join_expires_at", sa.Double, nullable=False),
    sa.Column("auto_accept", sa.Integer, nullable=False, server_default="0"),
)

seats = sa.Table(
    "seats", metadata,
    sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Column("player", sa.Text, primary_key=True),
    sa.Column("token", sa.Text, nullable=False, unique=True),
    sa.Column("claimed_at", sa.Double),
)

events = sa.Table(
    "events", metadata,
    sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("event_json", sa.Text, nullable=False),
    sa.Column("by", sa.Text, nullable=False),
    sa.Column("at", sa.Double, nullable=False),
    sa.Column("action_id", sa.Text),
    sa.Index("events_action", "table_id", "action_id", unique=True,
             sqlite_where=HAS_ACTION, postgresql_where=HAS_ACTION),
    sqlite_with_rowid=False,
)

proposals = sa.Table(
    "proposals", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), nullable=False),
    sa.Column("player", sa.Text, nullable=False),
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("payload_json", sa.Text, nullable=False),
    sa.Column("status", sa.Text, nullable=False, server_default="pending"),
    sa.Column("created_at", sa.Double, nullable=False),
    sa.Column("resolved_seq", sa.Integer),
    sa.Column("action_id", sa.Text),
    sa.Index("proposals_action", "table_id", "action_id", unique=True,
             sqlite_where=HAS_ACTION, postgresql_where=HAS_ACTION),
    sqlite_autoincrement=True,
)

confirmations = sa.Table(
    "confirmations", metadata,
    sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("hand_no", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("player", sa.Text, primary_key=True),
    sa.Column("at", sa.Double, nullable=False),
)

deck_profiles = sa.Table(
    "deck_profiles", metadata,
    sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("deck", sa.Text, nullable=False),
    sa.Column("updated_at", sa.Double, nullable=False),
)

deck_cards = sa.Table(
    "deck_cards", metadata,
    sa.Column("table_id", sa.Text, sa.ForeignKey("deck_profiles.table_id"), primary_key=True),
    sa.Column("code", sa.Text, primary_key=True),
    sa.Column("model", sa.LargeBinary, nullable=False),
    sa.Column("source", sa.Text, nullable=False),
    sa.Column("learned_at", sa.Double, nullable=False),
)

seat_requests = sa.Table(
    "seat_requests", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), nullable=False),
    sa.Column("player", sa.Text, nullable=False),
    sa.Column("secret", sa.Text, nullable=False, unique=True),
    sa.Column("status", sa.Text, nullable=False, server_default="pending"),
    sa.Column("created_at", sa.Double, nullable=False),
    sa.Column("token", sa.Text),
    sqlite_autoincrement=True,
)
