"""PostgreSQL's own guarantees, beyond the contract that tests/test_journal.py runs on it:
writers in separate processes, the schema made once, append-only tables, the database's
collation and encoding, a dropped connection, and `--db` choosing the backend by URL."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psycopg
import pytest
from pg_server import PgServer, free_port, require_binaries

from companion.journal import JournalError, SqliteJournal, StaleSequence, open_journal
from companion.journal.interface import to_json
from companion.journal.postgres import PostgresJournal

ROLL = ("dice_rolled", {"dice": [3, 4]})
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def store(postgres_server: PgServer) -> str:
    """The DSN of a fresh, empty store."""
    return postgres_server.create_store()


@pytest.fixture
def journal(store: str) -> Iterator[PostgresJournal]:
    with PostgresJournal(store) as journal:
        yield journal


def raw(dsn: str) -> Any:
    """A plain autocommit connection to the same store, for looking under the journal."""
    return psycopg.connect(dsn, autocommit=True)


# --- several processes --------------------------------------------------------------------

# Each child appends COUNT events to t1, reloading its seq whenever the other one got there
# first, and resends every request id once (as a phone that lost its ack does).
WRITER_CHILD = """
import sys
from companion.journal import StaleSequence, open_journal

dsn, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
stale = 0
with open_journal(dsn) as journal:
    print("ready", flush=True)
    sys.stdin.readline()
    for i in range(count):
        while True:
            try:
                seq = journal.last_seq("t1")
                journal.append("t1", seq, [("built", {"by": name, "n": i})], request_id=f"{name}-{i}")
                break
            except StaleSequence:
                stale += 1
        again = journal.append("t1", 0, [("built", {})], request_id=f"{name}-{i}")
        assert again.duplicate and again.first_seq == again.last_seq, again
