"""The tournament's projector at 1920x1080 and 1280x720 (issue 25, items 3 and 4): at
registration the players by name, no standings of zeros; a round of 16 players shows its 4
tables whole; a round of 1,100 players (275 tables) is listed by name and table, paged, over
the whole screen while it is played; at the end the winner and the tournament's ranking with
every column filled, no empty seating, and the pages stand still."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from browser.axe import axe_report, axe_violations
from browser.conftest import english_words

SIZES = ((1920, 1080), (1280, 720))


def new_tournament(hall, name: str, count: int, rounds: int = 3) -> str:
    event = hall.api("POST", "/api/events", {"name": name}, expect=201)
    base = f"/api/events/{event['id']}/tournament"
    players = [f"{name.split()[0]} player {n:04}" for n in range(1, count + 1)]
    hall.api("POST", base, {"players": "\n".join(players), "rounds": rounds}, expect=201)
    return base


def inside(page: Page, selector: str) -> None:
    """Every element of `selector` shows whole: inside the screen and inside its list."""
    boxes = page.eval_on_selector_all(selector, """(elements) => elements.map((e) => {
        const box = e.getBoundingClientRect(), list = e.parentElement.getBoundingClientRect();
        return [box.left, box.top, box.right, box.bottom, list.right, list.bottom,
                innerWidth, innerHeight]; })""")
    assert boxes
    for left, top, right, bottom, list_right, list_bottom, width, height in boxes:
        assert left >= 0 and right <= min(width, list_right + 1), (selector, left, right, width)
        assert top >= 0 and bottom <= min(height, list_bottom + 1), (selector, top, bottom, height)


def projector(screen, hall, base: str, size: tuple[int, int]) -> Page:
    page = screen(*size).new_page()
    page.goto(f"{hall.url}/tournament/{base.split('/')[3]}/screen")
    return page


@pytest.mark.parametrize("size", SIZES)
def test_the_projector_at_registration_and_with_sixteen_players(screen, hall_server, snap, size):
    base = new_tournament(hall_server, "Sixteen cup", 16)
    page = projector(screen, hall_server, base, size)
    expect(page.locator("#seating-heading")).to_have_text("Players (16)")
    expect(page.locator("#standings-section")).to_be_hidden()
    expect(page.locator("#seating li.tname")).to_have_count(16)
    expect(page.locator("#seating-page")).to_have_text("")
    violations = axe_violations(page)
    assert not violations, axe_report(violations)
    snap(page, f"tournament-screen-registration-{size[0]}")

    hall_server.api("POST", f"{base}/start", expect=200)
    hall_server.api("POST", f"{base}/rounds/start", expect=200)
    page.reload()
    expect(page.locator("#seating-heading")).to_have_text("Seating: Round 1")
    expect(page.locator("#standings-section")).to_be_hidden()  # nothing closed: no zeros
    violations = axe_violations(page)
    assert not violations, axe_report(violations)
    expect(page.locator("#seating > li.ttable")).to_have_count(4)
    inside(page, "#seating > li.ttable")
    snap(page, f"tournament-screen-16-round-1-{size[0]}")

    hall_server.api("POST", f"{base}/rounds/close", expect=200)
    page.reload()
    expect(page.locator("#seating-heading")).to_have_text("Seating: Round 2")
    expect(page.locator("#standings tr").first).to_be_visible()
    tables = page.locator("#seating > li.ttable")
    expect(tables.first).to_be_visible()
    inside(page, "#seating > li.ttable")
    inside(page, "#standings tr")
    if tables.count() < 4:
        expect(page.locator("#seating-page")).to_have_text("page 1 of 2")
    snap(page, f"tournament-screen-16-between-{size[0]}")


def test_the_projector_with_275_tables_lists_the_round_by_name(screen, hall_server, snap):
    base = new_tournament(hall_server, "Big cup", 1100, rounds=1)
    hall_server.api("POST", f"{base}/start", expect=200)
    shown = hall_server.api("POST", f"{base}/rounds/start", expect=200)
    assert len(shown["seating"]["tables"]) == 275
    for size in SIZES:
        page = projector(screen, hall_server, base, size)
        expect(page.locator("#seating-heading")).to_have_text("Seating: Round 1")
        expect(page.locator("#standings-section")).to_be_hidden()
        entries = page.locator("#seating li.tname")
        expect(entries.first).to_be_visible()
        count = entries.count()
        assert count >= 40, count
        inside(page, "#seating li.tname")
        violations = axe_violations(page)
        assert not violations, axe_report(violations)
        names = entries.locator(".who").all_inner_texts()
        assert names == sorted(names), "alphabetical"
        assert entries.first.locator(".at").inner_text().startswith("R1 T")
        note = page.locator("#seating-page").inner_text()
        pages = -(-1100 // count)
        assert note == f"page 1 of {pages} · {names[0]} – {names[-1]}"
        size_px = entries.first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
        assert size_px >= size[0] * 0.0135, "readable from the back"
        snap(page, f"tournament-screen-275-{size[0]}")
        page.close()


def test_the_projector_at_the_end_shows_the_winner_and_stands_still(screen, hall_server, snap):
    base = new_tournament(hall_server, "Ending cup", 24, rounds=1)
    hall_server.api("POST", f"{base}/start", expect=200)
    hall_server.api("POST", f"{base}/rounds/start", expect=200)
    hall_server.api("POST", f"{base}/rounds/close", expect=200)
    final = hall_server.api("POST", f"{base}/final", expect=200)
    table = final["played_rounds"][-1]["tables"][0]
    hall_server.api("POST", f"/api/tables/{table}/adjust",
                    {"seat": 2, "amount": 30, "reason": "the final's richest"})
    done = hall_server.api("POST", f"{base}/rounds/close", expect=200)
    assert done["stage"] == "done"
    winners = [r["name"] for r in done["ranking"] if r["rank"] == 1]
    assert winners == [final["seating"]["tables"][0]["players"][2]]
    page = screen(1920, 1080).new_page()
    page.clock.install()  # the page's timers run when the test says
    page.goto(f"{hall_server.url}/tournament/{base.split('/')[3]}/screen")
    expect(page.locator("#winner")).to_have_text(f"Winner: {winners[0]}")
    expect(page.locator("#seating-section")).to_be_hidden()
    expect(page.locator("#standings-heading")).to_have_text("Final standings")
    rows = page.locator("#standings tr")
    expect(rows.first).to_be_visible()
    cells = page.eval_on_selector_all("#standings td", "(tds) => tds.map((td) => td.textContent)")
    assert all(cell.strip() for cell in cells), "no empty column"
    expect(rows.first).to_contain_text("Final")
    assert rows.count() < 24, "more than a page: it would turn"
    expect(page.locator("#standings-page")).to_have_text(f"the first {rows.count()} of 24")
    first = rows.all_text_contents()
    page.clock.run_for(30_000)  # more than two pages' time, and refreshes of the view
    assert rows.all_text_contents() == first, "the ranking stands still"
    violations = axe_violations(page)
    assert not violations, axe_report(violations)
    snap(page, "tournament-screen-end")


def test_the_projector_in_hebrew_reads_right_to_left(screen, hall_server, snap):
    base = new_tournament(hall_server, "Hebrew cup", 16)
    hall_server.api("POST", f"{base}/start", expect=200)
    hall_server.api("POST", f"{base}/rounds/start", expect=200)
    hall_server.api("POST", f"{base}/rounds/close", expect=200)
    page = screen(1920, 1080, locale="he-IL").new_page()
    page.goto(f"{hall_server.url}/tournament/{base.split('/')[3]}/screen")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("#seating-heading")).to_have_text("הושבה: סבב 2")
    expect(page.locator("#standings-heading")).to_have_text("דירוג")
    inside(page, "#seating > li.ttable")
    standings = page.locator("#standings-section").bounding_box()
    seating = page.locator("#seating-section").bounding_box()
    assert standings and seating and standings["x"] > seating["x"], "the standings on the right"
    assert english_words(page, names=("Hebrew cup",)) == []
    snap(page, "tournament-screen-16-between-he")
