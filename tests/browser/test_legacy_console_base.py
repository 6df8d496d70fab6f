"""A Legacy campaign started from the console alone (issue 27, items 1-3): from the base game's
cards, named in the console's language; a card entered with one name (Dutch), which the Hebrew
console shows; game 1 without a community landmark says what to do; the catalog saved as a
card-list file and a campaign started from it on another laptop (a second server)."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from browser.conftest import Hall, console_page, open_hall
from browser.evening import create_campaign

LAPTOP = (1366, 900)
GROUP = [("Dana", "Dorp"), ("Eli", "Ezelstad"), ("Fay", "Fort")]


def open_console(screen, hall: Hall, event_id: str, lang: str = "en") -> Page:
    return console_page(screen, hall, lang, *LAPTOP, event_id=event_id, shows="#legacy-part")


def top(locator) -> None:
    locator.evaluate("(element) => element.scrollIntoView({block: 'start'})")


def test_legacy_console_base_cards_one_name_and_the_card_list_carried(
        screen, hall_server, own_server, snap, guard, tmp_path):
    event = hall_server.api("POST", "/api/events", {"name": "Legacy night"}, expect=201)
    page = open_console(screen, hall_server, event["id"], lang="nl")
    create_campaign(page, "Ons eiland", "base", GROUP)
    ours = page.locator("article.legacy-campaign")
    expect(ours).to_have_count(1)
    ours.locator(".legacy-cards > summary").click()
    expect(ours.locator(".legacy-catalog[data-kind=establishment] tbody tr")).to_have_count(15)
    expect(ours.locator(".legacy-catalog[data-kind=landmark] tbody tr")).to_have_count(4)
    expect(ours.locator("tr[data-card=wheat_field]")).to_contain_text("Graanakker")  # the product's Dutch
    expect(ours.locator("tr[data-card=train_station]")).to_contain_text("A")

    # game 1 cannot start yet: no community landmark; the form says what to do, so does the refusal
    series = hall_server.api("GET", f"/api/events/{event['id']}/series")["series"][0]
    hall_server.api("POST", f"/api/series/{series['id']}/commands",  # no tie: Dana starts
                    {"command": "roll_for_start", "dice": [[6, 6], [1, 1], [2, 2]]})
    expect(ours.locator(".legacy-winner")).to_be_visible()
    setup = ours.locator("form.legacy-next-form")
    expect(setup.locator(".legacy-why")).to_contain_text("gemeenschapsbezienswaardigheid nodig")
    setup.locator("button[type=submit]").click()
    expect(page.locator("#notice")).to_contain_text("Elk spel heeft een gemeenschapsbezienswaardigheid nodig")
    top(setup)
    snap(page, "console-legacy-no-community-nl")

    # a community landmark with its Dutch name only
    ours.locator(".legacy-editor > summary").click()
    editor = ours.locator("form.legacy-card-form")
    editor.locator("input[name=kind][value=community]").check()
    editor.locator("[name=name-nl]").fill("Standbeeld")
    editor.locator("[name=cost]").fill("5")
    editor.locator("[name=amount]").fill("2")
    editor.locator("button[type=submit]").click()
    expect(page.locator("#notice")).to_have_text("De kaart is aan de catalogus toegevoegd.")
    expect(ours.locator("tr[data-card=standbeeld]")).to_contain_text("Standbeeld")
    expect(setup.locator("select[name=community]")).to_have_value("standbeeld")
    top(ours.locator(".legacy-cards"))
    snap(page, "console-legacy-base-nl")

    # the Hebrew console shows the Dutch name (no Hebrew name was invented)
    he = open_console(screen, hall_server, event["id"], lang="he")
    he_ours = he.locator("article.legacy-campaign")
    he_ours.locator(".legacy-cards > summary").click()
    expect(he_ours.locator("tr[data-card=standbeeld]")).to_contain_text("Standbeeld")
    expect(he_ours.locator("tr[data-card=wheat_field]")).to_contain_text("שדה חיטה")
    top(he_ours.locator(".legacy-cards"))
    snap(he, "console-legacy-base-he")

    # saved as a card-list file ...
    with page.expect_download() as download:
        ours.locator(".legacy-save-cards").click()
    saved = tmp_path / "cards.json"
    download.value.save_as(saved)
    cards = json.loads(saved.read_text(encoding="utf-8"))
    assert len(cards["establishments"]) == 15 and cards["community"][0]["id"] == "standbeeld"

    # ... and a campaign started from it on another laptop, whose catalog is the same
    other_event = own_server.api("POST", "/api/events", {"name": "At Eli's"}, expect=201)
    other = console_page(screen, own_server, "en", *LAPTOP, event_id=other_event["id"], shows="#legacy-part")
    create_campaign(other, "Ons eiland", "file", GROUP, str(saved))
    expect(other.locator("#notice")).to_have_text("The campaign is created.")
    series = own_server.api("GET", f"/api/events/{other_event['id']}/series")["series"]
    assert series[0]["state"]["catalog"] == cards
    carried = other.locator("article.legacy-campaign")
    carried.locator(".legacy-cards > summary").click()
    expect(carried.locator("tr[data-card=standbeeld]")).to_contain_text("Standbeeld")
    top(carried)
    snap(other, "console-legacy-carried-en")


def test_legacy_projector_says_each_table_rolls_its_own_dice(screen, hall_server, snap):
    """A Legacy game rolls at its table (own roll): the projector does not wait for a first hall
    roll that never comes (issue 27, item 4)."""
    event = hall_server.api("POST", "/api/events", {"name": "Legacy night"}, expect=201)
    mayors = [{"name": name, "colour": colour, "city": city}
              for (name, city), colour in zip(GROUP, ("red", "blue", "green"), strict=True)]
    made = hall_server.api("POST", f"/api/events/{event['id']}/series",
                           {"ruleset": "legacy", "name": "Ons eiland", "mayors": mayors,
                            "catalog": "base"}, expect=201)
    commands = f"/api/series/{made['id']}/commands"
    hall_server.api("POST", commands, {"command": "add_entry", "kind": "community", "entry": {
        "id": "standbeeld", "names": {"nl": "Standbeeld"}, "cost": 5, "bonus": {"kind": "none"}}})
    hall_server.api("POST", commands, {"command": "roll_for_start", "dice": [[6, 6], [1, 1], [2, 2]]})
    hall_server.api("POST", f"/api/series/{made['id']}/next", {})
    words = {"en": "Each table rolls its own dice", "he": "כל שולחן מטיל את הקוביות שלו",
             "nl": "Elke tafel gooit zelf"}
    for lang, locale in (("en", "en-US"), ("he", "he-IL"), ("nl", "nl-NL")):
        page = open_hall(screen, hall_server, event["id"], 1920, 1080, locale=locale)
        expect(page.locator("#roll-number")).to_have_text(words[lang])
        snap(page, f"hall-legacy-own-roll-{lang}")
