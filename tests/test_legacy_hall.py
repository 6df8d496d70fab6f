"""A Legacy campaign as the hall's series (hall/series.py, docs/api.md "Series"): created in an
event, the organizer's commands journalled (the hall rolls the first start player's dice, today
is the register's date), refusals that change nothing, the next game's table made and started
from the campaign (its frozen catalog, its start player), a won table recorded in the register
once (also after a restart that came between the win and its record), several campaigns side
by side, and the API's answers."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_legacy_builders import GROUP, catalog_raw

from companion.hall import HallError, HallService
from companion.hall import series as hs
from companion.journal import open_journal
from companion.web import create_app


def quick_catalog() -> dict[str, Any]:
    """The test catalog with free landmarks and community landmarks: a game is won in four
    turns of its first player (three builds and the contribution)."""
    raw = catalog_raw()
    for landmark in (*raw["landmarks"], *raw["community"]):
        landmark["cost"] = 0
    return raw


def hall_on(path: Path) -> HallService:
    return HallService(open_journal(path))


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[HallService]:
    service = hall_on(tmp_path / "home.db")
    yield service
    service.journal.close()


def new_series(hall: HallService, event_id: str, name: str = "Our island") -> hs.Series:
    return hs.create(hall, event_id, {"ruleset": "legacy", "name": name,
                                      "mayors": copy.deepcopy(GROUP), "catalog": quick_catalog()})


def rolled(hall: HallService, series: hs.Series, dice: list[list[int]] | None = None) -> hs.Series:
    """The first start player rolled: `dice` entered, else the hall's until one is highest."""
    if dice is not None:
        return hs.command(hall, series.id, {"command": "roll_for_start", "dice": dice})
    while series.state.start_roll.winner is None:
        series = hs.command(hall, series.id, {"command": "roll_for_start"})
    return series


class Phones:
    def __init__(self, hall: HallService, table_id: str) -> None:
        self.hall, self.table = hall, hall.table(table_id)
        self.tokens = [seat.token for seat in self.table.seats]
        self.sent = 0

    def move(self, seat: int, wire: dict[str, Any]) -> None:
        self.sent += 1
        answer = self.hall.move(self.tokens[seat], f"m{self.table.id}-{self.sent}", wire)
        assert answer["ok"], (seat, wire, answer)

    def win(self, winner: int) -> None:
        """The table played until `winner` built its three landmarks and contributed; the
        others roll and pass."""
        seats = len(self.tokens)
        actions = [{"kind": "build", "card": card} for card in self.table.state.setup.landmarks[winner]]
        actions.append({"kind": "contribute"})
        while actions:
            seat = self.table.state.table.active
            self.move(seat, {"kind": "roll"})
            if self.table.state.table.phase.name != "BUILD":  # a choice to answer: not in this catalog
                raise AssertionError(self.table.state.table.phase)
            if seat == winner:
                self.move(seat, actions.pop(0))
                if not actions:
                    break
            self.move(seat, {"kind": "end_turn"})
            assert seats


def finish_checklist(hall: HallService, series: hs.Series, number: int) -> hs.Series:
    for step in range(2, 9):
        series = hs.command(hall, series.id, {"command": "tick_step", "number": number, "step": step})
    return series


def journal_of(hall: HallService, series: hs.Series) -> list[tuple[str, dict[str, Any]]]:
    return [(r.kind, r.data) for r in hall.journal.read(series.stream)]


def test_a_campaign_is_created_rolled_and_its_first_game_started(hall: HallService) -> None:
    event = hall.create_event("Home")
    series = new_series(hall, event.id)
    assert [kind for kind, _ in journal_of(hall, series)] == ["series_created", "LegacyCampaignCreated"]
    series = rolled(hall, series, [[6, 6], [1, 2], [3, 3]])
    assert series.state.start_roll.winner == 0
    series, table = hs.next_game(hall, series.id, {})
    assert table.status == "running" and table.ruleset == "legacy"
    assert [seat.name for seat in table.seats] == [m["name"] for m in GROUP]
    assert table.options["first"] == 0 and table.state.table.active == 0
    assert table.options["catalog"]["landmarks"][0]["cost"] == 0, "the frozen catalog"
    assert table.id in hall.events[event.id].tables
    assert series.tables == {1: table.id}
    view = hs.view(hall, series)
    assert view["tables"] == {"1": table.id} and view["state"]["games"][0]["first"] == 0
    assert view["name"] == "Our island"
    sheet = series.rules.series_sheet(series.state)
    assert sheet is not None and [part.heading for part in sheet.parts] == ["legacy_group", "legacy_register"]
    assert [s.id for s in hs.of_event(hall, event.id)] == [series.id]


def test_the_hall_rolls_when_no_dice_are_sent(hall: HallService) -> None:
    series = new_series(hall, hall.create_event("Home").id)
    series = hs.command(hall, series.id, {"command": "roll_for_start"})
    [[first, second, third]] = hs.view(hall, series)["state"]["start_roll"]["rounds"]
    assert all(1 <= d <= 6 for pair in (first, second, third) for d in pair)
    rolled_fact = journal_of(hall, series)[-1]
    assert rolled_fact[0] == "LegacyStartRolled" and rolled_fact[1]["first"][0] == first[0]


