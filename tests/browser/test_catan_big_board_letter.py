"""Issue 27 (5): a Catan board's letter and colours stay editable on its console card after
the board is made, until its start; a started board's card shows them, says it keeps them, and
a change sent as it started (another console, the API) is refused with that sentence. Console
1366x900 in English, Hebrew and Dutch, with screenshots."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Route, expect

from browser.conftest import Hall, console_page, english_words

CONSOLE = (1366, 900)
LOCALES = {"en": "en-US", "he": "he-IL", "nl": "nl-NL"}
KEPT = {  # the started card's line, after the letter and colours
    "en": ("Letter and colours: C, green, brown. A started board keeps its letter and colours: "
           "they are set before its start."),
    "he": "אות וצבעים: C, ירוק, חום. לוח שהתחיל שומר על האות והצבעים שלו: קובעים אותם לפני תחילתו.",
    "nl": ("Letter en kleuren: C, groen, bruin. Een begonnen bord houdt zijn letter en kleuren: "
           "die worden vóór de start gekozen."),
}
REFUSED = {
    "en": "This board has started: it keeps its letter and colours (they are set before a board's start).",
    "he": "הלוח הזה כבר התחיל: הוא שומר על האות והצבעים שלו (קובעים אותם לפני תחילת הלוח).",
    "nl": ("Dit bord is begonnen: het houdt zijn letter en kleuren (die worden vóór de start van "
           "een bord gekozen)."),
}


def options_of(hall: Hall, event_id: str, table_id: str) -> dict:
    seats = hall.api("GET", f"/api/events/{event_id}")["table_seats"]
    return next(t for t in seats if str(t["id"]) == str(table_id))["options"]


def wait_for_options(hall: Hall, event_id: str, table_id: str, wanted: dict) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if all(options_of(hall, event_id, table_id).get(k) == v for k, v in wanted.items()):
            return
        time.sleep(0.1)
    raise AssertionError(f"the board's options never became {wanted}")


def open_card(page, table_id):
    opener = page.locator(f"button.table-open[data-table='{table_id}']")
    if opener.get_attribute("aria-expanded") != "true":
        opener.click()
    card = page.locator(f".table-card[data-table='{table_id}']")
    expect(card).to_be_visible()
    return card


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_catan_big_board_letter_editable_until_its_start(screen, hall_server, snap, guard, lang):
    event_id = str(hall_server.api("POST", "/api/events", {"name": f"Letters {lang}"}, expect=201)["id"])
    tables = hall_server.api("POST", f"/api/events/{event_id}/seating", {
        "players": ["Avi", "Ben", "Dana", "Eli"], "ruleset": "catan-big", "name_prefix": "Board"},
        expect=201)["tables"]
    first, second = (str(t["id"]) for t in tables)
    page = console_page(screen, hall_server, lang, *CONSOLE, event_id=event_id,
                        shows=f"button.table-open[data-table='{second}']", locale=LOCALES[lang])

    # Made, not started: the card's form changes the letter and the colours, twice.
    card = open_card(page, second)
    card.locator(".setup-tools summary").click()
    form = card.locator(".options-form")
    expect(card.locator(".options-kept")).to_be_hidden()
    for letter, sun, moon in (("B", "white", "orange"), ("C", "green", "brown")):
        form.locator("select[name=letter]").select_option(letter)
        form.locator("select[name=sun_colour]").select_option(sun)
        form.locator("select[name=moon_colour]").select_option(moon)
        form.locator("button[type=submit]").click()
        wait_for_options(hall_server, event_id, second, {"letter": letter, "sun_colour": sun,
                                                         "moon_colour": moon})
        expect(form.locator("select[name=letter]")).to_have_value(letter)

    # Started from its card: the form goes, the card says what the board keeps.
    card.locator("[data-action=start]").click()
    expect(form).to_be_hidden()
    expect(card.locator(".options-kept")).to_have_text(KEPT[lang])
    card.locator(".options-kept").scroll_into_view_if_needed()
    snap(page, f"issue27-console-board-kept-{lang}")
    if lang == "he":
        assert english_words(page, ("Avi", "Ben", "Dana", "Eli", "Letters", "Board", "en", "he", "C")) == []

    # The first board starts (the API) as its form is sent: the refusal says why.
    card = open_card(page, first)
    card.locator(".setup-tools summary").click()
    form = card.locator(".options-form")
    form.locator("select[name=letter]").select_option("B")

    def start_first(route: Route) -> None:
        hall_server.api("POST", f"/api/tables/{first}/start")
        route.continue_()

    guard.allow(r"status of 409")  # the refusal this step provokes
    page.route(f"**/api/tables/{first}/options", start_first)
    form.locator("button[type=submit]").click()
    expect(page.locator("#notice")).to_have_text(REFUSED[lang])
    expect(form).to_be_hidden()  # the board started: its form goes, the refusal stays in sight
    expect(page.locator("#notice")).to_be_visible()
    expect(card.locator(".options-kept")).to_be_visible()
    page.locator("#notice").scroll_into_view_if_needed()
    assert options_of(hall_server, event_id, first)["letter"] == "A"
    snap(page, f"issue27-console-board-refused-{lang}")
