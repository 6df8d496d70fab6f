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

import contextlib
import gc
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
import warnings
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import socketio
from hypothesis import given, settings
from hypothesis import strategies as st
from pg_server import PgServer
from serverproc import ServerProcess, free_port, http_json, organizer_key
from socket_phone import follow_views

from companion.bench.server import stop_process
from companion.hall import HallError, HallService
from companion.hall.replay import rebuild_table
from companion.hall.state import TOKEN_LOOKS_PER_SECOND
from companion.journal import open_journal
from companion.web import socketio as socketio_ext
from companion.web.guesses import GuessGuard, SharedGuessGuard
from companion.web.sockets import EncodedOnceRedisManager

# ---------------------------------------------------------------- Redis


class RedisServer:
    """`redis-server` on a free port of 127.0.0.1, nothing saved, in a folder of its own."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        self.root = Path(tempfile.mkdtemp(prefix="companion-redis-"))
        # free_port() lets the port go before redis-server binds it: another program may take
        # it meanwhile, and redis-server then exits at once; a new port is tried (3 times)
        for attempt in range(3):
            self.port = free_port()
            self._spawn()
            if self._ready() or attempt == 2:
                break
            self.proc.wait()
        assert self.proc.poll() is None, "redis-server did not start"

    def _spawn(self) -> None:
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.root)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def go_away(self) -> None:
        """An outage: redis-server ends (its clients' connections close); `come_back` starts
        it again on the same port."""
        stop_process(self.proc)

    def come_back(self) -> None:
        self._spawn()
        assert self._ready(), "redis-server did not start again"

    def _ready(self) -> bool:
        """Whether redis-server answers (False: it exited, a bind failure)."""
        import redis

        deadline = time.monotonic() + 10
        while self.proc.poll() is None:
            client = redis.Redis(port=self.port, socket_connect_timeout=1)
            try:
                client.ping()
                return True
            except redis.ConnectionError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)
            finally:
                client.close()
        return False

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        stop_process(self.proc)
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    with redis_of_our_own() as server:
        yield server


@contextlib.contextmanager
def redis_of_our_own() -> Iterator[RedisServer]:
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
def store(postgres_server: PgServer) -> str:
    """The two halls' PostgreSQL store (its DSN)."""
    return postgres_server.create_store()


@pytest.fixture
def two_halls(store: str) -> Iterator[tuple[HallService, HallService]]:
    dsn = store
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
    assert b.seat_for(new)[1] == 2


def test_a_rename_and_a_new_token_made_on_one_process_reach_the_others_indexes(two_halls):
    """A catch-up looks at the token index and the chain again only when what they read of the
    table changed (hall/indexes.py `derived_from`): a rename there moves the neighbours here, a
    seat reassigned there opens here by its new token alone; a move changes neither."""
    a, b = two_halls
    event = a.create_event("Night")
    boards = a.seat_players(event.id, [f"P{n}" for n in range(6)], "catan-big",
                            name_prefix="Board")
    first, middle, last = (board.id for board in boards)
    assert b.table(last).neighbours == ("Board 2", "")
    a.rename_table(middle, "Harbour")
    b.catch_up_all(b.tables_of(b.event(event.id)), [b.event(event.id)])
    assert (b.tables[first].neighbours, b.tables[last].neighbours) == (
        ("", "Harbour"), ("Harbour", ""))
    old = b.tables[first].seats[0].token
    a.reassign_seat(first, 0)
    new = a.tables[first].seats[0].token
    assert b.seat_for(new) == (b.tables[first], 0)
    assert old not in b.tokens and b.tokens[new] == (first, 0)


class Counting:
    """A journal that counts its calls by method name (the service's queries)."""

    def __init__(self, journal: Any) -> None:
        self.journal, self.calls = journal, Counter[str]()

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.journal, name)
        if not callable(method):
            return method

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return method(*args, **kwargs)

        return counted


def test_a_new_card_opens_on_the_other_process_right_after_an_unknown_token(two_halls):
    """Review: an unknown token looked up within the last second (the sweep's throttle) left
    the seats of known tables as they were, so a card just reassigned on the other process was
    refused seat/unknown_token. Now an unknown token costs one query (the last seq of every
    table's stream and of the next ids') and reads only what moved on; only a flood of them
    (beyond TOKEN_LOOKS_PER_SECOND) falls back to looking for new tables alone."""
    a, b = two_halls
    table_id, tokens = running_table(a)
    assert b.seat_for(tokens[2])[1] == 2
    counting = Counting(b.journal)
    b.journal = counting  # type: ignore[assignment]
    try:
        for made_up in ("made-up-1", "made-up-2", "made-up-3"):  # guesses: one query each
            with pytest.raises(HallError):
                b.seat_for(made_up)
        assert counting.calls == {"last_seqs": 3}, counting.calls
        a.reassign_seat(table_id, 2)
        new = a.tables[table_id].seats[2].token
        assert b.seat_for(new)[1] == 2  # at once, though unknown tokens were just looked up
        second = a.create_table(a.tables[table_id].event_id, "U", ["Eve", "Fay"])
        assert b.seat_for(second.seats[1].token) == (b.tables[second.id], 1)  # a new table's
        # a flood of made-up tokens: at most TOKEN_LOOKS_PER_SECOND full looks, then only the
        # look for new tables (two reads), which still finds one
        counting.calls.clear()
        for n in range(60):
            with pytest.raises(HallError):
                b.seat_for(f"flood-{n}")
        assert counting.calls["last_seqs"] <= TOKEN_LOOKS_PER_SECOND + 2, counting.calls
        third = a.create_table(a.tables[table_id].event_id, "V", ["Gil", "Hal"])
        assert b.seat_for(third.seats[0].token) == (b.tables[third.id], 0)
    finally:
        b.journal = counting.journal


