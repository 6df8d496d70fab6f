"""Crash safety: phones stream moves at a real server that is killed with SIGKILL mid-stream.

After every kill, read from the SQLite file with the server down: every acknowledged move is
in the journal, every move that is there is whole (all its records, its request row), the
journal only ever grew, and every table's replay is a consistent game (coins never negative,
players + bank = the box). After every restart, the server's view for each phone is the view
of the replayed journal, and an acknowledged request id sent again is answered `ok` without a
new record (DESIGN.md, "One move, end to end"; docs/api.md).
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
import threading
import time
from collections import defaultdict
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import socketio
from conftest import run_companion
from serverproc import ServerProcess, http_json
from socket_phone import follow_views

from companion.hall.model import HallEvent, Table
from companion.hall.play import stored_request_id
from companion.hall.replay import rebuild_table
from companion.hall.views import seat_view
from companion.journal import Record, SqliteJournal
from companion.rules.machi_koro.catalog import load_catalog
from companion.rules.machi_koro.codec import FACT_TYPES
from companion.rules.machi_koro.state import TableState

pytestmark = pytest.mark.slow

KILLS = 6
STREAM_SECONDS = (0.5, 1.3)  # how long the phones stream before the SIGKILL, drawn per round
ACK_SECONDS = 5.0  # a live server answers in milliseconds; this only bounds a lost ack
CHEAP = ("wheat_field", "ranch", "bakery", "cafe", "convenience_store")  # what the phones build
TABLES = ("1", "2")  # the demo: table 1 rolls with the hall, table 2 on its own

CATALOG = load_catalog()


# ---------------------------------------------------------------- what the phones did


@dataclass
class Sent:
    """One `move` a phone sent; `answer` is the ack, None while (or if never) acknowledged."""

    round: int
    table: str
    seat: int
    token: str
    request_id: str
    move: dict[str, Any]
    answer: dict[str, Any] | None = None


@dataclass
class Ledger:
    """Everything sent and acknowledged, by every phone and the organizer, across all rounds."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    sent: list[Sent] = field(default_factory=list)
    rolls: dict[int, list[int]] = field(default_factory=dict)  # acknowledged hall roll -> dice
    errors: list[str] = field(default_factory=list)  # surprises in the threads, for the test

    def add(self, sent: Sent) -> None:
        with self.lock:
            self.sent.append(sent)

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)

    def acked(self, ok: bool | None = None) -> list[Sent]:
        with self.lock:
            return [s for s in self.sent if s.answer is not None
                    and (ok is None or bool(s.answer.get("ok")) == ok)]


