"""What the hall does for tables with no seat moving: one roll for every running hall-mode
table of an event, committed in one transaction, and the defaults for choices that waited
longer than the event allows (the ruleset's `default_move`, with which a hall roll also
closes the previous turn)."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from companion.hall import checks
from companion.hall import dice as hall_dice
from companion.hall.model import Change, HallEvent, Table
from companion.hall.play import commit, evolve, move_records, next_move_number
from companion.hall.replay import apply_event_record, rules_of
from companion.hall.shuffle import secure_shuffle
from companion.journal import AppendRequest, StaleSequence
from companion.rules.events import Event
from companion.rules.moves import EndTurn, Roll
from companion.rules.state import Phase

if TYPE_CHECKING:
    from companion.hall.service import HallService

Records = list[tuple[str, dict[str, Any]]]

log = logging.getLogger("companion")


def hall_roll(hall: HallService, event_id: Any, dice: Any = None) -> dict[str, Any]:
    """One roll for every running hall-mode table, committed in one transaction: with `dice`
    rolled by hand in the hall, or drawn here. A table with nothing to roll (its game is won)
    leaves the roll; a table that fails (its rules raise, its journal moved on behind the
    hall's back) is logged once, left as it was and named in the answer's `skipped`: one table
    never stops the hall's roll."""
    dice = checks.hall_dice(dice)
    with hall.lock:
        event = hall.event(event_id)
        event_records, (d1, d2), from_deck = draw(event, dice)
        plans, skipped = plan_turns(hall, event, d1, d2)
        number = len(event.rolls) + 1
        while True:
            roll_data = {"dice": [d1, d2], "from_deck": from_deck,
                         "tables": [table.id for table, _ in plans]}
            records = [*event_records, ("hall_rolled", roll_data)]
            batch = [AppendRequest(event.stream, event.seq, records, author="organizer")]
            # The request ids never repeat: `number` counts the event's hall_rolled records, and
            # this one commits with them (a second writer fails on the event's expected seq first).
            batch += [table_request(table, groups, f"hall-roll-{event.id}-{number}")
                      for table, groups in plans]
            try:
                results = hall.journal.append_many(batch)
                break
            except StaleSequence as stale:
                table = next((t for t, _ in plans if t.stream == stale.stream), None)
                if table is None:  # the event's own stream moved on: nothing to leave out
                    raise
                plans = [(t, groups) for t, groups in plans if t is not table]
                skipped.append(skip(hall, table, "table/out_of_step", stale))
        event.seq = results[0].last_seq
        for kind, data in records:
            apply_event_record(event, kind, data)
        for (table, groups), result in zip(plans, results[1:], strict=True):
            table.seq = result.last_seq
            first = next_move_number(table)
            for offset, events in enumerate(groups):
                evolve(table, first + offset, "hall", events)
    rolled = [table.id for table, _ in plans]
    hall.publish(Change(tables=rolled, events=[event.id]))
    return {"dice": [d1, d2], "roll": number, "tables": rolled, "skipped": skipped}


def plan_turns(
    hall: HallService, event: HallEvent, d1: int, d2: int,
) -> tuple[list[tuple[Table, list[list[Event]]]], list[dict[str, Any]]]:
    """Each running hall-mode table's moves for this roll, and the tables that failed to plan
    theirs. A table whose rules have nothing to do (a won game) is in neither."""
    plans, skipped = [], []
    for table in hall.tables_of(event):
        if table.roll_mode != "hall" or table.status != "running":
            continue
        try:
            groups = hall_turn(hall, table, d1, d2)
        except Exception as error:  # a ruleset's bug at one table must not stop the hall
            skipped.append(skip(hall, table, "server/error", error))
            continue
        if groups:
            plans.append((table, groups))
    return plans, skipped


def skip(hall: HallService, table: Table, code: str, error: Exception) -> dict[str, Any]:
    """A table left out of a hall roll, for the organizer; logged once per state of the table
    (the hall rolls every few seconds, and the log must not repeat it)."""
    if hall.failing_rolls.get(table.id) != table.seq:
        hall.failing_rolls[table.id] = table.seq
        trace = (type(error), error, error.__traceback__) if code == "server/error" else None
        log.error("table %s was left out of the hall roll (%s: %s)", table.id, code, error,
                  exc_info=trace)
    reasons = {"table/out_of_step": "the table's journal changed behind the hall: restart the server",
               "server/error": "the rules failed at this table: see the server's log"}
    return {"table": table.id, "name": table.name, "code": code, "message": reasons[code]}


def draw(event: HallEvent, dice: tuple[int, int] | None) -> tuple[Records, tuple[int, int], bool]:
    """The event's records before the roll (a new balanced deck when few cards are left), the
    two dice (given, the deck's next card, or thrown) and whether they came from the deck.
    The event is not touched: its records are applied after their commit."""
    records: Records = []
    from_deck = dice is None and event.dice_mode == "balanced"
    deck = event.deck
    if from_deck and len(deck) <= hall_dice.DECK_LEFT_UNUSED:
        deck = hall_dice.shuffled_deck()
        records.append(("deck_shuffled", {"deck": deck}))
    if dice is None:
        d1, d2 = deck[0] if from_deck else hall_dice.roll(2)
    else:
        d1, d2 = dice
    return records, (d1, d2), from_deck


def table_request(table: Table, groups: list[list[Event]], request_id: str) -> AppendRequest:
    """A table's part of the hall roll: its moves' records, numbered on from its last move."""
    first = next_move_number(table)
    encode = rules_of(table).encode_event
    records = [record for offset, events in enumerate(groups)
               for record in move_records(events, first + offset, encode)]
    return AppendRequest(table.stream, table.seq, records, request_id=request_id, author="hall")


def hall_turn(hall: HallService, table: Table, d1: int, d2: int) -> list[list[Event]]:
    """Close the previous turn (defaults for open choices, end of the build phase), then
    roll d1, or d1+d2 for a seat that rolls two dice (RULES.md 10-12)."""
    assert table.state is not None
    state, groups, rules = table.state, [], rules_of(table)
    closing: list[Event] = []
    while state.phase in (Phase.REROLL, Phase.CHOOSE, Phase.BUILD):
        move = rules.default_move(state) or EndTurn()
        events = rules.decide(state, state.active, move, hall.catalog, secure_shuffle)
        closing += events
        state = rules.evolve_all(state, events)
    if closing:
        groups.append(closing)
    if state.phase is Phase.ROLL:
        dice = (d1,) if state.roller.dice_count == 1 else (d1, d2)
        groups.append(rules.decide(state, state.active, Roll(dice), hall.catalog, secure_shuffle))
    return groups


def expire_choices(hall: HallService, now: float | None = None) -> list[str]:
    """Apply the defaults at tables whose choice waited longer than the event allows. A table
    whose default fails is logged (with its id, once) and skipped; the other tables still get
    theirs, and the ones committed are published and returned."""
    now = time.monotonic() if now is None else now
    changed = []
    with hall.lock:
        for table in list(hall.tables.values()):
            try:
                if expire_choice(hall, table, now):
                    changed.append(table.id)
                hall.failing_defaults.pop(table.id, None)
            except Exception:  # one broken table must not hold up every other table's choice
                # logged once per state of the table, not every second the timer runs
                if hall.failing_defaults.get(table.id) != table.seq:
                    hall.failing_defaults[table.id] = table.seq
                    log.exception("the timed-out choice at table %s could not take its default",
                                  table.id)
    if changed:
        hall.publish(Change(tables=changed,
                            events=sorted({hall.tables[t].event_id for t in changed})))
    return changed


def expire_choice(hall: HallService, table: Table, now: float) -> bool:
    """Commit the default of the table's choice if it waited too long; whether it did."""
    if table.waiting_since is None or table.state is None or table.status != "running":
        return False
    if now - table.waiting_since < hall.events[table.event_id].choice_seconds:
        return False
    rules = rules_of(table)
    move = rules.default_move(table.state)
    if move is None:
        return False
    events = rules.decide(table.state, table.state.active, move, hall.catalog, secure_shuffle)
    commit(hall, table, events, "timer")
    return True
