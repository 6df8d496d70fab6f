"""The co-op Tax Assessor on the phone in a real Chromium against a served hall: the market
row with its buy buttons, the assessor's panel and the gift control, the assessor's turn
played step by step on both phones, and the loss screen with its reason."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from browser.conftest import english_words
from browser.conftest import join_seat as join
from companion.rules.machi_koro.catalog import load_catalog

CATALOG = load_catalog()
LOSS = re.compile(r"You lost: the (assessor could not pay a tax|final round is over)\.")


def coop_phones(phone, hall, name: str, **extra):
    event, table = hall.coop_event(name, **extra)
    pages = [join(phone(), hall, seat["join_path"]) for seat in table["seats"]]
    return event, table, pages


def test_coop_phone_market_row_gift_and_the_assessors_turn(phone, hall_server, snap):
    event, table, (ana, ben) = coop_phones(phone, hall_server, "Co-op row")
    for page in (ana, ben):
        expect(page.locator("#coop-row li")).to_have_count(4)
        expect(page.locator("#coop-coins")).to_have_text("13")
        expect(page.locator("#coop-sought")).to_have_text("Value sought next: 1")
        expect(page.locator("#coop-piles")).to_have_text("Assessor's deck 17 · discards 0")
    expect(ana.locator("#choice-amount")).to_be_visible()
    expect(ben.locator("#choice-amount")).to_be_hidden()
    expect(ana.locator("#market li.card.blue").first).to_be_hidden()  # the base list: landmarks

    ana.locator("#choice-amount").fill("2")
    ana.get_by_role("button", name="Give", exact=True).tap()
    expect(ana.locator("#notice")).to_have_text("Gave 2 coins to the assessor.")
    expect(ana.locator("#coins")).to_have_text("1")
    expect(ben.locator("#coop-coins")).to_have_text("15")

    hall_server.api("POST", f"/api/tables/{table['id']}/adjust",
                    {"seat": 0, "amount": 10, "reason": "enough for any card"})
    hall_server.roll(event["id"], (5, 1))  # Ana rolls 5: nothing pays, her build phase
    expect(ana.locator("#coop-market-note")).to_contain_text("Tap a card to buy it.")
    row = hall_server.first_table(event["id"])["coop"]["market"]["row"]
    first = ana.locator("#coop-row button.build-card").first
    card = first.get_attribute("data-card")
    expect(first).to_be_enabled()
    first.tap()  # the same confirmation as the base game's build list
    name = CATALOG.establishment(card).names["en"]
    expect(ana.locator("#confirm-text")).to_have_text(re.compile(rf"^Build {name} for \d+ coins?\?$"))
    ana.locator("#confirm-ok").tap()
    expect(ana.locator("#notice")).to_have_text(f"Built: {name}.")
    expect(ana.locator("body")).to_have_attribute("data-last-feedback", "build")  # buzz or tone
    expect(ana.locator("#coop-row li")).to_have_count(4)
    expect(ana.locator("#coop-market-note")).to_have_text("Market deck 66 · discards 0")
    after = hall_server.first_table(event["id"])
    rest = row[:]
    del rest[len(rest) - 1 - rest[::-1].index(card)]  # the rightmost copy is bought
    assert after["coop"]["market"]["row"][1:] == rest, "the rest shifts right, a new card in"
    assert after["players"][0]["coins"] == 11 - CATALOG.establishment(card).cost
    expect(ana.locator("#cards")).to_contain_text(name)

    hall_server.roll(event["id"], (5, 1))  # Ana's turn closes (she bought), Ben rolls 5
    hall_server.roll(event["id"], (5, 1))  # Ben's turn closes without a buy; the assessor plays
    expect(ben.locator("#coop-market-note")).to_have_text("Market deck 65 · discards 1")
    for page in (ana, ben):
        draws = page.locator("#coop-steps li.tax, #coop-steps li.miss, "
                             "#coop-steps li.supplemental, #coop-steps li.unpaid")
        expect(draws.first).to_be_visible()
    steps = hall_server.first_table(event["id"])["coop"]["last_assessor_turn"]["steps"]
    expect(ben.locator("#coop-steps li")).to_have_count(len(steps))  # shown one after another
    snap(ben, "phone-coop-en")


def test_coop_phone_says_why_the_game_was_lost(phone, hall_server, snap):
    event, _, (ana, ben) = coop_phones(phone, hall_server, "Co-op loss", assessor_coins=8)
    for _ in range(300):  # nobody builds or gives: the assessor runs out of coins
        if hall_server.first_table(event["id"])["coop"]["outcome"]:
            break
        hall_server.roll(event["id"], (4, 4))
    coop = hall_server.first_table(event["id"])["coop"]
    assert coop["outcome"] == "lost"
    for page in (ana, ben):
        expect(page.locator("#coop-outcome")).to_be_visible()
        expect(page.locator("#coop-outcome")).to_have_text(LOSS)
        expect(page.locator("#choice-amount")).to_be_hidden()
    snap(ana, "phone-coop-lost-en")


def test_coop_phone_in_hebrew_and_dutch(phone, hall_server, snap):
    _, table = hall_server.coop_event("שיתופי", players=("ענת", "Ben"), table_name="זוג")
    page = join(phone(locale="he-IL"), hall_server, table["seats"][0]["join_path"])
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("#coop-title")).to_have_text("גובה המסים")
    expect(page.locator("#coop-sought")).to_have_text("הערך המבוקש הבא: 1")
    expect(page.locator("#coop-steps li")).to_have_text("גובה המסים משחק אחרי התור של השחקן השני.")
    assert english_words(page, names=("Ben",)) == []
    snap(page, "phone-coop-he")
    page.get_by_role("link", name="Nederlands").click()
    expect(page.locator("#coop-title")).to_have_text("Belastinginspecteur")
    expect(page.locator("#coop-piles")).to_have_text("Stapel van de inspecteur 17 · aflegstapel 0")
