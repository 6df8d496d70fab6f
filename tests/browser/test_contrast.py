"""WCAG AA contrast (4.5:1 for text, 3:1 for large text) on the phone and the hall screen, in
the light and dark colour schemes, measured in Chromium on the rendered pages with the same
checker the console test uses."""

from __future__ import annotations

import pytest

from browser.conftest import contrast_problems, join_seat, open_hall


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_contrast_phone_after_a_roll_is_at_least_wcag_aa(phone, hall_server, scheme):
    event = hall_server.create_event(f"Contrast {scheme}", [("T", ["Ann", "Ben"], "hall")])
    page = join_seat(phone(), hall_server, event["tables"][0]["seats"][0]["join_path"])
    hall_server.roll(event["id"], (2, 5))  # Ann's Bakery: an income line in the breakdown
    page.get_by_text("+1 Bakery").wait_for()
    problems = contrast_problems(page, scheme)
    assert not problems, "\n".join(problems)


def test_contrast_hall_screen_is_at_least_wcag_aa(screen, hall_server):
    event = hall_server.create_event("Contrast hall", [("T", ["Ann", "Ben"], "hall")])
    hall_server.roll(event["id"], (3, 4))
    page = open_hall(screen, hall_server, event["id"])
    page.locator("#tiles").get_by_text("Ann").first.wait_for()
    problems = contrast_problems(page, "dark")
    assert not problems, "\n".join(problems)
