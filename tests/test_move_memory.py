"""What a table keeps in memory is bounded (issue 17, F4): the latest MOVES_KEPT moves, which
undo and the screens need; older ones stay in the journal, and an undo that reaches past the
kept ones rebuilds them from it. 500 phones and a hall roll every 10 s grew the server by about
0.85 kB a move, for good."""

from __future__ import annotations

import pytest

from companion.hall.model import MOVES_KEPT
from companion.hall.replay import rebuild_table
from companion.hall.service import HallService
from companion.hall.views import audit_json
from companion.journal import SqliteJournal


def busy_table(hall: HallService, moves: int):
    """An own-roll table after `moves` accepted moves (dice settings, rolls and turn ends)."""
    event = hall.create_event("Night")
    table = hall.create_table(event.id, "T", ["Ada", "Bo"], roll_mode="own")
    hall.set_status(table.id, "start")
    states = [table.state]
    for n in range(moves):
        seat = table.state.active
        phase = table.state.phase.value
        move = {"kind": "roll"} if phase == "roll" and n % 3 == 0 else (
            {"kind": "end_turn"} if phase == "build" else {"kind": "dice_count", "count": 1})
        if phase == "roll" and move["kind"] != "roll":
            move = {"kind": "dice_count", "count": 1}
        answer = hall.move(table.seats[seat].token, f"m{n}", move)
        assert answer["ok"], answer
        states.append(table.state)
    return table, states


def test_move_memory_a_table_keeps_only_the_latest_moves(hall):
    table, _ = busy_table(hall, MOVES_KEPT * 3)
    assert len(table.moves) == MOVES_KEPT
    assert table.moves[-1].number == MOVES_KEPT * 3


def test_move_memory_undo_reaches_past_the_kept_moves_through_the_journal(hall):
    table, states = busy_table(hall, MOVES_KEPT + 20)
    for back in range(1, MOVES_KEPT + 11):
        hall.undo(table.id)
        assert table.state == states[-1 - back], f"undo {back}"
    fresh = rebuild_table(hall.journal.read(table.stream))
    assert fresh.state == table.state and fresh.seq == table.seq


def test_move_memory_a_restart_keeps_the_latest_moves_too(tmp_path, hall):
    table, states = busy_table(hall, MOVES_KEPT * 2)
    with SqliteJournal(tmp_path / "hall.db") as journal:
        again = HallService(journal)
        copy = again.tables[table.id]
        assert len(copy.moves) == MOVES_KEPT and copy.state == table.state
        for back in range(1, MOVES_KEPT + 3):
            again.undo(copy.id)
            assert copy.state == states[-1 - back]


def test_move_memory_the_audit_view_lists_every_move_from_the_journal(hall):
    table, _ = busy_table(hall, MOVES_KEPT * 2)
    moves = audit_json(table, hall.journal.read(table.stream))
    assert [m["move"] for m in moves] == list(range(1, MOVES_KEPT * 2 + 1))
    assert {m["author"] for m in moves} == {"seat 0", "seat 1"}


def test_move_memory_an_undo_that_fails_to_commit_keeps_only_the_kept_moves(tmp_path, hall):
    """Review: the undo that rebuilds older moves from the journal must not keep the whole
    history in memory when its own commit fails (another writer moved the stream on)."""
    table, _ = busy_table(hall, MOVES_KEPT + 5)
    for _ in range(MOVES_KEPT - 1):
        hall.undo(table.id)
    assert len(table.moves) == 1 and table.forgot_moves
    with SqliteJournal(tmp_path / "hall.db") as other:
        other.append(table.stream, table.seq, [("note", {"by": "another writer"})])
    with pytest.raises(Exception, match="expected last seq"):
        hall.undo(table.id)
    assert len(table.moves) == 1
