"""A safe hall roll (issue 16, item 2), on the real HallService and a real SQLite journal: a
second roll within a few seconds of the last one is refused unless the organizer confirms it,
and the last hall roll can be taken back with reversing entries (the journal only grows) while
none of its tables has moved since. The story of the issue: two presses of Space 150 ms apart
made two hall rolls, and the second wiped out a pending Radio Tower choice and a build."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from conftest import api

from companion.hall import HallError
from companion.hall.hall_roll import ROLL_GAP_SECONDS
from companion.hall.model import Table
from companion.hall.service import HallService
from companion.journal import SqliteJournal
from companion.rules.machi_koro.state import Phase
from companion.web import hall_service
from companion.web.errors import status_of


def hall_table(hall: HallService, event_id: str, name: str = "A", mode: str = "hall") -> Table:
    table = hall.create_table(event_id, name, ["Ada", "Bo"], roll_mode=mode)
    hall.set_status(table.id, "start")
    return table


def streams(hall: HallService) -> dict[str, list[tuple[int, str, dict]]]:
    """Every stream of the journal as it stands."""
    return {s: [(r.seq, r.kind, r.data) for r in hall.journal.read(s)] for s in hall.journal.streams()}


def after_the_gap(hall: HallService, event_id: str) -> datetime:
    """A moment just past the gap after the event's last hall roll, by the journal's clock."""
    last = hall.journal.read(hall.event(event_id).stream)[-1]
    return datetime.fromisoformat(last.at) + timedelta(seconds=ROLL_GAP_SECONDS + 0.1)


def radio_tower_waiting(hall: HallService, event_id: str, table: Table) -> None:
    """Ada builds a Radio Tower and, two hall rolls later, is offered a reroll: a choice open."""
    hall.hall_roll(event_id, [1, 1])
    hall.adjust(table.id, 0, 30, "a rich start for the test")
    assert hall.move(table.seats[0].token, "tower", {"kind": "build", "card": "radio_tower"})["ok"]
    hall.hall_roll(event_id, [2, 2])
    hall.hall_roll(event_id, [3, 3])
    assert table.state.phase is Phase.REROLL and table.state.active == 0 and table.choosing


# ---------------------------------------------------------------- a second roll too soon


def test_hall_roll_a_second_press_within_the_gap_is_refused_and_changes_nothing(hall):
    event = hall.create_event("Night")
    table = hall_table(hall, event.id)
    first = hall.hall_roll(event.id, None, confirm=False)
    assert first["roll"] == 1
    before = streams(hall)
    with pytest.raises(HallError) as refused:
        hall.hall_roll(event.id, None, confirm=False)
    assert (refused.value.code, status_of(refused.value.code)) == ("roll/too_soon", 409)
    assert streams(hall) == before and len(event.rolls) == 1 and table.state.turn == 1


def test_hall_roll_a_confirmed_second_roll_and_an_api_client_are_not_asked(hall):
    """`confirm: true` is the organizer's yes; a client that sends no `confirm` at all (a
    script, the benchmark) rolls on purpose and is never asked."""
    event = hall.create_event("Night")
    hall_table(hall, event.id)
    hall.hall_roll(event.id, [1, 2], confirm=False)
    assert hall.hall_roll(event.id, [3, 4], confirm=True)["roll"] == 2
    assert hall.hall_roll(event.id, [5, 6])["roll"] == 3
    assert event.rolls == [[1, 2], [3, 4], [5, 6]]


def test_hall_roll_after_the_gap_is_not_too_soon(hall):
    event = hall.create_event("Night")
    hall_table(hall, event.id)
    hall.hall_roll(event.id, [1, 2], confirm=False)
    later = after_the_gap(hall, event.id)
    assert hall.hall_roll(event.id, [3, 4], confirm=False, now=later)["roll"] == 2
    # the gap runs from the latest roll, not the first
    with pytest.raises(HallError, match="confirm"):
        hall.hall_roll(event.id, [5, 6], confirm=False,
                       now=datetime.now(UTC) + timedelta(seconds=ROLL_GAP_SECONDS / 2))


def test_hall_roll_the_gap_holds_after_a_settings_change(hall):
    """The organizer saves the turn timer between two presses: the roll before it counts."""
    event = hall.create_event("Night")
    hall_table(hall, event.id)
    hall.hall_roll(event.id, [1, 2], confirm=False)
    hall.update_event(event.id, {"choice_seconds": 30})
    with pytest.raises(HallError, match="confirm"):
        hall.hall_roll(event.id, [3, 4], confirm=False)


@pytest.mark.parametrize("confirm", ["yes", 1, 0, [], {}])
def test_hall_roll_confirm_is_true_or_false(hall, confirm):
    event = hall.create_event("Night")
    hall_table(hall, event.id)
    with pytest.raises(HallError) as refused:
        hall.hall_roll(event.id, None, confirm=confirm)
    assert (refused.value.code, status_of(refused.value.code)) == ("request/invalid", 400)
    assert event.rolls == []


# ---------------------------------------------------------------- undoing the last hall roll


def test_undo_hall_roll_brings_back_the_choice_and_the_build_the_second_press_wiped_out(hall, hall_db):
    """The issue's evening: Ada's Radio Tower reroll is open at table A, Cy at table B is in
    his build phase; a second press rolls the hall again (confirmed by mistake). Undoing it
    gives both tables back exactly as they were, and the journal only grew."""
    event = hall.create_event("Night")
    a = hall_table(hall, event.id, "A")
    b = hall.create_table(event.id, "B", ["Cy", "Di"])
    hall.set_status(b.id, "start")
    radio_tower_waiting(hall, event.id, a)
    assert b.state.phase is Phase.BUILD and b.state.active == 0
    states, seqs, journal = (a.state, b.state), (a.seq, b.seq), streams(hall)

    hall.hall_roll(event.id, [6, 6], confirm=True)  # the accidental second roll
    assert a.state.phase is not Phase.REROLL and b.state.active == 1
    answer = hall.undo_hall_roll(event.id)

    assert answer == {"roll": 4, "dice": [6, 6], "tables": [a.id, b.id]}
    assert (a.state, b.state) == states and event.rolls == [[1, 1], [2, 2], [3, 3]]
    assert a.choosing and a.waiting_since is not None  # the reroll's clock starts anew
    # Reversing entries: everything that was there still is, and each table's roll moves are
    # reverted, last first, by the organizer.
    now = streams(hall)
    for stream, records in journal.items():
        assert now[stream][:len(records)] == records
    added = {stream: [(kind, data) for _, kind, data in now[stream][len(records):]]
             for stream, records in journal.items()}
    assert added[event.stream][-1] == ("roll_undone", {"roll": 4, "dice": [6, 6]})
    assert [kind for kind, _ in added[a.stream][-2:]] == ["reverted", "reverted"]
    moves = [data["move"] for kind, data in added[a.stream] if kind == "reverted"]
    assert moves == sorted(moves, reverse=True)
    assert a.seq > seqs[0] and b.seq > seqs[1]
    # Ada keeps her roll and builds; Cy builds: the evening goes on from where it was.
    assert hall.move(a.seats[0].token, "keep", {"kind": "keep"})["ok"]
    assert hall.move(b.seats[0].token, "ranch", {"kind": "build", "card": "ranch"})["ok"]

    with SqliteJournal(hall_db) as journal_again:  # a restart rebuilds the same tables and rolls
        again = HallService(journal_again)
        assert again.events[event.id].rolls == event.rolls
        assert (again.tables[a.id].state, again.tables[b.id].state) == (a.state, b.state)


def test_undo_hall_roll_then_the_next_roll_is_a_roll_of_its_own(hall, hall_db):
    """The roll after an undo takes the undone roll's number on the screens, but its journal
    entries are new ones: the journal answers a repeated request id with the first answer and
    writes nothing, which would have lost the roll."""
    event = hall.create_event("Night")
    table = hall_table(hall, event.id)
    hall.hall_roll(event.id, [1, 1])
    hall.hall_roll(event.id, [2, 2])
    hall.undo_hall_roll(event.id)
    turn, seq = table.state.turn, table.seq

    answer = hall.hall_roll(event.id, [5, 5], confirm=False)

    assert answer["roll"] == 2 and answer["tables"] == [table.id]
    assert table.state.turn == turn + 1 and table.state.dice == (5,) and table.seq > seq
    assert event.rolls == [[1, 1], [5, 5]]
    with SqliteJournal(hall_db) as journal_again:
        again = HallService(journal_again)
        assert again.tables[table.id].state == table.state
        assert again.events[event.id].rolls == [[1, 1], [5, 5]]
        again.undo_hall_roll(event.id)  # the re-roll can be undone too, after a restart
        assert again.tables[table.id].state.turn == turn
        assert again.events[event.id].rolls == [[1, 1]]


def test_undo_hall_roll_refused_once_a_table_moved_on(hall):
    """The organizer corrects Bo's coins at table B after the roll: the roll stays, at every
    table, and the refusal names B."""
    event = hall.create_event("Night")
    a, b = hall_table(hall, event.id, "A"), hall_table(hall, event.id, "B")
    hall.hall_roll(event.id, [2, 3])
    hall.adjust(b.id, 1, 1, "a moved-on table")
    before = streams(hall)
    with pytest.raises(HallError) as refused:
        hall.undo_hall_roll(event.id)
    assert (refused.value.code, status_of(refused.value.code)) == ("roll/moved_on", 409)
    assert "B" in refused.value.message and "A" not in refused.value.message.split(":")[-1]
    assert streams(hall) == before and event.rolls == [[2, 3]] and a.state.turn == 1


@pytest.mark.parametrize("later", ["pause", "undo"])
def test_undo_hall_roll_refused_after_a_pause_or_a_table_undo(hall, later):
    """Anything after the roll in a table's journal counts: a pause, or the organizer's undo
    of the table's last move (a part of the roll)."""
    event = hall.create_event("Night")
    table = hall_table(hall, event.id)
    hall.hall_roll(event.id, [2, 3])
    hall.set_status(table.id, "pause") if later == "pause" else hall.undo(table.id)
    with pytest.raises(HallError, match="A"):
        hall.undo_hall_roll(event.id)


