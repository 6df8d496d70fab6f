"""The clock of an event's turns and the event's shared turn (hall/clock.py), on the real
HallService and a real SQLite journal: the schedule, auto-roll, pause and resume, the end, the
follow-up dice, the rules' pause after a roll, the game over, staff moves, registration numbers
and the chain of tables, the hall view's `turn` and `games`, and a restart that resumes the same
turn with the same deadline.

The hall learns no game: these tests play Machi Koro tables, and tables of test-only rulesets
(Machi Koro with the event-level hooks overridden), registered for the test."""

from __future__ import annotations

import json
import time
from datetime import datetime
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import api

from companion.hall import HallError, HallService, checks
from companion.hall.model import Change
from companion.hall.views import compact_json
from companion.journal import SqliteJournal, open_journal
from companion.rules import registry
from companion.rules.errors import RuleError
from companion.rules.machi_koro.ruleset import MachiKoro
from companion.rules.ruleset import HallTurn, SharedTurn
from companion.web import hall_service, socketio


class Refused(RuleError):
    code = "test/refused"


class Turning(MachiKoro, SharedTurn[Any, Any]):
    """Machi Koro, with the event's shared turn: a 7 asks for two follow-up dice and pauses the
    auto-roll; the game is over once `over_from` turns were rolled; a staff move gives coins.
    Its records since a roll all keep the roll, and nothing holds a turn."""

    name = "test-turns"
    title = "Test turns"
    over_from: int | None = None

    def __init__(self) -> None:
        self.seen: list[HallTurn | None] = []  # the hall turns its moves were parsed with

    def parse_move(self, wire: Any, dice: tuple[int, ...], hall: HallTurn | None = None) -> Any:
        self.seen.append(hall)
        return super().parse_move(wire, dice, hall)

    def follow_up_dice(self, number: int, dice: tuple[int, int]) -> int:
        return 2 if sum(dice) == 7 else 0

    def pauses_after(self, turn: HallTurn) -> bool:
        return sum(turn.dice) == 7

    def turn_view(self, turn: HallTurn) -> dict[str, Any]:
        return {"seven": sum(turn.dice) == 7, "follow_up": list(turn.follow_up)}

    def turn_free(self, kind: str) -> bool:
        return False

    def check_turn_ends(self, stories: Any, hall: HallTurn | None) -> None:
        return None

    def hall_over(self, states: Any, hall: HallTurn | None) -> bool:
        return self.over_from is not None and hall is not None and hall.number >= self.over_from

    def event_view(self, stories: Any, hall: HallTurn | None) -> dict[str, Any]:
        return {"turn": None if hall is None else hall.number,
                "registered": {t: list(s.registered) for t, s in stories.items()},
                "neighbours": {t: list(s.neighbours) for t, s in stories.items()}}

    def staff_move(self, state: Any, wire: Any, hall: HallTurn | None) -> list[Any]:
        if isinstance(wire, dict) and wire.get("kind") == "end":
            return self.adjust(state, 0, 1, "the event's end")
        if not (isinstance(wire, dict) and wire.get("kind") == "bonus"):
            raise Refused(f"move: not a staff move of this game: {wire!r}")
        return self.adjust(state, wire.get("seat"), 2, f"bonus in turn {hall and hall.number}")


class Chained(Turning):
    name = "test-chain"
    chained = True


class Quiet(Turning):
    """A roll changes none of its tables (as Catan's boards: the turn is the event's)."""

    name = "test-quiet"

    def hall_turn(self, state: Any, dice: Any, catalog: Any, shuffle: Any) -> list[Any]:
        return []


@pytest.fixture
def rules(monkeypatch):
    made = {cls.name: cls() for cls in (Turning, Chained, Quiet)}
    for name, ruleset in made.items():
        monkeypatch.setitem(registry.REGISTRY, name, ruleset)
    monkeypatch.setattr(checks, "RULESETS", (*checks.RULESETS, *made))
    return made


@pytest.fixture
def hall(hall):
    """conftest's hall, keeping the changes it announces in `heard`."""
    hall.heard: list[Change] = []
    hall.listeners.append(hall.heard.append)
    return hall


def started(hall, event_id, ruleset="machi-koro", name="T", players=("Ann", "Ben")):
    table = hall.create_table(event_id, name, list(players), ruleset)
    hall.set_status(table.id, "start")
    return table


def records(hall, event, kind=None):
    return [r for r in hall.journal.read(event.stream) if kind is None or r.kind == kind]


def epoch(record) -> float:
    return datetime.fromisoformat(record.at).timestamp()


def refused(code, action, *args, **kwargs):
    with pytest.raises(HallError) as caught:
        action(*args, **kwargs)
    assert caught.value.code == code, caught.value.message
    return caught.value


def turn(hall, event):
    return hall.hall_view(event)["turn"]


# ---------------------------------------------------------------- the schedule and the deadline


