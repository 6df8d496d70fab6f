"""The big Catan event's hall screen (templates/hall/screens/catan-big.html, static/js/
hall-catan-big.js) in Chromium against a served hall with real Socket.IO: an event whose tables
are all catan-big boards gets this screen instead of the Machi Koro one; before the first roll
it says how to join; a turn shows the team as a sun or a moon with its word, the turn, the total
and the two dice, the countdown from the deadline and the phase (production for the first 20
seconds, then trade and build); a 7 shows the discard check, the robbers' instruction and the
paused clock; the claims being verified; the totals against fair dice; at the end the winner,
what decided it, and the standings. At 1920x1080 and 1280x720, in English, Hebrew (right to
left) and Dutch, with screenshots, nothing cut off, and no axe-core violation."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from socket_phone import Phone

from browser import test_catan_big_console as console
from browser.axe import axe_report, axe_violations
from browser.conftest import Hall, contrast_problems, english_words
from browser.test_catan_big_console import HAND, WIN, boards

SIZES = ((1920, 1080), (1280, 720))
LOCALES = {"en": "en-US", "he": "he-IL", "nl": "nl-NL"}
phones = console.phones  # the fixture: Socket.IO phones, disconnected at a test's end


def catan_event(hall: Hall, name: str, schedule=((1, 60), (11, 90))) -> tuple[str, list[dict]]:
    """The console tests' three boards (`boards`: Sun and Moon each), with a schedule and no
    auto-roll: (the event's id, the API's tables with their seats)."""
    event_id, tables = boards(hall, name)
    hall.api("POST", f"/api/events/{event_id}/clock",
             {"schedule": [list(step) for step in schedule], "auto_roll": False})
    return event_id, tables


def roll(hall: Hall, event_id: str, dice: tuple[int, int], follow_up=None) -> dict:
    body = {"dice": list(dice), "confirm": True}
    if follow_up:
        body["follow_up"] = list(follow_up)
    answer: dict = hall.api("POST", f"/api/events/{event_id}/roll", body)
    return answer


def staff(hall: Hall, table_id: str, **move) -> None:
    hall.api("POST", f"/api/tables/{table_id}/staff_move", {"move": move})


def open_screen(screen, hall: Hall, event_id: str, width: int, height: int, lang: str = "en",
                clock: bool = False) -> Page:
    """The hall screen of an event, connected, without motion (stable screenshots); `clock`:
    with Playwright's clock installed, so a test can move the screen's time on."""
    context: BrowserContext = screen(width, height, locale=LOCALES[lang])
    if clock:
        context.clock.install()
    page = context.new_page()
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{hall.url}/hall/{event_id}?lang={lang}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "connected")
    return page


# Every part of the screen shows whole: nothing scrolls, no section cuts off its content.
CUT_OFF = """() => {
  const out = [];
  const root = document.documentElement;
  if (root.scrollWidth > innerWidth + 1 || root.scrollHeight > innerHeight + 1) {
    out.push(`page ${root.scrollWidth}x${root.scrollHeight}`);
  }
  for (const part of document.querySelectorAll('#catan-screen > section, .hall-top')) {
    if (!part.offsetParent) continue;
    if (part.scrollHeight > part.clientHeight + 1 || part.scrollWidth > part.clientWidth + 1) {
      out.push(`${part.className}: ${part.scrollWidth}x${part.scrollHeight}`
        + ` in ${part.clientWidth}x${part.clientHeight}`);
    }
  }
  return out;
}"""


def fits(page: Page) -> None:
    cut = page.evaluate(CUT_OFF)
    assert not cut, f"cut off: {cut}"


def no_axe_violation(page: Page, where: str) -> None:
    violations = axe_violations(page)
    assert not violations, f"{where}: " + axe_report(violations)


def seconds_shown(page: Page) -> int:
    minutes, seconds = page.locator(".clock-time").inner_text().split(":")
    return int(minutes) * 60 + int(seconds)


def test_catan_big_screen_is_chosen_for_an_event_of_boards_only(screen, hall_server):
    """Its own screen for an event of boards, Machi Koro's for the others; the event's end."""
    event_id, _ = catan_event(hall_server, "Boards only")
    page = open_screen(screen, hall_server, event_id, 1280, 720)
    expect(page.locator("#catan-screen")).to_be_visible()
    expect(page.locator("#tiles")).to_have_count(0)
    # Ended by the staff without a verified claim: said so, with the standings.
    hall_server.api("POST", f"/api/events/{event_id}/end")
    expect(page.locator("#catan-screen")).to_have_attribute("data-state", "over")
    expect(page.locator("#winner .headline")).to_have_text("The event has ended.")
    expect(page.locator("#winner .decided")).to_have_text("No claim of victory was verified.")
    expect(page.locator("#standings tr")).to_have_count(6)
    fits(page)
    machi = hall_server.create_event("Machi Koro night", [("T1", ["Ann", "Ben"], "hall")])
    other = open_screen(screen, hall_server, machi["id"], 1280, 720)
    expect(other.locator("#tiles")).to_be_visible()
    expect(other.locator("#catan-screen")).to_have_count(0)


def test_catan_big_screen_before_the_first_roll_and_during_a_turn(screen, hall_server, snap):
    event_id, _ = catan_event(hall_server, "Catan Night Rotterdam")
    pages = {size: open_screen(screen, hall_server, event_id, *size, clock=True) for size in SIZES}
    for (width, height), page in pages.items():
        expect(page.locator("#catan-screen")).to_have_attribute("data-state", "waiting")
        expect(page.locator("#team .team-word")).to_have_text("Sun team")
        expect(page.locator("#team .symbol.sun")).to_be_visible()
        expect(page.locator("#team .team-note")).to_have_text("The Sun team plays first.")
        expect(page.locator("#roll")).to_have_text("Waiting for the first roll")
        expect(page.locator("#clock-note")).to_have_text("60 s a turn from turn 1, 90 s from turn 11")
        expect(page.locator("#join .join-url")).to_be_visible()
        fits(page)
        snap(page, f"catan-screen-waiting-en-{width}x{height}")

    roll(hall_server, event_id, (6, 4))
    for (width, height), page in pages.items():
        expect(page.locator("#catan-screen")).to_have_attribute("data-state", "playing")
        expect(page.locator("#turn-number")).to_have_text("Turn 1")
        expect(page.locator("#roll .total")).to_have_text("10")
        expect(page.locator("#roll .die")).to_have_count(2)
        expect(page.locator("#roll .die").first).to_have_attribute("aria-label", "die showing 6")
        expect(page.locator("#team .team-word")).to_have_text("Sun team")
        expect(page.locator("#team .team-note")).to_have_text("on turn")
        expect(page.locator("#clock .clock-label")).to_have_text("Time left")
        expect(page.locator(".clock-time")).to_have_text(re.compile(r"^(1:00|0:5\d)$"))
        expect(page.locator("#phases li.now")).to_have_text(re.compile("Production"))
        expect(page.locator("#phases li.now")).to_have_attribute("aria-current", "step")
        expect(page.locator("#join")).to_be_hidden()
        expect(page.locator("#histogram svg desc")).to_contain_text("1 rolls; by total:")
        expect(page.locator("#no-claims")).to_be_visible()
        # From the back of the hall: the total at least a sixth of the screen high.
        box = page.locator("#roll .total").bounding_box()
        assert box and box["height"] > height / 6, box
        fits(page)
        snap(page, f"catan-screen-production-en-{width}x{height}")

    # 25 seconds into the turn: production is over, trade and build; the countdown went on.
    for (width, height), page in pages.items():
        before = seconds_shown(page)
        page.clock.fast_forward("00:25")
        expect(page.locator("#phases li.now")).to_have_text(re.compile("Trade and build"))
        expect(page.locator("#phases li.done")).to_have_text(re.compile("Production"))
        assert before - 26 <= seconds_shown(page) <= before - 24
        fits(page)
        snap(page, f"catan-screen-trade-en-{width}x{height}")
        no_axe_violation(page, f"a turn, {width}x{height}")
        assert contrast_problems(page, "dark") == []

    roll(hall_server, event_id, (1, 2))  # turn 2 is the Moon team's
    for page in pages.values():
        expect(page.locator("#turn-number")).to_have_text("Turn 2")
        expect(page.locator("#team .team-word")).to_have_text("Moon team")
        expect(page.locator("#team .symbol.moon")).to_be_visible()
        expect(page.locator("#roll .total")).to_have_text("3")


@pytest.mark.parametrize("lang", ["he", "nl"])
def test_catan_big_screen_a_seven_the_robbers_and_the_paused_clock(screen, hall_server, snap, lang):
    event_id, _ = catan_event(hall_server, f"Robbers {lang}")
    words = {
        "he": ("בדיקת השלכה", "השודדים נשארים במקומם.", "מושהה",
               "הטלת השודדים 12: שודד אחד עובר ל־12"),
        "nl": ("Afleggen", "De rovers blijven waar ze zijn.", "Gepauzeerd",
               "Roverworp 12: één rover gaat naar de 12"),
    }[lang]
    discard, stay, paused, lone = words
    roll(hall_server, event_id, (3, 4))  # turn 1: a 7 before turn 16, the robbers stay
    pages = {size: open_screen(screen, hall_server, event_id, *size, lang=lang) for size in SIZES}
    for page in pages.values():
        expect(page.locator(".catan-notice.discard .notice-title")).to_have_text(discard)
        expect(page.locator(".catan-notice.robber .notice-text")).to_have_text(stay)
        expect(page.locator(".catan-notice.robber .die")).to_have_count(0)
        expect(page.locator("#clock .clock-label")).to_have_text(paused)  # a 7 pauses the clock
        expect(page.locator(".clock-time")).to_have_text("1:00")
        expect(page.locator(".catan-chart")).to_be_hidden()  # the announcements take its place
    hall_server.api("POST", f"/api/events/{event_id}/resume")
    for number in range(2, 16):
        roll(hall_server, event_id, (1, 2) if number % 2 else (5, 5))
    roll(hall_server, event_id, (6, 1), follow_up=(6, 6))  # turn 16: the robbers' roll, 12
    for (width, height), page in pages.items():
        expect(page.locator("#turn-number")).to_contain_text("16")
        expect(page.locator(".catan-notice.robber .notice-text")).to_contain_text(lone)
        expect(page.locator(".catan-notice.robber .die")).to_have_count(2)
        expect(page.locator("#clock .clock-label")).to_have_text(paused)
        expect(page.locator(".clock-time")).to_have_text("1:30")  # 90 s from turn 11
        expect(page.locator("#team .symbol.moon")).to_be_visible()
        if lang == "he":
            assert page.evaluate("document.documentElement.dir") == "rtl"
        if lang == "he":
            assert english_words(page) == []
        fits(page)
        snap(page, f"catan-screen-robbers-{lang}-{width}x{height}")
        no_axe_violation(page, f"robbers, {lang}, {width}x{height}")
        assert contrast_problems(page, "dark") == []


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_catan_big_screen_claims_then_the_winner_and_the_standings(screen, hall_server, phones,
                                                                    snap, lang):
    event_id, tables = catan_event(hall_server, f"Claims {lang}")
    roll(hall_server, event_id, (2, 4))  # turn 1: the Sun team's
    avi, cyrille = (Phone(hall_server.url, tables[i]["seats"][0]["token"]) for i in (0, 1))
    phones.extend([avi, cyrille])
    pages = {size: open_screen(screen, hall_server, event_id, *size, lang=lang) for size in SIZES}
    avi.move("c1", {"kind": "claim", "breakdown": WIN})
    cyrille.move("c2", {"kind": "claim", "breakdown": WIN})
    checking = {"en": "being checked", "he": "בבדיקה", "nl": "wordt gecontroleerd"}[lang]
    waits = {"en": "The next roll waits for the claims to be checked.",
             "he": "הגלגול הבא מחכה לבדיקת ההכרזות.",
             "nl": "De volgende worp wacht op de controle van de claims."}[lang]
    for (width, height), page in pages.items():
        expect(page.locator("#clock-note")).to_contain_text(waits)  # RULES.md 23: the turn is held
        expect(page.locator("#claims li.claim")).to_have_count(2)
        first = page.locator("#claims li.claim").first
        expect(first.locator(".name")).to_have_text("Avi Cohen")
        expect(first.locator(".status")).to_contain_text(checking)
        expect(first.locator(".team-mark.sun")).to_have_count(1)
        fits(page)
        snap(page, f"catan-screen-claims-{lang}-{width}x{height}")

    # A tie of points between the two claims verified in turn 1: the cards in hand decide.
    staff(hall_server, tables[0]["id"], kind="verify", seat=0, resources={**HAND, "ore": 2})
    staff(hall_server, tables[1]["id"], kind="verify", seat=0, resources={**HAND, "grain": 3})
    for page in pages.values():
        expect(page.locator("#claims li.claim.verified")).to_have_count(2)
        expect(page.locator(".catan-notice.ending")).to_be_visible()
    over = hall_server.api("POST", f"/api/events/{event_id}/roll", {"dice": [1, 2]}, expect=409)
    assert over["code"] == "event/over"

    won = {"en": "Cyrille Lefebvre-Dumont won!", "he": "הניצחון של Cyrille Lefebvre-Dumont!",
           "nl": "Cyrille Lefebvre-Dumont heeft gewonnen!"}[lang]
    decided = {"en": "Decided by: more resource cards in hand",
               "he": "הוכרע לפי: יותר קלפי משאבים ביד",
               "nl": "Beslist door: meer grondstofkaarten in de hand"}[lang]
    for (width, height), page in pages.items():
        expect(page.locator("#catan-screen")).to_have_attribute("data-state", "over")
        expect(page.locator("#winner .headline")).to_have_text(won)
        expect(page.locator("#winner .decided")).to_have_text(decided)
        rows = page.locator("#standings tr")
        expect(rows.first.locator(".name")).to_have_text("Cyrille Lefebvre-Dumont")
        expect(rows.nth(1).locator(".name")).to_have_text("Avi Cohen")
        expect(rows.first.locator(".checked.yes")).to_have_count(1)
        expect(rows.nth(2).locator(".checked.no")).to_have_count(1)  # unverified figures say so
        fits(page)
        snap(page, f"catan-screen-winner-{lang}-{width}x{height}")
        no_axe_violation(page, f"the end, {lang}, {width}x{height}")
        assert contrast_problems(page, "dark") == []
        if lang == "he":
            assert english_words(page) == []  # names and table names are in <bdi>
