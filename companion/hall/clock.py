"""The clock of an event's turns: roll N is the event's turn N; its time is the organizer's
schedule's (`[first turn, seconds]` steps, companion/rules/schedule.py) from the roll, plus the
time the clock was paused; the server rolls when it is up if `auto_roll` is on (the timer's
round: hall_roll.roll_when_due). The organizer pauses, resumes and ends the event.

Everything is a record of the event's stream (`clock`, `paused`, `resumed`, `event_ended`,
`game_over`, and the rolls' `hall_rolled`) with its time, so a restart resumes the same turn
with the same deadline (replay.apply_event_record). The hall learns no game's turn: it asks the
rulesets of the event's tables that have a shared turn (`SharedTurn.follow_up_dice`,
`pauses_after`, `turn_view`, `hall_over`, `event_view`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from companion.hall import dice as hall_dice
from companion.hall.checks import HallError, invalid, rules_refusal
from companion.hall.model import Change, HallEvent, Table, follows_turn
from companion.hall.play import move_records, next_move_number, twice
from companion.hall.table_memory import evolve, note_state
from companion.journal import AppendRequest, NewRecord, StaleSequence
from companion.rules.errors import RuleError, is_whole_number
from companion.rules.registry import (
    AnyRuleset,
    production_for,
    read_schedule,
    ruleset,
    schedule_json,
    seconds_for,
)
from companion.rules.ruleset import HallTurn, SharedTurn

if TYPE_CHECKING:
    from companion.hall.state import HallState

# ------------------------------------------------------------ the turn as it stands

def hall_turn(event: HallEvent) -> HallTurn | None:
    """The event's latest roll as the rules see it; None before the first."""
    return event.hall_turn()


def seconds(event: HallEvent) -> int | None:
    """The current turn's time by the schedule; None without a schedule or a roll."""
    if not event.schedule or not event.rolls:
        return None
    return seconds_for(read_schedule(event.schedule), len(event.rolls))


def production_seconds(event: HallEvent) -> int | None:
    """The current turn's opening production by the schedule (RULES.md 21: no trading until
    the resources are handed out); 0 once the organizer ended it early; None without a
    schedule or a roll."""
    if not event.schedule or not event.rolls:
        return None
    return 0 if event.production_ended else production_for(read_schedule(event.schedule),
                                                            len(event.rolls))


def runs(event: HallEvent) -> bool:
    """Whether the current turn's time counts: a roll, a schedule, and the event still on."""
    return seconds(event) is not None and event.turn_started is not None and not (
        event.ended or event.over)


def time_up_at(event: HallEvent) -> float | None:
    """When the current turn's time is up (seconds since the epoch) as the clock stands: the
    roll's time, the turn's seconds and the time paused (a pause going on counts up to now
    only in `remaining`); None when the time does not count."""
    if not runs(event):
        return None
    assert event.turn_started is not None
    return event.turn_started + (seconds(event) or 0) + event.paused_seconds


def deadline(event: HallEvent) -> float | None:
    """When the current turn's time is up; None when it does not count or is paused."""
    return None if event.paused else time_up_at(event)


def remaining(event: HallEvent) -> float | None:
    """The time the paused turn has left; None unless the clock is paused with time counting."""
    end = time_up_at(event)
    if end is None or event.paused_at is None:
        return None
    return max(0.0, end - event.paused_at)


def closing(event: HallEvent, now: float) -> bool:
    """Whether the current turn is ending (`HallTurn.closing`): its time is up, or the
    organizer asked for the next roll while its rules held it."""
    end = deadline(event)
    return event.closing_roll == len(event.rolls) or (end is not None and now >= end)


def due(event: HallEvent, now: float) -> bool:
    """Whether the server rolls for the event now: auto-roll on, the time of a running turn up
    (the first roll is the organizer's)."""
    end = deadline(event)
    return event.auto_roll and end is not None and now >= end


def epoch_ms(when: float | None) -> int | None:
    return None if when is None else round(when * 1000)


def now_ms() -> int:
    """The server's clock (ms since the epoch) as pages and messages carry it (`now_ms`): a
    screen or phone counts a deadline by it, whatever its own clock says."""
    return round(time.time() * 1000)


