"""`companion backup` and the console's "Download a backup" (issue 26, item 1): SQLite's online
backup, a whole copy of the evening's file taken while the hall plays, that opens and replays;
for a PostgreSQL journal the command says to use pg_dump. Refusals are one line, exit 2, and
write nothing."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, assert_one_line_refusal, run_companion
from serverproc import ServerProcess, http_json, organizer_key

from companion.bench.phones import LightClient
from companion.hall.play import stored_request_id
from companion.hall.replay import rebuild_table
from companion.journal import SqliteJournal

PHONES = 200  # 50 tables of four: as many as this loaded 2-core machine carries beside the server
TABLES = PHONES // 4


def make_demo(db: Path) -> None:
    done = run_companion("demo", "--db", str(db))
    assert done.returncode == 0, done.stderr


def rows(db: Path) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute("SELECT * FROM events ORDER BY stream, seq").fetchall()


def test_backup_copies_a_hall_database_whole_into_one_file(tmp_path: Path) -> None:
    db, copy = tmp_path / "hall.db", tmp_path / "copy.db"
    make_demo(db)
    done = run_companion("backup", "--db", str(db), "-o", str(copy))
    assert done.returncode == 0 and done.stdout == "", done.stderr
    assert done.stderr == f"companion: copied {db} to {copy} ({copy.stat().st_size:,} bytes)\n"
    assert rows(copy) == rows(db) and rows(copy)
    with closing(sqlite3.connect(copy)) as conn:  # one file: no write-ahead log to carry along
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    assert not Path(f"{copy}.part").exists()


@pytest.mark.parametrize(("case", "message"), [
    ("missing", "backup: there is no database file"),
    ("not-hall", "is not a companion hall database"),
    ("exists", "exists already: give the copy a new name"),
    ("no-folder", "backup: there is no folder"),
])
def test_backup_refuses_with_one_line_and_writes_nothing(tmp_path: Path, case: str,
                                                         message: str) -> None:
    db, copy = tmp_path / "hall.db", tmp_path / "copy.db"
    make_demo(db)
    if case == "missing":
        db = tmp_path / "nothing.db"
    elif case == "not-hall":
        db = tmp_path / "other.db"
        with closing(sqlite3.connect(db)) as conn:
            conn.execute("CREATE TABLE t (x)")
    elif case == "exists":
        copy.write_bytes(b"keep me")
    else:
        copy = tmp_path / "no" / "copy.db"
    done = run_companion("backup", "--db", str(db), "-o", str(copy))
    assert_one_line_refusal(done, message)
    assert not Path(f"{copy}.part").exists() and not (tmp_path / "no").exists()
    if case == "exists":
        assert copy.read_bytes() == b"keep me"
    else:
        assert not copy.exists()


def test_backup_of_a_postgresql_journal_says_to_use_pg_dump() -> None:
    done = run_companion("backup", "--db", "postgresql://hall@db.example/night", "-o", "x.db")
    assert_one_line_refusal(done, "backup: a PostgreSQL journal is copied with PostgreSQL's own "
                                  "tool: pg_dump")
    assert not (REPO / "x.db").exists()


# ------------------------------------------------------------------ while the hall plays


async def play(url: str, tables: list[dict], acked: list[tuple[float, str, str, str]],
               stop: threading.Event, ready: threading.Event) -> None:
    """Every seat's phone connected (LightClient, websocket); each table's active phone rolls
    and ends its turn until `stop`. Each ack: (when, table id, token, request id)."""
    import aiohttp

    # aiohttp keeps at most 100 connections per session unless told otherwise
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        views: dict[str, dict] = {}
        gate = asyncio.Semaphore(50)

        async def connect(table: dict, seat: dict) -> LightClient:
            client = LightClient(session)
            if seat["seat"] == 0:
                client.on("view", lambda view, t=table["id"]: views.setdefault(t, view))
            async with gate:
                await client.connect(url, auth={"token": seat["token"]})
            return client

        connected = await asyncio.gather(*(connect(t, s) for t in tables for s in t["seats"]))
        phones = [connected[i:i + 4] for i in range(0, len(connected), 4)]
        ready.set()

        async def stream(table: dict, seats: list[LightClient]) -> None:
            while table["id"] not in views:
                await asyncio.sleep(0.05)
            view, n = views[table["id"]], 0
            while not stop.is_set():
                seat = view["active"]
                n += 1
                kind = "roll" if view["phase"] == "roll" else "end_turn"
                ack = await seats[seat].call("move", {"request_id": f"b{n}",
                                                      "move": {"kind": kind}}, timeout=30)
                assert ack["ok"], ack
                acked.append((time.monotonic(), table["id"], table["seats"][seat]["token"], f"b{n}"))
                view = ack["view"]

        await asyncio.gather(*(stream(t, p) for t, p in zip(tables, phones, strict=True)))
        await asyncio.gather(*(client.disconnect() for seats in phones for client in seats))


def assert_whole_copy(copy: Path, acked_before: list[tuple[float, str, str, str]],
                      tables: list[dict]) -> None:
    """The copy passes SQLite's check, holds every move acknowledged before the copy began,
    and every table in it replays."""
    with closing(sqlite3.connect(copy)) as conn:
        assert conn.execute("PRAGMA quick_check").fetchone() == ("ok",)
    with SqliteJournal(copy) as journal:
        for _, table_id, token, request_id in acked_before:
            assert journal.answer_for(f"table:{table_id}",
                                      stored_request_id(token, request_id)) is not None
        for table in tables:
            rebuilt = rebuild_table(journal.read(f"table:{table['id']}"))
            assert rebuilt.state is not None


@pytest.mark.slow
def test_backup_while_200_phones_play_opens_and_replays(tmp_path: Path) -> None:
    """`companion backup` and the console's download, each taken while 200 phones (50 tables)
    send moves: the phones are answered meanwhile, and each copy opens and replays with every
    move acknowledged before it began."""
    db = tmp_path / "hall.db"
    acked: list[tuple[float, str, str, str]] = []
    with ServerProcess(db, log_path=tmp_path / "serve.log") as server:
        server.start()
        key = organizer_key(server)
        event = http_json(f"{server.url}/api/events", method="POST", key=key,
                          body={"name": "Backup night"})[1]
        tables = []
        for i in range(TABLES):
            status, table = http_json(
                f"{server.url}/api/events/{event['id']}/tables", method="POST", key=key,
                body={"name": f"T{i + 1}", "players": ["A", "B", "C", "D"], "roll_mode": "own"})
            assert status == 201, table
            assert http_json(f"{server.url}/api/tables/{table['id']}/start", method="POST",
                             key=key)[0] == 200
            tables.append(table)
        stop, ready, failed = threading.Event(), threading.Event(), []

        def run() -> None:
            try:
                asyncio.run(play(server.url, tables, acked, stop, ready))
            except BaseException as exc:  # reported below, not lost in the thread
                failed.append(exc)
                ready.set()

        player = threading.Thread(target=run)
        player.start()
        try:
            assert ready.wait(120) and not failed, failed
            time.sleep(2)  # the hall is playing
            began = time.monotonic()
            before = list(acked)
            copy = tmp_path / "copy.db"
            done = subprocess.run([sys.executable, "-m", "companion", "backup", "--db", str(db),
                                   "-o", str(copy)], capture_output=True, text=True, cwd=REPO,
                                  timeout=120)
            ended = time.monotonic()
            assert done.returncode == 0, done.stderr
            time.sleep(1)
            download_began, downloaded_before = time.monotonic(), list(acked)
            request = urllib.request.Request(f"{server.url}/organizer/backup",
                                             headers={"Authorization": f"Bearer {key}"})
            with urllib.request.urlopen(request, timeout=60) as answer:
                assert answer.status == 200
                assert answer.headers["Content-Disposition"].startswith("attachment;")
                (tmp_path / "downloaded.db").write_bytes(answer.read())
            download_ended = time.monotonic()
            time.sleep(1)
        finally:
            stop.set()
            player.join(60)
        assert not failed, failed
        assert "Traceback" not in server.log_tail()
    during = [t for t, *_ in acked if began <= t <= ended]
    during_download = [t for t, *_ in acked if download_began <= t <= download_ended]
    print(f"backup: {ended - began:.2f} s, {len(during)} moves acknowledged meanwhile; "
          f"download: {download_ended - download_began:.2f} s, {len(during_download)} moves; "
          f"{len(acked)} moves in all, {PHONES} phones")
    assert len(before) > 0 and len(acked) > len(before)
    assert_whole_copy(copy, before, tables)
    assert_whole_copy(tmp_path / "downloaded.db", downloaded_before, tables)


def test_backup_download_is_the_organizers_only(tmp_path: Path) -> None:
    from companion.web import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "hall.db"),
                      "I18N_CACHE": str(tmp_path / "i18n")})
    client = app.test_client()
    refused = client.get("/organizer/backup", headers={"Accept": "text/html"})
    assert refused.status_code == 401 and b"SQLite" not in refused.data
    key = app.extensions["hall"].organizer_key
    client.get(f"/organizer?key={key}")  # the console's session, as the link opens it
    answer = client.get("/organizer/backup", headers={"Accept": "text/html"})
    assert answer.status_code == 200 and answer.data.startswith(b"SQLite format 3\x00")
    assert answer.headers["Cache-Control"] == "no-store"
    console = client.get("/organizer?lang=nl").get_data(as_text=True)
    assert 'href="/organizer/backup"' in console and "Een back-up downloaden" in console
    app.extensions["hall"].journal.close()
