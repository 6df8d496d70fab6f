"""Issue 27's club night replayed through the organizer's console alone (no API call by hand):
the event made and 27 players seated in three pastes (six tables rolling with the hall, one
table rolling its own dice, one co-op pair), every table started with one button, the hall
rolled with the console's dice, the own-roll table's seat without a phone rolled for with "Roll
for NAME", its other seats on real Socket.IO phones; one hall screen shows all eight tables with
standings per game. Console 1366x900 and projector 1920x1080 in English, Hebrew and Dutch."""

from __future__ import annotations

import time

from playwright.sync_api import Page, expect
from socket_phone import Phone

from browser.conftest import COOP, Hall, console_page, hall_tile, join_seat, open_hall
from browser.evening import card_of, mid_word_breaks, token_of

CONSOLE = (1366, 900)
LOCALES = {"en": "en-US", "he": "he-IL", "nl": "nl-NL"}
HALL_PLAYERS = ["Alexandrina Montgomery", "Ben", "Dana Levi", "Konstantinos", "Eve", "Finn",
                "Gus", "Hal", "Ida", "Jo", "Kim", "Lea", "Mo", "Noa", "Oren", "Pia", "Quinn",
                "Rut", "Sam", "Tal", "Uri", "Vera"]  # tables of 4, 4, 4, 4, 3, 3
OWN_ROLL = ["Wim", "Xan", "Yael"]  # Wim has no phone
PAIR = ["Zev", "Ayla"]


def seat_players(page: Page, names: list[str], mode: str, ruleset: str = "machi-koro") -> None:
    """The console's "Add players": the names pasted, split into tables of at most four."""
    form = page.locator("#seating-form")
    form.locator("select[name=ruleset]").select_option(ruleset)
    form.locator("textarea[name=players]").fill("\n".join(names))
    form.locator("input[name=split][value=split]").check()
    form.locator("select[name=table_size]").select_option("4")
    form.locator("select[name=roll_mode]").select_option(mode)
    form.locator("button[type=submit]").click()


def hall_roll(page: Page, d1: int, d2: int, number: int) -> None:
    """The console's dice rolled by hand; a roll within seconds of the last is asked again,
    and the organizer says yes."""
    hand = page.locator("#hand-dice")
    if hand.get_attribute("open") is None:
        hand.locator("summary").click()
    page.locator("#die-1").select_option(str(d1))
    page.locator("#die-2").select_option(str(d2))
    page.locator("#hand-dice-form button[type=submit]").click()
    words = f"Roll {number}: {d1} and {d2}, total {d1 + d2}."
    deadline = time.monotonic() + 10
    while page.locator("#last-roll").inner_text() != words:
        if page.locator("#roll-confirm").is_visible():
            page.locator("#roll-again").click()
        assert time.monotonic() < deadline, page.locator("#last-roll").inner_text()
        page.wait_for_timeout(100)





def coins_on_tile(page: Page, table: str) -> list[str]:
    return hall_tile(page, table).locator(".coins").all_inner_texts()


