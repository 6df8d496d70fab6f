"""The console's Machi Koro Legacy campaigns (templates/organizer/parts/legacy.html, static/js/
organizer-legacy.js) in Chromium against a served hall: a campaign created in the panel beside
one made through the API (two side by side), a card added in the catalog editor, a refused
entry that says the server's message and marks its field, the roll for the first start player,
the next game started with its set-up, its winner recorded by hand into the register, the
first end-of-game step ticked, and the line withdrawn (crossed out). In English and Hebrew at a
laptop's size, with screenshots."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from test_legacy_builders import catalog_raw

from browser.axe import axe_report, axe_violations
from browser.conftest import Hall, console_page, contrast_problems, english_words

LAPTOP = (1366, 768)
GROUP = [{"name": "Ana", "colour": "red", "city": "Appelstad"},
         {"name": "Ben", "colour": "blue", "city": "Bergdorp"}]


def open_console(screen, hall: Hall, event_id: str, lang: str = "en") -> Page:
    return console_page(screen, hall, lang, *LAPTOP, event_id=event_id, shows="#legacy-part")


def card_words() -> set[str]:
    """The words of the test catalog's names and texts (the organizer's, in any language)."""
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str):
            found.update(re.findall(r"[A-Za-z]{2,}", value))

    walk(catalog_raw())
    return found


def accessible(page: Page, context: str) -> None:
    """axe-core finds nothing in `context`, and every text keeps WCAG AA contrast in the dark
    and the light scheme (the phone's test checks its page so too)."""
    violations = axe_violations(page, context=context)
    assert not violations, axe_report(violations)
    for scheme in ("dark", "light"):
        problems = contrast_problems(page, scheme) and contrast_problems(page, scheme)  # once settled
        assert not problems, (scheme, problems)


def top(locator) -> None:
    """Scroll so that the element starts at the top of the screen (for a screenshot)."""
    locator.evaluate("(element) => element.scrollIntoView({block: 'start'})")


def submit_card(editor, names: tuple[str, str, str], fields: dict[str, str | bool]) -> None:
    """Submit a card in the catalog editor: its names in English, Hebrew and Dutch, then each
    field by name, in order (a text filled, a select's option chosen, a box checked on True)."""
    for lang, name in zip(("en", "he", "nl"), names, strict=True):
        editor.locator(f"[name=name-{lang}]").fill(name)
    for name, value in fields.items():
        field = editor.locator(f"[name={name}]")
        if isinstance(value, bool):
            field.set_checked(value)
        elif field.evaluate("(element) => element.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    editor.locator("button[type=submit]").click()


def campaign(page: Page, name: str):
    return page.locator("article.legacy-campaign", has=page.locator("h3", has_text=name))


def test_legacy_console_campaigns_editor_and_register(screen, hall_server, snap, guard):
    guard.allow(r"status of 400")  # the refusals the test provokes
    event = hall_server.api("POST", "/api/events", {"name": "Legacy night"}, expect=201)
    made = hall_server.api("POST", f"/api/events/{event['id']}/series",
                           {"ruleset": "legacy", "name": "Our town", "mayors": GROUP,
                            "catalog": catalog_raw()}, expect=201)
    page = open_console(screen, hall_server, event["id"])
    ours = campaign(page, "Our town")
    expect(ours).to_be_visible()
    expect(ours.locator(".legacy-catalog[data-kind=landmark] tbody tr")).to_have_count(5)

    # a second campaign, made in the panel, beside the first
    page.locator("#legacy-new summary").click()
    form = page.locator("#legacy-create-form")
    form.locator("#legacy-name").fill("Second city")
    for seat, (name, city) in enumerate([("Dana", "Dorp"), ("Eli", "Ezelstad"), ("Fay", "Fort")]):
        form.locator(f"[name=mayor-name-{seat}]").fill(name)
        form.locator(f"[name=mayor-city-{seat}]").fill(city)
    form.locator("input[name=cards][value=none]").check()  # its cards entered one by one below
    form.locator("[name=mayor-colour-2]").select_option("red")
    form.locator("[name=mayor-colour-0]").select_option("red")  # twice red: refused, field marked
    form.locator("button[type=submit]").click()
    expect(page.locator("#notice")).to_contain_text("mayors[2].colour")
    expect(form.locator("[name=mayor-colour-2]")).to_have_attribute("aria-invalid", "true")
    form.locator("[name=mayor-colour-2]").select_option("green")
    form.locator("button[type=submit]").click()
    expect(page.locator("#notice")).to_have_text("The campaign is created.")
    second = campaign(page, "Second city")
    expect(second).to_be_visible()
    expect(page.locator("article.legacy-campaign")).to_have_count(2)
    expect(second.locator(".legacy-group li")).to_have_count(3)

    # the catalog editor: a card added, then a refused one names and marks its field
    second.locator(".legacy-cards > summary").click()
    second.locator(".legacy-editor > summary").click()
    editor = second.locator("form.legacy-card-form")
    submit_card(editor, ("Wheat Field", "שדה חיטה", "Graanveld"),
                {"activation": "1", "cost": "1", "amount": "1", "town_square": True})
    expect(page.locator("#notice")).to_have_text("The card is added to the catalog.")
    row = second.locator(".legacy-catalog[data-kind=establishment] tr[data-card=wheat_field]")
    expect(row).to_contain_text("Wheat Field")
    expect(row).to_contain_text("Income from the bank 1")

    submit_card(editor, ("Night Market", "שוק לילה", "Nachtmarkt"),
                {"colour": "green", "activation": "4, 13", "cost": "2", "amount": "2"})
    expect(page.locator("#notice")).to_contain_text("activation[1]: a number 1-12 is required, got 13")
    expect(editor.locator("[name=activation]")).to_have_attribute("aria-invalid", "true")
    expect(editor.locator("[name=activation]")).to_be_focused()
    expect(second.locator(".legacy-catalog[data-kind=establishment] tbody tr")).to_have_count(1)

    # a landmark: its letter code; a manual effect shows its field
    editor.locator("input[name=kind][value=landmark]").check()
    expect(editor.locator("[name=letter]")).to_be_visible()
    expect(editor.locator("[name=activation]")).to_be_hidden()
    submit_card(editor, ("Harbour", "נמל", "Haven"),
                {"letter": "A", "cost": "6", "effect": "manual",
                 "text-en": "Once a turn, add 2 to your roll."})
    expect(page.locator("#notice")).to_have_text("The card is added to the catalog.")
    expect(second.locator(".legacy-catalog[data-kind=landmark] tr[data-card=harbour]")).to_contain_text(
        "Played by hand: Once a turn, add 2 to your roll.")

    # the first campaign: the start roll, game 1, its winner by hand, the register, step 2
    ours.locator(".legacy-roll-button").click()
    expect(ours.locator(".legacy-rounds li")).not_to_have_count(0)
    for _ in range(10):  # a tie rolls again
        if ours.locator(".legacy-winner").count():
            break
        ours.locator(".legacy-roll-button").click()
        page.wait_for_timeout(300)
    expect(ours.locator(".legacy-winner")).to_contain_text("starts the first game.")
    setup = ours.locator("form.legacy-next-form")
    expect(setup.locator("select[name=landmark-0-0]")).to_have_value("smithy")
    setup.locator("select[name=landmark-1-2]").select_option("radio_tower")
    setup.locator("input[name=town-1][value=bakery]").uncheck()  # Ben: one starting card now
    setup.locator("button[type=submit]").click()
    expect(ours.locator(".legacy-playing")).to_contain_text("Game 1 is being played")
    expect(ours.locator(".legacy-playing")).to_contain_text("At table Our town – 1;")
    state = hall_server.api("GET", f"/api/series/{made['id']}")["state"]
    assert state["games"][0]["landmarks"] == [["A", "B", "C"], ["A", "B", "D"]]
    assert [mayor["picks"] for mayor in state["mayors"]] == [2, 1]
    top(ours)
    snap(page, "console-legacy-en")

    ours.locator(".legacy-playing details > summary").click()
    record = ours.locator("form.legacy-record")
    record.locator("[name=winner]").select_option("1")
    record.locator("[name=date]").fill("2026-11-24")
    record.locator("button[type=submit]").click()
    register = ours.locator("table.legacy-register")
    expect(register.locator("tbody tr")).to_have_count(1)
    expect(register.locator("tbody tr")).to_contain_text("2026-11-24")
    expect(register.locator("tbody tr")).to_contain_text("Ben")
    expect(register.locator("tbody tr")).to_contain_text("Bergdorp")
    steps = ours.locator(".legacy-steps li")
    expect(steps).to_have_count(8)
    expect(steps.nth(0)).to_have_class("done")
    expect(steps.nth(1)).to_contain_text("Lighthouse")  # the proposal: the last one added
    steps.nth(1).locator("button").click()
    expect(steps.nth(1)).to_have_class("done")
    expect(ours.locator(".legacy-catalog tr[data-card=lighthouse] select")).to_have_value("archive")
    ours.locator(".legacy-cards > summary").click()
    top(ours.locator(".legacy-steps"))
    snap(page, "console-legacy-register-en")
    accessible(page, "#legacy-part")

    # the same in Hebrew: right to left, no English outside the names and the cards
    he = open_console(screen, hall_server, event["id"], lang="he")
    expect(he.locator("html")).to_have_attribute("dir", "rtl")
    expect(he.locator("article.legacy-campaign")).to_have_count(2)
    expect(he.locator(".legacy-steps li")).to_have_count(8)
    names = ("Legacy night Our town Second city Ana Ben Dana Eli Fay Appelstad Bergdorp Dorp Ezelstad Fort "
             "Harbour Once turn add to your roll")  # the campaigns, players, cities and the card added
    words = english_words(he, (*names.split(), *card_words()))
    assert not words, words
    top(campaign(he, "Our town"))
    snap(he, "console-legacy-he")
    he.locator("article.legacy-campaign").nth(1).locator(".legacy-cards > summary").click()
    he.locator("article.legacy-campaign").nth(1).locator(".legacy-editor > summary").click()
    top(he.locator("article.legacy-campaign").nth(1).locator(".legacy-cards"))
    snap(he, "console-legacy-editor-he")
    violations = axe_violations(he, context="#legacy-part")
    assert not violations, axe_report(violations)
    assert re.search(r"\S", he.locator("#legacy-title").inner_text())

    # game 1's line taken back (the command the undo of a winning move sends with it): the
    # register keeps it crossed out and asks the players to cross it out on paper too
    hall_server.api("POST", f"/api/series/{made['id']}/commands",
                    {"command": "withdraw_game", "number": 1})
    withdrawn = register.locator("tr.legacy-withdrawn")
    expect(withdrawn).to_contain_text("(withdrawn)")
    expect(withdrawn.locator("del")).to_have_count(3)  # the date, the winner, the city
    expect(withdrawn.locator("del").nth(1)).to_have_text("Ben")
    expect(ours).to_contain_text("Cross it out in the register on paper too.")
    expect(ours.locator(".legacy-steps li")).to_have_count(0)  # no line: no end-of-game steps
    top(register)
    snap(page, "console-legacy-withdrawn-en")
    accessible(page, "#legacy-part")