def test_undo_hall_roll_with_nothing_to_undo(hall):
    event = hall.create_event("Night")
    hall_table(hall, event.id)
    with pytest.raises(HallError) as refused:
        hall.undo_hall_roll(event.id)
    assert (refused.value.code, status_of(refused.value.code)) == ("roll/nothing_to_undo", 409)
    hall.hall_roll(event.id, [1, 2])
    hall.hall_roll(event.id, [3, 4])
    hall.undo_hall_roll(event.id)
    with pytest.raises(HallError) as again:  # the last roll only, once: not the one before it
        hall.undo_hall_roll(event.id)
    assert again.value.code == "roll/nothing_to_undo" and event.rolls == [[1, 2]]


def test_undo_hall_roll_leaves_own_roll_paused_and_later_tables_alone(hall):
    """Only the tables that rolled are taken back: an own-roll table, a paused one and a table
    that started after the roll keep everything."""
    event = hall.create_event("Night")
    rolled = hall_table(hall, event.id, "A")
    own = hall_table(hall, event.id, "Own", mode="own")
    paused = hall_table(hall, event.id, "Paused")
    hall.set_status(paused.id, "pause")
    hall.hall_roll(event.id, [4, 4])
    late = hall_table(hall, event.id, "Late")
    others = [(t.state, t.seq, t.status) for t in (own, paused, late)]
    answer = hall.undo_hall_roll(event.id)
    assert answer["tables"] == [rolled.id] and rolled.state.turn == 1
    assert [(t.state, t.seq, t.status) for t in (own, paused, late)] == others


