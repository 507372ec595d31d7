"""The first schema: tables, their seats, the event log, proposals and hand confirmations.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("setup_json", sa.Text, nullable=False),
        sa.Column("keeper_token", sa.Text, nullable=False, unique=True),
        sa.Column("display_token", sa.Text, nullable=False, unique=True),
        sa.Column("join_token", sa.Text, nullable=False),
        sa.Column("join_expires_at", sa.Double, nullable=False),
        sa.Column("auto_accept", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "seats",
        sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("player", sa.Text, primary_key=True),
        sa.Column("token", sa.Text, nullable=False, unique=True),
        sa.Column("claimed_at", sa.Double),
    )
    op.create_table(
        "events",
        sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("event_json", sa.Text, nullable=False),
        sa.Column("by", sa.Text, nullable=False),
        sa.Column("at", sa.Double, nullable=False),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "proposals",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("payload_json", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False, server_default="pending"),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("resolved_seq", sa.Integer),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "confirmations",
        sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("hand_no", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("player", sa.Text, primary_key=True),
        sa.Column("at", sa.Double, nullable=False),
    )


def downgrade() -> None:
    for name in ("confirmations", "proposals", "events", "seats", "tables"):
        op.drop_table(name)
