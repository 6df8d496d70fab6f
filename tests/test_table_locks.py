"""Moves at different tables do not wait for each other (issue 24, DESIGN.md one move, 6): a
move holds only its table's lock across its journal round trip (hall/locks.py), and the
PostgreSQL journal runs appends of different tables on connections of their own.

Real PostgreSQL (tests/pg_server.py): another connection holds table A's append lock (the
advisory lock every append of that stream takes), so A's move is inside its journal round
trip, waiting in the database, while table B's move is made and answered.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from companion.hall import HallService
from companion.hall.locks import StreamLocks
from companion.journal import open_journal
from companion.journal.postgres import _STREAM_LOCK_CLASS, _lock_key

DICE = {"kind": "dice_count", "count": 1}  # a seat's dice setting: always its to make


@pytest.fixture
def hall(postgres_server) -> Iterator[tuple[HallService, str]]:
    dsn = postgres_server.create_store()
    service = HallService(open_journal(dsn))
    try:
        yield service, dsn
    finally:
        service.journal.close()


def two_tables(hall: HallService) -> tuple[list[str], list[str]]:
    event = hall.create_event("Night")
    tokens = []
    for name in ("A", "B"):
        table = hall.create_table(event.id, name, ["Ann", "Bob"], roll_mode="own")
        hall.set_status(table.id, "start")
        tokens.append([seat.token for seat in table.seats])
    return tokens[0], tokens[1]


class HeldStream:
    """Another connection holding a stream's append lock, as a slow writer would."""

    def __init__(self, dsn: str, stream: str) -> None:
        self.conn = psycopg.connect(dsn, autocommit=True)
        self.key = _lock_key(stream)
        self.conn.execute("SELECT pg_advisory_lock(%s, %s)", (_STREAM_LOCK_CLASS, self.key))

    def waiters(self) -> int:
        """Connections waiting in the database for this lock (a move inside its round trip)."""
        row = self.conn.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            " AND objsubid = 2 AND classid = (%s::bigint & 4294967295)::text::oid"
            " AND objid = (%s::bigint & 4294967295)::text::oid",
            (_STREAM_LOCK_CLASS, self.key)).fetchone()
        return int(row[0]) if row else 0

    def release(self) -> None:
        self.conn.execute("SELECT pg_advisory_unlock(%s, %s)", (_STREAM_LOCK_CLASS, self.key))
        self.conn.close()


def in_thread(call) -> tuple[threading.Thread, dict]:
    out: dict = {}
    thread = threading.Thread(target=lambda: out.setdefault("answer", call()), daemon=True)
    thread.start()
    return thread, out