def rulesets_of(tables: Iterable[Table]) -> dict[str, AnyRuleset]:
    """The rulesets the event's tables play, by name, in the order of its tables."""
    found: dict[str, AnyRuleset] = {}
    for table in tables:
        if table.ruleset not in found:
            found[table.ruleset] = ruleset(table.ruleset)
    return found


def turn_shown(event: HallEvent, tables: Iterable[Table]) -> bool:
    """Whether the event's phones get its `turn` message: a schedule is set, or a ruleset of
    its tables takes part in the turn."""
    return bool(event.schedule) or any(map(follows_turn, rulesets_of(tables).values()))


def turn_json(event: HallEvent, tables: Iterable[Table]) -> dict[str, Any] | None:
    """The `turn` of the hall view and the phones' `turn` message (docs/api.md); None before
    the first roll. Made from the records alone (no `now`): the same for every screen."""
    turn = hall_turn(event)
    if turn is None:
        return None
    tables = list(tables)
    return {"number": turn.number, "dice": list(turn.dice), "follow_up": list(turn.follow_up),
            "deadline_ms": epoch_ms(deadline(event)), "seconds": seconds(event),
            "production_seconds": production_seconds(event),
            "production_ended": event.production_ended,
            "remaining_ms": epoch_ms(remaining(event)), "paused": event.paused,
            "auto_roll": event.auto_roll, "schedule": event.schedule or None,
            "over": event.over, "ended": event.ended,
            "rules": {name: rules.turn_view(turn) if isinstance(rules, SharedTurn) else {}
                      for name, rules in rulesets_of(tables).items()},
            **({"results": results_json(event, tables)} if event.over or event.ended else {})}


def results_json(event: HallEvent, tables: list[Table]) -> dict[str, Any]:
    """Once the event is over: for each ruleset that ranks the whole event (its event view's
    `standings`: Catan's, RULES.md 24), its winner and each seat's place by table id, so a
    phone can say who won and its player's place."""
    found: dict[str, Any] = {}
    for name, view in games_json(event, tables).items():
        if not view.get("standings"):
            continue
        places: dict[str, dict[str, int]] = {}
        for row in view["standings"]:
            places.setdefault(str(row["table"]), {})[str(row["seat"])] = row["place"]
        found[name] = {"winner": view.get("winner"), "places": places,
                       "players": len(view["standings"])}
    return found


def clock_json(event: HallEvent) -> dict[str, Any]:
    """The clock's settings and state in the hall view's `event` (also before the first roll)."""
    return {"schedule": event.schedule or None, "auto_roll": event.auto_roll,
            "paused": event.paused, "ended": event.ended, "over": event.over}


def games_json(event: HallEvent, tables: list[Table]) -> dict[str, Any]:
    """Each ruleset's event-wide view of its tables (`SharedTurn.event_view`), by ruleset; {}
    for a ruleset whose tables play alone."""
    turn = hall_turn(event)
    return {name: rules.event_view({t.id: t.story() for t in tables if t.ruleset == name}, turn)
            if isinstance(rules, SharedTurn) else {}
            for name, rules in rulesets_of(tables).items()}


# ------------------------------------------------------------ what the rulesets say of a roll

def follow_up_count(rulesets: dict[str, AnyRuleset], number: int, dice: tuple[int, int]) -> int:
    """How many follow-up dice roll `number` takes: the most any ruleset asks for."""
    return max((rules.follow_up_dice(number, dice) for rules in rulesets.values()
                if isinstance(rules, SharedTurn)), default=0)


MAX_FOLLOW_UP = 6  # follow-up dice a roll may take (Catan's robbers' roll takes two)


def follow_up_dice(value: Any) -> tuple[int, ...] | None:
    """Follow-up dice the staff rolled by hand (`[d1, d2]`), checked; None when not sent."""
    if value is None:
        return None
    if not (isinstance(value, list) and 1 <= len(value) <= MAX_FOLLOW_UP
            and all(is_whole_number(d) and 1 <= d <= 6 for d in value)):
        raise invalid("follow_up is a list of dice, each a number from 1 to 6")
    return tuple(value)


def draw_follow_up(count: int, given: tuple[int, ...] | None) -> tuple[int, ...]:
    """The roll's follow-up dice: none when its rulesets ask for none (dice sent anyway are
    not used), the staff's when they sent as many as asked, else drawn here."""
    if count <= 0:
        return ()
    if given is None:
        return hall_dice.roll(count)
    if len(given) != count:
        raise invalid("follow_up: this roll takes {count} follow-up dice", count=count)
    return given


