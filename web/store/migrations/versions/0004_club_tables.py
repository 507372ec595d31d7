"""The club's tables (members, nights, check-ins, rounds, seats, results) under Alembic.

Before this revision the club created its tables itself at start-up, so a database at 0003
may already hold some or all of them, with their rows: those are kept as they are (their
shape is this one), and only the missing ones are created.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def club_tables() -> list[tuple[str, list[Any]]]:
    """Each club table's name and columns (and constraints), parents first."""
    return [
        ("club_members", [
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("name", sa.String(24), nullable=False),
            sa.Column("name_key", sa.String(24), nullable=False, unique=True),
            sa.Column("colour", sa.String(7), nullable=False),
            sa.Column("link", sa.String(32), nullable=False, unique=True),
            sa.Column("created_at", sa.Float, nullable=False),
        ]),
        ("club_events", [
            sa.Column("id", sa.String(16), primary_key=True),
            sa.Column("name", sa.String(80), nullable=False),
            sa.Column("created_at", sa.Float, nullable=False),
            sa.Column("config_json", sa.Text, nullable=False),
            sa.Column("seed", sa.String(32), nullable=False),
            sa.Column("organiser_token", sa.String(32), nullable=False),
            sa.Column("checkin_token", sa.String(32), nullable=False),
        ]),
        ("club_checkins", [
            sa.Column("event_id", sa.String(16), sa.ForeignKey("club_events.id"),
                      primary_key=True),
            sa.Column("member_id", sa.Integer, sa.ForeignKey("club_members.id"),
                      primary_key=True),
            sa.Column("at", sa.Float, nullable=False),
            sa.Column("dropped", sa.Boolean, nullable=False),
            sa.Column("after_round", sa.Integer, nullable=False),
        ]),
        ("club_rounds", [
            sa.Column("event_id", sa.String(16), sa.ForeignKey("club_events.id"),
                      primary_key=True),
            sa.Column("round_no", sa.Integer, primary_key=True),
            sa.Column("status", sa.String(10), nullable=False),
            sa.Column("game_json", sa.Text, nullable=False),
            sa.Column("seated_at", sa.Float, nullable=False),
            sa.Column("started_at", sa.Float),
            sa.Column("ends_at", sa.Float),
            sa.Column("finished_at", sa.Float),
            sa.Column("ended_by", sa.String(10)),
        ]),
        ("club_seats", [
            sa.Column("event_id", sa.String(16), sa.ForeignKey("club_events.id"),
                      primary_key=True),
            sa.Column("round_no", sa.Integer, primary_key=True),
            sa.Column("member_id", sa.Integer, sa.ForeignKey("club_members.id"),
                      primary_key=True),
            sa.Column("table_no", sa.Integer, nullable=False),
            sa.Column("position", sa.Integer, nullable=False),
            sa.Column("table_id", sa.String(16)),
            sa.UniqueConstraint("event_id", "round_no", "table_no", "position"),
        ]),
        ("club_results", [
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
            sa.Column("finished", sa.Boolean, nullable=False),
        ]),
    ]


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    for name, items in club_tables():
        if name not in existing:  # made already by the club's own start-up: kept
            op.create_table(name, *items)


def downgrade() -> None:
    for name, _ in reversed(club_tables()):
        op.drop_table(name)