def test_clock_schedule_sets_each_turns_time_and_the_deadline_counts_from_the_roll(hall):
    event = hall.create_event("Night")
    started(hall, event.id)
    hall.set_clock(event.id, schedule=[[1, 60], [3, 90]])
    assert hall.hall_view(event)["event"]["schedule"] == [[1, 60], [3, 90]]
    assert turn(hall, event) is None  # no roll yet: no turn

    hall.hall_roll(event.id, [2, 3])
    rolled = records(hall, event, "hall_rolled")[-1]
    now = turn(hall, event)
    assert now["number"] == 1 and now["dice"] == [2, 3] and now["follow_up"] == []
    assert now["seconds"] == 60 and now["paused"] is False and now["remaining_ms"] is None
    assert now["deadline_ms"] == round((epoch(rolled) + 60) * 1000)
    assert now["schedule"] == [[1, 60], [3, 90]] and now["auto_roll"] is False
    assert now["over"] is False and now["ended"] is False
    assert now["rules"] == {"machi-koro": {}}

    hall.hall_roll(event.id, [1, 1])
    hall.hall_roll(event.id, [1, 1])
    assert turn(hall, event)["seconds"] == 90  # turn 3: the second step


def test_clock_without_a_schedule_has_no_deadline(hall):
    event = hall.create_event("Night")
    hall.hall_roll(event.id, [2, 3])
    now = turn(hall, event)
    assert now["deadline_ms"] is None and now["seconds"] is None and now["schedule"] is None


@pytest.mark.parametrize("schedule, field", [
    ([[2, 60]], "schedule[0][0]"),
    ([[1, 60], [1, 90]], "schedule[1][0]"),
    ([[1, 5]], "schedule[0][1]"),
    ([[1, 901]], "schedule[0][1]"),
    ([], "schedule"),
    ("60", "schedule"),
    ([[1, 60, 3, 4]], "schedule[0]"),  # a step is 2 or 3 numbers (issue 27: production)
])
def test_clock_bad_schedule_is_refused_naming_the_field_and_changes_nothing(hall, schedule, field):
    event = hall.create_event("Night")
    before = records(hall, event)
    error = refused("rule/bad_schedule", hall.set_clock, event.id, schedule=schedule)
    assert error.message.startswith(field + ":")
    assert records(hall, event) == before


@pytest.mark.parametrize("fields, code", [
    ({}, "request/invalid"),
    ({"auto_roll": "yes"}, "request/invalid"),
    ({"auto_roll": 1}, "request/invalid"),
])
def test_clock_other_bad_settings_are_refused(hall, fields, code):
    event = hall.create_event("Night")
    before = records(hall, event)
    refused(code, hall.set_clock, event.id, **fields)
    assert records(hall, event) == before


def test_clock_schedule_null_clears_it(hall):
    event = hall.create_event("Night")
    hall.set_clock(event.id, schedule=[[1, 60]], auto_roll=True)
    hall.set_clock(event.id, schedule=None)
    assert event.schedule == [] and event.auto_roll is True


# ---------------------------------------------------------------- pause and resume


def test_clock_pause_keeps_the_time_left_and_resume_moves_the_deadline(hall):
    event = hall.create_event("Night")
    hall.set_clock(event.id, schedule=[[1, 60]])
    hall.hall_roll(event.id, [2, 3])
    time.sleep(0.02)
    hall.pause_event(event.id)
    paused = turn(hall, event)
    rolled, pause = records(hall, event, "hall_rolled")[-1], records(hall, event, "paused")[-1]
    assert paused["paused"] is True and paused["deadline_ms"] is None
    assert paused["remaining_ms"] == round((epoch(rolled) + 60 - epoch(pause)) * 1000)

    time.sleep(0.05)
    hall.resume_event(event.id)
    resume = records(hall, event, "resumed")[-1]
    running = turn(hall, event)
    assert running["paused"] is False and running["remaining_ms"] is None
    # to the millisecond: the server adds the same seconds in another order (float rounding)
    assert abs(running["deadline_ms"] - round(
        (epoch(rolled) + 60 + epoch(resume) - epoch(pause)) * 1000)) <= 1
    assert running["deadline_ms"] > round((epoch(rolled) + 60) * 1000)


def test_clock_pause_and_resume_refusals_change_nothing(hall):
    event = hall.create_event("Night")
    refused("event/not_started", hall.pause_event, event.id)
    refused("event/not_paused", hall.resume_event, event.id)
    hall.hall_roll(event.id, [2, 3])
    hall.pause_event(event.id)
    before = records(hall, event)
    refused("event/paused", hall.pause_event, event.id)
    assert records(hall, event) == before
    refused("event/unknown", hall.pause_event, "99")


def test_clock_a_roll_starts_the_next_turn_running(hall):
    """The organizer's roll during a pause goes on with the event: the new turn's clock runs."""
    event = hall.create_event("Night")
    hall.set_clock(event.id, schedule=[[1, 60]])
    hall.hall_roll(event.id, [2, 3])
    hall.pause_event(event.id)
    hall.hall_roll(event.id, [1, 3])
    now = turn(hall, event)
    rolled = records(hall, event, "hall_rolled")[-1]
    assert now["paused"] is False and now["deadline_ms"] == round((epoch(rolled) + 60) * 1000)


# ---------------------------------------------------------------- the automatic roll


def deadline_of(hall, event) -> float:
    return turn(hall, event)["deadline_ms"] / 1000


