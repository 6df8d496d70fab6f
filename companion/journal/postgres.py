"""The journal on PostgreSQL, for events that run several server processes (DESIGN.md, scale).

Same contract as SQLite, same stored text: payloads are the exact JSON strings `to_json` makes,
in TEXT columns. Not jsonb: jsonb refuses "\\u0000" inside strings (which the contract stores)
and reorders object keys, so a journal would no longer read back as SQLite's does.

Concurrency: every append transaction first takes a transaction-scoped advisory lock per stream
it writes (in one fixed order, so two hall rolls cannot deadlock), then checks request ids and
the expected seq, then inserts. The lock makes check-then-insert atomic across connections and
processes, as `BEGIN IMMEDIATE` does for SQLite, but per stream: writers of different tables
never wait for each other. `SELECT ... FOR UPDATE` cannot do this: it locks rows that exist,
and the first append to a stream has none. The primary key (stream, seq) and the unique
(stream, request id) stay as the backstop: a writer that skipped the lock fails on them, and
the append is tried once more under the lock, where it finds the duplicate or the stale seq.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, LiteralString

import psycopg
from psycopg import errors
from psycopg.conninfo import conninfo_to_dict
from psycopg.pq import TransactionStatus

from companion.journal.interface import (
    AppendRequest,
    AppendResult,
    Journal,
    JournalError,
    JournalUnavailable,
    Outage,
    Record,
    StaleSequence,
    record,
    stamp,
    to_json,
)

IDLE = TransactionStatus.IDLE
_SCHEMA_VERSION = 1
# Advisory lock keys are (class, key) pairs shared by the whole database: the journal's own
# classes keep its locks apart from any other user's (a timer worker's, say).
_SCHEMA_LOCK = (0x4A534348, 0)  # "JSCH"
_STREAM_LOCK_CLASS = 0x4A524E4C  # "JRNL"
_CONNECT_TIMEOUT = 10
# Connections a journal opens at most: appends of different tables run at once, each on its
# own connection (one connection made every move wait for the one before it, issue 24). A few
# are enough: a move holds one for two round trips; a hall roll holds one across its block.
POOL_SIZE = 6
# A server process that dies mid-transaction (its machine, say) would hold its tables' locks
# until TCP noticed, hours later; these bound that, unless the DSN already chose other values.
_SESSION_LIMITS = (("idle_in_transaction_session_timeout", "10s"), ("lock_timeout", "10s"))

# A statement-level trigger also refuses TRUNCATE, which row triggers never see.
_SCHEMA = """
CREATE TABLE events (
    stream     TEXT COLLATE "C" NOT NULL,
    seq        BIGINT NOT NULL CHECK (seq >= 1),
    kind       TEXT   NOT NULL,
    data       TEXT   NOT NULL,
    request_id TEXT,
    author     TEXT   NOT NULL,
    at         TEXT   NOT NULL,
    PRIMARY KEY (stream, seq)
);
CREATE TABLE requests (
    stream     TEXT COLLATE "C" NOT NULL,
    request_id TEXT COLLATE "C" NOT NULL,
    answer     TEXT   NOT NULL,
    first_seq  BIGINT NOT NULL,
    last_seq   BIGINT NOT NULL,
    PRIMARY KEY (stream, request_id),
    FOREIGN KEY (stream, first_seq) REFERENCES events (stream, seq),
    FOREIGN KEY (stream, last_seq) REFERENCES events (stream, seq)
);
CREATE FUNCTION journal_append_only() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN RAISE EXCEPTION 'the journal is append-only'; END $$;
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON events
FOR EACH STATEMENT EXECUTE FUNCTION journal_append_only();
CREATE TRIGGER requests_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON requests
FOR EACH STATEMENT EXECUTE FUNCTION journal_append_only();
CREATE TABLE journal_schema (version INTEGER NOT NULL);
"""

# An append in one statement, the transaction made and ended by the server: the client sends
# BEGIN, this call and COMMIT in one round trip, so no transaction (nor the stream locks it
# holds) waits on a busy client between round trips (issue 24: on a loaded laptop, moves' locks
# were held across the server process's whole scheduling delay). Same steps as SQLite's
# `_append_one`, for each request of the batch in order: its request id known -> the first
# result; the stream's last seq not the expected one -> SQLSTATE CJ001 (HINT: the request's
# index, DETAIL: the actual seq), which ends the transaction with nothing written; else the
# records and the request's answer inserted. Made by the first process that opens a journal
# without it (a database of version 0.2.0 gets it then): the tables do not change, so the
# schema's version does not either. Its name carries its own version: a changed function gets a
# new name, and processes of the older code keep theirs. A role that may only read and write
# the tables opens a journal that has it.
_APPEND_FUNCTION = """
CREATE FUNCTION journal_append_v1(
    lock_class int, lock_keys int[], streams text[], expected bigint[], request_ids text[],
    authors text[], answers text[], counts int[], kinds text[], datas text[], stamped text)
