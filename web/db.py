"""The SQLite file: connection settings and versioned schema migrations.

The event log of each table is the source of truth: rows are only ever appended, numbered
by a per-table sequence number. The schema version lives in ``PRAGMA user_version``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

#: Migration N takes the schema from version N to N+1.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        created_at REAL NOT NULL,
        setup_json TEXT NOT NULL,
        keeper_token TEXT NOT NULL UNIQUE,
        display_token TEXT NOT NULL UNIQUE,
        join_token TEXT NOT NULL,
        join_expires_at REAL NOT NULL,
        auto_accept INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE seats (
        table_id TEXT NOT NULL REFERENCES tables(id),
        position INTEGER NOT NULL,
        player TEXT NOT NULL,
        token TEXT NOT NULL UNIQUE,
        claimed_at REAL,
        PRIMARY KEY (table_id, player)
    );
    CREATE TABLE events (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seq INTEGER NOT NULL,
        event_json TEXT NOT NULL,
        by TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (table_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE proposals (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id TEXT NOT NULL REFERENCES tables(id),
        player TEXT NOT NULL,
        kind TEXT NOT NULL,
        payload_json TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending',
        created_at REAL NOT NULL,
        resolved_seq INTEGER
    );
    CREATE TABLE confirmations (
        table_id TEXT NOT NULL REFERENCES tables(id),
        hand_no INTEGER NOT NULL,
        player TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (table_id, hand_no, player)
    );
    """,
    # 1 -> 2: each table's learned deck profile (web/photos.py), one row per learned card
    """
    CREATE TABLE deck_profiles (
        table_id TEXT PRIMARY KEY REFERENCES tables(id),
        name TEXT NOT NULL,
        deck TEXT NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE TABLE deck_cards (
        table_id TEXT NOT NULL REFERENCES deck_profiles(table_id),
        code TEXT NOT NULL,
        model BLOB NOT NULL,
        source TEXT NOT NULL,
        learned_at REAL NOT NULL,
        PRIMARY KEY (table_id, code)
    );
    """,
    # 2 -> 3: the page's action id stored with each write (a repeat is answered, not redone),
    # and the requests to take a seat that is already claimed (the keeper approves them)
    """
    ALTER TABLE events ADD COLUMN action_id TEXT;
    CREATE UNIQUE INDEX events_action ON events (table_id, action_id)
        WHERE action_id IS NOT NULL;
    ALTER TABLE proposals ADD COLUMN action_id TEXT;
    CREATE UNIQUE INDEX proposals_action ON proposals (table_id, action_id)
        WHERE action_id IS NOT NULL;
    CREATE TABLE seat_requests (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id TEXT NOT NULL REFERENCES tables(id),
        player TEXT NOT NULL,
        secret TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL DEFAULT 'pending',
        created_at REAL NOT NULL,
        token TEXT
    );
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)
SYNCHRONOUS_MODES = ("FULL", "NORMAL", "EXTRA")


class SchemaTooNewError(RuntimeError):
    """The database file was written by a newer version of the app."""


def connect(path: str | Path, synchronous: str = "FULL") -> sqlite3.Connection:
    """Open the database in WAL mode with a busy timeout, in autocommit mode so that every
    write names its own ``BEGIN IMMEDIATE`` transaction."""
    if synchronous.upper() not in SYNCHRONOUS_MODES:
        raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS_MODES)}")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=10)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA busy_timeout=10000")
    conn.execute(f"PRAGMA synchronous={synchronous.upper()}")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


def schema_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the schema up to :data:`SCHEMA_VERSION`; returns the number of migrations run."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = schema_version(conn)
        if version > SCHEMA_VERSION:
            raise SchemaTooNewError(
                f"the database has schema version {version}, newer than this app's "
                f"{SCHEMA_VERSION}: upgrade the app"
            )
        for number in range(version, SCHEMA_VERSION):
            for statement in MIGRATIONS[number].split(";"):
                if statement.strip():
                    conn.execute(statement)
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return SCHEMA_VERSION - version
