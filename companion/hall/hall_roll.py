"""What the hall does for tables with no seat moving: one roll for every running hall-mode
table of an event, committed in one transaction, the undo of the latest one, and the defaults
for choices that waited longer than the event allows (the ruleset's `default_move`, with which
a hall roll also closes the previous turn)."""

from __future__ import annotations

import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from companion.hall import checks, clock, views
from companion.hall import dice as hall_dice
from companion.hall.checks import N_, Detail, HallError
from companion.hall.model import Change, HallEvent, Table, follows_turn
from companion.hall.play import (
    ROLL,
    commit,
    decide_move,
    move_records,
    next_move_number,
    out_of_step,
)
from companion.hall.replay import apply_record, rules_of
from companion.hall.shuffle import secure_shuffle
from companion.hall.table_memory import evolve
from companion.journal import AppendRequest, Journal, Record, StaleSequence
from companion.rules.ruleset import HallRolled, HallTurn, SharedTurn, TimedChoices, Turns

if TYPE_CHECKING:
    from companion.hall.state import HallState

Records = list[tuple[str, dict[str, Any]]]

log = logging.getLogger("companion")

# A press of the console's roll button this soon after the event's last hall roll is asked
# about first: two presses of the space bar 150 ms apart made two rolls (issue 16).
ROLL_GAP_SECONDS = 5.0


def hall_roll(hall: HallState, event_id: Any, dice: Any = None, confirm: Any = None,
              now: datetime | None = None, follow_up: Any = None) -> dict[str, Any]:
    """One roll for every running hall-mode table, committed in one transaction: with `dice`
    rolled by hand in the hall, or drawn here. A table with nothing to roll (its game is won)
    leaves the roll; a table that fails (its rules raise, its journal moved on behind the
    hall's back) is logged once, left as it was and named in the answer's `skipped`: one table
    never stops the hall's roll. `confirm` False (a press on the console) refuses a roll within
    ROLL_GAP_SECONDS of the event's last one, True is the organizer's yes; a client that sends
    none (a script) rolls on purpose and is not asked. `follow_up`: the follow-up dice the
    staff rolled, used when the event's rulesets ask for some after this roll (else drawn)."""
    answer = roll(hall, event_id, checks.hall_dice(dice), roll_confirm(confirm), now,
                  clock.follow_up_dice(follow_up))
    assert answer is not None
    return answer


def roll(hall: HallState, event_id: Any, dice: tuple[int, int] | None, confirm: bool | None,
         now: datetime | None, follow_up: tuple[int, ...] | None, author: str = "organizer",
         due_at: float | None = None) -> dict[str, Any] | None:
    """`hall_roll` with its input checked; `due_at` (the timer's roll): only if the event's
    turn is still due then, as its journal has it, else None and nothing changes."""
    finish: Callable[[], Any]
    with hall.lock:
        event = hall.event(event_id)
        streams = [event.stream, *(t.stream for t in hall.tables_of(event))]
        # The event's streams are held from the catch-up to memory's update: this process's
        # moves at its tables wait for the roll (one move in flight at each, not a stream of
        # them: hall/locks.py), moves at other events' tables go on. Several processes: held
        # in the journal too, from the catch-up to the append (no other process moves a table
        # in between: each such move made the whole append stale, issue 15); the event and its
        # tables as their journals have them (moves made on other processes, tables they
        # created): one read of their last seqs, one of their records.
        holding = hall.journal.holding(streams)
        with hall.hold(*streams):
            with holding if hall.shared else contextlib.nullcontext():
                hall.catch_up_all(hall.tables_of(event), [event])
                if due_at is not None and not clock.due(event, due_at):
                    return None
                clock.refuse_closed(event)
                # Before the game over: every claim of the turn is judged first. The organizer's
                # held roll closes the turn (`turn_closing`, once): it takes nothing more that would
                # hold it. Nothing is raised in the held block after an append (it would roll back).
                held = clock.held_by(event, hall.tables_of(event))
                over = held is None and clock.game_over(event, hall.tables_of(event))
                if held is not None:
                    if due_at is not None or event.closing_roll == len(event.rolls):
                        raise held
                    finish = clock.append_event(
                        hall, event, [("turn_closing", {"roll": len(event.rolls)})], author)
                elif over:  # the game ended with the turn this roll would end: no roll, game over
                    finish = clock.append_event(
                        hall, event, [("game_over", {"roll": len(event.rolls)})], author, ending=True)
                else:
                    finish = append_roll(hall, event, dice, confirm, now, follow_up, author)
            done: Any = finish()  # memory follows the journal once the append (and hold) committed
    if held is not None:
        hall.publish(Change(events=[event.id], turns=[event.id]))
        raise held
    if over:
        hall.publish(Change(tables=done, events=[event.id], turns=[event.id]))
        clock.refuse_closed(event)  # event/over, now journalled
    hall.publish(Change(tables=done["tables"], events=[event.id], turns=[event.id],
                        hall_roll=True))
    answer: dict[str, Any] = done
    return answer


