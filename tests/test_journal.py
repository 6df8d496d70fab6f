"""The journal contract, run against every backend, plus SQLite's and PostgreSQL's own guarantees.

A backend joins by adding an opener to BACKENDS; every contract test then runs against it too.
PostgreSQL runs on a real server the tests start themselves (tests/pg_server.py), a fresh schema
per store.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import partial
from itertools import islice
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pg_server import running

from companion.journal import (
    AppendRequest,
    AppendResult,
    Journal,
    JournalError,
    Record,
    SqliteJournal,
    StaleSequence,
)
from companion.journal import open_journal as open_at  # `open_journal` is this module's fixture

Opener = Callable[[], Journal]


def postgres_store(folder: Path) -> Opener:
    """The store (a fresh schema) that belongs to `folder` on the session's server, by its URL."""
    dsn = running().store_for(folder)
    return lambda: open_at(dsn)


# Each backend: given an empty folder of its own, a function that (re)opens one store.
# A backend whose name is a key of SERVERS needs that session fixture first.
BACKENDS: dict[str, Callable[[Path], Opener]] = {
    "sqlite": lambda folder: lambda: SqliteJournal(folder / "journal.sqlite3"),
    "postgres": postgres_store,
}
SERVERS = {"postgres": "postgres_server"}

ROLL = ("dice_rolled", {"dice": [3, 4]})
PAID = ("coins_transferred", {"from": "bank", "to": "ann", "amount": 2})


def start_server(request: pytest.FixtureRequest, backend: str) -> None:
    """Start the backend's server (once per session) if it has one."""
    if backend in SERVERS:
        request.getfixturevalue(SERVERS[backend])


@pytest.fixture(params=sorted(BACKENDS))
def backend(request: pytest.FixtureRequest) -> str:
    start_server(request, str(request.param))
    return str(request.param)


@pytest.fixture
def open_journal(backend: str, tmp_path: Path) -> Iterator[Opener]:
    """Opens the test's store, as often as a test likes; closes every one at the end."""
    opened: list[Journal] = []

    def open_() -> Journal:
        journal = BACKENDS[backend](tmp_path)()
        opened.append(journal)
        return journal

    yield open_
    for journal in opened:
        journal.close()


@pytest.fixture
def journal(open_journal: Opener) -> Journal:
    return open_journal()


def shape(records: list[Record]) -> list[tuple[str, int, str, dict[str, Any], str | None, str]]:
    """Records without their timestamps, for comparing with what a test expects."""
    return [(r.stream, r.seq, r.kind, r.data, r.request_id, r.author) for r in records]


# --- the contract -------------------------------------------------------------------------


def test_journal_empty_stream(journal: Journal) -> None:
    assert journal.last_seq("t1") == 0
    assert journal.read("t1") == []
    assert journal.streams() == []
    assert journal.answer_for("t1", "r1") is None


def test_journal_append_read_round_trip(journal: Journal) -> None:
    result = journal.append("t1", 0, [ROLL, PAID], request_id="r1", author="seat:ann")
    assert result == AppendResult(duplicate=False, answer={}, first_seq=1, last_seq=2)
    assert shape(journal.read("t1")) == [
        ("t1", 1, "dice_rolled", {"dice": [3, 4]}, "r1", "seat:ann"),
        ("t1", 2, "coins_transferred", PAID[1], "r1", "seat:ann"),
    ]


def test_journal_seq_numbering_per_stream(journal: Journal) -> None:
    journal.append("t1", 0, [ROLL])
    journal.append("t2", 0, [ROLL, PAID])
    result = journal.append("t1", 1, [PAID, ROLL, PAID])
    assert (result.first_seq, result.last_seq) == (2, 4)
    assert [r.seq for r in journal.read("t1")] == [1, 2, 3, 4]
    assert [r.seq for r in journal.read("t2")] == [1, 2]
    assert [r.seq for r in journal.read("t1", after_seq=2)] == [3, 4]
    assert (journal.last_seq("t1"), journal.last_seq("t2")) == (4, 2)
    assert journal.streams() == ["t1", "t2"]