def test_a_pin_set_on_two_processes_at_once_is_written_not_refused(two_halls, monkeypatch):
    """Review: the PIN's append read the hall stream's last seq, then appended; another
    process's PIN in between made a StaleSequence, a 500. Now it reads the stream and writes
    once more: the last writer's PIN holds on both."""
    a, b = two_halls
    real = b.journal.append
    calls = []

    def racing(stream, expected_seq, events, **kwargs):
        calls.append(expected_seq)
        if len(calls) == 1:
            a.set_organizer_pin("481516")  # between B's read of the last seq and its append
        return real(stream, expected_seq, events, **kwargs)

    monkeypatch.setattr(b.journal, "append", racing)
    assert b.set_organizer_pin("902734") is True
    assert calls[1] == calls[0] + 1
    assert b.check_organizer_pin("902734") and a.check_organizer_pin("902734")
    assert not a.check_organizer_pin("481516")


def test_discover_finds_a_table_whose_event_came_after_its_look_at_the_events(two_halls,
                                                                               monkeypatch):
    """Review: discover() read the next events, then the next tables; an event and a table
    created on the other process in between made the table's event unknown (KeyError)."""
    a, b = two_halls
    first = a.create_event("One")
    a.create_table(first.id, "A", ["Ann", "Bob"])
    assert b.event(first.id) and b.table("1")
    real = b.journal.read
    raced = []

    def racing(stream, after_seq=0):
        records = real(stream, after_seq)
        if stream == "event:2" and not raced:  # none yet: now the other process makes both
            raced.append(a.create_event("Two"))
            raced.append(a.create_table(raced[0].id, "B", ["Cy", "Di"]))
        return records

    monkeypatch.setattr(b.journal, "read", racing)
    assert b.discover() is True
    assert b.events["2"].tables == ["2"] and b.tables["2"].name == "B"
    assert b.seat_for(raced[1].seats[0].token)[1] == 0


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


def reroll_waiting(hall: HallService) -> tuple[str, list[str]]:
    """An own-roll table whose first seat (Radio Tower built) is choosing whether to reroll."""
    table_id, tokens = running_table(hall)
    hall.adjust(table_id, 0, 40, "set-up for the test")
    for n, (seat, move) in enumerate([
            (0, {"kind": "roll"}), (0, {"kind": "build", "card": "radio_tower"}),
            (0, {"kind": "end_turn"}), *[(s, {"kind": k}) for s in (1, 2, 3)
                                         for k in ("roll", "end_turn")], (0, {"kind": "roll"})]):
        answer = hall.move(tokens[seat], f"set-up-{n}", move)
        assert answer["ok"], answer
    table = hall.tables[table_id]
    assert table.state is not None and table.state.phase.value == "reroll"
    assert table.choosing and table.waiting_since is not None
    return table_id, tokens


def test_a_choice_read_from_the_journal_keeps_its_time(two_halls, store):
    """A Radio Tower choice open for a while: the other process (catching the table up) and a
    restarted one (reading the journal) both time it from its table's last record, not from
    now, so the timer default comes as the event's choice_seconds say."""
    a, b = two_halls
    table_id, tokens = reroll_waiting(a)
    waited = 0.6
    time.sleep(waited)
    table, _ = b.seat_for(tokens[0])  # caught up on the other process
    assert table.choosing and time.monotonic() - table.waiting_since >= waited - 0.05
    restarted = HallService(open_journal(store))
    try:
        table = restarted.tables[table_id]
        elapsed = time.monotonic() - table.waiting_since
        assert table.choosing and elapsed >= waited - 0.05, elapsed
        seconds = restarted.choice_seconds(table)
        assert restarted.expire_choices(now=table.waiting_since + seconds - 0.5) == []
        assert restarted.expire_choices(now=table.waiting_since + seconds + 0.5) == [table_id]
        assert table.state.phase.value == "build"
    finally:
        restarted.journal.close()


# ---------------------------------------------------------------- guess limits in Redis


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def shared_guards(redis_server: RedisServer, count: int, **limits: Any) -> list[SharedGuessGuard]:
    """`count` guards on one namespace, as `count` processes' guards of one hall have."""
    namespace = f"test:{uuid.uuid4().hex}"
    return [SharedGuessGuard(redis_server.url, namespace, **limits) for _ in range(count)]


def test_two_processes_guards_count_one_sources_tries_together(redis_server):
    a, b = shared_guards(redis_server, 2, tries=3, seconds=60)
    try:
        assert [a.try_now("10.0.0.7", 1.0), b.try_now("10.0.0.7", 2.0),
                a.try_now("10.0.0.7", 3.0)] == [0, 0, 0]
        assert b.try_now("10.0.0.7", 4.0) > 0 and a.try_now("10.0.0.7", 5.0) > 0
        assert b.try_now("2001:db8::1", 6.0) == 0  # another source
        b.right("2001:db8::1", 6.0)  # a right one: taken back (by the process that asked)
        assert [b.try_now("2001:db8::2", t) for t in (7.0, 8.0, 9.0)] == [0, 0, 0]
        assert a.try_now("2001:db8::3", 10.0) > 0  # one /64, one source, on both
    finally:
        a.close()
        b.close()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 300), st.booleans(), st.booleans()),
                max_size=60))