print("stale", stale, flush=True)
"""


def test_journal_postgres_two_processes_append_to_one_stream(store: str) -> None:
    count = 150
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    children = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER_CHILD, store, name, str(count)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
        )
        for name in ("a", "b")
    ]
    for child in children:  # both connected: start them together
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
    for child in children:
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
    for child in children:
        out, _ = child.communicate(timeout=120)
        assert child.returncode == 0 and out.startswith("stale "), out
    with PostgresJournal(store) as journal:
        records = journal.read("t1")
    assert [r.seq for r in records] == list(range(1, 2 * count + 1))
    for name in ("a", "b"):
        mine = [r for r in records if r.data["by"] == name]
        assert [r.data["n"] for r in mine] == list(range(count))
        assert [r.request_id for r in mine] == [f"{name}-{i}" for i in range(count)]


def test_journal_postgres_holding_keeps_other_writers_off_until_the_block_ends(
    store: str,
) -> None:
    """A hall roll on several processes holds its streams from its catch-up to its append
    (issue 15): another connection's append to one of them waits for the block, then finds
    the stream moved on; a stream the block does not hold is written at once."""
    with PostgresJournal(store) as holder, PostgresJournal(store) as other, \
            PostgresJournal(store) as third:
        with ThreadPoolExecutor(2) as pool:
            with holder.holding(["t1", "t2"]):
                waiting = pool.submit(other.append, "t1", 0, [ROLL])
                free = pool.submit(third.append, "t3", 0, [ROLL])
                assert free.result(5).last_seq == 1
                time.sleep(0.3)
                assert not waiting.done()
                assert holder.last_seq("t1") == 0
                holder.append_many([])  # the journal's own calls still run in the block
                assert holder.append("t1", 0, [ROLL, ROLL]).last_seq == 2
            with pytest.raises(StaleSequence):
                waiting.result(5)
        assert [r.seq for r in other.read("t1")] == [1, 2]
        with pytest.raises(RuntimeError), holder.holding(["t2"]):
            holder.append("t2", 0, [ROLL])
            raise RuntimeError("the block failed")
        assert other.last_seq("t2") == 0  # what a failed block wrote is rolled back


def test_journal_postgres_schema_made_once_by_racing_openers(postgres_server: PgServer) -> None:
    dsn = postgres_server.create_database()  # brand new, as on an event's first start
    barrier = threading.Barrier(6)

    def open_together() -> PostgresJournal:
        barrier.wait()
        return PostgresJournal(dsn)

    with ThreadPoolExecutor(6) as pool:
        futures = [pool.submit(open_together) for _ in range(6)]
    opened = [f.result() for f in futures if f.exception() is None]
    try:
        assert [f.exception() for f in futures] == [None] * 6
        opened[0].append("t1", 0, [ROLL])
        assert [journal.last_seq("t1") for journal in opened] == [1] * 6
    finally:
        for journal in opened:
            journal.close()
    with raw(dsn) as conn:
        assert conn.execute("SELECT version FROM journal_schema").fetchall() == [(1,)]


# --- the tables -----------------------------------------------------------------------------


def test_journal_postgres_tables_refuse_update_delete_truncate_and_overwrite(
    journal: PostgresJournal, store: str
) -> None:
    journal.append("t1", 0, [ROLL], request_id="r1")
    with raw(store) as conn:
        for sql in (
            "UPDATE events SET kind = 'x'",
            "DELETE FROM events",
            "TRUNCATE events CASCADE",
            "UPDATE requests SET answer = '{}'",
            "DELETE FROM requests",
            "TRUNCATE requests",
        ):
            with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
                conn.execute(sql)
        with pytest.raises(psycopg.errors.UniqueViolation):
            conn.execute("INSERT INTO events VALUES ('t1', 1, 'k', '{}', NULL, '', 'now')")
        with pytest.raises(psycopg.errors.UniqueViolation):
            conn.execute("INSERT INTO requests VALUES ('t1', 'r1', '{}', 1, 1)")


def test_journal_postgres_writer_that_skips_the_lock_meets_the_primary_key(
    journal: PostgresJournal, store: str
) -> None:
    """Another program inserts seq 1 without the stream lock while an append waits on the key:
    the append is decided again and comes out stale, not as an integrity error."""
    assert journal._conn is not None  # noqa: SLF001
    pid = journal._conn.info.backend_pid  # noqa: SLF001
    with raw(store) as other, ThreadPoolExecutor(1) as pool:
        other.execute("BEGIN")
        other.execute("INSERT INTO events VALUES ('t1', 1, 'k', '{}', NULL, 'other', 'now')")
        pending = pool.submit(journal.append, "t1", 0, [ROLL])
        with raw(store) as watch:
            deadline = time.monotonic() + 10
            while watch.execute(
                "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", (pid,)
            ).fetchone() != ("Lock",):
                assert time.monotonic() < deadline, "the append never waited on the key"
                time.sleep(0.01)
        other.execute("COMMIT")
        with pytest.raises(StaleSequence) as caught:
            pending.result(timeout=10)
    assert (caught.value.expected, caught.value.actual) == (0, 1)
    assert [r.author for r in journal.read("t1")] == ["other"]


def test_journal_postgres_stores_the_same_json_text_as_sqlite(
    journal: PostgresJournal, store: str, tmp_path: Path
) -> None:
    data = {"z": 1, "a": {"nul": "\x00", "he": "בית קפה"}, "big": 2**62, "f": 1.0}
    journal.append("t1", 0, [("card_bought", data)], request_id="r1", answer=data)
    with SqliteJournal(tmp_path / "j.sqlite3") as lite:
        lite.append("t1", 0, [("card_bought", data)], request_id="r1", answer=data)
        lite_data = lite._conn.execute("SELECT data FROM events").fetchone()  # noqa: SLF001
    with raw(store) as conn:
        stored = conn.execute("SELECT data FROM events").fetchone()
        assert stored == lite_data == (to_json(data),)  # key order kept: not jsonb
        answer = conn.execute("SELECT answer FROM requests").fetchone()
        assert answer == (to_json(data),)
    assert journal.read("t1")[0].data == data
    assert journal.answer_for("t1", "r1") == data


def test_journal_postgres_refuses_nul_in_names(journal: PostgresJournal) -> None:
    for stream, kwargs in (("t\x00", {}), ("t1", {"request_id": "r\x00"}), ("t1", {"author": "a\x00"})):
        with pytest.raises(ValueError, match="NUL"):
            journal.append(stream, 0, [ROLL], **kwargs)
    with pytest.raises(ValueError, match="NUL"):
        journal.append("t1", 0, [("k\x00", {})])
    assert journal.streams() == []
    assert journal.read("t\x00") == [] and journal.last_seq("t\x00") == 0
    assert journal.answer_for("t1", "r\x00") is None


def test_journal_postgres_streams_in_code_point_order_whatever_the_collation(
    postgres_server: PgServer,
) -> None:
    name = "journal_icu"
    with raw(postgres_server.admin_dsn) as conn:
        conn.execute(
            f"CREATE DATABASE {name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US'"
            " LOCALE 'C.UTF-8'"
        )
    names = ["b", "B", "a", "ט3", "10", "9", "Á"]
    with PostgresJournal(postgres_server.dsn(name)) as journal:
        for stream in names:
            journal.append(stream, 0, [ROLL])
        assert journal.streams() == sorted(names)


def test_journal_postgres_refuses_a_schema_it_cannot_trust(store: str) -> None:
    PostgresJournal(store).close()
    with raw(store) as conn:
        conn.execute("UPDATE journal_schema SET version = 99")
    with pytest.raises(JournalError, match="version 99"):
        PostgresJournal(store)


def test_journal_postgres_refuses_a_database_not_in_utf8(postgres_server: PgServer) -> None:
    with raw(postgres_server.admin_dsn) as conn:
        conn.execute("CREATE DATABASE journal_ascii TEMPLATE template0 ENCODING 'SQL_ASCII'")
    with pytest.raises(JournalError, match="UTF8"):
        PostgresJournal(postgres_server.dsn("journal_ascii"))


def test_journal_postgres_session_is_durable_and_bounds_lock_waits(store: str) -> None:
    """synchronous_commit=off is turned back on; the DSN's own limits are kept, others set."""
    dsn = f"{store}%20-c%20synchronous_commit%3Doff%20-c%20lock_timeout%3D3s"
    with PostgresJournal(dsn) as journal:
        conn = journal._conn  # noqa: SLF001 - checking the settings of the one connection
        assert conn is not None
        settings = ("synchronous_commit", "lock_timeout", "idle_in_transaction_session_timeout")
        shown = [conn.execute(f"SHOW {name}").fetchone() for name in settings]
        assert shown == [("on",), ("3s",), ("10s",)]


