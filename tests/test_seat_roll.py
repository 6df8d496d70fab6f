"""An own-roll table whose seat has no phone (issue 27, item 12): the organizer rolls for the
seat whose roll is due (the rules say which, `Ruleset.roll_due`), and, when the event asks for
it, the hall's timer rolls once the seat's turn time is up; on the real HallService and a real
SQLite journal."""

from __future__ import annotations

import pytest

from companion.hall.checks import HallError
from companion.hall.model import Table
from companion.hall.service import HallService
from companion.hall.views import table_summary


def own_table(hall: HallService, event_id: str, roll_mode: str = "own") -> Table:
    table = hall.create_table(event_id, "T1", ["Dana Levi", "Eli", "Fay"], roll_mode=roll_mode)
    hall.set_status(table.id, "start")
    return table


def test_roll_for_seat_rolls_the_due_seats_own_roll(hall):
    table = own_table(hall, hall.create_event("Club night").id)
    assert table_summary(table)["roll_due"] == 0
    hall.roll_for_seat(table.id)
    assert table.state.phase.value == "build" and len(table.state.dice) == 1
    assert hall.journal.read(table.stream)[-1].author == "organizer"
    assert table_summary(table)["roll_due"] is None
    with pytest.raises(HallError) as refused:  # the seat rolled: it builds or ends its turn
        hall.roll_for_seat(table.id)
    assert refused.value.code == "table/no_roll_due"


def test_roll_for_seat_is_refused_at_a_hall_roll_table(hall):
    table = own_table(hall, hall.create_event("Club night").id, roll_mode="hall")
    assert table_summary(table)["roll_due"] is None
    seq = table.seq
    with pytest.raises(HallError) as refused:
        hall.roll_for_seat(table.id)
    assert refused.value.code == "table/hall_roll" and table.seq == seq


def test_seat_auto_roll_rolls_when_the_turn_time_is_up_only_when_asked(hall):
    event = hall.create_event("Club night")
    table = own_table(hall, event.id)
    assert hall.expire_choices(now=1000.0) == [] and table.roll_waits is None  # not asked for
    hall.update_event(event.id, {"seat_auto_roll": True, "choice_seconds": 30})
    assert hall.expire_choices(now=1000.0) == []  # the wait starts when the hall sees it
    assert hall.expire_choices(now=1029.0) == []
    assert table.state.phase.value == "roll"
    assert hall.expire_choices(now=1030.0) == [table.id]
    assert table.state.phase.value == "build"
    assert hall.journal.read(table.stream)[-1].author == "timer"
    # the next seat's wait starts anew after its turn begins
    hall.move(table.seats[0].token, "end-1", {"kind": "end_turn"})
    assert hall.expire_choices(now=1031.0) == [] and table.roll_waits[:2] == (table.state.turn, 1)
    assert hall.expire_choices(now=1060.0) == []
    assert hall.expire_choices(now=1061.0) == [table.id] and table.state.active == 1


def test_seat_auto_roll_setting_is_journalled_and_checked(hall, tmp_path):
    event = hall.create_event("Club night")
    with pytest.raises(HallError):
        hall.update_event(event.id, {"seat_auto_roll": "yes"})
    hall.update_event(event.id, {"seat_auto_roll": True})
    again = HallService(hall.journal)
    assert again.events[event.id].seat_auto_roll is True


def test_end_turn_for_seat_ends_the_building_seats_turn(hall):
    """Issue 27: after "Roll for Dana Levi" the seat without a phone builds nothing and cannot
    end her turn; the organizer ends it (the seat's own end of turn, decided by its rules), and
    the next seat's roll is due. Another seat's turn, or one before its roll, is refused."""
    table = own_table(hall, hall.create_event("Club night").id)
    with pytest.raises(HallError) as refused:  # Dana has not rolled yet
        hall.end_turn_for_seat(table.id, 0)
    assert refused.value.code.startswith("rule/") and table.state.active == 0
    hall.roll_for_seat(table.id)
    seq = table.seq
    with pytest.raises(HallError) as refused:  # Eli's turn it is not
        hall.end_turn_for_seat(table.id, 1)
    assert refused.value.code == "rule/not_your_turn" and table.seq == seq
    for bad in (None, "0", -1, 3, True):
        with pytest.raises(HallError) as refused:
            hall.end_turn_for_seat(table.id, bad)
        assert refused.value.code == "request/invalid", bad
    hall.end_turn_for_seat(table.id, 0)
    assert table.state.active == 1 and table_summary(table)["roll_due"] == 1
    assert hall.journal.read(table.stream)[-1].author == "organizer"


def test_end_turn_for_seat_is_refused_at_a_hall_roll_table(hall):
    table = own_table(hall, hall.create_event("Club night").id, roll_mode="hall")
    with pytest.raises(HallError) as refused:
        hall.end_turn_for_seat(table.id, 0)
    assert refused.value.code == "table/hall_roll"
