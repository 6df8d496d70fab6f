"""A journal that is away is an expected condition (issue 24, 6): moves are refused with the
retryable `server/unavailable` (503 over HTTP), the log says so once when it goes and once
when it is back, no traceback per call, and nothing acknowledged is lost.

A real PostgreSQL server of this test's own (tests/pg_server.py), stopped and started again;
a real SQLite file locked by another connection.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator

import pytest
from pg_server import PgServer, require_binaries

from companion.hall import HallService
from companion.journal import JournalUnavailable, SqliteJournal
from companion.web import create_app, hall_service, socketio

DICE = {"kind": "dice_count", "count": 1}


@pytest.fixture
def own_server() -> Iterator[PgServer]:
    """A PostgreSQL server this test may stop: the session's is shared by every test."""
    server = PgServer(require_binaries())
    try:
        server.start()
        yield server
    finally:
        server.stop()


def said(caplog, words: str) -> list[logging.LogRecord]:
    return [r for r in caplog.records if words in r.getMessage().split(";")[0]]


def test_journal_away_postgres_stopped_moves_are_unavailable_then_play_on(own_server, caplog):
    app = create_app({"TESTING": True, "DATABASE": own_server.create_store()})
    hall = hall_service(app)
    http = app.test_client()
    key = hall.organizer_key
    auth = {"Authorization": f"Bearer {key}"}
    event = http.post("/api/events", json={"name": "Night"}, headers=auth).get_json()
    table = http.post(f"/api/events/{event['id']}/tables", headers=auth, json={
        "name": "T", "players": ["Ann", "Bob"], "roll_mode": "own"}).get_json()
    assert http.post(f"/api/tables/{table['id']}/start", headers=auth).status_code == 200
    phone = socketio.test_client(app, auth={"token": table["seats"][0]["token"]},
                                 flask_test_client=http)

    def move(request_id: str) -> dict:
        return phone.emit("move", {"request_id": request_id, "move": DICE}, callback=True)

    assert move("before")["ok"]
    acked = hall.journal.last_seq(f"table:{table['id']}")
    caplog.set_level(logging.INFO, logger="companion")
    own_server.halt()
    try:
        answers = [move(f"away{n}") for n in range(5)]
        roll = http.post(f"/api/events/{event['id']}/roll", json={}, headers=auth)
    finally:
        own_server.resume()
    assert {a["code"] for a in answers} == {"server/unavailable"}
    assert all(not a["ok"] and "try again" in a["message"] for a in answers)
    assert roll.status_code == 503 and roll.get_json()["code"] == "server/unavailable"
    assert roll.headers["Retry-After"] == "5"

    assert move("after")["ok"]  # it reconnects by itself
    assert move("away1")["ok"]  # a refused request was not kept: it is made now
    assert len(said(caplog, "(PostgreSQL) is unavailable")) == 1
    assert len(said(caplog, "(PostgreSQL) is back")) == 1
    assert not [r for r in caplog.records if r.exc_info], "no traceback per call"
    records = hall.journal.read(f"table:{table['id']}")
    assert records[acked - 1].request_id.endswith(":before")  # the acknowledged move stands
    assert [r.request_id.split(":")[-1] for r in records[acked:]] == ["after", "away1"]
    phone.disconnect()
    hall.journal.close()


def test_journal_away_sqlite_locked_by_another_program(tmp_path, caplog):
    path = tmp_path / "hall.db"
    hall = HallService(SqliteJournal(path, timeout=0.05))
    event = hall.create_event("Night")
    table = hall.create_table(event.id, "T", ["Ann", "Bob"], roll_mode="own")
    hall.set_status(table.id, "start")
    token = table.seats[0].token
    caplog.set_level(logging.INFO, logger="companion")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program holds the file's write lock
    try:
        for n in range(3):
            with pytest.raises(JournalUnavailable):
                hall.move(token, f"m{n}", DICE)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert hall.move(token, "m0", DICE) == {"ok": True}
    assert len(said(caplog, "(SQLite) is unavailable")) == 1
    assert len(said(caplog, "(SQLite) is back")) == 1
    assert hall.streams.held() == 0
    hall.journal.close()
