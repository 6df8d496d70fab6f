"""A 64-player tournament end to end against a served hall in a subprocess (issue 25): every
player's phone is a python-socketio client that does what the phone pages do. It opens the
player link `/t/TOKEN` before round 1 and waits on the "where do I sit?" page (a `player`
connection); at each round's start `moved` takes it to its seat (`/t/TOKEN` -> `/j/SEAT`), and
from a seat to the next. Tables play real games (a win at the first table of each round, rolls
at the others). In the middle of round 2 the server is killed (SIGKILL) and started again:
every phone reconnects by itself and is on its seat, with every acknowledged move still there
(no result lost); the standings after every round are those the games' last views give
(RULES.md 26-27); the final's winner heads the ranking (RULES.md 28).

The figures (how long 64 phones took to reach their seats, to come back after the kill) are
printed: `pytest -s tests/test_tournament_sixty_four.py`."""

from __future__ import annotations

import http.client
import threading
import time
from fractions import Fraction
from urllib.parse import parse_qs, urlsplit

import pytest
import socketio
from serverproc import ServerProcess, http_json, organizer_key
from socket_phone import follow_views
from test_tournament_server import (
    add_points,
    check_points,
    cost,
    give_landmark_coins,
    organizer_call,
    play_to_the_win,
)

NAMES = [f"Player {n:02}" for n in range(1, 64)] + ["יעל כהן"]
SETTLE = 30.0  # seconds the phones may take to reach their seats