def test_clock_auto_roll_rolls_when_the_time_is_up_and_not_before(hall):
    event = hall.create_event("Night")
    table = started(hall, event.id)
    hall.set_clock(event.id, schedule=[[1, 30], [2, 60]], auto_roll=True)
    assert hall.roll_when_due(now=time.time() + 10_000) == []  # the first roll is the organizer's
    hall.hall_roll(event.id, [2, 3])
    end = deadline_of(hall, event)
    assert hall.roll_when_due(now=end - 0.5) == []
    assert len(event.rolls) == 1

    assert hall.roll_when_due(now=end + 0.001) == [event.id]  # (deadline_ms is rounded)
    assert len(event.rolls) == 2 and table.state.turn == 2
    assert records(hall, event, "hall_rolled")[-1].author == "timer"
    assert hall.roll_when_due(now=end + 0.001) == []  # the new turn has its own time


def test_clock_auto_roll_waits_while_paused_off_or_without_schedule(hall):
    event = hall.create_event("Night")
    hall.set_clock(event.id, schedule=[[1, 30]], auto_roll=False)
    hall.hall_roll(event.id, [2, 3])
    far = time.time() + 10_000
    assert hall.roll_when_due(now=far) == []  # off
    hall.set_clock(event.id, auto_roll=True)
    hall.pause_event(event.id)
    assert hall.roll_when_due(now=far) == []  # paused
    hall.resume_event(event.id)
    hall.set_clock(event.id, schedule=None)
    assert hall.roll_when_due(now=far) == []  # no schedule
    hall.set_clock(event.id, schedule=[[1, 30]])
    assert hall.roll_when_due(now=far) == [event.id]


def test_clock_auto_roll_runs_in_the_timer_round(hall, monkeypatch):
    """The timer worker calls expire_choices every second (server.choice_timer; several
    processes: only the holder of the lease): the automatic roll is part of its round."""
    from companion.hall import hall_roll

    event = hall.create_event("Night")
    hall.set_clock(event.id, schedule=[[1, 10]], auto_roll=True)
    hall.hall_roll(event.id, [2, 3])
    hall.expire_choices()
    assert len(event.rolls) == 1
    later = deadline_of(hall, event) + 1
    monkeypatch.setattr(hall_roll, "time", SimpleNamespace(time=lambda: later,
                                                           monotonic=time.monotonic))
    hall.expire_choices()
    assert len(event.rolls) == 2


def test_clock_auto_roll_of_one_failing_event_leaves_the_others(hall, monkeypatch, caplog):
    good, bad = hall.create_event("Good"), hall.create_event("Bad")
    for event in (good, bad):
        hall.set_clock(event.id, schedule=[[1, 10]], auto_roll=True)
        hall.hall_roll(event.id, [2, 3])
    from companion.hall import hall_roll

    real = hall_roll.append_roll

    def failing(hall_, event, *args):
        if event.id == bad.id:
            raise RuntimeError("a bug")
        return real(hall_, event, *args)

    monkeypatch.setattr(hall_roll, "append_roll", failing)
    far = time.time() + 10_000
    assert hall.roll_when_due(now=far) == [good.id]
    assert hall.roll_when_due(now=far) == [good.id]
    assert caplog.text.count("the automatic roll of event") == 1  # logged once


# ---------------------------------------------------------------- the rules' say in a roll


def test_clock_follow_up_dice_entered_are_stored_with_the_roll(hall, rules):
    event = hall.create_event("Night")
    started(hall, event.id, "test-turns")
    answer = hall.hall_roll(event.id, [3, 4], follow_up=[2, 5])
    assert answer["follow_up"] == [2, 5]
    assert records(hall, event, "hall_rolled")[-1].data["follow_up"] == [2, 5]
    now = turn(hall, event)
    assert now["follow_up"] == [2, 5]
    assert now["rules"] == {"test-turns": {"seven": True, "follow_up": [2, 5]}}


def test_clock_follow_up_dice_are_drawn_when_missing_and_ignored_when_not_asked(hall, rules):
    event = hall.create_event("Night")
    started(hall, event.id, "test-turns")
    drawn = hall.hall_roll(event.id, [6, 1])["follow_up"]
    assert len(drawn) == 2 and all(1 <= d <= 6 for d in drawn)
    assert hall.hall_roll(event.id, [2, 2], follow_up=[1, 1])["follow_up"] == []
    assert "follow_up" not in records(hall, event, "hall_rolled")[-1].data


@pytest.mark.parametrize("follow_up", [[0, 3], [3, 7], [1.5, 2], ["2", 3], [True, 2], 3, [], [1] * 7])
def test_clock_follow_up_dice_outside_1_to_6_are_refused_naming_the_field(hall, rules, follow_up):
    event = hall.create_event("Night")
    started(hall, event.id, "test-turns")
    before = records(hall, event)
    error = refused("request/invalid", hall.hall_roll, event.id, [3, 4], follow_up=follow_up)
    assert "follow_up" in error.message
    assert records(hall, event) == before


def test_clock_follow_up_dice_of_the_wrong_count_are_refused(hall, rules):
    event = hall.create_event("Night")
    started(hall, event.id, "test-turns")
    before = records(hall, event)
    error = refused("request/invalid", hall.hall_roll, event.id, [3, 4], follow_up=[2])
    assert "follow_up" in error.message and "2" in error.message
    assert records(hall, event) == before and event.rolls == []