def test_the_shared_guard_answers_as_the_guard_in_memory(redis_server, events):
    """The same tries, right answers and forgetting at the same times: the same answers (the
    Lua script is GuessGuard.try_now on sorted sets)."""
    clock = Clock()
    local = GuessGuard(tries=3, seconds=60, hall_tries=5, grace=1, memory=120)
    shared = SharedGuessGuard(redis_server.url, f"test:{uuid.uuid4().hex}", tries=3, seconds=60,
                              hall_tries=5, grace=1, memory=120, clock=clock)
    try:
        for who, at, right, forget in sorted(events, key=lambda e: e[1]):
            address, clock.now = f"10.0.0.{who}", 1_000_000.0 + at
            answer = local.try_now(address, float(at))
            assert shared.try_now(address, float(at)) == answer
            if answer == 0 and right:
                local.right(address, float(at), forget=forget)
                shared.right(address, float(at), forget=forget)
    finally:
        shared.close()


def test_without_redis_the_shared_guard_still_limits_in_this_process():
    guard = SharedGuessGuard(f"redis://127.0.0.1:{free_port()}/0", "test:down", tries=2)
    try:
        assert [guard.try_now("10.0.0.1", t) for t in (1.0, 2.0, 3.0)][:2] == [0, 0]
        assert guard.try_now("10.0.0.1", 4.0) > 0
    finally:
        guard.close()


def test_an_app_with_a_message_queue_keeps_its_guesses_there(tmp_path, redis_server):
    from companion.web import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "c.db"),
                      "MESSAGE_QUEUE": redis_server.url})
    try:
        assert isinstance(app.extensions["join_code_guard"], SharedGuessGuard)
        assert isinstance(app.extensions["organizer_pin_guard"], SharedGuessGuard)
        assert isinstance(socketio_ext.server.manager, EncodedOnceRedisManager)
    finally:
        for name in ("join_code_guard", "organizer_pin_guard"):
            app.extensions[name].close()
        app.extensions["hall"].journal.close()
    plain = create_app({"TESTING": True, "DATABASE": str(tmp_path / "d.db")})
    try:  # the next app without a queue has none: Flask-SocketIO keeps options between apps
        assert isinstance(plain.extensions["join_code_guard"], GuessGuard)
        assert not isinstance(socketio_ext.server.manager, EncodedOnceRedisManager)
    finally:
        plain.extensions["hall"].journal.close()


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
            start_on_a_free_port(server)
        yield servers
    finally:
        for server in servers:
            server.stop()


def start_on_a_free_port(server: ServerProcess, tries: int = 3) -> None:
    """Start the server; free_port() lets its port go before the server binds it, so another
    program may take it meanwhile: on a bind failure, try again on another port."""
    for attempt in range(tries):
        try:
            server.start(timeout=30)
            return
        except RuntimeError:
            if attempt == tries - 1 or "in use" not in server.log_tail().lower():
                raise
            server.port = None  # start() picks a new one


class Phone:
    def __init__(self, url: str, token: str) -> None:
        self.views: list[dict] = []
        self.revoked = threading.Event()
        self.changed = threading.Condition()
        self.client = socketio.Client(reconnection=False)
        self.keeper = follow_views(self.client, self._view)  # `table` messages applied
        self.client.on("revoked", lambda *_: self.revoked.set())
        try:
            self.client.connect(url, auth={"token": token}, transports=["websocket"],
                                wait_timeout=10)
        except socketio.exceptions.ConnectionError:
            self.close()  # nothing left open by a refused connection
            raise

    def _view(self, view: dict) -> None:
        with self.changed:
            self.views.append(view)
            self.changed.notify_all()

    def latest(self) -> dict:
        with self.changed:
            return max(self.views, key=lambda v: v["seq"])

    def wait_for(self, seq: int, timeout: float = 10.0) -> dict:
        deadline = time.monotonic() + timeout
        with self.changed:
            while not self.views or max(v["seq"] for v in self.views) < seq:
                left = deadline - time.monotonic()
                assert left > 0, f"no view with seq >= {seq}"
                self.changed.wait(left)
            return max(self.views, key=lambda v: v["seq"])

    def move(self, request_id: str, move: dict, timeout: float = 10) -> dict:
        ack = self.client.call("move", {"request_id": request_id, "move": move}, timeout=timeout)
        if self.keeper.take_ack(ack) is not None:  # the page draws the ack's view; the table's
            self._view(ack["view"])  # next message applies to it
        return ack

    def close(self) -> None:
        """Disconnect, and close the WebSocket's socket: after a transport error (a SIGKILLed
        server resets the connection) python-engineio drops its websocket without closing it,
        and the socket's ResourceWarning then fails whichever test the collector runs in."""
        self.client.disconnect()
        websocket = getattr(self.client.eio, "ws", None)
        if websocket is not None:
            websocket.shutdown()


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
        # the old token's device hears nothing more of the table, though its room is another
        # process's (web/fanout.py: it left the table's room there when told of the revocation)
        heard = on_one.latest()["seq"]
        tablet = Phone(one.url, tokens[0][1])  # a device of the other seat on process one
        phones.append(tablet)
        tablet.wait_for(0)
        moved = on_two.move("m3", {"kind": "dice_count", "count": 1})
        assert moved["ok"], moved
        assert tablet.wait_for(moved["view"]["seq"])["seq"] == moved["view"]["seq"]
        time.sleep(0.5)
        assert on_one.latest()["seq"] == heard, "the revoked device got the table's message"
    finally:
        for phone in phones:
            phone.close()


