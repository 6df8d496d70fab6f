"""Issue 27's big Catan event replayed through the organizer's console alone (no API call by
hand): the event made, 100 players pasted with their registration numbers and each board's
letter and colours in the pasted lines (50 boards), one board's letter changed on its card
before the start, every board started with one button, the schedule with its production window
saved, the hall rolled with the console's dice, the production ended early for the whole hall,
a claim (a real Socket.IO phone) verified from the console's queue, the next roll ending the
event with the winner; a player's browser phone follows each step. Console 1366x900, projector
1920x1080 and phone 390x844, in English, Hebrew and Dutch."""

from __future__ import annotations

import time

from playwright.sync_api import Page, expect
from socket_phone import Phone

from browser.conftest import Hall, console_page, join_seat
from browser.evening import card_of, mid_word_breaks, token_of
from browser.test_catan_big_screen import open_screen

CONSOLE = (1366, 900)
PROJECTOR = (1920, 1080)
LOCALES = {"en": "en-US", "he": "he-IL", "nl": "nl-NL"}
BOARDS = 50
NAMES = ["Avi Cohen", "Ben de Vries", "Cyrille Lefebvre-Dumont", "דנה לוי"]
PLAYERS = [f"{n}, {NAMES[n - 1] if n <= len(NAMES) else f'Player {n}'}" for n in range(1, 2 * BOARDS + 1)]
LETTERS = "ABC"
LINES = [f"{LETTERS[n % 3]}" for n in range(BOARDS)]
LINES[1] = "B white orange"  # board 2: its own colours
WIN = {"settlements": 5, "cities": 8, "foreign_start_settlements": 2, "vp_cards": 0,
       "largest_army": False, "longest_road": False}  # 25 points





def hand_roll(page: Page, d1: int, d2: int) -> None:
    hand = page.locator("#hand-dice")
    if hand.get_attribute("open") is None:
        hand.locator("summary").click()
    page.get_by_label("First die", exact=True).select_option(str(d1))
    page.get_by_label("Second die", exact=True).select_option(str(d2))
    page.get_by_role("button", name="Roll with these dice").click()


