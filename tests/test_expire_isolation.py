"""The choice timer (RULES.md 11) on the real HallService and a real SQLite journal: a table
whose default move cannot be committed must not keep the other tables' timed-out choices
waiting for ever."""

from __future__ import annotations

import logging

from companion.hall.model import Change, Table
from companion.hall.service import HallService
from companion.journal import SqliteJournal


def reroll_waiting(hall: HallService, event_id: str, name: str) -> Table:
    """An own-roll table whose first seat (Radio Tower built) is choosing whether to reroll."""
    table = hall.create_table(event_id, name, ["D", "E", "F"], roll_mode="own")
    hall.set_status(table.id, "start")
    hall.adjust(table.id, 0, 40, "set-up for the test")

    def play(seat: int, kind: str, **fields: str) -> dict:
        answer = hall.move(table.seats[seat].token, f"{name}-{seat}-{kind}-{len(table.moves)}",
                           {"kind": kind, **fields})
        assert answer["ok"], answer
        return answer

    play(0, "roll")
    play(0, "build", card="radio_tower")
    play(0, "end_turn")
    for seat in (1, 2):
        play(seat, "roll")
        play(seat, "end_turn")
    play(0, "roll")
    assert table.state is not None and table.state.phase.value == "reroll"
    assert table.waiting_since is not None
    return table


def test_expire_choices_a_failing_table_does_not_stop_the_next_tables_default(
        tmp_path, hall, caplog):
    """Radio Tower keep by default at table 2 although table 1's default cannot be committed:
    another writer appended to table 1's stream behind the hall's back (the journal's
    StaleSequence, a real conflict on the SQLite file), so its commit fails. Table 1 is logged
    with its id and left as it was; table 2's keep is committed, published and returned."""
    event = hall.create_event("Night")
    broken = reroll_waiting(hall, event.id, "T1")
    healthy = reroll_waiting(hall, event.id, "T2")
    assert list(hall.tables) == [broken.id, healthy.id]  # the broken one is visited first
    with SqliteJournal(tmp_path / "hall.db") as other:
        other.append(broken.stream, broken.seq, [("note", {"by": "another writer"})])
    broken_before = (broken.state, broken.seq, len(broken.moves))
    published: list[Change] = []
    hall.listeners.append(published.append)
    later = max(broken.waiting_since, healthy.waiting_since) + 46

    with caplog.at_level(logging.ERROR, logger="companion"):
        expired = hall.expire_choices(now=later)

    assert expired == [healthy.id]
    assert healthy.state.phase.value == "build"
    assert hall.journal.read(healthy.stream)[-1].author == "timer"
    assert (broken.state, broken.seq, len(broken.moves)) == broken_before
    assert broken.state.phase.value == "reroll"
    assert published == [Change(tables=[healthy.id], events=[event.id])]
    failures = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(failures) == 1 and f"table {broken.id}" in failures[0].getMessage()
    assert failures[0].exc_info is not None and "StaleSequence" in caplog.text


def test_expire_choices_a_failing_table_does_not_stop_the_tables_before_it(
        tmp_path, hall, caplog):
    """The same with the broken table visited last: the defaults committed before it are
    still published and returned (before, a raise lost their publication)."""
    event = hall.create_event("Night")
    healthy = reroll_waiting(hall, event.id, "T1")
    broken = reroll_waiting(hall, event.id, "T2")
    with SqliteJournal(tmp_path / "hall.db") as other:
        other.append(broken.stream, broken.seq, [("note", {"by": "another writer"})])
    published: list[Change] = []
    hall.listeners.append(published.append)
    later = max(broken.waiting_since, healthy.waiting_since) + 46

    with caplog.at_level(logging.ERROR, logger="companion"):
        assert hall.expire_choices(now=later) == [healthy.id]

    assert published == [Change(tables=[healthy.id], events=[event.id])]
    assert broken.state.phase.value == "reroll" and f"table {broken.id}" in caplog.text


def test_expire_choices_a_table_that_keeps_failing_is_logged_once(tmp_path, hall, caplog):
    """The timer runs every second: a table whose default keeps failing (its journal out of
    step until a restart) is logged once with its traceback, not once a second."""
    event = hall.create_event("Night")
    broken = reroll_waiting(hall, event.id, "T1")
    with SqliteJournal(tmp_path / "hall.db") as other:
        other.append(broken.stream, broken.seq, [("note", {"by": "another writer"})])
    later = broken.waiting_since + 46

    with caplog.at_level(logging.ERROR, logger="companion"):
        for second in range(5):
            assert hall.expire_choices(now=later + second) == []

    failures = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(failures) == 1 and f"table {broken.id}" in failures[0].getMessage()
    assert broken.state.phase.value == "reroll"