def append_roll(hall: HallState, event: HallEvent, dice: tuple[int, int] | None,
                confirm: bool | None, now: datetime | None, follow_up: tuple[int, ...] | None,
                author: str) -> Callable[[], dict[str, Any]]:
    """Append the roll, the event and its tables caught up and held (the hall's lock held);
    what it returns applies the roll to memory once the append committed, and answers."""
    if confirm is False:
        refuse_too_soon(hall.journal, event, now or datetime.now(UTC))
    event_records, (d1, d2), from_deck = draw(event, dice)
    number = len(event.rolls) + 1
    rulesets = clock.rulesets_of(hall.tables_of(event))
    follow = clock.draw_follow_up(clock.follow_up_count(rulesets, number, (d1, d2)), follow_up)
    pause = clock.pauses_after(rulesets, HallTurn(number, (d1, d2), follow))
    plans, skipped = plan_turns(hall, event, d1, d2)
    retried: set[str] = set()
    while True:
        roll_data: dict[str, Any] = {"dice": [d1, d2], "from_deck": from_deck,
                                     "tables": [table.id for table, _ in plans]}
        # Tables that play the event's turn without a move of this roll (Catan's boards): their
        # journal's place now, so an undo sees a claim made in this turn (undo_hall_roll).
        following = {table.id: table.seq for table in hall.tables_of(event)
                     if table.state is not None and follows_turn(table.rules)
                     and table.id not in roll_data["tables"]}
        if following:
            roll_data["following"] = following
        if follow:
            roll_data["follow_up"] = list(follow)
        records = [*event_records, ("hall_rolled", roll_data)]
        if pause:  # the rules' pause after this roll: the auto-roll waits for the organizer
            records.append(("paused", {"after_roll": number}))
        batch = [AppendRequest(event.stream, event.seq, records, author=author)]
        batch += [table_request(table, groups, roll_request_id(event, number))
                  for table, groups in plans]
        try:
            results = hall.journal.append_many(batch)
            break
        except StaleSequence as stale:
            table = next((t for t, _ in plans if t.stream == stale.stream), None)
            if table is not None and hall.shared:
                hall.reload(table)
            if table is None:  # the event's own stream moved on: nothing to leave out
                if hall.shared:  # another process rolled this event meanwhile
                    hall.catch_up_event(event)
                    raise out_of_step() from None
                raise
            plans = [(t, groups) for t, groups in plans if t is not table]
            if hall.shared and table.id not in retried:
                # Another process moved the table on (commit's reload has it as its journal
                # has it): plan its turn again, once.
                retried.add(table.id)
                replanned, failed = plan_turns(hall, event, d1, d2, only=table)
                plans += replanned
                skipped += failed
                continue
            skipped.append(skip(hall, table, "table/out_of_step", stale))

    def finish() -> dict[str, Any]:
        # the event's records as the journal has them, with their time (the turn's clock)
        hall.advance_event(event, hall.journal.read(event.stream, batch[0].expected_seq))
        rolled = []
        for (table, groups), result, request in zip(plans, results[1:], batch[1:], strict=True):
            if result.duplicate:  # the journal had this roll already and wrote nothing here
                skipped.append(skip(hall, table, "table/out_of_step", RuntimeError(
                    "the roll's request id is in the journal already")))
                continue
            with hall.memory:
                if table.seq == request.expected_seq:  # else caught up from the journal already
                    table.seq = result.last_seq
                    first = next_move_number(table)
                    for offset, facts in enumerate(groups):
                        evolve(table, first + offset, "hall", facts)
            rolled.append(table.id)
        return {"dice": [d1, d2], "follow_up": list(follow), "roll": number, "tables": rolled,
                "skipped": skipped, "paused": event.paused}

    return finish