def test_evening_catan_fifty_boards_through_the_console(screen, tall_phone, hall_server: Hall,
                                                        snap, guard):
    guard.allow(r"status of 409")  # the roll after the winner: the console says the game is over
    started = time.monotonic()
    page = console_page(screen, hall_server, "en", *CONSOLE, shows="#event-form")
    page.locator("#event-name").fill("Catan 100")
    page.locator("#event-form button[type=submit]").click()
    expect(page.locator("#event-panel")).to_be_visible()
    event_id = page.locator("#event-select").input_value()

    # The pasted list: 100 players, a line of letter and colours a board.
    form = page.locator("#seating-form")
    form.locator("select[name=ruleset]").select_option("catan-big")
    form.locator("textarea[name=players]").fill("\n".join(PLAYERS))
    form.locator("textarea[name=table_lines]").fill("\n".join(LINES))
    form.locator("button[type=submit]").click()
    expect(page.locator("#overview tr")).to_have_count(BOARDS, timeout=15_000)
    expect(page.locator("#overview tr[data-state=setup]")).to_have_count(BOARDS)

    # Each board's letter as pasted; board 3's changed on its card before the start.
    second = card_of(page, "Board 2")
    second.locator(".setup-tools summary").click()
    expect(second.locator(".options-form select[name=letter]")).to_have_value("B")
    expect(second.locator(".options-form select[name=sun_colour]")).to_have_value("white")
    expect(second.locator(".options-form select[name=moon_colour]")).to_have_value("orange")
    third = card_of(page, "Board 3")
    third.locator(".setup-tools summary").click()
    options = third.locator(".options-form")
    expect(options.locator("select[name=letter]")).to_have_value("C")
    options.locator("select[name=letter]").select_option("A")
    options.locator("button[type=submit]").click()
    expect(page.locator("#notice")).to_have_text("The options are saved.")
    expect(options.locator("select[name=letter]")).to_have_value("A")
    token = token_of(card_of(page, "Board 1"), 1)  # Ben, Moon at board 1: a browser phone
    winner_token = token_of(card_of(page, "Board 2"), 0)  # Cyrille, Sun at board 2

    page.locator("#start-all").click()
    expect(page.locator("#overview tr[data-state=setup]")).to_have_count(0, timeout=15_000)
    expect(third.locator(".options-kept")).to_contain_text("Letter and colours: A,")

    # The schedule: 90 s a turn, 30 s of production.
    step = page.locator("#schedule-steps li").first
    step.get_by_label("Seconds a turn").fill("90")
    step.get_by_label("Production (seconds, no trading)").fill("30")
    page.get_by_role("button", name="Save the schedule").click()
    expect(page.locator("#notice")).to_have_text("The schedule is saved.")

    ben = join_seat(tall_phone(), hall_server, f"/j/{token}")
    expect(ben.locator("#catan-board")).to_have_text("Board A")
    expect(ben.locator("#catan-team-word")).to_have_text("Moon team")
    expect(ben.locator("#catan-total strong")).to_have_text("4")  # RULES.md 24
    hall = open_screen(screen, hall_server, event_id, *PROJECTOR)

    # Turn 1: the Sun team's; production, ended early by the staff for the whole hall.
    hand_roll(page, 2, 4)
    expect(hall.locator("#phases li.now")).to_have_attribute("data-phase", "production")
    expect(ben.locator("#catan-phase")).to_have_attribute("data-phase", "production")
    expect(ben.locator("#catan-on-turn")).to_have_text("The Sun team's turn")
    end = page.locator("#catan-production-end")
    expect(end).to_be_visible()
    snap(page, "evening-catan-console-production-en")
    snap(hall, "evening-catan-projector-production-en")
    snap(ben, "evening-catan-phone-production-en")
    end.click()
    expect(end).to_be_hidden()
    expect(hall.locator("#phases li.now")).to_have_attribute("data-phase", "build")
    expect(ben.locator("#catan-phase")).to_have_attribute("data-phase", "build")
    snap(hall, "evening-catan-projector-trade-en")

    # Cyrille claims 25 on his team's turn; the console's queue verifies it with his cards.
    cyrille = Phone(hall_server.url, winner_token)
    try:
        cyrille.move("evening-claim", {"kind": "claim", "breakdown": WIN})
    finally:
        cyrille.client.disconnect()
    claim = page.locator("#catan-claims > li", has=page.locator("h4", has_text="Cyrille"))
    expect(claim.locator("h4")).to_have_text("Cyrille Lefebvre-Dumont · 25 points")
    expect(claim.locator(".claim-meta")).to_contain_text("Board 2 (B) · Sun team · claimed in turn 1")
    claim.get_by_label("Ore").fill("2")
    claim.get_by_role("button", name="Verify the claim").click()
    expect(page.locator("#notice")).to_have_text("The claim of Cyrille Lefebvre-Dumont is verified.")

    # The next roll ends the event: the winner on the console and on Ben's phone.
    page.get_by_role("button", name="Roll for the hall").click()
    expect(page.locator("#notice")).to_have_text("The game is over: the hall rolls no more.")
    expect(page.locator("#catan-winner .headline")).to_have_text("Cyrille Lefebvre-Dumont won!")
    expect(page.locator("#catan-standings tr")).to_have_count(2 * BOARDS)
    detail = ben.locator("#catan-outcome-detail")
    expect(detail).to_contain_text("Cyrille Lefebvre-Dumont won the event with 25 points (board B).")
    expect(detail).to_contain_text(f"of {2 * BOARDS}.")
    page.locator("#catan-part").evaluate("(e) => e.scrollIntoView({block: 'start'})")
    snap(page, "evening-catan-console-end-en")
    snap(hall, "evening-catan-projector-end-en")
    ben.evaluate("window.scrollTo(0, 0)")
    snap(ben, "evening-catan-phone-end-en")
    assert time.monotonic() - started < 60

    # The end in Hebrew and Dutch: console, projector, a phone (Avi's, Sun at board 1).
    avi = token_of(card_of(page, "Board 1"), 0)
    for lang in ("he", "nl"):
        console = console_page(screen, hall_server, lang, *CONSOLE, event_id=event_id,
                               shows="#catan-winner .headline", locale=LOCALES[lang])
        console.locator("#catan-part").evaluate("(e) => e.scrollIntoView({block: 'start'})")
        snap(console, f"evening-catan-console-end-{lang}")
        projector = open_screen(screen, hall_server, event_id, *PROJECTOR, lang=lang)
        snap(projector, f"evening-catan-projector-end-{lang}")
        phone = join_seat(tall_phone(LOCALES[lang]), hall_server, f"/j/{avi}")
        expect(phone.locator("#catan-outcome")).to_be_visible()
        expect(phone.locator("#catan-outcome-detail")).to_contain_text("Cyrille Lefebvre-Dumont")
        snap(phone, f"evening-catan-phone-end-{lang}")
        for shown in (phone, projector, console):  # issue 27 (9): no word broken mid-word
            assert mid_word_breaks(shown.locator("body")) == [], lang
