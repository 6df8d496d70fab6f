"""axe-core finds nothing on the pages outside the hall, the console and the phone (issue 16,
item 14: every page): the organizer's sign-in with its PIN form (on a phone at the hall's door
and on a laptop), a wrong PIN's answer, and the message pages (an unknown page, an organizer
link that is not valid), in English, Hebrew and Dutch."""

from __future__ import annotations

import pytest

from browser.axe import axe_report, axe_violations

LOCALES = {"en": "en-US", "he": "he-IL", "nl": "nl-NL"}
PIN = "482915"


@pytest.fixture
def pin_set(hall_server):
    hall_server.api("POST", "/api/organizer/pin", {"pin": PIN})


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_pages_axe_sign_in_and_message_pages(tall_phone, screen, hall_server, pin_set, guard, lang,
                                             snap):
    guard.allow(r"status of (403|404|429)")  # the refusal pages, opened on purpose
    for context, size in ((tall_phone(LOCALES[lang]), "390x844"), (screen(1366, 768), "1366x768")):
        page = context.new_page()
        for name, path in (("signin", "/organizer"), ("unknown", "/no-such-page"),
                           ("bad-link", "/organizer?key=not-the-key")):
            page.goto(f"{hall_server.url}{path}?lang={lang}" if "?" not in path
                      else f"{hall_server.url}{path}&lang={lang}")
            violations = axe_violations(page)
            assert not violations, f"{name} {lang} {size}: " + axe_report(violations)
        page.goto(f"{hall_server.url}/organizer?lang={lang}")
        page.locator("input[name=pin]").fill("000001")
        page.locator("form[action$='/organizer/pin'] button[type=submit]").click()
        page.wait_for_load_state()
        assert "pin" in page.url or page.locator("input[name=pin]").count() == 1
        violations = axe_violations(page)
        assert not violations, f"wrong PIN {lang} {size}: " + axe_report(violations)
        snap(page, f"signin-wrong-pin-{lang}-{size}")