def test_journal_last_seqs_of_many_streams_in_one_read(journal: Journal) -> None:
    assert journal.last_seqs([]) == {}
    assert journal.last_seqs(["t1"]) == {"t1": 0}
    journal.append("t1", 0, [ROLL])
    journal.append("t2", 0, [ROLL, PAID])
    journal.append("t1", 1, [PAID, ROLL])
    journal.append("ט3", 0, [ROLL])
    assert journal.last_seqs(["t2", "t1", "none", "t1", "ט3"]) == {
        "t1": 3, "t2": 2, "none": 0, "ט3": 1}
    assert journal.last_seqs(iter(["t2"])) == {"t2": journal.last_seq("t2")}


def test_journal_read_after_of_many_streams_as_read_gives_each(journal: Journal) -> None:
    assert journal.read_after({}) == {}
    journal.append("t1", 0, [ROLL, PAID])
    journal.append("t2", 0, [ROLL])
    journal.append("t1", 2, [ROLL])
    journal.append("ט3", 0, [PAID])
    after = {"t1": 1, "t2": 1, "ט3": 0, "none": 0, "bad\x00name": 0}
    assert journal.read_after(after) == {
        stream: journal.read(stream, seq) for stream, seq in after.items()}
    assert [r.seq for r in journal.read_after({"t1": 1})["t1"]] == [2, 3]


def test_journal_at_is_utc_iso_timestamp(journal: Journal) -> None:
    before = datetime.now(UTC)
    journal.append("t1", 0, [ROLL, PAID])
    first, second = journal.read("t1")
    at = datetime.fromisoformat(first.at)
    assert at.utcoffset() == timedelta(0)
    assert before - timedelta(seconds=1) <= at <= datetime.now(UTC) + timedelta(seconds=1)
    assert second.at == first.at  # one transaction, one moment


@pytest.mark.parametrize("expected_seq", [0, 2, -1])
def test_journal_stale_sequence_refused_and_nothing_written(
    journal: Journal, expected_seq: int
) -> None:
    journal.append("t1", 0, [ROLL])
    with pytest.raises(StaleSequence, match=rf"'t1'.*{expected_seq}.*1") as caught:
        journal.append("t1", expected_seq, [PAID], request_id="r1", answer={"ok": True})
    assert (caught.value.stream, caught.value.expected, caught.value.actual) == (
        "t1",
        expected_seq,
        1,
    )
    assert isinstance(caught.value, JournalError)
    assert shape(journal.read("t1")) == [("t1", 1, "dice_rolled", ROLL[1], None, "")]
    assert journal.answer_for("t1", "r1") is None


def test_journal_duplicate_request_returns_first_answer(journal: Journal) -> None:
    first = journal.append("t1", 0, [ROLL, PAID], request_id="r1", answer={"turn": 1})
    again = journal.append("t1", 0, [PAID], request_id="r1", answer={"turn": 99})
    later = journal.append("t1", 2, [ROLL], request_id="r1", answer={"turn": 99})
    assert first == AppendResult(False, {"turn": 1}, 1, 2)
    assert again == later == AppendResult(True, {"turn": 1}, 1, 2)
    assert journal.last_seq("t1") == 2
    assert journal.answer_for("t1", "r1") == {"turn": 1}


def test_journal_request_ids_are_per_stream(journal: Journal) -> None:
    journal.append("t1", 0, [ROLL], request_id="r1", answer={"table": 1})
    result = journal.append("t2", 0, [ROLL], request_id="r1", answer={"table": 2})
    assert not result.duplicate
    assert journal.answer_for("t1", "r1") == {"table": 1}
    assert journal.answer_for("t2", "r1") == {"table": 2}


def test_journal_duplicate_request_after_reopen(open_journal: Opener) -> None:
    with open_journal() as first:
        first.append("t1", 0, [ROLL], request_id="r1", answer={"coins": 3})
    with open_journal() as second:
        again = second.append("t1", 0, [ROLL], request_id="r1", answer={"coins": 0})
        assert again == AppendResult(True, {"coins": 3}, 1, 1)
        assert second.last_seq("t1") == 1
        assert second.answer_for("t1", "r1") == {"coins": 3}


def test_journal_append_many_commits_together(journal: Journal) -> None:
    journal.append("t2", 0, [ROLL])
    results = journal.append_many(
        [
            AppendRequest("t1", 0, [ROLL], request_id="roll-7", author="organizer"),
            AppendRequest("t2", 1, [ROLL, PAID], request_id="roll-7", author="organizer"),
        ]
    )
    assert results == [AppendResult(False, {}, 1, 1), AppendResult(False, {}, 2, 3)]
    assert [r.author for r in journal.read("t2")] == ["", "organizer", "organizer"]


