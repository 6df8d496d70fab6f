"""A throwaway PostgreSQL server for the tests, made from Debian's own server binaries.

The `postgres_server` fixture runs `initdb` and `postgres` in a temporary folder, on a free port
of 127.0.0.1 with its socket in that folder, once per session; every store a test opens gets a
database of its own. PostgreSQL refuses to run as root, so under root the server runs as the
`postgres` user that Debian's package creates. Without the binaries the tests skip, except in CI
(`CI` set), where they fail: there, a skipped backend would be a green run that tested nothing.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

INSTALL_HINT = "apt-get install postgresql (scripts/test.sh installs it)"
READY_SECONDS = 30.0
STORES = "stores"  # the database that holds one schema per test store
# The tests judge behaviour, not durability: a server that never fsyncs starts and creates
# databases several times faster. The journal's own settings are not touched by these.
SERVER_SETTINGS = ("fsync=off", "full_page_writes=off", "max_connections=200")


def server_binaries() -> Path | None:
    """The folder with initdb and postgres: $COMPANION_PG_BIN if set (another system's layout),
    else the newest of Debian's /usr/lib/postgresql/N/bin; None when there is none."""
    configured = os.environ.get("COMPANION_PG_BIN")
    folders = [Path(configured)] if configured else Path("/usr/lib/postgresql").glob("*/bin")
    found = []
    for folder in folders:
        if (folder / "initdb").is_file() and (folder / "postgres").is_file():
            version = folder.parent.name
            found.append((int(version) if version.isdigit() else 0, folder))
    return max(found)[1] if found else None


def require_binaries() -> Path:
    """The server binaries, or the test's end: a failure in CI (`CI` set), a skip elsewhere."""
    binaries = server_binaries()
    if binaries is None:
        message = f"PostgreSQL's server binaries are not installed: {INSTALL_HINT}"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return binaries


def free_port() -> int:
    """A port nothing listens on right now; it may be taken before the server binds it (the
    server's start tries another then)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PgServer:
    """One running server: its folder, port and process, and the databases made on it."""

    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        self.root = Path(tempfile.mkdtemp(prefix="companion-pg-"))
        self.port = free_port()
        self.log = self.root / "server.log"
        self._names = itertools.count(1)
        self._process: subprocess.Popen[bytes] | None = None
        self._user = _server_user()
        if self._user is not None:  # the server's user must reach its own folder
            shutil.chown(self.root, self._user.pw_uid, self._user.pw_gid)

    @property
    def admin_dsn(self) -> str:
        return self.dsn("postgres")

    def dsn(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def start(self, tries: int = 3) -> None:
        data = self.root / "data"
        self._run(
            self.binaries / "initdb", "-D", str(data), "-U", "postgres", "-A", "trust",
            "-E", "UTF8", "--no-locale", "--no-sync", "--no-instructions",
        )
        settings = [arg for setting in SERVER_SETTINGS for arg in ("-c", setting)]
        # free_port() lets the port go before postgres binds it: another program may take it
        # meanwhile, and postgres then exits ("could not bind"); a new port is tried.
        for attempt in range(tries):
            command = [
                str(self.binaries / "postgres"), "-D", str(data), "-p", str(self.port),
                "-c", "listen_addresses=127.0.0.1", "-c", f"unix_socket_directories={self.root}",
                *settings,
            ]
            self._command = command
            with self.log.open("wb") as log:
                self._process = subprocess.Popen(
                    command, stdout=log, stderr=subprocess.STDOUT, **self._as_user()
                )
            try:
                self._wait_until_ready()
                break
            except RuntimeError:
                if attempt == tries - 1 or "could not bind" not in self.log.read_text():
                    raise
                self._process.wait()
                self.port = free_port()
        self._admin(f"CREATE DATABASE {STORES}")

    def halt(self) -> None:
        """Stop the server (fast shutdown: its clients are disconnected) and keep its folder, as
        an outage of the database would: `resume` starts it again."""
        assert self._process is not None
        self._process.send_signal(signal.SIGINT)
        self._process.wait(timeout=30)

    def resume(self) -> None:
        """Start the halted server again, on its port and with its data."""
        with self.log.open("ab") as log:
            self._process = subprocess.Popen(
                self._command, stdout=log, stderr=subprocess.STDOUT, **self._as_user()
            )
        self._wait_until_ready()

    def stop(self) -> None:
        """Fast shutdown (SIGINT: disconnect everyone, stop), then remove the folder."""
        if self._process is not None:
            self._process.send_signal(signal.SIGINT)
            try:
                self._process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            self._process = None
        shutil.rmtree(self.root, ignore_errors=True)

    def create_database(self) -> str:
        """A new empty database; its DSN. Costs 30-200 ms (it copies template1): see `store`."""
        name = f"journal_{next(self._names)}"
        self._admin(f"CREATE DATABASE {name}")
        return self.dsn(name)

    def create_store(self) -> str:
        """A fresh, empty place for one journal: a new schema in the shared `stores` database,
        named first in the DSN's search_path. As isolated as a new database for the journal
        (its tables, function and triggers all land in that schema) at under a millisecond."""
        name = f"store_{next(self._names)}"
        self._admin(f"CREATE SCHEMA {name}", database=STORES)
        return f"{self.dsn(STORES)}?options=-c%20search_path%3D{name}"

    def store_for(self, folder: Path) -> str:
        """The store that belongs to a test's folder: made on first use, the same after."""
        marker = folder / "postgres.dsn"
        if not marker.exists():
            marker.write_text(self.create_store(), encoding="utf-8")
        return marker.read_text(encoding="utf-8")

    def _admin(self, sql: str, database: str = "postgres") -> None:
        import psycopg

        with psycopg.connect(self.dsn(database), autocommit=True) as conn:
            conn.execute(sql.encode())

    def _wait_until_ready(self) -> None:
        import psycopg

        deadline = time.monotonic() + READY_SECONDS
        while True:
            assert self._process is not None
            if self._process.poll() is not None:
                raise RuntimeError(f"PostgreSQL did not start:\n{self.log.read_text()}")
            try:
                psycopg.connect(self.admin_dsn, connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"PostgreSQL not ready after {READY_SECONDS} s:\n{self.log.read_text()}"
                    ) from None
                time.sleep(0.05)

    def _run(self, *command: str | Path) -> None:
        done = subprocess.run(
            [str(part) for part in command], capture_output=True, text=True, **self._as_user()
        )
        if done.returncode != 0:
            raise RuntimeError(f"{command[0]} failed ({done.returncode}):\n{done.stderr}")

    def _as_user(self) -> dict[str, Any]:
        """Popen arguments that drop root for the server's own user (no root groups kept)."""
        if self._user is None:
            return {}
        return {"user": self._user.pw_uid, "group": self._user.pw_gid, "extra_groups": []}


def _server_user() -> pwd.struct_passwd | None:
    """Who runs the server: nobody special unless we are root, then Debian's `postgres`."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        raise RuntimeError("running as root, but there is no 'postgres' user to run the server as") from None


_running: PgServer | None = None


def running() -> PgServer:
    """The session's server; only tests (or fixtures) that asked for `postgres_server` call it."""
    if _running is None:
        raise RuntimeError("no PostgreSQL server: request the postgres_server fixture first")
    return _running


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PgServer]:
    """A real PostgreSQL server for the whole session, stopped (and its folder removed) at the end."""
    global _running
    server = PgServer(require_binaries())
    try:
        server.start()
        _running = server
        yield server
    finally:
        _running = None
        server.stop()