def test_clock_a_roll_after_which_the_rules_pause_is_paused_in_the_same_transaction(hall, rules):
    event = hall.create_event("Night")
    started(hall, event.id, "test-turns")
    hall.set_clock(event.id, schedule=[[1, 30]], auto_roll=True)
    answer = hall.hall_roll(event.id, [3, 4], follow_up=[1, 1])
    assert answer["paused"] is True
    rolled, pause = records(hall, event)[-2:]
    assert (rolled.kind, pause.kind, pause.data) == ("hall_rolled", "paused", {"after_roll": 1})
    assert rolled.at == pause.at  # one transaction
    now = turn(hall, event)
    assert now["paused"] is True and now["remaining_ms"] == 30_000
    assert hall.roll_when_due(now=time.time() + 10_000) == []  # the auto-roll waits
    hall.resume_event(event.id)
    assert hall.roll_when_due(now=time.time() + 10_000) == [event.id]


def test_clock_moves_and_staff_moves_get_the_events_latest_roll(hall, rules):
    event = hall.create_event("Night")
    table = started(hall, event.id, "test-turns")
    seat = table.seats[0].token
    assert hall.move(seat, "r0", {"kind": "dice_count", "count": 1})["ok"]
    assert rules["test-turns"].seen[-1] is None  # before the first roll
    hall.hall_roll(event.id, [3, 4], follow_up=[6, 5])
    assert hall.move(seat, "r1", {"kind": "dice_count", "count": 1})["ok"]
    assert rules["test-turns"].seen[-1] == HallTurn(1, (3, 4), (6, 5))

    coins = table.state.players[1].coins
    hall.staff_move(table.id, {"kind": "bonus", "seat": 1})
    assert table.state.players[1].coins == coins + 2
    assert table.moves[-1].author == "organizer"
    entry = table.moves[-1].facts[-1]
    assert "turn 1" in entry.reason


def test_clock_staff_move_refusals_change_nothing(hall, rules):
    event = hall.create_event("Night")
    table = started(hall, event.id, "test-turns")
    plain = started(hall, event.id, "machi-koro", name="Plain")
    before = (table.seq, plain.seq)
    refused("test/refused", hall.staff_move, table.id, {"kind": "what"})
    refused("rule/invalid", hall.staff_move, plain.id, {"kind": "bonus", "seat": 0})
    refused("table/unknown", hall.staff_move, "99", {"kind": "bonus", "seat": 0})
    waiting = hall.create_table(event.id, "Later", ["A", "B"], "test-turns")
    refused("table/not_started", hall.staff_move, waiting.id, {"kind": "bonus", "seat": 0})
    assert (table.seq, plain.seq) == before


def test_clock_a_roll_that_changes_no_table_still_publishes_the_event(hall, rules):
    event = hall.create_event("Night")
    table = started(hall, event.id, "test-quiet")
    seq = table.seq
    hall.heard.clear()
    answer = hall.hall_roll(event.id, [2, 3])
    assert answer["tables"] == [] and table.seq == seq
    # a hall roll: its tables' change is all in their journals (web/sockets.py may tell other
    # processes to catch them up rather than send them its messages)
    assert hall.heard == [Change(tables=[], events=[event.id], turns=[event.id], hall_roll=True)]
    assert turn(hall, event)["number"] == 1


# ---------------------------------------------------------------- the end and the game over


def test_clock_end_refuses_every_later_roll(hall, rules):
    event = hall.create_event("Night")
    table = started(hall, event.id, "test-turns")
    plain = started(hall, event.id, "machi-koro", name="Plain")
    hall.hall_roll(event.id, [2, 3])
    coins, plain_seq = table.state.players[0].coins, plain.seq
    hall.end_event(event.id)
    assert turn(hall, event)["ended"] is True and turn(hall, event)["deadline_ms"] is None
    # the tables of a game that follows the event's turn get the staff's `end` move
    assert table.state.players[0].coins == coins + 1 and table.moves[-1].author == "organizer"
    assert plain.seq == plain_seq
    before = records(hall, event)
    refused("event/ended", hall.hall_roll, event.id, [2, 3])
    refused("event/ended", hall.end_event, event.id)
    refused("event/ended", hall.pause_event, event.id)
    refused("event/ended", hall.undo_hall_roll, event.id)
    refused("event/ended", hall.set_clock, event.id, auto_roll=True)
    assert records(hall, event) == before
    assert hall.hall_view(event)["roll_undoable"] is False


def test_clock_the_game_over_stops_the_rolls(hall, rules):
    rules["test-turns"].over_from = 2
    event = hall.create_event("Night")
    table = started(hall, event.id, "test-turns")
    hall.hall_roll(event.id, [2, 3])
    hall.hall_roll(event.id, [2, 2])
    coins = table.state.players[0].coins
    hall.heard.clear()
    refused("event/over", hall.hall_roll, event.id, [5, 5])
    assert len(event.rolls) == 2 and event.over
    assert records(hall, event)[-1].kind == "game_over"
    assert table.state.players[0].coins == coins + 1  # the staff's end move, once
    assert hall.heard == [Change(tables=[table.id], events=[event.id], turns=[event.id])]
    before = records(hall, event)
    refused("event/over", hall.hall_roll, event.id, [5, 5])
    assert records(hall, event) == before and table.state.players[0].coins == coins + 1
    assert turn(hall, event)["over"] is True


