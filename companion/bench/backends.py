"""The engines of `companion bench hall --workers N`: a PostgreSQL server (Debian's binaries,
`initdb` in a temporary folder) and a Redis server, each on a free port of 127.0.0.1, started
for the run and removed after it. PostgreSQL keeps its default durability (fsync on): the
figures are those of a journal that keeps what it acknowledged. As root (a container), the
server runs as Debian's `postgres` user, which PostgreSQL requires."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.bench.server import HOST, free_port, stop_process

INSTALL = "apt-get install postgresql redis-server"


def postgres_binaries() -> Path:
    """initdb's folder: $COMPANION_PG_BIN, else the newest /usr/lib/postgresql/N/bin."""
    configured = os.environ.get("COMPANION_PG_BIN")
    folders = [Path(configured)] if configured else sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda f: int(f.parent.name) if f.parent.name.isdigit() else 0)
    for folder in reversed(folders):
        if (folder / "initdb").is_file() and (folder / "postgres").is_file():
            return folder
    raise RuntimeError(f"bench hall --workers: PostgreSQL's server is not installed ({INSTALL})")


def _as_postgres() -> dict[str, Any]:
    if os.geteuid() != 0:
        return {}
    user = pwd.getpwnam("postgres")
    return {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}


@contextlib.contextmanager
def postgres(max_connections: int = 200) -> Iterator[str]:
    """A fresh PostgreSQL server with one empty database: its URL."""
    binaries, user = postgres_binaries(), _as_postgres()
    root = Path(tempfile.mkdtemp(prefix="bench-pg-"))
    if user:
        os.chown(root, user["user"], user["group"])
    port, data = free_port(), root / "data"
    process = None
    try:
        subprocess.run([str(binaries / "initdb"), "-D", str(data), "-U", "postgres", "-A",
                        "trust", "-E", "UTF8", "--no-locale", "--no-instructions"],
                       check=True, capture_output=True, **user)
        with open(root / "server.log", "wb") as log:
            process = subprocess.Popen(
                [str(binaries / "postgres"), "-D", str(data), "-p", str(port),
                 "-c", f"listen_addresses={HOST}", "-c", f"unix_socket_directories={root}",
                 "-c", f"max_connections={max_connections}"],
                stdout=log, stderr=subprocess.STDOUT, **user)
        import psycopg

        deadline = time.monotonic() + 30
        while True:
            try:
                with psycopg.connect(f"postgresql://postgres@{HOST}:{port}/postgres",
                                     autocommit=True, connect_timeout=2) as conn:
                    conn.execute("CREATE DATABASE hall")
                break
            except psycopg.OperationalError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError((root / "server.log").read_text()[-2000:]) from None
                time.sleep(0.1)
        yield f"postgresql://postgres@{HOST}:{port}/hall"
    finally:
        if process is not None:
            stop_process(process, signal.SIGINT, 30)  # PostgreSQL's fast shutdown
        shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def redis() -> Iterator[str]:
    """A Redis server that keeps nothing on disk: its URL."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError(f"bench hall --workers: redis-server is not installed ({INSTALL})")
    import redis as client

    root = Path(tempfile.mkdtemp(prefix="bench-redis-"))
    port = free_port()
    process = subprocess.Popen([binary, "--port", str(port), "--bind", HOST, "--save", "",
                                "--appendonly", "no", "--dir", str(root)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            probe = client.Redis(host=HOST, port=port, socket_connect_timeout=1)
            try:
                probe.ping()
                break
            except client.ConnectionError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.05)
            finally:
                probe.close()
        yield f"redis://{HOST}:{port}/0"
    finally:
        stop_process(process)
        shutil.rmtree(root, ignore_errors=True)
