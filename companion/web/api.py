"""The organizer's JSON API (docs/api.md): events, tables, the hall roll, corrections, export."""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion import __version__
from companion.hall import HallError
from companion.hall import series as hall_series
from companion.hall.checks import N_, Detail, invalid, malformed, seat_number, unicode_only
from companion.hall.clock import clock_json, turn_json
from companion.hall.model import HallEvent, Table
from companion.hall.pin import PIN_DIGITS
from companion.hall.printables import event_places
from companion.hall.registry import STATUS_ACTIONS
from companion.hall.views import audit_json, hall_view, players_json, standings_rows, table_header
from companion.rules.registry import ruleset
from companion.web.auth import organizer_required, service
from companion.web.errors import opened_in_browser
from companion.web.pages import phone_base_url, qr_svg

bp = Blueprint("api", __name__)
DEFAULT_RULESET = "machi-koro"  # a table or seating that names no ruleset plays this one


def body() -> dict[str, Any]:
    """The request's JSON object; a malformed one is a 400 with a message."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # nested thousands deep: valid JSON no request of ours needs
        raise malformed("the body is not valid JSON") from None
    if data is None and request.get_data():
        raise malformed("the body is not valid JSON")
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise malformed("the body must be a JSON object")
    return unicode_only(data)


def table_json(table: Table) -> dict[str, Any]:
    """A table for the organizer: its seats with their tokens, join links and join codes."""
    base = phone_base_url()
    seats = [{"seat": i, "name": s.name, "token": s.token, "join_path": s.join_path,
              "join_code": s.join_code, "join_url": base + s.join_path,
              "registered": s.registered}
             for i, s in enumerate(table.seats)]
    return {**table_header(table), "event_id": table.event_id, "seats": seats,
            "neighbours": list(table.neighbours), "options": dict(table.options),
            "card_sets": list(table.card_sets)}


@bp.get("/healthz")
def healthz() -> Any:
    return jsonify({"ok": True, "version": __version__, "events": len(service().events),
                    "tables": len(service().tables)})


@bp.post("/api/events")
@organizer_required
def create_event() -> Any:
    data = body()
    event = service().create_event(data.get("name"), data.get("dice_mode", "random"))
    return jsonify({"id": event.id, "name": event.name, "dice_mode": event.dice_mode}), 201


@bp.get("/api/events")
@organizer_required
def list_events() -> Any:
    hall = service()
    with hall.lock:
        return jsonify([{"id": e.id, "name": e.name, "tables": e.tables} for e in hall.events.values()])


@bp.get("/api/events/<event_id>")
@organizer_required
def get_event(event_id: str) -> Any:
    hall = service()
    with hall.lock:
        event = hall.event(event_id)
        tables = hall.tables_of(event)
        return jsonify({**hall_view(event, tables),
                        "table_seats": [table_json(t) for t in tables]})


@bp.post("/api/events/<event_id>/settings")
@organizer_required
def event_settings(event_id: str) -> Any:
    event = service().update_event(event_id, body())
    return jsonify({"id": event.id, "dice_mode": event.dice_mode,
                    "choice_seconds": event.choice_seconds})


@bp.post("/api/events/<event_id>/tables")
@organizer_required
def create_table(event_id: str) -> Any:
    data = body()
    table = service().create_table(event_id, data.get("name"), data.get("players"),
                                   data.get("ruleset", DEFAULT_RULESET), data.get("roll_mode", "hall"),
                                   table_options(data), data.get("card_sets"))
    return jsonify(table_json(table)), 201


TABLE_FIELDS = frozenset({"name", "players", "ruleset", "roll_mode", "table_size", "name_prefix",
                          "card_sets", "table_options"})


def table_options(data: dict[str, Any]) -> Any:
    """The ruleset's set-up options a body names: its `options` object, or the fields beside
    the table's own (`{"assessor_coins": 9}`, as the console sends them). The ruleset checks
    them; a field it does not know is refused, not dropped."""
    if "options" in data:
        return data["options"]
    options = {key: value for key, value in data.items() if key not in TABLE_FIELDS}
    return options or None


@bp.post("/api/events/<event_id>/seating")
@organizer_required
def seat_players(event_id: str) -> Any:
    """A pasted list of players split into new tables of at most `table_size`."""
    data = body()
    tables = service().seat_players(
        event_id, data.get("players"), data.get("ruleset", DEFAULT_RULESET),
        data.get("roll_mode", "hall"), data.get("table_size"), data.get("name_prefix", "Table"),
        table_options(data), data.get("card_sets"), data.get("table_options"))
    return jsonify({"tables": [table_json(t) for t in tables]}), 201


@bp.post("/api/organizer/pin")
@organizer_required
def organizer_pin() -> Any:
    """Set (`{"pin": "DIGITS"}`) or clear (`{"pin": null}`) the PIN of a second device."""
    data = body()
    if "pin" not in data:
        low, high = PIN_DIGITS
        raise invalid("the body is {set} ({low} to {high} digits) or {clear}",
                      set='{"pin": "DIGITS"}', low=low, high=high, clear='{"pin": null}')
    return jsonify({"pin_set": service().set_organizer_pin(data["pin"])})


@bp.post("/api/events/<event_id>/roll")
@organizer_required
def hall_roll(event_id: str) -> Any:
    """The server draws the dice, or takes `{"dice": [d1, d2]}` rolled by hand in the hall;
    `"confirm": false` (the console) is refused a roll right after the last one, true is yes;
    `"follow_up": [d1, d2]`: the follow-up dice rolled by hand, when the rules ask for some."""
    data = body()
    return jsonify(service().hall_roll(event_id, data.get("dice"), data.get("confirm"),
                                       follow_up=data.get("follow_up")))


def clock_answer(event: HallEvent) -> Any:
    """The event's clock after a change: its settings and the turn (the hall view's)."""
    hall = service()
    with hall.lock:
        return jsonify({"id": event.id, **clock_json(event),
                        "turn": turn_json(event, hall.tables_of(event))})


@bp.post("/api/events/<event_id>/clock")
@organizer_required
def event_clock(event_id: str) -> Any:
    """The turns' schedule (`[[first turn, seconds], ...]`, null for none) and/or auto-roll."""
    data = body()
    fields = {name: data[name] for name in ("schedule", "auto_roll") if name in data}
    return clock_answer(service().set_clock(event_id, **fields))