def test_undo_hall_roll_takes_back_a_coop_tables_assessor_turn(hall, hall_db):
    """A hall roll closes a co-op turn, and the server plays the Tax Assessor's turn in it: the
    undo takes all of it back, the assessor's coins and decks too."""
    event = hall.create_event("Night")
    table = hall.create_table(event.id, "Pair", ["Ada", "Bo"], ruleset="machi-koro-coop")
    hall.set_status(table.id, "start")
    for dice in ([1, 1], [2, 2], [3, 3]):
        hall.hall_roll(event.id, dice)
    before = table.state
    hall.hall_roll(event.id, [4, 4])
    assert table.state != before
    hall.undo_hall_roll(event.id)
    assert table.state == before
    with SqliteJournal(hall_db) as journal_again:
        assert HallService(journal_again).tables[table.id].state == before


def test_undo_hall_roll_gives_the_balanced_deck_its_pair_back(hall, hall_db):
    event = hall.create_event("Night", "balanced")
    hall_table(hall, event.id)
    hall.hall_roll(event.id)
    deck_before = sorted(map(tuple, event.deck))
    pair = hall.hall_roll(event.id)["dice"]
    assert len(event.deck) == len(deck_before) - 1
    hall.undo_hall_roll(event.id)
    assert sorted(map(tuple, event.deck)) == deck_before and list(pair) in event.deck
    with SqliteJournal(hall_db) as journal_again:
        assert HallService(journal_again).events[event.id].deck == event.deck


