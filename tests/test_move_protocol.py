"""The move protocol (docs/api.md, "Client to server"): a move carries the `seq` of the view it
was made from; a table that changed since in a way that could change the move's outcome
refuses it `move/stale` with the fresh view, to the mover only; a change that cannot matter
lets it through; the mover gets one view per move. Real python-socketio clients of a real
`companion serve`; the rules' two staleness functions and the hall's memory of the states its
views showed are checked on their own below."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
import socketio
from builders import table as base_table
from coop_builders import coop
from serverproc import ServerProcess, http_json, organizer_key
from socket_phone import follow_views

from companion.hall import HallService
from companion.hall.model import MOVES_KEPT
from companion.journal import SqliteJournal
from companion.rules.coop.staleness import stale as coop_stale
from companion.rules.coop.state import Outcome
from companion.rules.machi_koro.staleness import stale
from companion.rules.machi_koro.state import Phase

NO_SEQ = object()


# ---------------------------------------------------------------- a served hall and its phones


class Hall:
    def __init__(self, server: ServerProcess) -> None:
        self.url, self.key = server.url, organizer_key(server)

    def api(self, method: str, path: str, body: Any = None) -> Any:
        status, answer = http_json(self.url + path, method=method, body=body, key=self.key)
        assert status in (200, 201), (method, path, status, answer)
        return answer

    def table(self, players: tuple[str, ...] = ("Ann", "Bo", "Cy")) -> tuple[str, list[str]]:
        """A started own-roll table: its id and its seats' tokens."""
        event = self.api("POST", "/api/events", {"name": "Night"})
        table = self.api("POST", f"/api/events/{event['id']}/tables",
                         {"name": "T", "players": list(players), "roll_mode": "own"})
        self.api("POST", f"/api/tables/{table['id']}/start")
        return table["id"], [seat["token"] for seat in table["seats"]]

    def journal(self, table_id: str) -> list[dict[str, Any]]:
        moves: list[dict[str, Any]] = self.api("GET", f"/api/tables/{table_id}/journal")
        return moves

    def rename(self, table_id: str, name: str) -> None:
        """A change every phone of the table hears: its view is a marker in their frames."""
        self.api("POST", f"/api/tables/{table_id}/rename", {"name": name})


class Device:
    """One phone's connection: every view it came to hold from what the server pushed (a
    `view`, a `table` message applied as the page does: tests/socket_phone.py), in order, and
    its moves (an ack's view is kept as the page keeps it, not counted as pushed)."""

    def __init__(self, url: str, token: str) -> None:
        self.frames: list[dict[str, Any]] = []
        self.arrived = threading.Condition()
        self.sent = 0
        self.client = socketio.Client(reconnection=False)
        self.keeper = follow_views(self.client, self._on_view)
        self.client.connect(url, auth={"token": token}, transports=["websocket"], wait_timeout=10)
        self.wait_for(0)  # the view on connect

    def _on_view(self, view: dict[str, Any]) -> None:
        with self.arrived:
            self.frames.append(view)
            self.arrived.notify_all()

    @property
    def view(self) -> dict[str, Any]:
        return max(self.frames, key=lambda view: view["seq"])

    def wait_for(self, seq: int, timeout: float = 10.0) -> dict[str, Any]:
        """The first frame at or after journal position `seq`."""
        deadline = time.monotonic() + timeout
        with self.arrived:
            while not any(view["seq"] >= seq for view in self.frames):
                left = deadline - time.monotonic()
                assert left > 0, f"no view with seq >= {seq}: {[v['seq'] for v in self.frames]}"
                self.arrived.wait(left)
            return next(view for view in self.frames if view["seq"] >= seq)

    def send(self, move: dict[str, Any], seq: Any = NO_SEQ) -> dict[str, Any]:
        self.sent += 1
        payload: dict[str, Any] = {"request_id": f"m{self.sent}-{time.monotonic_ns()}", "move": move}
        if seq is not NO_SEQ:
            payload["seq"] = seq
        answer: dict[str, Any] = self.client.call("move", payload, timeout=10)
        self.keeper.take_ack(answer)
        return answer

    def frames_since(self, count: int) -> list[int]:
        with self.arrived:
            return [view["seq"] for view in self.frames[count:]]


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    folder = tmp_path_factory.mktemp("moves")
    with ServerProcess(folder / "hall.db", log_path=folder / "server.log") as server:
        server.start()
        yield Hall(server)


