"""The phone page in a real Chromium against a served hall: the coins the journal holds, the
last roll in words, building with a confirmation, refusals with their reason, choices, a lost
connection, Hebrew right to left, names shown as text."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from browser.conftest import english_words, expect_phones_show_the_journal
from browser.conftest import join_seat as join

PLAYERS = ["Ann", "<b>x</b>", "Dana"]
BUILD_STATUS = "Build one thing before the next hall roll, or end your turn."


def three_phones(phone, hall, name: str = "Night", mode: str = "hall", **settings):
    event = hall.create_event(name, [("Table 1", PLAYERS, mode)], **settings)
    seats = event["tables"][0]["seats"]
    return event, [join(phone(), hall, seat["join_path"]) for seat in seats]


def ann_builds(phone, hall, name: str, card: str, gift: int, coins_left: int, **settings):
    """Three phones; the organizer gives Ann `gift` coins, she rolls 4 (nothing pays) and
    builds `card` with a confirmation, keeping `coins_left`. Answers the event and the pages."""
    event, pages = three_phones(phone, hall, name, **settings)
    table = event["tables"][0]["id"]
    hall.api("POST", f"/api/tables/{table}/adjust", {"seat": 0, "amount": gift, "reason": "gift"})
    hall.roll(event["id"], (4, 4))
    pages[0].locator(f'button[data-card="{card}"]').tap()
    pages[0].locator("#confirm-ok").tap()
    expect(pages[0].locator("#coins")).to_have_text(str(coins_left))
    return event, pages


def expect_journal_coins(hall, event, pages) -> dict[str, int]:
    return expect_phones_show_the_journal(hall, event["id"], dict(zip(PLAYERS, pages, strict=True)))


def test_phone_every_phone_shows_the_coins_the_journal_holds(phone, hall_server, snap):
    event, pages = three_phones(phone, hall_server)
    expect_journal_coins(hall_server, event, pages)  # 3 each before any roll
    hall_server.roll(event["id"], (2, 5))  # Ann rolls 2: her Bakery
    coins = expect_journal_coins(hall_server, event, pages)
    assert coins == {"Ann": 4, "<b>x</b>": 3, "Dana": 3}
    expect(pages[0].locator("#breakdown")).to_have_text("+1 Bakery")
    expect(pages[1].locator("#breakdown")).to_have_text("Nothing for you this roll.")
    hall_server.roll(event["id"], (1, 1))  # x rolls 1: everyone's Wheat Field
    coins = expect_journal_coins(hall_server, event, pages)
    assert coins == {"Ann": 5, "<b>x</b>": 4, "Dana": 4}
    expect(pages[2].locator("#breakdown")).to_have_text("+1 Wheat Field")
    expect(pages[0].locator("#status")).to_have_text("<b>x</b>'s turn")
    snap(pages[1], "phone-en")


def test_phone_announces_every_roll_also_a_repeated_number(phone, hall_server):
    event, pages = three_phones(phone, hall_server, "Repeat")
    announce = pages[0].locator("#announce")
    hall_server.roll(event["id"], (4, 4))  # Ann rolls 4: nothing pays
    expect(announce).to_have_text("Ann rolled 4. Your coins: 0.")
    hall_server.roll(event["id"], (4, 1))  # x rolls 4 too: the same dice, a new turn
    expect(announce).to_have_text("<b>x</b> rolled 4. Your coins: 0.")
    assert announce.get_attribute("aria-live") == "polite"


def test_phone_names_with_markup_show_as_text(phone, hall_server):
    _, pages = three_phones(phone, hall_server, "Markup")
    for page in pages:
        assert page.locator("main b, header b").count() == 0, "a name became markup"
    expect(pages[1].locator(".who bdi").first).to_have_text("<b>x</b>")
    expect(pages[0].locator("#players .name bdi").first).to_have_text("<b>x</b>")
    assert "<b>x</b>" in pages[1].title()


def test_phone_builds_with_one_tap_and_a_confirmation(phone, hall_server):
    event, pages = three_phones(phone, hall_server, "Build")
    hall_server.roll(event["id"], (2, 2))  # Ann: 4 coins, build phase
    ann = pages[0]
    expect(ann.locator("#coins")).to_have_text("4")
    radio = ann.locator('button[data-card="radio_tower"]')
    expect(radio).to_be_disabled()
    expect(ann.locator("#why-radio_tower")).to_have_text("18 more coins needed.")
    ann.locator('button[data-card="cafe"]').tap()
    expect(ann.locator("#confirm")).to_be_visible()
    expect(ann.locator("#confirm-text")).to_have_text("Build Cafe for 2 coins?")
    ann.locator("#confirm-cancel").tap()
    expect(ann.locator("#coins")).to_have_text("4")  # cancel changes nothing
    ann.locator('button[data-card="cafe"]').tap()
    ann.locator("#confirm-ok").tap()
    expect(ann.locator("#notice")).to_have_text("Built: Cafe.")
    expect(ann.locator("body")).to_have_attribute("data-last-feedback", "build")  # buzz or tone
    expect(ann.locator("#coins")).to_have_text("2")
    expect(ann.locator("#breakdown")).to_contain_text("−2 built Cafe")
    expect(ann.locator("#build-note")).to_have_text("You have already built this turn.")
    expect(ann.locator("#cards")).to_contain_text("Cafe")
    assert hall_server.coins(event["id"])[("Table 1", "Ann")] == 2
    # the other phones see it too
    expect(pages[2].locator("#table-feed")).to_contain_text("Ann built Cafe")


def test_phone_refused_build_shows_its_reason(phone, hall_server):
    event, pages = three_phones(phone, hall_server, "Refused")
    table = event["tables"][0]["id"]
    hall_server.roll(event["id"], (2, 2))  # Ann: 4 coins, build phase
    ann = pages[0]
    expect(ann.locator("#coins")).to_have_text("4")
    ann.locator('button[data-card="forest"]').tap()  # 3 coins: affordable now
    expect(ann.locator("#confirm")).to_be_visible()
    # before Ann confirms, the organizer takes coins back (a correction)
    hall_server.api("POST", f"/api/tables/{table}/adjust", {"seat": 0, "amount": -2, "reason": "fix"})
    expect(ann.locator("#coins")).to_have_text("2")
    ann.locator("#confirm-ok").tap()
    expect(ann.locator("#notice")).to_have_text("You do not have enough coins for that.")
    expect(ann.locator("#coins")).to_have_text("2")
    expect(ann.locator("#why-forest")).to_have_text("1 more coin needed.")
    assert hall_server.coins(event["id"])[("Table 1", "Ann")] == 2
    expect(ann.locator("#breakdown")).to_contain_text("−2 correction: fix")


def test_phone_whose_seat_got_a_new_card_says_so_at_once(phone, hall_server):
    event, pages = three_phones(phone, hall_server, "New card")
    table = event["tables"][0]["id"]
    expect(pages[1].locator("#connection")).to_have_text("Connected")
    hall_server.api("POST", f"/api/tables/{table}/reassign", {"seat": 1})
    expect(pages[1].locator("#connection")).to_have_text("Not connected")
    expect(pages[1].locator("#notice")).to_contain_text(
        "This join link is not (or no longer) valid. Ask the organizer for your seat's card.")
    expect(pages[0].locator("#connection")).to_have_text("Connected")
    # ... and offers the way back (issue 16, item 6): the join page's form for the card's code
    pages[1].locator("#notice a").click()
    expect(pages[1].get_by_label("Cannot scan? Type the code on your card")).to_be_visible()


def test_phone_a_debt_nobody_could_pay_is_zero_without_a_sign(phone, hall_server):
    event, pages = ann_builds(phone, hall_server, "Debt", "cafe", 1, 2)
    table = event["tables"][0]["id"]
    hall_server.api("POST", f"/api/tables/{table}/adjust", {"seat": 1, "amount": -3, "reason": "lost"})
    hall_server.roll(event["id"], (3, 3))  # x rolls 3 with no coins: Ann's Cafe gets nothing
    expect(pages[0].locator("#breakdown")).to_have_text("0 from <b>x</b>, Cafe; 1 forgiven")
    expect(pages[1].locator("#breakdown")).to_contain_text("0 to Ann, Cafe; 1 forgiven")
    expect(pages[1].locator("#breakdown")).to_contain_text("+1 Bakery")
    expect_journal_coins(hall_server, event, pages)


def test_phone_own_roll_table_rolls_from_the_phone(phone, hall_server):
    event, pages = three_phones(phone, hall_server, "Own", mode="own")
    ann, x = pages[0], pages[1]
    expect(x.locator('#prompt button:has-text("Roll the dice")')).to_have_count(0)
    ann.get_by_role("button", name="Roll the dice").tap()
    expect(ann.locator("#dice .die").first).to_be_visible()
    expect(x.locator("#dice .die").first).to_be_visible()
    expect_journal_coins(hall_server, event, pages)
    ann.get_by_role("button", name="End my turn").tap()
    expect(x.get_by_role("button", name="Roll the dice")).to_be_visible()
    expect(ann.locator("#status")).to_have_text("<b>x</b>'s turn")


def test_phone_tv_station_prompt_with_time_left(phone, hall_server):
    event, pages = ann_builds(phone, hall_server, "TV", "tv_station", 10, 6, choice_seconds=60)
    ann = pages[0]
    for _ in range(2):  # x and Dana roll 4: nothing
        hall_server.roll(event["id"], (4, 4))
    hall_server.roll(event["id"], (6, 6))  # Ann rolls 6: her TV Station asks
    expect(ann.locator("#prompt")).to_contain_text("TV Station: take 5 coins from whom?")
    expect(ann.locator("#timer")).to_have_text(re.compile(r"^(60|59|58|57|56|55) s left"))
    ann.locator("#prompt button", has_text="Dana").tap()
    expect(ann.locator("#coins")).to_have_text("9")  # Dana had 3: 3 taken
    expect(ann.locator("#breakdown")).to_contain_text("+3 from Dana, TV Station; 2 forgiven")
    expect(pages[2].locator("#breakdown")).to_contain_text("−3 to Ann, TV Station; 2 forgiven")
    expect_journal_coins(hall_server, event, pages)


def test_phone_comes_back_after_losing_the_connection_and_shows_the_current_state(
        phone, own_server, guard):
    guard.allow(r"net::ERR_|WebSocket connection")  # the outage this test makes
    event, pages = three_phones(lambda: phone(app_url=own_server.url), own_server, "Outage")
    dana = pages[2]
    own_server.server.kill()
    expect(dana.locator("#connection")).to_have_attribute("data-state", "reconnecting")
    expect(dana.locator("#connection")).to_have_text("Reconnecting…")
    dana.context.set_offline(True)
    own_server.server.start()
    own_server.roll(event["id"], (1, 1))  # while Dana is away: Wheat Fields pay
    own_server.roll(event["id"], (1, 1))
    dana.wait_for_timeout(500)
    expect(dana.locator("#coins")).to_have_text("3")  # still the old state, offline
    dana.context.set_offline(False)
    expect(dana.locator("#connection")).to_have_attribute("data-state", "connected", timeout=15000)
    expect_journal_coins(own_server, event, pages)
    expect(dana.locator("#coins")).to_have_text("5")


def test_phone_in_hebrew_is_right_to_left(phone, hall_server, snap):
    event = hall_server.create_event("Hebrew", [("שולחן 1", ["ענת", "<b>x</b>", "Dana"], "hall")])
    seats = event["tables"][0]["seats"]
    page = join(phone(locale="he-IL"), hall_server, seats[0]["join_path"])
    hall_server.roll(event["id"], (2, 2))
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("html")).to_have_attribute("lang", "he")
    expect(page.locator("#coins")).to_have_text("4")
    expect(page.locator("#coins-label")).to_have_text("המטבעות שלי")
    expect(page.locator("#breakdown")).to_have_text("+1 מאפייה")
    expect(page.locator('button[data-card="cafe"] .name')).to_have_text("בית קפה")
    assert page.evaluate("getComputedStyle(document.querySelector('main')).direction") == "rtl"
    assert english_words(page, names=("Dana",)) == []
    snap(page, "phone-he")
    # the language switch goes to Dutch and stays there
    page.get_by_role("link", name="Nederlands").click()
    expect(page.locator("html")).to_have_attribute("dir", "ltr")
    expect(page.locator("#coins-label")).to_have_text("Mijn munten")
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "nl")


def test_phone_business_center_swap(phone, hall_server):
    event, pages = ann_builds(phone, hall_server, "Swap", "business_center", 10, 5,
                              choice_seconds=120)
    ann = pages[0]
    hall_server.roll(event["id"], (4, 4))
    hall_server.roll(event["id"], (4, 4))
    hall_server.roll(event["id"], (6, 6))  # Ann rolls 6: her Business Center asks
    prompt = ann.locator("#prompt")
    expect(prompt).to_contain_text("Business Center: swap one card with another player, or not.")
    expect(prompt.get_by_role("button", name="No swap")).to_be_visible()
    prompt.get_by_role("group", name="Swap with").get_by_role("button", name="Dana").tap()
    prompt.get_by_label("I give").select_option(label="Bakery")
    prompt.get_by_label("I take").select_option(label="Wheat Field")
    prompt.get_by_role("button", name="Swap", exact=True).tap()
    expect(ann.locator("#cards li")).to_have_count(2)  # Wheat Field x2, Business Center
    expect(ann.locator("#cards")).to_contain_text("Wheat Field")
    expect(ann.locator("#cards")).not_to_contain_text("Bakery")
    expect(pages[2].locator("#cards")).to_contain_text("Bakery")
    expect(ann.locator("#status")).to_have_text(BUILD_STATUS)


def test_phone_radio_tower_keep_and_two_dice(phone, hall_server):
    event, pages = ann_builds(phone, hall_server, "Radio", "radio_tower", 30, 11, choice_seconds=120)
    ann = pages[0]
    assert ann.locator(".dice-count").count() == 0  # one die until a Train Station
    hall_server.roll(event["id"], (4, 4))
    hall_server.roll(event["id"], (4, 4))
    hall_server.roll(event["id"], (4, 4))  # Ann rolls 4: her Radio Tower offers a reroll
    expect(ann.locator("#status")).to_have_text("Your turn: keep this roll or roll again?")
    ann.get_by_role("button", name="Keep 4").tap()
    expect(ann.locator("#status")).to_have_text(BUILD_STATUS)
    ann.locator('button[data-card="train_station"]').tap()
    ann.locator("#confirm-ok").tap()
    expect(ann.locator("#coins")).to_have_text("7")
    group = ann.get_by_role("group", name="How many dice I roll")
    expect(group.get_by_role("button", name="1 die")).to_have_attribute("aria-pressed", "true")
    group.get_by_role("button", name="2 dice").tap()
    expect(group.get_by_role("button", name="2 dice")).to_have_attribute("aria-pressed", "true")
    hall_server.roll(event["id"], (4, 4))
    hall_server.roll(event["id"], (4, 4))
    hall_server.roll(event["id"], (3, 4))  # Ann rolls both dice now: 7
    expect(ann.locator("#dice .die")).to_have_count(2)
    expect(ann.locator("#dice .sum")).to_have_text("= 7")


def test_phone_joins_by_typing_the_code_on_its_card(phone, hall_server, snap, guard):
    """A phone that cannot scan (issue 5): on the join page `/` it types its card's code, first
    one character short (the page says what a code is), then as a person types it, in lower
    case with a space for the hyphen; it lands on its own seat, connected."""
    guard.allow(r"status of 400")  # the short code's page, provoked on purpose
    event = hall_server.create_event("Typed", [("Table 1", PLAYERS, "hall")])
    seat = event["tables"][0]["seats"][2]
    page = phone().new_page()
    page.goto(hall_server.url + "/")
    field = page.get_by_label("Cannot scan? Type the code on your card")
    field.fill(seat["join_code"][:-1])
    page.get_by_role("button", name="Join").tap()
    expect(page.get_by_role("alert")).to_contain_text("A join code has 8 letters and digits")
    expect(field).to_have_attribute("aria-invalid", "true")
    snap(page, "join-code-typo")
    field.fill(seat["join_code"].lower().replace("-", " "))
    page.get_by_role("button", name="Join").tap()
    expect(page).to_have_url(re.compile(r"/play$"))
    expect(page.locator("#connection")).to_have_attribute("data-state", "connected")
    expect(page.locator(".who")).to_contain_text("Dana")