@pytest.mark.slow
def test_after_a_redis_outage_every_phone_is_at_its_tables_seq(tmp_path, postgres_server):
    """Redis goes away for a while (issue 24): the moves made meanwhile on either process reach
    only that process's phones, yet within 5 s of Redis' return every phone, on both
    processes, holds its table's last seq, without a reload (each process sends its phones
    their tables whole when it hears Redis again: web/fanout.py)."""
    dsn = postgres_server.create_database()
    with redis_of_our_own() as redis:  # not the session's: the other tests keep theirs
        servers = [ServerProcess(dsn, log_path=tmp_path / f"server{i}.log",
                                 extra_args=("--message-queue", redis.url)) for i in (0, 1)]
        for server in servers:
            server.db = dsn  # type: ignore[assignment] - a URL, passed on as --db
        phones: list[Phone] = []
        try:
            for server in servers:
                start_on_a_free_port(server)
            one, two = servers
            event_id, tables = started_tables(one, 5, "own")
            # each table's first seat on process one, its second on process two
            seats = [(Phone(server.url, table["seats"][seat]["token"]), table["id"], seat)
                     for table in tables for seat, server in enumerate(servers)]
            phones = [phone for phone, _, _ in seats]
            for phone in phones:
                phone.wait_for(0)
            changed = threading.Event()  # a hall screen on process two (review: its hall views)
            screen = socketio.Client(reconnection=False)
            screen.on("hall", lambda view: view["event"]["choice_seconds"] == 90 and changed.set())
            screen.connect(two.url, auth={"hall": event_id}, transports=["websocket"],
                           wait_timeout=10)
            redis.go_away()
            organizer(one, "POST", f"/api/events/{event_id}/settings", {"choice_seconds": 90})
            for turn in range(2):  # both seats of every table roll and pass, each on its process
                for phone, _, seat in seats:
                    if seat == turn:
                        assert phone.move(f"r{turn}-{id(phone)}", {"kind": "roll"})["ok"]
                        assert phone.move(f"e{turn}-{id(phone)}", {"kind": "end_turn"})["ok"]
            time.sleep(2)  # the outage goes on a while
            with open_journal(dsn) as journal:
                last = {table["id"]: journal.last_seq(f"table:{table['id']}") for table in tables}
            behind = [phone for phone, table_id, _ in seats if phone.latest()["seq"] < last[table_id]]
            assert behind, "without Redis the other process's phones missed the moves"
            redis.come_back()
            back = time.monotonic()
            for phone, table_id, _ in seats:
                left = 5 - (time.monotonic() - back)
                assert phone.wait_for(last[table_id], timeout=max(left, 0.01))["seq"] == last[table_id]
            assert changed.wait(5), "the screen on two shows a setting changed on one meanwhile"
            screen.disconnect()
            # and the messages go through both processes again
            phone, table_id, seat = seats[0]
            assert phone.move("after", {"kind": "roll"})["ok"]
            assert seats[1][0].wait_for(last[table_id] + 1)["seq"] > last[table_id]
            assert "Traceback" not in "".join(server.log_tail() for server in servers)
        finally:
            for phone in phones:
                phone.close()
            for server in servers:
                server.stop()


