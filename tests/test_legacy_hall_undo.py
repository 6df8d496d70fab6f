"""The undo of a series' table (review 8, finding 2): the winning move of a game whose register
line the series has written is not undone (`undo/recorded`, 409): the register is paper the
players have written on (RULES.md 15), so the table and the register stay as they are. A win not
recorded yet (its report failed) is undone as any move, and recorded when it is won again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_legacy_hall import Phones, api_campaign, new_series, rolled

from companion.hall import HallError, HallService
from companion.hall import series as hs


def won_game(hall: HallService, winner: int = 0) -> tuple[hs.Series, Any]:
    series = rolled(hall, new_series(hall, hall.create_event("Home").id), [[6, 6], [1, 2], [3, 3]])
    series, table = hs.next_game(hall, series.id, {})
    Phones(hall, table.id).win(winner)
    return series, table


def register(hall: HallService, series: hs.Series) -> list[dict[str, Any]]:
    return list(hs.view(hall, hs.series_of(hall, series.id))["state"]["register"])


def test_undo_of_a_recorded_win_is_refused(hall: HallService) -> None:
    series, table = won_game(hall)
    lines, seq, state = register(hall, series), table.seq, table.state
    assert [line["winner"] for line in lines] == [0]
    series_seq = series.seq
    with pytest.raises(HallError) as refused:
        hall.undo(table.id)
    assert refused.value.code == "undo/recorded"
    assert "game 1" in refused.value.message and "register" in refused.value.message
    assert register(hall, series) == lines and series.seq == series_seq
    assert table.seq == seq and table.state is state and table.state.table.winner == 0
    assert [r.kind for r in hall.journal.read(table.stream)].count("reverted") == 0


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
    before = client.get(base, headers=headers).get_json()
    answer = client.post(f"/api/tables/{table['id']}/undo", headers=headers)
    assert answer.status_code == 409 and answer.get_json()["code"] == "undo/recorded"
    assert client.get(base, headers=headers).get_json() == before
    assert hall.table(table["id"]).state.table.winner == 0
