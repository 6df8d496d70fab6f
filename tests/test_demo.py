"""Issue 16, item 10 (demo): `companion serve --demo` and `companion demo` reuse the demo event
of the database instead of adding another "Demo night" each time."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import run_companion
from serverproc import ServerProcess, http_json, organizer_key

from companion.hall import HallService
from companion.hall.demo import DEMO_EVENT, create_demo
from companion.journal import SqliteJournal


def test_demo_twice_on_one_hall_is_one_event(tmp_path: Path) -> None:
    with SqliteJournal(tmp_path / "hall.db") as journal:
        hall = HallService(journal)
        first = create_demo(hall)
        second = create_demo(hall)
        assert second == first
        assert [e.name for e in hall.events.values()] == [DEMO_EVENT]
        assert len(hall.tables) == 2


def test_demo_reused_after_a_restart_with_its_seats_as_they_are_now(tmp_path: Path) -> None:
    """A later run finds the demo in the journal: the same event and tables, the seats' current
    tokens (a reassigned seat's new one), and a table the organizer added to it."""
    db = tmp_path / "hall.db"
    with SqliteJournal(db) as journal:
        hall = HallService(journal)
        first = create_demo(hall)
        hall.reassign_seat("1", 0, "Avi")
        hall.create_table(first["event"], "Table 3", ["Kim", "Lev"], "machi-koro", "own")
    with SqliteJournal(db) as journal:
        hall = HallService(journal)
        again = create_demo(hall)
        assert again["event"] == first["event"] and len(hall.events) == 1
        assert again["organizer_key"] == first["organizer_key"]
        tokens = {(s["table"], s["seat"]): s["token"] for s in again["seats"]}
        assert len(tokens) == 8
        assert tokens[("1", 0)] == hall.table("1").seats[0].token != first["seats"][0]["token"]
        assert [s["name"] for s in again["seats"] if s["table"] == "3"] == ["Kim", "Lev"]
        for seat in again["seats"]:
            assert seat["join_path"] == f"/j/{seat['token']}"


def test_demo_is_not_another_event_of_the_same_name_elsewhere(tmp_path: Path) -> None:
    """An organizer's own events stay theirs: the demo is made beside them, then reused."""
    with SqliteJournal(tmp_path / "hall.db") as journal:
        hall = HallService(journal)
        own = hall.create_event("Friday games")
        made = create_demo(hall)
        assert made["event"] != own.id
        assert create_demo(hall)["event"] == made["event"]
        assert sorted(e.name for e in hall.events.values()) == [DEMO_EVENT, "Friday games"]


def test_demo_command_twice_prints_the_same_demo(tmp_path: Path) -> None:
    db = str(tmp_path / "hall.db")
    first, second = (run_companion("demo", "--db", db) for _ in range(2))
    assert first.returncode == second.returncode == 0, second.stderr
    assert json.loads(first.stdout) == json.loads(second.stdout)


def served_demo(db: Path, log: Path) -> dict[str, Any]:
    """`companion serve --demo` on `db` once: the hall screen and join links it printed, and the
    events the served hall has."""
    with ServerProcess(db, log_path=log, extra_args=("--demo",)) as server:
        server.start()
        lines = server.log_tail().splitlines()
        status, events = http_json(f"{server.url}/api/events", key=organizer_key(server))
        assert status == 200
    return {"hall": [line for line in lines if line.startswith("hall screen: ")],
            "joins": [line for line in lines if line.startswith("join: ")], "events": events}


@pytest.mark.slow
def test_demo_serve_demo_again_reuses_the_demo(tmp_path: Path) -> None:
    db = tmp_path / "hall.db"
    first = served_demo(db, tmp_path / "first.log")
    second = served_demo(db, tmp_path / "second.log")
    assert [(e["id"], e["name"]) for e in second["events"]] == [("1", DEMO_EVENT)]
    assert len(first["hall"]) == len(second["hall"]) == 1
    assert re.search(r"/hall/1$", second["hall"][0])
    # the same six seats, the same join links (only the port may differ between runs)
    def paths(lines: list[str]) -> list[str]:
        return [re.sub(r"^join: http://[^/]+", "", line) for line in lines]

    assert len(second["joins"]) == 6 and paths(second["joins"]) == paths(first["joins"])