class Phone:
    """One seat's phone: a Socket.IO client that keeps the newest view the server sent."""

    def __init__(self, url: str, seat: dict[str, Any], ledger: Ledger, rng: random.Random) -> None:
        self.table, self.seat, self.token = str(seat["table"]), int(seat["seat"]), seat["token"]
        self.ledger, self.rng = ledger, rng
        self.lock = threading.Lock()
        self.view: dict[str, Any] | None = None
        self.first_view: dict[str, Any] | None = None
        self.got_view = threading.Event()
        self.count = 0
        self.client = socketio.Client(reconnection=False)
        self.keeper = follow_views(self.client, self._on_view)  # `table` messages applied
        self.client.connect(url, auth={"token": self.token}, transports=["websocket"],
                            wait_timeout=5)
        self.websocket = self.client.eio.ws

    def _on_view(self, view: dict[str, Any]) -> None:
        with self.lock:
            if self.first_view is None:
                self.first_view = view
            if self.view is None or view["seq"] >= self.view["seq"]:
                self.view = view
        self.got_view.set()

    def send(self, round_: int, request_id: str, move: dict[str, Any],
             halt: threading.Event | None = None) -> dict[str, Any] | None:
        """Send one move and wait for its ack (None if the server died first). The ack is
        recorded by the callback itself, so one that arrives late still counts."""
        sent = Sent(round_, self.table, self.seat, self.token, request_id, move)
        done = threading.Event()

        def acked(answer: Any = None) -> None:
            sent.answer = answer if isinstance(answer, dict) else {"ok": False, "code": repr(answer)}
            view = sent.answer.get("view")
            if view is not None:
                self.keeper.take_ack(sent.answer)
                self._on_view(view)
            done.set()

        self.ledger.add(sent)
        try:
            self.client.emit("move", {"request_id": request_id, "move": move}, callback=acked)
        except socketio.exceptions.SocketIOError:
            return None
        deadline = time.monotonic() + ACK_SECONDS
        while not done.wait(0.02):
            if (halt is not None and halt.is_set()) or time.monotonic() > deadline:
                return sent.answer
        return sent.answer

    def next_move(self) -> tuple[dict[str, Any], float]:
        """What to send now, and how long to rest after it: the active seat plays its turn
        from the view's choices; the others change their dice or try moves that are refused."""
        with self.lock:
            view = self.view
        rng = self.rng
        if view is None:
            return {"kind": "dice_count", "count": 1}, 0.02
        kinds = {c["kind"]: c for c in view["choices"]}
        if view["active"] == self.seat and view["phase"] != "finished":
            if "roll" in kinds:
                return {"kind": "roll"}, 0.0
            if "keep" in kinds:
                return ({"kind": "reroll"} if rng.random() < 0.3 else {"kind": "keep"}), 0.0
            if "tv_station" in kinds:
                return kinds["tv_station"], 0.0
            if "business_center" in kinds:
                return {"kind": "business_center", "decline": True}, 0.0
            if "end_turn" in kinds:
                cheap = [c for c in view["choices"] if c["kind"] == "build" and c["card"] in CHEAP]
                if cheap and rng.random() < 0.6:
                    return rng.choice(cheap), 0.0
                return {"kind": "end_turn"}, 0.0
            if view["phase"] == "roll" and view["table"]["roll_mode"] == "hall":
                return {"kind": "roll"}, 0.05  # refused: this table rolls with the hall
        pick = rng.random()
        if pick < 0.5:
            return {"kind": "dice_count", "count": 1}, rng.uniform(0.01, 0.05)
        if pick < 0.8:
            return {"kind": "end_turn"}, rng.uniform(0.01, 0.05)  # refused: not this seat's turn
        return {"kind": "build", "card": "no_such_card"}, rng.uniform(0.01, 0.05)  # refused

    def stream(self, round_: int, halt: threading.Event) -> None:
        """Send moves with fresh request ids until told to stop (or the server is gone)."""
        try:
            while not halt.is_set() and self.client.connected:
                move, rest = self.next_move()
                self.count += 1
                request_id = f"k{round_}-t{self.table}-s{self.seat}-n{self.count}"
                answer = self.send(round_, request_id, move, halt)
                if answer is not None and answer.get("code") == "server/error":
                    self.ledger.error(f"{request_id} {move}: {answer}")
                if rest:
                    halt.wait(rest)
        except Exception as exc:  # reported by the test, not lost in the thread
            self.ledger.error(f"phone t{self.table} s{self.seat}: {exc!r}")

    def close(self) -> None:
        self.client.disconnect()
        # After a transport error python-engineio drops its websocket without closing it;
        # closing it here keeps a killed server from leaking a socket (a ResourceWarning).
        self.websocket.shutdown()


def organizer_rolls(url: str, event: str, key: str, ledger: Ledger, halt: threading.Event,
                    rng: random.Random) -> None:
    """The organizer presses "roll" for the hall again and again."""
    while not halt.is_set():
        try:
            status, answer = http_json(f"{url}/api/events/{event}/roll", method="POST", body={},
                                       key=key, timeout=ACK_SECONDS)
        except Exception:  # the server died mid-request: not acknowledged
            return
        if status != 200:
            ledger.error(f"hall roll refused: {status} {answer}")
            return
        with ledger.lock:
            ledger.rolls[answer["roll"]] = answer["dice"]
        halt.wait(rng.uniform(0.05, 0.2))