def pauses_after(rulesets: dict[str, AnyRuleset], turn: HallTurn) -> bool:
    return any(rules.pauses_after(turn) for rules in rulesets.values()
               if isinstance(rules, SharedTurn))


def game_over(event: HallEvent, tables: list[Table]) -> bool:
    """Whether a ruleset says the game its tables play together is over (`hall_over`), asked
    with the states of its started tables and the event's latest roll."""
    turn = hall_turn(event)
    states: dict[str, list[Any]] = {}
    for table in tables:
        if table.state is not None:
            states.setdefault(table.ruleset, []).append(table.state)
    shared = {name: rules for name in states if isinstance(rules := ruleset(name), SharedTurn)}
    return any(rules.hall_over(states[name], turn) for name, rules in shared.items())


def held_by(event: HallEvent, tables: list[Table]) -> HallError | None:
    """The refusal of the roll that would end the event's turn while a ruleset says it may not
    end yet (`check_turn_ends`: Catan's claims waiting for the staff), or None; the timer's
    roll then waits."""
    turn = hall_turn(event)
    for name, rules in rulesets_of(tables).items():
        if not isinstance(rules, SharedTurn):
            continue  # no stories made for a ruleset that never holds a turn
        try:
            rules.check_turn_ends({t.id: t.story() for t in tables
                                   if t.ruleset == name and t.state is not None}, turn)
        except RuleError as error:
            return rules_refusal(error)
    return None


def refuse_closed(event: HallEvent) -> None:
    """Refuse a roll (or its undo) of an event that ended or whose game is over."""
    if event.ended:
        raise HallError("event/ended", "the event has ended: the hall rolls no more")
    if event.over:
        raise HallError("event/over", "the game is over: the hall rolls no more")


# ------------------------------------------------------------ the organizer's clock actions

MISSING: Any = object()


def set_clock(hall: HallState, event_id: Any, schedule: Any = MISSING,
              auto_roll: Any = MISSING) -> HallEvent:
    """Set the schedule (`[[first turn, seconds], ...]`, or None for none) and/or auto-roll."""
    data: dict[str, Any] = {}
    if schedule is not MISSING:
        try:
            data["schedule"] = None if schedule is None else schedule_json(read_schedule(schedule))
        except RuleError as error:
            raise rules_refusal(error) from None
    if auto_roll is not MISSING:
        if not isinstance(auto_roll, bool):
            raise invalid("auto_roll is true or false")
        data["auto_roll"] = auto_roll
    if not data:
        raise invalid("nothing to change: send {fields}", fields="schedule, auto_roll")

    def check(event: HallEvent) -> list[NewRecord]:
        refuse_closed(event)
        return [("clock", data)]

    return change_clock(hall, event_id, check)


def pause(hall: HallState, event_id: Any) -> HallEvent:
    """Stop the clock of the current turn; its time left is kept for `resume`."""
    return switch_clock(hall, event_id, pausing=True)


def resume(hall: HallState, event_id: Any) -> HallEvent:
    """Run the paused clock on: the turn's deadline moves by the time it was paused."""
    return switch_clock(hall, event_id, pausing=False)


def switch_clock(hall: HallState, event_id: Any, pausing: bool) -> HallEvent:
    """Pause the running clock (`pausing`) or resume the paused one; refused in a closed event,
    before the first roll (pausing) and when the clock stands so already."""
    def check(event: HallEvent) -> list[NewRecord]:
        refuse_closed(event)
        if pausing and not event.rolls:
            raise HallError("event/not_started", "the clock starts with the first roll")
        if pausing and event.paused:
            raise HallError("event/paused", "the clock is paused already")
        if not pausing and not event.paused:
            raise HallError("event/not_paused", "the clock is not paused")
        return [("paused" if pausing else "resumed", {})]

    return change_clock(hall, event_id, check)


