"""The journal: an append-only, crash-safe record of every accepted move, per table.

A stream is one table's history. A table's state is rebuilt by replaying its stream, so the
journal is the only thing that must survive a crash. Writers name the sequence number they
expect to extend (so two phones racing for one turn cannot both win) and may name a request id
(so a repeated request is answered with the first answer and applied once).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from os import PathLike
from types import TracebackType
from typing import Any, Protocol, Self

__all__ = [
    "AppendRequest",
    "AppendResult",
    "Journal",
    "JournalError",
    "Record",
    "SqliteJournal",
    "StaleSequence",
]

Event = tuple[str, Mapping[str, Any]]


class JournalError(Exception):
    """Something the journal refused or could not do."""


class StaleSequence(JournalError):
    """The stream moved on since the writer read it; nothing was written."""

    def __init__(self, stream: str, expected: int, actual: int) -> None:
        super().__init__(f"stream {stream!r}: expected last seq {expected}, but it is {actual}")
        self.stream = stream
        self.expected = expected
        self.actual = actual


@dataclass(frozen=True)
class Record:
    """One stored event: its place in its stream, what happened, who asked and when."""

    stream: str
    seq: int
    kind: str
    data: dict[str, Any]
    request_id: str | None
    author: str
    at: str


@dataclass(frozen=True)
class AppendRequest:
    """Events to add to one stream right after `expected_seq`, as one unit of `append_many`."""

    stream: str
    expected_seq: int
    events: Sequence[Event]
    request_id: str | None = None
    author: str = ""
    answer: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class AppendResult:
    """What an append did: the seqs it wrote (or wrote first time) and the answer to give.

    `duplicate` is true when the request id had been seen: nothing was written and `answer`,
    `first_seq` and `last_seq` are those of the first time.
    """

    duplicate: bool
    answer: dict[str, Any]
    first_seq: int
    last_seq: int


class Journal(Protocol):
    """The journal every backend offers; one contract test suite checks them all."""

    def append(
        self,
        stream: str,
        expected_seq: int,
        events: Sequence[Event],
        *,
        request_id: str | None = None,
        author: str = "",
        answer: Mapping[str, Any] | None = None,
    ) -> AppendResult: ...

    def append_many(self, batch: Sequence[AppendRequest]) -> list[AppendResult]: ...

    def read(self, stream: str, after_seq: int = 0) -> list[Record]: ...

    def last_seq(self, stream: str) -> int: ...

    def streams(self) -> list[str]: ...

    def answer_for(self, stream: str, request_id: str) -> dict[str, Any] | None: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


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


def _utc_now() -> str:
    """The current time as ISO-8601 UTC; the journal owns the clock, the rules never see it."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _to_json(value: Mapping[str, Any]) -> str:
    """Serialize a payload strictly (no NaN), keeping non-ASCII text readable in the file."""
    return json.dumps(dict(value), ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _check_request(request: AppendRequest) -> None:
    """Refuse an append that could never make sense, before any transaction starts."""
    if not request.events:
        raise ValueError(f"stream {request.stream!r}: an append needs at least one event")


class SqliteJournal:
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

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the file; closing twice is harmless."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def append(
        self,
        stream: str,
        expected_seq: int,
        events: Sequence[Event],
        *,
        request_id: str | None = None,
        author: str = "",
        answer: Mapping[str, Any] | None = None,
    ) -> AppendResult:
        """Write `events` to `stream` as seqs expected_seq+1.. in one transaction."""
        request = AppendRequest(stream, expected_seq, events, request_id, author, answer)
        return self.append_many([request])[0]

    def append_many(self, batch: Sequence[AppendRequest]) -> list[AppendResult]:
        """Write several appends in one transaction: all of them, or none if any is stale."""
        for request in batch:
            _check_request(request)
        at = _utc_now()
        with self._transaction() as conn:
            return [_append_one(conn, request, at) for request in batch]

    def read(self, stream: str, after_seq: int = 0) -> list[Record]:
        """The stream's records after `after_seq`, in seq order."""
        rows = self._query(
            "SELECT stream, seq, kind, data, request_id, author, at FROM events"
            " WHERE stream = ? AND seq > ? ORDER BY seq",
            (stream, after_seq),
        )
        return [_record(row) for row in rows]

    def last_seq(self, stream: str) -> int:
        """The stream's last seq, 0 when it has none."""
        with self._connection() as conn:
            return _last_seq(conn, stream)

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
        """The open connection, held under the lock."""
        with self._lock:
            if self._conn is None:
                raise JournalError("the journal is closed")
            yield self._conn

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
        raise StaleSequence(stream, expected, actual)
    rows = [
        (stream, expected + i, kind, _to_json(data), request.request_id, request.author, at)
        for i, (kind, data) in enumerate(request.events, start=1)
    ]
    try:
        conn.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    except sqlite3.IntegrityError as error:  # another writer took these seqs first
        raise StaleSequence(stream, expected, _last_seq(conn, stream)) from error
    result = AppendResult(False, dict(request.answer or {}), expected + 1, expected + len(rows))
    if request.request_id is not None:
        conn.execute(
            "INSERT INTO requests VALUES (?, ?, ?, ?, ?)",
            (
                stream,
                request.request_id,
                _to_json(result.answer),
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


def _record(row: tuple[Any, ...]) -> Record:
    stream, seq, kind, data, request_id, author, at = row
    return Record(stream, seq, kind, json.loads(data), request_id, author, at)
