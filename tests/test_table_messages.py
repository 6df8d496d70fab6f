"""The `table` message (hall/frames.py, docs/api.md): a phone that applies it to the view it
holds has exactly the seat view the server builds from the journal, in random games of every
ruleset (machi-koro with its variants, the co-op game, Legacy, the big Catan event), with hall
rolls, own rolls, corrections and undos; a phone that missed a message sees the gap and asks
for its view (`sync`), and never applies a patch to a view it was not made from."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_legacy_builders import GROUP, catalog_raw

from companion.hall import HallError, HallService
from companion.hall import series as hall_series
from companion.hall.frames import (
    Frame,
    apply_patch,
    apply_table_message,
    diff,
    frame_of,
    table_message,
)
from companion.hall.replay import rebuild_table
from companion.hall.views import compact_json, seat_view
from companion.journal import SqliteJournal

KINDS = ("machi-koro", "variable_supply", "play_on", "machi-koro-coop", "legacy", "catan-big")
BREAKDOWN = ("settlements", "cities", "foreign_start_settlements", "vp_cards")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("table-messages")


def without_clock(view: dict[str, Any]) -> dict[str, Any]:
    """A view less `waited` (the seconds a choice has waited when the view is built)."""
    return {key: value for key, value in view.items() if key != "waited"}


def table_for(hall: HallService, kind: str, mode: str, rng: random.Random) -> str:
    event = hall.create_event("Night")
    if kind == "legacy":
        raw = catalog_raw()
        series = hall_series.create(hall, event.id, {"ruleset": "legacy", "name": "Isle",
                                                      "mayors": copy.deepcopy(GROUP), "catalog": raw})
        while series.state.start_roll.winner is None:
            series = hall_series.command(hall, series.id, {"command": "roll_for_start"})
        return hall_series.next_game(hall, series.id, {})[1].id
    options: dict[str, Any] = {}
    ruleset, players = kind, ["Ann", "Bo", "Cy", "Di"][:rng.randint(2, 4)]
    if kind in ("variable_supply", "play_on"):
        ruleset, options = "machi-koro", {kind: True}
    if kind == "machi-koro-coop":
        players = ["Ann", "Bo"]
    if kind == "catan-big":
        players, mode = ["Ann", "Bo"], "hall"
    table = hall.create_table(event.id, "T", players, ruleset, mode, options)
    hall.set_status(table.id, "start")
    return table.id


def catan_breakdown(rng: random.Random) -> dict[str, Any]:
    return {"settlements": rng.randint(0, 5), "cities": rng.randint(0, 10),
            "foreign_start_settlements": rng.randint(0, 5), "vp_cards": rng.randint(0, 5),
            "largest_army": rng.random() < 0.5, "longest_road": rng.random() < 0.5}


def act(hall: HallService, table_id: str, rng: random.Random, step: int) -> None:
    """One random action at the table: a seat's offered move (or a wild one), a hall roll, a
    correction, an undo, a pause and resume; refusals change nothing and are fine."""
    table = hall.tables[table_id]
    pick = rng.random()
    try:
        if pick < 0.1:
            hall.adjust(table_id, rng.randrange(len(table.seats)), rng.choice([-2, 3]), "test")
        elif pick < 0.15:
            hall.undo(table_id)
        elif pick < 0.18:
            hall.set_status(table_id, "pause")
            hall.set_status(table_id, "resume")
        elif table.roll_mode == "hall" and pick < 0.4:
            hall.hall_roll(table.event_id, [rng.randint(1, 6), rng.randint(1, 6)])
        else:
            seat = rng.randrange(len(table.seats))
            hall.move(table.seats[seat].token, f"r{step}", move_for(hall, table_id, seat, rng))
    except HallError:
        pass


def move_for(hall: HallService, table_id: str, seat: int, rng: random.Random) -> dict[str, Any]:
    table = hall.tables[table_id]
    if table.ruleset == "catan-big":
        kind = rng.choice(["track", "claim", "final"])
        move: dict[str, Any] = {"kind": kind, "breakdown": catan_breakdown(rng)}
        return move
    choices = seat_view(table, seat).get("choices") or [{"kind": "end_turn"}]
    return dict(rng.choice(choices))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(KINDS), mode=st.sampled_from(["hall", "own"]),
       seed=st.integers(0, 2**32 - 1))
def test_table_message_applied_is_the_seat_view_from_the_journal(folder, kind, mode, seed):
    rng = random.Random(seed)
    with SqliteJournal(folder / f"{seed}-{kind}-{mode}.db") as journal:
        hall = HallService(journal)
        table_id = table_for(hall, kind, mode, rng)
        table = hall.tables[table_id]
        seats = range(len(table.seats))
        sent: Frame = frame_of(table, 45)
        first = sent.seq
        phones = [sent.seat_view(seat) for seat in seats]  # the views on connect
        for step in range(40):
            act(hall, table_id, rng, step)
            frame = frame_of(hall.tables[table_id], 45)
            if frame.seq == sent.seq and frame == sent:
                continue
            message = json.loads(compact_json(table_message(table_id, sent, frame)))  # the wire
            sent = frame
            rebuilt = rebuild_table(journal.read(table.stream))
            assert rebuilt.seq == frame.seq
            for seat in seats:
                after = apply_table_message(phones[seat], message)
                assert after is not None, "a phone that had every message applies the next"
                assert without_clock(after) == without_clock(seat_view(rebuilt, seat, 45)), \
                    (kind, step, seat)
                phones[seat] = after
        assert sent.seq > first, "the game moved on"


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 2**32 - 1))
def test_table_message_a_missed_message_is_a_gap_never_a_wrong_view(folder, kind, seed):
    rng = random.Random(seed)
    with SqliteJournal(folder / f"gap-{seed}-{kind}.db") as journal:
        hall = HallService(journal)
        table_id = table_for(hall, kind, "own", rng)
        table = hall.tables[table_id]
        sent = frame_of(table, 45)
        phone = sent.seat_view(0)
        for step in range(40):
            act(hall, table_id, rng, step)
            frame = frame_of(hall.tables[table_id], 45)
            if frame == sent:
                continue
            message = json.loads(compact_json(table_message(table_id, sent, frame)))
            sent = frame
            if rng.random() < 0.3:
                continue  # lost on the way
            after = apply_table_message(phone, message)
            if after is None:  # the gap: the phone asks `sync`, the server sends its view
                assert message["base"] != phone["seq"]
                after = seat_view(hall.tables[table_id], 0, 45)
            assert without_clock(after) == without_clock(frame.seat_view(0))
            phone = after


def test_table_message_from_nothing_is_the_whole_frame(folder):
    with SqliteJournal(folder / "whole.db") as journal:
        hall = HallService(journal)
        table_id = table_for(hall, "machi-koro", "own", random.Random(1))
        frame = frame_of(hall.tables[table_id], 45)
        message = table_message(table_id, None, frame)
        assert message["base"] is None and message["seq"] == frame.seq
        stale = {**frame.seat_view(1), "seq": frame.seq - 5, "players": []}
        assert apply_table_message(stale, message) == frame.seat_view(1)
        later = {**frame.seat_view(1), "seq": frame.seq + 1}
        assert apply_table_message(later, message) is later, "an older whole frame is ignored"
        # one of the view's own seq applies: a change kept in memory alone (a board's
        # neighbours after a rename) sent whole by a process that had no frame to patch
        same = {**frame.seat_view(1), "players": []}
        assert apply_table_message(same, message) == frame.seat_view(1)
        patch = {**message, "base": frame.seq - 1}
        assert apply_table_message(same, patch) is same, "a patch from before its seq is old"



json_leaves = st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(["a", "b", ""])
json_values = st.recursive(
    json_leaves, lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["x", "y", "z"]), inner, max_size=3), max_leaves=12)
json_objects = st.dictionaries(st.sampled_from(["p", "q", "r", "s"]), json_values, max_size=4)


@given(old=json_objects, new=json_objects)
def test_a_patch_applied_to_a_shared_frame_makes_the_new_one_and_leaves_the_old(old, new):
    """What a process does with a message it hears (web/fanout.py `Frames.heard`): the patch
    applied to a shallow copy of the frame it keeps, copying only what the patch goes into,
    gives the new frame, and the kept frame (still another message's base) is not changed."""
    kept = copy.deepcopy(old)
    patch = json.loads(json.dumps(diff(old, new)))  # as it comes over Redis
    fresh = dict(old)
    apply_patch(fresh, patch, shared=True)
    assert fresh == new
    assert old == kept


def test_table_message_another_process_keeps_the_frames_it_hears(folder):
    """Two processes' fan-outs (web/fanout.py `Frames`): what one sends, the other hears and
    keeps as the base of its own next message for the table, so a phone on either process
    applies either's messages; a message it cannot place makes its next one whole."""
    from companion.web.fanout import Frames

    with SqliteJournal(folder / "heard.db") as journal:
        hall = HallService(journal)
        table_id = table_for(hall, "machi-koro", "own", random.Random(3))
        table = hall.tables[table_id]
        here, there = Frames(), Frames()
        sent: list[Any] = []

        def send(items: list[Any]) -> None:
            sent.extend(items)

        here.messages([(table, frame_of(table, 45))], None, send, full=True)
        there.heard(sent[-1][1].json_text)
        token = table.seats[0].token
        assert hall.move(token, "r", {"kind": "roll"})["ok"]
        here.messages([(table, frame_of(table, 45))], None, send)
        there.heard(sent[-1][1].json_text)
        assert there.frames[table_id] == here.frames[table_id]
        assert hall.move(token, "e", {"kind": "end_turn"})["ok"]
        items, _ = there.messages([(table, frame_of(table, 45))], None, send)
        message = json.loads(items[0][1].json_text)
        assert message["base"] == here.frames[table_id].seq, "a patch from the frame it heard"
        here.heard(json.dumps({**message, "base": 1}))  # a base it does not hold
        assert table_id not in here.frames, "its next message for the table goes whole"


def test_the_movers_phone_is_skipped_only_for_the_seq_its_answer_showed(folder):
    """A mover's answer carries its view (web/sockets.py `move`), so the table message of its
    move skips its connection; but a frame newer than that answer (another seat's move, an
    organizer's change, another process's move caught up before the copies were taken) holds
    a change the mover has not seen: that message must reach the mover too (review of issue
    24: the mover's phone missed another seat's move and waited for the next message)."""
    from companion.web.fanout import Frames

    with SqliteJournal(folder / "mover.db") as journal:
        hall = HallService(journal)
        changes: list[Any] = []
        hall.listeners[:] = [changes.append]
        table_id = table_for(hall, "machi-koro", "own", random.Random(4))
        table = hall.tables[table_id]
        frames = Frames()
        sent: list[Any] = []
        frames.messages([(table, frame_of(table, 45))], None, sent.extend, full=True)
        answer = hall.move(table.seats[0].token, "r", {"kind": "roll"}, view=True)
        assert answer["ok"]
        acked = changes[-1].acked
        assert acked == {table_id: answer["view"]["seq"]}, "the change says what the mover has"
        frames.messages([(table, frame_of(table, 45))], "mover", sent.extend, acked=acked)
        assert sent[-1][3] == "mover", "the mover's own seq: its answer said it all"
        hall.adjust(table_id, 1, 2, "a correction")  # a change after the mover's answer
        frames.messages([(table, frame_of(table, 45))], "mover", sent.extend, acked=acked)
        assert sent[-1][3] is None, "a newer frame goes to the mover's phone as well"


def test_a_rebuild_from_records_read_before_a_commit_does_not_roll_the_table_back(folder):
    """Several processes: a table whose memory cannot follow another process's records is
    rebuilt from its whole stream, read without a lock; a commit here after that read must not
    be undone by the rebuild (review of issue 24: a catch-up rolled a table back until its
    next commit healed it)."""
    with SqliteJournal(folder / "rebuild.db") as journal:
        hall = HallService(journal)
        table_id = table_for(hall, "machi-koro", "own", random.Random(5))
        table = hall.tables[table_id]
        read_before = journal.read(table.stream)
        assert hall.move(table.seats[0].token, "r", {"kind": "roll"})["ok"]
        moved_to = table.seq
        hall.rebuild(table, read_before)
        assert table.seq == moved_to, "the table keeps the commit made after the read"
        hall.rebuild(table, journal.read(table.stream))
        assert table.seq == moved_to and table.state == rebuild_table(
            journal.read(table.stream)).state, "a read that holds it all rebuilds"


@pytest.mark.parametrize("full", [False, True], ids=["patches", "whole frames (heal)"])
def test_a_hall_rolls_frames_go_out_a_part_at_a_time_in_order(folder, full):
    """Issue 24: a change of many tables (a hall roll) makes its frames YIELD_EVERY tables at a
    time from copies taken at once, and sends each part before the next part's frames are
    made, pausing between parts (the writers send, moves are answered); a change of one table
    (a move) does not pause. A move answered in a
    pause sends its table's newer frame; the roll's older frame of that table is then not sent
    after it. The mover's connection is skipped only at the table and seq its answer showed."""
    from companion.web import fanout
    from companion.web.fanout import YIELD_EVERY, Frames

    with SqliteJournal(folder / f"parts-{full}.db") as journal:
        hall = HallService(journal)
        event = hall.create_event("Night")
        ids = []
        for number in range(2 * YIELD_EVERY + 10):
            table = hall.create_table(event.id, f"T{number}", ["Ann", "Bo"], "machi-koro", "own", {})
            hall.set_status(table.id, "start")
            ids.append(table.id)
        moved = hall.tables[ids[40]]  # in the second part; the mover's table in the third
        events: list[Any] = []

        def send(items: list[Any]) -> None:
            events.append(("sent", [(room, skip) for _, _, room, skip in items]))

        def move_in_the_first_pause() -> None:
            events.append("pause")
            if events.count("pause") == 1:
                assert hall.move(moved.seats[0].token, "r", {"kind": "roll"})["ok"]
                frames.messages([(moved, frame_of(moved, 45))], None, send)

        frames = Frames(pause=move_in_the_first_pause)
        copies = hall.view_copies(ids)  # the roll's copies, taken before the move
        mover = {ids[50]: copies[50][0].seq}  # a mover whose answer showed table 50 as copied

        def taken() -> Any:
            for table, frame in fanout.build_frames(copies):
                events.append(("built", table.id))
                yield table, frame

        items, reseated = frames.messages(taken(), "mover", send, full=full, acked=mover)

        assert reseated == []
        kinds = [e if isinstance(e, str) else e[0] for e in events]
        # a part's first frame is made before the pause (whether there is a next part at all:
        # a one-table change, a move, answers without pausing), the rest after it
        rest = ["built"] * (YIELD_EVERY - 1)
        assert kinds == [*rest, "built", "sent", "built", "pause", "sent", *rest, "sent",
                         "built", "pause", *["built"] * 9, "sent"], kinds
        sent = [e[1] for e in events if not isinstance(e, str) and e[0] == "sent"]
        room = [f"table:{table_id}" for table_id in ids]
        assert sent[0] == [(r, None) for r in room[:YIELD_EVERY]]
        assert sent[1] == [(room[40], None)], "the move's newer frame, in the pause"
        assert sent[2] == [(r, None) for r in room[YIELD_EVERY:2 * YIELD_EVERY] if r != room[40]], \
            "the roll's older frame of table 40 is not sent after the move's"
        assert sent[3] == [(r, "mover" if r == room[50] else None) for r in room[2 * YIELD_EVERY:]]
        assert [item[2] for item in items] == [r for r in room if r != room[40]]
        assert frames.frames[ids[40]].seq == moved.seq, "the table's last frame is the move's"
        assert events.count("pause") == 2, "the move's own message did not pause"


def test_a_table_whose_frame_fails_is_left_out_and_the_others_still_go(folder, monkeypatch, caplog):
    """A frame that fails (a bug in a view) is logged with its table and left out of the
    fan-out: with frames made a part at a time, the other tables' messages still go, here and
    (in the one publish after the last part) to the other processes (review of issue 24)."""
    from companion.web import fanout

    with SqliteJournal(folder / "failing.db") as journal:
        hall = HallService(journal)
        event = hall.create_event("Night")
        ids = []
        for number in range(3):
            table = hall.create_table(event.id, f"T{number}", ["Ann", "Bo"], "machi-koro", "own", {})
            hall.set_status(table.id, "start")
            ids.append(table.id)
        made = fanout.frame_of

        def failing(table: Any, seconds: int) -> Frame:
            if table.id == ids[1]:
                raise RuntimeError("a view's bug")
            return made(table, seconds)

        monkeypatch.setattr(fanout, "frame_of", failing)
        sent: list[Any] = []
        items, _ = fanout.Frames().messages(fanout.build_frames(hall.view_copies(ids)), None,
                                            sent.extend)
    assert [item[2] for item in items] == [f"table:{ids[0]}", f"table:{ids[2]}"]
    assert sent == items
    assert f"the frame of table {ids[1]} failed" in caplog.text
