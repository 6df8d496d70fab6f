"""The console's turn clock (templates/organizer/parts/clock.html, static/js/organizer-clock.js)
and its big Catan part (templates/organizer/parts/catan-big.html, static/js/
organizer-catan-big.js) in Chromium against a served hall with real Socket.IO phones: the
schedule saved and a backwards one refused with the server's message, auto-roll on and off,
pause and resume, the dice and the robbers' roll entered by hand, the end of the event; the
queue of claims with their breakdowns, a rejection (a blank reason refused, then a reason), a
verification with the cards in hand on a second device signed in by PIN, a tie the cards decide,
a correction (one over a cap refused), the winner with what decided it and the standings. In
English and Hebrew at a laptop's size, with screenshots and no axe-core violation."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Locator, Page, expect
from socket_phone import Phone

from browser.axe import axe_report, axe_violations
from browser.conftest import CONTRAST_PROBLEMS, LATIN_IN_HEBREW, Hall, console_page

PIN = "508317"
HAND = {"grain": 0, "ore": 0, "brick": 0, "wood": 0, "wool": 0}
WIN = {"settlements": 5, "cities": 8, "foreign_start_settlements": 2, "vp_cards": 0,
       "largest_army": False, "longest_road": False}  # 25 points
PLAYERS = ["4, Avi Cohen", "2, Ben de Vries", "7, Cyrille Lefebvre-Dumont", "1, דנה לוי",
           "3, Eli", "9, Fay"]  # three boards: Avi and Ben, Cyrille and Dana, Eli and Fay
LAPTOP = (1366, 768)


def boards(hall: Hall, name: str) -> tuple[str, list[dict]]:
    """An event of three started catan-big boards seated from a list with registration
    numbers, no schedule yet: (its id, the API's tables with their seats)."""
    event = hall.api("POST", "/api/events", {"name": name}, expect=201)
    tables = hall.api("POST", f"/api/events/{event['id']}/seating",
                      {"players": PLAYERS, "ruleset": "catan-big", "name_prefix": "Board"},
                      expect=201)["tables"]
    for table in tables:
        hall.api("POST", f"/api/tables/{table['id']}/start")
    return event["id"], tables


def view(hall: Hall, event_id: str) -> dict:
    found: dict = hall.api("GET", f"/api/events/{event_id}")
    return found


@pytest.fixture
def phones(hall_server: Hall) -> Iterator[list[Phone]]:
    """Socket.IO phones opened by a test, disconnected at its end (the screen's tests too)."""
    opened: list[Phone] = []
    yield opened
    for phone in opened:
        phone.client.disconnect()


def open_console(screen, hall: Hall, event_id: str, lang: str = "en") -> Page:
    return console_page(screen, hall, lang, *LAPTOP, event_id=event_id, shows="#event-panel")


def shot(page: Page, snap, locator: Locator, name: str) -> None:
    locator.evaluate("(e) => e.scrollIntoView({block: 'start'})")
    snap(page, name)


def no_axe_violation(page: Page, part: str) -> None:
    violations = axe_violations(page, context=part)
    assert not violations, f"{part}: " + axe_report(violations)


# The console's other parts are not this test's: its checks look inside the clock panel and
# the Catan part only.
PARTS = "#clock-panel, #catan-part"


def contrast_in_parts(page: Page, scheme: str) -> list[str]:
    """conftest.contrast_problems, of the text in PARTS."""
    page.emulate_media(color_scheme=scheme)
    page.wait_for_timeout(600)  # Pico eases colours in over 0.2 s: measure the settled ones
    scoped = CONTRAST_PROBLEMS.replace('document.querySelectorAll("body *")',
                                       f'document.querySelectorAll("{PARTS.replace(",", " *,")} *")')
    assert scoped != CONTRAST_PROBLEMS
    problems: list[str] = page.evaluate(scoped)
    return problems


# conftest.ENGLISH_WORDS, of the text and spoken attributes inside `parts` only.
ENGLISH_IN_PARTS = """([allowed, parts]) => {
  const found = new Set();
  const add = (text) => {
    for (const word of text.match(/(?<![/\\w])[A-Za-z]{2,}/g) ?? []) {
      if (!allowed.includes(word)) found.add(word);
    }
  };
  const spoken = ["aria-label", "title", "alt", "placeholder"];
  for (const root of document.querySelectorAll(parts)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.parentElement.closest("script, style, bdi")) add(node.textContent);
    }
    for (const element of root.querySelectorAll(spoken.map((name) => `[${name}]`).join(", "))) {
      for (const name of spoken) add(element.getAttribute(name) ?? "");
    }
  }
  return [...found].sort();
}"""


def english_words_in_parts(page: Page, names: tuple[str, ...]) -> list[str]:
    """The English words the parts show outside <bdi> and the `names` (conftest.english_words)."""
    words: list[str] = page.evaluate(ENGLISH_IN_PARTS, [[*LATIN_IN_HEBREW, *names], PARTS])
    return words


def claim_card(page: Page, name: str) -> Locator:
    return page.locator("#catan-claims > li", has=page.locator("h4", has_text=name))


def test_catan_big_console_clock_schedule_pause_follow_up_dice_and_end(screen, hall_server,
                                                                       guard, snap):
    guard.allow(r"status of 4\d\d")  # the refusals this test provokes on purpose
    event_id, _ = boards(hall_server, "Clock night")
    page = open_console(screen, hall_server, event_id)
    status = page.locator("#clock-status")
    expect(status).to_have_text("No roll yet: the clock starts with the first roll.")
    expect(page.locator("#catan-part")).to_be_visible()
    expect(page.locator("#catan-turn")).to_have_text("No roll yet: the Sun team plays first.")

    # The schedule: 75 s from turn 1, a step added for 90 s from turn 11.
    steps = page.locator("#schedule-steps li")
    expect(steps).to_have_count(1)
    steps.first.get_by_label("Seconds a turn").fill("75")
    page.get_by_role("button", name="Add a step").click()
    expect(steps).to_have_count(2)
    steps.nth(1).get_by_label("From turn").fill("11")
    steps.nth(1).get_by_label("Seconds a turn").fill("90")
    page.get_by_role("button", name="Save the schedule").click()
    expect(page.locator("#notice")).to_have_text("The schedule is saved.")
    assert view(hall_server, event_id)["event"]["schedule"] == [[1, 75], [11, 90]]
    # One that goes backwards is refused with the server's words, and changes nothing.
    steps.nth(1).get_by_label("From turn").fill("1")
    page.get_by_role("button", name="Save the schedule").click()
    refusal = page.locator("#schedule-form #notice")
    expect(refusal).to_contain_text("The schedule is not valid")
    expect(refusal).to_contain_text(re.compile(r"\(.*schedule.*\)"))
    assert view(hall_server, event_id)["event"]["schedule"] == [[1, 75], [11, 90]]
    steps.nth(1).get_by_label("From turn").fill("11")

    # Auto-roll on and off.
    auto = page.get_by_label("Roll for the hall when the time is up")
    auto.check()
    expect(page.locator("#notice")).to_have_text("The hall rolls by itself when the time is up.")
    assert view(hall_server, event_id)["event"]["auto_roll"] is True
    auto.uncheck()
    expect(page.locator("#notice")).to_have_text("The hall rolls only when you roll.")
    assert view(hall_server, event_id)["event"]["auto_roll"] is False

    # The first roll (dice from the hall: no 7 now) starts the clock; pause keeps the time
    # left, resume runs it on.
    page.get_by_text("Dice rolled by hand in the hall").click()
    expect(page.locator("#follow-up-dice")).to_be_visible()  # this event's rules may ask
    page.get_by_label("First die", exact=True).select_option("2")
    page.get_by_label("Second die", exact=True).select_option("4")
    page.get_by_role("button", name="Roll with these dice").click()
    expect(status).to_have_text(re.compile(r"^Turn 1: 1:1\d left\.$"))
    expect(page.locator("#catan-turn")).to_contain_text(re.compile(r"Sun team · Turn 1, rolled \d+"))
    page.get_by_role("button", name="Pause the clock").click()
    expect(status).to_have_text(re.compile(r"^Turn 1: the clock is paused with 1:1\d left\.$"))
    expect(page.get_by_role("button", name="Resume the clock")).to_be_focused()
    page.get_by_role("button", name="Resume the clock").click()
    expect(status).to_have_text(re.compile(r"^Turn 1: 1:1\d left\.$"))
    expect(page.get_by_role("button", name="Pause the clock")).to_be_focused()

    # Turn 16: a 7 rolled by hand with the robbers' roll, 6 and 5: every robber to the 11.
    for number in range(2, 16):
        hall_server.api("POST", f"/api/events/{event_id}/roll",
                        {"dice": [1, 2] if number % 2 else [5, 5], "confirm": True})
    expect(status).to_have_text(re.compile(r"^Turn 15: "))
    page.get_by_label("First die", exact=True).select_option("3")
    page.get_by_label("Second die", exact=True).select_option("4")
    page.get_by_label("First follow-up die").select_option("6")
    page.get_by_role("button", name="Roll with these dice").click()
    expect(page.locator("#notice")).to_have_text("Choose both follow-up dice, or neither.")
    page.get_by_label("Second follow-up die").select_option("5")
    page.get_by_role("button", name="Roll with these dice").click()
    expect(page.locator("#notice")).to_have_text("Roll 16: 3 and 4, total 7. Follow-up dice: 6, 5.")
    turn = view(hall_server, event_id)["turn"]
    assert turn["number"] == 16 and turn["dice"] == [3, 4] and turn["follow_up"] == [6, 5]
    assert turn["rules"]["catan-big"]["robber"] == {"action": "move", "number": 11}
    robber = page.locator("#catan-announcements li[data-kind=robber]")
    expect(robber).to_contain_text("Robbers' roll 11: every robber moves to the tile 11")
    expect(robber).to_contain_text("(dice: 6, 5)")
    expect(page.locator("#catan-announcements li[data-kind=discard]")).to_be_visible()
    expect(status).to_have_text(re.compile(r"^Turn 16: the clock is paused with 1:30 left\.$"))
    expect(page.locator("#follow-up-1")).to_have_value("")  # ready for the next roll
    no_axe_violation(page, "#clock-panel")
    no_axe_violation(page, "#catan-part")
    shot(page, snap, page.locator("#clock-panel"), "catan-console-clock-en-1366x768")

    # The end of the event: asked first; the hall rolls no more.
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="End the event").click()
    expect(status).to_have_text("The event has ended: the hall rolls no more.")
    assert view(hall_server, event_id)["event"]["ended"] is True
    expect(page.locator("#catan-winner")).to_contain_text("No claim of victory was verified.")
    expect(page.locator("#catan-standings tr")).to_have_count(6)
    expect(page.get_by_role("button", name="End the event")).to_be_hidden()


