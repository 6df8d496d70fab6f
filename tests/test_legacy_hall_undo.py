"""The undo of a series' table (review 8, finding 2; review 9, finding 3): the undo of the winning
move of a game whose register line the series has written withdraws that line in the same
transaction (`LegacyGameWithdrawn`: the players cross it out, RULES.md 15), and the game is
recorded again when it is won again; once the next game has started from its winner, the undo
is refused (`undo/recorded`, 409) and the table and the register stay as they are. A win not
recorded yet (its report failed) is undone as any move, and recorded when it is won again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_legacy_hall import Phones, api_campaign, finish_checklist, new_series, rolled

from companion.hall import HallError, HallService
from companion.hall import series as hs
from companion.hall.model import Change
from companion.hall.series_model import load as load_series
from companion.journal import StaleSequence


def won_game(hall: HallService, winner: int = 0) -> tuple[hs.Series, Any, Phones]:
    series = rolled(hall, new_series(hall, hall.create_event("Home").id), [[6, 6], [1, 2], [3, 3]])
    series, table = hs.next_game(hall, series.id, {})
    phones = Phones(hall, table.id)
    phones.win(winner)
    return series, table, phones


def state_of(hall: HallService, series: hs.Series) -> dict[str, Any]:
    state: dict[str, Any] = hs.view(hall, hs.series_of(hall, series.id))["state"]
    return state


def register(hall: HallService, series: hs.Series) -> list[dict[str, Any]]:
    return list(state_of(hall, series)["register"])


def kinds(hall: HallService, stream: str) -> list[str]:
    return [r.kind for r in hall.journal.read(stream)]


def test_undo_of_a_recorded_win_withdraws_the_line_and_the_win_again_records_it_once(
        hall: HallService, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hs, "today", lambda: "2026-11-24")
    series, table, phones = won_game(hall)
    [line] = register(hall, series)
    assert line["winner"] == 0
    changes: list[Change] = []
    hall.listeners.append(changes.append)
    hall.undo(table.id)
    assert table.state.table.winner is None and table.status == "running"
    assert kinds(hall, table.stream).count("reverted") == 1
    assert kinds(hall, series.stream)[-1] == "LegacyGameWithdrawn"
    assert series.seq == hall.journal.last_seq(series.stream), "memory follows the commit"
    state = state_of(hall, series)
    assert state["register"] == [] and state["withdrawn"] == [line]
    assert state["games"][0]["register"] is None and state["checklist"] is None
    assert any(series.id in change.series for change in changes), "the console is told"
    assert load_series(hall.journal)[series.id].state == series.state, "a restart replays the same"
    assert hs.report_all(hall) == [], "a table not won has nothing to record"
    phones.move(0, {"kind": "contribute"})  # won again
    state = state_of(hall, series)
    assert [again["winner"] for again in state["register"]] == [0] and state["withdrawn"] == [line]
    assert kinds(hall, series.stream).count("LegacyGameRecorded") == 2
    assert hs.report(hall, [table.id]) == [] and hs.report_all(hall) == []
    assert kinds(hall, series.stream).count("LegacyGameRecorded") == 2


def test_undo_of_a_recorded_win_after_the_next_game_started_is_refused(hall: HallService) -> None:
    series, table, _ = won_game(hall)
    series = finish_checklist(hall, series, 1)
    series, second = hs.next_game(hall, series.id, {})
    lines, seq, state, series_seq = register(hall, series), table.seq, table.state, series.seq
    with pytest.raises(HallError) as refused:
        hall.undo(table.id)
    assert refused.value.code == "undo/recorded"
    message = refused.value.message
    assert "game 1" in message and "register" in message and "game 2 has started" in message
    assert register(hall, series) == lines and series.seq == series_seq
    assert state_of(hall, series)["withdrawn"] == []
    assert table.seq == seq and table.state is state and table.state.table.winner == 0
    assert kinds(hall, table.stream).count("reverted") == 0
    assert second.options["first"] == 0


def test_a_won_tables_line_is_not_withdrawn_by_hand(hall: HallService) -> None:
    """`withdraw_game` by hand would leave the table won and its line gone (a restart writes it
    again): only the undo of the winning move takes it back (`series/table_won`)."""
    series, table, _ = won_game(hall)
    before, seq = kinds(hall, series.stream), series.seq
    with pytest.raises(HallError) as refused:
        hs.command(hall, series.id, {"command": "withdraw_game", "number": 1})
    assert refused.value.code == "series/table_won" and refused.value.message.startswith("game 1")
    assert kinds(hall, series.stream) == before and series.seq == seq
    hall.undo(table.id)
    hs.command(hall, series.id, {"command": "record_game", "number": 1, "winner": 1})
    hs.command(hall, series.id, {"command": "withdraw_game", "number": 1})  # the table is not won
    assert register(hall, series) == [] and len(state_of(hall, series)["withdrawn"]) == 2


def test_undo_of_a_recorded_win_commits_with_its_withdrawal_or_not_at_all(
        hall: HallService) -> None:
    """The table's reversal and the series' withdrawal are one transaction: a series that moved
    on meanwhile (its append stale) leaves the table's journal as it was, and memory too."""
    series, table, _ = won_game(hall)
    hall.journal.append(series.stream, series.seq, [("LegacyPicksSet", {"seat": 0, "picks": 3})],
                        author="elsewhere")
    before, seq, state = kinds(hall, table.stream), table.seq, table.state
    with pytest.raises(StaleSequence):
        hall.undo(table.id)
    assert kinds(hall, table.stream) == before and table.seq == seq and table.state is state
    assert "LegacyGameWithdrawn" not in kinds(hall, series.stream)
    assert [line["winner"] for line in register(hall, series)] == [0]


