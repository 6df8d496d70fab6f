"""The evening's file is whole after any stop (issue 26, item 1): a served hall stopped with
SIGTERM or Ctrl-C (SIGINT) while phones play closes its journal and checkpoints SQLite's
write-ahead log, so `hall.db` copied ALONE (no -wal, no -shm beside it) holds every record a
phone was told was accepted, and replays to the views the phones were sent."""

from __future__ import annotations

import shutil
import signal
import threading
import time
from pathlib import Path

import pytest
from served_game import start_table
from serverproc import ServerProcess, organizer_key
from socket_phone import Phone

from companion.hall.play import stored_request_id
from companion.hall.replay import rebuild_table
from companion.hall.views import seat_view
from companion.journal import SqliteJournal

pytestmark = pytest.mark.slow

FOUR = {"name": "T1", "players": ["Ada", "Ben", "Cy", "Di"], "roll_mode": "own"}


def stream_moves(phones: list[Phone], tokens: list[str], acked: list[tuple[str, str, dict]],
                 stop: threading.Event) -> None:
    """The active phone rolls, then ends its turn, until the server goes away or `stop`; each
    acknowledged move is kept as (token, request id, the view in its ack)."""
    view = phones[0].wait_for(0)
    n = 0
    while not stop.is_set():
        seat = view["active"]
        kind = "roll" if view["phase"] == "roll" else "end_turn"
        n += 1
        try:
            ack = phones[seat].client.call("move", {"request_id": f"m{n}", "move": {"kind": kind}},
                                           timeout=5)
        except Exception:  # the server stopped: this move was never acknowledged
            return
        if not ack or not ack.get("ok"):
            return
        acked.append((tokens[seat], f"m{n}", ack["view"]))
        view = ack["view"]


@pytest.mark.parametrize(("stop_signal", "exit_code"), [(signal.SIGTERM, 0), (signal.SIGINT, 130)])
def test_night_file_alone_holds_every_acknowledged_move_after_a_stop(
        tmp_path: Path, stop_signal: signal.Signals, exit_code: int) -> None:
    db = tmp_path / "hall.db"
    acked: list[tuple[str, str, dict]] = []
    with ServerProcess(db, log_path=tmp_path / "serve.log") as server:
        server.start()
        key = organizer_key(server)
        _, table, phones = start_table(server, key, "Night", FOUR)
        tokens = [seat["token"] for seat in table["seats"]]
        sockets = [phone.client.eio.ws for phone in phones]
        stop = threading.Event()
        player = threading.Thread(target=stream_moves, args=(phones, tokens, acked, stop))
        player.start()
        deadline = time.monotonic() + 20
        while len(acked) < 40 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.proc is not None
        server.proc.send_signal(stop_signal)  # mid-stream: phones are still sending
        assert server.proc.wait(15) == exit_code
        stop.set()
        player.join(10)
        for phone, websocket in zip(phones, sockets, strict=True):
            phone.client.disconnect()
            # python-engineio drops a websocket the server closed without closing it (test_crash)
            websocket.shutdown()
        log = server.log_tail()
    assert len(acked) >= 40, "the phones should have played before the stop"
    assert "Traceback" not in log, log
    assert " INFO companion: stopped; the journal is closed" in log, log
    assert not Path(f"{db}-wal").exists() and not Path(f"{db}-shm").exists()

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    copy = elsewhere / "hall.db"
    shutil.copyfile(db, copy)  # the file alone, as an organizer copies it
    with SqliteJournal(copy) as journal:
        stream = f"table:{table['id']}"
        for token, request_id, _view in acked:
            assert journal.answer_for(stream, stored_request_id(token, request_id)) is not None, \
                request_id
        records = journal.read(stream)
    last = acked[-1][2]
    assert records[-1].seq >= last["seq"]
    rebuilt = rebuild_table([r for r in records if r.seq <= last["seq"]])
    seat = last["seat"]
    assert {**seat_view(rebuilt, seat), "waited": None, "choice_seconds": None} == \
        {**last, "waited": None, "choice_seconds": None}