def test_clock_the_auto_roll_marks_the_game_over_instead_of_rolling(hall, rules):
    rules["test-turns"].over_from = 1
    event = hall.create_event("Night")
    started(hall, event.id, "test-turns")
    hall.set_clock(event.id, schedule=[[1, 10]], auto_roll=True)
    hall.hall_roll(event.id, [2, 3])
    assert hall.roll_when_due(now=time.time() + 10_000) == []
    assert event.over and len(event.rolls) == 1
    assert hall.roll_when_due(now=time.time() + 10_000) == []


# ---------------------------------------------------------------- undo


def test_clock_undo_gives_the_turn_back_its_whole_time(hall):
    event = hall.create_event("Night")
    hall.set_clock(event.id, schedule=[[1, 60], [2, 90]])
    hall.hall_roll(event.id, [2, 3])
    hall.hall_roll(event.id, [4, 3])
    hall.undo_hall_roll(event.id)
    undone = records(hall, event, "roll_undone")[-1]
    now = turn(hall, event)
    assert now["number"] == 1 and now["dice"] == [2, 3] and now["seconds"] == 60
    assert now["deadline_ms"] == round((epoch(undone) + 60) * 1000)


# ---------------------------------------------------------------- a restart


def test_clock_a_restart_resumes_the_same_turn_with_the_same_deadline(hall_db, hall, rules):
    event = hall.create_event("Night")
    started(hall, event.id, "test-turns")
    hall.set_clock(event.id, schedule=[[1, 60], [2, 120]], auto_roll=True)
    hall.hall_roll(event.id, [2, 3])
    hall.hall_roll(event.id, [1, 3])
    time.sleep(0.02)
    hall.pause_event(event.id)
    time.sleep(0.02)
    hall.resume_event(event.id)
    running = hall.hall_view(event)
    with SqliteJournal(hall_db) as journal:
        again = HallService(journal)
        assert again.hall_view(again.event(event.id))["turn"] == running["turn"]
        assert again.hall_view(again.event(event.id))["event"] == running["event"]

    hall.pause_event(event.id)
    paused = hall.hall_view(event)["turn"]
    with SqliteJournal(hall_db) as journal:
        again = HallService(journal)
        assert again.hall_view(again.event(event.id))["turn"] == paused
        assert again.roll_when_due(now=time.time() + 10_000) == []  # still paused
        again.resume_event(event.id)
        assert again.roll_when_due(now=time.time() + 10_000) == [event.id]
        assert again.hall_view(again.event(event.id))["turn"]["number"] == 3


def test_clock_a_restart_keeps_the_end_and_the_game_over(hall_db, hall, rules):
    rules["test-turns"].over_from = 1
    event = hall.create_event("Night")
    started(hall, event.id, "test-turns")
    hall.hall_roll(event.id, [2, 3], follow_up=None)
    refused("event/over", hall.hall_roll, event.id)
    other = hall.create_event("Other")
    hall.end_event(other.id)
    with SqliteJournal(hall_db) as journal:
        again = HallService(journal)
        refused("event/over", again.hall_roll, event.id)
        refused("event/ended", again.hall_roll, other.id)


# ---------------------------------------------------------------- the hall view and the message


def test_clock_hall_view_has_the_clock_before_the_first_roll_and_the_games(hall, rules):
    event = hall.create_event("Night")
    a = started(hall, event.id, "test-chain", name="A")
    b = started(hall, event.id, "test-chain", name="B")
    started(hall, event.id, "machi-koro", name="Plain")
    hall.set_clock(event.id, schedule=[[1, 45]])
    view = hall.hall_view(event)
    assert view["turn"] is None
    assert {k: view["event"][k] for k in ("schedule", "auto_roll", "paused", "ended", "over")} == {
        "schedule": [[1, 45]], "auto_roll": False, "paused": False, "ended": False, "over": False}
    assert view["games"] == {
        "test-chain": {"turn": None,
                       "registered": {a.id: [1, 2], b.id: [3, 4]},
                       "neighbours": {a.id: ["", "B"], b.id: ["A", ""]}},
        "machi-koro": {}}
    hall.hall_roll(event.id, [1, 2])
    assert hall.hall_view(event)["games"]["test-chain"]["turn"] == 1


def test_clock_turn_message_is_the_hall_views_turn_encoded_once(hall, rules):
    event = hall.create_event("Night")
    started(hall, event.id, "test-turns")
    assert hall.turn_message(event.id) is None  # no roll yet
    hall.hall_roll(event.id, [3, 4], follow_up=[2, 2])
    message = hall.turn_message(event.id)
    assert {**message, "now_ms": None} == {**turn(hall, event), "now_ms": None}
    assert abs(message["now_ms"] - time.time() * 1000) < 60_000  # the server's clock as it sent
    assert message.json_text == compact_json(message)
    assert json.loads(message.json_text) == message