def test_catan_big_console_claims_a_tie_a_correction_and_the_winner(screen, hall_server, guard,
                                                                     phones, snap):
    guard.allow(r"status of 4\d\d")  # the refusals this test provokes on purpose
    event_id, tables = boards(hall_server, "Claims night")
    hall_server.api("POST", f"/api/events/{event_id}/clock", {"schedule": [[1, 120]]})
    hall_server.api("POST", f"/api/events/{event_id}/roll", {"dice": [2, 4]})  # turn 1: Sun
    avi, cyrille, eli = (Phone(hall_server.url, table["seats"][0]["token"]) for table in tables)
    phones.extend([avi, cyrille, eli])
    page = open_console(screen, hall_server, event_id)
    avi.move("a", {"kind": "claim", "breakdown": WIN})
    cyrille.move("c", {"kind": "claim", "breakdown": WIN})
    eli.move("e", {"kind": "claim", "breakdown": {**WIN, "vp_cards": 1}})

    # The queue, oldest first, each with its breakdown.
    expect(page.locator("#catan-claims > li")).to_have_count(3)
    expect(page.locator("#catan-claims-count")).to_have_text("(3)")
    card = claim_card(page, "Avi Cohen")
    expect(card.locator("h4")).to_have_text("Avi Cohen · 25 points")
    expect(card.locator(".claim-meta")).to_have_text(
        "Board 1 (A) · Sun team · claimed in turn 1 · registration 4")
    expect(card.locator(".breakdown tbody tr").nth(1)).to_have_text("Cities816 points")
    expect(card.locator(".breakdown tfoot")).to_have_text("Total25 points")
    no_axe_violation(page, "#catan-part")
    shot(page, snap, page.locator("#catan-part"), "catan-console-claims-en-1366x768")

    # A rejection needs a reason: a blank one is refused with the server's message.
    eli_card = claim_card(page, "Eli")
    eli_card.get_by_label("Reason for rejecting").fill("   ")
    eli_card.get_by_role("button", name="Reject the claim").click()
    refusal = eli_card.locator("#notice")
    expect(refusal).to_contain_text(re.compile(r"\(.*reason.*\)"))
    eli_card.get_by_label("Reason for rejecting").fill("Counted 24 at the board")
    eli_card.get_by_role("button", name="Reject the claim").click()
    expect(page.locator("#notice")).to_have_text("The claim of Eli is rejected.")
    expect(page.locator("#catan-claims > li")).to_have_count(2)

    # A second device signs in with the PIN and verifies Avi's claim with his cards in hand.
    hall_server.api("POST", "/api/organizer/pin", {"pin": PIN})
    second = screen(*LAPTOP).new_page()
    second.goto(f"{hall_server.url}/organizer")
    second.get_by_label("Or enter the organizer's PIN").fill(PIN)
    second.get_by_role("button", name="Sign in").click()
    second.goto(f"{hall_server.url}/organizer?event={event_id}")
    expect(second.locator("#connection")).to_have_attribute("data-state", "connected")
    on_second = claim_card(second, "Avi Cohen")
    on_second.get_by_label("Grain").fill("1")
    on_second.get_by_label("Ore").fill("1")
    expect(on_second.locator(".hand-total")).to_have_text("Cards in hand: 2")
    on_second.get_by_role("button", name="Verify the claim").click()
    expect(second.locator("#notice")).to_have_text("The claim of Avi Cohen is verified.")
    expect(page.locator("#catan-claims > li")).to_have_count(1)  # the first device follows

    # Cyrille's claim, as many points: more cards in hand.
    cy_card = claim_card(page, "Cyrille Lefebvre-Dumont")
    cy_card.get_by_label("Ore").fill("2")
    cy_card.get_by_label("Wool").fill("1")
    cy_card.get_by_role("button", name="Verify the claim").click()
    expect(page.locator("#notice")).to_have_text("The claim of Cyrille Lefebvre-Dumont is verified.")
    expect(page.locator("#catan-no-claims")).to_be_visible()
    expect(page.locator("#catan-verified tbody tr")).to_have_count(2)
    expect(page.locator("#catan-ending")).to_be_visible()

    # A correction of Ben's points; one over a cap is refused with the server's message.
    page.get_by_text("Correct a player's points").click()
    form = page.locator("#catan-correct-form")
    form.get_by_label("Player").select_option(f"{tables[0]['id']}:1")
    form.get_by_label("Settlements in a foreign start area").fill("5")
    form.get_by_label("Reason").fill("Counted at the board")
    form.get_by_role("button", name="Correct the points").click()
    expect(form.locator("#notice")).to_contain_text("A figure is over what the rules allow.")
    expect(form.locator("#notice")).to_contain_text("foreign_start_settlements")
    form.get_by_label("Settlements in a foreign start area").fill("0")
    form.get_by_label("Settlements", exact=True).fill("3")
    form.get_by_label("Cities").fill("2")
    expect(page.locator("#catan-correct-points")).to_have_text("Total: 7 points")
    form.get_by_role("button", name="Correct the points").click()
    expect(form.locator("#notice")).to_have_text("The points of Ben de Vries are corrected.")

    # The next roll ends the game: the winner, what decided it, the standings.
    page.get_by_role("button", name="Roll for the hall").click()
    expect(page.locator("#notice")).to_have_text("The game is over: the hall rolls no more.")
    # news, not a mistake: a status, not an alert
    expect(page.locator("#notice")).to_have_attribute("role", "status")
    winner = page.locator("#catan-winner")
    expect(winner.locator(".headline")).to_have_text("Cyrille Lefebvre-Dumont won!")
    expect(winner).to_contain_text("Decided by: more resource cards in hand")
    rows = page.locator("#catan-standings tr")
    expect(rows).to_have_count(6)
    expect(rows.first).to_contain_text("Cyrille Lefebvre-Dumont")
    ben = page.locator("#catan-standings tr", has_text="Ben de Vries")
    expect(ben).to_contain_text("corrected by the staff: Counted at the board")
    expect(ben).to_contain_text("7")
    no_axe_violation(page, "#catan-part")
    shot(page, snap, page.locator("#catan-part"), "catan-console-winner-en-1366x768")
    for scheme in ("light", "dark"):
        assert contrast_in_parts(page, scheme) == [], scheme