def test_undo_before_the_win_and_of_a_win_not_recorded_yet(
        hall: HallService, monkeypatch: pytest.MonkeyPatch) -> None:
    series = rolled(hall, new_series(hall, hall.create_event("Home").id), [[6, 6], [1, 2], [3, 3]])
    series, table = hs.next_game(hall, series.id, {})
    phones = Phones(hall, table.id)
    phones.move(0, {"kind": "roll"})
    hall.undo(table.id)  # a game going on: any move is undone, as at any table
    assert table.state.table.phase.name == "ROLL"
    with monkeypatch.context() as failing:  # the report of the win fails
        failing.setattr(hs, "report", lambda hall, tables: [])
        phones.win(0)
    assert register(hall, series) == []
    hall.undo(table.id)  # nothing written in the register: the win is taken back
    assert table.state.table.winner is None and table.status == "running"
    assert "LegacyGameWithdrawn" not in kinds(hall, series.stream)
    phones.move(0, {"kind": "contribute"})
    assert [line["winner"] for line in register(hall, series)] == [0]


def test_undo_of_a_recorded_win_through_the_api(tmp_path: Path) -> None:
    client, headers, _, created = api_campaign(tmp_path)
    hall = client.application.extensions["hall"]
    series = created.get_json()
    base = f"/api/series/{series['id']}"
    client.post(f"{base}/commands", json={"command": "roll_for_start",
                                          "dice": [[6, 6], [1, 1], [1, 1]]}, headers=headers)
    table = client.post(f"{base}/next", json={}, headers=headers).get_json()["table"]
    Phones(hall, table["id"]).win(0)
    [line] = client.get(base, headers=headers).get_json()["state"]["register"]
    answer = client.post(f"/api/tables/{table['id']}/undo", headers=headers)
    assert answer.status_code == 200
    state = client.get(base, headers=headers).get_json()["state"]
    assert state["register"] == [] and state["withdrawn"] == [line]
    assert hall.table(table["id"]).state.table.winner is None
    # recorded again by hand (the game finished on paper), its steps done, game 2 started
    client.post(f"{base}/commands", json={"command": "record_game", "number": 1, "winner": 1},
                headers=headers)
    for step in range(2, 9):
        client.post(f"{base}/commands", json={"command": "tick_step", "number": 1, "step": step},
                    headers=headers)
    assert client.post(f"{base}/next", json={}, headers=headers).status_code == 201
    refused = client.post(f"{base}/commands", json={"command": "withdraw_game", "number": 1},
                          headers=headers)
    assert refused.status_code == 409 and refused.get_json()["code"] == "legacy/not_ready"
    hall.journal.close()  # Python 3.13 warns of a connection left open
