"""The database under the store: SQLite (one file, the embedded default) or PostgreSQL.

``connect`` makes the SQLAlchemy engine with the settings that make an acknowledged write
durable (SQLite: WAL with ``synchronous=FULL``; PostgreSQL: ``synchronous_commit=on``) and
brings the schema up to date with the Alembic migrations shipped in ``web/store/migrations``.
A SQLite file written before Alembic (its schema version in ``PRAGMA user_version``) is
stamped with the matching revision first, then upgraded in place.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import StaticPool

MIGRATIONS = Path(__file__).with_name("migrations")
SYNCHRONOUS_MODES = ("FULL", "NORMAL", "EXTRA")
#: The Alembic revision of each schema version written before Alembic (PRAGMA user_version).
LEGACY_REVISIONS = {1: "0001", 2: "0002", 3: "0003"}
#: Any fixed number: the advisory lock that lets one process at a time migrate PostgreSQL.
MIGRATION_LOCK = 7_420_012


class SchemaTooNewError(RuntimeError):
    """The database was written by a newer version of the app."""


class DatabaseURLError(ValueError):
    """A database address this app cannot use."""


def engine_url(database: str | Path) -> sa.URL:
    """The SQLAlchemy URL of a SQLite path, ``:memory:``, or a ``sqlite://`` or
    ``postgresql://`` address (PostgreSQL goes through psycopg 3).

    >>> engine_url("postgresql://sk@db/club").drivername
    'postgresql+psycopg'
    >>> engine_url("/tmp/x.sqlite").database
    '/tmp/x.sqlite'
    """
    text = str(database)
    if "://" not in text:
        return sa.URL.create("sqlite", database=text)
    try:
        url = sa.make_url(text)
    except sa.exc.ArgumentError as exc:
        raise DatabaseURLError(
            f"{text!r} is not a database address ({exc}): use a SQLite file path or "
            "postgresql://USER:PASSWORD@HOST/DATABASE") from exc
    backend = url.get_backend_name()
    if backend == "postgresql":
        return url.set(drivername="postgresql+psycopg")
    if backend == "sqlite":
        return url
    raise DatabaseURLError(
        f"unsupported database {backend!r}: use a SQLite file path or "
        "postgresql://USER:PASSWORD@HOST/DATABASE")


def head_revision() -> str | None:
    """The Alembic revision the migrations bring a database to (the newest)."""
    return ScriptDirectory(str(MIGRATIONS)).get_current_head()


class Database:
    """The engine, and the connections the store writes and reads through.

    SQLite has one writer at a time, so this process keeps one connection to the file and
    takes turns on it (a lock): no time lost polling the file lock, nothing to check out per
    query. PostgreSQL takes many writers at once: each query checks a connection out of the
    pool, and reads run without a transaction of their own (autocommit).
    """

    def __init__(self, database: str | Path, synchronous: str = "FULL") -> None:
        if synchronous.upper() not in SYNCHRONOUS_MODES:
            raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS_MODES)}")
        self.url = engine_url(database)
        self.kind = self.url.get_backend_name()
        self._lock = threading.RLock()
        self._writing = False
        self._shared: Connection | None = None
        if self.kind == "sqlite":
            self.engine = self._sqlite(synchronous.upper())
            self._shared = self.engine.connect()
            self._reader = self.engine
        else:
            self.engine = self._postgresql()
            # a pool of its own whose connections stay in autocommit (nothing to switch per
            # checkout): reads, and writes that are one statement
            self._reader = self._postgresql(isolation_level="AUTOCOMMIT")
        self.migrate()

    @property
    def is_postgresql(self) -> bool:
        return self.kind == "postgresql"

    def _sqlite(self, synchronous: str) -> Engine:
        memory = self.url.database in (None, "", ":memory:")
        if not memory:
            Path(str(self.url.database)).parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(
            self.url, connect_args={"check_same_thread": False, "timeout": 10},
            **({"poolclass": StaticPool} if memory else {}),
        )

        @sa.event.listens_for(engine, "connect")
        def settings(dbapi_connection: Any, record: Any) -> None:
            dbapi_connection.isolation_level = None  # the store names its own BEGIN
            for pragma in ("journal_mode=WAL", "busy_timeout=10000",
                           f"synchronous={synchronous}", "foreign_keys=ON"):
                dbapi_connection.execute(f"PRAGMA {pragma}")

        @sa.event.listens_for(engine, "begin")
        def begin(conn: Connection) -> None:
            # a write takes the file's write lock at once (no deadlock upgrading a read
            # lock); a read runs each statement on its own, as SQLite does by default
            if self._writing or conn is not self._shared:
                driver: Any = conn.connection.driver_connection
                driver.execute("BEGIN IMMEDIATE")

        return engine

    def _postgresql(self, **options: Any) -> Engine:
        return sa.create_engine(
            self.url, pool_size=16, max_overflow=64, **options,
            # every COMMIT waits for its WAL flush, whatever the server's default
            connect_args={"options": "-c synchronous_commit=on"},
        )

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """One write transaction, committed when the block ends without an exception."""
        if self._shared is None:
            with self.engine.begin() as conn:
                yield conn
            return
        with self._lock:
            self._writing = True
            try:
                with self._shared.begin():
                    yield self._shared
            finally:
                self._writing = False

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A connection for reading (on PostgreSQL in autocommit: also for a write that is one
        statement, durable once it returns)."""
        if self._shared is None:
            with self._reader.connect() as conn:
                yield conn
            return
        with self._lock:
            if self._writing:  # a read inside this thread's own write: its transaction goes on
                yield self._shared
                return
            try:
                yield self._shared
            finally:
                if self._shared.in_transaction():
                    self._shared.rollback()

    def rows(self, statement: Any, params: Any = None) -> list[sa.Row[Any]]:
        with self.read() as conn:
            return list(conn.execute(statement, params))

    def migrate(self) -> None:
        """Bring the schema to the newest revision (a no-op when it is there)."""
        with self.write() as conn:
            if self.is_postgresql:
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"),
                             {"key": MIGRATION_LOCK})
            config = Config()
            config.set_main_option("script_location", str(MIGRATIONS))
            config.attributes["connection"] = conn
            current = MigrationContext.configure(conn).get_current_revision()
            script = ScriptDirectory.from_config(config)
            if current is None and not self.is_postgresql:
                current = self._stamp_legacy(conn, config)
            if current is not None and current not in {s.revision for s in
                                                        script.walk_revisions()}:
                raise SchemaTooNewError(
                    f"the database is at schema revision {current}, newer than this app's "
                    f"{script.get_current_head()}: upgrade the app")
            if current != script.get_current_head():
                command.upgrade(config, "head")

    @staticmethod
    def _stamp_legacy(conn: Connection, config: Config) -> str | None:
        """Stamp a SQLite file from before Alembic with its revision; returns it (or None)."""
        version = int(conn.exec_driver_sql("PRAGMA user_version").scalar() or 0)
        if version == 0:
            return None
        if version not in LEGACY_REVISIONS:
            raise SchemaTooNewError(
                f"the database has schema version {version}, newer than this app's: "
                "upgrade the app")
        command.stamp(config, LEGACY_REVISIONS[version])
        return LEGACY_REVISIONS[version]

    def insert_or_ignore(self, table: sa.Table) -> Any:
        """An INSERT that stores nothing when the row's key is already there."""
        dialect = postgresql if self.is_postgresql else sqlite
        return dialect.insert(table).on_conflict_do_nothing()

    def dispose(self) -> None:
        with self._lock:
            if self._shared is not None:
                self._shared.close()
        self.engine.dispose()
        if self._reader is not self.engine:
            self._reader.dispose()