# --- the connection -------------------------------------------------------------------------


def test_journal_postgres_unreachable_server_is_a_journal_error() -> None:
    with pytest.raises(JournalError, match="cannot connect"):
        PostgresJournal(f"postgresql://postgres@127.0.0.1:{free_port()}/none?connect_timeout=3")


def test_journal_postgres_connects_again_after_the_server_dropped_it(
    journal: PostgresJournal, store: str
) -> None:
    journal.append("t1", 0, [ROLL])
    assert journal._conn is not None  # noqa: SLF001
    pid = journal._conn.info.backend_pid  # noqa: SLF001
    with raw(store) as conn:
        assert conn.execute("SELECT pg_terminate_backend(%s, 5000)", (pid,)).fetchone() == (True,)
    with pytest.raises(JournalError, match="PostgreSQL"):
        journal.read("t1")
    assert journal.append("t1", 1, [ROLL]).last_seq == 2
    assert [r.seq for r in journal.read("t1")] == [1, 2]


def test_journal_postgres_closed_stays_closed(store: str) -> None:
    journal = PostgresJournal(store)
    journal.close()
    with pytest.raises(JournalError, match="closed"):
        journal.streams()


# --- choosing the backend -------------------------------------------------------------------


@pytest.mark.parametrize("scheme", ["postgresql", "postgres", "PostgreSQL"])
def test_open_journal_opens_postgres_for_its_urls(store: str, scheme: str) -> None:
    url = scheme + store.removeprefix("postgresql")
    with open_journal(url) as journal:
        assert isinstance(journal, PostgresJournal)
        journal.append("t1", 0, [ROLL])
    with PostgresJournal(store) as again:
        assert again.last_seq("t1") == 1


def test_open_journal_sqlite_path_never_imports_psycopg(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from companion.journal import SqliteJournal, open_journal\n"
        "import companion.web\n"
        "for target in (sys.argv[1], Path(sys.argv[1])):\n"
        "    with open_journal(target) as journal:\n"
        "        assert isinstance(journal, SqliteJournal)\n"
        "assert 'psycopg' not in sys.modules, 'psycopg imported'\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "postgresql.db")],
        capture_output=True, text=True, env=env, timeout=60,
    )
    assert done.returncode == 0, done.stderr


def test_create_app_serves_from_postgres_by_url(store: str) -> None:
    """`companion serve --db postgresql://...`: two processes' apps share one organizer key."""
    from companion.web import create_app, hall_service

    apps = [create_app({"DATABASE": store, "TESTING": True}) for _ in range(2)]
    try:
        first, second = (hall_service(app) for app in apps)
        assert isinstance(first.journal, PostgresJournal)
        assert first.organizer_key == second.organizer_key
        assert apps[0].secret_key == apps[1].secret_key
    finally:
        for app in apps:
            hall_service(app).journal.close()


# --- the test server ------------------------------------------------------------------------


@pytest.mark.parametrize(("ci", "outcome"), [("true", pytest.fail.Exception), ("", pytest.skip.Exception)])
def test_pg_server_without_binaries_fails_in_ci_and_skips_elsewhere(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, ci: str, outcome: type[BaseException]
) -> None:
    monkeypatch.setenv("COMPANION_PG_BIN", str(tmp_path))  # a folder without initdb
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="apt-get install postgresql"):
        require_binaries()


def test_journal_postgres_opens_for_a_role_that_may_only_read_and_write_the_tables(
        postgres_server: PgServer) -> None:
    """The append's function (`journal_append_v1`, issue 24) is made once, by the first opener
    (the database's owner); a server whose role may only read and append opens the journal
    and appends, as before the function existed (review: it was made again on every open)."""
    store = postgres_server.create_database()
    PostgresJournal(store).close()
    name = store.rsplit("/", 1)[1]
    role = f"app_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(store, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN".encode())
        conn.execute(f"GRANT CONNECT ON DATABASE {name} TO {role}".encode())
        conn.execute(f"GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA public TO {role}".encode())
    with PostgresJournal(store.replace("postgres@", f"{role}@")) as journal:
        assert journal.append("table:1", 0, [("a", {"x": 1})], author="me").last_seq == 1
        assert [r.data for r in journal.read("table:1")] == [{"x": 1}]
