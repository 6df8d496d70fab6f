"""A Machi Koro Legacy campaign of three games on a served hall (`companion serve` in a
subprocess), its games played by real python-socketio phones: the campaign made through the
API, the first start player rolled by the hall, each game's table made and started from the
campaign and won (the register line written by the hall itself), cards added between games
(the next table plays them, the last one's frozen catalog does not), the server stopped and
killed on the way, and the campaign replayed from the journal the same as the server showed."""

from __future__ import annotations

import copy
import json
import threading
import time
from pathlib import Path
from typing import Any

import socketio
from serverproc import ServerProcess, http_json, organizer_key
from socket_phone import Phone
from test_legacy_builders import GROUP, catalog_raw, names

from companion.hall import HallService
from companion.hall import series as hall_series
from companion.journal import SqliteJournal


def quick_catalog() -> dict[str, Any]:
    """Free landmarks and community landmarks: a game is won in four turns of its first player."""
    raw = catalog_raw()
    for landmark in (*raw["landmarks"], *raw["community"]):
        landmark["cost"] = 0
    return raw


class Campaign:
    def __init__(self, server: ServerProcess, key: str, series_id: str) -> None:
        self.server, self.key, self.id = server, key, series_id

    def call(self, method: str, path: str, body: Any = None, status: int = 200) -> Any:
        got, answer = http_json(f"{self.server.url}{path}", method=method, body=body, key=self.key)
        assert got == status, (path, body, got, answer)
        return answer

    def view(self) -> dict[str, Any]:
        return dict(self.call("GET", f"/api/series/{self.id}"))

    def command(self, wire: dict[str, Any], status: int = 200) -> dict[str, Any]:
        return dict(self.call("POST", f"/api/series/{self.id}/commands", wire, status))


def play_to_a_win(phones: list[Phone], winner: int, landmarks: list[str], tag: str,
                  view: dict[str, Any], stop_after: int | None = None) -> tuple[dict[str, Any], int]:
    """Moves until `winner` built `landmarks` (those not built yet) and contributed; the others
    roll and pass. Stops early after `stop_after` moves (the server is to be killed then)."""
    sent = 0
    mine = view["players"][winner]
    todo: list[dict[str, Any]] = [{"kind": "build", "card": card} for card in landmarks
                                  if card not in mine.get("landmarks", [])]
    todo.append({"kind": "contribute"})
    while view["phase"] != "finished":
        if stop_after is not None and sent >= stop_after:
            return view, sent
        seat = view["active"]
        phone = phones[seat]
        sent += 1
        request = f"{tag}-{sent}"
        if view["phase"] == "roll":
            view = phone.move(request, {"kind": "roll"})
        elif view["phase"] == "reroll":
            view = phone.move(request, {"kind": "keep"})
        elif view["phase"] == "build" and seat == winner and todo and not view.get("acted"):
            move = todo[0]
            view = phone.move(request, move)
            todo.pop(0)
            if view["phase"] == "build":
                sent += 1
                view = phone.move(f"{tag}-{sent}", {"kind": "end_turn"})
        elif view["phase"] == "build":
            view = phone.move(request, {"kind": "end_turn"})
        else:
            raise AssertionError(view["phase"])
        assert sent < 200, "no win"
    return view, sent