RETURNS TABLE (o_duplicate boolean, o_answer text, o_first bigint, o_last bigint)
LANGUAGE plpgsql AS $$
DECLARE
    i int;
    used int := 0;
    actual bigint;
    known record;
BEGIN
    PERFORM pg_advisory_xact_lock(lock_class, key) FROM unnest(lock_keys) AS key;
    FOR i IN 1 .. coalesce(array_length(streams, 1), 0) LOOP
        IF request_ids[i] IS NOT NULL THEN
            SELECT r.answer, r.first_seq, r.last_seq INTO known FROM requests r
             WHERE r.stream = streams[i] AND r.request_id = request_ids[i];
            IF FOUND THEN
                o_duplicate := true; o_answer := known.answer;
                o_first := known.first_seq; o_last := known.last_seq;
                RETURN NEXT;
                used := used + counts[i];
                CONTINUE;
            END IF;
        END IF;
        SELECT coalesce(MAX(e.seq), 0) INTO actual FROM events e WHERE e.stream = streams[i];
        IF actual <> expected[i] THEN
            RAISE EXCEPTION 'stale sequence' USING ERRCODE = 'CJ001', HINT = i::text,
                DETAIL = actual::text;
        END IF;
        INSERT INTO events
        SELECT streams[i], expected[i] + g, kinds[used + g], datas[used + g], request_ids[i],
               authors[i], stamped
          FROM generate_series(1, counts[i]) AS g;
        IF request_ids[i] IS NOT NULL THEN
            INSERT INTO requests VALUES (streams[i], request_ids[i], answers[i],
                                         expected[i] + 1, expected[i] + counts[i]);
        END IF;
        o_duplicate := false; o_answer := answers[i];
        o_first := expected[i] + 1; o_last := expected[i] + counts[i];
        RETURN NEXT;
        used := used + counts[i];
    END LOOP;
