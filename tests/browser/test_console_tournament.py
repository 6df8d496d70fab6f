"""The console's tournament panel in Chromium at 1280x800 against a served hall: a refused
registration says what to change next to the form; a tournament of 12 (a keep-apart pair, a
45-minute round) is created from the console, started, and its round 1 started, whose tables
then show in the console's list; a player drops; the links lead to the projector page, the
phone page and the paper."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from browser.conftest import console_page

NAMES = [f"Player {n:02}" for n in range(1, 13)]


def test_console_creates_a_tournament_of_twelve_and_starts_round_one(screen, hall_server, guard,
                                                                     snap):
    guard.allow(r"status of 400")  # the refused registration, provoked on purpose
    event = hall_server.api("POST", "/api/events", {"name": "Console cup"}, expect=201)
    page = console_page(screen, hall_server, height=800, event_id=event["id"])
    panel = page.locator("#tournament")
    form = page.locator("#tournament-form")
    expect(form).to_be_visible()

    # five players cannot be seated: refused, said in the form, nothing created
    form.get_by_label("Players of the tournament, one name a line").fill("\n".join(NAMES[:5]))
    form.get_by_role("button", name="Create the tournament").click()
    expect(form.locator("#notice")).to_contain_text("add or remove one player")
    expect(form).to_be_visible()

    form.get_by_label("Players of the tournament, one name a line").fill("\n".join(NAMES) + "\n\n")
    form.get_by_label("Keep apart").fill("Player 01, Player 02")
    form.get_by_label("Preliminary rounds").fill("3")
    form.get_by_label("Round time in minutes").fill("45")
    form.scroll_into_view_if_needed()
    snap(page, "console-tournament-form")
    form.get_by_role("button", name="Create the tournament").click()
    stage = page.locator("#tournament-stage")
    expect(stage).to_have_text("Registration: 12 of 12 players are present; 3 preliminary rounds.")
    expect(page.locator("#tournament-players-list tr")).to_have_count(12)
    # a player not there yet, then checked in again
    row = page.locator("#tournament-players-list tr", has_text="Player 12")
    row.get_by_role("button", name="Mark absent").click()
    expect(stage).to_contain_text("11 of 12 players are present")
    row.get_by_role("button", name="Check in").click()
    expect(stage).to_contain_text("12 of 12 players are present")

    panel.get_by_role("button", name="Start the tournament").click()
    expect(stage).to_have_text("Seated: round 1 is next.")
    panel.get_by_role("button", name="Start round 1").click()
    expect(stage).to_have_text("Playing round 1.")
    expect(panel.get_by_role("button", name="Close round 1")).to_be_visible()
    expect(panel.get_by_role("button", name="Start round 2")).to_be_hidden()
    expect(page.locator("#overview")).to_contain_text("R1 T3")
    shown = hall_server.api("GET", f"/api/events/{event['id']}/tournament")
    assert shown["current"] == {**shown["current"], "round": 1, "open": True}
    assert shown["round_minutes"] == 45 and shown["keep_apart"] == [["Player 01", "Player 02"]]
    for table in shown["played_rounds"][0]["seating"]:
        assert not {"Player 01", "Player 02"} <= set(table), "kept apart"
    tables = hall_server.api("GET", f"/api/events/{event['id']}")["tables"]
    assert sorted(t["name"] for t in tables) == ["R1 T1", "R1 T2", "R1 T3"]
    assert all(t["status"] == "running" for t in tables)

    # starting another round while this one is open is refused by the server, said in words
    expect(page.locator("#tournament-screen-link")).to_have_attribute(
        "href", re.compile(rf"^/tournament/{event['id']}/screen"))
    expect(page.locator("#tournament-phone-link")).to_have_attribute(
        "href", re.compile(rf"^/tournament/{event['id']}\?"))
    for kind in ("seating", "score-sheets", "standings", "cards"):
        href = page.locator(f"[data-tournament-print={kind}]").get_attribute("href")
        assert href == f"/tournament/{event['id']}/prints/{kind}.pdf?paper=a4&lang=en"
        status = page.evaluate("async (url) => (await fetch(url)).status", href)
        assert status == 200, kind
    panel.scroll_into_view_if_needed()
    snap(page, "console-tournament-round-1")

    page.on("dialog", lambda dialog: dialog.accept())
    row = page.locator("#tournament-players-list tr", has_text="Player 07")
    row.get_by_role("button", name="Drop").click()
    expect(page.locator("#notice")).to_have_text("Player 07 has dropped.")
    expect(row).to_contain_text("dropped")
    panel.get_by_role("button", name="Close round 1").click()
    expect(stage).to_have_text("Between rounds: round 1 is closed.")
    expect(panel.get_by_role("button", name="Start round 2")).to_be_visible()