def post_form(url: str, form: dict[str, str]) -> int:
    request = urllib.request.Request(url, data=urllib.parse.urlencode(form).encode(),
                                     method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        with error:
            return int(error.code)


@pytest.mark.slow
def test_wrong_join_codes_are_counted_once_for_both_processes(two_servers):
    """A guesser whose tries the proxy spreads over both processes gets one process's tries
    (JOIN_CODE: 10 a minute per source), not two."""
    statuses = [post_form(f"{two_servers[n % 2].url}/", {"code": "ZZZZ-ZZZZ"}) for n in range(12)]
    assert 429 not in statuses[:10] and statuses[10:] == [429, 429], statuses


@pytest.mark.slow
def test_sigkill_of_one_process_under_load_loses_no_acknowledged_move(two_servers):
    one, two = two_servers
    _, tables = started_tables(one, 2, "own")
    acked: list[tuple[str, str]] = []  # (table id, request id)
    errors: list[str] = []
    stop = threading.Event()
    # Per thread: `warm` once it has 3 acked moves (or ended), `done` when it ended. No fixed
    # sleeps: a slow CI machine waits as long as it needs, up to the deadlines below.
    warm = {(t["id"], s): threading.Event() for t in tables for s in (0, 1)}
    done = {(t["id"], s): threading.Event() for t in tables for s in (0, 1)}

    def play(table: dict, seat: int) -> None:
        token = table["seats"][seat]["token"]
        server = one if seat == 0 else two
        phones: list[Phone] = []  # every one closed, whatever happens
        n = ok = 0
        try:
            phones.append(Phone(server.url, token))
            while not stop.is_set():
                n += 1
                rid = f"s{seat}-{n}"
                try:
                    answer = phones[0].move(rid, {"kind": "dice_count", "count": 1 + n % 2},
                                            timeout=2)
                except socketio.exceptions.SocketIOError:
                    break  # its process died (no ack): reconnect to the other below
                if answer.get("ok"):
                    acked.append((table["id"], rid))
                    ok += 1
                    if ok >= 3:
                        warm[(table["id"], seat)].set()
                elif answer["code"] in ("server/error",):
                    errors.append(str(answer))
            if not stop.is_set() and seat == 0:  # the dead process's phone moves to process two
                phones.append(Phone(two.url, token))
                answer = phones[-1].move(f"after-{seat}", {"kind": "dice_count", "count": 1})
                assert answer["ok"], answer
                acked.append((table["id"], f"after-{seat}"))
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(repr(error))
        finally:
            for phone in phones:
                phone.close()
            warm[(table["id"], seat)].set()
            done[(table["id"], seat)].set()

    threads = [threading.Thread(target=play, args=(t, s), daemon=True)
               for t in tables for s in (0, 1)]
    for thread in threads:
        thread.start()
    for key, event in warm.items():  # every phone under load on its process
        assert event.wait(60), f"phone {key} made no 3 moves"
    os.kill(one.proc.pid, signal.SIGKILL)  # type: ignore[union-attr]
    for (table_id, seat), event in done.items():  # the dead process's phones moved over
        if seat == 0:
            assert event.wait(60), f"the phone of table {table_id} seat 0 did not move over"
    stop.set()
    for thread in threads:
        thread.join(30)
    assert not [thread.name for thread in threads if thread.is_alive()], "threads left running"
    with warnings.catch_warnings(record=True) as caught:  # every phone closed what it opened
        warnings.simplefilter("always", ResourceWarning)
        gc.collect()
    assert not [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]
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


@pytest.mark.slow
def test_a_phones_first_view_is_sent_by_its_process_not_through_redis(two_servers, redis_server):
    """A connecting phone's view and turn are for that one connection, on the process it
    reached: through Redis they cost a publish per phone and a dispatch on every other process
    (issue 24; 1,100 phones reconnecting after a restart published 2,200 messages)."""
    import redis as redis_client

    one, _two = two_servers
    _event, tables = started_tables(one, 1, "hall")
    listener = redis_client.Redis.from_url(redis_server.url).pubsub()
    listener.subscribe("companion")
    listener.get_message(timeout=5)  # the subscription's own confirmation
    phone = Phone(one.url, tables[0]["seats"][0]["token"])
    try:
        assert phone.wait_for(0)["table"]["id"] == tables[0]["id"], "the phone has its view"
        heard = []
        while (message := listener.get_message(timeout=1)) is not None:
            heard.append(message["data"])
        assert not [m for m in heard if b'"view"' in m or b'"turn"' in m], heard[:2]
    finally:
        phone.close()
        listener.close()


@pytest.mark.slow
def test_a_hall_roll_is_sent_by_the_process_of_each_tables_phones(two_servers, redis_server):
    """A hall roll made on one process: through Redis goes one notice naming its tables, no
    table's message; each process sends the tables whose phones it serves, caught up from the
    journal (so the second process's phones do not wait for the first's frames of every
    table). A table with phones on both processes gets its message from each, the same one."""
    import json as json_module

    import redis as redis_client

    one, two = two_servers
    event_id, tables = started_tables(one, 3, "hall")
    tokens = [[seat["token"] for seat in table["seats"]] for table in tables]
    phones = [Phone(one.url, tokens[0][0]), Phone(one.url, tokens[0][1]),  # table 1: here
              Phone(two.url, tokens[1][0]), Phone(two.url, tokens[1][1]),  # table 2: there
              Phone(one.url, tokens[2][0]), Phone(two.url, tokens[2][1])]  # table 3: both
    listener = redis_client.Redis.from_url(redis_server.url).pubsub()
    listener.subscribe("companion")
    listener.get_message(timeout=5)  # the subscription's own confirmation
    try:
        seqs = [phone.wait_for(0)["seq"] for phone in phones]
        rolled = organizer(one, "POST", f"/api/events/{event_id}/roll", {"dice": [2, 3]})
        assert rolled["tables"] == [t["id"] for t in tables]
        views = [phone.wait_for(seq + 1) for phone, seq in zip(phones, seqs, strict=True)]
        assert all(view["dice"] == views[0]["dice"] for view in views), views
        assert views[4]["seq"] == views[5]["seq"] and views[4]["players"] == views[5]["players"]
        # a change of the mixed table made on the first process patches from the frame each
        # process sent its phones: the phone on the second applies it without a gap
        organizer(one, "POST", f"/api/tables/{tables[2]['id']}/adjust",
                  {"seat": 1, "amount": 3, "reason": "test"})
        after = phones[5].wait_for(views[5]["seq"] + 1)
        assert after["players"][1]["coins"] == views[5]["players"][1]["coins"] + 3
        assert all(phone.keeper.syncs == 0 for phone in phones), [p.keeper.syncs for p in phones]
        heard = []
        while (message := listener.get_message(timeout=1)) is not None:
            heard.append(json_module.loads(message["data"]))
        notices = [m["tables"] for m in heard if "tables" in m]
        assert notices == [[t["id"] for t in tables]], heard
        batches = [[room for _, _, room, _ in m["batch"]] for m in heard if "batch" in m]
        assert batches == [[f"table:{tables[2]['id']}"]], "the roll's messages went as one notice"
    finally:
        for phone in phones:
            phone.close()
        listener.close()


@pytest.mark.slow
def test_a_board_renamed_on_one_process_is_the_neighbour_on_the_others_phones(two_servers):
    """A rename changes the neighbours of the boards beside it, which live in memory alone
    (never journalled): the change goes to the other processes as messages (a notice to catch
    the tables up from the journal would miss it; review of issue 24), and a phone there shows
    the new name at the same seq."""
    one, two = two_servers
    event = organizer(one, "POST", "/api/events", {"name": "Catan night"})
    seated = organizer(one, "POST", f"/api/events/{event['id']}/seating",
                       {"players": [f"P{n}" for n in range(6)], "ruleset": "catan-big",
                        "name_prefix": "Board"})
    first, middle, _last = seated["tables"]
    phone = Phone(two.url, first["seats"][0]["token"])
    try:
        seq = phone.wait_for(0)["seq"]
        assert phone.latest()["neighbours"] == ["", "Board 2"]
        organizer(one, "POST", f"/api/tables/{middle['id']}/rename", {"name": "Harbour"})
        deadline = time.monotonic() + 10
        while phone.views[-1]["neighbours"] != ["", "Harbour"]:
            assert time.monotonic() < deadline, [(v["seq"], v["neighbours"]) for v in phone.views]
            time.sleep(0.05)
        assert phone.views[-1]["seq"] == seq, "a neighbour's name is no move of this board"
    finally:
        phone.close()


class Relay:
    """A TCP relay of this test's own between one server process and PostgreSQL: `cut` closes
    its connections and refuses new ones (that process's journal is away, the other's is not),
    `mend` lets them through again."""

    def __init__(self, target_port: int) -> None:
        import socket as sockets

        self.target = ("127.0.0.1", target_port)
        self.listener = sockets.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open = threading.Event()
        self.open.set()
        self.pairs: list[Any] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        import socket as sockets

        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.open.is_set():
                client.close()
                continue
            server = sockets.create_connection(self.target)
            with self.lock:
                self.pairs.append((client, server))
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source: Any, sink: Any) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(2)

    def cut(self) -> None:
        self.open.clear()
        with self.lock:
            for pair in self.pairs:
                for end in pair:
                    with contextlib.suppress(OSError):
                        end.shutdown(2)
                    end.close()
            self.pairs.clear()

    def mend(self) -> None:
        self.open.set()

    def close(self) -> None:
        self.cut()
        self.listener.close()