def test_clock_turn_message_only_for_events_that_use_the_turn(hall):
    """Machi Koro tables play alone: their phones get no `turn` message, until the organizer
    sets a schedule for the event's turns."""
    event = hall.create_event("Night")
    started(hall, event.id)
    hall.hall_roll(event.id, [3, 4])
    assert hall.turn_message(event.id) is None
    hall.set_clock(event.id, schedule=[[1, 60]])
    assert hall.turn_message(event.id)["seconds"] == 60


def test_clock_every_clock_change_publishes_the_events_turn(hall):
    event = hall.create_event("Night")
    hall.heard.clear()
    hall.set_clock(event.id, schedule=[[1, 60]])
    hall.hall_roll(event.id, [3, 4])
    hall.pause_event(event.id)
    hall.resume_event(event.id)
    hall.undo_hall_roll(event.id)
    hall.end_event(event.id)
    assert [c.turns for c in hall.heard] == [[event.id]] * 6


# ---------------------------------------------------------------- seating, registration, the chain


def test_seating_registration_numbers_from_a_first_column(hall, rules):
    event = hall.create_event("Night")
    tables = hall.seat_players(event.id, ["12, Avi", "3\tBen", " 7 ,  Cy", "40,Dana"], "test-chain")
    assert [[s.name for s in t.seats] for t in tables] == [["Avi", "Ben", "Cy", "Dana"]]
    assert tables[0].story().registered == (12, 3, 7, 40)


def test_seating_registration_is_the_lists_order_without_numbers(hall):
    event = hall.create_event("Night")
    first = hall.seat_players(event.id, ["A", "B", "C", "D"], table_size=2)
    more = hall.seat_players(event.id, ["E", "F"])
    assert [t.story().registered for t in first + more] == [(1, 2), (3, 4), (5, 6)]
    table = hall.create_table(event.id, "Hand", ["G", "H"])
    hall.add_player(table.id, "I")
    assert table.story().registered == (7, 8, 9)


@pytest.mark.parametrize("players, words", [
    (["1, A", "2, B", "1, C", "4, D"], ["line 3", "1", "line 1"]),
    (["1, A", "B", "3, C", "4, D"], ["line 2", "line 1"]),
])
def test_seating_bad_registration_numbers_are_refused_naming_the_line(hall, players, words):
    event = hall.create_event("Night")
    error = refused("request/invalid", hall.seat_players, event.id, players)
    assert all(word in error.message for word in words), error.message
    assert hall.tables_of(event) == []


def test_seating_a_chained_ruleset_seats_exactly_its_seats_and_chains_the_tables(hall, rules):
    event = hall.create_event("Night")
    names = [f"P{n}" for n in range(12)]
    tables = hall.seat_players(event.id, names, "test-chain", table_size=2)
    assert [len(t.seats) for t in tables] == [4, 4, 4]
    assert [t.story().neighbours for t in tables] == [
        ("", "Table 2"), ("Table 1", "Table 3"), ("Table 2", "")]
    refused("request/invalid", hall.seat_players, event.id, names[:6], "test-chain")
    assert len(hall.tables_of(event)) == 3


def test_seating_the_chain_follows_renames_and_new_tables(hall, rules):
    event = hall.create_event("Night")
    a, b = hall.seat_players(event.id, [f"P{n}" for n in range(8)], "test-chain")
    plain = hall.create_table(event.id, "Plain", ["X", "Y"])
    hall.heard.clear()
    c = hall.create_table(event.id, "C", ["Q", "R", "S", "T"], "test-chain")
    assert (b.neighbours, c.neighbours, plain.neighbours) == (("Table 1", "C"), ("Table 2", ""), ())
    assert set(hall.heard[-1].tables) == {c.id, b.id}  # B's view now shows C
    hall.heard.clear()
    hall.rename_table(b.id, "Middle")
    assert (a.neighbours, c.neighbours) == (("", "Middle"), ("Middle", ""))
    assert set(hall.heard[-1].tables) == {a.id, b.id, c.id}
    hall.set_status(b.id, "end")  # ended before it started: out of the chain
    assert (a.neighbours, c.neighbours) == (("", "C"), ("Table 1", ""))


def test_seating_a_restart_keeps_registration_and_the_chain(hall_db, hall, rules):
    event = hall.create_event("Night")
    hall.seat_players(event.id, ["5, A", "9, B", "1, C", "2, D", "3, E", "4, F", "6, G", "7, H"],
                      "test-chain")
    with SqliteJournal(hall_db) as journal:
        again = HallService(journal)
        stories = [t.story() for t in again.tables_of(again.event(event.id))]
        assert [s.registered for s in stories] == [(5, 9, 1, 2), (3, 4, 6, 7)]
        assert [s.neighbours for s in stories] == [("", "Table 2"), ("Table 1", "")]


# ---------------------------------------------------------------- the API and Socket.IO


def web_event(http, key, ruleset="test-turns", players=("Ann", "Ben", "Cy", "Dee")):
    """An event seated from a list at tables of `ruleset`, started: its id and its tables."""
    event = api(http, key, "post", "/api/events", {"name": "Night"}).get_json()
    seated = api(http, key, "post", f"/api/events/{event['id']}/seating",
                 {"players": list(players), "ruleset": ruleset, "table_size": 2}).get_json()
    for table in seated["tables"]:
        assert api(http, key, "post", f"/api/tables/{table['id']}/start").status_code == 200
    return event["id"], seated["tables"]