def roll_when_due(hall: HallState, now: float | None = None) -> list[str]:
    """The server's roll for every event whose turn's time is up with auto-roll on (the
    timer's round; several processes: only the holder of the timer's lease runs it). An event
    whose game turns out over is marked so and rolls no more; a failure is logged once per
    state of its event and the other events still roll. The events rolled."""
    now = time.time() if now is None else now
    with hall.lock:
        events = [event.id for event in hall.events.values() if clock.due(event, now)]
        # A turn its rules hold (claims being checked) waits without taking the roll's holds
        # every round (review 9): caught up (one read, several processes), then checked; the
        # roll checks it again under its holds.
        for event_id in list(events):
            event = hall.events[event_id]
            hall.catch_up_all(hall.tables_of(event), [event])
            if clock.held_by(event, hall.tables_of(event)) is not None:
                events.remove(event_id)
    rolled = []
    for event_id in events:
        try:
            if roll(hall, event_id, None, None, None, None, author="timer", due_at=now):
                rolled.append(event_id)
        except HallError:  # over (now marked so), ended, or out of step: the next round sees
            continue
        except Exception:  # one event's failure must not stop the other events' rolls
            event = hall.events[event_id]
            if hall.failing_rolls.get(event.stream) != event.seq:
                hall.failing_rolls[event.stream] = event.seq
                log.exception("the automatic roll of event %s failed", event_id)
    return rolled


def roll_request_id(event: HallEvent, number: int) -> str:
    """The request id of hall roll `number` at each of its tables. Ids never repeat: they count
    every hall_rolled record of the event, the undone ones too (the roll after an undo takes
    the undone one's number on the screens), and commit with it (a second writer fails on the
    event's expected seq first). A repeated id would be answered and not written."""
    return f"hall-roll-{event.id}-{number + event.undone_rolls}"


def roll_confirm(confirm: Any) -> bool | None:
    if confirm is None or isinstance(confirm, bool):
        return confirm
    raise checks.invalid("confirm is true or false")


def refuse_too_soon(journal: Journal, event: HallEvent, now: datetime) -> None:
    """Refuse a roll within ROLL_GAP_SECONDS of the event's last one, by the journal's clock
    (a roll that was undone does not count)."""
    last = latest_roll(journal, event)
    if last is None:
        return
    seconds = (now - datetime.fromisoformat(last.at)).total_seconds()
    if 0 <= seconds < ROLL_GAP_SECONDS:
        raise HallError("roll/too_soon", f"the hall rolled {seconds:.1f} seconds ago (roll "
                        f"{len(event.rolls)}): send confirm true to roll again")


def latest_roll(journal: Journal, event: HallEvent) -> Record | None:
    """The event's latest hall_rolled record, or None when there is none or an undo took it
    back; read from the end of the event's stream (settings and decks come between rolls)."""
    for record in tail(journal, event.stream, event.seq):
        if record.kind == "roll_undone":
            return None
        if record.kind == "hall_rolled":
            return record
    return None


def tail(journal: Journal, stream: str, last_seq: int, chunk: int = 32) -> Iterator[Record]:
    """A stream's records from `last_seq` back to its first, read a few at a time."""
    top = last_seq
    while top > 0:
        start = max(0, top - chunk)
        yield from reversed([r for r in journal.read(stream, start) if r.seq <= top])
        top = start


# ------------------------------------------------------------ undoing the latest hall roll