@bp.post("/api/events/<event_id>/pause")
@organizer_required
def pause_event(event_id: str) -> Any:
    """Stop the clock of the event's turn (the time left is kept)."""
    body()  # a malformed body is refused, as everywhere
    return clock_answer(service().pause_event(event_id))


@bp.post("/api/events/<event_id>/production/end")
@organizer_required
def end_production(event_id: str) -> Any:
    """End the current turn's production early for the whole hall (RULES.md 21): trading may
    start; journalled like the clock's other changes."""
    body()
    return clock_answer(service().end_production(event_id))


@bp.post("/api/events/<event_id>/resume")
@organizer_required
def resume_event(event_id: str) -> Any:
    """Run the paused clock on."""
    body()
    return clock_answer(service().resume_event(event_id))


@bp.post("/api/events/<event_id>/end")
@organizer_required
def end_event(event_id: str) -> Any:
    """End the event: the hall rolls no more."""
    body()
    return clock_answer(service().end_event(event_id))


@bp.post("/api/events/<event_id>/roll/undo")
@organizer_required
def undo_hall_roll(event_id: str) -> Any:
    """Take back the event's latest hall roll while none of its tables has moved since."""
    return jsonify(service().undo_hall_roll(event_id))


@bp.post("/api/tables/<table_id>/<action>")
@organizer_required
def table_action(table_id: str, action: str) -> Any:
    hall, data = service(), body()
    if action in STATUS_ACTIONS:
        table = hall.set_status(table_id, action)
    elif action == "adjust":
        table = hall.adjust(table_id, data.get("seat"), data.get("amount"), data.get("reason"))
    elif action == "undo":
        table = hall.undo(table_id)
    elif action == "rename":
        table = hall.rename_table(table_id, data.get("name"))
    elif action == "options":
        table = hall.set_table_options(table_id, data.get("options"))
    elif action == "add_player":
        table = hall.add_player(table_id, data.get("name"))
    elif action == "remove_player":
        table = hall.remove_player(table_id, data.get("seat"))
    elif action == "reassign":
        table = hall.reassign_seat(table_id, data.get("seat"), data.get("name"))
    elif action == "staff_move":
        table = hall.staff_move(table_id, data.get("move"))
    elif action == "roll_for_seat":
        table = hall.roll_for_seat(table_id)
    elif action == "end_turn_for_seat":
        table = hall.end_turn_for_seat(table_id, data.get("seat"))
    else:
        raise HallError("request/unknown_action",
                        Detail(N_("unknown table action {action}"), {"action": repr(action)}))
    return jsonify({**table_json(table), "players": players_json(table)})


@bp.get("/api/tables/<table_id>/seats/<seat>/qr.svg")
@organizer_required
def seat_qr(table_id: str, seat: str) -> Any:
    """A seat's join link as a QR code, for the console to show on screen (a new link after a
    lost card): drawn here, as the console loads no QR library; never cached (it holds the
    seat's token)."""
    hall = service()
    with hall.lock:
        table = hall.table(table_id)
        # ASCII digits only, and few: int("²") fails, and so does one of 5,000 digits (review)
        plain = seat.isascii() and seat.isdigit() and len(seat) <= 4
        number = seat_number(len(table.seats), int(seat) if plain else seat)
        path = table.seats[number].join_path
    return Response(qr_svg(phone_base_url() + path), mimetype="image/svg+xml",
                    headers={"Cache-Control": "no-store"})


@bp.get("/api/tables/<table_id>/journal")
@organizer_required
def table_journal(table_id: str) -> Any:
    hall = service()
    with hall.lock:
        table = hall.table(table_id)
        return jsonify(audit_json(table, hall.journal.read(table.stream)))


