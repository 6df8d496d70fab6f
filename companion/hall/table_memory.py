"""A table in memory following its journal: records another process appended applied in
place, a committed move evolved, the clock of an open choice, and the states its views showed
(`Table.states_by_seq`). No journal read and no lock here: the callers (hall/state.py, the
workers) read and hold; kept apart so the state and the workers share them without a circle."""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from companion.hall.model import MOVES_KEPT, Move, Table
from companion.hall.replay import apply_record, rebuild_table, rules_of
from companion.journal import Record

Fact = Any  # a ruleset's own fact (the hall keeps and journals it as the rules say)


def catch_up_table(table: Table, records: list[Record]) -> bool:
    """Apply records of the table's stream that follow its seq (another process wrote them),
    as a restart's replay does, in place; a choice they opened is timed from the last one's
    time. False when the moves kept in memory cannot follow them (an undo past them): then
    the table is to be rebuilt from its whole stream (`rebuild_in_place`). No journal read:
    the caller holds the memory's lock."""
    if not records:
        return True
    was_choosing = table.choosing
    try:
        rules = rules_of(table)
        for record in records:
            if record.kind in rules.fact_kinds:
                assert table.state is not None
                fact = rules.decode_fact(record.kind, record.data)
                number = record.data["move"]
                if not table.moves or table.moves[-1].number != number:
                    table.moves.append(Move(number, record.author, [], table.state))
                table.moves[-1].facts.append(fact)
                table.move_to(rules.evolve(table.state, (fact,)))
            elif record.kind == "reverted" and not table.moves:
                raise LookupError("an undo past the moves kept in memory")
            else:
                apply_record(table, record.kind, record.data)
            table.seq = record.seq
        table.forget_old_moves()
    except (LookupError, AssertionError):
        return False
    time_again(table, records, was_choosing)
    return True


def rebuild_in_place(table: Table, records: list[Record]) -> None:
    """The table as its whole stream `records` has it, in place (whoever holds it sees it)."""
    fresh = rebuild_table(records)
    fresh.forget_old_moves()
    vars(table).update(vars(fresh))
    time_again(table, records, False)


def time_from_journal(table: Table, last_at: str) -> None:
    """The clock of a choice open when the table was read from the journal: from the time of
    its last record (the choice opened then, or earlier), so a restart gives no fresh window."""
    table.time_choice(fresh=True)
    if table.waiting_since is not None:
        table.waiting_since = time.monotonic() - seconds_since(last_at)


def seconds_since(at: str) -> float:
    """Seconds from a journal record's `at` (ISO-8601 UTC) to now, never below zero."""
    try:
        then = datetime.fromisoformat(at)
    except ValueError:
        return 0.0
    return max(0.0, (datetime.now(then.tzinfo) - then).total_seconds())


def time_again(table: Table, records: list[Record], was_choosing: bool) -> None:
    """The clock of the table's choice after records were applied: from the last one's time
    when they opened it (or a status or an undo gave a fresh window)."""
    fresh_window = any(r.kind in ("status", "reverted") for r in records)
    if not table.choosing:
        table.waiting_since = None
    elif fresh_window or not was_choosing or table.waiting_since is None:
        time_from_journal(table, records[-1].at)
    note_state(table)


def evolve(table: Table, number: int, author: str, facts: list[Fact]) -> None:
    """Apply a committed move to the table, and start (or stop) the clock of an open choice."""
    assert table.state is not None
    table.moves.append(Move(number, author, facts, table.state))
    table.forget_old_moves()
    table.move_to(rules_of(table).evolve(table.state, facts))
    table.time_choice()
    note_state(table)


def note_state(table: Table) -> None:
    """Remember that the table's views at its seq show its state (`Table.states_by_seq`), so a
    move's `seq` finds the state its view showed. Called before and after every change made
    here, under the lock. A state is known for a range of seqs only as far as it was seen
    unchanged: a change made elsewhere (a hall roll's undo) is found at the next call, and the
    seqs between stay unknown (a move from one of them counts as stale). In a hall roll's
    batch only the last move's state has the batch's seq."""
    if table.state is None:
        return
    known = table.states_by_seq
    if known and known[-1][2] is table.state:
        known[-1] = (known[-1][0], table.seq, table.state)
    elif known and known[-1][0] == table.seq:
        known[-1] = (table.seq, table.seq, table.state)
    else:
        known.append((table.seq, table.seq, table.state))
        del known[:-MOVES_KEPT]


def state_at(table: Table, seq: int) -> Any:
    """The state a view of seq `seq` showed, or None when the table no longer knows it."""
    for first, last, state in reversed(table.states_by_seq):
        if first <= seq <= last:
            return state
        if last < seq:
            return None
    return None