def undo_hall_roll(hall: HallState, event_id: Any) -> dict[str, Any]:
    """Take back the event's latest hall roll with reversing entries, the journal being
    append-only: a `reverted` record for each move the roll made at each of its tables, last
    first, and the event's `roll_undone`, in one transaction. Only while none of those tables
    has anything after the roll in its journal (a move, a correction, a pause), and once: the
    roll before it stays. A pair dealt from the balanced deck goes back into it."""
    with hall.lock, hall.hold(*event_streams(hall, event_id)):
        event = hall.event(event_id)
        hall.catch_up_all(hall.tables_of(event), [event])
        clock.refuse_closed(event)
        last = latest_roll(hall.journal, event)
        if last is None or not event.rolls:
            raise HallError("roll/nothing_to_undo", "there is no hall roll to undo")
        number, dice = len(event.rolls), list(event.rolls[-1])
        request_id = roll_request_id(event, number)
        plans, moved = [], []
        for table in (hall.tables[t] for t in last.data["tables"]):
            numbers = roll_moves(hall.journal, table, request_id)
            if numbers is None:
                moved.append(table.name)
            else:
                plans.append((table, numbers))
        for table_id, seq in last.data.get("following", {}).items():
            table = hall.tables.get(table_id)
            if table is not None and not turn_free_since(hall.journal, table, seq):
                moved.append(table.name)  # a claim, ... made in the turn undone
        if moved:
            raise moved_on(moved)
        records: list[tuple[str, dict[str, Any]]] = [("roll_undone", {"roll": number, "dice": dice})]
        if last.data.get("from_deck"):
            records.append(("deck_shuffled", {"deck": deck_with(event.deck, dice)}))
        batch = [AppendRequest(event.stream, event.seq, records, author="organizer")]
        batch += [AppendRequest(table.stream, table.seq,
                                [("reverted", {"move": n}) for n in reversed(numbers)],
                                author="organizer") for table, numbers in plans]
        try:
            results = hall.journal.append_many(batch)
        except StaleSequence as stale:  # written behind the hall's back since the check
            raise moved_on([t.name for t, _ in plans if t.stream == stale.stream]) from None
        hall.advance_event(event, hall.journal.read(event.stream, batch[0].expected_seq))
        for (table, numbers), result, request in zip(plans, results[1:], batch[1:], strict=True):
            with hall.memory:
                if table.seq != request.expected_seq:
                    continue  # caught up from the journal already
                for n in reversed(numbers):
                    apply_record(table, "reverted", {"move": n})
                table.seq = result.last_seq
    undone = [table.id for table, _ in plans]
    hall.publish(Change(tables=undone, events=[event.id], turns=[event.id], hall_roll=True))
    return {"roll": number, "dice": dice, "tables": undone}


def event_streams(hall: HallState, event_id: Any) -> list[str]:
    """The streams of an event and of its tables, to hold (`HallState.hold`)."""
    event = hall.event(event_id)
    return [event.stream, *(table.stream for table in hall.tables_of(event))]


def turn_free_since(journal: Journal, table: Table, seq: int) -> bool:
    """Whether all a table's journal wrote after `seq` (its place at the roll) leaves the roll
    free to be undone: nothing, or only what its rules say means the same in any turn
    (`SharedTurn.turn_free`: Catan's points trackers, which a thousand phones keep up)."""
    if journal.last_seq(table.stream) == seq:
        return True
    rules = table.rules
    return isinstance(rules, SharedTurn) and all(
        rules.turn_free(record.kind) for record in journal.read(table.stream, seq))


def roll_moves(journal: Journal, table: Table, request_id: str) -> list[int] | None:
    """The numbers of the moves a hall roll (its request id) made at a table, when they are
    the last thing in its journal and in memory; else None: the table moved on."""
    if journal.last_seq(table.stream) != table.seq:
        return None
    records = []
    for record in tail(journal, table.stream, table.seq):
        if record.request_id != request_id:
            break
        records.append(record)
    numbers = sorted({r.data["move"] for r in records if "move" in r.data})
    kept = [(move.number, move.author) for move in table.moves[-len(numbers):]] if numbers else []
    if not numbers or kept != [(n, "hall") for n in numbers]:
        return None
    return numbers


def moved_on(names: list[str]) -> HallError:
    return HallError("roll/moved_on", Detail(
        N_("the last hall roll cannot be undone: these tables have moved on since: {tables}"),
        {"tables": ", ".join(names)}))


def deck_with(deck: list[list[int]], pair: list[int]) -> list[list[int]]:
    """The balanced deck with an undone roll's pair back in it, at a random place (on top, the
    next roll would deal the same dice again)."""
    place = secrets.randbelow(len(deck) + 1)
    return [*deck[:place], list(pair), *deck[place:]]


def plan_turns(
    hall: HallState, event: HallEvent, d1: int, d2: int, only: Table | None = None,
) -> tuple[list[tuple[Table, list[list[Any]]]], list[dict[str, Any]]]:
    """Each running hall-mode table's moves for this roll (or only `only`'s), and the tables
    that failed to plan theirs. A table whose rules have nothing to do (a won game) is in
    neither."""
    plans, skipped = [], []
    for table in hall.tables_of(event) if only is None else [only]:
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


def skip(hall: HallState, table: Table, code: str, error: Exception) -> dict[str, Any]:
    """A table left out of a hall roll, for the organizer; logged once per state of the table
    (the hall rolls every few seconds, and the log must not repeat it)."""
    if hall.failing_rolls.get(table.id) != table.seq:
        hall.failing_rolls[table.id] = table.seq
        trace = (type(error), error, error.__traceback__) if code == "server/error" else None
        log.error("table %s was left out of the hall roll (%s: %s)", table.id, code, error,
                  exc_info=trace)
    reasons = {"server/error": "the rules failed at this table: see the server's log",
               # several processes: the table was reloaded (`commit`, `reload`) and takes part
               # in the next roll; one process: someone else wrote its journal file, which
               # this process reads only at its start
               "table/out_of_step": (
                   "another server moved the table on during the roll: it sits this roll out "
                   "and takes part in the next" if hall.shared else
                   "the table's journal was written by another program: restart the server "
                   "to read it again")}
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


