"""A Machi Koro Legacy game on the phone (templates/play/parts/legacy.html, static/js/
play-legacy.js) in Chromium against a served hall: a campaign's first game started by the API,
the seat's three landmarks by letter with their costs and reasons, the community landmark
closed before the roll and open after it, the contribution asked, confirmed and made (the turn's
one action: then closed with its reason), the others' phones showing who contributed; the base
game's roll and build list drawn by play.js with the campaign's card names. In English and
Hebrew at 390x844, with screenshots."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from test_legacy_builders import catalog_raw, est

from browser.axe import axe_report, axe_violations
from browser.conftest import Hall, english_words, hall_tile, open_hall
from browser.conftest import join_seat as join
from browser.test_legacy_console import accessible

GROUP = [{"name": "Ana", "colour": "red", "city": "Appelstad"},
         {"name": "Ben", "colour": "blue", "city": "Bergdorp"}]


def first_game(hall: Hall, name: str) -> tuple[dict, dict]:
    """An event with a campaign whose first game runs, Ana to start: (event, table answer)."""
    event = hall.api("POST", "/api/events", {"name": name}, expect=201)
    series = hall.api("POST", f"/api/events/{event['id']}/series",
                      {"ruleset": "legacy", "name": name, "mayors": GROUP, "catalog": catalog_raw()},
                      expect=201)
    commands = f"/api/series/{series['id']}/commands"
    hall.api("POST", commands, {"command": "roll_for_start", "dice": [[6, 6], [1, 1]]})
    # a starting card played by hand on every roll: Ana chooses it as her third
    hall.api("POST", commands, {"command": "add_entry", "kind": "establishments", "entry": est(
        "street_musician", "blue", [1, 2, 3, 4, 5, 6], 1, "cup",
        {"kind": "manual", "text": {"en": "Each player gives you 1 coin if you sing."}}, town_square=True)})
    hall.api("POST", commands, {"command": "set_picks", "seat": 0, "picks": 3})
    answer = hall.api("POST", f"/api/series/{series['id']}/next", {
        "community": "statue",
        "town_square": [["wheat_field", "bakery", "street_musician"], ["wheat_field", "bakery"]]}, expect=201)
    return event, answer["table"]


def card_words() -> set[str]:
    found: set[str] = set()
    for kind in catalog_raw().values():
        for card in kind:
            for text in card["names"].values():
                found.update(re.findall(r"[A-Za-z]{2,}", text))
    found.update(["Street", "Musician", "Each", "player", "gives", "you", "coin", "if", "sing"])
    return found


def roll(page: Page) -> None:
    page.locator("#prompt button.primary").tap()
    expect(page.locator("#dice .die").first).to_be_visible()


def test_legacy_phone_landmarks_and_contribution(tall_phone, screen, hall_server, snap):
    event, table = first_game(hall_server, "Legacy phones")
    assert table["roll_mode"] == "own"
    ana = join(tall_phone(), hall_server, table["seats"][0]["join_path"])
    ben = join(tall_phone("he-IL"), hall_server, table["seats"][1]["join_path"])
    ben.goto(f"{hall_server.url}/play?lang=he")
    expect(ben.locator("#connection")).to_have_attribute("data-state", "connected")

    marks = ana.locator("#legacy-landmarks li")
    expect(marks).to_have_count(3)
    expect(marks.nth(0)).to_have_attribute("data-letter", "A")
    expect(marks.nth(0)).to_contain_text("Smithy")
    expect(marks.nth(1)).to_contain_text("8 coins")
    expect(marks.nth(2)).to_contain_text("Fountain")
    expect(ana.locator("#legacy-goal")).to_have_text(
        "To win: build 3 more landmarks and contribute to the community landmark.")
    expect(ana.locator("#legacy-community-title")).to_have_text("Community landmark: Statue")
    expect(ana.locator("#legacy-community-meta")).to_contain_text("you get 2 back from the bank")
    button = ana.locator("#legacy-contribute")
    expect(button).to_have_text("Contribute 5 coins")
    expect(button).to_be_disabled()
    expect(ana.locator("#legacy-contribute-why")).to_have_text("After the roll.")  # the turn's reason first
    # play.js draws the base list with the campaign's names: Ana's own landmarks only
    expect(ana.locator("#market button.build-card[data-card=smithy]")).to_contain_text("Smithy")
    expect(ana.locator("#market button.build-card[data-card=radio_tower]")).to_have_count(0)
    expect(ana.locator("#cards")).to_contain_text("Wheat Field")

    hall_server.api("POST", f"/api/tables/{table['id']}/adjust",
                    {"seat": 0, "amount": 5, "reason": "a gift for the test"})
    roll(ana)
    expect(ana.locator("#legacy-manual")).to_be_visible()
    expect(ana.locator("#legacy-manual-list li")).to_have_text(
        "Ana: Street Musician ×1 Each player gives you 1 coin if you sing.")
    expect(button).to_be_enabled()
    expect(ana.locator("#legacy-contribute-why")).to_have_text("Open: this is your turn's one action.")
    ana.locator("#legacy").evaluate("(element) => element.scrollIntoView({block: 'start'})")
    snap(ana, "phone-legacy-en")
    accessible(ana, "#legacy")

    button.tap()
    expect(ana.locator("#legacy-contribute-ok")).to_have_text("Yes, contribute 5 coins")
    ana.locator("#legacy-contribute-ok").tap()
    expect(ana.locator("#notice")).to_have_text("You contributed to Statue.")
    expect(ana.locator("#legacy-contributors li.yes")).to_have_count(1)
    expect(ana.locator("#legacy-contribute-why")).to_have_text("You have contributed in this game.")
    expect(ana.locator("#legacy-goal")).to_have_text("To win: build 3 more landmarks.")
    expect(ana.locator("#build-note")).to_have_text("You have already built this turn.")  # one action

    # Ben's phone in Hebrew: right to left, Ana's contribution shown, his own closed off turn
    expect(ben.locator("html")).to_have_attribute("dir", "rtl")
    expect(ben.locator("#legacy-landmarks li")).to_have_count(3)
    expect(ben.locator("#legacy-contributors li.yes")).to_have_count(1)
    expect(ben.locator("#legacy-contribute")).to_be_disabled()
    expect(ben.locator("#legacy-community-title")).to_contain_text("Statue (he)")
    ben.locator("#legacy").evaluate("(element) => element.scrollIntoView({block: 'start'})")
    words = english_words(ben, ("Ana", "Ben", "Legacy", "phones", *card_words()))
    assert not words, words
    snap(ben, "phone-legacy-he")
    violations = axe_violations(ben, context="#legacy")
    assert not violations, axe_report(violations)

    # the hall screen's tile: letters, built or not, and who has contributed
    hall = open_hall(screen, hall_server, event["id"], width=1280, height=720)
    tile = hall_tile(hall, table["name"])
    expect(tile.locator(".legacy-letters").first).to_contain_text("A☆")
    expect(tile.locator(".legacy-given.yes")).to_have_count(1)
    expect(tile.locator(".paid")).to_contain_text("Ana contributed to Statue")
    # a card other than a landmark by its name in the screen's language, not by its id
    expect(tile.locator(".legacy-by-hand")).to_have_text("By hand: Street Musician")
    snap(hall, "hall-legacy-en")