def location(url: str, path: str) -> str:
    """Where the server redirects `path` (a 302's Location, as a path and query)."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        assert response.status == 302, (path, response.status)
        found = urlsplit(response.getheader("Location") or "")
    finally:
        connection.close()
    return found.path + (f"?{found.query}" if found.query else "")


class PlayerPhone:
    """One player's phone: on the "where do I sit?" page (a `player` connection) or at a seat
    (a seat connection); a `moved` message is followed as the pages follow it, the player link
    leading to the seat or back to the page. Both connections reconnect by themselves."""

    def __init__(self, url: str, name: str, token: str) -> None:
        self.url, self.name, self.token = url, name, token
        self.lock = threading.Condition()
        self.client: socketio.Client | None = None
        self.seat_token: str | None = None
        self.view: dict | None = None
        self.moves = 0  # `moved` messages followed
        self.wrong: list[dict] = []  # `moved` messages with another player's link
        self.open_link()

    # -------------------------------------------------------------- following the links

    def open_link(self) -> None:
        """Open the player link, as a scanned card does, and connect where it leads."""
        where = location(self.url, f"/t/{self.token}")
        if where.startswith("/j/"):
            self.connect({"token": where.removeprefix("/j/")}, where.removeprefix("/j/"))
            return
        query = parse_qs(urlsplit(where).query)
        assert where.startswith("/tournament/") and query["player"] == [self.token], where
        assert query["name"] == [self.name], where
        self.connect({"player": self.token}, None)

    def connect(self, auth: dict, seat_token: str | None) -> None:
        client = socketio.Client(reconnection=True, reconnection_delay=0.5,
                                 reconnection_delay_max=2)
        follow_views(client, self._on_view)  # `view` and `table` messages, as the page keeps them
        client.on("moved", self._on_moved)
        with self.lock:
            old, self.client, self.seat_token, self.view = self.client, client, seat_token, None
        if old is not None:
            old.disconnect()  # the page is left
        client.connect(self.url, auth=auth, transports=["websocket"], wait_timeout=10)

    def _on_moved(self, message: dict) -> None:
        with self.lock:
            self.moves += 1
            if message.get("join") != f"/t/{self.token}":
                self.wrong.append(message)
                return
        threading.Thread(target=self.open_link, daemon=True).start()  # the page navigates

    def _on_view(self, view: dict) -> None:
        with self.lock:
            if self.view is None or view["seq"] >= self.view["seq"]:
                self.view = view
            self.lock.notify_all()

    # -------------------------------------------------------------- as tests/socket_phone.py

    def wait_for(self, seq: int, timeout: float = 15.0) -> dict:
        deadline = time.monotonic() + timeout
        with self.lock:
            while self.view is None or self.view["seq"] < seq:
                left = deadline - time.monotonic()
                assert left > 0, f"{self.name}: no view with seq >= {seq}"
                self.lock.wait(left)
            return self.view

    def move(self, request_id: str, move: dict) -> dict:
        assert self.client is not None
        ack = self.client.call("move", {"request_id": request_id, "move": move}, timeout=15)
        assert ack["ok"], (self.name, move, ack)
        self._on_view(ack["view"])
        return ack["view"]

    def at(self, table: str, position: int) -> bool:
        """On the seat `position` of `table`, connected, with its view."""
        with self.lock:
            view, client = self.view, self.client
        return (client is not None and client.connected and view is not None
                and view["table"]["name"] == table and view["seat"] == position
                and view["players"][position]["name"] == self.name)

    def close(self) -> None:
        with self.lock:
            client, self.client = self.client, None
        if client is not None:
            client.disconnect()


def wait_until(check, timeout: float = SETTLE) -> float:
    """Seconds until `check()` holds (asserted within `timeout`)."""
    start = time.monotonic()
    while not check():
        assert time.monotonic() - start < timeout, "not within the time"
        time.sleep(0.05)
    return time.monotonic() - start


def seated(phones: dict[str, PlayerPhone], seating: dict) -> list[list[PlayerPhone]]:
    """The phones of each table of `seating`, in start order, once every one is on its seat."""
    tables = [[phones[name] for name in table["players"]] for table in seating["tables"]]
    wait_until(lambda: all(phone.at(table["name"], position)
                           for table, at_table in zip(seating["tables"], tables, strict=True)
                           for position, phone in enumerate(at_table)))
    return tables


def scores_of(seating: dict, tables: list[list[PlayerPhone]], winner: str | None) -> dict:
    """Each table's (name, landmarks, what they cost, coins) as its phones show them: the
    newest view among them (the mover's ack is; another phone's message may still be on its
    way)."""
    scores: dict = {"winner": winner}
    for table, at_table in zip(seating["tables"], tables, strict=True):
        views = [phone.view for phone in at_table if phone.view is not None]
        assert views
        view = max(views, key=lambda seen: seen["seq"])
        scores[table["table"]] = [(p["name"], len(p["landmarks"]), cost(p["landmarks"]),
                                   p["coins"]) for p in view["players"]]
    return scores


def roll_everywhere(tables: list[list[PlayerPhone]], tag: str) -> None:
    """A roll at every table but the first (whose game is won): its active player ends the
    turn if they must, and the next one rolls."""
    for number, at_table in enumerate(tables[1:], start=2):
        view = at_table[0].view
        assert view is not None
        for step in range(3):
            active = at_table[view["active"]]
            kinds = {c["kind"] for c in active.wait_for(view["seq"])["choices"]}
            if "roll" in kinds:
                active.move(f"{tag}-t{number}-{step}", {"kind": "roll"})
                break
            assert "end_turn" in kinds, kinds
            view = active.move(f"{tag}-t{number}-{step}", {"kind": "end_turn"})


@pytest.mark.slow
def test_sixty_four_players_follow_their_phones_through_a_server_kill(tmp_path):
    figures: dict[str, float | int] = {}
    with ServerProcess(tmp_path / "cup.db", log_path=tmp_path / "server.log") as server:
        server.start()
        url = server.url
        key = organizer_key(server)
        call = organizer_call(url, key)
        event = call("/api/events", {"name": "Sixty-four cup"})
        base = f"/api/events/{event['id']}/tournament"
        created = call(base, {"players": "\n".join(NAMES), "rounds": 3})
        call(f"{base}/start")
        tokens = {p["name"]: p["token"] for p in created["players"]}
        phones = {name: PlayerPhone(url, name, tokens[name]) for name in NAMES}  # at check-in
        expected: dict[str, list] = {name: [Fraction(0), 0] for name in NAMES}
        try:
            for number in (1, 2, 3):
                started = time.monotonic()
                seating = call(f"{base}/rounds/start")["seating"]
                tables = seated(phones, seating)
                figures[f"round {number}: 64 phones on their seats (s)"] = time.monotonic() - started
                give_landmark_coins(url, key, base, tables[0], 1)
                play_to_the_win(tables[0], 1, f"r{number}-t1")
                roll_everywhere(tables, f"r{number}")
                if number == 2:
                    figures.update(kill_and_come_back(server, phones, seating, tables))
                    roll_everywhere(tables, "r2-after")  # the tables play on
                scores = scores_of(seating, tables, seating["tables"][0]["players"][1])
                closed = call(f"{base}/rounds/close")
                assert closed["played"] == number
                add_points(expected, scores)
                check_points(closed["standings"], expected)
            standing = call(f"{base}/public", method="GET")["standings"]
            # 64 players: the top 16 play four semi-finals first (RULES.md 28)
            started = time.monotonic()
            semis = call(f"{base}/final")["seating"]
            assert semis["stage"] == "semi-final" and len(semis["tables"]) == 4
            in_semis = {name for table in semis["tables"] for name in table["players"]}
            cut = sorted(line["rank"] for line in standing)[15]
            assert len(in_semis) == 16
            assert {line["name"] for line in standing if line["rank"] < cut} <= in_semis
            seated(phones, semis)
            out = [phone for name, phone in phones.items() if name not in in_semis]
            wait_until(lambda: all(waiting(phone) for phone in out))
            figures["semi-finals: 16 phones on their seats, 48 on the page (s)"] = \
                time.monotonic() - started
            ids = call(base, method="GET")["played_rounds"][-1]["tables"]
            for table_id in ids:
                richest(url, key, table_id, 3)  # the last seed ends each semi-final first
            call(f"{base}/rounds/close")
            started = time.monotonic()
            final = call(f"{base}/final")["seating"]
            top = final["tables"][0]["players"]
            assert set(top) == {table["players"][3] for table in semis["tables"]}
            at_final = seated(phones, final)[0]
            figures["final: 4 phones on their seats (s)"] = time.monotonic() - started
            out = [phone for name, phone in phones.items() if name not in top]
            wait_until(lambda: all(waiting(phone) for phone in out))
            give_landmark_coins(url, key, base, at_final, 2)
            play_to_the_win(at_final, 2, "final")
            done = call(f"{base}/rounds/close")
            assert done["stage"] == "done"
            assert done["ranking"][0] == {"rank": 1, "name": top[2], "stage": "final"}
            assert [r["stage"] for r in done["ranking"]] == \
                ["final"] * 4 + ["semi-final"] * 12 + ["preliminaries"] * 48
            assert all(phone.moves >= 3 and not phone.wrong for phone in phones.values())
        finally:
            for phone in phones.values():
                phone.close()
    for label, value in figures.items():
        print(f"{label}: {value:.2f}" if isinstance(value, float) else f"{label}: {value}")


def waiting(phone: PlayerPhone) -> bool:
    """On the "where do I sit?" page, connected (a player out of this round)."""
    client = phone.client
    return phone.seat_token is None and client is not None and client.connected


def richest(url: str, key: str, table_id: str, seat: int) -> None:
    """A correction gives seat `seat` of the table far more coins than the others."""
    status, answer = http_json(f"{url}/api/tables/{table_id}/adjust", method="POST", key=key,
                               body={"seat": seat, "amount": 40, "reason": "64-player test"})
    assert status == 200, answer


def kill_and_come_back(server: ServerProcess, phones: dict[str, PlayerPhone], seating: dict,
                       tables: list[list[PlayerPhone]]) -> dict[str, float | int]:
    """SIGKILL the server mid-round with every table's last acknowledged view noted; start it
    again: every phone comes back to its seat by itself, and every table shows at least what it
    showed before (the seq, the coins, the landmarks, the first table's win)."""
    before = {table["name"]: max((phone.view for phone in at_table if phone.view),
                                 key=lambda view: view["seq"])
              for table, at_table in zip(seating["tables"], tables, strict=True)}
    acknowledged = sum(view["seq"] for view in before.values())
    killed = time.monotonic()
    server.kill()
    server.start()
    back = time.monotonic()
    seated(phones, seating)
    for table, at_table in zip(seating["tables"], tables, strict=True):
        old = before[table["name"]]
        assert old is not None
        new = at_table[0].wait_for(old["seq"])
        assert new["seq"] == old["seq"], table["name"]  # nothing lost, nothing made up
        assert [(p["coins"], p["landmarks"]) for p in new["players"]] == \
            [(p["coins"], p["landmarks"]) for p in old["players"]], table["name"]
        assert new["result"] == old["result"]
    assert before[seating["tables"][0]["name"]]["result"] is not None, "the won game stands"
    return {"round 2: table journal entries acknowledged before the SIGKILL, all there after":
            acknowledged,
            "round 2: server restarted after SIGKILL (s)": back - killed,
            "round 2: 64 phones back on their seats after the restart (s)": time.monotonic() - back}