def end_production(hall: HallState, event_id: Any) -> HallEvent:
    """End the current turn's production now, for the whole hall: trading may start (every
    screen and phone follows the `turn`). Refused in a closed event, before the first roll,
    without a schedule, and once it has ended."""
    def check(event: HallEvent) -> list[NewRecord]:
        refuse_closed(event)
        if not event.rolls:
            raise HallError("event/not_started", "the clock starts with the first roll")
        if not event.schedule:
            raise HallError("event/no_schedule", "the turns have no time: set a schedule first")
        if event.production_ended:
            raise HallError("event/production_ended", "this turn's production has ended already")
        return [("production_ended", {"roll": len(event.rolls)})]

    return change_clock(hall, event_id, check)


def end(hall: HallState, event_id: Any) -> HallEvent:
    """End the event: the hall rolls no more, and its tables' game ends (`ending_moves`)."""
    def check(event: HallEvent) -> list[NewRecord]:
        if event.ended:
            raise HallError("event/ended", "the event has ended already")
        return [("event_ended", {})]

    return change_clock(hall, event_id, check, ending=True)


def change_clock(hall: HallState, event_id: Any,
                 check: Callable[[HallEvent], list[NewRecord]], ending: bool = False) -> HallEvent:
    """Append the records `check` makes of the event as its journal has it (or refuses: then
    nothing changes), apply them with their times, and publish the event's turn. `ending`: with
    the moves that end its tables' game, in the same transaction."""
    def act() -> tuple[HallEvent, list[str]]:
        event = hall.catch_up_event(hall.event(event_id))
        records = check(event)
        if ending:
            hall.catch_up_all(hall.tables_of(event))
        return event, commit_event(hall, event, records, "organizer", ending)

    from companion.hall.hall_roll import event_streams  # it builds on this module

    with hall.lock, hall.hold(*event_streams(hall, event_id)):
        event, ended = twice(hall, act)
    hall.publish(Change(tables=ended, events=[event.id], turns=[event.id]))
    return event


def commit_event(hall: HallState, event: HallEvent, records: list[NewRecord],
                 author: str, ending: bool = False) -> list[str]:
    """Append records to the event's stream, then apply them as the journal has them (with
    their `at`, which times the clock); `ending`: with the staff's move that ends the game at
    each table (`ending_moves`), in one transaction. The ids of the tables it moved; the
    caller holds the hall's lock."""
    return append_event(hall, event, records, author, ending)()


def append_event(hall: HallState, event: HallEvent, records: list[NewRecord], author: str,
                 ending: bool = False) -> Callable[[], list[str]]:
    """`commit_event`'s append; what it returns applies it to memory, once it committed (a
    hall roll holds its streams in a transaction that commits after the append)."""
    plans = ending_moves(hall, event) if ending else []
    first = [next_move_number(table) for table, _ in plans]
    batch = [AppendRequest(event.stream, event.seq, records, author=author)]
    batch += [AppendRequest(table.stream, table.seq,
                            move_records(facts, number, table.rules.encode_fact),
                            author="organizer")
              for (table, facts), number in zip(plans, first, strict=True)]
    try:
        results = hall.journal.append_many(batch)
    except StaleSequence:
        hall.catch_up_event(event)
        for table, _ in plans:
            hall.catch_up(table)
        raise

    def apply() -> list[str]:
        hall.advance_event(event, hall.journal.read(event.stream, batch[0].expected_seq))
        for (table, facts), number, result, request in zip(plans, first, results[1:], batch[1:],
                                                            strict=True):
            with hall.memory:
                if table.seq != request.expected_seq:
                    continue  # caught up from the journal already
                note_state(table)
                table.seq = result.last_seq
                evolve(table, number, "organizer", facts)
        return [table.id for table, _ in plans]

    return apply


END_MOVE = {"kind": "end"}  # the staff's move that ends a table's game with the event's


def ending_moves(hall: HallState, event: HallEvent) -> list[tuple[Table, list[Any]]]:
    """When the event's game is over or the event ends: the facts of the staff move
    `{"kind": "end"}` (`SharedTurn.staff_move`) at each started table whose ruleset takes part in
    the event's turn (`follows_turn`), so its board knows (Catan's final breakdowns open). A
    table whose rules refuse it (its game is over already, or it has no such move) is left
    as it is."""
    turn = event.hall_turn()
    plans = []
    for table in hall.tables_of(event):
        rules = table.rules
        if table.state is None or not isinstance(rules, SharedTurn):
            continue
        try:
            facts = rules.staff_move(table.state, dict(END_MOVE), turn)
        except RuleError:
            continue
        if facts:
            plans.append((table, facts))
    return plans