def phone(app, http, token):
    client = socketio.test_client(app, auth={"token": token}, flask_test_client=http)
    assert client.is_connected()
    return client


def turns(client):
    return [m["args"][0] for m in client.get_received() if m["name"] == "turn"]


def test_api_clock_pause_resume_end_and_their_refusals(app, http, key, rules):
    event_id, _ = web_event(http, key)
    path = f"/api/events/{event_id}"
    answer = api(http, key, "post", path + "/clock", {"schedule": [[1, 60], [11, 90]],
                                                      "auto_roll": True})
    assert answer.status_code == 200
    assert answer.get_json() == {"id": event_id, "schedule": [[1, 60], [11, 90]],
                                 "auto_roll": True, "paused": False, "ended": False,
                                 "over": False, "turn": None}
    bad = api(http, key, "post", path + "/clock", {"schedule": [[1, 60], [1, 90]]})
    assert bad.status_code == 400 and bad.get_json()["code"] == "rule/bad_schedule"
    assert bad.get_json()["message"].startswith("schedule[1][0]")
    assert api(http, key, "post", path + "/clock", {}).status_code == 400
    assert api(http, key, "post", path + "/pause").get_json()["code"] == "event/not_started"

    rolled = api(http, key, "post", path + "/roll", {"dice": [3, 4], "follow_up": [5, 6]})
    assert rolled.status_code == 200
    assert rolled.get_json()["follow_up"] == [5, 6] and rolled.get_json()["paused"] is True
    resumed = api(http, key, "post", path + "/resume").get_json()
    assert resumed["paused"] is False and resumed["turn"]["deadline_ms"] > 0
    assert resumed["turn"]["rules"] == {"test-turns": {"seven": True, "follow_up": [5, 6]}}
    assert api(http, key, "post", path + "/resume").status_code == 409
    assert api(http, key, "post", path + "/pause").get_json()["turn"]["remaining_ms"] > 0
    assert api(http, key, "post", path + "/pause").get_json()["code"] == "event/paused"
    assert api(http, key, "post", path + "/end").get_json()["ended"] is True
    again = api(http, key, "post", path + "/roll", {"dice": [1, 1]})
    assert again.status_code == 409 and again.get_json()["code"] == "event/ended"
    assert api(http, key, "post", "/api/events/99/pause").status_code == 404
    assert api(http, key, "post", path + "/pause", None, data="{").status_code == 400


def test_api_roll_follow_up_outside_1_to_6_is_a_400_naming_the_field(app, http, key, rules):
    event_id, _ = web_event(http, key)
    for follow_up in ([0, 2], [3, 9], "7"):
        answer = api(http, key, "post", f"/api/events/{event_id}/roll",
                     {"dice": [3, 4], "follow_up": follow_up})
        assert answer.status_code == 400, answer.get_json()
        assert answer.get_json()["code"] == "request/invalid"
        assert "follow_up" in answer.get_json()["message"]
    assert hall_service(app).event(event_id).rolls == []


def test_api_staff_move_is_the_organizers_and_refusals_are_4xx(app, http, key, rules):
    event_id, tables = web_event(http, key)
    table_id = tables[0]["id"]
    path = f"/api/tables/{table_id}/staff_move"
    answer = api(http, key, "post", path, {"move": {"kind": "bonus", "seat": 1}})
    assert answer.status_code == 200
    assert answer.get_json()["players"][1]["coins"] == 5
    assert hall_service(app).table(table_id).moves[-1].author == "organizer"
    refusal = api(http, key, "post", path, {"move": {"kind": "nothing"}})
    assert refusal.status_code == 409 and refusal.get_json()["code"] == "test/refused"
    assert api(http, key, "post", path, {}).status_code == 409  # no move: the rules refuse
    assert api(http, key, "post", path, "[1]").status_code == 400
    assert api(http, None, "post", path, {"move": {"kind": "bonus", "seat": 1}}).status_code == 401
    seat = tables[0]["seats"][0]["token"]
    as_seat = http.post(path, json={"move": {"kind": "bonus", "seat": 0}},
                        headers={"Authorization": f"Bearer {seat}"})
    assert as_seat.status_code == 401  # a seat's token is no organizer's key
    assert hall_service(app).table(table_id).state.players[0].coins == 3


def test_api_seating_with_registration_numbers(app, http, key, rules):
    event = api(http, key, "post", "/api/events", {"name": "Night"}).get_json()
    path = f"/api/events/{event['id']}/seating"
    answer = api(http, key, "post", path, {"players": ["12, Avi", "3\tBen"], "table_size": 2})
    assert answer.status_code == 201
    table = hall_service(app).table(answer.get_json()["tables"][0]["id"])
    assert [s.name for s in table.seats] == ["Avi", "Ben"] and table.registered == (12, 3)
    twice = api(http, key, "post", path, {"players": ["1, A", "1, B"]})
    assert twice.status_code == 400 and "line 2" in twice.get_json()["message"]


