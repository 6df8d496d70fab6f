"""The organizer console at hall scale (issue 16, items 3 and 13), in a real Chromium against a
served hall of 1,100 players at 275 tables: an overview that fits a laptop screen (a compact row
per table with what it is doing), search by a player's or a table's name, filters, a table's
details on demand, each result shown next to the control that caused it, the console on a
PIN-signed phone, and screenshots in English, Hebrew and Dutch at 1366x768 and 1920x1080 that
axe-core and the contrast check find nothing wrong with."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from socket_phone import Phone

from browser.axe import axe_report, axe_violations
from browser.conftest import console_page, contrast_problems, english_words

TABLES = 275
ROWS = TABLES + 2  # and Final, Radio
LANDMARKS = ("train_station", "shopping_mall", "amusement_park", "radio_tower")
PIN = "730519"


@pytest.fixture(scope="module")
def hall_night(hall_server) -> dict[str, Any]:
    """An event of 1,100 players seated at 275 tables of four, a table of two, Final, that has
    won, and one, Radio, where Nadia is choosing (a Radio Tower reroll), after seven hall rolls.
    Tables 5 and 6 are paused, 7 ended, 275 still set up; the others are building."""
    hall = hall_server
    event = hall.api("POST", "/api/events", {"name": "Hall night"}, expect=201)
    base = f"/api/events/{event['id']}"
    hall.api("POST", f"{base}/settings", {"choice_seconds": 600})  # Nadia's choice stays open
    names = [f"Player {n:04d}" for n in range(1, 4 * TABLES + 1)]
    tables = hall.api("POST", f"{base}/seating", {"players": names, "table_size": 4}, expect=201)["tables"]
    final = hall.api("POST", f"{base}/tables", {"name": "Final", "players": ["Wanda", "Vic"]}, expect=201)
    radio = hall.api("POST", f"{base}/tables", {"name": "Radio", "players": ["Nadia Radio", "Ola"]},
                     expect=201)
    for table in [*tables[:-1], final, radio]:
        hall.api("POST", f"/api/tables/{table['id']}/start")
    for table in (final, radio):
        hall.api("POST", f"/api/tables/{table['id']}/adjust", {"seat": 0, "amount": 80, "reason": "test"})
    ids = [t["id"] for t in tables]
    for table in ids[4:6]:
        hall.api("POST", f"/api/tables/{table}/pause")
    hall.api("POST", f"/api/tables/{ids[6]}/end")
    nadia = Phone(hall.url, radio["seats"][0]["token"])
    wanda = Phone(hall.url, final["seats"][0]["token"])
    try:
        for roll in range(7):  # Wanda builds a landmark on each of her turns, Nadia a Radio Tower
            hall.roll(event["id"], (2, 3))
            if roll % 2 == 0:
                wanda.move(f"w{roll}", {"kind": "build", "card": LANDMARKS[roll // 2]})
            if roll == 0:
                nadia.move("tower", {"kind": "build", "card": "radio_tower"})
    finally:
        nadia.client.disconnect()
        wanda.client.disconnect()
    view = hall.api("GET", base)
    by_name = {t["name"]: t for t in view["tables"]}
    assert by_name["Final"]["winner"] == 0, by_name["Final"]
    assert by_name["Radio"]["waiting"] == "reroll", by_name["Radio"]["phase"]
    return {"id": event["id"], "tables": ids}


def open_console(screen, hall, width: int, height: int, lang: str = "en", event: str | None = None,
                 locale: str = "en-US") -> Page:
    return console_page(screen, hall, lang, width, height, event_id=event, shows="#overview tr",
                        locale=locale)


def rows(page: Page):
    return page.locator("#overview tr:not([hidden])")


def test_console_overview_of_275_tables_fits_a_laptop_screen(screen, hall_server, hall_night, snap):
    page = open_console(screen, hall_server, 1366, 768, event=hall_night["id"])
    expect(rows(page)).to_have_count(ROWS)
    expect(page.locator("#table-count")).to_have_text(f"Tables shown: {ROWS} of {ROWS}")
    # The list scrolls inside a box of the screen's height; no table is open yet.
    box = page.locator("#overview-box").bounding_box()
    assert box["height"] <= 768, box
    height = page.evaluate("document.documentElement.scrollHeight")
    # one open card per table was about 600 px: 165,000 px; the event's panels (the clock,
    # campaigns, tournament) take about 4,500 px whatever the number of tables
    assert height < 6000, height
    expect(page.locator(".table-card")).to_have_count(0)
    expect(page.locator("#details-hint")).to_be_visible()
    # Every state shows as a badge in its row.
    states = {"Table 1": "building", "Radio": "choosing", "Table 5": "paused", "Table 7": "ended",
              f"Table {TABLES}": "setup", "Final": "over"}
    for name, state in states.items():
        row = page.locator("#overview tr", has=page.get_by_role("button", name=name, exact=True))
        expect(row).to_have_attribute("data-state", state)
    expect(page.locator("#overview tr[data-state=choosing] .state-line")).to_have_text(
        "Nadia Radio: Radio Tower")

    # A player raises a hand: the organizer types part of the name, opens the table.
    page.get_by_label("Find a player or a table").fill("player 0777")
    expect(rows(page)).to_have_count(1)
    expect(page.locator("#table-count")).to_have_text(f"Tables shown: 1 of {ROWS}")
    page.get_by_role("button", name="Table 195", exact=True).click()
    card = page.locator(".table-card")
    expect(card).to_have_count(1)
    expect(card.locator(".table-name")).to_have_text("Table 195")
    expect(card.get_by_role("rowheader")).to_contain_text(["Player 0777"])
    assert card.bounding_box()["y"] < 768  # in view, beside the list
    opened = page.get_by_role("button", name="Table 195", exact=True)
    expect(opened).to_have_attribute("aria-expanded", "true")
    snap(page, "console-hall-search-1366x768")

    # Filters: the paused tables, then the ones still choosing or building.
    page.get_by_label("Find a player or a table").fill("")
    page.get_by_label("Show").select_option("paused")
    expect(rows(page)).to_have_count(2)
    expect(page.get_by_label("Show").locator("option[value=paused]")).to_have_text("Paused (2)")
    page.get_by_label("Show").select_option("over")
    expect(rows(page)).to_have_text([re.compile(r"Final.*Won by Wanda")])
    page.get_by_label("Show").select_option("busy")
    expect(rows(page)).to_have_count(TABLES - 4 + 1)  # not paused (2), ended, set up, won; Radio
    # Closing the details gives the focus back to the table's button in the list.
    card.get_by_role("button", name="Close").click()
    expect(page.locator(".table-card")).to_have_count(0)
    expect(page.get_by_role("button", name="Table 195", exact=True)).to_be_focused()


def test_console_results_show_next_to_the_control_that_caused_them(screen, hall_server, hall_night, guard):
    """A refused correction from a table's details showed its error at the top of a 5,000 px
    page, and a successful one only emptied the form: both now show in the form, in view."""
    guard.allow(r"status of 400")  # the refused correction, on purpose
    page = open_console(screen, hall_server, 1366, 768, event=hall_night["id"])
    page.get_by_label("Find a player or a table").fill("Table 260")
    page.get_by_role("button", name="Table 260", exact=True).click()
    card = page.locator(".table-card")
    card.locator(".correction summary").click()
    card.get_by_label("Coins (+ from the bank, − back to the bank)").fill("-50")
    card.get_by_label("Reason").fill("too much")
    card.get_by_role("button", name="Correct the coins").click()
    error = card.locator(".adjust-form #notice")
    # the refusal names the figure (issue 27, item 13): "Player 1037 has 5 coins: ..."
    expect(error).to_have_text(re.compile(
        r"^Player \d+ has \d+ coins: a correction never takes a balance below zero\.$"))
    expect(error).to_have_attribute("role", "alert")
    expect(error).to_be_in_viewport()
    card.get_by_label("Coins (+ from the bank, − back to the bank)").fill("1")
    card.get_by_role("button", name="Correct the coins").click()
    done = card.locator(".adjust-form #notice")
    expect(done).to_have_text("The correction is in the journal.")
    expect(done).to_have_attribute("role", "status")
    expect(done).to_be_in_viewport()
    # A table's status button says its refusal beside the buttons.
    page.get_by_label("Find a player or a table").fill("Table 7")
    page.get_by_role("button", name="Table 7", exact=True).click()
    ended = page.locator(".table-card", has=page.locator(".table-name", has_text=re.compile("^Table 7$")))
    expect(ended.locator(".status-badge")).to_have_attribute("data-status", "ended")
    expect(ended.locator(".status-actions + #notice")).to_have_count(0)


@pytest.mark.parametrize(("lang", "locale", "names"), [
    ("en", "en-US", ()),
    ("he", "he-IL", ("Player", "Nadia", "Radio", "Ola", "Wanda", "Vic", "Final", "Hall", "night")),
    ("nl", "nl-NL", ()),
])
@pytest.mark.parametrize(("width", "height"), [(1366, 768), (1920, 1080)])
def test_console_at_hall_scale_in_each_language_and_size(screen, hall_server, hall_night, snap, lang,
                                                        locale, names, width, height):
    page = open_console(screen, hall_server, width, height, lang, hall_night["id"], locale)
    page.get_by_role("button", name="Radio", exact=True).click()  # Nadia chooses
    card = page.locator(".table-card")
    expect(card).to_have_count(1)
    expect(card.locator(".players tbody tr")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if lang == "he":
        assert page.locator("html").get_attribute("dir") == "rtl"
        # the list starts at the right, its details beside it on the left
        overview, details = page.locator("#overview-box").bounding_box(), card.bounding_box()
        assert overview["x"] > details["x"]
        assert english_words(page, names) == []
    page.evaluate("window.scrollTo(0, 0)")
    snap(page, f"console-hall-{lang}-{width}x{height}")
    page.locator("#tables-title").scroll_into_view_if_needed()
    snap(page, f"console-hall-tables-{lang}-{width}x{height}")
    violations = axe_violations(page)
    assert not violations, axe_report(violations)


def test_console_every_state_reads_at_wcag_aa_in_light_and_dark(screen, hall_server, hall_night):
    page = open_console(screen, hall_server, 1366, 768, event=hall_night["id"])
    page.get_by_role("button", name="Radio", exact=True).click()
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    for scheme in ("light", "dark"):
        problems = contrast_problems(page, scheme)
        assert not problems, f"{scheme}:\n" + "\n".join(problems)


def test_console_on_a_phone_signed_in_by_pin(browser, guard, contexts, hall_server, hall_night, snap):
    """The second device is often the organizer's phone: 390x844, signed in by the PIN; the
    list, the search and a table's details fit its width."""
    hall_server.api("POST", "/api/organizer/pin", {"pin": PIN})
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    contexts.append(context)
    page = guard.watch(context, hall_server.url).new_page()
    page.goto(f"{hall_server.url}/organizer?event={hall_night['id']}")
    page.get_by_label("Or enter the organizer's PIN").fill(PIN)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("#connection")).to_have_attribute("data-state", "connected")
    page.goto(f"{hall_server.url}/organizer?event={hall_night['id']}")
    expect(rows(page)).to_have_count(ROWS)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    snap(page, "console-phone-390x844")
    page.get_by_label("Find a player or a table").fill("nadia")
    expect(rows(page)).to_have_count(1)
    page.get_by_role("button", name="Radio", exact=True).tap()
    card = page.locator(".table-card")
    expect(card.locator(".turn")).to_contain_text("Nadia Radio is choosing: Radio Tower")
    card.scroll_into_view_if_needed()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    snap(page, "console-phone-details-390x844")
    violations = axe_violations(page)
    assert not violations, axe_report(violations)
    hall_server.api("POST", "/api/organizer/pin", {"pin": None})
