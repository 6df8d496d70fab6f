"""The projector's big number is the one the tables use (issue 16, item 1): the first die, large,
for the tables that roll one die, and the total for the tables that roll two (a Train Station),
each readable from the back of the hall; the charts count both, the first die 1-6 and the
totals 2-12. At both projector sizes, in English, Hebrew and Dutch."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from browser.conftest import open_hall
from browser.test_hall_screen_tiles import give_two_dice

SIZES = ((1920, 1080), (1280, 720))
LOCALES = {"en": "en-US", "he": "he-IL", "nl": "nl-NL"}
# The labels of the two rows of dice, per language: (one die, two dice, "1 table", "no table").
LABELS = {
    "en": ("One die", "Two dice", "1 table", "no table"),
    "he": ("קובייה אחת", "שתי קוביות", "שולחן אחד", "אף שולחן"),
    "nl": ("Eén dobbelsteen", "Twee dobbelstenen", "1 tafel", "geen tafel"),
}


def row_height(page: Page, selector: str) -> float:
    box = page.locator(selector).bounding_box()
    assert box, f"{selector} is not shown"
    return float(box["height"])


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_hall_screen_one_die_tables_see_the_first_die_big(screen, hall_server, snap, lang):
    one, two, _, nobody = LABELS[lang]
    event = hall_server.create_event(f"One die {lang}", [("T1", ["Ann", "Ben"], "hall"),
                                                         ("T2", ["Cy", "Di"], "hall")])
    hall_server.roll(event["id"], (2, 5))  # everybody starts with one die: they all rolled 2
    for width, height in SIZES:
        page = open_hall(screen, hall_server, event["id"], width, height, locale=LOCALES[lang])
        expect(page.locator("#dice .one .number")).to_have_text("2")
        expect(page.locator("#dice .one .die")).to_have_count(1)
        if lang == "en":
            expect(page.locator("#dice .one .die")).to_have_attribute("aria-label", "die showing 2")
        two_tables = {"en": "2 tables", "he": "2 שולחנות", "nl": "2 tafels"}[lang]
        expect(page.locator("#dice .one .dice-label")).to_have_text(f"{one} · {two_tables}")
        expect(page.locator("#dice .two .dice-label")).to_have_text(f"{two} · {nobody}")
        expect(page.locator("#dice .two")).to_have_class("dice-row two unused")
        expect(page.locator("#dice .two .sum")).to_have_text("= 7")
        # From the back of the hall: the first die's number at least a twelfth of the screen
        # high, above the total no table used, which stays readable but smaller.
        number = row_height(page, "#dice .one .number")
        assert number > height / 12, f"the first die's number is only {number}px high"
        assert row_height(page, "#dice .two .sum") < number
        assert row_height(page, "#dice .two .sum") > height / 30
        snap(page, f"hall-dice-one-{lang}-{width}x{height}")


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_hall_screen_two_dice_tables_see_the_total_big(screen, hall_server, snap, lang):
    one, two, a_table, _ = LABELS[lang]
    event = hall_server.create_event(f"Two dice {lang}", [("Trains", ["Ann", "Ben"], "hall"),
                                                          ("Walkers", ["Cy", "Di"], "hall")])
    give_two_dice(hall_server, event["id"], event["tables"][0])  # Ann rolls two dice next
    hall_server.roll(event["id"], (3, 4))
    summaries = hall_server.api("GET", f"/api/events/{event['id']}")["tables"]
    assert [s["dice"] for s in summaries] == [[3, 4], [3]]
    for width, height in SIZES:
        page = open_hall(screen, hall_server, event["id"], width, height, locale=LOCALES[lang])
        expect(page.locator("#dice .one .number")).to_have_text("3")
        expect(page.locator("#dice .two .sum")).to_have_text("= 7")
        expect(page.locator("#dice .two .die")).to_have_count(2)
        expect(page.locator("#dice .one .dice-label")).to_have_text(f"{one} · {a_table}")
        expect(page.locator("#dice .two .dice-label")).to_have_text(f"{two} · {a_table}")
        expect(page.locator("#dice .unused")).to_have_count(0)
        for selector in ("#dice .one .number", "#dice .two .sum"):
            shown = row_height(page, selector)
            assert shown > height / 12, f"{selector} is only {shown}px high at {width}x{height}"
        size = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
        assert size == [width, height], f"the hall screen scrolls at {width}x{height}: {size}"
        snap(page, f"hall-dice-two-{lang}-{width}x{height}")


def test_hall_screen_charts_count_the_first_die_and_the_totals(screen, hall_server):
    event = hall_server.create_event("Charts", [("T1", ["Ann", "Ben"], "hall")])
    for dice in ((3, 4), (6, 6), (3, 1)):
        hall_server.roll(event["id"], dice)
    page = open_hall(screen, hall_server, event["id"])
    first = page.locator("#histogram .first")
    expect(first.locator("rect.bar")).to_have_count(6)
    expect(first.locator("polyline.expected")).to_have_count(1)
    expect(page.locator("#histogram-first-desc")).to_have_text(
        "3 rolls; by the first die: 1: 0, 2: 0, 3: 2, 4: 0, 5: 0, 6: 1. "
        "The line is what a fair die gives on average.")
    expect(first.locator("text.count")).to_have_text(["2", "1"])
    totals = page.locator("#histogram .totals")
    expect(totals.locator("rect.bar")).to_have_count(11)
    expect(page.locator("#histogram-desc")).to_contain_text("3 rolls; by total: 2: 0, 3: 0, 4: 1,")
    expect(page.locator("#histogram .chart-title")).to_have_text(["One die", "Two dice"])
    # The same scale of bars in both: the first die's chart is narrower, not squeezed.
    bar_widths = [page.locator(f"#histogram .{chart} rect.bar").first.bounding_box()["width"]
                  for chart in ("first", "totals")]
    assert abs(bar_widths[0] - bar_widths[1]) < 2, bar_widths