@pytest.mark.parametrize(("wire", "code", "field"), [
    ({"command": "set_picks", "seat": 7, "picks": 2}, "legacy/bad_group", "seat"),
    ({"command": "roll_for_start", "dice": [[1, 7], [1, 1], [2, 2]]}, "legacy/roll_off", "dice[0]"),
    ({"command": "record_game", "number": 1, "winner": 0}, "legacy/bad_result", "number"),
    ({"command": "add_entry", "kind": "landmarks", "entry": {"id": "x"}}, "rule/bad_catalog", "landmarks"),
    ({"command": "start_game"}, "move/invalid", "command"),
    ({"command": "fly"}, "move/invalid", "command"),
    ({"command": "set_status", "card": "smithy", "status": "archive", "x": 1}, "move/invalid", "x"),
])
def test_refused_commands_change_nothing(hall: HallService, wire: dict[str, Any], code: str,
                                         field: str) -> None:
    series = new_series(hall, hall.create_event("Home").id)
    before, seq = journal_of(hall, series), series.seq
    with pytest.raises(HallError) as refused:
        hs.command(hall, series.id, wire)
    assert refused.value.code == code
    assert refused.value.message.startswith(field), refused.value.message
    assert journal_of(hall, series) == before and series.seq == seq


def test_refusals_of_creation_and_the_next_game(hall: HallService) -> None:
    event = hall.create_event("Home")
    bad = copy.deepcopy(GROUP)
    bad[1]["colour"] = "red"
    for wire, code in (({"ruleset": "legacy", "name": "X", "mayors": bad}, "legacy/bad_group"),
                       ({"ruleset": "machi-koro", "name": "X", "mayors": GROUP}, "series/no_series"),
                       ({"ruleset": "legacy", "name": "X", "mayors": GROUP, "when": 1}, "move/invalid")):
        with pytest.raises(HallError) as refused:
            hs.create(hall, event.id, wire)
        assert refused.value.code == code
    assert hall.series == {} and not [s for s in hall.journal.streams() if s.startswith("series:")]
    with pytest.raises(HallError) as unknown:
        hs.create(hall, "99", {"ruleset": "legacy", "name": "X", "mayors": GROUP})
    assert unknown.value.code == "event/unknown"
    series = new_series(hall, event.id)
    tables = len(hall.tables)
    with pytest.raises(HallError) as early:
        hs.next_game(hall, series.id, {})
    assert early.value.code == "legacy/not_ready"
    series = rolled(hall, series, [[6, 6], [1, 1], [1, 1]])
    with pytest.raises(HallError) as reserve:
        hs.next_game(hall, series.id, {"community": "nope"})
    assert reserve.value.code in ("legacy/bad_setup", "rule/bad_catalog")
    assert reserve.value.message.startswith("community")
    assert len(hall.tables) == tables and series.tables == {}
    with pytest.raises(HallError) as missing:
        hs.series_of(hall, "42")
    assert missing.value.code == "series/unknown"


def test_a_won_table_is_recorded_once_and_the_next_game_starts_with_its_winner(
        hall: HallService, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hs, "today", lambda: "2026-11-24")
    series = rolled(hall, new_series(hall, hall.create_event("Home").id), [[1, 1], [6, 6], [1, 2]])
    series, table = hs.next_game(hall, series.id, {})
    assert table.state.table.active == 1
    Phones(hall, table.id).win(2)
    register = hs.view(hall, series)["state"]["register"]
    assert register == [{"game": 1, "date": "2026-11-24", "winner": 2, "name": "Toon",
                         "city": "Bergen"}]
    assert hs.report(hall, [table.id]) == [], "a second report records nothing"
    kinds = [kind for kind, _ in journal_of(hall, series)]
    assert kinds.count("LegacyGameRecorded") == 1
    series = finish_checklist(hall, series, 1)
    series = hs.command(hall, series.id, {"command": "add_entry", "kind": "establishments", "entry": {
        "id": "orchard", "names": {"en": "Orchard", "he": "Orchard (he)", "nl": "Boomgaard"},
        "colour": "blue", "activation": [10], "cost": 3, "label": "wheat",
        "effect": {"kind": "income", "amount": 3}, "copies": 6}})
    series, second = hs.next_game(hall, series.id, {})
    assert second.options["first"] == 2 and second.state.table.active == 2
    assert any(e["id"] == "orchard" for e in second.options["catalog"]["establishments"])
    assert not any(e["id"] == "orchard" for e in table.options["catalog"]["establishments"])
    assert series.tables == {1: table.id, 2: second.id}


