"""A private PostgreSQL server for the tests, started from Debian's ``postgresql`` package.

``initdb`` makes a cluster in a temporary folder and ``pg_ctl`` starts it listening only on a
Unix socket in that folder (no TCP port). PostgreSQL refuses to run as root, so when the tests
run as root the server runs as the unprivileged user ``nobody`` (through ``runuser``), owning
its folder; the tests connect through the socket with ``trust`` authentication.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

#: The database role the tests connect as.
USER = "scorekeeper"


def binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl`` (newest version first), or None."""
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True,
                         key=lambda p: int(Path(p).parent.name.split(".")[0] or 0)):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


class PostgresServer:
    """One running cluster: ``url(name)`` for a database in it, ``stop()`` when done."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="sk-pg-"))
        self.data = self.root / "data"
        self.socket_dir = self.root
        self.run_as: str | None = "nobody" if os.geteuid() == 0 else None
        if self.run_as:
            entry = pwd.getpwnam(self.run_as)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self.root.chmod(0o755)
        self._run("initdb", "-D", str(self.data), "-U", USER, "-A", "trust", "-E", "UTF8",
                  "--no-sync", "--locale=C")
        options = f"-k {self.socket_dir} -c listen_addresses='' -c max_connections=300"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-w",
                  "-o", options, "start")

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin_dir / program), *args]
        if self.run_as:
            command = ["runuser", "-u", self.run_as, "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode:
            raise RuntimeError(f"{program} failed: {result.stdout}{result.stderr}")

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL of ``database`` through the private socket."""
        return f"postgresql+psycopg://{USER}@/{database}?host={self.socket_dir}"

    def create_database(self, template: str | None = None) -> str:
        """A new empty database (a copy of ``template`` when given); returns its URL."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:16]
        with psycopg.connect(host=str(self.socket_dir), user=USER, dbname="postgres",
                             autocommit=True) as conn:
            clause = f" TEMPLATE {template}" if template else ""
            conn.execute(f"CREATE DATABASE {name}{clause}")  # type: ignore[arg-type]
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def start() -> PostgresServer:
    """A fresh server, or RuntimeError saying why PostgreSQL is not available here."""
    bin_dir = binaries()
    if bin_dir is None:
        raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql): "
                           "no /usr/lib/postgresql/*/bin/initdb")
    try:
        import psycopg  # noqa: F401
    except ImportError as exc:
        raise RuntimeError("psycopg (3) is not installed: pip install 'psycopg[binary]'") from exc
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        raise RuntimeError("running as root needs runuser to start PostgreSQL as nobody")
    return PostgresServer(bin_dir)