def table_request(table: Table, groups: list[list[Any]], request_id: str) -> AppendRequest:
    """A table's part of the hall roll: its moves' records, numbered on from its last move."""
    first = next_move_number(table)
    encode = rules_of(table).encode_fact
    records = [record for offset, facts in enumerate(groups)
               for record in move_records(facts, first + offset, encode)]
    return AppendRequest(table.stream, table.seq, records, request_id=request_id, author="hall")


def hall_turn(hall: HallState, table: Table, d1: int, d2: int) -> list[list[Any]]:
    """The moves the hall roll makes at a table, as its rules say (closing the last turn, then
    rolling); [] when it has nothing to roll."""
    rules = table.rules
    if not isinstance(rules, HallRolled):
        return []  # a roll changes no table of its: the turn lives on the event's stream
    return rules.hall_turn(table.state, (d1, d2), table.setup, secure_shuffle)


def expire_choices(hall: HallState, now: float | None = None) -> list[str]:
    """Apply the defaults at tables whose choice waited longer than the event allows. A table
    whose default fails is logged (with its id, once) and skipped; the other tables still get
    theirs, and the ones committed are published and returned."""
    now = time.monotonic() if now is None else now
    changed = []
    with hall.memory:  # a waiting choice, or a seat's roll the event lets the timer make
        waiting = [table for table in hall.tables.values() if table.waiting_since is not None
                   or hall.events[table.event_id].seat_auto_roll]
    for table in waiting:  # each held alone: the other tables' moves go on meanwhile
        try:
            with hall.hold(table.stream):
                if expire_choice(hall, table, now) or expire_roll(hall, table, now):
                    changed.append(table.id)
            hall.failing_defaults.pop(table.id, None)
        except StaleSequence:
            if not hall.shared:
                log_failing_default(hall, table)
            # else another process moved the table (commit caught it up): the next round
            # judges its choice again, on the table as its journal has it
        except Exception:  # one broken table must not hold up every other table's choice
            log_failing_default(hall, table)
    if changed:
        hall.publish(Change(tables=changed,
                            events=sorted({hall.tables[t].event_id for t in changed})))
    return changed


def log_failing_default(hall: HallState, table: Table) -> None:
    """Logged once per state of the table, not every second the timer runs (in an except)."""
    if hall.failing_defaults.get(table.id) != table.seq:
        hall.failing_defaults[table.id] = table.seq
        log.exception("the timed-out choice at table %s could not take its default", table.id)


def expire_roll(hall: HallState, table: Table, now: float) -> bool:
    """Roll for a seat of an own-roll table whose turn waited the event's turn time for its
    roll, when the event asks for it (`seat_auto_roll`; CatanAuto's idea for a table): the rules
    say which seat's roll is due, the hall times it from when it saw it due (a restart gives the
    seat a full turn time again). Whether it rolled."""
    event = hall.events[table.event_id]
    seat = views.roll_due(table)
    if seat is None or not event.seat_auto_roll:
        table.roll_waits = None
        return False
    rules = rules_of(table)
    due = (rules.turn(table.state) if isinstance(rules, Turns) else 0, seat)
    if table.roll_waits is None or table.roll_waits[:2] != due:
        table.roll_waits = (*due, now)
        return False
    if now - table.roll_waits[2] < event.choice_seconds:
        return False
    facts = decide_move(hall, table, seat, dict(ROLL))
    commit(hall, table, facts, "timer")
    table.roll_waits = None
    return True


def expire_choice(hall: HallState, table: Table, now: float) -> bool:
    """Commit the default of the table's choice if it waited too long; whether it did."""
    if table.waiting_since is None or table.state is None or table.status != "running":
        return False
    if now - table.waiting_since < hall.events[table.event_id].choice_seconds:
        return False
    rules = rules_of(table)
    default = rules.default_move(table.state) if isinstance(rules, TimedChoices) else None
    if default is None:
        return False
    seat, move = default
    facts = rules.decide(table.state, seat, move, table.setup, secure_shuffle)
    commit(hall, table, facts, "timer")
    return True
