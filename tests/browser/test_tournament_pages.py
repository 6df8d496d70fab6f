"""A tournament's projector page (standings and the next round's seating, paged, dark, at
1920x1080 and 1280x720) and its "where do I sit?" phone page searched by name on a 390x844
phone, in Chromium against a served hall; and a player's one link leading to their seat."""

from __future__ import annotations

import re

from playwright.sync_api import expect

NAMES = [f"Player {n:02}" for n in range(1, 38)] + ["Noa Levi", "יעל כהן"]


def tournament(hall, name: str) -> tuple[str, dict]:
    event = hall.api("POST", "/api/events", {"name": name}, expect=201)
    base = f"/api/events/{event['id']}/tournament"
    created = hall.api("POST", base, {"players": "\n".join(NAMES), "rounds": 3,
                                      "round_minutes": 45}, expect=201)
    hall.api("POST", f"{base}/start", expect=200)
    return event["id"], created


def test_tournament_projector_shows_standings_and_the_next_seating_paged(screen, hall_server, snap):
    event_id, _ = tournament(hall_server, "Spring cup")
    base = f"/api/events/{event_id}/tournament"
    hall_server.api("POST", f"{base}/rounds/start", expect=200)
    hall_server.api("POST", f"{base}/rounds/close", expect=200)
    for width, height in ((1920, 1080), (1280, 720)):
        page = screen(width, height).new_page()
        page.goto(f"{hall_server.url}/tournament/{event_id}/screen")
        expect(page.locator("#stage")).to_have_text("Next: Round 2")
        expect(page.locator("#seating-heading")).to_have_text("Seating: Round 2")
        rows = page.locator("#standings tr")
        expect(rows.first).to_be_visible()
        shown = rows.count()
        assert 5 <= shown < len(NAMES), "the standings are paged"
        expect(page.locator("#standings-page")).to_contain_text("page 1 of")
        tables = page.locator("#seating > li")
        assert 1 <= tables.count() <= 8
        expect(page.locator("#seating-page")).to_contain_text("page 1 of")
        # readable from the back: the names at least ~2.4% of the screen's height... of its width
        size = page.locator("#standings td.name").first.evaluate(
            "e => parseFloat(getComputedStyle(e).fontSize)")
        assert size >= width * 0.0135, size
        # nothing runs off the screen
        bottom = page.locator("#standings tr").last.evaluate("e => e.getBoundingClientRect().bottom")
        assert bottom <= height
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(5, 7, 10)"
        snap(page, f"tournament-screen-{width}x{height}")
    hall_server.api("POST", f"{base}/rounds/start", expect=200)
    page.reload()
    expect(page.locator("#stage")).to_have_text("Round 2 is being played")
    expect(page.locator("#clock")).to_have_text(re.compile(r"^Time left: (45:00|44:5\d)$"))


def test_tournament_where_do_i_sit_on_a_phone(tall_phone, hall_server, snap):
    event_id, created = tournament(hall_server, "Phone cup")
    page = tall_phone().new_page()
    page.goto(f"{hall_server.url}/tournament/{event_id}")
    expect(page.locator("#round-line")).to_contain_text("Round 1")
    page.locator("#name").fill("noa")
    found = page.locator("#found li.seat")
    expect(found).to_have_count(1)
    expect(found.locator(".who")).to_have_text("Noa Levi")
    expect(found.locator(".where")).to_have_text(re.compile(r"^Table: R1 T\d+$"))
    expect(found.locator(".order")).to_have_text(re.compile(r"^You play number [1-4] of [34]$"))
    snap(page, "tournament-phone-found")
    page.locator("#name").fill("player 0")
    expect(found).to_have_count(9)
    page.locator("#name").fill("nobody")
    expect(page.locator("#found li.none")).to_have_text("No player of this round has that name.")
    # Hebrew
    hebrew = tall_phone("he-IL").new_page()
    hebrew.goto(f"{hall_server.url}/tournament/{event_id}")
    expect(hebrew.locator("html")).to_have_attribute("dir", "rtl")
    hebrew.locator("#name").fill("יעל")
    expect(hebrew.locator("#found li.seat .where")).to_contain_text("שולחן:")
    snap(hebrew, "tournament-phone-he")
    # the player's one link: between rounds the page with their name, in a round their seat
    token = next(p["token"] for p in created["players"] if p["name"] == "Noa Levi")
    page.goto(f"{hall_server.url}/t/{token}")
    expect(page).to_have_url(re.compile(rf"/tournament/{event_id}\?name=Noa"))
    expect(page.locator("#found .who")).to_have_text("Noa Levi")
    hall_server.api("POST", f"/api/events/{event_id}/tournament/rounds/start", expect=200)
    # the page opened by the player link follows the round's start to the seat by itself
    # (issue 25, item 1); a goto of the link here would race that navigation
    expect(page).to_have_url(re.compile(r"/play$"))
    seat = page.evaluate("() => { const v = JSON.parse(document.getElementById('page-data')"
                         ".textContent).view; return v.players[v.seat].name; }")
    assert seat == "Noa Levi"


def test_tournament_phone_follows_its_player_to_the_next_round_by_itself(tall_phone, hall_server, snap):
    event = hall_server.api("POST", "/api/events", {"name": "Moving cup"}, expect=201)
    base = f"/api/events/{event['id']}/tournament"
    players = [f"Mover {n:02}" for n in range(1, 13)]
    created = hall_server.api("POST", base, {"players": "\n".join(players), "rounds": 2},
                              expect=201)
    hall_server.api("POST", f"{base}/start", expect=200)
    hall_server.api("POST", f"{base}/rounds/start", expect=200)
    token = next(p["token"] for p in created["players"] if p["name"] == "Mover 07")
    page = tall_phone().new_page()
    page.goto(f"{hall_server.url}/t/{token}")
    expect(page).to_have_url(re.compile(r"/play$"))
    expect(page.locator("#connection")).to_have_attribute("data-state", "connected")
    expect(page.locator("h1.who")).to_contain_text(re.compile(r"Mover 07 · R1 T\d"))
    hall_server.api("POST", f"{base}/rounds/close", expect=200)
    second = hall_server.api("POST", f"{base}/rounds/start", expect=200)
    table = next(t for t in second["seating"]["tables"] if "Mover 07" in t["players"])
    # nobody touches the phone: it goes to its new seat
    expect(page.locator("h1.who")).to_have_text(f"Mover 07 · {table['name']}", timeout=10_000)
    expect(page.locator("#connection")).to_have_attribute("data-state", "connected")
    seat = page.evaluate("() => JSON.parse(document.getElementById('page-data').textContent)"
                         ".view.seat")
    assert seat == table["players"].index("Mover 07")
    snap(page, "tournament-phone-moved")