def test_socket_every_phone_of_the_event_gets_the_turn_encoded_once(app, http, key, rules,
                                                                   monkeypatch):
    """A roll that changes no table (its ruleset's hall_turn says []) still reaches every phone
    as one `turn` message, its JSON made once; the hall screen gets the turn in its view."""
    from companion.hall import views

    event_id, tables = web_event(http, key, "test-quiet")
    phones = [phone(app, http, seat["token"]) for table in tables for seat in table["seats"]]
    screen = socketio.test_client(app, auth={"hall": event_id}, flask_test_client=http)
    for client in (*phones, screen):
        client.get_received()
    made = []
    real = views.compact_json
    monkeypatch.setattr(views, "compact_json", lambda value: made.append(value) or real(value))

    api(http, key, "post", f"/api/events/{event_id}/roll", {"dice": [2, 2]})
    got = [turns(client) for client in phones]
    assert all(len(messages) == 1 for messages in got)
    assert all(messages[0] == got[0][0] for messages in got)
    assert got[0][0]["number"] == 1 and got[0][0]["dice"] == [2, 2]
    assert len(made) == 1  # no seat view changed; the turn was encoded once for four phones
    halls = [m["args"][0] for m in screen.get_received() if m["name"] == "hall"]
    assert {**halls[-1]["turn"], "now_ms": None} == {**got[0][0], "now_ms": None}

    api(http, key, "post", f"/api/events/{event_id}/pause")
    assert all(turns(client)[-1]["paused"] for client in phones)


def test_socket_a_phone_gets_the_turn_on_connect_and_only_its_events(app, http, key, rules):
    event_id, tables = web_event(http, key, "test-turns", players=("A", "B"))
    other_id, others = web_event(http, key, "test-turns", players=("C", "D"))
    api(http, key, "post", f"/api/events/{event_id}/roll", {"dice": [1, 2]})
    mine = phone(app, http, tables[0]["seats"][0]["token"])
    assert turns(mine)[-1]["number"] == 1  # on connect
    theirs = phone(app, http, others[0]["seats"][0]["token"])
    assert turns(theirs) == []  # no roll at that event yet
    api(http, key, "post", f"/api/events/{event_id}/roll", {"dice": [1, 3]})
    assert turns(mine)[-1]["number"] == 2 and turns(theirs) == []


def test_socket_machi_koro_phones_get_no_turn_message(app, http, key):
    event_id, tables = web_event(http, key, "machi-koro")
    client = phone(app, http, tables[0]["seats"][0]["token"])
    api(http, key, "post", f"/api/events/{event_id}/roll", {"dice": [1, 2]})
    assert turns(client) == []


def test_socket_a_reassigned_seat_gets_no_more_turns(app, http, key, rules):
    event_id, tables = web_event(http, key, "test-turns", players=("A", "B"))
    client = phone(app, http, tables[0]["seats"][0]["token"])
    api(http, key, "post", f"/api/tables/{tables[0]['id']}/reassign", {"seat": 0})
    client.get_received()
    api(http, key, "post", f"/api/events/{event_id}/roll", {"dice": [1, 2]})
    assert turns(client) == []


# ---------------------------------------------------------------- several processes, one journal


@pytest.fixture
def two_halls(postgres_server):
    """Two services on one PostgreSQL journal, as two processes of one hall."""
    dsn = postgres_server.create_store()
    a, b = HallService(open_journal(dsn)), HallService(open_journal(dsn))
    try:
        yield a, b
    finally:
        a.journal.close()
        b.journal.close()


def test_clock_two_processes_share_the_turn_and_the_timer_holder_rolls(two_halls):
    a, b = two_halls
    event = a.create_event("Night")
    board = a.seat_players(event.id, ["1, Avi", "2, Ben"], "catan-big")[0]
    a.set_status(board.id, "start")
    a.set_clock(event.id, schedule=[[1, 30]], auto_roll=True)
    a.hall_roll(event.id, [2, 3])
    b.sweep()  # the timer worker's round (server.choice_timer) before its rolls
    theirs = b.event(event.id)
    assert b.hall_view(theirs)["turn"] == a.hall_view(event)["turn"]

    # a claim on B is judged by the turn A rolled (the event caught up before the move)
    win = {"settlements": 5, "cities": 8, "foreign_start_settlements": 2, "vp_cards": 0,
           "largest_army": False, "longest_road": False}
    a.hall_roll(event.id, [1, 1])  # turn 2: the moon team's
    answer = b.move(board.seats[0].token, "c1", {"kind": "claim", "breakdown": win})
    assert answer["code"] == "rule/not_your_turn", answer

    a.pause_event(event.id)
    b.sweep()
    assert b.roll_when_due(now=time.time() + 10_000) == []  # paused on A: B's timer waits
    a.resume_event(event.id)
    b.sweep()
    assert b.roll_when_due(now=time.time() + 10_000) == [event.id]
    a.catch_up_event(event)
    assert len(event.rolls) == 3 and a.hall_view(event)["turn"] == b.hall_view(theirs)["turn"]
    b.end_event(event.id)
    refused("event/ended", a.hall_roll, event.id, [1, 2])