def test_journal_append_many_all_or_nothing(journal: Journal) -> None:
    journal.append("t2", 0, [ROLL])
    batch = [
        AppendRequest("t1", 0, [ROLL], request_id="roll-7"),
        AppendRequest("t2", 0, [ROLL], request_id="roll-7"),  # stale: t2 is at 1
        AppendRequest("t3", 0, [ROLL], request_id="roll-7"),
    ]
    with pytest.raises(StaleSequence, match="'t2'"):
        journal.append_many(batch)
    assert journal.streams() == ["t2"]
    assert journal.last_seq("t2") == 1
    assert journal.answer_for("t1", "roll-7") is None


def test_journal_append_many_same_stream_in_order(journal: Journal) -> None:
    results = journal.append_many(
        [AppendRequest("t1", 0, [ROLL]), AppendRequest("t1", 1, [PAID], request_id="r")]
    )
    assert [(r.first_seq, r.last_seq) for r in results] == [(1, 1), (2, 2)]


def test_journal_append_many_empty_batch(journal: Journal) -> None:
    assert journal.append_many([]) == []


def test_journal_refuses_append_without_events(journal: Journal) -> None:
    with pytest.raises(ValueError, match="'t1'"):
        journal.append("t1", 0, [])
    assert journal.streams() == []


def test_journal_refuses_non_json_payload(journal: Journal) -> None:
    with pytest.raises(ValueError):
        journal.append("t1", 0, [("odd", {"x": float("nan")})])
    with pytest.raises(TypeError):
        journal.append("t1", 0, [ROLL, ("odd", {"x": object()})])
    assert journal.last_seq("t1") == 0


def test_journal_json_payload_round_trip(open_journal: Opener) -> None:
    data = {
        "name": "בית קפה",  # Hebrew: the café
        "nl": "Graanveld ĳ € — “quotes”",
        "emoji": "🎲🎲",
        "nested": {"list": [1, -2, 3.5, None, True, False, [], {}], "empty": ""},
        "control": "tab\t newline\n nul\x00",
        "big": 2**62,
    }
    with open_journal() as journal:
        journal.append("שולחן-1", 0, [("card_bought", data)], author="מושב 2", answer=data)
        assert journal.read("שולחן-1")[0].data == data
    with open_journal() as journal:
        record = journal.read("שולחן-1")[0]
        assert (record.stream, record.kind, record.data, record.author) == (
            "שולחן-1",
            "card_bought",
            data,
            "מושב 2",
        )
        assert journal.streams() == ["שולחן-1"]


def test_journal_reopen_reads_everything_back(open_journal: Opener) -> None:
    with open_journal() as journal:
        for table in ("t1", "t2", "t3"):
            for seq in range(5):
                journal.append(table, seq, [("turn_ended", {"turn": seq + 1})])
        written = {table: journal.read(table) for table in journal.streams()}
    with open_journal() as journal:
        assert journal.streams() == ["t1", "t2", "t3"]
        assert {table: journal.read(table) for table in journal.streams()} == written


def test_journal_closed_refuses_use(open_journal: Opener) -> None:
    journal = open_journal()
    journal.close()
    journal.close()
    with pytest.raises(JournalError, match="closed"):
        journal.read("t1")
    with pytest.raises(JournalError, match="closed"):
        journal.append("t1", 0, [ROLL])


@pytest.mark.parametrize("connections", ["shared", "separate"])
def test_journal_race_on_same_expected_seq(open_journal: Opener, connections: str) -> None:
    first = open_journal()
    journals = [first, first if connections == "shared" else open_journal()]
    for expected_seq in range(20):
        assert sorted(race(journals, expected_seq)) == ["stale", "won"]
    assert [r.seq for r in first.read("t1")] == list(range(1, 21))


