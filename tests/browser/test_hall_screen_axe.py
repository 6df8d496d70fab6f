"""axe-core finds nothing on the hall screen (issue 16, item 14): at 1920x1080 and 1280x720, in
English, Hebrew and Dutch, with the event empty, with tables mid-game (a co-op table among them)
and with a won table."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser.axe import axe_report, axe_violations
from browser.conftest import open_hall
from browser.test_hall_screen_tiles import LOCALES, SIZES, mid_game, play_to_a_win


@pytest.fixture(scope="module")
def events(hall_server) -> dict[str, str]:
    """One event per state of the hall screen: state -> event id."""
    empty = hall_server.api("POST", "/api/events", {"name": "Axe: empty"}, expect=201)
    playing = mid_game(hall_server, "Axe: mid-game", tables=3)
    hall_server.coop_event("Axe: co-op")  # its own event: the co-op tile's markup, mid-game
    won = hall_server.create_event("Axe: won", [("Winners", ["Dana", "Ben"], "hall"),
                                                ("Others", ["Cy", "Di", "Ed"], "hall")])
    play_to_a_win(hall_server, won["id"], won["tables"][0])
    coop = [e for e in hall_server.api("GET", "/api/events") if e["name"] == "Axe: co-op"][0]
    return {"empty": empty["id"], "mid-game": playing["id"], "co-op": coop["id"], "won": won["id"]}


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
@pytest.mark.parametrize("state", ["empty", "mid-game", "co-op", "won"])
def test_hall_screen_has_no_axe_violations(screen, hall_server, events, state, lang):
    for width, height in SIZES:
        page = open_hall(screen, hall_server, events[state], width, height, locale=LOCALES[lang])
        if state != "empty":
            expect(page.locator("#tiles .tile").first).to_be_visible()
        if state == "won":
            expect(page.locator(".win-banner")).to_be_visible()
        violations = axe_violations(page)
        assert not violations, f"{state}, {lang}, {width}x{height}: " + axe_report(violations)


def test_axe_violations_finds_what_it_is_shown(screen, hall_server, events):
    """The helper does check: an image without a text and grey text on grey are found."""
    page = open_hall(screen, hall_server, events["empty"])
    page.evaluate("""() => {
      const img = document.createElement('img');
      img.src = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
      const faint = document.createElement('p');
      faint.textContent = 'faint';
      faint.style.cssText = 'color: #777; background: #666';
      document.querySelector('main').append(img, faint);
    }""")
    found = {violation["id"] for violation in axe_violations(page)}
    assert {"image-alt", "color-contrast"} <= found, found
