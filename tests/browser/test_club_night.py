"""A club night of Machi Koro (issue 27, items 10-12): up to eight tables on one hall screen
without paging, standings ranked within each game, and an own-roll table whose seat has no
phone: the console rolls for the seat, or the timer does when the seat's time is up."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect
from socket_phone import Phone

from browser.conftest import COOP, Hall, console_page, open_hall

LOCALES = {"en": "en-US", "he": "he-IL", "nl": "nl-NL"}
NAMES = ["Alexandrina Montgomery", "Ben", "Dana Levi", "Konstantinos", "Eve", "Finn", "Gus", "Hal",
         "Ida", "Jo", "Kim", "Lea", "Mo", "Noa", "Oren", "Pia", "Quinn", "Rut", "Sam", "Tal",
         "Uri", "Vera", "Wim", "Xan", "Yael", "Zev", "Ayla", "Bram", "Cor", "Dirk", "Els", "Fee"]


def club_night(hall: Hall, tables: int) -> dict[str, Any]:
    """`tables` tables as a club night has them: tables of four and three rolling with the
    hall, one own-roll table, one co-op pair; a few hall rolls in."""
    event = hall.api("POST", "/api/events", {"name": "Club night"}, expect=201)
    names = iter(NAMES)
    for number in range(1, tables + 1):
        body: dict[str, Any] = {"name": f"Table {number}", "roll_mode": "hall",
                                "players": [next(names) for _ in range(4 if number % 2 else 3)]}
        if number == 3:
            body.update(ruleset=COOP, players=[next(names), next(names)])
        if number == 2:
            body["roll_mode"] = "own"
        made = hall.api("POST", f"/api/events/{event['id']}/tables", body, expect=201)
        hall.api("POST", f"/api/tables/{made['id']}/start")
    for dice in ((2, 5), (3, 1), (5, 1), (1, 2)):  # the last pays everyone's Wheat Field
        hall.roll(event["id"], dice)
    return event


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
@pytest.mark.parametrize("tables", [7, 8])
def test_hall_screen_fits_eight_tables_on_one_page(screen, hall_server, snap, lang, tables):
    event = club_night(hall_server, tables)
    page = open_hall(screen, hall_server, event["id"], 1920, 1080, locale=LOCALES[lang])
    expect(page.locator("#tiles .tile")).to_have_count(tables)
    expect(page.locator("#tables-page")).to_have_text("")
    box = page.locator("#tiles").bounding_box()
    for tile in page.locator("#tiles .tile").all():
        shown = tile.bounding_box()
        assert shown and shown["y"] + shown["height"] <= box["y"] + box["height"] + 1, tile.inner_text()
    size = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert size == [1920, 1080]
    page.wait_for_timeout(10_500)  # the page would have turned by now
    expect(page.locator("#tiles .tile").first.locator("h3")).to_contain_text("Table 1")
    # the standings rank each game apart: the co-op pair under its own heading (item 11)
    games = page.locator("#standings > li.game")
    expect(games).to_have_count(2)
    coop = page.locator(f"#standings > li.game[data-ruleset='{COOP}'] .entry .name")
    expect(coop).to_have_count(2)  # the pair, ranked apart from the Machi Koro players
    snap(page, f"club-night-{tables}-tables-{lang}")


def open_table(page) -> None:
    """The event's one table: a small event's tables open by themselves in the console."""
    expect(page.locator("#overview tr[data-state=ready]")).to_have_count(1)
    expect(page.locator(".table-card")).to_have_count(1)


def test_console_rolls_for_a_seat_without_a_phone(screen, hall_server, snap):
    """An own-roll table whose seat has no phone: the console's "Roll for Dana Levi" rolls for
    her (the journal names the organizer); then the event asks the timer to roll for a seat
    whose turn time is up, and the next seat's roll comes by itself."""
    event = hall_server.create_event("Own rolls", [("Table 1", ["Dana Levi", "Eli"], "own")])
    table_id = event["tables"][0]["id"]
    for lang in ("en", "he", "nl"):
        page = console_page(screen, hall_server, lang, 1366, 900, event_id=event["id"], shows="#overview")
        open_table(page)
        card = page.locator(".table-card")
        expect(card).to_have_count(1)
        expect(card.locator("button[data-action=roll_for_seat]")).to_be_visible()
        card.scroll_into_view_if_needed()
        snap(page, f"console-roll-for-seat-{lang}")
        page.close()
    page = console_page(screen, hall_server, "en", 1366, 900, event_id=event["id"], shows="#overview")
    open_table(page)
    card = page.locator(".table-card")
    button = card.locator("button[data-action=roll_for_seat]")
    expect(button).to_have_text("Roll for Dana Levi")
    button.click()
    expect(page.locator("#notice")).to_have_text("Rolled for Dana Levi.")
    expect(button).to_have_count(0)  # she builds or ends her turn now
    expect(card.locator(".turn")).to_contain_text("Dice:")
    journal = hall_server.api("GET", f"/api/tables/{table_id}/journal")
    assert journal[-1]["author"] == "organizer"
    assert journal[-1]["events"][0]["kind"] == "DiceRolled"

    # the timer rolls for Eli when his turn time (5 s) is up, once the event asks for it
    settings = page.locator("#settings-form")
    settings.locator("[name=choice_seconds]").fill("5")
    settings.locator("[name=seat_auto_roll]").check()
    settings.locator("button[type=submit]").click()
    expect(page.locator("#notice")).to_have_text("The settings are saved.")
    phone = Phone(hall_server.url, event["tables"][0]["seats"][0]["token"])  # Dana's: she ends
    try:
        phone.move("club-night-end-1", {"kind": "end_turn"})
    finally:
        phone.client.disconnect()
    started = time.monotonic()
    expect(button).to_have_text("Roll for Eli")
    expect(button).to_have_count(0, timeout=15_000)  # the timer rolled for Eli
    assert time.monotonic() - started >= 3
    journal = hall_server.api("GET", f"/api/tables/{table_id}/journal")
    assert journal[-1]["author"] == "timer"


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_console_journal_shows_an_undone_move_and_the_clock_a_proposal(screen, hall_server, snap, lang):
    """The journal keeps an undone move, struck through, and its reversal (the undo's dialog says
    the reversal is added); the turn clock's first step reads as a proposal until it is saved."""
    event = hall_server.create_event(f"Undo {lang}", [("Table 1", ["Dana Levi", "Eli"], "own")])
    table_id = event["tables"][0]["id"]
    hall_server.api("POST", f"/api/tables/{table_id}/roll_for_seat")
    hall_server.api("POST", f"/api/tables/{table_id}/undo")
    page = console_page(screen, hall_server, lang, 1366, 900, event_id=event["id"], shows="#overview")
    open_table(page)
    card = page.locator(".table-card")
    card.locator(".audit > summary").click()
    expect(card.locator(".audit-moves > li")).to_have_count(2)
    expect(card.locator(".audit-moves > li.undone")).to_have_count(1)
    expect(card.locator(".audit-moves > li.reversal")).to_have_count(1)
    card.locator(".audit").scroll_into_view_if_needed()
    snap(page, f"console-journal-undone-{lang}")
    expect(page.locator("#schedule-form")).to_have_class(re.compile("unsaved"))
    expect(page.locator("#schedule-unsaved")).to_be_visible()
    page.locator("#clock-panel").scroll_into_view_if_needed()
    snap(page, f"console-clock-proposal-{lang}")
    page.locator("#schedule-form button[type=submit]").click()
    expect(page.locator("#schedule-unsaved")).to_be_hidden()
    expect(page.locator("#schedule-form")).not_to_have_class(re.compile("unsaved"))
