"""What each audience sees: pure functions of the hall's state. The same dict renders the
first page and every Socket.IO update; no view ever holds a seat token.

The hall frames each view (the table's id, name, status and journal sequence, the choice's
clock) and its ruleset fills in the game (`Ruleset.common_view`, `seat_view`, `tile_view`)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from json.encoder import encode_basestring_ascii
from typing import Any

from companion.hall import clock
from companion.hall.model import HallEvent, Table
from companion.hall.replay import rebuild_table, rules_of
from companion.journal import Record
from companion.rules.ruleset import SeatRolls, Story


def table_header(table: Table) -> dict[str, Any]:
    return {"id": table.id, "name": table.name, "ruleset": table.ruleset,
            "roll_mode": table.roll_mode, "status": table.status}


def players_json(table: Table) -> list[dict[str, Any]]:
    """The table's players as its seat views list them."""
    return list(table.rules.common_view(table.story())["players"])


def standings_rows(table: Table) -> list[dict[str, Any]]:
    """One row per seat for the standings and the export: name, the ruleset's columns, the
    outcome and the place once the game is over."""
    return table.rules.standings_rows(table.story())


def waited_seconds(table: Table) -> float | None:
    """How long the open choice (Radio Tower, TV Station, Business Center) has waited when the
    view is built; screens count down from the event's choice_seconds."""
    if table.waiting_since is None:
        return None
    return round(max(0.0, time.monotonic() - table.waiting_since), 1)


def seat_view(table: Table, seat: int, choice_seconds: int | None = None) -> dict[str, Any]:
    """What one phone shows. `choice_seconds`, the event's turn timer, lets a phone count down
    with the setting of the moment."""
    return {**common_part(table, choice_seconds), **seat_part(table, seat)}


class EncodedView(dict[str, Any]):
    """A seat's view with `json_text`, its compact JSON as Socket.IO sends it (web/wire.py),
    made with the view and never changed after it."""

    __slots__ = ("json_text",)


def encoded_seat_views(table: Table,
                       choice_seconds: int | None = None) -> list[EncodedView]:
    """Every seat's view of a table with its JSON text, the shared part encoded once: a hall
    roll publishes every seat of every table, so this is the server's hot path."""
    story = table.story()
    common = common_part(table, choice_seconds, story)
    shared = compact_json(common)[1:-1]
    views = []
    for seat in range(len(table.seats)):
        own = seat_part(table, seat, story)
        view = EncodedView(common)
        view.update(own)
        view.json_text = "{" + shared + "," + fields_json(own) + "}"
        views.append(view)
    return views


def compact_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def fields_json(fields: dict[str, Any]) -> str:
    """`compact_json(fields)` without its braces, a value that carries its own compact JSON
    (`json_text`: a seat's build list, made once for every seat with the same list) taken as
    it is: its every card is not encoded again for each seat at each roll."""
    parts: list[str] = []
    plain: dict[str, Any] = {}
    for key, value in fields.items():
        text = getattr(value, "json_text", None)
        if text is None:
            plain[key] = value
            continue
        if plain:
            parts.append(compact_json(plain)[1:-1])
            plain = {}
        parts.append(encode_basestring_ascii(key) + ":" + text)
    if plain:
        parts.append(compact_json(plain)[1:-1])
    return ",".join(parts)


def common_part(table: Table, choice_seconds: int | None,
                story: Story[Any, Any] | None = None) -> dict[str, Any]:
    """The fields of a table's seat views that every seat shares (`story`: the table's, when
    the caller has made it already)."""
    common = {"table": table_header(table), **table.rules.common_view(story or table.story()),
              "seq": table.seq, "waited": waited_seconds(table)}
    if choice_seconds is not None:
        common["choice_seconds"] = choice_seconds
    return common


def seat_part(table: Table, seat: int, story: Story[Any, Any] | None = None) -> dict[str, Any]:
    """The fields of a seat's view after the common part: the seat, and what its rules say it
    may do now (choices, and each option open or closed with the reason)."""
    return {"seat": seat, **table.rules.seat_view(story or table.story(), seat, table.setup)}


def table_summary(table: Table) -> dict[str, Any]:
    """One tile of the hall screen; `roll_due`: the seat whose own roll the table waits for
    (the console offers to roll for it)."""
    return {**table_header(table), **table.rules.tile_view(table.story()),
            "options": dict(table.options),  # the console sets a table's own before its start
            "seq": table.seq, "waited": waited_seconds(table), "roll_due": roll_due(table)}


def roll_due(table: Table) -> int | None:
    rules = table.rules
    if (table.roll_mode != "own" or table.status != "running" or table.state is None
            or not isinstance(rules, SeatRolls)):
        return None
    return rules.roll_due(table.state)


def hall_view(event: HallEvent, tables: list[Table]) -> dict[str, Any]:
    """What the projector shows: every table's summary, the hall's rolls, the event's turn
    and its clock (`clock.turn_json`), and each ruleset's event-wide view (`games`)."""
    return {"event": {"id": event.id, "name": event.name, "dice_mode": event.dice_mode,
                      "choice_seconds": event.choice_seconds,
                      "seat_auto_roll": event.seat_auto_roll, **clock.clock_json(event)},
            "rolls": event.rolls, "tables": [table_summary(t) for t in tables],
            # whether the console offers to undo the last roll (the server may still refuse it
            # when a table moved on since: roll/moved_on names them)
            "roll_undoable": bool(event.rolls) and not event.last_roll_undone
            and not (event.ended or event.over),
            "turn": clock.turn_json(event, tables), "games": clock.games_json(event, tables)}


def turn_message(event: HallEvent, tables: list[Table]) -> EncodedView | None:
    """The phones' `turn` message: the hall view's `turn` with its JSON text made once for
    every phone of the event (web/wire.py sends the text); None when there is no turn yet or
    the event's phones need none (`clock.turn_shown`)."""
    if not event.rolls or not clock.turn_shown(event, tables):
        return None
    turn = clock.turn_json(event, tables)
    assert turn is not None
    # now_ms: the server's clock as it sends, so a phone whose own clock is off counts the
    # deadline by the server's (the page carries none: its ETag would change every load)
    turn = {**turn, "now_ms": clock.now_ms()}
    message = EncodedView(turn)
    message.json_text = compact_json(turn)
    return message


def audit_json(table: Table, records: Iterable[Record]) -> list[dict[str, Any]]:
    """Every move of a table with its facts (as its ruleset journals them), for the organizer's
    audit view: from the table's journal `records`, since memory keeps only the latest moves.
    An undone move stays, marked `undone`, and its reversal follows as an entry of its own
    (`reverts`: the move it took back), as the journal and the export hold them."""
    rules = rules_of(table)
    encode, kinds = rules.encode_fact, rules.fact_kinds
    records = list(records)
    rebuild_table(records)  # the stream checks as a table's
    entries: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for record in records:
        if record.kind in kinds:
            number = record.data["move"]
            if current is None or current["move"] != number:
                current = {"move": number, "author": record.author, "events": []}
                entries.append(current)
            kind, data = encode(rules.decode_fact(record.kind, record.data))
            current["events"].append({"kind": kind, "data": data})
            continue
        current = None
        if record.kind == "reverted":
            number = record.data["move"]
            undone = next(entry for entry in reversed(entries)
                          if entry["move"] == number and "reverts" not in entry
                          and not entry.get("undone"))
            undone["undone"] = True
            entries.append({"move": number, "author": record.author, "events": [],
                            "reverts": number})
    return entries