@pytest.mark.slow
def test_a_hall_roll_reaches_a_process_whose_journal_was_away_when_it_was_told(
        tmp_path, postgres_server, redis_server):
    """The second process hears of a hall roll while its own way to PostgreSQL is cut: it
    cannot catch the table up then, and tries again every second; its phone has the roll
    within seconds of the journal coming back, without a reload (review of issue 24)."""
    dsn = postgres_server.create_database()
    relay = Relay(int(urllib.parse.urlsplit(dsn).port or 5432))
    parts = urllib.parse.urlsplit(dsn)
    relayed = parts._replace(netloc=parts.netloc.replace(f":{parts.port}", f":{relay.port}"))
    servers = [ServerProcess(dsn, log_path=tmp_path / f"server{i}.log",
                             extra_args=("--message-queue", redis_server.url)) for i in (0, 1)]
    phones = []
    try:
        for server, db in zip(servers, (dsn, urllib.parse.urlunsplit(relayed)), strict=True):
            server.db = db  # type: ignore[assignment] - a URL, passed on as --db
            start_on_a_free_port(server)
        one, two = servers
        event_id, tables = started_tables(one, 2, "hall")
        phones = [Phone(one.url, tables[0]["seats"][0]["token"]),
                  Phone(two.url, tables[1]["seats"][0]["token"])]
        seqs = [phone.wait_for(0)["seq"] for phone in phones]
        relay.cut()
        organizer(one, "POST", f"/api/events/{event_id}/roll", {"dice": [4, 4]})
        assert phones[0].wait_for(seqs[0] + 1)["seq"] > seqs[0]
        time.sleep(2.0)  # the second process heard the notice and could not read the journal
        assert phones[1].latest()["seq"] == seqs[1], "the roll came before the journal did"
        relay.mend()
        assert phones[1].wait_for(seqs[1] + 1, timeout=8)["seq"] > seqs[1]
        assert "Traceback" not in two.log_tail()
    finally:
        for phone in phones:
            phone.close()
        for server in servers:
            server.stop()
        relay.close()