@pytest.fixture
def devices() -> Iterator[list[Device]]:
    opened: list[Device] = []
    yield opened
    for device in opened:
        device.client.disconnect()


def phones(hall: Hall, devices: list[Device], *tokens: str) -> list[Device]:
    made = [Device(hall.url, token) for token in tokens]
    devices.extend(made)
    return made


def rolled(hall: Hall, devices: list[Device]) -> tuple[str, Device, Device, Device, int]:
    """A table whose first seat (Ann) rolled and builds now; every phone has that view. Answers
    the table, the three phones and the view's seq."""
    table_id, tokens = hall.table()
    ann, bo, cy = phones(hall, devices, *tokens)
    ack = ann.send({"kind": "roll"}, seq=ann.view["seq"])
    assert ack["ok"] and ack["view"]["phase"] == "build", ack
    seq = ack["view"]["seq"]
    bo.wait_for(seq)
    cy.wait_for(seq)
    return table_id, ann, bo, cy, seq


# ---------------------------------------------------------------- stale or not, over the wire


def test_move_protocol_a_move_from_a_view_before_another_players_build_is_stale(hall, devices):
    table_id, ann, bo, _, seen = rolled(hall, devices)
    built = ann.send({"kind": "build", "card": "wheat_field"}, seq=seen)
    assert built["ok"], built
    journal = hall.journal(table_id)
    answer = bo.send({"kind": "end_turn"}, seq=seen)  # Bo's phone still showed Ann's roll
    assert answer["ok"] is False and answer["code"] == "move/stale", answer
    assert "changed" in answer["message"]
    fresh = answer["view"]
    assert fresh["seq"] == built["view"]["seq"] and fresh["seat"] == 1
    assert fresh["players"][0]["cards"]["wheat_field"] == 2, "the fresh view shows Ann's build"
    assert hall.journal(table_id) == journal, "a stale move changes nothing"


def test_move_protocol_a_stale_build_is_refused_and_the_same_tap_on_the_fresh_view_builds(
        hall, devices):
    table_id, ann, _, _, seen = rolled(hall, devices)
    hall.api("POST", f"/api/tables/{table_id}/adjust", {"seat": 0, "amount": 5, "reason": "gift"})
    journal = hall.journal(table_id)
    answer = ann.send({"kind": "build", "card": "ranch"}, seq=seen)
    assert answer["code"] == "move/stale" and answer["view"]["seq"] > seen
    assert hall.journal(table_id) == journal
    again = ann.send({"kind": "build", "card": "ranch"}, seq=answer["view"]["seq"])
    assert again["ok"] and again["view"]["players"][0]["cards"]["ranch"] == 1


def test_move_protocol_another_seats_dice_setting_does_not_make_a_view_stale(hall, devices):
    table_id, ann, _, cy, seen = rolled(hall, devices)
    dice = cy.send({"kind": "dice_count", "count": 1}, seq=cy.view["seq"])
    assert dice["ok"] and dice["view"]["seq"] > seen, "Cy's setting is a journalled move"
    answer = ann.send({"kind": "build", "card": "wheat_field"}, seq=seen)
    assert answer["ok"], answer
    assert answer["view"]["players"][0]["cards"]["wheat_field"] == 2
    assert [m["author"] for m in hall.journal(table_id)][-2:] == ["seat 2", "seat 0"]


def test_move_protocol_a_rename_of_the_table_does_not_make_a_view_stale(hall, devices):
    table_id, ann, _, _, seen = rolled(hall, devices)
    hall.rename(table_id, "Window table")
    assert ann.wait_for(seen + 1)["table"]["name"] == "Window table"
    assert ann.send({"kind": "build", "card": "wheat_field"}, seq=seen)["ok"]