def test_a_win_not_recorded_before_a_stop_is_recorded_once_at_the_start(tmp_path: Path) -> None:
    hall = hall_on(tmp_path / "home.db")
    series = rolled(hall, new_series(hall, hall.create_event("Home").id), [[6, 6], [1, 1], [1, 2]])
    series, table = hs.next_game(hall, series.id, {})
    index, hall.series_tables = hall.series_tables, {}  # the stop came between win and record
    Phones(hall, table.id).win(0)
    hall.series_tables = index
    assert hs.view(hall, series)["state"]["register"] == []
    hall.journal.close()
    for _ in range(2):
        again = hall_on(tmp_path / "home.db")
        found = hs.series_of(again, series.id)
        assert [line["winner"] for line in hs.view(again, found)["state"]["register"]] == [0]
        assert [k for k, _ in journal_of(again, found)].count("LegacyGameRecorded") == 1
        again.journal.close()


def test_a_campaign_replays_the_same_after_a_restart(tmp_path: Path) -> None:
    hall = hall_on(tmp_path / "home.db")
    event = hall.create_event("Home")
    series = rolled(hall, new_series(hall, event.id))
    other = rolled(hall, new_series(hall, event.id, "Their island"), [[1, 1], [1, 1], [2, 1]])
    series, table = hs.next_game(hall, series.id, {})
    other, other_table = hs.next_game(hall, other.id, {})
    Phones(hall, table.id).win(1)
    views = {s.id: hs.view(hall, s) for s in (series, other)}
    assert views[other.id]["state"]["register"] == [] and other.state.games[0].setup.first == 2
    hall.journal.close()
    again = hall_on(tmp_path / "home.db")
    assert {s.id: hs.view(again, s) for s in hs.of_event(again, event.id)} == views
    assert again.series_tables == {table.id: (series.id, 1), other_table.id: (other.id, 1)}
    again.journal.close()


def api_campaign(tmp_path: Path) -> tuple[Any, dict[str, str], dict[str, Any], Any]:
    """The web app on its own SQLite file, an event and a campaign created by the organizer's
    API: (the test client, the organizer's headers, the event, the creation's answer)."""
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "api.db")})
    client = app.test_client()
    headers = {"Authorization": f"Bearer {app.extensions['hall'].organizer_key}"}
    event = client.post("/api/events", json={"name": "Home"}, headers=headers).get_json()
    body = {"ruleset": "legacy", "name": "Our island", "mayors": GROUP, "catalog": quick_catalog()}
    created = client.post(f"/api/events/{event['id']}/series", json=body, headers=headers)
    return client, headers, event, created


def test_the_api(tmp_path: Path) -> None:
    client, headers, event, created = api_campaign(tmp_path)
    assert created.status_code == 201
    series = created.get_json()
    assert series["ruleset"] == "legacy" and series["state"]["name"] == "Our island"
    base = f"/api/series/{series['id']}"
    refused = client.post(f"{base}/next", json={}, headers=headers)
    assert refused.status_code == 409 and refused.get_json()["code"] == "legacy/not_ready"
    bad = client.post(f"{base}/commands", json={"command": "set_picks", "seat": 9, "picks": 1},
                      headers=headers)
    assert bad.status_code == 400 and bad.get_json()["code"] == "legacy/bad_group"
    assert client.post(f"{base}/commands", json={"command": "roll_for_start",
                                                 "dice": [[6, 6], [1, 1], [1, 1]]},
                       headers=headers).status_code == 200
    started = client.post(f"{base}/next", json={}, headers=headers)
    assert started.status_code == 201
    answer = started.get_json()
    assert answer["table"]["ruleset"] == "legacy" and answer["table"]["status"] == "running"
    assert [seat["name"] for seat in answer["table"]["seats"]] == [m["name"] for m in GROUP]
    assert answer["series"]["tables"] == {"1": answer["table"]["id"]}
    listed = client.get(f"/api/events/{event['id']}/series", headers=headers).get_json()
    assert [s["id"] for s in listed["series"]] == [series["id"]]
    assert client.get(base, headers=headers).get_json() == answer["series"]
    assert client.get("/api/series/77", headers=headers).status_code == 404
    assert client.get(base).status_code == 401
    client.application.extensions["hall"].journal.close()


def test_two_processes_on_one_journal_see_each_others_campaigns(tmp_path: Path) -> None:
    """Several processes (a shared journal): a campaign another process created is found, its
    commands are caught up before deciding, and a stale append is decided again."""
    one = HallService(open_journal(tmp_path / "shared.db"), shared=True)
    two = HallService(open_journal(tmp_path / "shared.db"), shared=True)
    event = one.create_event("Home")
    series = new_series(one, event.id)
    seen = hs.series_of(two, series.id)
    hs.command(two, seen.id, {"command": "set_picks", "seat": 0, "picks": 1})
    series = hs.command(one, series.id, {"command": "set_picks", "seat": 1, "picks": 1})
    assert [m.picks for m in series.state.mayors] == [1, 1, 2]
    series = rolled(one, series, [[6, 6], [1, 1], [1, 1]])
    _, table = hs.next_game(two, series.id, {})
    assert hs.series_of(one, series.id).tables == {1: table.id}
    assert one.table(table.id).status == "running"
    one.journal.close()
    two.journal.close()
