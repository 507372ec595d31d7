"""The club's tables (members, nights, check-ins, rounds, seats, results), on the store's
``MetaData`` beside the game tables: the Alembic migrations build them (revision 0004).

Games themselves stay ordinary tables of the store; a seat names the store's table id.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
)

from web.store.schema import metadata

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

#: The club's tables, parents first.
TABLES = (members, events, checkins, rounds, seats, results)
