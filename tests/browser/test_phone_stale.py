"""A phone that shows a view the table has left behind (its updates held back on the way): a
tap on it is refused `move/stale` (docs/api.md), and the phone draws the fresh view from the
refusal and says the table changed; the same tap on the fresh view goes through."""

from __future__ import annotations

import re
import threading

from playwright.sync_api import WebSocketRoute, expect

from browser.conftest import join_seat as join

VIEW_FRAME = re.compile(r'^42\["(view|table)",')  # a Socket.IO event `view` or `table` (wire.py)


class HeldViews:
    """Routes a phone's Socket.IO connection through the test: while `holding` is set, the
    server's `view` pushes and `table` messages are dropped, so the page keeps showing the view it has."""

    def __init__(self) -> None:
        self.holding = threading.Event()
        self.dropped = 0

    def route(self, page_side: WebSocketRoute) -> None:
        server = page_side.connect_to_server()

        def from_server(message: str | bytes) -> None:
            if self.holding.is_set() and isinstance(message, str) and VIEW_FRAME.match(message):
                self.dropped += 1
                return
            page_side.send(message)

        server.on_message(from_server)


def test_phone_stale_view_gets_the_notice_and_the_fresh_view(phone, hall_server):
    event = hall_server.create_event("Stale", [("Table 1", ["Ann", "Bo", "Cy"], "hall")])
    table = event["tables"][0]
    held = HeldViews()
    context = phone()
    context.route_web_socket(re.compile(r"/socket\.io/"), held.route)
    ann = join(context, hall_server, table["seats"][0]["join_path"])
    hall_server.api("POST", f"/api/tables/{table['id']}/adjust", {"seat": 0, "amount": 5, "reason": "gift"})
    hall_server.roll(event["id"], (4, 4))  # Ann rolls 4: nothing pays; she builds now
    expect(ann.locator("#coins")).to_have_text("8")
    expect(ann.locator('button[data-card="wheat_field"]')).to_be_enabled()

    held.holding.set()  # the organizer's correction does not reach Ann's screen
    hall_server.api("POST", f"/api/tables/{table['id']}/adjust", {"seat": 0, "amount": -3, "reason": "fix"})
    ann.locator('button[data-card="wheat_field"]').tap()
    ann.locator("#confirm-ok").tap()
    expect(ann.locator("#notice")).to_have_text("The table changed; check and tap again.")
    expect(ann.locator("#coins")).to_have_text("5")  # the fresh view, from the refusal
    expect(ann.locator("#breakdown")).to_contain_text("−3 correction: fix")
    assert held.dropped >= 1, "the correction's view was held back"
    assert hall_server.coins(event["id"])[("Table 1", "Ann")] == 5, "the stale tap built nothing"

    held.holding.clear()
    ann.locator('button[data-card="wheat_field"]').tap()  # the same tap, on the fresh view
    ann.locator("#confirm-ok").tap()
    expect(ann.locator("#notice")).to_have_text("Built: Wheat Field.")
    expect(ann.locator("#coins")).to_have_text("4")
    assert hall_server.coins(event["id"])[("Table 1", "Ann")] == 4