@pytest.mark.slow
def test_a_hall_screen_on_one_process_sees_a_roll_made_on_the_other(two_servers, redis_server):
    """With a message queue each process builds the hall views of its own screens from the
    journal; the process that changed an event tells the others in a small notice (issue 24:
    every process built and published the whole hall view through Redis, listened to or not).
    A hall screen and a console on process two see the roll and the move process one made."""
    import redis as redis_client

    one, two = two_servers
    event_id, tables = started_tables(one, 1, "hall")
    views: list[dict] = []
    got = threading.Condition()

    def heard(view: dict) -> None:
        with got:
            views.append(view)
            got.notify_all()

    def rolls_seen(count: int) -> list:
        deadline = time.monotonic() + 10
        with got:
            while not [v for v in views if len(v["rolls"]) >= count]:
                assert got.wait(max(0.0, deadline - time.monotonic())), "no hall view of the roll"
        return [v for v in views if len(v["rolls"]) >= count]

    screen = socketio.Client(reconnection=False)
    screen.on("hall", heard)
    screen.connect(two.url, auth={"hall": event_id}, transports=["websocket"], wait_timeout=10)
    listener = redis_client.Redis.from_url(redis_server.url).pubsub()
    listener.subscribe("companion")
    listener.get_message(timeout=5)
    try:
        organizer(one, "POST", f"/api/events/{event_id}/roll", {"dice": [1, 2]})
        seen = rolls_seen(1)[-1]
        assert seen["rolls"][-1] == [1, 2] and seen["tables"][0]["dice"] == [1]
        organizer(one, "POST", f"/api/events/{event_id}/roll", {"dice": [3, 3]})
        assert rolls_seen(2)[-1]["rolls"][-1] == [3, 3]
        through_redis = []
        while (message := listener.get_message(timeout=0.5)) is not None:
            through_redis.append(message["data"])
        assert through_redis and not [m for m in through_redis if b'"event": "hall"' in m], (
            "no hall view through Redis: a notice of the event's id only")
    finally:
        screen.disconnect()
        listener.close()


def test_a_move_costs_one_journal_call_when_its_table_is_current_and_is_decided_again_when_not(
        two_halls):
    """Issue 24 (moves on PostgreSQL waited for round trips): a move at a table this process
    holds as the journal has it is one append, no look-up first (its seq check and its
    request id check are in the append); a move refused on an old copy of the table (the other
    process moved it on) is decided again on the journal's, not refused."""
    a, b = two_halls
    table_id, tokens = running_table(a)
    assert b.seat_for(tokens[0])[0].id == table_id  # b knows the table
    counting = Counting(b.journal)
    b.journal = counting  # type: ignore[assignment]
    try:
        assert b.move(tokens[0], "b-roll", {"kind": "roll"})["ok"]
        assert counting.calls == {"append": 1}, counting.calls
        counting.calls.clear()
        assert a.move(tokens[0], "a-end", {"kind": "end_turn"})["ok"]  # a moves it on
        assert b.move(tokens[1], "b-roll-2", {"kind": "roll"})["ok"], "decided again, accepted"
        assert b.tables[table_id].seq == a.journal.last_seq(f"table:{table_id}")
        again = b.move(tokens[0], "b-roll", {"kind": "roll"})  # the first request once more
        assert again == {"ok": True}, "a repeated request gets its first answer"
    finally:
        b.journal = counting.journal


def test_a_move_refused_on_a_copy_caught_up_during_its_decision_is_decided_again(two_halls,
                                                                                 monkeypatch):
    """Review of issue 24: a decision reads the event's turn from the journal (a yield under
    gevent), and another greenlet (a hall view, a sync) may catch the table up meanwhile; the
    move was then refused on the old copy, the refusal remembered, and the same request
    refused again. A refusal now stands only if the table did not move since the decision
    began: else the move is decided again on the table as it is."""
    from companion.hall import play

    a, b = two_halls
    table_id, tokens = running_table(a)
    b.seat_for(tokens[0])
    assert a.move(tokens[0], "r1", {"kind": "roll"})["ok"]
    assert a.move(tokens[0], "e1", {"kind": "end_turn"})["ok"]  # Bob's turn; b's copy is Ann's
    real = play.event_turn

    def another_greenlet_catches_up(hall: HallService, table: Any) -> Any:
        hall.catch_up(table)
        return real(hall, table)

    monkeypatch.setattr(play, "event_turn", another_greenlet_catches_up)
    assert b.move(tokens[1], "r2", {"kind": "roll"})["ok"], "Bob's roll on b, decided again"
    assert b.move(tokens[1], "r2", {"kind": "roll"}) == {"ok": True}, "its first answer again"


# ---------------------------------------------------------------- the proxy of docs/scaling.md


def documented_block(first_line: str) -> str:
    """A configuration docs/scaling.md gives (its indented block from `first_line`), so the
    test runs what the page tells an organizer to write."""
    lines = (Path(__file__).parents[1] / "docs" / "scaling.md").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == first_line)
    block = []
    for line in lines[start:]:
        if line and not line.startswith("    "):
            break
        block.append(line[4:])
    return "\n".join(block).strip() + "\n"


def proxy_binary(name: str) -> str:
    binary = shutil.which(name) or (f"/usr/sbin/{name}" if Path(f"/usr/sbin/{name}").exists()
                                    else None)
    if binary is None:
        missing = f"{name} is not installed: apt-get install {name}"
        (pytest.fail if os.environ.get("CI") else pytest.skip)(missing)
    assert binary is not None
    return binary


