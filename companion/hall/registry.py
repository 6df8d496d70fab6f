"""The organizer's registry: events and their settings, tables, seats and the tokens that
open them, a table's status, and tables seated from a pasted list. Each change is one journal
record, applied after its commit and then published."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from companion.hall import checks, seating
from companion.hall.checks import HallError, clean_name
from companion.hall.model import Change, HallEvent, Seat, Table, table_changed
from companion.hall.play import evolve, move_records
from companion.hall.replay import apply_event_record, apply_record, rules_of
from companion.hall.shuffle import secure_shuffle
from companion.journal import AppendRequest

if TYPE_CHECKING:
    from companion.hall.service import HallService

NEXT_STATUS = {"running": ("setup", "paused"), "paused": ("running",),
               "ended": ("setup", "running", "paused")}  # a status and those it may follow


def new_token() -> str:
    return secrets.token_urlsafe(16)


def index_tokens(tokens: dict[str, tuple[str, int]], table: Table) -> None:
    """Point the table's seat tokens at its seats, and forget the ones it no longer has."""
    for token in [t for t, (tid, _) in tokens.items() if tid == table.id]:
        del tokens[token]
    for seat, entry in enumerate(table.seats):
        tokens[entry.token] = (table.id, seat)


# ------------------------------------------------------------ events

def create_event(hall: HallService, name: Any, dice_mode: Any = "random") -> HallEvent:
    name = clean_name(name, "event name")
    dice_mode = checks.dice_mode(dice_mode)
    with hall.lock:
        event = HallEvent(str(len(hall.events) + 1), name, dice_mode)
        data = {"id": event.id, "name": name, "dice_mode": dice_mode}
        event.seq = hall.journal.append(event.stream, 0, [("event_created", data)],
                                        author="organizer").last_seq
        hall.events[event.id] = event
    hall.publish(Change(events=[event.id]))
    return event


def update_event(hall: HallService, event_id: Any, settings: dict[str, Any]) -> HallEvent:
    data = checks.event_settings(settings)
    with hall.lock:
        event = hall.event(event_id)
        event.seq = hall.journal.append(event.stream, event.seq, [("settings", data)],
                                        author="organizer").last_seq
        apply_event_record(event, "settings", data)
    hall.publish(Change(events=[event.id]))
    return event


# ------------------------------------------------------------ tables

def create_table(
    hall: HallService, event_id: Any, name: Any, players: Any, ruleset: Any = "machi-koro",
    roll_mode: Any = "hall", options: Any = None,
) -> Table:
    name = clean_name(name, "table name")
    rules, names = checks.table_request(ruleset, roll_mode, players)
    settings = checks.table_options(rules, options)
    checks.player_count(rules, hall.catalog, ruleset, names)
    with hall.lock:
        event = hall.event(event_id)
        table = Table(str(len(hall.tables) + 1), event.id, name, ruleset, roll_mode,
                      [Seat(n, new_token()) for n in names], options=settings)
        data = {"id": table.id, "event_id": event.id, "name": name, "ruleset": ruleset,
                "roll_mode": roll_mode,
                "seats": [{"name": s.name, "token": s.token} for s in table.seats]}
        if settings:
            data["options"] = settings
        table.seq = hall.journal.append(table.stream, 0, [("table_created", data)],
                                        author="organizer").last_seq
        hall.tables[table.id] = table
        event.tables.append(table.id)
        index_tokens(hall.tokens, table)
    hall.publish(Change(tables=[table.id], events=[event.id]))
    return table


def seat_players(
    hall: HallService, event_id: Any, players: Any, ruleset: Any = "machi-koro",
    roll_mode: Any = "hall", table_size: Any = None, name_prefix: Any = "Table",
) -> list[Table]:
    """A pasted list of players split into new tables of at most `table_size` (capped at
    the most the ruleset seats, which is also the default), named "PREFIX N". The whole
    list is checked before any table is created, so a refusal creates none."""
    rules, names = checks.table_request(ruleset, roll_mode, players)
    size = checks.table_size(rules, hall.catalog, table_size)
    low = rules.seats(hall.catalog)[0]
    sizes = seating.table_sizes(len(names), size, low)
    if sizes is None:
        raise checks.invalid(f"{len(names)} players cannot sit at {ruleset} tables "
                             f"of {low} to {size}")
    prefix = clean_name(name_prefix, "table name")
    with hall.lock:
        first = len(hall.event(event_id).tables) + 1
        table_names = [clean_name(f"{prefix} {first + i}", "table name") for i in range(len(sizes))]
        return [create_table(hall, event_id, name, group, ruleset, roll_mode)
                for name, group in zip(table_names, seating.split_players(names, sizes),
                                       strict=True)]


