"""The page's action id stored with each write (a repeat is answered, not stored twice), and
the requests to take a seat that is already claimed (the keeper approves them).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

HAS_ACTION = sa.text("action_id IS NOT NULL")


def upgrade() -> None:
    for name, index in (("events", "events_action"), ("proposals", "proposals_action")):
        # a plain ADD COLUMN on both databases (no batch copy of the log on SQLite)
        op.add_column(name, sa.Column("action_id", sa.Text))
        op.create_index(index, name, ["table_id", "action_id"], unique=True,
                        sqlite_where=HAS_ACTION, postgresql_where=HAS_ACTION)
    op.create_table(
        "seat_requests",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("secret", sa.Text, nullable=False, unique=True),
        sa.Column("status", sa.Text, nullable=False, server_default="pending"),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("token", sa.Text),
        sqlite_autoincrement=True,
    )


def downgrade() -> None:
    op.drop_table("seat_requests")
    for name, index in (("events", "events_action"), ("proposals", "proposals_action")):
        op.drop_index(index, table_name=name)
        op.drop_column(name, "action_id")