class Console:
    """The organizer's console as a Socket.IO client: the `series` messages it is sent."""

    def __init__(self, url: str, key: str) -> None:
        self.seen: list[dict[str, Any]] = []
        self.changed = threading.Condition()
        self.client = socketio.Client(reconnection=False)
        self.client.on("series", self._on_series)
        self.client.connect(url, auth={"organizer": key}, transports=["websocket"], wait_timeout=10)

    def _on_series(self, view: dict[str, Any]) -> None:
        with self.changed:
            self.seen.append(view)
            self.changed.notify_all()

    def wait_for_register(self, lines: int, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        with self.changed:
            while not self.seen or len(self.seen[-1]["state"]["register"]) < lines:
                left = deadline - time.monotonic()
                assert left > 0, "no series message with the register line"
                self.changed.wait(left)
            return self.seen[-1]


def finished(campaign: Campaign, number: int) -> None:
    for step in range(2, 9):
        campaign.command({"command": "tick_step", "number": number, "step": step})


def json_of(value: Any) -> Any:
    return json.loads(json.dumps(value))


def test_legacy_server_three_games_of_a_campaign(tmp_path: Path) -> None:
    db = tmp_path / "legacy.db"
    with ServerProcess(db, log_path=tmp_path / "server.log") as server:
        server.start()
        key = organizer_key(server)
        event = http_json(f"{server.url}/api/events", method="POST", key=key,
                          body={"name": "Home"})[1]
        status, created = http_json(f"{server.url}/api/events/{event['id']}/series", method="POST",
                                    key=key, body={"ruleset": "legacy", "name": "Our island",
                                                   "mayors": copy.deepcopy(GROUP),
                                                   "catalog": quick_catalog()})
        assert status == 201, created
        campaign = Campaign(server, key, created["id"])
        console = Console(server.url, key)
        bad = campaign.command({"command": "set_picks", "seat": 5, "picks": 1}, 400)
        assert bad["code"] == "legacy/bad_group" and bad["message"].startswith("seat")
        assert campaign.view()["seq"] == created["seq"], "a refusal changes nothing"
        while campaign.view()["state"]["start_roll"]["winner"] is None:
            campaign.command({"command": "roll_for_start"})  # the hall's dice
        first = campaign.view()["state"]["start_roll"]["winner"]
        tables: list[dict[str, Any]] = []
        for number in (1, 2, 3):
            if number == 3:  # the server stops between games: the campaign is as it was
                before = campaign.view()
                server.terminate()
                server.start()
                assert campaign.view() == before
            started = campaign.call("POST", f"/api/series/{campaign.id}/next", {}, 201)
            table = started["table"]
            tables.append(table)
            assert table["status"] == "running" and table["options"]["first"] == first
            assert [s["name"] for s in table["seats"]] == [m["name"] for m in GROUP]
            own = table["options"]["landmarks"][first]
            phones = [Phone(server.url, seat["token"]) for seat in table["seats"]]
            try:
                view = phones[0].wait_for(0)
                if number == 3:  # killed mid-game: the table and the campaign come back
                    view, sent = play_to_a_win(phones, first, own, f"g{number}", view, 5)
                    for phone in phones:
                        phone.client.disconnect()
                    server.kill()
                    server.start()
                    phones = [Phone(server.url, seat["token"]) for seat in table["seats"]]
                    view = phones[0].wait_for(view["seq"])
                view, _ = play_to_a_win(phones, first, own, f"g{number}b", view)
            finally:
                for phone in phones:
                    phone.client.disconnect()
            if number == 1:  # the console is told of the register line
                assert console.wait_for_register(1)["id"] == campaign.id
                console.client.disconnect()
            register = campaign.view()["state"]["register"]
            assert [line["game"] for line in register] == list(range(1, number + 1))
            assert register[-1]["winner"] == first
            assert register[-1]["city"] == GROUP[first]["city"]
            if number < 3:
                finished(campaign, number)
                letter = "FG"[number - 1]
                campaign.command({"command": "add_entry", "kind": "landmarks", "entry": {
                    "id": f"tower_{number}", "names": names(f"Tower {number}"), "letter": letter,
                    "cost": 0, "effect": {"kind": "none"}}})
                campaign.command({"command": "add_entry", "kind": "community", "entry": {
                    "id": f"well_{number}", "names": names(f"Well {number}"), "cost": 0,
                    "bonus": {"kind": "coins", "amount": 1}}})
        catalogs = [{e["id"] for e in t["options"]["catalog"]["community"]} for t in tables]
        assert "well_1" not in catalogs[0] and "well_1" in catalogs[1] and "well_2" in catalogs[2]
        assert tables[2]["options"]["community"] == "well_2"
        shown = campaign.view()
        assert shown["tables"] == {str(n): t["id"] for n, t in enumerate(tables, start=1)}
        assert len(shown["state"]["register"]) == 3
    with SqliteJournal(db) as journal:
        kinds = [r.kind for r in journal.read(f"series:{campaign.id}")]
        assert kinds.count("LegacyGameRecorded") == 3 and kinds.count("series_table") == 3
        hall = HallService(journal)
        replayed = hall_series.view(hall, hall_series.series_of(hall, campaign.id))
        assert json_of(replayed) == shown
