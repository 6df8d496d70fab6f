"""Bytes on the air for a hall's changes: the Socket.IO packets every phone receives after a hall
roll (and after a move between rolls), sent as `table` messages (one per table, the same text
to each of its phones: hall/frames.py) against the seat views each phone got before issue 24
(`hall.views.encoded_seat_views`, one view per phone), on the same games in the same run.

    PYTHONPATH=. python scripts/air_bytes.py [--tables 275] [--rolls 10] [--mix]

The hall is `companion bench views`'s: `tables` hall-mode tables of 4 (with --mix a quarter each
of the base game, variable supply, play on and the co-op game), seeded; between rolls most
active seats build what their view offers. A packet is `42["EVENT",JSON]`; Engine.IO's and the
WebSocket's framing (a few bytes per packet, one packet per phone either way) is left out.
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any


def packet_bytes(event: str, text: str) -> int:
    return len(f'42["{event}",{text}]'.encode())


def measure(tables: int, rolls: int, mix: bool, seed: int = 1) -> dict[str, Any]:
    from companion.bench.views import _kind, _play
    from companion.hall.frames import frame_of, table_message
    from companion.hall.service import HallService
    from companion.hall.views import compact_json, encoded_seat_views
    from companion.journal import SqliteJournal

    rng = random.Random(seed)
    secrets.randbelow = random.Random(seed + 1).randrange  # type: ignore[assignment]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        hall = HallService(SqliteJournal(str(Path(folder) / "hall.db")))
        event = hall.create_event("Bytes", "random")
        for number in range(1, tables + 1):
            ruleset, options, seats = _kind(number, mix)
            table = hall.create_table(event.id, f"Table {number}",
                                      [f"P{number}-{s + 1}" for s in range(seats)],
                                      ruleset, "hall", options)
            hall.set_status(table.id, "start")
        phones = sum(len(t.seats) for t in hall.tables.values())
        for _ in range(rolls):
            _play(hall, rng, len(rows))
            sent = {t.id: frame_of(t, s) for t, s in hall.view_copies(list(hall.tables))}
            hall.hall_roll(event.id, [rng.randint(1, 6), rng.randint(1, 6)])
            before = after = 0
            for table, seconds in hall.view_copies(list(hall.tables)):
                before += sum(packet_bytes("view", v.json_text)  # type: ignore[attr-defined]
                              for v in encoded_seat_views(table, choice_seconds=seconds))
                message = table_message(table.id, sent[table.id], frame_of(table, seconds))
                after += packet_bytes("table", compact_json(message)) * len(table.seats)
            rows.append({"before": before, "after": after})
        hall.journal.close()
    befores = [row["before"] for row in rows]
    afters = [row["after"] for row in rows]
    return {"tables": tables, "phones": phones, "rolls": rolls, "mix": mix,
            "before_median": statistics.median(befores), "after_median": statistics.median(afters),
            "change_median": f"{statistics.median(a / b - 1 for a, b in zip(afters, befores)):+.1%}",
            "change_max": f"{max(a / b - 1 for a, b in zip(afters, befores)):+.1%}",
            "by_roll": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=275)
    parser.add_argument("--rolls", type=int, default=10)
    parser.add_argument("--mix", action="store_true")
    args = parser.parse_args()
    json.dump(measure(args.tables, args.rolls, args.mix), sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