def race(journals: list[Journal], expected_seq: int) -> list[str]:
    """Threads append at the same expected seq at the same moment; report who won."""
    barrier = threading.Barrier(len(journals))
    outcomes: list[str] = []

    def writer(journal: Journal, name: str) -> None:
        barrier.wait()
        try:
            journal.append("t1", expected_seq, [("built", {"by": name})], request_id=name)
            outcomes.append("won")
        except StaleSequence:
            outcomes.append("stale")

    threads = [
        threading.Thread(target=writer, args=(journal, f"{expected_seq}-{i}"))
        for i, journal in enumerate(journals)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_journal_race_same_request_id_answers_duplicate(open_journal: Opener) -> None:
    """Two processes commit one phone's retried move at once: one writes, one is told "done"."""
    journals = [open_journal(), open_journal()]
    for n in range(10):
        outcomes = at_once(
            partial(journal.append, "t1", n, [("built", {"by": i})], request_id=f"r{n}",
                    answer={"by": i})
            for i, journal in enumerate(journals)
        )
        first, again = sorted(outcomes, key=lambda result: bool(result.duplicate))
        assert (first.duplicate, first.first_seq, first.last_seq) == (False, n + 1, n + 1)
        assert again == replace(first, duplicate=True)
    assert journals[1].last_seq("t1") == 10


def test_journal_race_append_many_in_opposite_orders(open_journal: Opener) -> None:
    """Two hall rolls over the same tables, listed in opposite orders: one wins, neither hangs."""
    journals = [open_journal(), open_journal()]
    streams = ["t1", "t2", "t3"]
    for n in range(10):
        outcomes = at_once(
            partial(journal.append_many, [AppendRequest(s, n, [ROLL]) for s in order])
            for journal, order in zip(journals, (streams, streams[::-1]), strict=True)
        )
        assert sorted(type(o).__name__ for o in outcomes) == ["StaleSequence", "list"]
    assert [journals[0].last_seq(s) for s in streams] == [10, 10, 10]


def at_once(calls: Iterable[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released together; each one's result, or what it raised."""
    calls = list(calls)
    barrier = threading.Barrier(len(calls))
    outcomes: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        try:
            outcomes[i] = calls[i]()
        except Exception as error:  # noqa: BLE001 - the test compares what came out
            outcomes[i] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


# --- random histories against a model ----------------------------------------------------

Row = tuple[str, int, str, dict[str, Any], str | None, str]


@dataclass
class Model:
    """The journal's meaning in a few lines: lists of rows and a dict of first results."""

    rows: dict[str, list[Row]] = field(default_factory=dict)
    firsts: dict[tuple[str, str], AppendResult] = field(default_factory=dict)

    def append_many(self, batch: list[AppendRequest]) -> list[AppendResult]:
        """All or nothing: work on a copy, keep it only if every request went through."""
        trial = Model({s: list(rows) for s, rows in self.rows.items()}, dict(self.firsts))
        results = [trial.append_one(request) for request in batch]
        self.rows, self.firsts = trial.rows, trial.firsts
        return results

    def append_one(self, request: AppendRequest) -> AppendResult:
        stream, rid = request.stream, request.request_id
        if rid is not None and (stream, rid) in self.firsts:
            return self.firsts[(stream, rid)]
        rows = self.rows.get(stream, [])
        if len(rows) != request.expected_seq:
            raise StaleSequence(stream, request.expected_seq, len(rows))
        for kind, data in request.records:
            rows.append((stream, len(rows) + 1, kind, dict(data), rid, request.author))
        self.rows[stream] = rows
        answer = dict(request.answer or {})
        result = AppendResult(False, answer, request.expected_seq + 1, len(rows))
        if rid is not None:
            self.firsts[(stream, rid)] = replace(result, duplicate=True)
        return result

    def last_seq(self, stream: str) -> int:
        return len(self.rows.get(stream, []))


def outcome(append: Callable[..., list[AppendResult]], *args: Any) -> list[AppendResult] | str:
    """The results of an append, or the text of the StaleSequence it raised."""
    try:
        return append(*args)
    except StaleSequence as error:
        return str(error)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=6,
)
event_lists = st.lists(
    st.tuples(
        st.sampled_from(["rolled", "paid", "built"]),
        st.dictionaries(st.text(max_size=4), json_values, max_size=3),
    ),
    min_size=1,
    max_size=3,
)
# One append_many: per request a stream, an offset from its true last seq (0 = up to date),
# events, and a request id drawn from a small pool so that duplicates happen often.
batches = st.lists(
    st.tuples(
        st.sampled_from(["t1", "t2", "ט3"]),
        st.sampled_from([0, 0, 0, -1, 1]),
        event_lists,
        st.sampled_from([None, "r1", "r2", "r3"]),
    ),
    min_size=1,
    max_size=3,
)


@pytest.mark.parametrize("backend", sorted(BACKENDS))  # a plain value: a new store per example
@settings(max_examples=60, deadline=None)
@given(history=st.lists(batches, max_size=12))
def test_journal_matches_model(
    request: pytest.FixtureRequest, backend: str, history: list[list[Any]]
) -> None:
    start_server(request, backend)
    with tempfile.TemporaryDirectory() as folder, BACKENDS[backend](Path(folder))() as journal:
        model = Model()
        for n, specs in enumerate(history):
            batch = [
                AppendRequest(stream, model.last_seq(stream) + offset, evs, rid, f"a{n}", {"n": n})
                for stream, offset, evs, rid in specs
            ]
            assert outcome(apply, journal, batch) == outcome(model.append_many, batch)
        assert journal.streams() == sorted(model.rows)
        for stream, rows in model.rows.items():
            assert shape(journal.read(stream)) == rows
            for rid in ("r1", "r2", "r3"):
                first = model.firsts.get((stream, rid))
                assert journal.answer_for(stream, rid) == (first and first.answer)


def apply(journal: Journal, batch: list[AppendRequest]) -> list[AppendResult]:
    """A batch of one goes through append, so both entry points meet the model."""
    if len(batch) > 1:
        return journal.append_many(batch)
    (one,) = batch
    return [
        journal.append(
            one.stream,
            one.expected_seq,
            one.records,
            request_id=one.request_id,
            author=one.author,
            answer=one.answer,
        )
    ]


# --- SQLite's own guarantees --------------------------------------------------------------

# The child appends forever and prints each seq only after append has returned.
CRASH_CHILD = """
import sys
from companion.journal import SqliteJournal

journal = SqliteJournal(sys.argv[1])
seq = journal.last_seq("t1")
while True:
    journal.append("t1", seq, [("rolled", {"dice": [seq % 6 + 1]})], request_id=f"r{seq}")
    seq += 1
    print(seq, flush=True)
"""


def test_journal_sqlite_acknowledged_appends_survive_sigkill(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    acknowledged: list[int] = []
    for kill in range(6):
        acknowledged += run_and_kill(path, after=5 + 7 * kill)
    with SqliteJournal(path) as journal:
        seqs = [r.seq for r in journal.read("t1")]
    assert seqs == list(range(1, len(seqs) + 1))
    assert set(acknowledged) <= set(seqs)
    # A kill between commit and print leaves a seq written but never acknowledged; fine.
    assert acknowledged == sorted(set(acknowledged))
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    raw.close()


def run_and_kill(path: Path, after: int) -> list[int]:
    """Start the child, SIGKILL it once it acknowledged `after` appends; every seq it printed."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    command = [sys.executable, "-c", CRASH_CHILD, str(path)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env) as child:
        assert child.stdout is not None
        printed = [int(line) for line in islice(child.stdout, after)]
        time.sleep(after % 4 / 1000)  # land the kill at different points of an append
        child.send_signal(signal.SIGKILL)
        printed += [int(line) for line in child.stdout.read().split()]
        assert child.wait() == -signal.SIGKILL
    return printed


def test_journal_sqlite_pragmas(tmp_path: Path) -> None:
    with SqliteJournal(tmp_path / "j.sqlite3") as journal:
        conn = journal._conn  # noqa: SLF001 - checking the settings of the one connection
        assert conn is not None
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert conn.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
        assert conn.execute("PRAGMA foreign_keys").fetchone() == (1,)
        assert conn.execute("PRAGMA fullfsync").fetchone() == (1,)


def test_journal_sqlite_file_refuses_update_delete_and_second_writer(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with SqliteJournal(path) as journal:
        journal.append("t1", 0, [ROLL], request_id="r1")
    raw = sqlite3.connect(path)
    try:
        for sql in (
            "UPDATE events SET kind = 'x'",
            "DELETE FROM events",
            "UPDATE requests SET answer = '{}'",
            "DELETE FROM requests",
        ):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                raw.execute(sql)
        with pytest.raises(sqlite3.IntegrityError, match="UNIQUE|PRIMARY"):
            raw.execute("INSERT INTO events VALUES ('t1', 1, 'k', '{}', NULL, '', 'now')")
        with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
            raw.execute("INSERT INTO requests VALUES ('t1', 'r1', '{}', 1, 1)")
    finally:
        raw.close()


def test_journal_sqlite_refuses_file_it_cannot_trust(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="WAL"):
        SqliteJournal(":memory:")
    path = tmp_path / "future.sqlite3"
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA user_version = 99")
    raw.close()
    with pytest.raises(JournalError, match="version 99"):
        SqliteJournal(path)
