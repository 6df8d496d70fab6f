"""A tournament player's phone follows its player from check-in to the final by itself
(issue 25, item 1): the player link `/t/TOKEN` opened before round 1 waits on the "where do I
sit?" page and goes to the seat when round 1 starts; at the next round it goes on from its
seat; a phone that opened the link between rounds goes to the final's seat when it starts."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from browser.axe import axe_report, axe_violations
from browser.conftest import english_words

PLAYERS = [f"Follower {n:02}" for n in range(1, 13)]
ME = "Follower 05"


def seat_heading(page: Page, round_: dict) -> str:
    table = next(t for t in round_["seating"]["tables"] if ME in t["players"])
    return f"{ME} · {table['name']}"


def lead_the_round(hall, base: str) -> None:
    """ME gets the coins of every landmark at their table, so they place first at the close
    (RULES.md 26: landmarks, then coins) and reach the final."""
    shown = hall.api("GET", base)
    played = shown["played_rounds"][-1]
    index = next(i for i, names in enumerate(played["seating"]) if ME in names)
    hall.api("POST", f"/api/tables/{played['tables'][index]}/adjust",
             {"seat": played["seating"][index].index(ME), "amount": 60, "reason": "test"})


def test_a_player_link_opened_before_round_1_goes_to_every_seat(tall_phone, hall_server, snap):
    event = hall_server.api("POST", "/api/events", {"name": "Following cup"}, expect=201)
    base = f"/api/events/{event['id']}/tournament"
    created = hall_server.api("POST", base, {"players": "\n".join(PLAYERS), "rounds": 2},
                              expect=201)
    token = next(p["token"] for p in created["players"] if p["name"] == ME)
    hall_server.api("POST", f"{base}/start", expect=200)

    page = tall_phone().new_page()
    page.goto(f"{hall_server.url}/t/{token}")  # at check-in, with the card
    expect(page).to_have_url(re.compile(rf"/tournament/{event['id']}\?"))
    expect(page.locator("#waiting")).to_contain_text("your phone goes to your seat")
    violations = axe_violations(page)
    assert not violations, axe_report(violations)
    snap(page, "tournament-phone-waiting")

    first = hall_server.api("POST", f"{base}/rounds/start", expect=200)
    expect(page).to_have_url(re.compile(r"/play$"), timeout=10_000)
    expect(page.locator("h1.who")).to_have_text(seat_heading(page, first))
    expect(page.locator("#connection")).to_have_attribute("data-state", "connected")
    lead_the_round(hall_server, base)
    closed = hall_server.api("POST", f"{base}/rounds/close", expect=200)
    # the closed round's table says where the player stands and what comes next (item 8)
    mine = next(line for line in closed["standings"] if line["name"] == ME)
    expect(page.locator("#tournament-after h2")).to_have_text("Round 1 is over.")
    expect(page.locator("#tournament-standing")).to_have_text(
        f"You are number {mine['rank']} of 12: {mine['wins']} wins · {mine['points']} points.")
    expect(page.locator("#tournament-next strong")).to_have_text("Next: Round 2")
    expect(page.locator("#tournament-next")).to_contain_text(
        "This phone goes to your next seat when it starts.")
    for part in ("#build", "#prompt", "#last-roll"):
        expect(page.locator(part)).to_be_hidden()
    expect(page.locator("#status")).to_have_text("")
    violations = axe_violations(page)
    assert not violations, axe_report(violations)
    snap(page, "tournament-phone-round-closed")

    second = hall_server.api("POST", f"{base}/rounds/start", expect=200)
    expect(page.locator("h1.who")).to_have_text(seat_heading(page, second), timeout=10_000)
    lead_the_round(hall_server, base)
    hall_server.api("POST", f"{base}/rounds/close", expect=200)

    # a second phone of the same player opens the link between rounds: it waits, then moves
    other = tall_phone("nl-NL").new_page()
    other.goto(f"{hall_server.url}/t/{token}")
    expect(other.locator("#waiting")).to_be_visible()
    final = hall_server.api("POST", f"{base}/final", expect=200)
    assert final["seating"]["stage"] == "final" and ME in final["seating"]["tables"][0]["players"]
    heading = seat_heading(page, final)
    for phone in (page, other):
        expect(phone).to_have_url(re.compile(r"/play$"), timeout=10_000)
        expect(phone.locator("h1.who")).to_have_text(heading, timeout=10_000)
    seat = other.evaluate("() => { const v = JSON.parse(document.getElementById('page-data')"
                          ".textContent).view; return v.players[v.seat].name; }")
    assert seat == ME
    snap(other, "tournament-phone-final-seat-nl")


def test_a_phone_opening_its_link_in_a_round_goes_to_the_seat_and_a_bad_token_is_refused(
        tall_phone, hall_server):
    event = hall_server.api("POST", "/api/events", {"name": "Late phone cup"}, expect=201)
    base = f"/api/events/{event['id']}/tournament"
    created = hall_server.api("POST", base, {"players": "\n".join(PLAYERS)}, expect=201)
    token = next(p["token"] for p in created["players"] if p["name"] == ME)
    hall_server.api("POST", f"{base}/start", expect=200)
    page = tall_phone().new_page()
    page.goto(f"{hall_server.url}/t/{token}")
    # the round starts while the page loads: the connection itself sends it on
    hall_server.api("POST", f"{base}/rounds/start", expect=200)
    expect(page).to_have_url(re.compile(r"/play$"), timeout=10_000)
    # a made-up token in the page's address: the page stays, searchable, without a socket error
    stray = tall_phone().new_page()
    stray.goto(f"{hall_server.url}/tournament/{event['id']}?player=not-a-token")
    stray.locator("#name").fill(ME)
    expect(stray.locator("#found li.seat .who")).to_have_text(ME)


def test_a_closed_round_on_a_phone_in_hebrew_and_dutch(tall_phone, hall_server, snap):
    event = hall_server.api("POST", "/api/events", {"name": "Words cup"}, expect=201)
    base = f"/api/events/{event['id']}/tournament"
    created = hall_server.api("POST", base, {"players": "\n".join(PLAYERS), "rounds": 1},
                              expect=201)
    token = next(p["token"] for p in created["players"] if p["name"] == ME)
    hall_server.api("POST", f"{base}/start", expect=200)
    hall_server.api("POST", f"{base}/rounds/start", expect=200)
    pages = {}
    for locale in ("he-IL", "nl-NL"):
        pages[locale] = tall_phone(locale).new_page()
        pages[locale].goto(f"{hall_server.url}/t/{token}")
        expect(pages[locale].locator("#connection")).to_have_attribute("data-state", "connected")
    hall_server.api("POST", f"{base}/rounds/close", expect=200)
    expect(pages["nl-NL"].locator("#tournament-after h2")).to_have_text("Ronde 1 is voorbij.")
    expect(pages["nl-NL"].locator("#tournament-standing")).to_contain_text("Je staat op plaats")
    expect(pages["he-IL"].locator("#tournament-after h2")).to_have_text("סבב 1 הסתיים.")
    expect(pages["he-IL"].locator("#tournament-standing")).to_contain_text("מתוך 12")
    assert english_words(pages["he-IL"], names=tuple(PLAYERS)) == []
    for locale, page in pages.items():
        snap(page, f"tournament-phone-round-closed-{locale[:2]}")
