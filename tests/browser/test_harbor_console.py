"""A Harbor table chosen in the console (docs/rules.md 30): the card set ticked in the pasted
list's form offers tables of five, the table is made with the set, and a phone at it shows
City Hall built and the Harbor's cards in its market; in en, he and nl."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser.conftest import console_page

FIVE = ["Avi", "Dana", "Eli", "Fay", "Gil"]
WORDS = {"en": ("Add the Harbor card set (up to 5 players)", "City Hall"),
         "nl": ("De kaartset Haven toevoegen (tot 5 spelers)", "Stadhuis"),
         "he": ("להוסיף את ערכת הקלפים נמל (עד 5 שחקנים)", "בניין העירייה")}


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_ruling_30_the_console_makes_a_harbor_table_of_five(screen, phone, hall_server, guard,
                                                              snap, lang):
    tick, city_hall = WORDS[lang]
    event = hall_server.api("POST", "/api/events", {"name": f"Harbor night {lang}"}, expect=201)
    page = console_page(screen, hall_server, lang, event_id=event["id"])
    form = page.locator("#seating-form")
    size = form.locator("select[name=table_size]")
    expect(size.locator("option[value='5']")).to_be_hidden()  # not without the set
    form.get_by_label(tick).check()
    size.select_option("5")
    page.locator("#seating-names").fill("\n".join(FIVE))
    form.get_by_label(tick).scroll_into_view_if_needed()
    snap(page, f"console-harbor-{lang}")
    form.locator("button[type=submit]").click()
    expect(page.locator("#overview tr")).to_have_count(1)

    tables = hall_server.api("GET", f"/api/events/{event['id']}")["table_seats"]
    assert [len(t["seats"]) for t in tables] == [5]
    table = tables[0]
    assert table["card_sets"] == ["base", "harbor"], table
    hall_server.api("POST", f"/api/tables/{table['id']}/start")
    phone_page = phone(locale={"en": "en-US", "he": "he-IL", "nl": "nl-NL"}[lang]).new_page()
    phone_page.goto(hall_server.url + table["seats"][0]["join_path"])
    expect(phone_page).to_have_url(re.compile(r"/play$"))
    expect(phone_page.locator("#landmarks")).to_contain_text(city_hall)
    snap(phone_page, f"phone-harbor-{lang}")
