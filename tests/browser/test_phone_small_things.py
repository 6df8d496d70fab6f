"""Small things on the phone (issue 27, item 13), at 390x844 in English, Hebrew and Dutch: the
dice-count toggle fits the phone's width (Dutch: "Ik gooi: 2 dobbelstenen")."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from socket_phone import Phone

from browser.conftest import join_seat

LOCALES = {"en": "en-US", "he": "he-IL", "nl": "nl-NL"}


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_phone_dice_count_toggle_fits_a_390px_phone(screen, hall_server, snap, lang):
    event = hall_server.create_event(f"Toggle {lang}", [("Table 1", ["Dana Levi", "Eli"], "own")])
    table = event["tables"][0]
    hall_server.api("POST", f"/api/tables/{table['id']}/adjust", {"seat": 0, "amount": 10, "reason": "test"})
    phone = Phone(hall_server.url, table["seats"][0]["token"])
    try:
        phone.move(f"toggle-{lang}-1", {"kind": "roll"})
        phone.move(f"toggle-{lang}-2", {"kind": "build", "card": "train_station"})
    finally:
        phone.client.disconnect()
    page = join_seat(screen(390, 844, locale=LOCALES[lang]), hall_server, table["seats"][0]["join_path"])
    toggle = page.locator(".dice-count")
    expect(toggle).to_be_visible()
    for part in [toggle, *toggle.locator("button").all()]:
        box = part.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, (lang, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    toggle.scroll_into_view_if_needed()
    snap(page, f"phone-dice-count-{lang}")
