"""The journal in one SQLite file, the default for a hall: nothing to install."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from os import PathLike
from typing import Any

from companion.journal import interface
from companion.journal.interface import AppendRequest, AppendResult, JournalError, Outage, Record

_SCHEMA_VERSION = 1

# Triggers make "append-only" a property of the file, not only of this module.
_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    stream     TEXT    NOT NULL,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    kind       TEXT    NOT NULL,
    data       TEXT    NOT NULL,
    request_id TEXT,
    author     TEXT    NOT NULL,
    at         TEXT    NOT NULL,
    PRIMARY KEY (stream, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS requests (
    stream     TEXT    NOT NULL,
    request_id TEXT    NOT NULL,
    answer     TEXT    NOT NULL,
    first_seq  INTEGER NOT NULL,
    last_seq   INTEGER NOT NULL,
    UNIQUE (stream, request_id),
    FOREIGN KEY (stream, first_seq) REFERENCES events (stream, seq),
    FOREIGN KEY (stream, last_seq) REFERENCES events (stream, seq)
);
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS requests_no_update BEFORE UPDATE ON requests
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS requests_no_delete BEFORE DELETE ON requests
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
"""


class SqliteJournal(interface.Journal):
    """The journal in one SQLite file: WAL, fsync on every commit, one lock for all threads.

    `synchronous=FULL` makes a returned append survive SIGKILL and power loss. One connection
    guarded by a lock is shared by Flask-SocketIO's threads; `BEGIN IMMEDIATE` takes SQLite's
    write lock before the sequence check, so writers in other processes serialize too.
    """

    def __init__(self, path: str | PathLike[str], *, timeout: float = 5.0) -> None:
        self._lock = threading.Lock()
        conn = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
        try:
            _configure(conn)
        except BaseException:
            conn.close()
            raise
        self._conn: sqlite3.Connection | None = conn
        self._outage = Outage("SQLite")

    def close(self) -> None:
        """Checkpoint the write-ahead log into the file and close it; closing twice is harmless.
        After a close the main file alone holds every committed record, so a copy of it (the
        evening's file, taken after the server stopped) misses nothing."""
        with self._lock:
            if self._conn is not None:
                # another process reading it now keeps the log: SQLite checkpoints it later
                with suppress(sqlite3.Error):
                    self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                self._conn.close()
                self._conn = None

    def append_many(self, batch: Sequence[AppendRequest]) -> list[AppendResult]:
        """Write several appends in one transaction: all of them, or none if any is stale."""
        at = interface.stamp(batch)
        with self._transaction() as conn:
            results = [_append_one(conn, request, at) for request in batch]
        self._outage.worked()  # it can save again (a read alone does not say so: WAL reads go on)
        return results

    def read(self, stream: str, after_seq: int = 0) -> list[Record]:
        """The stream's records after `after_seq`, in seq order."""
        rows = self._query(
            "SELECT stream, seq, kind, data, request_id, author, at FROM events"
            " WHERE stream = ? AND seq > ? ORDER BY seq",
            (stream, after_seq),
        )
        return [interface.record(row) for row in rows]

    def last_seq(self, stream: str) -> int:
        """The stream's last seq, 0 when it has none."""
        with self._connection() as conn:
            return _last_seq(conn, stream)

    def last_seqs(self, streams: Iterable[str]) -> dict[str, int]:
        """The last seq of each of `streams` (0 for one with no records), in one read
        transaction: one snapshot, one index probe per stream."""
        names = sorted(set(streams))
        with self._connection() as conn:
            conn.execute("BEGIN")
            try:
                return {name: _last_seq(conn, name) for name in names}
            finally:
                conn.execute("COMMIT")

    def streams(self) -> list[str]:
        """Every stream that has at least one record, by name."""
        rows = self._query("SELECT DISTINCT stream FROM events ORDER BY stream", ())
        return [row[0] for row in rows]

    def answer_for(self, stream: str, request_id: str) -> dict[str, Any] | None:
        """The answer stored with a request id, or None if the stream never saw it."""
        with self._connection() as conn:
            found = _find_request(conn, stream, request_id)
        return None if found is None else found.answer

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        """The open connection, held under the lock. SQLite's operational errors (the file
        locked by another program past the timeout, gone, or its disk failing) are
        JournalUnavailable, said once per outage."""
        with self._lock:
            if self._conn is None:
                raise JournalError("the journal is closed")
            try:
                yield self._conn
            except sqlite3.OperationalError as exc:
                raise self._outage.failed(exc) from exc

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction that commits on success and rolls back on any failure."""
        with self._connection() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

    def _query(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        with self._connection() as conn:
            return conn.execute(sql, params).fetchall()


def _configure(conn: sqlite3.Connection) -> None:
    """Set the durability pragmas and create (or check) the schema."""
    mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
    if mode != "wal":
        raise JournalError(f"SQLite refused WAL mode (got {mode!r})")
    conn.execute("PRAGMA synchronous=FULL")
    # macOS's plain fsync leaves the write in the drive's cache; elsewhere this does nothing.
    conn.execute("PRAGMA fullfsync=ON")
    conn.execute("PRAGMA foreign_keys=ON")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version == 0:
        # IF NOT EXISTS makes two processes creating the same new file at once harmless.
        conn.executescript(
            f"BEGIN IMMEDIATE; {_SCHEMA} PRAGMA user_version={_SCHEMA_VERSION}; COMMIT;"
        )
    elif version != _SCHEMA_VERSION:
        raise JournalError(f"journal schema version {version}, expected {_SCHEMA_VERSION}")


def _append_one(conn: sqlite3.Connection, request: AppendRequest, at: str) -> AppendResult:
    """Inside a transaction: answer a known request id, refuse a stale seq, or write."""
    stream, expected = request.stream, request.expected_seq
    if request.request_id is not None:
        found = _find_request(conn, stream, request.request_id)
        if found is not None:
            return found
    actual = _last_seq(conn, stream)
    if actual != expected:
        raise interface.StaleSequence(stream, expected, actual)
    rows = [
        (stream, expected + i, kind, interface.to_json(data), request.request_id, request.author, at)
        for i, (kind, data) in enumerate(request.records, start=1)
    ]
    # The primary key (stream, seq) would refuse a second writer even without the check above.
    conn.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    result = AppendResult(False, dict(request.answer or {}), expected + 1, expected + len(rows))
    if request.request_id is not None:
        conn.execute(
            "INSERT INTO requests VALUES (?, ?, ?, ?, ?)",
            (
                stream,
                request.request_id,
                interface.to_json(result.answer),
                result.first_seq,
                result.last_seq,
            ),
        )
    return result


def _last_seq(conn: sqlite3.Connection, stream: str) -> int:
    row = conn.execute("SELECT MAX(seq) FROM events WHERE stream = ?", (stream,)).fetchone()
    return int(row[0] or 0)


def _find_request(conn: sqlite3.Connection, stream: str, request_id: str) -> AppendResult | None:
    """The first result of a request id on a stream, marked as a duplicate."""
    row = conn.execute(
        "SELECT answer, first_seq, last_seq FROM requests WHERE stream = ? AND request_id = ?",
        (stream, request_id),
    ).fetchone()
    if row is None:
        return None
    return AppendResult(True, json.loads(row[0]), row[1], row[2])
