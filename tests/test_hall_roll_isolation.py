"""The hall roll on the real HallService and a real SQLite journal (issue 17, F1): a won table
leaves the hall roll, and no single table can make the whole hall's roll fail. The other
tables get their roll; the failing one is logged once and named in the roll's answer, which
the organizer's console shows."""

from __future__ import annotations

import logging

import pytest

from companion.hall.model import Table
from companion.hall.service import HallService
from companion.journal import SqliteJournal
from companion.rules.machi_koro.state import Phase

LANDMARKS = ("train_station", "shopping_mall", "amusement_park", "radio_tower")


def hall_table(hall: HallService, event_id: str, name: str) -> Table:
    table = hall.create_table(event_id, name, ["Ada", "Bo"], roll_mode="hall")
    hall.set_status(table.id, "start")
    return table


def win_at(hall: HallService, table: Table, event_id: str) -> None:
    """Seat 0 builds its four landmarks by hall rolls and moves, as a real table wins."""
    hall.adjust(table.id, 0, table.state.total_coins() - table.state.players[0].coins - 1,
                "a rich start for the test")
    for roll in range(40):
        hall.hall_roll(event_id, [1, 1])
        state = table.state
        if state.active == 0 and state.phase is Phase.BUILD:
            missing = [card for card in LANDMARKS if card not in state.players[0].landmarks]
            answer = hall.move(table.seats[0].token, f"win-{roll}",
                               {"kind": "build", "card": missing[0]})
            assert answer["ok"], answer
        if table.state.phase is Phase.FINISHED:
            return
    raise AssertionError("seat 0 did not win in 40 hall rolls")


def test_hall_roll_a_won_table_leaves_the_roll_and_the_others_still_roll(hall):
    """The fuzzer's case: table A won (its status stays running); the next hall roll answered
    500 (`an append needs at least one event`) and no table rolled until A was ended."""
    event = hall.create_event("Night")
    won = hall_table(hall, event.id, "A")
    other = hall_table(hall, event.id, "B")
    win_at(hall, won, event.id)
    assert won.status == "running" and won.state.winner == 0
    won_before = (won.state, won.seq)
    other_turn = other.state.turn

    answer = hall.hall_roll(event.id, [3, 4])

    assert answer["tables"] == [other.id]
    assert answer["skipped"] == []
    assert other.state.turn == other_turn + 1 and other.state.dice == (3,)
    assert (won.state, won.seq) == won_before
    record = hall.journal.read(event.stream)[-1]
    assert record.kind == "hall_rolled" and record.data["tables"] == [other.id]


def test_hall_roll_a_table_out_of_step_with_its_journal_is_skipped_and_named(tmp_path, hall, caplog):
    """Another writer appended to table A's stream behind the hall's back (a real conflict on
    the SQLite file, the journal's StaleSequence): A is left as it was, logged once, named in
    the answer; B and C get the roll, in one transaction with the event's record."""
    event = hall.create_event("Night")
    a, b, c = (hall_table(hall, event.id, name) for name in "ABC")
    with SqliteJournal(tmp_path / "hall.db") as other:
        other.append(a.stream, a.seq, [("note", {"by": "another writer"})])
    a_before = (a.state, a.seq, len(a.moves))

    with caplog.at_level(logging.ERROR, logger="companion"):
        answer = hall.hall_roll(event.id, [2, 5])
        again = hall.hall_roll(event.id, [6, 1])

    assert answer["tables"] == [b.id, c.id] and again["tables"] == [b.id, c.id]
    assert [s["table"] for s in answer["skipped"]] == [a.id]
    assert answer["skipped"][0]["name"] == "A" and answer["skipped"][0]["code"] == "table/out_of_step"
    assert (a.state, a.seq, len(a.moves)) == a_before
    assert b.state.dice == (6,) and c.state.dice == (6,)
    assert [r.data["tables"] for r in hall.journal.read(event.stream) if r.kind == "hall_rolled"] \
        == [[b.id, c.id], [b.id, c.id]]
    failures = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(failures) == 1 and f"table {a.id}" in failures[0].getMessage()


