"""Several server processes on one PostgreSQL journal and one Redis message queue (issue 15,
docs/scaling.md): the journal is the truth of each table.

Two kinds of test. Two `HallService`s on one PostgreSQL store stand for two processes, to
check the service's rules quickly (catch-up, stale appends decided again, duplicates, ids,
the organizer key, a reassigned seat's old token). Then two real `companion serve` processes
with `--message-queue` on a real Redis and phones (python-socketio clients): a move on one is
seen by a phone on the other, a hall roll covers tables served by both, a SIGKILL under load
loses no acknowledged move and its phones reconnect to the other, a reassigned seat's old
token is refused on both. Redis and PostgreSQL come from Debian's packages (scripts/test.sh
installs them); without them these tests skip, except in CI where they fail.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import socketio
from pg_server import PgServer
from serverproc import ServerProcess, free_port, http_json, organizer_key

from companion.hall import HallError, HallService
from companion.hall.replay import rebuild_table
from companion.journal import open_journal

# ---------------------------------------------------------------- Redis


class RedisServer:
    """`redis-server` on a free port of 127.0.0.1, nothing saved, in a folder of its own."""

    def __init__(self, binary: str) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="companion-redis-"))
        self.port = free_port()
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.root)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import redis

        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis(port=self.port, socket_connect_timeout=1).ping()
                break
            except redis.ConnectionError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    binary = shutil.which("redis-server")
    missing = None if binary else "redis-server is not installed: apt-get install redis-server"
    try:
        import redis  # noqa: F401 - python-socketio's RedisManager needs it
    except ImportError:
        missing = "the redis package is not installed: pip install redis"
    if missing:
        if os.environ.get("CI"):
            pytest.fail(missing, pytrace=False)
        pytest.skip(missing)
    assert binary is not None
    server = RedisServer(binary)
    try:
        yield server
    finally:
        server.stop()


# ---------------------------------------------------------------- two services, one journal


@pytest.fixture
def two_halls(postgres_server: PgServer) -> Iterator[tuple[HallService, HallService]]:
    dsn = postgres_server.create_store()
    a = HallService(open_journal(dsn))
    b = HallService(open_journal(dsn))
    try:
        yield a, b
    finally:
        a.journal.close()
        b.journal.close()


def running_table(hall: HallService, roll_mode: str = "own") -> tuple[str, list[str]]:
    event = hall.create_event("Night")
    table = hall.create_table(event.id, "T", ["Ann", "Bob", "Cy", "Di"], roll_mode=roll_mode)
    hall.set_status(table.id, "start")
    return table.id, [seat.token for seat in table.seats]


def test_both_processes_share_one_organizer_key_and_see_each_others_ids(two_halls):
    a, b = two_halls
    assert a.shared and b.shared and a.organizer_key == b.organizer_key
    first = a.create_event("One")
    second = b.create_event("Two")  # B's memory has no event 1: the journal's id clash says so
    assert (first.id, second.id) == ("1", "2")
    ta = a.create_table(first.id, "A", ["Ann", "Bob"])
    tb = b.create_table(second.id, "B", ["Cy", "Di"])
    assert (ta.id, tb.id) == ("1", "2")
    assert a.table("2").name == "B" and b.event("1").name == "One"  # found on a miss


def test_a_move_on_one_process_is_caught_up_by_the_other(two_halls):
    a, b = two_halls
    table_id, tokens = running_table(a)
    assert b.move(tokens[0], "r1", {"kind": "roll"})["ok"]  # B finds the token in the journal
    seq = b.tables[table_id].seq
    assert a.tables[table_id].seq < seq
    table, seat = a.seat_for(tokens[0])  # a seat's look-up catches its table up
    assert table.seq == seq and table.state == b.tables[table_id].state


def test_a_stale_append_is_decided_again_on_the_table_as_the_journal_has_it(two_halls):
    a, b = two_halls
    table_id, tokens = running_table(a)
    b.table(table_id)
    assert a.move(tokens[0], "r1", {"kind": "roll"})["ok"]
    behind = b.tables[table_id].seq
    # B skips its look-up before deciding: its append finds the stream moved on
    original = b.catch_up
    b.catch_up = lambda table: table  # type: ignore[method-assign]
    try:
        answer = b.move(tokens[1], "r2", {"kind": "dice_count", "count": 1})
    finally:
        b.catch_up = original  # type: ignore[method-assign]
    assert answer["ok"], answer  # decided again on the table as the journal has it
    journal = rebuild_table(b.journal.read(f"table:{table_id}"))
    assert b.tables[table_id].seq == journal.seq > behind
    assert b.tables[table_id].state == journal.state


def test_a_request_another_process_committed_is_answered_and_not_applied_twice(two_halls):
    a, b = two_halls
    table_id, tokens = running_table(a)
    assert a.move(tokens[0], "same", {"kind": "roll"})["ok"]
    moves = len(rebuild_table(a.journal.read(f"table:{table_id}")).moves)
    assert b.move(tokens[0], "same", {"kind": "roll"})["ok"]
    assert len(b.tables[table_id].moves) == moves
    assert b.tables[table_id].state == a.tables[table_id].state


def test_a_reassigned_seat_is_refused_on_the_other_process(two_halls):
    a, b = two_halls
    table_id, tokens = running_table(a)
    assert b.seat_for(tokens[2])[1] == 2
    a.reassign_seat(table_id, 2)
    new = a.tables[table_id].seats[2].token
    with pytest.raises(HallError) as refused:
        b.seat_for(tokens[2])
    assert refused.value.code == "seat/unknown_token"
    assert b.move(tokens[2], "x", {"kind": "dice_count", "count": 1})["code"] == "seat/unknown_token"
    b._swept = 0.0
    assert b.seat_for(new)[1] == 2


def test_a_hall_roll_covers_tables_moved_by_the_other_process(two_halls):
    a, b = two_halls
    event = a.create_event("Roll")
    ids = []
    for name in ("A", "B"):
        table = a.create_table(event.id, name, ["Ann", "Bob"])
        a.set_status(table.id, "start")
        ids.append(table.id)
    b.set_status(ids[1], "pause")  # B moves table 2 on; A's memory of it is behind
    b.set_status(ids[1], "resume")
    answer = a.hall_roll(event.id, dice=[1, 2])
    assert answer["tables"] == ids and answer["skipped"] == []
    again = b.hall_roll(event.id, dice=[2, 2], confirm=True)
    assert again["tables"] == ids and again["skipped"] == [], again


def test_a_choice_read_from_the_journal_keeps_its_time(two_halls, postgres_server):
    a, _ = two_halls
    table_id, tokens = running_table(a)
    # a keep-or-reroll choice needs a Radio Tower; any open choice will do: roll until one opens
    table = a.tables[table_id]
    table.waiting_since = None
    from companion.hall.service import time_from_journal

    time_from_journal(table, "2000-01-01T00:00:00+00:00")
    if table.choosing:
        assert time.monotonic() - table.waiting_since > 3600
    else:
        assert table.waiting_since is None


# ---------------------------------------------------------------- two real server processes


@pytest.fixture
def two_servers(tmp_path, postgres_server, redis_server) -> Iterator[list[ServerProcess]]:
    dsn = postgres_server.create_database()
    servers = [ServerProcess(dsn, log_path=tmp_path / f"server{i}.log",
                             extra_args=("--message-queue", redis_server.url)) for i in (0, 1)]
    for server in servers:
        server.db = dsn  # type: ignore[assignment] - a URL, passed on as --db
    try:
        for server in servers:
            server.start(timeout=30)
        yield servers
    finally:
        for server in servers:
            server.stop()


class Phone:
    def __init__(self, url: str, token: str) -> None:
        self.views: list[dict] = []
        self.revoked = threading.Event()
        self.changed = threading.Condition()
        self.client = socketio.Client(reconnection=False)
        self.client.on("view", self._view)
        self.client.on("revoked", lambda *_: self.revoked.set())
        try:
            self.client.connect(url, auth={"token": token}, transports=["websocket"],
                                wait_timeout=10)
        except socketio.exceptions.ConnectionError:
            self.client.disconnect()  # nothing left open by a refused connection
            raise

    def _view(self, view: dict) -> None:
        with self.changed:
            self.views.append(view)
            self.changed.notify_all()

    def wait_for(self, seq: int, timeout: float = 10.0) -> dict:
        deadline = time.monotonic() + timeout
        with self.changed:
            while not self.views or max(v["seq"] for v in self.views) < seq:
                left = deadline - time.monotonic()
                assert left > 0, f"no view with seq >= {seq}"
                self.changed.wait(left)
            return max(self.views, key=lambda v: v["seq"])

    def move(self, request_id: str, move: dict, timeout: float = 10) -> dict:
        return self.client.call("move", {"request_id": request_id, "move": move}, timeout=timeout)

    def close(self) -> None:
        self.client.disconnect()


def organizer(server: ServerProcess, method: str, path: str, body: dict | None = None) -> dict:
    status, answer = http_json(f"{server.url}{path}", method=method, body=body,
                               key=organizer_key(server), timeout=15)
    assert status < 300, (status, answer)
    return answer


def started_tables(server: ServerProcess, count: int, roll_mode: str) -> tuple[str, list[dict]]:
    event = organizer(server, "POST", "/api/events", {"name": "Night"})
    tables = []
    for i in range(count):
        table = organizer(server, "POST", f"/api/events/{event['id']}/tables",
                          {"name": f"T{i}", "players": ["Ann", "Bob"], "roll_mode": roll_mode})
        organizer(server, "POST", f"/api/tables/{table['id']}/start", {})
        tables.append(table)
    return event["id"], tables


@pytest.mark.slow
def test_two_processes_share_moves_rolls_and_revocations(two_servers):
    one, two = two_servers
    assert organizer_key(one) == organizer_key(two)
    event_id, tables = started_tables(one, 2, "hall")
    tokens = [[seat["token"] for seat in t["seats"]] for t in tables]
    # a phone of each table on each process
    on_two = Phone(two.url, tokens[0][1])
    on_one = Phone(one.url, tokens[0][0])
    other = Phone(one.url, tokens[1][1])
    phones = [on_two, on_one, other]
    try:
        start = on_two.wait_for(0)["seq"]
        ack = on_one.move("m1", {"kind": "dice_count", "count": 1})
        assert ack["ok"], ack
        assert on_two.wait_for(ack["view"]["seq"])["seq"] == ack["view"]["seq"] > start
        # the hall roll, asked of process two, covers both tables (one moved on by process one)
        rolled = organizer(two, "POST", f"/api/events/{event_id}/roll", {"dice": [1, 2]})
        assert rolled["tables"] == [t["id"] for t in tables] and rolled["skipped"] == []
        on_one_view = on_one.wait_for(ack["view"]["seq"] + 1)
        other.wait_for(1)
        assert on_one_view["seq"] > ack["view"]["seq"]
        # process two reassigns the seat whose phone sits on process one: refused on both
        organizer(two, "POST", f"/api/tables/{tables[0]['id']}/reassign", {"seat": 0})
        assert on_one.revoked.wait(10)
        for server in (one, two):
            with pytest.raises(socketio.exceptions.ConnectionError):
                Phone(server.url, tokens[0][0])
        refused = on_one.move("m2", {"kind": "dice_count", "count": 1})
        assert not refused["ok"] and refused["code"] in ("seat/unknown_token", "auth/not_a_seat")
    finally:
        for phone in phones:
            phone.close()


@pytest.mark.slow
def test_sigkill_of_one_process_under_load_loses_no_acknowledged_move(two_servers):
    one, two = two_servers
    _, tables = started_tables(one, 2, "own")
    acked: list[tuple[str, str]] = []  # (table id, request id)
    errors: list[str] = []
    stop = threading.Event()

    def play(table: dict, seat: int) -> None:
        token = table["seats"][seat]["token"]
        server = one if seat == 0 else two
        phone = Phone(server.url, token)
        n = 0
        try:
            while not stop.is_set():
                n += 1
                rid = f"s{seat}-{n}"
                try:
                    answer = phone.move(rid, {"kind": "dice_count", "count": 1 + n % 2}, timeout=2)
                except socketio.exceptions.SocketIOError:
                    break  # its process died (no ack): reconnect to the other below
                if answer.get("ok"):
                    acked.append((table["id"], rid))
                elif answer["code"] in ("server/error",):
                    errors.append(str(answer))
            phone.close()
            if not stop.is_set() and seat == 0:  # the dead process's phone moves to process two
                phone = Phone(two.url, token)
                answer = phone.move(f"after-{seat}", {"kind": "dice_count", "count": 1})
                assert answer["ok"], answer
                acked.append((table["id"], f"after-{seat}"))
                phone.close()
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(repr(error))

    threads = [threading.Thread(target=play, args=(t, s)) for t in tables for s in (0, 1)]
    for thread in threads:
        thread.start()
    time.sleep(2.0)
    os.kill(one.proc.pid, signal.SIGKILL)  # type: ignore[union-attr]
    time.sleep(4.0)  # the dead process's phones give up on their last ack (2 s) and move over
    stop.set()
    for thread in threads:
        thread.join(30)
    assert not errors, errors
    assert len(acked) > 10
    assert sorted(rid for _, rid in acked if rid.startswith("after")) == ["after-0", "after-0"]
    journal = open_journal(one.db)  # type: ignore[arg-type]
    try:
        for table_id, rid in acked:
            seat = 0 if rid.startswith(("s0", "after-0")) else 1
            token = next(t["seats"][seat]["token"] for t in tables if t["id"] == table_id)
            from companion.hall.play import stored_request_id

            assert journal.answer_for(f"table:{table_id}", stored_request_id(token, rid)) == {
                "ok": True}, rid
    finally:
        journal.close()