def wait_until(check, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_table_locks_a_move_at_b_is_answered_while_a_move_at_a_is_in_its_round_trip(hall):
    service, dsn = hall
    (a, _), (b, _) = two_tables(service)
    table_a, table_b = service.seat_for(a)[0], service.seat_for(b)[0]
    seq_a, seq_b = table_a.seq, table_b.seq
    held = HeldStream(dsn, table_a.stream)
    try:
        thread, out = in_thread(lambda: service.move(a, "a1", DICE))
        wait_until(lambda: held.waiters() == 1)  # A's append waits inside the database

        answer = service.move(b, "b1", DICE)  # B: answered meanwhile, on another connection

        assert answer == {"ok": True}
        assert table_b.seq == seq_b + 1
        assert thread.is_alive() and "answer" not in out and table_a.seq == seq_a
    finally:
        held.release()
    thread.join(10)
    assert out["answer"] == {"ok": True}  # A commits once its lock is free
    assert table_a.seq == seq_a + 1
    assert service.move(a, "a1", DICE) == {"ok": True}  # the same request: answered, not applied
    assert table_a.seq == seq_a + 1
    assert service.streams.held() == 0


def test_table_locks_a_second_move_at_the_same_table_waits_for_the_first(hall):
    service, dsn = hall
    (a, a2), _ = two_tables(service)
    table_a = service.seat_for(a)[0]
    seq_a = table_a.seq
    held = HeldStream(dsn, table_a.stream)
    try:
        first, out1 = in_thread(lambda: service.move(a, "a1", DICE))
        wait_until(lambda: held.waiters() == 1)
        second, out2 = in_thread(lambda: service.move(a2, "a2", DICE, seq=seq_a))
        time.sleep(0.3)  # the second waits for the table's lock, not in the database
        assert held.waiters() == 1 and "answer" not in out2
    finally:
        held.release()
    first.join(10)
    second.join(10)
    assert out1["answer"] == {"ok": True}
    # decided after the first committed, on the table as it is then: another seat's dice
    # setting does not make it stale, and both are in the journal in turn
    assert out2["answer"] == {"ok": True}
    assert table_a.seq == seq_a + 2
    assert [r.seq for r in service.journal.read(table_a.stream, seq_a)] == [seq_a + 1, seq_a + 2]


def test_table_locks_a_lock_is_dropped_when_nobody_holds_it():
    locks = StreamLocks()
    with locks.hold(["table:2", "table:1"]), locks.hold(["table:1"]):
        assert locks.held() == 2
    assert locks.held() == 0


def holders() -> tuple[StreamLocks, list[str], threading.Event, threading.Event, Any]:
    """Locks, the order their holders got in, and `hold(name, streams, started=None)`: a
    holder that notes its name once it holds; given `started`, it sets it and keeps the
    locks until `let_go` is set."""
    locks, order = StreamLocks(), []
    first_in, let_go = threading.Event(), threading.Event()

    def hold(name: str, streams: list[str], started: threading.Event | None = None) -> None:
        with locks.hold(streams):
            if started is not None:
                started.set()
                let_go.wait(10)
            order.append(name)

    return locks, order, first_in, let_go, hold


def test_table_locks_a_waiting_holder_is_served_before_later_comers():
    """A hall roll waiting for a table's lock gets it once the move in flight lets go, before
    moves that asked after it (no newcomer takes the lock between release and wake-up)."""
    locks, order, first_in, let_go, hold = holders()
    move = threading.Thread(target=hold, args=("move", ["table:1"], first_in))
    move.start()
    first_in.wait(10)
    roll = threading.Thread(target=hold, args=("roll", ["event:1", "table:1", "table:2"]))
    roll.start()
    # the roll holds event:1 and table:2 and waits for table:1
    wait_until(lambda: locks.held() == 3)
    time.sleep(0.05)
    later = [threading.Thread(target=hold, args=(f"later{n}", ["table:1"])) for n in range(5)]
    for thread in later:
        thread.start()
    time.sleep(0.1)
    let_go.set()
    for thread in (move, roll, *later):
        thread.join(10)
    assert order[:2] == ["move", "roll"] and sorted(order[2:]) == [f"later{n}" for n in range(5)]
    assert locks.held() == 0


def test_table_locks_a_roll_joins_every_tables_line_at_once():
    """A hall roll holding many tables asks for all of them in one step: while it waits for
    the move in flight at one table, a move that comes later at a table further on waits for
    the roll instead of taking its table first (a roll of 275 tables would otherwise wait for
    one move after another, holding the tables it has: the hall at 100 moves/s stalled)."""
    locks, order, first_in, let_go, hold = holders()
    move = threading.Thread(target=hold, args=("move at 1", ["table:1"], first_in))
    move.start()
    first_in.wait(10)
    roll = threading.Thread(target=hold, args=("roll", ["event:1", "table:1", "table:2"]))
    roll.start()
    wait_until(lambda: locks.held() == 3)  # event:1 and table:2 held, table:1 waited for
    later = threading.Thread(target=hold, args=("later at 2", ["table:2"]))
    later.start()
    time.sleep(0.1)
    assert order == []  # the later move waits for the roll, which waits for the move at 1
    let_go.set()
    for thread in (move, roll, later):
        thread.join(10)
    assert order == ["move at 1", "roll", "later at 2"]
    assert locks.held() == 0