def record(hall: HallService, table_id: Any, kind: str, data: dict[str, Any]) -> Table:
    """Commit one registry record to a table's stream, then apply and publish it."""
    with hall.lock:
        table = hall.table(table_id)
        result = hall.journal.append(table.stream, table.seq, [(kind, data)], author="organizer")
        table.seq = result.last_seq
        apply_record(table, kind, data, hall.catalog)
        index_tokens(hall.tokens, table)
    hall.publish(table_changed(table))
    return table


def rename_table(hall: HallService, table_id: Any, name: Any) -> Table:
    return record(hall, table_id, "renamed", {"name": clean_name(name, "table name")})


def set_status(hall: HallService, table_id: Any, status: str) -> Table:
    with hall.lock:
        table = hall.table(table_id)
        if table.status not in NEXT_STATUS[status]:
            raise HallError("table/status", f"a {table.status} table cannot become {status}")
        if status == "running" and table.state is None:
            return start(hall, table)
        return record(hall, table_id, "status", {"status": status})


def start(hall: HallService, table: Table) -> Table:
    """The first start: the status record and the dealer's move (decks shuffled with
    `secrets`, for rulesets that have decks) in one transaction, so no restart ever finds
    a started table undealt. The journal keeps the order; a replay never shuffles."""
    rules = rules_of(table)
    names = tuple(seat.name for seat in table.seats)
    deal = rules.deal(rules.start(hall.catalog, names, table.options), hall.catalog,
                      secure_shuffle)
    batch = [AppendRequest(table.stream, table.seq, [("status", {"status": "running"})],
                           author="organizer")]
    if deal:
        batch.append(AppendRequest(table.stream, table.seq + 1,
                                   move_records(deal, 1, rules.encode_event), author="dealer"))
    table.seq = hall.journal.append_many(batch)[-1].last_seq
    apply_record(table, "status", {"status": "running"}, hall.catalog)
    if deal:
        evolve(table, 1, "dealer", deal)
    hall.publish(table_changed(table))
    return table


# ------------------------------------------------------------ seats

def add_player(hall: HallService, table_id: Any, name: Any) -> Table:
    name = clean_name(name, "player name")
    with hall.lock:
        table = in_setup(hall, table_id)
        high = rules_of(table).seats(hall.catalog)[1]
        if len(table.seats) >= high:
            raise HallError("table/full", f"a table seats at most {high}")
        return record(hall, table_id, "player_added", {"name": name, "token": new_token()})


def remove_player(hall: HallService, table_id: Any, seat: Any) -> Table:
    with hall.lock:
        table = in_setup(hall, table_id)
        checks.seat_number(len(table.seats), seat)
        low = rules_of(table).seats(hall.catalog)[0]
        if len(table.seats) <= low:
            raise HallError("table/too_few", f"a table seats at least {low}")
        return record(hall, table_id, "player_removed", {"seat": seat})


def reassign_seat(hall: HallService, table_id: Any, seat: Any, name: Any = None) -> Table:
    """A new token for a seat (a lost phone, a new player); the old one stops at once."""
    with hall.lock:
        table = hall.table(table_id)
        number = checks.seat_number(len(table.seats), seat)
        old_name = table.seats[number].name
        new_name = old_name if name is None else clean_name(name, "player name")
        if table.state is not None and new_name != old_name:
            raise HallError("table/started", "a started table keeps its players' names")
        return record(hall, table_id, "seat_reassigned",
                      {"seat": number, "name": new_name, "token": new_token()})


def in_setup(hall: HallService, table_id: Any) -> Table:
    table = hall.table(table_id)
    if table.status != "setup":
        raise HallError("table/started", "players are added and removed before the start")
    return table
