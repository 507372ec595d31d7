"""The store: tables and their event logs in SQLite (the embedded default) or PostgreSQL.

Split by job, each module read top to bottom:

* ``schema`` and ``database``: the tables in SQLAlchemy Core, the engine with its durability
  settings, and the Alembic migrations (``migrations/``) run at start-up;
* ``log``: the tables and their append-only event logs, folded by the rules core;
* ``seats``: tokens, roles and seats;
* ``proposals``: proposals, confirmations, the side information and learned decks;
* ``live`` and ``streams``: the live fan-out with its Server-Sent Events framing (PostgreSQL
  ``LISTEN/NOTIFY`` between processes) and what the streams ask;
* ``errors`` and ``table``: what the store refuses, and a table in memory.
"""

from __future__ import annotations

from web.store.database import SchemaTooNewError
from web.store.errors import (
    ACTION_ID_CHARS,
    ForbiddenError,
    ProposalNotFoundError,
    RefusedError,
    RepeatedActionError,
    SeatRequestNotFoundError,
    SeatRequestsFullError,
    StaleWriteError,
    StoreError,
    TableNotFoundError,
    TokenError,
    check_action_id,
    refusal,
)
from web.store.live import MESSAGE_CACHE, sse_message
from web.store.log import UNDO_KEEP, UNDO_SLACK, new_token, score_point, trim_undo_chain
from web.store.seats import MAX_SEAT_REQUESTS
from web.store.streams import EXTENSION, Store
from web.store.table import ROLES, Role, SeatClaim, Table

__all__ = [
    "ACTION_ID_CHARS", "EXTENSION", "MAX_SEAT_REQUESTS", "MESSAGE_CACHE", "ROLES", "UNDO_KEEP",
    "UNDO_SLACK",
    "ForbiddenError", "ProposalNotFoundError", "RefusedError", "RepeatedActionError", "Role",
    "SchemaTooNewError", "SeatClaim", "SeatRequestNotFoundError", "SeatRequestsFullError",
    "StaleWriteError", "Store", "StoreError", "Table", "TableNotFoundError", "TokenError",
    "check_action_id", "new_token", "refusal", "score_point", "sse_message", "trim_undo_chain",
]
