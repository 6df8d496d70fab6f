"""A campaign on several processes (review 8, finding 4), on SQLite and PostgreSQL: a process
that loaded before the campaign, or before its next game's table, was made still records a win
it commits in the register, once; two processes that report the same win write one line (the append's expected
seq refuses the second); and the undo of a recorded win, on a process that did not know the
table was a game of a series, withdraws the line with it (the win again records it once), or is
refused once the next game has started from that win."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_legacy_hall import Phones, new_series, rolled

from companion.hall import HallError, HallService
from companion.hall import series as hs
from companion.journal import SqliteJournal, open_journal


@pytest.fixture(params=["sqlite", "postgres"])
def two(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[HallService, HallService]]:
    """Two processes on one journal (a SQLite file, or PostgreSQL where a report and an undo
    hold their streams), both started before anything was made."""
    if request.param == "postgres":
        where: str | Path = request.getfixturevalue("postgres_server").create_store()
    else:
        where = tmp_path / "shared.db"
    one = HallService(open_journal(where), shared=True)
    other = HallService(open_journal(where), shared=True)
    yield one, other
    one.journal.close()
    other.journal.close()


def lines(hall: HallService, series_id: str) -> list[Any]:
    return [line["winner"] for line in
            hs.view(hall, hs.series_of(hall, series_id))["state"]["register"]]


def withdrawn(hall: HallService, series_id: str) -> list[Any]:
    return [line["winner"] for line in
            hs.view(hall, hs.series_of(hall, series_id))["state"]["withdrawn"]]


def recorded(hall: HallService, series_id: str) -> int:
    return [r.kind for r in hall.journal.read(f"series:{series_id}")].count("LegacyGameRecorded")


def started(hall: HallService) -> tuple[hs.Series, Any]:
    series = rolled(hall, new_series(hall, hall.create_event("Home").id), [[6, 6], [1, 2], [3, 3]])
    return hs.next_game(hall, series.id, {})


def test_processes_a_win_on_a_process_that_never_saw_the_campaign(
        two: tuple[HallService, HallService]) -> None:
    one, other = two
    series, table = started(one)
    Phones(other, table.id).win(0)  # the phones are served by the other process
    assert other.series_tables == {table.id: (series.id, 1)}
    assert lines(other, series.id) == [0] and lines(one, series.id) == [0]
    assert recorded(one, series.id) == 1
    assert hs.report(one, [table.id]) == [] and hs.report(other, [table.id]) == []
    assert recorded(one, series.id) == 1


def test_processes_a_win_on_a_process_that_knew_the_campaign_but_not_its_game(
        two: tuple[HallService, HallService]) -> None:
    one, other = two
    series = rolled(one, new_series(one, one.create_event("Home").id), [[6, 6], [1, 2], [3, 3]])
    assert hs.series_of(other, series.id).tables == {}
    series, table = hs.next_game(one, series.id, {})
    Phones(other, table.id).win(1)
    assert lines(other, series.id) == [1] and lines(one, series.id) == [1]
    assert recorded(other, series.id) == 1


def test_processes_two_reports_of_one_win_write_one_line(
        two: tuple[HallService, HallService], monkeypatch: pytest.MonkeyPatch) -> None:
    """The other process reports the win between the first one's look and its append: on
    SQLite the first one's append is stale, decided again and finds the line; on PostgreSQL
    the first one holds the streams, so the other's report waits and finds the line."""
    one, other = two
    series, table = started(one)
    with monkeypatch.context() as later:  # the first process has not reported its win yet
        later.setattr(one, "_report_to_series", lambda change: None)
        Phones(one, table.id).win(0)
    append = one.journal.append
    raced: list[list[str]] = []
    waiting: list[threading.Thread] = []

    def after_the_other(stream: str, expected: int, records: Any, **more: Any) -> Any:
        if stream == series.stream and not raced and not waiting:
            if isinstance(one.journal, SqliteJournal):
                raced.append(hs.report(other, [table.id]))
            else:
                waiting.append(threading.Thread(
                    target=lambda: raced.append(hs.report(other, [table.id]))))
                waiting[0].start()
                time.sleep(0.3)  # it waits for the streams this report holds
        return append(stream, expected, records, **more)

    monkeypatch.setattr(one.journal, "append", after_the_other)
    first = hs.report(one, [table.id])
    for thread in waiting:
        thread.join(20)
    if waiting:
        assert first == [series.id] and raced == [[]]
    else:
        assert first == [] and raced == [[series.id]], "the stale append decided again"
    assert recorded(one, series.id) == 1 and lines(one, series.id) == [0] == lines(other, series.id)


def test_processes_undo_of_a_recorded_win_on_a_process_that_never_saw_the_campaign(
        two: tuple[HallService, HallService]) -> None:
    one, other = two
    series, table = started(one)
    phones = Phones(one, table.id)
    phones.win(2)
    assert other.series == {}
    other.undo(table.id)  # the reversal and the withdrawal of the line, in one transaction
    assert other.series_tables == {table.id: (series.id, 1)}
    assert lines(other, series.id) == [] and lines(one, series.id) == []
    assert one.catch_up(table).state.table.winner is None
    assert withdrawn(one, series.id) == [2] == withdrawn(other, series.id)
    assert [r.kind for r in one.journal.read(table.stream)].count("reverted") == 1
    phones.move(2, {"kind": "contribute"})  # won again, on the first process
    assert lines(one, series.id) == [2] == lines(other, series.id)
    assert recorded(one, series.id) == 2 and withdrawn(other, series.id) == [2]
    assert hs.report(other, [table.id]) == [] and recorded(one, series.id) == 2


def test_processes_undo_of_a_recorded_win_after_the_next_game_started_is_refused(
        two: tuple[HallService, HallService]) -> None:
    one, other = two
    series, table = started(one)
    Phones(one, table.id).win(2)
    for step in range(2, 9):
        hs.command(one, series.id, {"command": "tick_step", "number": 1, "step": step})
    hs.next_game(one, series.id, {})
    with pytest.raises(HallError) as refused:
        other.undo(table.id)
    assert refused.value.code == "undo/recorded" and "game 2 has started" in refused.value.message
    assert lines(one, series.id) == [2] and one.catch_up(table).state.table.winner == 2
    assert "reverted" not in [r.kind for r in one.journal.read(table.stream)]
    assert withdrawn(one, series.id) == []


def test_processes_undo_of_a_game_going_on_on_a_process_that_never_saw_the_campaign(
        two: tuple[HallService, HallService]) -> None:
    one, other = two
    series, table = started(one)
    Phones(one, table.id).move(0, {"kind": "roll"})
    assert other.undo(table.id).state.table.phase.name == "ROLL"
    assert one.catch_up(table).state.table.phase.name == "ROLL"
    assert other.series_tables == {table.id: (series.id, 1)}
