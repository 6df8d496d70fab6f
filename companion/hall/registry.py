"""The organizer's registry: events and their settings, tables, seats and the tokens that
open them, a table's status, and tables seated from a pasted list. Each change is one journal
record, applied after its commit and published once the hall's lock is released."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.hall import checks, seating
from companion.hall.checks import HallError, clean_name
from companion.hall.indexes import index_tokens
from companion.hall.model import Change, HallEvent, Seat, Table, table_changed
from companion.hall.play import commit_record, move_records, twice
from companion.hall.replay import apply_event_record, apply_record, dealt, rules_of
from companion.hall.shuffle import secure_shuffle
from companion.hall.table_memory import evolve
from companion.journal import AppendRequest, StaleSequence
from companion.rules.registry import AnyRuleset

if TYPE_CHECKING:
    from companion.hall.state import HallState

# The organizer's table actions: the status each gives, and the statuses it may be taken from.
STATUS_ACTIONS = {"start": ("running", ("setup",)), "pause": ("paused", ("running",)),
                  "resume": ("running", ("paused",)),
                  "end": ("ended", ("setup", "running", "paused"))}

DEFAULT_SETS = ("base",)  # the card sets of a table that names none


def new_token() -> str:
    return secrets.token_urlsafe(16)


# ------------------------------------------------------------ events

def create_event(hall: HallState, name: Any, dice_mode: Any = "random") -> HallEvent:
    name = clean_name(name, "event name")
    dice_mode = checks.dice_mode(dice_mode)
    def act() -> HallEvent:
        # The id is the next one the journal has: its stream is appended at seq 0, so another
        # process that took it first makes this a StaleSequence, and the next id is tried.
        hall.discover()
        event = HallEvent(str(len(hall.events) + 1), name, dice_mode)
        data = {"id": event.id, "name": name, "dice_mode": dice_mode}
        event.seq = hall.journal.append(event.stream, 0, [("event_created", data)],
                                        author="organizer").last_seq
        with hall.memory:
            hall.events[event.id] = event
        return event

    with hall.lock:
        event = twice(hall, act)
    hall.publish(Change(events=[event.id]))
    return event


def update_event(hall: HallState, event_id: Any, settings: dict[str, Any]) -> HallEvent:
    data = checks.event_settings(settings)
    def act() -> HallEvent:
        event = hall.catch_up_event(hall.event(event_id))
        try:
            event.seq = hall.journal.append(event.stream, event.seq, [("settings", data)],
                                            author="organizer").last_seq
        except StaleSequence:
            hall.catch_up_event(event)
            raise
        with hall.memory:
            apply_event_record(event, "settings", data)
        return event

    with hall.lock, hall.hold(hall.event(event_id).stream):
        event = twice(hall, act)
    hall.publish(Change(events=[event.id]))
    return event


# ------------------------------------------------------------ tables

def create_table(
    hall: HallState, event_id: Any, name: Any, players: Any, ruleset: Any = "machi-koro",
    roll_mode: Any = "hall", options: Any = None, card_sets: Any = None,
) -> Table:
    name = clean_name(name, "table name")
    rules, names = checks.table_request(ruleset, roll_mode, players)
    settings = checks.table_options(rules, options)
    sets = checks.card_sets(card_sets)
    checks.player_count(rules, checks.table_setup(rules, settings, sets), settings, ruleset, names)
    with hall.lock:
        [table], beside = twice(hall, lambda: add_tables(hall, hall.event(event_id), [(name, names)],
                                                         ruleset, roll_mode, settings, sets))
    hall.publish(Change(tables=[table.id, *beside], events=[table.event_id]))
    return table


def seat_players(
    hall: HallState, event_id: Any, players: Any, ruleset: Any = "machi-koro",
    roll_mode: Any = "hall", table_size: Any = None, name_prefix: Any = "Table",
    options: Any = None, card_sets: Any = None, table_options: Any = None,
) -> list[Table]:
    """A pasted list of players split into new tables of at most `table_size` (capped at
    the most the ruleset seats, which is also the default), named "PREFIX N", each with the
    ruleset's `options` (the co-op game's difficulty). A chained ruleset's tables (Catan's
    boards) seat exactly as many as it seats. A line may start with the player's registration
    number ("12, Avi", `seating.registration_column`), else the list's order is the
    registration's. `table_options`: a list of option objects, one per new table in order,
    each over `options` (Catan's board letter and colours, one pasted line a board). The
    whole list is checked before any table is created, so a refusal creates none, and the
    tables commit in one transaction."""
    lines, numbers = (seating.registration_column(players) if isinstance(players, list)
                      else (players, None))
    rules, names = checks.table_request(ruleset, roll_mode, lines)
    sets = checks.card_sets(card_sets)
    setup = checks.table_setup(rules, {}, sets)  # the sizes its tables of these sets may have
    size = checks.table_size(rules, setup, table_size)
    seats = rules.seats(setup, {})
    low, high = seats.least, seats.most
    if rules.chained:  # the boards of a chain seat exactly their seats
        low = size = high
    sizes = seating.table_sizes(len(names), size, low)
    if sizes is None:
        raise unseated(ruleset, len(names), low, size, fixed=low == high)
    prefix = clean_name(name_prefix, "table name")
    settings = checks.table_options(rules, options)
    each = per_table_options(rules, options, table_options, len(sizes))
    def act() -> tuple[HallEvent, list[Table], list[str]]:
        hall.discover()
        event = hall.event(event_id)
        first = len(event.tables) + 1
        table_names = [clean_name(f"{prefix} {first + i}", "table name")
                       for i in range(len(sizes))]
        registered = numbers or next_registrations(hall, event, len(names))
        groups = list(zip(table_names, seating.split_players(names, sizes), strict=True))
        tables, beside = add_tables(hall, event, groups, ruleset, roll_mode, each or settings,
                                    sets, seating.split_players(registered, sizes))
        return event, tables, beside

    with hall.lock:
        event, tables, beside = twice(hall, act)
    hall.publish(Change(tables=[*(t.id for t in tables), *beside], events=[event.id]))
    return tables


def per_table_options(rules: AnyRuleset, options: Any, table_options: Any,
                      count: int) -> list[dict[str, Any]] | None:
    """Each new table's options: the i-th object of `table_options` over the common `options`,
    checked by the ruleset; None when no list is given. Refused, naming the entry: not a list,
    more entries than tables, an entry that is not an object or that the ruleset refuses."""
    if table_options is None:
        return None
    if not isinstance(table_options, list):
        raise checks.invalid("table_options is a list of option objects, one per table")
    if len(table_options) > count:
        raise checks.invalid("table_options: {given} entries for {count} tables",
                             given=len(table_options), count=count)
    common = options if isinstance(options, dict) else {}
    found = []
    for i in range(count):
        own = table_options[i] if i < len(table_options) else {}
        if not isinstance(own, dict):
            raise checks.invalid("table_options[{i}] is an object", i=i)
        try:
            found.append(checks.table_options(rules, {**common, **own}))
        except HallError as error:
            raise checks.invalid("table {n}: {why}", n=i + 1,
                                 why=error.detail or error.message) from None
    return found


def next_registrations(hall: HallState, event: HallEvent, count: int) -> list[int]:
    """Registration numbers for `count` players who register now: after the event's highest."""
    last = max((seat.registered or 0 for table in hall.tables_of(event) for seat in table.seats),
               default=0)
    return list(range(last + 1, last + 1 + count))


def unseated(ruleset: str, count: int, low: int, size: int, *, fixed: bool) -> HallError:
    """Why a pasted list of `count` names cannot sit at tables of `low` to `size` players;
    `fixed`: the ruleset itself seats exactly that many (else the organizer chose the size)."""
    name = checks.ruleset_name(ruleset)
    if count == 0:
        return checks.invalid("the list of players is empty")
    if low == size and fixed:
        return checks.invalid("{ruleset} tables seat exactly {size} players: the number of names "
                              "must be a multiple of {size} (the list has {count})",
                              ruleset=name, size=size, count=count)
    if low == size:
        return checks.invalid("the names cannot be split into tables of {size} players (the "
                              "list has {count})", size=size, count=count)
    return checks.invalid("the names cannot be split into {ruleset} tables of {low} to {size} "
                          "players (the list has {count})", ruleset=name, low=low, size=size,
                          count=count)


def add_tables(hall: HallState, event: HallEvent, groups: list[tuple[str, list[str]]],
               ruleset: str, roll_mode: str,
               settings: dict[str, Any] | list[dict[str, Any]],
               card_sets: tuple[str, ...] = DEFAULT_SETS,
               registered: list[list[int]] | None = None) -> tuple[list[Table], list[str]]:
    """Commit checked new tables of the event, `(name, players)` each, in one transaction,
    then register them and their seats' tokens (the caller holds the hall's lock). Ids are
    the next the journal has: each stream is appended at seq 0, so ids another process took
    first make a StaleSequence (after which `discover` has loaded those tables). `registered`:
    each table's players' registration numbers (by default the next ones, in order). Also the
    ids of the event's other tables whose neighbours changed (`chain`)."""
    hall.discover()
    if registered is None:
        numbers = iter(next_registrations(hall, event, sum(len(names) for _, names in groups)))
        registered = [[next(numbers) for _ in names] for _, names in groups]
    first = len(hall.tables) + 1
    each = settings if isinstance(settings, list) else [settings] * len(groups)
    tables = [Table(str(first + i), event.id, name, ruleset, roll_mode,
                    [Seat(n, new_token(), r) for n, r in zip(names, numbers, strict=True)],
                    options=dict(each[i]), card_sets=card_sets)
              for i, ((name, names), numbers) in enumerate(zip(groups, registered, strict=True))]
    try:
        results = hall.journal.append_many([
            AppendRequest(t.stream, 0, [("table_created", created_record(t))], author="organizer")
            for t in tables])
    except StaleSequence:
        hall.discover()
        raise
    with hall.memory:
        for table, result in zip(tables, results, strict=True):
            table.seq = result.last_seq
            hall.tables[table.id] = table
            event.tables.append(table.id)
            index_tokens(hall.tokens, hall.codes, table)
        new = {table.id for table in tables}
        return tables, [table_id for table_id in hall.chain(event) if table_id not in new]


def created_record(table: Table) -> dict[str, Any]:
    """The `table_created` record a table's stream starts with (replay.rebuild_table reads it)."""
    data: dict[str, Any] = {
        "id": table.id, "event_id": table.event_id, "name": table.name, "ruleset": table.ruleset,
        "roll_mode": table.roll_mode,
        "seats": [seat_record(seat) for seat in table.seats]}
    if table.options:
        data["options"] = table.options
    if table.card_sets != DEFAULT_SETS:
        data["card_sets"] = list(table.card_sets)
    return data


def seat_record(seat: Seat) -> dict[str, Any]:
    data: dict[str, Any] = {"name": seat.name, "token": seat.token}
    if seat.registered is not None:
        data["registered"] = seat.registered
    return data


def changing(hall: HallState, table_id: Any, action: Callable[[Table], None]) -> Table:
    """Run `action`, a change of the table checked and committed under the hall's lock, on the
    table as its journal has it (decided again once if another process moved it on meanwhile);
    published once the lock is released, with the seat tokens it revoked (a reassigned or
    removed seat), so their phones can be told at once. A refusal raised inside publishes
    nothing."""
    def act() -> tuple[Table, list[str]]:
        table = hall.catch_up(hall.table(table_id))
        before = [seat.token for seat in table.seats]
        action(table)
        return table, before

    with hall.lock, hall.hold(hall.table(table_id).stream):
        table, before = twice(hall, act)
        kept = {seat.token for seat in table.seats}
        with hall.memory:
            beside = [t for t in hall.chain(hall.events[table.event_id]) if t != table.id]
    change = table_changed(table)
    change.tables += beside  # a renamed (or ended) board's neighbours show its name
    change.revoked = [token for token in before if token not in kept]
    hall.publish(change)
    return table


def record(hall: HallState, table: Table, kind: str, data: dict[str, Any]) -> None:
    """Commit one registry record to a table's stream, apply it and follow its seats' tokens
    (the table's stream held)."""
    commit_record(hall, table, kind, data)
    with hall.memory:
        index_tokens(hall.tokens, hall.codes, table)


def rename_table(hall: HallState, table_id: Any, name: Any) -> Table:
    name = clean_name(name, "table name")

    def act(table: Table) -> None:
        record(hall, table, "renamed", {"name": name})

    return changing(hall, table_id, act)


def set_options(hall: HallState, table_id: Any, options: Any) -> Table:
    """Change a table's set-up options before its start (a Catan board's letter and colours,
    seated from one list with the same options for every board), checked by its ruleset as
    at its creation; the options it does not name keep their values."""
    if not isinstance(options, dict):
        raise checks.invalid("options is an object")

    def act(table: Table) -> None:
        if table.status != "setup":
            raise HallError("table/started", "a table's options are set before its start")
        chosen = checks.table_options(rules_of(table), {**table.options, **options})
        record(hall, table, "options_set", {"options": chosen})

    return changing(hall, table_id, act)


def set_status(hall: HallState, table_id: Any, action: str) -> Table:
    """Start, pause, resume or end a table (STATUS_ACTIONS), each only from its own statuses:
    Resume must not start a table still being set up."""
    status, allowed = STATUS_ACTIONS[action]

    def act(table: Table) -> None:
        if table.status not in allowed:
            raise HallError("table/status", f"a {table.status} table cannot become {status}")
        if status == "running" and table.state is None:
            start(hall, table)
        else:
            record(hall, table, "status", {"status": status})

    return changing(hall, table_id, act)


def start(hall: HallState, table: Table) -> None:
    """The first start: the status record and the dealer's move (decks shuffled with
    `secrets`, for rulesets that have decks) in one transaction, so no restart ever finds
    a started table undealt. The journal keeps the order; a replay never shuffles."""
    rules = rules_of(table)
    deal = dealt(table, secure_shuffle)
    batch = [AppendRequest(table.stream, table.seq, [("status", {"status": "running"})],
                           author="organizer")]
    if deal:
        batch.append(AppendRequest(table.stream, table.seq + 1,
                                   move_records(deal, 1, rules.encode_fact), author="dealer"))
    try:
        last = hall.journal.append_many(batch)[-1].last_seq
    except StaleSequence:
        if hall.shared:
            hall.reload(table)
        raise
    with hall.memory:
        if table.seq != batch[0].expected_seq:
            return  # a catch-up applied it from the journal already
        table.seq = last
        apply_record(table, "status", {"status": "running"})
        if deal:
            evolve(table, 1, "dealer", deal)


# ------------------------------------------------------------ seats

def add_player(hall: HallState, table_id: Any, name: Any) -> Table:
    name = clean_name(name, "player name")

    def act(table: Table) -> None:
        check_in_setup(table)
        high = rules_of(table).seats(table.setup, table.options).most
        if len(table.seats) >= high:
            raise HallError("table/full", f"a table seats at most {high}")
        [number] = next_registrations(hall, hall.events[table.event_id], 1)
        record(hall, table, "player_added",
               {"name": name, "token": new_token(), "registered": number})

    return changing(hall, table_id, act)


def remove_player(hall: HallState, table_id: Any, seat: Any) -> Table:
    def act(table: Table) -> None:
        check_in_setup(table)
        number = checks.seat_number(len(table.seats), seat)
        low = rules_of(table).seats(table.setup, table.options).least
        if len(table.seats) <= low:
            raise HallError("table/too_few", f"a table seats at least {low}")
        record(hall, table, "player_removed", {"seat": number})

    return changing(hall, table_id, act)


def reassign_seat(hall: HallState, table_id: Any, seat: Any, name: Any = None) -> Table:
    """A new token for a seat (a lost phone, a new player); the old one stops at once."""

    def act(table: Table) -> None:
        number = checks.seat_number(len(table.seats), seat)
        old_name = table.seats[number].name
        new_name = old_name if name is None else clean_name(name, "player name")
        if table.state is not None and new_name != old_name:
            raise HallError("table/started", "a started table keeps its players' names")
        record(hall, table, "seat_reassigned",
               {"seat": number, "name": new_name, "token": new_token()})

    return changing(hall, table_id, act)


def check_in_setup(table: Table) -> None:
    if table.status != "setup":
        raise HallError("table/started", "players are added and removed before the start")
