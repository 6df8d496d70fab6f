"""The draw at the cut in Chromium (RULES.md 28, issue 25 item 5): eight players, one round
closed before anyone played, so all eight are equal; the projector (1920x1080) and the
console's tournament panel name them as equal at the cut for the four seats of the final; once
the organizer starts the final the server's draw is shown as a draw: who plays on, who not.
The panel's "Results as a spreadsheet" link downloads the tournament's CSV (issue 25 item 9)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from playwright.sync_api import expect

from browser.axe import axe_report, axe_violations
from browser.conftest import console_page, contrast_problems, english_words

NAMES = [f"Player {n}" for n in range(1, 9)]


def test_ruling_28_the_tied_players_and_the_draw_on_the_projector_and_the_console(
        screen, hall_server, snap):
    event = hall_server.api("POST", "/api/events", {"name": "Draw cup"}, expect=201)
    base = f"/api/events/{event['id']}/tournament"
    hall_server.api("POST", base, {"players": "\n".join(NAMES), "rounds": 1}, expect=201)
    hall_server.api("POST", f"{base}/start", expect=200)
    hall_server.api("POST", f"{base}/rounds/start", expect=200)
    hall_server.api("POST", f"{base}/rounds/close", expect=200)

    projector = screen(1920, 1080).new_page()
    projector.goto(f"{hall_server.url}/tournament/{event['id']}/screen")
    box = projector.locator("#cut-draw")
    expect(box).to_be_visible()
    expect(box.locator("#cut-draw-line")).to_have_text(
        "Equal at the cut for 4 of the 4 seats of the final: the server draws among them when "
        "the final starts.")
    expect(box.locator("li")).to_have_text(NAMES)
    assert box.evaluate("e => e.getBoundingClientRect().bottom") <= 1080
    snap(projector, "tournament-cut-before-draw-1920x1080")

    console = console_page(screen, hall_server, width=1366, height=900, event_id=event["id"])
    panel = console.locator("#tournament")
    expect(panel.locator("#cut-draw li")).to_have_text(NAMES)
    panel.get_by_role("button", name="Start the final").click()
    expect(panel.locator("#cut-draw-line")).to_have_text(
        "Drawn by the server among the players equal at the cut, for 4 of the 4 seats:")
    final = hall_server.api("GET", base)["seating"]["tables"][0]["players"]
    expect(panel.locator('#cut-draw li[data-drawn="in"]')).to_have_count(4)
    for name in NAMES:
        expect(panel.locator("#cut-draw li", has_text=name)).to_contain_text(
            "drawn: plays on" if name in final else "not drawn")
    panel.locator("#cut-draw").scroll_into_view_if_needed()
    snap(console, "console-tournament-cut-drawn")

    # the projector follows by itself
    expect(box.locator('li[data-drawn="in"]')).to_have_count(4, timeout=12_000)
    expect(box.locator("#cut-draw-line")).to_contain_text("Drawn by the server")
    snap(projector, "tournament-cut-drawn-1920x1080")
    for page, where in ((projector, "projector"), (console, "console")):
        violations = axe_violations(page, "#cut-draw")
        assert not violations, where + ": " + axe_report(violations)
    assert contrast_problems(projector, "dark") == []

    # in Hebrew, right to left, every word translated
    hebrew = screen(1920, 1080, locale="he-IL").new_page()
    hebrew.goto(f"{hall_server.url}/tournament/{event['id']}/screen?lang=he")
    expect(hebrew.locator('#cut-draw li[data-drawn="in"]')).to_have_count(4)
    expect(hebrew.locator("#cut-draw-line")).to_contain_text("הוגרל על ידי השרת")
    assert english_words(hebrew, ("Draw", "cup", "Player", "Final")) == []
    snap(hebrew, "tournament-cut-drawn-he-1920x1080")

    # the results as a spreadsheet, from the console's panel: downloaded and parsed
    link = panel.get_by_role("link", name="Results as a spreadsheet")
    with console.expect_download() as download:
        link.click()
    assert download.value.suggested_filename == f"event-{event['id']}-tournament.csv"
    text = Path(download.value.path()).read_text(encoding="utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["player"] for r in rows if r["kind"] == "standing"] == NAMES
    finalists = [(r["seat"], r["player"]) for r in rows if r["kind"] == "seat" and r["stage"] == "final"]
    assert finalists == [(str(seat), name) for seat, name in enumerate(final, start=1)]
