"""The phone page applies the `table` messages (docs/api.md) with its own script
(static/js/play.js `viewAfter`): after hall rolls, corrections and another seat's moves, the
view it holds and draws is exactly the seat view the server sends a phone that connects now,
and it got there from the messages alone (no `view` push, no `sync`). A phone that missed
messages asks `sync` and draws the table as it is."""

from __future__ import annotations

import re
import threading
from typing import Any

from playwright.sync_api import WebSocketRoute, expect
from socket_phone import Phone

from browser.conftest import join_seat as join

LISTEN = ("window.views = []; "
          "document.addEventListener('companion:view', (e) => window.views.push(e.detail));")


class Frames:
    """The phone's Socket.IO frames, both ways; while `holding`, `table` messages are dropped."""

    def __init__(self) -> None:
        self.from_server: list[str] = []
        self.from_page: list[str] = []
        self.holding = threading.Event()
        self.dropped = threading.Event()

    def route(self, page_side: WebSocketRoute) -> None:
        server = page_side.connect_to_server()

        def down(message: str | bytes) -> None:
            if isinstance(message, str):
                if self.holding.is_set() and message.startswith('42["table",'):
                    self.dropped.set()
                    return
                self.from_server.append(message)
            page_side.send(message)

        def up(message: str | bytes) -> None:
            if isinstance(message, str):
                self.from_page.append(message)
            server.send(message)

        server.on_message(down)
        page_side.on_message(up)

    def events(self, frames: list[str], name: str) -> int:
        return sum(1 for frame in frames if re.match(rf'^42\d*\["{name}"', frame))


def without_clock(view: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in view.items() if key != "waited"}


def server_view(hall_server: Any, token: str) -> dict[str, Any]:
    """The seat view the server sends a phone connecting now."""
    fresh = Phone(hall_server.url, token)
    try:
        return fresh.wait_for(0)
    finally:
        fresh.client.disconnect()


def test_phone_applies_table_messages_to_exactly_the_servers_view(phone, hall_server):
    event = hall_server.create_event("Patches", [("Table 1", ["Ann", "Bo", "Cy"], "hall"),
                                                 ("Table 2", ["Dan", "Eve"], "hall")])
    table = event["tables"][0]
    seats = table["seats"]
    frames = Frames()
    context = phone()
    context.route_web_socket(re.compile(r"/socket\.io/"), frames.route)
    context.add_init_script(LISTEN)
    ann = join(context, hall_server, seats[0]["join_path"])
    bo = Phone(hall_server.url, seats[1]["token"])

    def adjust(seat: int, amount: int, reason: str) -> None:
        body = {"seat": seat, "amount": amount, "reason": reason}
        hall_server.api("POST", f"/api/tables/{table['id']}/adjust", body)

    try:
        adjust(0, 5, "gift")
        hall_server.roll(event["id"], (4, 4))  # Ann rolls 4, builds now
        expect(ann.locator("#coins")).to_have_text("8")
        hall_server.roll(event["id"], (2, 3))  # Bo's turn: he rolls 2
        bo.wait_for(hall_server.first_table(event["id"])["seq"])
        bo.move("b1", {"kind": "build", "card": "wheat_field"})  # another seat's move
        adjust(2, 2, "fix")
        seq = hall_server.first_table(event["id"])["seq"]
        ann.wait_for_function("(seq) => window.views.length && window.views.at(-1).seq === seq", arg=seq)
        held = ann.evaluate("window.views.at(-1)")
        assert without_clock(held) == without_clock(server_view(hall_server, seats[0]["token"]))
        expect(ann.locator("#players")).to_contain_text("Bo")
        assert frames.events(frames.from_server, "table") >= 5, frames.from_server
        assert frames.events(frames.from_server, "view") == 1, "only the view on connect is whole"
        assert frames.events(frames.from_page, "sync") == 0, "every message applied to the view held"

        frames.holding.set()  # Ann's phone misses a correction ...
        adjust(0, 3, "late")
        for _ in range(200):  # the route's handlers run while Playwright is waited on
            if frames.dropped.is_set():
                break
            ann.wait_for_timeout(50)
        assert frames.dropped.is_set(), "the correction's message was held back"
        frames.holding.clear()
        adjust(1, 1, "next")
        seq = hall_server.first_table(event["id"])["seq"]
        ann.wait_for_function("(seq) => window.views.at(-1).seq === seq", arg=seq)
        assert frames.events(frames.from_page, "sync") == 1, "... sees the gap and asks once"
        expect(ann.locator("#coins")).to_have_text(str(held["players"][0]["coins"] + 3))
        held = ann.evaluate("window.views.at(-1)")
        assert without_clock(held) == without_clock(server_view(hall_server, seats[0]["token"]))
    finally:
        bo.client.disconnect()