@bp.get("/api/events/<event_id>/export")
@opened_in_browser  # the console opens it as a link
@organizer_required
def export(event_id: str) -> Any:
    hall = service()
    form = request.args.get("format", "json")
    if form not in ("json", "csv"):
        raise invalid("format is json or csv")
    with hall.lock:
        event = hall.event(event_id)
        tables = hall.tables_of(event)
        columns = export_columns(tables)
        places = event_places(event, tables)
        results = [result_row(t, placed(t, row, places), columns)
                   for t in tables for row in standings_rows(t)]
        journal = [{"table": t.id, "seq": r.seq, "kind": r.kind, "author": r.author, "at": r.at,
                    "data": r.data} for t in tables for r in hall.journal.read(t.stream)
                   if r.kind not in ("table_created", "player_added", "seat_reassigned")]
    if form == "json":
        return jsonify({"event": {"id": event.id, "name": event.name}, "rolls": event.rolls,
                        "results": results, "journal": journal})
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=("table", "seat", "player", *columns, "winner", "result"))
    writer.writeheader()
    writer.writerows({column: spreadsheet_text(as_printed(column, value))
                      for column, value in row.items()} for row in results)
    # The byte order mark tells Excel the file is UTF-8; without it Hebrew names are garbled.
    return Response("\ufeff" + out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f"attachment; filename=event-{event.id}.csv"})


def spreadsheet_text(value: Any) -> Any:
    """A player's or table's name as a spreadsheet shows it, never as a formula: text starting
    with = + - @ (or a tab or return) gets a leading apostrophe (OWASP's CSV injection advice)."""
    if isinstance(value, str) and value.startswith(("=", "+", "-", "@", "\t", "\r")):
        return "'" + value
    return value


def as_printed(column: str, value: Any) -> Any:
    """A value of the CSV as the paper and the screens say it: seats numbered from 1 as the
    cards print them (the API's are from 0), yes or no for a true or false."""
    if column == "seat" and isinstance(value, int):
        return value + 1
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value


def export_columns(tables: list[Table]) -> tuple[str, ...]:
    """The players' registration numbers when the event's tables have them, then the columns
    of the rulesets the event's tables play (each once, in table order; an event without
    tables: the default ruleset's, so the file's header stays the same)."""
    rulesets = [t.rules for t in tables] or [ruleset(DEFAULT_RULESET)]
    registered = ("registered",) if any(t.registered for t in tables) else ()
    return (*registered,
            *dict.fromkeys(key for rules in rulesets for key in rules.export_columns()))


def placed(table: Table, row: dict[str, Any],
           places: dict[tuple[str, int], tuple[int, bool]]) -> dict[str, Any]:
    """A seat's row with its place in the event where its ruleset ranks the whole event (one
    game over all its tables: Catan's, RULES.md 24), else its place at its table."""
    found = places.get((str(table.id), int(row["seat"])))
    return row if found is None else {**row, "place": found[0]}


def result_row(table: Table, row: dict[str, Any], columns: tuple[str, ...]) -> dict[str, Any]:
    """One player's line of the results: the registration number the hall gave the seat, the
    ruleset's columns (blank where another ruleset's); `result` is "won", "lost" (a co-op pair
    shares theirs) or "" while the game runs."""
    outcome = row.get("outcome") or ""
    seat = row["seat"]
    values = {**row, "registered": table.seats[seat].registered}
    return {"table": table.name, "seat": seat, "player": row["name"],
            **{key: values.get(key) for key in columns}, "winner": outcome == "won",
            "result": outcome}


# ------------------------------------------------------------ series (hall/series.py)


def series_json(series: hall_series.Series, status: int = 200) -> Any:
    return jsonify(hall_series.view(service(), series)), status


@bp.post("/api/events/<event_id>/series")
@organizer_required
def create_series(event_id: str) -> Any:
    """A new series of a ruleset's games (a Legacy campaign): `ruleset`, and the ruleset's
    fields (Legacy: `name`, `mayors`, `catalog`)."""
    return series_json(hall_series.create(service(), event_id, body()), 201)


@bp.get("/api/events/<event_id>/series")
@organizer_required
def list_series(event_id: str) -> Any:
    hall = service()
    return jsonify({"series": [hall_series.view(hall, s)
                               for s in hall_series.of_event(hall, event_id)]})


@bp.get("/api/series/<series_id>")
@organizer_required
def get_series(series_id: str) -> Any:
    return series_json(hall_series.series_of(service(), series_id))


@bp.post("/api/series/<series_id>/commands")
@organizer_required
def series_command(series_id: str) -> Any:
    """One organizer's command on the series (`{"command": ..., ...}`, the ruleset's)."""
    return series_json(hall_series.command(service(), series_id, body()))


@bp.post("/api/series/<series_id>/next")
@organizer_required
def next_game(series_id: str) -> Any:
    """The series' next game: its set-up (fields left out take the proposal); its table is
    created and started."""
    series, table = hall_series.next_game(service(), series_id, body())
    return jsonify({"series": hall_series.view(service(), series), "table": table_json(table)}), 201