def test_move_protocol_a_choice_of_dice_is_not_stale_after_another_players_build(hall, devices):
    _, ann, bo, _, seen = rolled(hall, devices)
    assert ann.send({"kind": "build", "card": "wheat_field"}, seq=seen)["ok"]
    answer = bo.send({"kind": "dice_count", "count": 1}, seq=seen)
    assert answer["ok"], answer


def test_move_protocol_a_move_without_seq_is_judged_on_the_table_as_it_is(hall, devices):
    table_id, ann, bo, _, seen = rolled(hall, devices)
    hall.api("POST", f"/api/tables/{table_id}/adjust", {"seat": 0, "amount": 5, "reason": "gift"})
    assert ann.send({"kind": "build", "card": "ranch"})["ok"], "a script or an older phone"
    refused = bo.send({"kind": "end_turn"})
    assert refused == {"ok": False, "code": "rule/not_your_turn", "message": refused["message"]}


@pytest.mark.parametrize("seq", ["7", 2.5, True, None, -1, "future"])
def test_move_protocol_a_seq_from_the_future_or_not_a_number_is_invalid(hall, devices, seq):
    table_id, ann, _, _, seen = rolled(hall, devices)
    journal = hall.journal(table_id)
    if seq == "future":
        seq = seen + 1
    answer = ann.send({"kind": "build", "card": "wheat_field"}, seq=seq)
    if seq is None:  # JSON null: no seq, as an older phone
        assert answer["ok"], answer
        return
    assert answer["ok"] is False and answer["code"] == "request/invalid", answer
    assert "view" not in answer
    assert hall.journal(table_id) == journal


def test_move_protocol_the_mover_gets_exactly_one_view_per_move(hall, devices):
    table_id, tokens = hall.table()
    ann, ann_tablet, bo = phones(hall, devices, tokens[0], tokens[0], tokens[1])
    counts = [len(device.frames) for device in (ann, ann_tablet, bo)]
    ack = ann.send({"kind": "roll"}, seq=ann.view["seq"])
    assert ack["ok"] and ack["view"]["phase"] == "build"
    moved = ack["view"]["seq"]
    hall.rename(table_id, "Marker")  # the next frame every phone gets: all before it are in
    marker = moved + 1
    for device in (ann, ann_tablet, bo):
        device.wait_for(marker)
    mover, tablet, other = (d.frames_since(n) for d, n in zip((ann, ann_tablet, bo), counts, strict=True))
    assert mover == [marker], "the mover's view of its move is the ack's, and only that"
    assert tablet == [moved, marker], "the seat's other device gets the broadcast"
    assert other == [moved, marker]
    assert [d.keeper.syncs for d in (ann, ann_tablet, bo)] == [0, 0, 0], \
        "every phone applied the table's messages to the view it had"


def test_move_protocol_a_stale_refusal_and_its_view_go_to_the_mover_only(hall, devices):
    table_id, tokens = hall.table()
    ann, bo, bo_tablet = phones(hall, devices, tokens[0], tokens[1], tokens[1])
    seen = ann.view["seq"]
    ack = ann.send({"kind": "roll"}, seq=seen)
    bo.wait_for(ack["view"]["seq"])
    bo_tablet.wait_for(ack["view"]["seq"])
    counts = [len(device.frames) for device in (ann, bo, bo_tablet)]
    answer = bo.send({"kind": "end_turn"}, seq=seen)
    assert answer["code"] == "move/stale" and answer["view"]["seq"] == ack["view"]["seq"]
    hall.rename(table_id, "Marker")
    marker = ack["view"]["seq"] + 1
    for device in (ann, bo, bo_tablet):
        device.wait_for(marker)
    assert [d.frames_since(n) for d, n in zip((ann, bo, bo_tablet), counts, strict=True)] == [
        [marker], [marker], [marker]], "the refusal sent no view to anyone else"


# ---------------------------------------------------------------- the hall's memory of its views


@pytest.fixture
def service(tmp_path) -> Iterator[HallService]:
    with SqliteJournal(tmp_path / "hall.db") as journal:
        yield HallService(journal)