def test_hall_roll_a_table_whose_rules_fail_is_skipped_and_the_rest_roll(hall, caplog, monkeypatch):
    """A table whose rules raise while its turn is planned (a bug in a ruleset, a state no
    game reaches) costs only that table its roll."""
    event = hall.create_event("Night")
    a, b = hall_table(hall, event.id, "A"), hall_table(hall, event.id, "B")
    from companion.hall import hall_roll as module

    real = module.hall_turn

    def broken_for_a(hall_, table, d1, d2):
        if table.id == a.id:
            raise RuntimeError("a ruleset bug")
        return real(hall_, table, d1, d2)

    monkeypatch.setattr(module, "hall_turn", broken_for_a)
    with caplog.at_level(logging.ERROR, logger="companion"):
        answer = hall.hall_roll(event.id, [4, 4])

    assert answer["tables"] == [b.id]
    assert [(s["table"], s["code"]) for s in answer["skipped"]] == [(a.id, "server/error")]
    assert a.state.dice == () and b.state.dice == (4,)
    assert "a ruleset bug" in caplog.text


def test_hall_roll_a_table_whose_journal_has_the_rolls_id_already_does_not_move_alone(tmp_path, hall):
    """Review: the journal answers a known request id as a duplicate and writes nothing; the
    table's memory must not move on without it. Another writer put the next roll's id on A."""
    from companion.hall.hall_roll import roll_request_id

    event = hall.create_event("Night")
    a, b = hall_table(hall, event.id, "A"), hall_table(hall, event.id, "B")
    with SqliteJournal(tmp_path / "hall.db") as other:
        other.append(a.stream, a.seq, [("note", {"by": "another writer"})],
                     request_id=roll_request_id(event, 1))
    a_before = (a.state, a.seq, len(a.moves))

    answer = hall.hall_roll(event.id, [5, 2])

    assert answer["tables"] == [b.id]
    assert [(s["table"], s["code"]) for s in answer["skipped"]] == [(a.id, "table/out_of_step")]
    assert (a.state, a.seq, len(a.moves)) == a_before and b.state.dice == (5,)


# ---------------------------------------------------------------- what a hall roll costs (issue 15)

class CountingJournal:
    """A journal that counts the calls made to it, by method."""

    def __init__(self, journal: SqliteJournal) -> None:
        self.journal = journal
        self.calls: dict[str, int] = {}

    def __getattr__(self, name: str):
        method = getattr(self.journal, name)

        def counted(*args, **kwargs):
            self.calls[name] = self.calls.get(name, 0) + 1
            return method(*args, **kwargs)

        return counted


@pytest.mark.parametrize("shared, elsewhere", [(False, False), (True, False), (True, True)])
def test_hall_roll_asks_the_journal_as_often_for_many_tables_as_for_one(tmp_path, shared,
                                                                        elsewhere):
    """Issue 15: a hall roll of 500 tables on PostgreSQL never answered. The roll is one read
    of every table's last seq (several processes), one read of the records of those another
    process moved (`elsewhere`: all of them) and one append of all of them, however many
    tables roll: a per-table read or append creeping back in makes the counts differ."""
    calls = []
    for count in (1, 12):
        with SqliteJournal(tmp_path / f"hall-{count}.db") as journal:
            counting = CountingJournal(journal)
            hall = HallService(counting, shared=shared)  # type: ignore[arg-type]
            event = hall.create_event("Night")
            tables = [hall_table(hall, event.id, f"T{number}") for number in range(count)]
            hall.hall_roll(event.id, [1, 2])  # the first roll of the event, then a second
            if elsewhere:  # another process makes a move at every table
                other = HallService(journal, shared=True)
                for table in tables:
                    seat = other.tables[table.id].state.active
                    answer = other.move(table.seats[seat].token, "elsewhere",
                                        {"kind": "dice_count", "count": 1})
                    assert answer["ok"], answer
            counting.calls.clear()
            answer = hall.hall_roll(event.id, [3, 4])
            assert len(answer["tables"]) == count and not answer["skipped"]
            calls.append(dict(counting.calls))
            if elsewhere:
                assert all(t.seq == journal.last_seq(t.stream) for t in tables)
    assert calls[0] == calls[1]
    assert calls[1]["append_many"] == 1
    assert calls[1].get("last_seqs", 0) == (1 if shared else 0)
    assert calls[1].get("read_after", 0) == (1 if elsewhere else 0)