END $$;
"""
_STALE = "CJ001"  # journal_append_v1's refusal of a stale expected seq

_NUL = "\x00"


class PostgresJournal(Journal):
    """The journal in a PostgreSQL database: a small pool of connections for its threads.

    PostgreSQL's default `synchronous_commit=on` makes a returned append survive a crash of the
    database server; a session that has it off turns it back on. Each call takes a connection
    of the pool (at most POOL_SIZE, opened when first needed) and gives it back: calls of
    different threads (or greenlets) run at once, and under gevent psycopg yields at each round
    trip, so one table's append does not wait for another's. A connection that broke (the
    server restarted) fails the call it broke in and is dropped; the next call connects again.
    """

    def __init__(self, dsn: str, pool_size: int = POOL_SIZE) -> None:
        self._dsn = dsn
        self._guard = threading.Lock()  # the idle list and the closed flag
        self._slots = threading.BoundedSemaphore(pool_size)
        self._idle: list[psycopg.Connection[Any]] = [_connect(dsn)]  # refuses a bad DSN now
        self._pinned = threading.local()  # `holding`: the block's connection, for its thread
        self._closed = False
        self._outage = Outage("PostgreSQL")

    @property
    def _conn(self) -> psycopg.Connection[Any] | None:
        """The connection the next call takes (the latest given back), if one is idle: what a
        test looks at when it checks a connection's settings or drops it."""
        with self._guard:
            return self._idle[-1] if self._idle else None

    def close(self) -> None:
        """Close the idle connections (and each busy one as it comes back); closing twice is
        harmless."""
        with self._guard:
            self._closed = True
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()

    def append_many(self, batch: Sequence[AppendRequest]) -> list[AppendResult]:
        """Write several appends in one transaction: all of them, or none if any is stale."""
        at = stamp(batch)
        if not batch:
            with self._connection():  # a closed journal refuses even this, as SQLite's does
                return []
        try:
            return self._append_once(batch, at)
        except errors.UniqueViolation:
            pass  # a writer that skipped the stream locks got there first: decide again
        try:
            return self._append_once(batch, at)
        except errors.UniqueViolation as exc:
            raise JournalError(f"PostgreSQL: {exc}") from exc

    def _append_once(self, batch: Sequence[AppendRequest], at: str) -> list[AppendResult]:
        # One round trip in pipeline mode: BEGIN, `journal_append_v1` and COMMIT (in `holding`'s
        # transaction, a savepoint instead). A move's append is the hall's hot path, and the
        # move's table waits for it (its stream lock is held across it): each round trip counts
        # (issue 15), and so does every moment a transaction waits on this process (issue 24).
        arguments = _append_arguments(batch, at)
        with self._connection() as conn:
            try:
                with conn.pipeline(), conn.transaction():
                    cursor = conn.execute(_APPEND_CALL, arguments)
                rows = cursor.fetchall()
            except psycopg.Error as exc:
                if exc.sqlstate != _STALE:
                    raise
                request = batch[int(exc.diag.message_hint or 1) - 1]
                raise StaleSequence(request.stream, request.expected_seq,
                                    int(exc.diag.message_detail or 0)) from None
        self._outage.worked()  # it can save again (a read alone does not say so)
        return [AppendResult(duplicate, json.loads(answer) if duplicate
                             else dict(request.answer or {}), first, last)
                for request, (duplicate, answer, first, last) in zip(batch, rows, strict=True)]

    def read(self, stream: str, after_seq: int = 0) -> list[Record]:
        """The stream's records after `after_seq`, in seq order."""
        rows = self._query(
            "SELECT stream, seq, kind, data, request_id, author, at FROM events"
            " WHERE stream = %s AND seq > %s ORDER BY seq",
            (stream, after_seq),
            storable=stream,
        )
        return [record(row) for row in rows]

    @contextmanager
    def holding(self, streams: Iterable[str]) -> Iterator[None]:
        """Take the streams' append locks (the advisory locks every append takes) in a
        transaction that lasts the block, and keep the connection for it: the block's reads
        and appends (a savepoint each) run in it, and no other connection appends to these
        streams until it commits at the block's end. A hall roll on several processes holds
        its event's streams from its catch-up to its append: else a move on another process
        in between made the whole append stale, and it was planned and tried again, table by
        table (issue 15). An exception in the block rolls back what the block wrote."""
        keys = sorted({_lock_key(name) for name in streams if _NUL not in name})
        with self._connection() as conn, conn.transaction():
            conn.execute(
                "SELECT pg_advisory_xact_lock(%s, key) FROM unnest(%s::int4[]) AS key",
                (_STREAM_LOCK_CLASS, keys),
            )
            self._pinned.conn = conn
            try:
                yield
            finally:
                self._pinned.conn = None

    def read_after(self, after: Mapping[str, int]) -> dict[str, list[Record]]:
        """Each stream's records after its seq, in seq order, in one query: a hall roll on
        several processes catches up hundreds of tables the other process moved (issue 15)."""
        found: dict[str, list[Record]] = {stream: [] for stream in after}
        storable = sorted(stream for stream in after if _NUL not in stream)  # never written
        if storable:
            rows = self._query(
                "SELECT e.stream, e.seq, e.kind, e.data, e.request_id, e.author, e.at"
                " FROM unnest(%s::text[], %s::bigint[]) AS k(stream, after_seq)"
                " JOIN events e ON e.stream = k.stream AND e.seq > k.after_seq"
                " ORDER BY e.stream, e.seq",
                (storable, [after[stream] for stream in storable]),
            )
            for row in rows:
                found[row[0]].append(record(row))
        return found

    def last_seq(self, stream: str) -> int:
        """The stream's last seq, 0 when it has none."""
        rows = self._query("SELECT MAX(seq) FROM events WHERE stream = %s", (stream,), storable=stream)
        return int(rows[0][0] or 0) if rows else 0

    def last_seqs(self, streams: Iterable[str]) -> dict[str, int]:
        """The last seq of each of `streams` (0 for one with no records), in one query: one
        backward index probe per stream (a MAX per stream, not a GROUP BY over their rows), so
        the service's look at every table costs one round trip."""
        names = sorted(set(streams))
        seqs = dict.fromkeys(names, 0)
        storable = [name for name in names if _NUL not in name]  # never written
        if storable:
            rows = self._query(
                "SELECT s.stream, (SELECT MAX(e.seq) FROM events e WHERE e.stream = s.stream)"
                " FROM unnest(%s::text[]) AS s(stream)",
                (storable,),
            )
            seqs.update((stream, int(seq or 0)) for stream, seq in rows)
        return seqs

    def streams(self) -> list[str]:
        """Every stream that has at least one record, by name (code point order, as SQLite)."""
        rows = self._query("SELECT DISTINCT stream FROM events ORDER BY stream", ())
        return [row[0] for row in rows]

    def answer_for(self, stream: str, request_id: str) -> dict[str, Any] | None:
        """The answer stored with a request id, or None if the stream never saw it."""
        rows = self._query(
            "SELECT answer FROM requests WHERE stream = %s AND request_id = %s",
            (stream, request_id),
            storable=stream + request_id,
        )
        return json.loads(rows[0][0]) if rows else None

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the pool for one call (inside `holding`: the block's own), given
        back after it; a broken one is dropped, and a new one opened when none is idle.

        Errors of the database arrive as JournalError (the server's callers know no other),
        except the unique violation that append_many retries.
        """
        pinned = getattr(self._pinned, "conn", None)
        if pinned is not None:
            with self._as_journal_errors():
                yield pinned
            return
        with self._slots:
            conn = self._take()
            try:
                with self._as_journal_errors():
                    yield conn
            finally:
                self._give_back(conn)

    @contextmanager
    def _as_journal_errors(self) -> Iterator[None]:
        """psycopg's errors as the journal's: a lost or refused connection, a server shutting
        down or a lock not granted in time as JournalUnavailable (said once per outage)."""
        try:
            yield
        except errors.UniqueViolation:
            raise
        except psycopg.OperationalError as exc:
            raise self._outage.failed(exc) from exc
        except psycopg.Error as exc:
            raise JournalError(f"PostgreSQL: {exc}") from exc

    def _take(self) -> psycopg.Connection[Any]:
        with self._guard:
            if self._closed:
                raise JournalError("the journal is closed")
            conn = self._idle.pop() if self._idle else None
        if conn is not None and conn.broken:
            conn.close()
            conn = None
        try:
            return conn if conn is not None else _connect(self._dsn)
        except JournalUnavailable as exc:
            raise self._outage.failed(exc) from exc

    def _give_back(self, conn: psycopg.Connection[Any]) -> None:
        usable = not (conn.broken or conn.closed) and conn.info.transaction_status == IDLE
        with self._guard:
            if usable and not self._closed:
                self._idle.append(conn)
                return
        conn.close()

    def _query(self, sql: LiteralString, params: tuple[Any, ...], storable: str = "") -> list[Any]:
        """Rows of one read; a name PostgreSQL cannot store (a NUL in it) was never written."""
        if _NUL in storable:
            return []
        with self._connection() as conn:
            return conn.execute(sql, params).fetchall()


def _connect(dsn: str) -> psycopg.Connection[Any]:
    """A connection in autocommit (reads take no transaction), with the schema ready."""
    options: dict[str, Any] = {"autocommit": True, "application_name": "companion journal"}
    try:
        if "connect_timeout" not in conninfo_to_dict(dsn):
            options["connect_timeout"] = _CONNECT_TIMEOUT
        conn = psycopg.connect(dsn, **options)
    except psycopg.OperationalError as exc:
        raise JournalUnavailable(f"cannot connect to PostgreSQL: {exc}") from exc
    except psycopg.Error as exc:
        raise JournalError(f"cannot connect to PostgreSQL: {exc}") from exc
    try:
        _configure(conn)
    except BaseException:
        conn.close()
        raise
    return conn


def _configure(conn: psycopg.Connection[Any]) -> None:
    """Check the encoding, durability and lock limits, and create (or check) the schema."""
    try:
        encoding = _setting(conn, "server_encoding")
        if encoding != "UTF8":
            raise JournalError(f"the database's encoding is {encoding!r}, the journal needs UTF8")
        if _setting(conn, "synchronous_commit") == "off":
            conn.execute("SET synchronous_commit = on")
        for name, value in _SESSION_LIMITS:
            if _setting(conn, name) == "0":
                conn.execute("SELECT set_config(%s, %s, false)", (name, value))
        with conn.transaction():
            # Two processes opening a new database at once: the second waits, then finds it made.
            conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", _SCHEMA_LOCK)
            found = conn.execute("SELECT to_regclass('journal_schema') IS NOT NULL").fetchone()
            if not (found and found[0]):
                conn.execute(_SCHEMA)
                conn.execute("INSERT INTO journal_schema VALUES (%s)", (_SCHEMA_VERSION,))
            row = conn.execute("SELECT MAX(version) FROM journal_schema").fetchone()
            made = conn.execute("SELECT to_regproc('journal_append_v1') IS NOT NULL").fetchone()
            if row and row[0] == _SCHEMA_VERSION and not (made and made[0]):
                conn.execute(_APPEND_FUNCTION)
    except psycopg.Error as exc:
        raise JournalError(f"PostgreSQL: {exc}") from exc
    version = row[0] if row else None
    if version != _SCHEMA_VERSION:
        raise JournalError(f"journal schema version {version}, expected {_SCHEMA_VERSION}")


def _setting(conn: psycopg.Connection[Any], name: str) -> str | None:
    row = conn.execute("SELECT current_setting(%s)", (name,)).fetchone()
    return None if row is None else str(row[0])


_APPEND_CALL: LiteralString = (
    "SELECT * FROM journal_append_v1(%s, %s::int4[], %s::text[], %s::bigint[], %s::text[],"
    " %s::text[], %s::text[], %s::int4[], %s::text[], %s::text[], %s)"
)


def _append_arguments(batch: Sequence[AppendRequest], at: str) -> tuple[Any, ...]:
    """`journal_append_v1`'s arguments for a batch: the streams' lock keys in one fixed order (two
    hall rolls cannot deadlock), and each request's fields, its records flattened in order.
    A NUL, which PostgreSQL's TEXT cannot hold, is refused here with its field's name."""
    for request in batch:
        _refuse_nul(request.stream, "stream")
        for value, what in ((request.request_id or "", "request id"),
                            (request.author, "author")):
            _refuse_nul(value, what)
        for kind, _ in request.records:
            _refuse_nul(kind, "kind")
    keys = sorted({_lock_key(request.stream) for request in batch})
    return (
        _STREAM_LOCK_CLASS, keys,
        [request.stream for request in batch],
        [request.expected_seq for request in batch],
        [request.request_id for request in batch],
        [request.author for request in batch],
        [to_json(dict(request.answer or {})) for request in batch],
        [len(request.records) for request in batch],
        [kind for request in batch for kind, _ in request.records],
        [to_json(data) for request in batch for _, data in request.records],
        at,
    )


def _lock_key(stream: str) -> int:
    """The stream's advisory lock key: 32 bits of a hash (a shared key only serializes more)."""
    digest = hashlib.blake2b(stream.encode("utf-8"), digest_size=4).digest()
    return int.from_bytes(digest, "big", signed=True)


def _refuse_nul(value: str, what: str) -> None:
    """PostgreSQL's TEXT holds no NUL character; SQLite's does, so say it plainly."""
    if _NUL in value:
        raise ValueError(f"{what} {value!r}: PostgreSQL cannot store a NUL character")