def service_table(hall: HallService, mode: str = "own") -> tuple[str, list[str]]:
    event = hall.create_event("Night")
    table = hall.create_table(event.id, "T", ["Ann", "Bo", "Cy"], roll_mode=mode)
    hall.set_status(table.id, "start")
    return table.id, [seat.token for seat in table.seats]


def test_move_protocol_a_view_of_a_move_the_organizer_undid_is_stale(service):
    table_id, (ann, bo, _) = service_table(service)
    assert service.move(ann, "r", {"kind": "roll"}, seq=service.tables[table_id].seq)["ok"]
    built = service.tables[table_id].seq
    assert service.move(ann, "b", {"kind": "build", "card": "wheat_field"}, seq=built)["ok"]
    seen = service.tables[table_id].seq  # a view of the build
    service.undo(table_id)
    answer = service.move(ann, "e", {"kind": "end_turn"}, seq=seen)
    assert answer["code"] == "move/stale", "the build it saw is gone"
    assert service.move(ann, "e2", {"kind": "end_turn"}, seq=built)["ok"], \
        "the view before the build shows the state the undo restored"


def test_move_protocol_a_view_older_than_the_kept_states_is_stale(service):
    table_id, tokens = service_table(service)
    table = service.tables[table_id]
    first = table.seq
    for n in range(MOVES_KEPT + 1):  # Cy's dice setting, a journalled move that never matters
        assert service.move(tokens[2], f"d{n}", {"kind": "dice_count", "count": 1})["ok"]
    assert service.move(tokens[0], "old", {"kind": "roll"}, seq=first)["code"] == "move/stale"
    assert service.move(tokens[0], "recent", {"kind": "roll"}, seq=table.seq - 1)["ok"]


def test_move_protocol_after_a_restart_only_the_current_view_is_known(tmp_path):
    with SqliteJournal(tmp_path / "hall.db") as journal:
        hall = HallService(journal)
        table_id, tokens = service_table(hall)
        assert hall.move(tokens[0], "r", {"kind": "roll"})["ok"]
        before = hall.tables[table_id].seq
        assert hall.move(tokens[0], "b", {"kind": "build", "card": "wheat_field"})["ok"]
    with SqliteJournal(tmp_path / "hall.db") as journal:
        again = HallService(journal)
        now = again.tables[table_id].seq
        assert again.move(tokens[0], "e", {"kind": "end_turn"}, seq=before)["code"] == "move/stale"
        assert again.move(tokens[0], "e2", {"kind": "end_turn"}, seq=now)["ok"]


def test_move_protocol_a_refused_stale_request_id_is_answered_the_same(service):
    table_id, (ann, bo, _) = service_table(service)
    seen = service.tables[table_id].seq
    assert service.move(ann, "r", {"kind": "roll"}, seq=seen)["ok"]
    first = service.move(bo, "x", {"kind": "end_turn"}, seq=seen)
    assert first["code"] == "move/stale" and "view" not in first, "the web layer adds the view"
    assert service.move(bo, "x", {"kind": "end_turn"}, seq=service.tables[table_id].seq) == first


# ---------------------------------------------------------------- the rules' call: staleness


def test_staleness_the_same_state_is_never_stale():
    state = base_table("A 3 wheat_field | B 3 | C 3", phase=Phase.BUILD)
    assert not stale(state, state, 0, {"kind": "build", "card": "ranch"})
    assert not stale(state, replace(state), 0, {"kind": "build", "card": "ranch"})


def test_staleness_another_seats_dice_setting_never_matters():
    seen = base_table("A 3 | B 3 +train_station | C 3", phase=Phase.BUILD)
    players = list(seen.players)
    players[1] = replace(players[1], dice_count=1)
    now = replace(seen, players=tuple(players))
    assert not stale(seen, now, 0, {"kind": "build", "card": "ranch"})
    assert not stale(seen, now, 0, {"kind": "end_turn"})


def test_staleness_the_movers_own_dice_setting_matters_to_its_roll():
    seen = base_table("A 3 +train_station | B 3")
    players = (replace(seen.players[0], dice_count=1), seen.players[1])
    assert stale(seen, replace(seen, players=players), 0, {"kind": "roll"})


