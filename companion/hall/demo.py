"""The demo event: two Machi Koro tables of three seats, one rolling with the hall, one on
its own, both started, so a newcomer sees a real event at once."""

from __future__ import annotations

from typing import Any

from companion.hall.service import HallService

DEMO_TABLES = (
    ("Table 1 (hall roll)", "hall", ["Avi", "Dana", "Noa"]),
    ("Table 2 (own roll)", "own", ["Sam", "Lotte", "יעל"]),
)


def create_demo(hall: HallService) -> dict[str, Any]:
    event = hall.create_event("Demo night")
    seats = []
    for name, mode, players in DEMO_TABLES:
        table = hall.create_table(event.id, name, players, "machi-koro", mode)
        hall.set_status(table.id, "start")
        seats += [{"table": table.id, "seat": i, "name": s.name, "token": s.token,
                   "join_path": s.join_path, "join_code": s.join_code}
                  for i, s in enumerate(table.seats)]
    return {"event": event.id, "organizer_key": hall.organizer_key, "seats": seats}