def test_catan_big_console_in_hebrew(screen, hall_server, phones, snap):
    event_id, tables = boards(hall_server, "ערב קטאן")
    hall_server.api("POST", f"/api/events/{event_id}/clock", {"schedule": [[1, 90]]})
    hall_server.api("POST", f"/api/events/{event_id}/roll", {"dice": [3, 4]})  # a 7: paused
    avi = Phone(hall_server.url, tables[0]["seats"][0]["token"])
    phones.append(avi)
    avi.move("a", {"kind": "claim", "breakdown": WIN})
    page = open_console(screen, hall_server, event_id, lang="he")
    assert page.locator("html").get_attribute("dir") == "rtl"
    expect(page.locator("#clock-status")).to_have_text("תור 1: השעון מושהה, נותרו 1:30.")
    card = claim_card(page, "Avi Cohen")
    expect(card.locator("h4")).to_have_text("Avi Cohen · 25 נקודות")
    robbers = page.locator("#catan-announcements li[data-kind=robber]")
    expect(robbers).to_contain_text("השודדים נשארים במקומם.")
    # The names of the players, tables and events are theirs (the correction's choice and the
    # event choice list them).
    names = ("Avi", "Cohen", "Ben", "de", "Vries", "Cyrille", "Lefebvre", "Dumont", "Eli", "Fay",
             "Board", "Claims", "Clock", "night")
    assert english_words_in_parts(page, names) == []
    no_axe_violation(page, "#clock-panel")
    no_axe_violation(page, "#catan-part")
    shot(page, snap, page.locator("#clock-panel"), "catan-console-clock-he-1366x768")
    shot(page, snap, page.locator("#catan-part"), "catan-console-claims-he-1366x768")
    card.get_by_label("חיטה").fill("2")
    card.get_by_role("button", name="אימות ההכרזה").click()
    expect(page.locator("#notice")).to_have_text("ההכרזה של Avi Cohen אומתה.")
    expect(page.locator("#catan-verified tbody tr")).to_have_count(1)