def test_evening_club_night_through_the_console(screen, tall_phone, hall_server: Hall, snap, guard):
    guard.allow(r"status of 409")  # a roll within seconds of the last: the console asks again
    started = time.monotonic()
    page = console_page(screen, hall_server, "en", *CONSOLE, shows="#event-form")
    page.locator("#event-name").fill("Club night")
    page.locator("#event-form button[type=submit]").click()
    expect(page.locator("#event-panel")).to_be_visible()
    event_id = page.locator("#event-select").input_value()

    # Seated in three pastes: six hall tables, the own-roll table, the co-op pair.
    seat_players(page, HALL_PLAYERS, "hall")
    expect(page.locator("#overview tr")).to_have_count(6)
    seat_players(page, OWN_ROLL, "own")
    expect(page.locator("#overview tr")).to_have_count(7)
    seat_players(page, PAIR, "hall", ruleset=COOP)
    expect(page.locator("#overview tr")).to_have_count(8)
    expect(page.locator("#overview tr[data-state=setup]")).to_have_count(8)
    names = page.locator("#overview tr th").all_inner_texts()
    assert names == [f"Table {n}" for n in range(1, 9)], names
    page.locator("#start-all").click()
    expect(page.locator("#overview tr[data-state=setup]")).to_have_count(0)
    expect(page.locator("#overview tr[data-state=ready]")).to_have_count(8)

    # One hall screen: eight tiles, no paging, nothing below the screen.
    hall = open_hall(screen, hall_server, event_id, 1920, 1080)
    expect(hall.locator("#tiles .tile")).to_have_count(8)
    expect(hall.locator("#tables-page")).to_have_text("")

    # The own-roll table: Xan and Yael on their phones, Wim without one.
    own = card_of(page, "Table 7")
    phones = [Phone(hall_server.url, token_of(own, seat)) for seat in (1, 2)]
    try:
        roll_for = own.locator("button[data-action=roll_for_seat]")
        expect(roll_for).to_have_text("Roll for Wim")
        own.scroll_into_view_if_needed()
        snap(page, "evening-club-console-roll-for-en")
        roll_for.click()
        expect(page.locator("#notice")).to_have_text("Rolled for Wim.")
        expect(own.locator(".turn")).to_contain_text("Dice:")
        expect(roll_for).to_have_count(0)
        # Wim builds nothing and has no phone to end his turn: the organizer ends it
        end_for = own.locator("button[data-action=end_turn_for_seat]")
        expect(end_for).to_have_text("End the turn of Wim")
        snap(page, "evening-club-console-end-turn-for-en")
        end_for.click()
        expect(page.locator("#notice")).to_have_text("The turn of Wim is ended.")
        expect(end_for).to_have_count(0)
        expect(own.locator(".turn")).to_contain_text("Xan is active")
        xan = phones[0]
        rolled = xan.move("evening-xan-roll", {"kind": "roll", "dice": 1})
        assert rolled["phase"] == "build", rolled["phase"]
        expect(end_for).to_have_text("End the turn of Xan")  # also for a seat with a phone
        xan.move("evening-xan-end", {"kind": "end_turn"})
        expect(own.locator(".turn")).to_contain_text("Yael is active")

        # The hall rolls: every hall table's coins move on its tile.
        for number, dice in enumerate(((3, 1), (5, 1), (1, 2)), start=1):
            hall_roll(page, *dice, number)
        expect(hall.locator("#roll-number")).to_contain_text("3")
        for table in ("Table 1", "Table 5"):
            expect(hall_tile(hall, table).locator(".coins").first).not_to_have_text("3")

        # Standings by game: the co-op pair apart from the Machi Koro players.
        games = hall.locator("#standings > li.game")
        expect(games).to_have_count(2)
        expect(hall.locator(f"#standings > li.game[data-ruleset='{COOP}'] .entry .name")).to_have_count(2)
        snap(hall, "evening-club-projector-en")
        yael = join_seat(tall_phone(), hall_server, f"/j/{token_of(own, 2)}")
        expect(yael.locator("#status")).to_have_text("Your turn: roll the dice.")
        snap(yael, "evening-club-phone-en")
    finally:
        for phone in phones:
            phone.client.disconnect()
    assert time.monotonic() - started < 60

    # The same night in Hebrew and Dutch: console and projector.
    for lang in ("he", "nl"):
        other = console_page(screen, hall_server, lang, *CONSOLE, event_id=event_id,
                             shows="#overview tr", locale=LOCALES[lang])
        expect(other.locator("#overview tr")).to_have_count(8)
        snap(other, f"evening-club-console-{lang}")
        projector = open_hall(screen, hall_server, event_id, 1920, 1080, locale=LOCALES[lang])
        projector.wait_for_timeout(1500)
        snap(projector, f"evening-club-projector-{lang}")
        yael_link = f"/j/{token_of(card_of(other, 'Table 7'), 2)}"
        phone = join_seat(tall_phone(LOCALES[lang]), hall_server, yael_link)
        expect(phone.locator("html")).to_have_attribute("lang", lang)
        snap(phone, f"evening-club-phone-{lang}")
        # issue 27 (9): no word broken mid-word, the long Dutch card names of the phone's
        # market included ("Bedrijvencomplex", "Belastingkantoor")
        for shown in (projector.locator("body"), other.locator("body"), phone.locator("body")):
            assert mid_word_breaks(shown) == [], lang
        phone.locator('.build-card[data-card="business_center"]').scroll_into_view_if_needed()
        snap(phone, f"evening-club-phone-market-{lang}")
        expect(projector.locator("#tables-page")).to_have_text("")
        expect(projector.locator("#tiles .tile")).to_have_count(8)
        expect(projector.locator("#standings > li.game")).to_have_count(2)
        snap(projector, f"evening-club-projector-{lang}")
