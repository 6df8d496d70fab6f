"""Request ids belong to the seat that sent them (issue 17, F6; DESIGN.md "One move, end to
end"): seat B reusing an id seat A already used is its own new request, judged on its own;
only the same seat repeating an id gets the first answer, applied once."""

from __future__ import annotations

import pytest

from companion.hall.service import HallService
from companion.journal import SqliteJournal


@pytest.fixture
def table(hall):
    event = hall.create_event("Night")
    table = hall.create_table(event.id, "T", ["Ada", "Bo"], roll_mode="own")
    hall.set_status(table.id, "start")
    return table


def test_request_ids_another_seat_reusing_an_id_is_judged_not_answered(hall, table):
    """The fuzzer's case: B's move with A's id got A's `ok: true` and nothing was applied."""
    ada, bo = (seat.token for seat in table.seats)
    assert hall.move(ada, "r1", {"kind": "dice_count", "count": 1})["ok"]
    seq = table.seq

    answer = hall.move(bo, "r1", {"kind": "roll"})

    assert answer["ok"] is False and answer["code"] == "rule/not_your_turn"
    assert table.seq == seq


def test_request_ids_another_seat_reusing_an_id_gets_its_move_applied(hall, table):
    ada, bo = (seat.token for seat in table.seats)
    assert hall.move(ada, "same", {"kind": "roll"})["ok"]
    assert hall.move(ada, "end", {"kind": "end_turn"})["ok"]
    seq = table.seq

    assert hall.move(bo, "same", {"kind": "roll"}) == {"ok": True}

    assert table.seq > seq and table.state.active == 1 and table.state.dice


def test_request_ids_the_same_seat_repeating_an_id_is_answered_once(hall, table):
    ada = table.seats[0].token
    first = hall.move(ada, "r1", {"kind": "roll"})
    seq = table.seq
    assert hall.move(ada, "r1", {"kind": "roll"}) == first
    assert table.seq == seq


def test_request_ids_a_refusal_is_remembered_for_its_seat_only(hall, table):
    ada, bo = (seat.token for seat in table.seats)
    refused = hall.move(bo, "r9", {"kind": "roll"})
    assert refused["code"] == "rule/not_your_turn"
    assert hall.move(ada, "r9", {"kind": "roll"}) == {"ok": True}
    assert hall.move(bo, "r9", {"kind": "roll"}) == refused


def test_request_ids_survive_a_restart_per_seat(tmp_path, hall, table):
    """The journal keeps the seat's id: after a restart the same seat's repeat is answered,
    another seat's same id is still its own."""
    ada, bo = (seat.token for seat in table.seats)
    assert hall.move(ada, "r1", {"kind": "roll"})["ok"]
    with SqliteJournal(tmp_path / "hall.db") as journal:
        again = HallService(journal)
        seq = again.tables[table.id].seq
        assert again.move(ada, "r1", {"kind": "roll"}) == {"ok": True}
        assert again.tables[table.id].seq == seq
        assert again.move(bo, "r1", {"kind": "roll"})["code"] == "rule/not_your_turn"
