"""The console's tournament panel with 17 players at 1366x900 has no serious axe-core finding:
its player list, a scroll box, is reached by the keyboard (issue 25, item 10); and in a
tournament event the ordinary hall screen `/hall/ID` goes to the tournament's projector page
(item 6), which ranks players, not seats per table."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from browser.axe import axe_report, axe_violations
from browser.conftest import console_page

NAMES = [f"Player {n:02}" for n in range(1, 18)]


def test_the_console_tournament_player_list_is_reached_by_the_keyboard(screen, hall_server, snap):
    event = hall_server.api("POST", "/api/events", {"name": "Axe cup"}, expect=201)
    base = f"/api/events/{event['id']}/tournament"
    hall_server.api("POST", base, {"players": "\n".join(NAMES), "rounds": 1}, expect=201)
    hall_server.api("POST", f"{base}/start", expect=200)
    hall_server.api("POST", f"{base}/rounds/start", expect=200)
    page = console_page(screen, hall_server, width=1366, height=900, event_id=event["id"])
    box = page.locator(".tournament-players-box")
    expect(page.locator("#tournament-players-list tr")).to_have_count(17)
    assert box.evaluate("e => e.scrollHeight > e.clientHeight"), "a scroll box"
    violations = axe_violations(page, "#tournament")
    assert not violations, axe_report(violations)
    # the keyboard reaches it: Tab from the late arrival's button, then arrows scroll it
    page.locator("#tournament-late button").focus()
    page.keyboard.press("Tab")
    expect(box).to_be_focused()
    page.keyboard.press("PageDown")
    page.wait_for_function("() => document.querySelector('.tournament-players-box').scrollTop > 0")
    box.scroll_into_view_if_needed()
    snap(page, "console-tournament-players-focused")
    # at the end no row has a button: the box itself must take the focus (axe's finding)
    hall_server.api("POST", f"{base}/rounds/close", expect=200)
    hall_server.api("POST", f"{base}/final", expect=200)
    hall_server.api("POST", f"{base}/rounds/close", expect=200)
    page.reload()
    expect(page.locator("#tournament-stage")).to_contain_text("over")
    expect(page.locator("#tournament-players-list button")).to_have_count(0)
    violations = axe_violations(page, "#tournament")
    assert not violations, axe_report(violations)


def test_the_hall_screen_of_a_tournament_event_shows_the_tournament(screen, hall_server):
    event = hall_server.api("POST", "/api/events", {"name": "Hall cup"}, expect=201)
    base = f"/api/events/{event['id']}/tournament"
    hall_server.api("POST", base, {"players": "\n".join(NAMES[:12])}, expect=201)
    page = screen(1920, 1080).new_page()
    page.goto(f"{hall_server.url}/hall/{event['id']}")
    expect(page).to_have_url(re.compile(rf"/tournament/{event['id']}/screen$"))
    expect(page.locator("#stage")).to_have_text("Registration: the seating appears at the start.")
    # an event without a tournament keeps its hall screen
    plain = hall_server.create_event("Plain night", [("Table A", ["Ana", "Ben"], "own")])
    page.goto(f"{hall_server.url}/hall/{plain['id']}")
    expect(page).to_have_url(re.compile(rf"/hall/{plain['id']}$"))
