"""The demo event: two Machi Koro tables of three seats, one rolling with the hall, one on
its own, both started, so a newcomer sees a real event at once. Made once per database: a
later `companion serve --demo` or `companion demo` finds it and hands out its seats again."""

from __future__ import annotations

from typing import Any

from companion.hall import registry
from companion.hall.model import HallEvent
from companion.hall.state import HallState

DEMO_EVENT = "Demo night"
DEMO_TABLES = (
    ("Table 1 (hall roll)", "hall", ["Avi", "Dana", "Noa"]),
    ("Table 2 (own roll)", "own", ["Sam", "Lotte", "יעל"]),
)


def create_demo(hall: HallState) -> dict[str, Any]:
    """The demo event, made now or found from an earlier run: its id, the organizer's key and
    every seat of its tables as they are now (a reassigned seat's new token, a table added)."""
    with hall.lock:
        event = find_demo(hall) or _make_demo(hall)
        seats = [{"table": table.id, "seat": i, "name": s.name, "token": s.token,
                  "join_path": s.join_path, "join_code": s.join_code}
                 for table in hall.tables_of(event)
                 for i, s in enumerate(table.seats)]
    return {"event": event.id, "organizer_key": hall.organizer_key, "seats": seats}


def find_demo(hall: HallState) -> HallEvent | None:
    """The first event named as the demo whose first tables are the demo's, else None."""
    names = [name for name, _, _ in DEMO_TABLES]
    for event in sorted(hall.events.values(), key=lambda e: int(e.id)):
        tables = [table.name for table in hall.tables_of(event)]
        if event.name == DEMO_EVENT and tables[:len(names)] == names:
            return event
    return None


def _make_demo(hall: HallState) -> HallEvent:
    event = registry.create_event(hall, DEMO_EVENT)
    for name, mode, players in DEMO_TABLES:
        table = registry.create_table(hall, event.id, name, players, "machi-koro", mode)
        registry.set_status(hall, table.id, "start")
    return hall.event(event.id)