def wait_for_a_move_in_flight(ledger: Ledger, round_: int, seconds: float = 1.0) -> int:
    """Return as soon as some phone waits for an ack (or after `seconds`), to kill then: how
    many wait. (Some of those acks may already be on their way and still arrive.)"""
    deadline = time.monotonic() + seconds
    waiting = 0
    while not waiting and time.monotonic() < deadline:
        with ledger.lock:
            waiting = sum(s.answer is None and s.round == round_ for s in ledger.sent[-12:])
        if not waiting:
            time.sleep(0.0005)
    return waiting


# ---------------------------------------------------------------- what the journal says


# The service keeps phones' request ids apart from its own (hall rolls), per seat token.
PHONE_IDS = re.compile(r"^phone:[0-9a-f]{16}:")


def sent_id(stored_id: str) -> str:
    """The id a phone sent, from the one the journal keeps."""
    return PHONE_IDS.sub("", stored_id)


def requests_rows(db: Path) -> dict[tuple[str, str], tuple[int, int, dict[str, Any]]]:
    """The journal's request table, read straight from the file: (stream, id) -> seqs, answer."""
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        rows = conn.execute("SELECT stream, request_id, first_seq, last_seq, answer FROM requests")
        return {(s, sent_id(r)): (first, last, json.loads(answer))
                for s, r, first, last, answer in rows}


def check_consistent(state: TableState, where: str) -> None:
    """A state at rest between two moves: no negative coins, nothing created or lost."""
    coins = [p.coins for p in state.players]
    # The bank may run below zero (docs/rules.md: it never refuses a payment); players never do.
    assert min(coins) >= 0, f"{where}: negative coins {coins}"
    assert state.total_coins() == CATALOG.bank_coins, (
        f"{where}: players {coins} + bank {state.bank} != the box's {CATALOG.bank_coins}")
    assert all(n >= 0 for n in state.supply.values()), f"{where}: negative supply"


def check_journal(db: Path, ledger: Ledger, before: dict[str, list[Record]]) -> dict[str, list[Record]]:
    """Every check on the file that can be made with the server down; returns the records."""
    with SqliteJournal(db) as journal:
        streams = {s: journal.read(s) for s in journal.streams()}
        answers = {(f"table:{s.table}", s.request_id):
                   journal.answer_for(f"table:{s.table}", stored_request_id(s.token, s.request_id))
                   for s in ledger.sent}
        roll_answers = {n: journal.answer_for("table:1", f"hall-roll-1-{n}") for n in ledger.rolls}
    rows = requests_rows(db)

    # The journal only grows: whatever a previous round read is still there, unchanged.
    for stream, old in before.items():
        new = streams.get(stream, [])
        assert [(r.seq, r.kind, r.data, r.request_id) for r in new[:len(old)]] == [
            (r.seq, r.kind, r.data, r.request_id) for r in old], f"{stream}: the past changed"

    for stream, records in streams.items():
        assert [r.seq for r in records] == list(range(1, len(records) + 1)), f"{stream}: seq gaps"

    # Every acknowledged move is in the journal with its answer; a refusal wrote nothing.
    by_request: dict[tuple[str, str], list[Record]] = defaultdict(list)
    for stream, records in streams.items():
        for record in records:
            if record.request_id is not None:
                by_request[(stream, sent_id(record.request_id))].append(record)
    for sent in ledger.acked():
        key = (f"table:{sent.table}", sent.request_id)
        if sent.answer is not None and sent.answer.get("ok"):
            assert answers[key] == {"ok": True}, f"acknowledged {key} {sent.move} is not in the journal"
            assert by_request.get(key), f"acknowledged {key} has no records"
        else:
            assert answers[key] is None and key not in by_request, f"refused {key} left a trace"

    # Every move that is in the journal is whole: its records are one contiguous run that
    # its request row names, whether or not its ack reached the phone.
    for key, records in by_request.items():
        assert key in rows, f"{key}: records without a request row (half a move)"
        first, last, _ = rows[key]
        assert [r.seq for r in records] == list(range(first, last + 1)), f"{key}: not one run"
    for key, (first, last, _) in rows.items():
        assert key in by_request and len(by_request[key]) == last - first + 1, f"{key}: lost records"

    # Acknowledged hall rolls: in the event's stream with their dice, and at the hall table.
    hall_rolls = [r.data["dice"] for r in streams.get("event:1", []) if r.kind == "hall_rolled"]
    for number, dice in ledger.rolls.items():
        assert number <= len(hall_rolls) and hall_rolls[number - 1] == dice, f"hall roll {number}"
        assert roll_answers[number] is not None, f"hall roll {number} is not at table 1"

    # Each table replays to a consistent game, move by move; every move is whole and its
    # records share one move number and one author.
    for table_id in TABLES:
        records = streams[f"table:{table_id}"]
        table = rebuild_table(records)
        assert table.status == "running" and table.state is not None
        check_consistent(table.state, f"table {table_id} now")
        for move in table.moves:
            check_consistent(move.before, f"table {table_id} before move {move.number}")
        numbered = [r for r in records if r.kind in FACT_TYPES]
        groups: dict[int, list[Record]] = defaultdict(list)
        for record in numbered:
            groups[record.data["move"]].append(record)
        assert list(groups) == list(range(1, len(groups) + 1)), f"table {table_id}: move numbers"
        assert [m.number for m in table.moves] == list(groups)
        for number, group in groups.items():
            assert len({(r.request_id, r.author) for r in group}) == 1, f"move {number} is mixed"
            assert group[0].request_id is not None, f"table {table_id} move {number}: no request id"
    return streams


