"""The console's journal of a table shows an undone move and its reversal (issue 27, item 13):
the confirmation says the reversal is added to the journal, and the export holds both."""

from __future__ import annotations

from companion.hall.views import audit_json


def test_audit_keeps_an_undone_move_and_lists_its_reversal(hall):
    event = hall.create_event("Club night")
    table = hall.create_table(event.id, "T1", ["Dana Levi", "Eli"], roll_mode="own")
    hall.set_status(table.id, "start")
    hall.roll_for_seat(table.id)  # move 1
    hall.undo(table.id)  # its reversal
    hall.roll_for_seat(table.id)  # move 1 again
    moves = audit_json(table, hall.journal.read(table.stream))
    assert [(m["move"], m["author"], m.get("undone", False), m.get("reverts")) for m in moves] == [
        (1, "organizer", True, None), (1, "organizer", False, 1), (1, "organizer", False, None)]
    assert moves[1]["events"] == []
    assert moves[0]["events"][0]["kind"] == "DiceRolled" == moves[2]["events"][0]["kind"]