@pytest.mark.parametrize("change", [
    {"active": 1}, {"phase": Phase.ROLL}, {"dice": (4,)}, {"built": True}, {"turn": 2},
    {"bank": 1}, {"winner": 0},
], ids=lambda change: next(iter(change)))
def test_staleness_any_other_field_of_the_table_matters(change):
    seen = base_table("A 3 | B 3", phase=Phase.BUILD)
    assert stale(seen, replace(seen, **change), 0, {"kind": "build", "card": "ranch"})


def test_staleness_coins_cards_and_the_supply_matter_to_a_build():
    seen = base_table("A 3 | B 3", phase=Phase.BUILD)
    assert stale(seen, base_table("A 2 | B 3", phase=Phase.BUILD), 0, {"kind": "build", "card": "x"})
    assert stale(seen, base_table("A 3 | B 3 ranch", phase=Phase.BUILD), 0, {"kind": "end_turn"})
    supply = dict(seen.supply, ranch=0)
    assert stale(seen, replace(seen, supply=supply), 0, {"kind": "build", "card": "ranch"})


def test_staleness_a_choice_of_dice_depends_on_the_seats_own_city_and_the_end_only():
    seen = base_table("A 3 | B 3", phase=Phase.BUILD)
    dice = {"kind": "dice_count", "count": 2}
    others_built = base_table("A 2 wheat_field | B 3", active=0, phase=Phase.BUILD)
    assert not stale(seen, others_built, 1, dice), "another seat's build, coins, the turn"
    assert not stale(seen, replace(seen, active=1, turn=2, phase=Phase.ROLL), 1, dice)
    assert stale(seen, base_table("A 3 | B 3 +train_station", phase=Phase.BUILD), 1, dice)
    assert stale(seen, replace(seen, phase=Phase.FINISHED, winner=0), 1, dice)


def test_staleness_other_seats_or_a_move_that_is_no_object_are_judged_whole():
    seen = base_table("A 3 | B 3", phase=Phase.BUILD)
    assert stale(seen, base_table("A 3 | B 3 | C 3", phase=Phase.BUILD), 0, {"kind": "end_turn"})
    assert stale(seen, replace(seen, bank=1), 0, "end_turn")
    assert not stale(seen, replace(seen), 0, None)


def test_staleness_coop_the_table_inside_is_judged_as_the_base_game():
    seen = coop("A 3 | B 3", row="ranch mine forest cafe", phase=Phase.BUILD)
    players = (seen.table.players[0], replace(seen.table.players[1], dice_count=2))
    others_dice = replace(seen, table=replace(seen.table, players=players))
    assert not coop_stale(seen, replace(seen), 0, {"kind": "build", "card": "ranch"})
    assert not coop_stale(seen, others_dice, 0, {"kind": "build", "card": "ranch"})
    coins = coop("A 1 | B 3", row="ranch mine forest cafe", phase=Phase.BUILD)
    assert coop_stale(seen, coins, 0, {"kind": "build", "card": "ranch"})


@pytest.mark.parametrize("change", [
    {"assessor_coins": 12}, {"market_row": ("mine", "forest", "cafe")}, {"market_deck": ("bakery",)},
    {"assessed": ("wheat_field",)}, {"final_round": True}, {"outcome": Outcome.LOST},
], ids=lambda change: next(iter(change)))
def test_staleness_coop_every_coop_field_matters_to_a_move(change):
    seen = coop("A 3 | B 3", row="ranch mine forest cafe", phase=Phase.BUILD)
    assert coop_stale(seen, replace(seen, **change), 0, {"kind": "give_assessor", "amount": 1})


def test_staleness_coop_a_choice_of_dice_minds_only_the_deal_and_the_end():
    seen = coop("A 3 | B 3", row="ranch mine forest cafe", phase=Phase.BUILD)
    dice = {"kind": "dice_count", "count": 1}
    assert not coop_stale(seen, replace(seen, assessor_coins=20, market_row=("mine",)), 1, dice)
    assert coop_stale(seen, replace(seen, outcome=Outcome.WON), 1, dice)
    assert coop_stale(seen, replace(seen, dealt=False), 1, dice)