def nginx_command(tmp_path: Path, port: int, ports: list[int]) -> list[str]:
    """nginx with the documented block, its access log saying which process each request went
    to: `TABLE UPSTREAM URI` a line."""
    block = documented_block("map $arg_table $companion_route {")
    assert "127.0.0.1:5000" in block and "127.0.0.1:5001" in block and "listen 80;" in block
    block = (block.replace("127.0.0.1:5000", f"127.0.0.1:{ports[0]}")
             .replace("127.0.0.1:5001", f"127.0.0.1:{ports[1]}")
             .replace("listen 80;", f"listen 127.0.0.1:{port};"))
    temp = "".join(f"{kind}_temp_path {tmp_path}/{kind};\n"
                   for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    conf = tmp_path / "nginx.conf"
    conf.write_text(f"daemon off;\nmaster_process off;\npid {tmp_path}/nginx.pid;\n"
                    f"error_log {tmp_path}/error.log;\nevents {{}}\nhttp {{\n"
                    f"log_format route '$arg_table $upstream_addr $request_uri';\n"
                    f"access_log {tmp_path}/routes.log route;\n{temp}{block}}}\n")
    return [proxy_binary("nginx"), "-c", str(conf), "-p", str(tmp_path), "-e",
            str(tmp_path / "error.log")]


def haproxy_command(tmp_path: Path, port: int, ports: list[int]) -> list[str]:
    """HAProxy with the documented block, logging each request's server and request line (on
    its standard output, into routes.log)."""
    block = documented_block("defaults")
    assert "127.0.0.1:5000" in block and "127.0.0.1:5001" in block and "bind :80" in block
    block = (block.replace("127.0.0.1:5000", f"127.0.0.1:{ports[0]}")
             .replace("127.0.0.1:5001", f"127.0.0.1:{ports[1]}")
             .replace("bind :80", f"bind 127.0.0.1:{port}")
             .replace("frontend hall\n", "frontend hall\n    log global\n"
                                          "    log-format \"%b/%s %HU\"\n"))
    conf = tmp_path / "haproxy.cfg"
    conf.write_text(f"global\n    log stdout format raw local0\n{block}")
    return [proxy_binary("haproxy"), "-db", "-f", str(conf)]


def routes_of(kind: str, log: str) -> dict[str, set[str]]:
    """Which process each table's Socket.IO requests reached, from the proxy's log."""
    routes: dict[str, set[str]] = {}
    for line in log.splitlines():
        if kind == "nginx":
            _, upstream, uri = line.split(" ", 2)
        else:
            upstream, _, uri = line.partition(" ")
            upstream = upstream.rsplit("/", 1)[-1]
        table = urllib.parse.parse_qs(urllib.parse.urlsplit(uri).query).get("table", [""])[0]
        if "/socket.io/" in uri and table:
            routes.setdefault(table, set()).add(upstream)
    return routes


@contextlib.contextmanager
def documented_proxy(kind: str, tmp_path: Path, port: int,
                     ports: list[int]) -> Iterator[Path]:
    """The documented proxy of `kind` on `port` in front of the servers on `ports`; yields the
    path of its routes log."""
    command = (nginx_command if kind == "nginx" else haproxy_command)(tmp_path, port, ports)
    log = tmp_path / "routes.log"
    with open(log, "ab") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
                break
            except (OSError, urllib.error.URLError):
                assert proc.poll() is None, log.read_text() + (
                    (tmp_path / "error.log").read_text() if kind == "nginx" else "")
                assert time.monotonic() < deadline, f"{kind} did not answer"
                time.sleep(0.1)
        yield log
    finally:
        stop_process(proc)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["nginx", "haproxy"])
def test_the_documented_proxy_sends_a_tables_phones_to_one_process(tmp_path, postgres_server,
                                                                   redis_server, kind):
    """docs/scaling.md's proxy blocks in front of two processes: every phone of a table reaches
    the same process (by the `table` its connection names, static/js/play.js), the tables are
    spread over both, and a move made through the proxy reaches the table's other phone."""
    dsn = postgres_server.create_database()
    url = f"http://127.0.0.1:{free_port()}"  # the proxy's: the servers' --base-url (the docs)
    servers = [ServerProcess(dsn, log_path=tmp_path / f"server{i}.log",
                             extra_args=("--message-queue", redis_server.url, "--base-url", url))
               for i in (0, 1)]
    phones = []
    try:
        for server in servers:
            server.db = dsn  # type: ignore[assignment] - a URL, passed on as --db
            start_on_a_free_port(server)
        event_id, tables = started_tables(servers[0], 24, "own")
        with documented_proxy(kind, tmp_path, int(url.rsplit(":", 1)[1]),
                              [server.port for server in servers]) as log:
            for table in tables:
                for seat in table["seats"]:
                    phones.append(Phone(f"{url}?table={table['id']}", seat["token"]))
            first, second = phones[0], phones[1]  # the two seats of the first table
            start = second.wait_for(0)["seq"]
            ack = first.move("proxy-1", {"kind": "dice_count", "count": 1})
            assert ack["ok"], ack
            assert second.wait_for(ack["view"]["seq"])["seq"] > start
            for phone in phones:
                phone.close()
            time.sleep(0.5)  # a proxy writes a WebSocket's line when it closes
    finally:
        for phone in phones:
            phone.close()
        for server in servers:
            server.stop()
    routes = routes_of(kind, log.read_text())
    assert set(routes) == {t["id"] for t in tables}, routes
    assert all(len(upstreams) == 1 for upstreams in routes.values()), routes
    assert len(set().union(*routes.values())) == 2, f"all tables on one process: {routes}"
