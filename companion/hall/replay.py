"""Tables and events rebuilt from their journal records: the one fold used at start and by
tests, and the one place each registry record is applied."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from companion.hall.model import HallEvent, Move, Seat, Table
from companion.journal import Record
from companion.rules.registry import AnyRuleset
from companion.rules.ruleset import Dealt, Shuffle


def rules_of(table: Table) -> AnyRuleset:
    """The rules a table plays, from the registry by its ruleset's name."""
    return table.rules


def start_state(table: Table) -> Any:
    """The starting cards and coins of a table's first start (a ruleset with decks deals them
    in the move that follows, from the journal)."""
    names = tuple(seat.name for seat in table.seats)
    return rules_of(table).start(table.setup, names, table.options)


def dealt(table: Table, shuffle: Shuffle) -> list[Any]:
    """The facts of the deal that follows a table's first start, shuffled by `shuffle`; none
    for a ruleset that deals nothing (not `Dealt`)."""
    rules = rules_of(table)
    return rules.deal(start_state(table), table.setup, shuffle) if isinstance(rules, Dealt) else []


def apply_record(table: Table, kind: str, data: dict[str, Any]) -> None:
    """Apply one registry record (names, seats, status, undo) to a table."""
    if kind == "renamed":
        table.name = data["name"]
    elif kind == "options_set":
        table.options = dict(data["options"])
    elif kind == "player_added":
        table.seats.append(Seat(data["name"], data["token"], data.get("registered")))
    elif kind == "player_removed":
        del table.seats[data["seat"]]
    elif kind == "seat_reassigned":  # a new card for the seat: its registration stays
        old = table.seats[data["seat"]]
        table.seats[data["seat"]] = Seat(data["name"], data["token"], old.registered)
    elif kind == "status":
        table.status = data["status"]
        if table.status == "running" and table.state is None:
            table.state = start_state(table)
        table.time_choice(fresh=True)
    elif kind == "reverted":
        table.undo(table.moves.pop())
        table.time_choice(fresh=True)


def rebuild_table(records: Iterable[Record]) -> Table:
    """The table a stream's records describe, moves grouped by their move number."""
    table: Table | None = None
    for record in records:
        data = record.data
        if record.kind == "table_created":
            table = Table(
                id=data["id"], event_id=data["event_id"], name=data["name"],
                ruleset=data["ruleset"], roll_mode=data["roll_mode"],
                seats=[Seat(s["name"], s["token"], s.get("registered")) for s in data["seats"]],
                options=data.get("options", {}), card_sets=tuple(data.get("card_sets", ("base",))),
            )
        elif table is None:
            raise ValueError(f"stream {record.stream!r} does not start with table_created")
        elif record.kind in rules_of(table).fact_kinds:
            assert table.state is not None
            fact = rules_of(table).decode_fact(record.kind, data)
            if not table.moves or table.moves[-1].number != data["move"]:
                table.moves.append(Move(data["move"], record.author, [], table.state))
            table.moves[-1].facts.append(fact)
            table.move_to(rules_of(table).evolve(table.state, (fact,)))
        else:
            apply_record(table, record.kind, data)
        table.seq = record.seq
    if table is None:
        raise ValueError("an empty table stream")
    return table


def apply_event_record(event: HallEvent, kind: str, data: dict[str, Any],
                       at: str | None = None) -> None:
    """Apply one record of an event's stream (settings, the balanced deck, a hall roll, the
    clock of its turns); `at`, the record's time, times the clock (hall/clock.py)."""
    when = epoch_seconds(at)
    if kind == "settings":
        event.dice_mode = data.get("dice_mode", event.dice_mode)
        event.choice_seconds = data.get("choice_seconds", event.choice_seconds)
        event.seat_auto_roll = data.get("seat_auto_roll", event.seat_auto_roll)
    elif kind == "deck_shuffled":
        event.deck = [list(pair) for pair in data["deck"]]
    elif kind == "hall_rolled":
        event.rolls.append(list(data["dice"]))
        event.follow_ups.append(list(data.get("follow_up", ())))
        event.last_roll_undone = False
        if data.get("from_deck"):
            event.deck.pop(0)
        start_turn(event, when, paused=False)
    elif kind == "roll_undone":  # the latest hall roll taken back (hall_roll.undo_hall_roll)
        event.rolls.pop()
        event.follow_ups.pop()
        event.undone_rolls += 1
        event.last_roll_undone = True
        # The turn back gets its whole time again; paused only by the organizer's own pause,
        # not by the rules' pause after the roll taken back (its discard check never happens).
        own_pause = event.paused and event.paused_after_roll is None
        start_turn(event, when, paused=own_pause)
    else:
        apply_clock_record(event, kind, data, when)


def apply_clock_record(event: HallEvent, kind: str, data: dict[str, Any], when: float) -> None:
    """The clock's records (hall/clock.py): its settings, a pause, a resume, the end; and the
    game over, which its rulesets said when a roll was asked."""
    if kind == "clock":
        if "schedule" in data:
            event.schedule = [list(step) for step in data["schedule"] or ()]
        event.auto_roll = data.get("auto_roll", event.auto_roll)
    elif kind == "paused":
        event.paused_at = when
        event.paused_after_roll = data.get("after_roll")
    elif kind == "resumed" and event.paused_at is not None:
        event.paused_seconds += max(0.0, when - event.paused_at)
        event.paused_at = None
        event.paused_after_roll = None
    elif kind == "event_ended":
        event.ended = True
    elif kind == "game_over":
        event.over = True
    elif kind == "turn_closing":
        event.closing_roll = data["roll"]
    elif kind == "production_ended" and data.get("roll") == len(event.rolls):
        event.production_ended = True


def start_turn(event: HallEvent, when: float, *, paused: bool) -> None:
    """A turn's time begins at `when` (a roll, or the undo that brought the turn back)."""
    event.turn_started = when
    event.paused_seconds = 0.0
    event.closing_roll = None
    event.production_ended = False
    event.paused_at = when if paused else None
    if not paused:
        event.paused_after_roll = None


def epoch_seconds(at: str | None) -> float:
    """A record's `at` (ISO-8601 UTC) as seconds since the epoch; 0 without one."""
    if not at:
        return 0.0
    try:
        return datetime.fromisoformat(at).timestamp()
    except ValueError:
        return 0.0


def apply_event_records(event: HallEvent, records: Iterable[Record]) -> None:
    """Apply records of the event's stream read from the journal, each with its time."""
    for record in records:
        apply_event_record(event, record.kind, record.data, record.at)
        event.seq = record.seq


def rebuild_event(records: Iterable[Record]) -> HallEvent | None:
    """The event a stream's records describe (its tables are listed by the tables' streams),
    or None for a stream without its event_created record."""
    event: HallEvent | None = None
    for record in records:
        if record.kind == "event_created":
            event = HallEvent(record.data["id"], record.data["name"], record.data["dice_mode"])
        elif event is not None:
            apply_event_record(event, record.kind, record.data, record.at)
        if event is not None:
            event.seq = record.seq
    return event
