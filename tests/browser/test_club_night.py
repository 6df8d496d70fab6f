"""A club night of Machi Koro (issue 27, items 10-12): up to eight tables on one hall screen
without paging, standings ranked within each game, and an own-roll table whose seat has no
phone: the console rolls for the seat, or the timer does when the seat's time is up."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from browser.conftest import COOP, Hall, open_hall

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
    page.wait_for_timeout(500)
    snap(page, f"club-night-{tables}-tables-{lang}")
    expect(page.locator("#tiles .tile")).to_have_count(tables)
    expect(page.locator("#tables-page")).to_have_text("")
    box = page.locator("#tiles").bounding_box()
    for tile in page.locator("#tiles .tile").all():
        shown = tile.bounding_box()
        assert shown and shown["y"] + shown["height"] <= box["y"] + box["height"] + 1, tile.inner_text()
    size = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert size == [1920, 1080]
    snap(page, f"club-night-{tables}-tables-{lang}")
