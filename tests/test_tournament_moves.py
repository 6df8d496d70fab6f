"""Phones move by themselves between a tournament's rounds (docs/api.md, `moved`): real
python-socketio phones of a served hall sit at their round-1 seats; when the organizer starts
round 2 every one of them gets its own player's link, and that link leads to the player's seat
of round 2. (The semi-finals' and the final's: tests/test_tournament_semis.py.)"""

from __future__ import annotations

import threading

import pytest
from serverproc import ServerProcess, organizer_key
from socket_phone import Phone
from test_tournament_server import follow, organizer_call, started_tournament

NAMES = [f"Player {n:02}" for n in range(1, 13)]


class MovedPhone(Phone):
    """A seat's phone that also keeps the `moved` messages it gets."""

    def __init__(self, url: str, token: str) -> None:
        self.moved: list[dict] = []
        self.got = threading.Event()
        super().__init__(url, token)
        self.client.on("moved", self._on_moved)

    def _on_moved(self, message: dict) -> None:
        self.moved.append(message)
        self.got.set()


@pytest.mark.slow
def test_every_phone_of_round_one_is_sent_to_its_seat_of_round_two(tmp_path):
    with ServerProcess(tmp_path / "moves.db", log_path=tmp_path / "server.log") as server:
        server.start()
        url = server.url
        call = organizer_call(url, organizer_key(server))
        base, tokens = started_tournament(call, "Moving cup", NAMES, 2)
        first = call(f"{base}/rounds/start")["seating"]
        phones: dict[str, MovedPhone] = {}
        try:
            for table in first["tables"]:
                for name in table["players"]:
                    phones[name] = MovedPhone(url, follow(url, tokens[name]))
                    phones[name].wait_for(0)
            call(f"{base}/rounds/close")
            second = call(f"{base}/rounds/start")["seating"]
            assert second["round"] == 2
            where = {name: (table["name"], position)
                     for table in second["tables"]
                     for position, name in enumerate(table["players"])}
            for name, phone in phones.items():
                assert phone.got.wait(10), f"{name}'s phone was not moved"
                assert phone.moved == [{"join": f"/t/{tokens[name]}", "round": 2}], name
                seat_token = follow(url, phone.moved[0]["join"].removeprefix("/t/"))
                moved = Phone(url, seat_token)
                try:
                    view = moved.wait_for(0)
                    assert (view["table"]["name"], view["seat"]) == where[name]
                    assert view["players"][view["seat"]]["name"] == name
                finally:
                    moved.client.disconnect()
        finally:
            for phone in phones.values():
                phone.client.disconnect()