def test_undo_hall_roll_after_a_roll_dealt_by_hand_leaves_the_deck(hall):
    """Dice rolled by hand in the hall never came from the deck: none goes back into it."""
    event = hall.create_event("Night", "balanced")
    hall_table(hall, event.id)
    hall.hall_roll(event.id)
    deck = [list(pair) for pair in event.deck]
    hall.hall_roll(event.id, [6, 6])
    hall.undo_hall_roll(event.id)
    assert event.deck == deck


def test_undo_hall_roll_is_published_to_the_tables_and_the_hall(hall):
    event = hall.create_event("Night")
    table = hall_table(hall, event.id)
    hall.hall_roll(event.id, [1, 2])
    heard = []
    hall.listeners.append(heard.append)
    hall.undo_hall_roll(event.id)
    assert [(c.tables, c.events) for c in heard] == [([table.id], [event.id])]


# ---------------------------------------------------------------- through the organizer API


def test_api_roll_too_soon_is_409_unless_confirmed_and_undo_takes_it_back(app, http, key):
    event = api(http, key, "post", "/api/events", {"name": "Night"}).get_json()
    table = api(http, key, "post", f"/api/events/{event['id']}/tables",
                {"name": "A", "players": ["Ada", "Bo"]}).get_json()
    api(http, key, "post", f"/api/tables/{table['id']}/start")
    roll = f"/api/events/{event['id']}/roll"
    assert api(http, key, "post", roll, {"confirm": False}).status_code == 200
    refused = api(http, key, "post", roll, {"confirm": False})
    assert refused.status_code == 409 and refused.get_json()["code"] == "roll/too_soon"
    bad = api(http, key, "post", roll, {"confirm": "please"})
    assert bad.status_code == 400 and bad.get_json()["code"] == "request/invalid"
    second = api(http, key, "post", roll, {"confirm": True, "dice": [2, 5]})
    assert second.status_code == 200 and second.get_json()["roll"] == 2

    undone = api(http, key, "post", f"{roll}/undo")
    assert undone.status_code == 200
    assert undone.get_json() == {"roll": 2, "dice": [2, 5], "tables": [table["id"]]}
    assert len(hall_service(app).event(event["id"]).rolls) == 1
    again = api(http, key, "post", f"{roll}/undo")
    assert again.status_code == 409 and again.get_json()["code"] == "roll/nothing_to_undo"
    assert api(http, None, "post", f"{roll}/undo").status_code == 401
    assert api(http, key, "post", "/api/events/99/roll/undo").get_json()["code"] == "event/unknown"


def test_api_undo_refusal_names_the_tables_in_the_requests_language(app, http, key):
    event = api(http, key, "post", "/api/events", {"name": "Night"}).get_json()
    table = api(http, key, "post", f"/api/events/{event['id']}/tables",
                {"name": "Tafel 9", "players": ["Ada", "Bo"]}).get_json()
    api(http, key, "post", f"/api/tables/{table['id']}/start")
    api(http, key, "post", f"/api/events/{event['id']}/roll", {"dice": [1, 1]})
    api(http, key, "post", f"/api/tables/{table['id']}/pause")
    answer = api(http, key, "post", f"/api/events/{event['id']}/roll/undo?lang=nl")
    assert answer.status_code == 409 and answer.get_json()["code"] == "roll/moved_on"
    message = answer.get_json()["message"]
    assert "Tafel 9" in message and "hall roll" not in message


def test_hall_roll_the_hall_view_says_whether_the_last_roll_can_be_undone(hall_db, hall):
    """Only the last roll, and only once: after an undo the console offered the roll before it,
    which the server always refused (roll/nothing_to_undo). The view says so, also after a
    restart (the flag comes from the event's records)."""
    event = hall.create_event("Night")
    hall_table(hall, event.id)
    assert hall.hall_view(event)["roll_undoable"] is False
    hall.hall_roll(event.id, [2, 3])
    hall.hall_roll(event.id, [4, 1])
    assert hall.hall_view(event)["roll_undoable"] is True
    hall.undo_hall_roll(event.id)
    assert hall.hall_view(event)["roll_undoable"] is False
    with pytest.raises(HallError, match="."):
        hall.undo_hall_roll(event.id)
    with SqliteJournal(hall_db) as journal:
        again = HallService(journal)
        assert again.hall_view(again.event(event.id))["roll_undoable"] is False
    hall.hall_roll(event.id, [6, 6], confirm=True)
    assert hall.hall_view(event)["roll_undoable"] is True