def rebuilt(streams: dict[str, list[Record]], table_id: str, upto: int | None = None) -> Table:
    """A table replayed from its journal, or from the first `upto` records of it."""
    return rebuild_table(streams[f"table:{table_id}"][:upto])


def check_live_views(streams: dict[str, list[Record]], phones: list[Phone], where: str) -> None:
    """The newest view each phone got before the kill (the server's memory then) is the view
    of the journal replayed up to that view's seq: memory never ran ahead of the journal."""
    for phone in phones:
        view = phone.view
        assert view is not None
        expected = seat_view(rebuilt(streams, phone.table, view["seq"]), phone.seat,
                             choice_seconds=HallEvent.choice_seconds)  # the event's default
        assert view == as_json(expected), f"{where}: live view of table {phone.table} seat {phone.seat}"


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


# ---------------------------------------------------------------- the test


def make_demo(db: Path) -> dict[str, Any]:
    done = run_companion("demo", "--db", str(db))
    assert done.returncode == 0, done.stderr
    demo: dict[str, Any] = json.loads(done.stdout)
    assert {str(s["table"]) for s in demo["seats"]} == set(TABLES)
    return demo


def test_crash_sigkill_mid_stream_loses_no_acknowledged_move(tmp_path: Path) -> None:
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    db = tmp_path / "hall.db"
    demo = make_demo(db)
    ledger = Ledger()
    streams: dict[str, list[Record]] = {}
    waiting_at_kill = unacknowledged = committed_unacknowledged = 0
    phones: list[Phone] = []
    threads: list[threading.Thread] = []
    halt = threading.Event()

    def close_all() -> None:
        halt.set()
        for thread in threads:
            thread.join(ACK_SECONDS + 1)
        assert not any(t.is_alive() for t in threads), "a phone thread did not stop"
        threads.clear()
        # In parallel: a clean disconnect from a live server waits up to 3 s for the
        # websocket's closing handshake (websocket-client's default), per phone.
        closing_threads = [threading.Thread(target=p.close) for p in phones]
        for thread in closing_threads:
            thread.start()
        for thread in closing_threads:
            thread.join(10)
        assert not any(t.is_alive() for t in closing_threads), "a phone did not disconnect"
        phones.clear()

    with ServerProcess(db, log_path=tmp_path / "server.log") as server:
        try:
            for round_ in range(KILLS + 1):
                server.start()
                where = f"seed {seed}, start {round_}"
                for seat in demo["seats"]:  # one by one, so that a failure still closes the others
                    phones.append(Phone(server.url, seat, ledger, random.Random(rng.random())))

                # The view a phone gets on (re)connecting is that of the replayed journal.
                for phone in phones:
                    assert phone.got_view.wait(5), f"{where}: no view for {phone.token}"
                if streams:
                    for phone in phones:
                        expected = seat_view(rebuilt(streams, phone.table), phone.seat,
                                             choice_seconds=HallEvent.choice_seconds)
                        got = phone.first_view
                        assert got is not None
                        assert [(p["coins"], p["cards"]) for p in got["players"]] == [
                            (p["coins"], p["cards"]) for p in as_json(expected["players"])], where
                        assert (got["phase"], got["active"], got["seq"]) == (
                            expected["phase"], expected["active"], expected["seq"]), where
                        assert got == as_json(expected), f"{where}: view of seat {phone.seat}"

                    # Acknowledged request ids sent again: the first answer, nothing written.
                    by_seat = {(p.table, p.seat): p for p in phones}
                    again = [s for s in ledger.acked(ok=True) if s.round == round_ - 1][-4:]
                    again += rng.sample(ledger.acked(ok=True), min(4, len(ledger.acked(ok=True))))
                    for sent in again:
                        answer = by_seat[(sent.table, sent.seat)].send(-1, sent.request_id, sent.move)
                        seq = len(streams[f"table:{sent.table}"])
                        assert answer is not None and answer["ok"] is True, f"{where}: {sent}: {answer}"
                        assert answer["view"]["seq"] == seq, f"{where}: {sent.request_id} applied twice"
                    with ledger.lock:
                        ledger.sent = [s for s in ledger.sent if s.round != -1]

                if round_ == KILLS:
                    break  # the last start is only checked, not killed

                # Stream, then SIGKILL while moves are in flight.
                halt.clear()
                threads[:] = [threading.Thread(target=p.stream, args=(round_, halt), daemon=True)
                              for p in phones]
                threads.append(threading.Thread(
                    target=organizer_rolls, daemon=True,
                    args=(server.url, demo["event"], demo["organizer_key"], ledger, halt,
                          random.Random(rng.random()))))
                for thread in threads:
                    thread.start()
                time.sleep(rng.uniform(*STREAM_SECONDS))
                waiting_at_kill += wait_for_a_move_in_flight(ledger, round_)
                server.kill()
                killed = list(phones)
                close_all()

                this_round = [s for s in ledger.sent if s.round == round_]
                assert any(s.answer and s.answer.get("ok") for s in this_round), f"{where}: no progress"
                assert not ledger.errors, f"{where}: {len(ledger.errors)} errors: {ledger.errors[:5]}"
                streams = check_journal(db, ledger, streams)
                check_live_views(streams, killed, where)
                in_flight = [s for s in this_round if s.answer is None]
                unacknowledged += len(in_flight)
                with SqliteJournal(db) as journal:
                    committed_unacknowledged += sum(
                        journal.answer_for(f"table:{s.table}",
                                           stored_request_id(s.token, s.request_id)) is not None
                        for s in in_flight)
        finally:
            close_all()
        assert server.starts == KILLS + 1
    accepted, refused = len(ledger.acked(ok=True)), len(ledger.acked(ok=False))
    print(f"seed {seed}: {KILLS} kills, {len(ledger.sent)} moves sent, {accepted} accepted,"
          f" {refused} refused, {waiting_at_kill} waiting for their ack at a kill, of which"
          f" {unacknowledged} never got one ({committed_unacknowledged} of those committed),"
          f" {len(ledger.rolls)} hall rolls, {len(streams['table:1'])} + {len(streams['table:2'])}"
          " table records")
    assert waiting_at_kill >= KILLS, "the kills did not come while moves were in flight"
    assert accepted >= 3 * KILLS
