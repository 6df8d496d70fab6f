"""A whole big Catan event (issue 12, RULES.md 20-24) against a real `companion serve` on a SQLite
file, played by six python-socketio phones (three boards of two) and the organizer's HTTP API:
seating from a pasted list with registration numbers, a schedule and auto-roll, entered dice
through seventeen turns (a 7 before turn 16 pauses the clock until the organizer resumes; a 7
at turn 16 with the robbers' roll entered), the phones' trackers, refused claims (before the
first roll, off turn, under 25, pending, by a seat's token as a staff move), a tie between two
claims of one turn verified with different cards in hand, a SIGKILL after a verification and a
restart on the same journal (the phones rejoin by token: the same turn, deadline and claims),
the game over at the next roll with the winner decided by the cards in hand, the final
breakdowns and the standings. Bad input (a schedule going backwards, dice outside 1-6) is
refused and changes nothing: the journal file is counted around every refusal."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import pytest
import socketio
from serverproc import ServerProcess, http_json, organizer_key
from socket_phone import follow_views

pytestmark = pytest.mark.slow

PLAYERS = ["4, Avi", "2, Ben", "7\tCy", "1, Dana", "3, Eli", "9, Fay"]  # board by board, Sun first
NAMES = ["Avi", "Ben", "Cy", "Dana", "Eli", "Fay"]
REGISTERED = [4, 2, 7, 1, 3, 9]
SCHEDULE = [[1, 300], [11, 600]]  # long turns: the server's own roll never comes during the test
WAIT = 10.0  # a live server answers in milliseconds; this only bounds a lost message


def breakdown(settlements: int = 0, cities: int = 0, foreign: int = 0, vp_cards: int = 0,
              army: bool = False, road: bool = False) -> dict[str, Any]:
    """A breakdown of RULES.md 23 as the phones send it."""
    return {"settlements": settlements, "cities": cities, "foreign_start_settlements": foreign,
            "vp_cards": vp_cards, "largest_army": army, "longest_road": road}


def hand(grain: int = 0, ore: int = 0, brick: int = 0, wood: int = 0, wool: int = 0) -> dict:
    return {"grain": grain, "ore": ore, "brick": brick, "wood": wood, "wool": wool}


AVI_WIN = breakdown(5, 8, 2)  # 5 + 16 + 4 = 25
CY_WIN = breakdown(3, 7, 1, 4, army=True)  # 3 + 14 + 2 + 4 + 2 = 25: the same points, otherwise
UNDER = breakdown(5, 7, 2, 1)  # 5 + 14 + 4 + 1 = 24
AVI_HAND = hand(2, 1, 0, 1, 1)  # 5 cards, more grain and ore than Cy's ...
CY_HAND = hand(0, 0, 3, 2, 2)  # ... but 7 cards in hand: Cy wins on "resources", not registration


# ---------------------------------------------------------------- the phones


class Phone:
    """One seat's phone: a python-socketio client keeping every `view` and `turn` it got."""

    def __init__(self, url: str, seat: dict[str, Any]) -> None:
        self.name, self.token, self.seat = seat["name"], seat["token"], seat["seat"]
        self.views: list[dict[str, Any]] = []
        self.turns: list[dict[str, Any]] = []
        self.turn_arrived: list[int] = []  # epoch ms each `turn` message came
        self.changed = threading.Condition()
        self.client = socketio.Client(reconnection=False)
        self.keeper = follow_views(self.client, self._on_view)  # `table` messages applied
        self.client.on("turn", self._on_turn)
        self.client.connect(url, auth={"token": self.token}, transports=["websocket"],
                            wait_timeout=WAIT)
        self.websocket = self.client.eio.ws

    def _on_view(self, view: dict[str, Any]) -> None:
        with self.changed:
            self.views.append(view)
            self.changed.notify_all()

    def _on_turn(self, turn: dict[str, Any]) -> None:
        # The server's clock as it sent (`now_ms`: a phone counts the deadline by it) is kept
        # apart: the rest is the hall view's turn, which the steps compare it with.
        sent = turn.pop("now_ms")
        assert abs(sent - now_ms()) < 60_000, "the server's clock, as the message was made"
        with self.changed:
            self.turns.append(turn)
            self.turn_arrived.append(now_ms())
            self.changed.notify_all()

    @property
    def view(self) -> dict[str, Any]:
        """The newest view (the greatest seq) the server sent, pushed or in an ack."""
        with self.changed:
            assert self.views, f"{self.name}: no view yet"
            return max(self.views, key=lambda view: view["seq"])

    def wait(self, ready: Callable[[Phone], bool], what: str, seconds: float = WAIT) -> None:
        deadline = time.monotonic() + seconds
        with self.changed:
            while not ready(self):
                left = deadline - time.monotonic()
                assert left > 0, f"{self.name}: no {what}; turns {self.turns[-2:]}"
                self.changed.wait(left)

    def wait_turn(self, number: int, seconds: float = WAIT, **fields: Any) -> dict[str, Any]:
        """The newest `turn` message, once it is turn `number` with `fields`."""
        def ready(phone: Phone) -> bool:
            last = phone.turns[-1] if phone.turns else None
            return last is not None and last["number"] == number and all(
                last[name] == value for name, value in fields.items())
        self.wait(ready, f"turn {number} {fields}", seconds)
        return self.turns[-1]

    def wait_view(self, ready: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        self.wait(lambda phone: bool(phone.views) and ready(phone.view), what)
        return self.view

    def move(self, request_id: str, move: dict[str, Any]) -> dict[str, Any]:
        """Send a move from the newest view (its seq) as the phone page does; the ack."""
        ack: dict[str, Any] = self.client.call(
            "move", {"request_id": request_id, "seq": self.view["seq"], "move": move},
            timeout=WAIT)
        if ack.get("view") is not None:
            self.keeper.take_ack(ack)
            self._on_view(ack["view"])
        return ack

    def ok(self, request_id: str, move: dict[str, Any]) -> dict[str, Any]:
        ack = self.move(request_id, move)
        assert ack["ok"] is True, (self.name, move, ack)
        return ack["view"]

    def close(self) -> None:
        self.client.disconnect()
        # After a killed server python-engineio drops its websocket without closing it.
        self.websocket.shutdown()


def connect_all(url: str, seats: list[dict[str, Any]]) -> list[Phone]:
    phones: list[Phone] = []
    try:
        for seat in seats:
            phones.append(Phone(url, seat))
        for phone in phones:
            phone.wait(lambda p: bool(p.views), "view on connecting")
    except BaseException:
        close_all(phones)
        raise
    return phones


def close_all(phones: list[Phone]) -> None:
    """Disconnect in parallel: a clean close waits for the websocket's closing handshake."""
    threads = [threading.Thread(target=phone.close) for phone in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    assert not any(thread.is_alive() for thread in threads), "a phone did not disconnect"


# ---------------------------------------------------------------- the organizer and the journal


class Organizer:
    """The organizer's HTTP API on a served hall."""

    def __init__(self, server: ServerProcess, event_id: str | None = None) -> None:
        self.server, self.key, self.event_id = server, organizer_key(server), event_id

    def call(self, method: str, path: str, body: Any = None, key: str | None = None
             ) -> tuple[int, Any]:
        return http_json(f"{self.server.url}{path}", method=method, body=body,
                         key=self.key if key is None else key)

    def event(self, action: str, body: Any = None) -> tuple[int, Any]:
        return self.call("POST", f"/api/events/{self.event_id}/{action}", body)

    def roll(self, dice: list[int], **body: Any) -> dict[str, Any]:
        status, answer = self.event("roll", {"dice": dice, **body})
        assert status == 200, answer
        return dict(answer)

    def staff(self, table_id: str, move: Any, key: str | None = None) -> tuple[int, Any]:
        return self.call("POST", f"/api/tables/{table_id}/staff_move", {"move": move}, key)

    def hall(self) -> dict[str, Any]:
        status, view = self.call("GET", f"/api/events/{self.event_id}")
        assert status == 200, view
        return dict(view)


def journal_counts(db: Path) -> dict[str, tuple[int, int]]:
    """Each stream's records and stored request answers, read from the file the server writes."""
    with closing(sqlite3.connect(db, timeout=WAIT)) as conn:
        records = dict(conn.execute("SELECT stream, COUNT(*) FROM events GROUP BY stream"))
        answers = dict(conn.execute("SELECT stream, COUNT(*) FROM requests GROUP BY stream"))
    return {stream: (count, answers.get(stream, 0)) for stream, count in records.items()}


def event_records(db: Path, event_id: str) -> list[tuple[str, str]]:
    """The event stream's records as (kind, author), in order."""
    with closing(sqlite3.connect(db, timeout=WAIT)) as conn:
        return list(conn.execute("SELECT kind, author FROM events WHERE stream = ? ORDER BY seq",
                                 (f"event:{event_id}",)))


def refused(answer: tuple[int, Any] | dict[str, Any], code: str, status: int | None = None) -> str:
    """Check a refusal (an HTTP (status, body) or a Socket.IO ack); its message."""
    if isinstance(answer, tuple):
        got_status, body = answer
        assert got_status == status, answer
    else:
        body = answer
    assert body["ok"] is False and body["code"] == code, body
    return str(body["message"])


def same_for_everyone(phones: list[Phone], number: int, seconds: float = WAIT,
                      **fields: Any) -> dict[str, Any]:
    """Every phone's newest `turn` message is turn `number`, and it is the same JSON for all."""
    turns = [phone.wait_turn(number, seconds, **fields) for phone in phones]
    assert all(turn == turns[0] for turn in turns), turns
    return turns[0]


def now_ms() -> int:
    return round(time.time() * 1000)


# ---------------------------------------------------------------- the evening


def seat_boards(organizer: Organizer) -> list[dict[str, Any]]:
    """The event and its three boards from the pasted list, each board started."""
    status, event = organizer.call("POST", "/api/events", {"name": "Catan night"})
    assert status == 201, event
    organizer.event_id = event["id"]
    status, seated = organizer.event("seating", {"players": PLAYERS, "ruleset": "catan-big",
                                                 "name_prefix": "Board"})
    assert status == 201, seated
    tables = seated["tables"]
    assert [t["name"] for t in tables] == ["Board 1", "Board 2", "Board 3"]
    assert [s["name"] for t in tables for s in t["seats"]] == NAMES
    assert [s["registered"] for t in tables for s in t["seats"]] == REGISTERED
    assert [t["neighbours"] for t in tables] == [
        ["", "Board 2"], ["Board 1", "Board 3"], ["Board 2", ""]]
    for table in tables:
        status, started = organizer.call("POST", f"/api/tables/{table['id']}/start")
        assert status == 200 and started["status"] == "running", started
    return list(tables)


class Night:
    """A real server with the event's three boards seated and started (`catan_night`), and the
    phones a test connects (closed when it ends)."""

    def __init__(self, server: ServerProcess, db: Path) -> None:
        self.server, self.db = server, db
        self.organizer = Organizer(server)
        self.tables = seat_boards(self.organizer)
        self.phones: list[Phone] = []

    def connect(self, seats: list[dict[str, Any]]) -> list[Phone]:
        self.phones = connect_all(self.server.url, seats)
        return self.phones

    def restart(self, seats: list[dict[str, Any]], down: float = 0.0) -> list[Phone]:
        """SIGKILL the server, start it again on its journal after `down` seconds, and
        reconnect the phones of `seats` (the organizer signs in again)."""
        self.server.kill()
        close_all(self.phones)
        self.phones = []
        time.sleep(down)
        self.server.start()
        self.organizer = Organizer(self.server, self.organizer.event_id)
        return self.connect(seats)


@contextmanager
def catan_night(tmp_path: Path) -> Iterator[Night]:
    db = tmp_path / "hall.db"
    with ServerProcess(db, log_path=tmp_path / "server.log") as server:
        server.start()
        night = Night(server, db)
        try:
            yield night
        finally:
            close_all(night.phones)


def test_catan_big_server_a_whole_event_with_a_tie_and_a_restart_mid_turn(tmp_path: Path) -> None:
    with catan_night(tmp_path) as night:
        organizer, db = night.organizer, night.db
        ids = [t["id"] for t in night.tables]
        seats = [s for t in night.tables for s in t["seats"]]
        phones = night.connect(seats)
        ben = phones[1]
        before_turns(organizer, db, phones, ids)
        turn = play_to_turn_17(organizer, db, phones, ids)
        claims_of_turn_17(organizer, db, phones, ids, seats)

        # The staff verify Avi's claim at board 1; the server dies mid-turn after it.
        status, table = organizer.staff(ids[0], {"kind": "verify", "seat": 0,
                                                 "resources": AVI_HAND})
        assert status == 200, table
        assert [p["claim"]["status"] if p["claim"] else None for p in table["players"]] == [
            "verified", None]
        ben.wait_view(lambda v: v["players"][0]["claim"]["status"] == "verified",
                      "Avi's claim verified, on Ben's phone")
        phones[0].wait_view(lambda v: v["players"][0]["claim"]["status"] == "verified",
                            "Avi's claim verified, on Avi's own phone")  # before it is kept
        before = organizer.hall()
        assert before["turn"] == turn and before["turn"]["deadline_ms"] is not None
        games = before["games"]["catan-big"]
        assert [c["name"] for c in games["verified"]] == ["Avi"]
        assert [c["name"] for c in games["claims"]] == ["Cy"]
        assert games["over"] is False and games["ending"] is True and games["winner"] is None
        views = [phone.view for phone in phones]
        key = organizer.key

        phones = night.restart(seats)
        organizer = night.organizer
        assert organizer.key == key
        after_restart(organizer, phones, before, views)
        the_game_over(organizer, db, phones, ids)


def before_turns(organizer: Organizer, db: Path, phones: list[Phone], ids: list[str]) -> None:
    """The schedule and auto-roll set; a schedule going backwards refused; no turn yet."""
    avi = phones[0]
    status, clock = organizer.event("clock", {"schedule": SCHEDULE, "auto_roll": True})
    assert status == 200, clock
    assert (clock["schedule"], clock["auto_roll"], clock["paused"], clock["turn"]) == (
        SCHEDULE, True, False, None)
    counts = journal_counts(db)
    backwards = organizer.event("clock", {"schedule": [[1, 300], [11, 600], [5, 60]]})
    assert "schedule[2][0]" in refused(backwards, "rule/bad_schedule", 400)
    too_short = organizer.event("clock", {"schedule": [[1, 5]], "auto_roll": False})
    assert "schedule[0][1]" in refused(too_short, "rule/bad_schedule", 400)
    assert journal_counts(db) == counts
    event = organizer.hall()["event"]
    assert (event["schedule"], event["auto_roll"]) == (SCHEDULE, True)

    for phone in phones:
        view = phone.view
        assert view["neighbours"] == organizer.hall()["table_seats"][
            ids.index(view["table"]["id"])]["neighbours"]
        assert view["can_claim"] == {"open": False, "reason": "under_25"}
        assert phone.turns == []  # no roll yet: no turn
    counts = journal_counts(db)
    message = refused(avi.move("early", {"kind": "claim", "breakdown": AVI_WIN}),
                      "catan/not_started")
    assert "no roll" in message
    assert journal_counts(db) == counts
    status, pause = organizer.event("pause")
    refused((status, pause), "event/not_started", 409)


def play_to_turn_17(organizer: Organizer, db: Path, phones: list[Phone],
                    ids: list[str]) -> dict[str, Any]:
    """Turns 1-16 with entered dice: the trackers kept up, a 7 at turn 2 (discard check, the
    clock paused until the organizer resumes), the organizer's own pause at turn 5, dice out of
    1-6 refused, a 7 at turn 16 with the robbers' roll entered; then turn 17 (Sun's)."""
    avi, ben, cy, dana, eli, fay = phones

    rolled_at = now_ms()
    answer = organizer.roll([2, 4])
    assert (answer["roll"], answer["dice"], answer["follow_up"], answer["tables"],
            answer["paused"]) == (1, [2, 4], [], [], False)
    turn = same_for_everyone(phones, 1)
    assert turn["rules"] == {"catan-big": {"team": "sun", "discard": False, "robber": None}}
    assert (turn["seconds"], turn["paused"], turn["auto_roll"], turn["schedule"]) == (
        300, False, True, SCHEDULE)
    assert rolled_at + 300_000 - 2000 <= turn["deadline_ms"] <= now_ms() + 300_000
    assert organizer.hall()["turn"] == turn
    assert all(len(phone.turns) == 1 for phone in phones)

    # Every phone keeps its tracker; the board's other phone sees the points.
    for number, (phone, points) in enumerate(zip(phones, (3, 2, 4, 2, 3, 2), strict=True)):
        view = phone.ok(f"t1-{number}", {"kind": "track", "breakdown": breakdown(points)})
        assert view["tracker"]["points"] == points
        assert view["players"][phone.seat]["points"] == points
    for phone, other in ((ben, avi), (avi, ben), (dana, cy), (fay, eli)):
        phone.wait_view(lambda v, o=other: v["players"][o.seat]["points"] == o.view["tracker"][
            "points"], f"{other.name}'s points")
    tiles = {t["id"]: t for t in organizer.hall()["tables"]}
    assert [tiles[i]["points"] for i in ids] == [[3, 2], [4, 2], [3, 2]]
    counts = journal_counts(db)
    over_cap = avi.move("cap", {"kind": "track", "breakdown": breakdown(5, 11)})
    assert refused(over_cap, "catan/over_cap").startswith("breakdown.cities")
    early = fay.move("final", {"kind": "final", "breakdown": breakdown(2)})
    refused(early, "catan/not_over")
    assert journal_counts(db) == counts

    # Turn 2 (the Moon team's): a 7 before turn 16, the discard check only; the clock waits.
    answer = organizer.roll([3, 4])
    assert (answer["roll"], answer["follow_up"], answer["paused"]) == (2, [], True)
    turn = same_for_everyone(phones, 2)
    assert turn["rules"]["catan-big"] == {"team": "moon", "discard": True,
                                          "robber": {"action": "stay"}}
    assert (turn["paused"], turn["deadline_ms"], turn["remaining_ms"]) == (True, None, 300_000)
    refused(organizer.event("pause"), "event/paused", 409)
    time.sleep(0.2)
    resumed_at = now_ms()
    status, clock = organizer.event("resume")
    assert status == 200 and clock["paused"] is False, clock
    turn = same_for_everyone(phones, 2, paused=False)
    assert clock["turn"] == turn and turn["remaining_ms"] is None
    assert resumed_at + 300_000 - 2000 <= turn["deadline_ms"] <= now_ms() + 300_000
    refused(organizer.event("resume"), "event/not_paused", 409)

    dice = {3: [1, 1], 4: [5, 5], 5: [6, 6], 6: [2, 3], 7: [4, 4], 8: [1, 2], 9: [6, 2],
            10: [3, 3], 11: [5, 4], 12: [2, 2], 13: [6, 5], 14: [1, 3], 15: [4, 6]}
    for number, pair in dice.items():
        answer = organizer.roll(pair)
        assert (answer["roll"], answer["dice"], answer["paused"]) == (number, pair, False)
        turn = same_for_everyone(phones, number, dice=pair)
        team = "sun" if number % 2 else "moon"
        assert turn["rules"]["catan-big"] == {"team": team, "discard": False, "robber": None}
        assert turn["seconds"] == (300 if number < 11 else 600)
        if number == 5:  # the organizer's own pause: the deadline moves by the time paused
            deadline = turn["deadline_ms"]
            assert organizer.event("pause")[0] == 200
            paused = same_for_everyone(phones, 5, paused=True)
            assert paused["deadline_ms"] is None and paused["remaining_ms"] <= 300_000
            time.sleep(0.3)
            assert organizer.event("resume")[0] == 200
            resumed = same_for_everyone(phones, 5, paused=False)
            assert 250 <= resumed["deadline_ms"] - deadline <= 10_000
        if number == 8:  # the trackers go up
            for index, phone in enumerate(phones):
                phone.ok(f"t8-{index}", {"kind": "track", "breakdown": breakdown(4, 5 + index)})

    # Dice outside 1-6 are refused and change nothing (no roll, no turn message).
    counts, received = journal_counts(db), [len(phone.turns) for phone in phones]
    for body in ({"dice": [0, 7]}, {"dice": [6, 1], "follow_up": [0, 7]},
                 {"dice": [6, 1], "follow_up": [4, 9]}, {"dice": [7, 1]}):
        status, answer = organizer.event("roll", body)
        assert status == 400 and answer["code"] == "request/invalid", (body, answer)
    assert journal_counts(db) == counts
    assert organizer.hall()["turn"]["number"] == 15

    # Turn 16: a 7, the robbers' roll entered: every board moves its robbers to the 9.
    answer = organizer.roll([6, 1], follow_up=[4, 5])
    assert (answer["roll"], answer["dice"], answer["follow_up"], answer["paused"]) == (
        16, [6, 1], [4, 5], True)
    turn = same_for_everyone(phones, 16)
    assert [len(phone.turns) for phone in phones] == [n + 1 for n in received]
    assert turn["rules"] == {"catan-big": {"team": "moon", "discard": True,
                                           "robber": {"action": "move", "number": 9}}}
    assert (turn["follow_up"], turn["paused"], turn["seconds"], turn["remaining_ms"]) == (
        [4, 5], True, 600, 600_000)
    assert organizer.hall()["turn"] == turn
    assert organizer.event("resume")[0] == 200
    same_for_everyone(phones, 16, paused=False)

    # Turn 17, the Sun team's.
    answer = organizer.roll([2, 3])
    assert (answer["roll"], answer["follow_up"], answer["paused"]) == (17, [], False)
    turn = same_for_everyone(phones, 17)
    assert turn["rules"]["catan-big"] == {"team": "sun", "discard": False, "robber": None}
    assert turn["deadline_ms"] is not None and turn["seconds"] == 600
    return turn


def claims_of_turn_17(organizer: Organizer, db: Path, phones: list[Phone], ids: list[str],
                      seats: list[dict[str, Any]]) -> None:
    """Refused claims change nothing; Avi and Cy, both Sun, claim 25 in the same turn."""
    avi, ben, cy, dana, eli, _ = phones
    counts = journal_counts(db)
    ben_view = ben.view
    message = refused(ben.move("off", {"kind": "claim", "breakdown": AVI_WIN}),
                      "rule/not_your_turn")
    assert "turn 17" in message
    message = refused(eli.move("low", {"kind": "claim", "breakdown": UNDER}), "catan/under_25")
    assert "24 points" in message
    assert journal_counts(db) == counts
    assert ben.view == ben_view and ben.view["claim"] is None

    for phone, win in ((avi, AVI_WIN), (cy, CY_WIN)):
        phone.ok(f"track-{phone.name}", {"kind": "track", "breakdown": win})
        assert phone.view["can_claim"] == {"open": True, "reason": None}
        view = phone.ok(f"claim-{phone.name}", {"kind": "claim", "breakdown": win})
        claim = view["claim"]
        assert (claim["status"], claim["points"], claim["turn"]) == ("pending", 25, 17)
        assert view["can_claim"] == {"open": False, "reason": "claim_pending"}
    dana.wait_view(lambda v: v["players"][0]["claim"] is not None, "Cy's claim on Dana's phone")
    assert dana.view["players"][0]["claim"]["status"] == "pending"
    counts = journal_counts(db)
    refused(avi.move("again", {"kind": "claim", "breakdown": AVI_WIN}), "catan/claim_pending")

    # A seat's token never makes a staff move: not over HTTP, not as a phone's move.
    as_seat = organizer.staff(ids[0], {"kind": "verify", "seat": 0, "resources": AVI_HAND},
                              key=seats[0]["token"])
    refused(as_seat, "auth/organizer", 401)
    as_phone = avi.move("verify", {"kind": "verify", "seat": 0, "resources": AVI_HAND})
    refused(as_phone, "move/invalid")
    no_claim = organizer.staff(ids[0], {"kind": "verify", "seat": 1, "resources": hand()})
    refused(no_claim, "catan/no_claim", 409)
    assert journal_counts(db) == counts

    games = organizer.hall()["games"]["catan-big"]
    assert [(c["name"], c["points"], c["turn"]) for c in games["claims"]] == [
        ("Avi", 25, 17), ("Cy", 25, 17)]
    assert games["claims"][1]["breakdown"] == CY_WIN and games["verified"] == []


def after_restart(organizer: Organizer, phones: list[Phone], before: dict[str, Any],
                  views: list[dict[str, Any]]) -> None:
    """The phones rejoin by token: the same views, turn (number, deadline) and claims."""
    after = organizer.hall()
    assert after["turn"] == before["turn"]
    assert after["games"] == before["games"]
    assert after["tables"] == before["tables"]
    for phone, view in zip(phones, views, strict=True):
        phone.wait(lambda p: bool(p.turns), "turn on rejoining")
        assert phone.turns == [before["turn"]], phone.name
        assert phone.view == view, phone.name
    # A request sent again after the restart gets its first answer and changes nothing.
    cy = phones[2]
    again = cy.move("claim-Cy", {"kind": "claim", "breakdown": CY_WIN})
    assert again["ok"] is True and again["view"]["seq"] == views[2]["seq"]


def the_game_over(organizer: Organizer, db: Path, phones: list[Phone], ids: list[str]) -> None:
    """Cy's claim verified with more cards in hand; the next roll ends the game; the winner,
    the standings, the final breakdowns."""
    eli, fay = phones[4:]
    status, table = organizer.staff(ids[1], {"kind": "verify", "seat": 0, "resources": CY_HAND})
    assert status == 200, table
    games = organizer.hall()["games"]["catan-big"]
    assert [c["name"] for c in games["verified"]] == ["Avi", "Cy"] and games["claims"] == []
    assert [c["resources"] for c in games["verified"]] == [AVI_HAND, CY_HAND]

    over = organizer.event("roll", {"dice": [5, 5]})
    refused(over, "event/over", 409)
    turn = same_for_everyone(phones, 17, over=True)
    assert turn["deadline_ms"] is None and turn["dice"] == [2, 3]
    view = organizer.hall()
    assert view["turn"] == turn and view["event"]["over"] is True
    assert view["rolls"][-1] == [2, 3] and len(view["rolls"]) == 17
    games = view["games"]["catan-big"]
    assert games["over"] is True
    assert games["winner"] == {"table": ids[1], "board": "A", "seat": 0, "name": "Cy",
                               "role": "sun", "registered": 7, "points": 25,
                               "decided_by": "resources"}
    standings = games["standings"]
    assert [(r["place"], r["name"], r["verified"]) for r in standings[:2]] == [
        (1, "Cy", True), (2, "Avi", True)]
    for phone in phones:
        shown = phone.wait_view(lambda v: v["over"] is True, "the game over")
        assert shown["can_final"] is True and shown["can_track"] is False
        assert shown["can_claim"] == {"open": False, "reason": "game_over"}
    counts = journal_counts(db)
    refused(eli.move("late", {"kind": "claim", "breakdown": AVI_WIN}), "rule/game_over")
    refused(fay.move("late", {"kind": "track", "breakdown": breakdown(3)}), "rule/game_over")
    refused(organizer.event("roll", {"dice": [1, 2]}), "event/over", 409)
    assert journal_counts(db) == counts

    # The final breakdowns for the standings (RULES.md 24).
    finals = {"Avi": (AVI_WIN, AVI_HAND), "Ben": (breakdown(4, 8), hand(1)),
              "Cy": (CY_WIN, CY_HAND), "Dana": (breakdown(5, 6, 1), hand(3)),
              "Eli": (breakdown(4, 8, 1), hand(2, 2)), "Fay": (breakdown(4, 8, 1), hand(4, 1))}
    for phone in phones:
        mine, cards = finals[phone.name]
        view = phone.ok(f"final-{phone.name}", {"kind": "final", "breakdown": mine,
                                                "resources": cards})
        assert view["final"]["breakdown"] == mine and view["final"]["resources"] == cards
    standings = organizer.hall()["games"]["catan-big"]["standings"]
    assert [(r["place"], r["name"], r["points"], r["verified"]) for r in standings] == [
        (1, "Cy", 25, True), (2, "Avi", 25, True), (3, "Fay", 22, False),
        (4, "Eli", 22, False), (5, "Ben", 20, False), (6, "Dana", 19, False)]


def test_catan_big_server_the_auto_roll_keeps_its_time_across_a_restart_and_ends_the_game(
        tmp_path: Path) -> None:
    """Turns of 10 s with auto-roll: a 7 pauses turn 1, a SIGKILL keeps the time left, the
    organizer resumes, the server's timer rolls turn 2 when its time is up (not before); a
    claim verified in turn 2 ends the game when turn 2's time is up, by the timer alone."""
    with catan_night(tmp_path) as night:
        organizer, db, tables = night.organizer, night.db, night.tables
        seats = [s for t in tables for s in t["seats"]]
        status, clock = organizer.event("clock", {"schedule": [[1, 10]], "auto_roll": True})
        assert status == 200 and clock["auto_roll"] is True, clock
        answer = organizer.roll([5, 2])
        assert answer["paused"] is True
        phones = night.connect(seats)
        paused = same_for_everyone(phones, 1, paused=True)
        assert (paused["deadline_ms"], paused["remaining_ms"]) == (None, 10_000)
        assert paused["rules"]["catan-big"] == {"team": "sun", "discard": True,
                                                "robber": {"action": "stay"}}

        phones = night.restart(seats, down=1.5)  # a paused turn loses no time meanwhile
        organizer = night.organizer
        assert same_for_everyone(phones, 1) == paused
        time.sleep(1.5)  # the timer's rounds go by: a paused turn is never rolled
        assert organizer.hall()["turn"] == paused and len(organizer.hall()["rolls"]) == 1

        resumed_at = now_ms()
        status, clock = organizer.event("resume")
        assert status == 200, clock
        first = clock["turn"]["deadline_ms"]
        assert resumed_at + 10_000 - 1000 <= first <= now_ms() + 10_000
        second = server_rolls_turn_2(organizer, phones, first)

        # Ben (Moon, board 1) claims 25 in turn 2 and the staff verify it: the timer
        # ends the game when turn 2's time is up, and rolls no turn 3.
        ben = phones[1]
        ben.ok("claim", {"kind": "claim", "breakdown": AVI_WIN})
        status, table = organizer.staff(tables[0]["id"], {"kind": "verify", "seat": 1,
                                                          "resources": hand(1)})
        assert status == 200, table
        over = same_for_everyone(phones, 2, seconds=(second - now_ms()) / 1000 + WAIT,
                                 over=True)
        assert min(phone.turn_arrived[-1] for phone in phones) >= second
        assert over["deadline_ms"] is None and over["dice"] == organizer.hall()["rolls"][-1]
        games = organizer.hall()["games"]["catan-big"]
        assert games["over"] is True and games["winner"]["name"] == "Ben"
        assert games["winner"]["decided_by"] == "points"
        kinds = event_records(db, organizer.event_id)
        rolls = [author for kind, author in kinds if kind == "hall_rolled"]
        assert rolls == ["organizer", "timer"]
        assert kinds[-1] == ("game_over", "timer")
        refused(organizer.event("roll", {"dice": [1, 2]}), "event/over", 409)


def server_rolls_turn_2(organizer: Organizer, phones: list[Phone], first: int) -> int:
    """The timer's roll of turn 2 when turn 1's time (deadline `first`) is up, and not before;
    the organizer resumes it if its dice make a 7. Turn 2's deadline."""
    turn = same_for_everyone(phones, 2, seconds=(first - now_ms()) / 1000 + WAIT)
    assert min(phone.turn_arrived[-1] for phone in phones) >= first
    assert turn["rules"]["catan-big"]["team"] == "moon"
    if turn["paused"]:  # the timer's dice made a 7: the clock waits for the organizer
        assert sum(turn["dice"]) == 7 and turn["deadline_ms"] is None
        assert organizer.event("resume")[0] == 200
        turn = same_for_everyone(phones, 2, paused=False)
        return int(turn["deadline_ms"])
    second = int(turn["deadline_ms"])
    assert first + 10_000 <= second <= first + 10_000 + 5000  # the timer rolls within its round
    return second


def test_catan_big_server_an_undone_roll_leaves_no_claim_of_its_turn(tmp_path: Path) -> None:
    """A Catan roll moves no board, so the undo asks the boards' journals: a claim made in
    the turn refuses the undo (roll/moved_on), and the claim keeps its turn (RULES.md 21, 23)."""
    with catan_night(tmp_path) as night:
        organizer, db, tables = night.organizer, night.db, night.tables
        avi = night.connect(tables[0]["seats"])[0]
        for pair in ([2, 4], [5, 5], [2, 3]):
            organizer.roll(pair)
        avi.wait_turn(3)  # the Sun team's
        avi.ok("claim", {"kind": "claim", "breakdown": AVI_WIN})
        status, table = organizer.staff(tables[0]["id"], {"kind": "verify", "seat": 0,
                                                          "resources": AVI_HAND})
        assert status == 200, table
        counts = journal_counts(db)

        undo = organizer.event("roll/undo")
        view = organizer.hall()
        assert "Board 1" in refused(undo, "roll/moved_on", 409)  # the board moved on
        assert journal_counts(db) == counts and view["turn"]["number"] == 3
        verified = view["games"]["catan-big"]["verified"]
        assert [(c["name"], c["turn"]) for c in verified] == [("Avi", 3)]
