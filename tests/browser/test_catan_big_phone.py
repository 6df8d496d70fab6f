"""The big Catan event's phone (templates/play/parts/catan-big.html, static/js/play-catan-big.js)
on a real served hall with real Socket.IO: a seat joins by its QR link, keeps its points tracker
up (`track`), claims off its team's turn (refused) and on it (pending), the staff verify through
the API, and after the game the player sends the final breakdown; the same in Hebrew and Dutch
at 390x844, with screenshots; a claim on a stale view gets the fresh one."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from browser.axe import axe_report, axe_violations
from browser.conftest import contrast_problems, english_words, join_seat
from browser.test_phone_stale import HeldViews

RULESET = "catan-big"
PLAYERS = ["Avi Cohen", "נועה"]  # seat 0 plays Sun, seat 1 Moon
HAND = {"grain": 2, "ore": 1, "brick": 0, "wood": 3, "wool": 1}
LOCALES = {"en": "en-US", "he": "he-IL", "nl": "nl-NL"}


def catan_event(hall, name, letter="B"):
    """An event with two started catan-big boards (a chain of two) and a 90 s turn schedule;
    answers the event's id and its first board (the API's answer, with join paths)."""
    event = hall.api("POST", "/api/events", {"name": name}, expect=201)
    boards = []
    for board, players in (("Board 7", PLAYERS), ("Board 8", ["Dana", "Eli"])):
        table = hall.api("POST", f"/api/events/{event['id']}/tables", {
            "name": board, "players": players, "ruleset": RULESET, "roll_mode": "hall",
            "options": {"letter": letter}}, expect=201)
        hall.api("POST", f"/api/tables/{table['id']}/start")
        boards.append(table)
    hall.api("POST", f"/api/events/{event['id']}/clock", {"schedule": [[1, 90]], "auto_roll": False})
    return event["id"], boards[0]


def board_summary(hall, event_id):
    """The hall view's tile of the first board and the event's catan-big view."""
    view = hall.api("GET", f"/api/events/{event_id}")
    return view["tables"][0], view["games"].get(RULESET, {})


def wait_for(check, what, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def tap(page: Page, field: str, times: int = 1, step: int = 1) -> None:
    for _ in range(times):
        page.locator(f'[data-field="{field}"] [data-step="{step}"]').tap()


def track_to_25(page: Page) -> None:
    """From the start's two settlements and a city (RULES.md 24): cities 10 (20 points), the
    two settlements, a victory point card, longest road 2: 25."""
    tap(page, "cities", 9)
    tap(page, "vp_cards", 1)
    page.locator("#catan-longest_road").tap()


def claim(page: Page) -> None:
    page.locator("#catan-claim").tap()
    expect(page.locator("#catan-confirm")).to_be_visible()
    page.locator("#catan-confirm-ok").tap()


def shot(snap, page: Page, name: str, at: str | None = None) -> None:
    """A screenshot of the phone's screen at the top of the page, or with the element `at`
    in the middle of it (the claim button and its answer)."""
    if at:
        page.locator(at).evaluate("(e) => e.scrollIntoView({block: 'center'})")
    else:
        page.evaluate("window.scrollTo(0, 0)")
    snap(page, name)


def accessible(page: Page, state: str) -> None:
    """axe-core finds nothing and every text keeps WCAG AA contrast, in the light and the dark
    scheme (then back to light)."""
    for scheme in ("dark", "light"):
        assert not contrast_problems(page, scheme), f"{state}, {scheme}: {contrast_problems(page, scheme)}"
        violations = axe_violations(page)
        assert not violations, f"{state}, {scheme}: " + axe_report(violations)


def fits_the_width(page: Page) -> None:
    """Nothing sticks out sideways at the phone's width (no sideways scrolling)."""
    wide = page.evaluate("""() => {
      const width = document.documentElement.clientWidth;
      const out = [...document.querySelectorAll('#catan *')].filter((e) => {
        const box = e.getBoundingClientRect();
        return box.width > 0 && (box.right > width + 1 || box.left < -1);
      }).map((e) => e.id || e.className || e.tagName);
      return {scroll: document.documentElement.scrollWidth, width, out};
    }""")
    assert wide["scroll"] <= wide["width"] and not wide["out"], wide


def test_catan_big_phone_tracks_claims_and_sends_the_final_points(tall_phone, hall_server, snap):
    event_id, board = catan_event(hall_server, "Catan night")
    noa = join_seat(tall_phone(), hall_server, board["seats"][1]["join_path"])  # Moon
    expect(noa.locator("#catan-team-word")).to_have_text("Moon team")
    expect(noa.locator("#catan-board")).to_have_text("Board B")
    expect(noa.locator("#catan-colour")).to_have_text("Your colour: blue")
    expect(noa.locator("#catan-on-turn")).to_have_text("Waiting for the first roll")
    expect(noa.locator("#catan-neighbours")).to_have_text("Neighbouring boards: Board 8")
    for hidden in ("#build", "#city", "#others", ".purse"):  # the base game's sections go
        expect(noa.locator(hidden)).to_be_hidden()
    expect(noa.locator("#catan-claim")).to_be_disabled()
    # RULES.md 24: the tracker starts at two settlements and a city
    expect(noa.locator("#catan-claim-why")).to_have_text("You need 25 points to claim victory; you have 4.")

    # The tracker: steppers and switches, sent as `track` moves as the player taps.
    expect(noa.locator('[data-field="foreign_start_settlements"] [data-step="1"]')).to_be_enabled()
    track_to_25(noa)
    expect(noa.locator("#catan-total")).to_have_text("25 of 25 points")
    expect(noa.locator("#catan-saved")).to_have_text("Saved.")
    wait_for(lambda: board_summary(hall_server, event_id)[0]["points"] == [4, 25], "the tracked 25 points")
    expect(noa.locator('[data-field="cities"] [data-step="1"]')).to_be_disabled()  # the cap, 10
    expect(noa.locator("#catan-claim")).to_be_enabled()
    shot(snap, noa, "catan-phone-en-tracker", at="#catan-total")

    # Turn 1 is the Sun team's: the turn, the dice, the countdown; a claim is refused.
    hall_server.roll(event_id, (3, 5))
    expect(noa.locator("#catan-turn-number")).to_have_text("Turn 1")
    expect(noa.locator("#catan-dice .sum")).to_have_text("= 8")
    expect(noa.locator("#catan-on-turn")).to_have_text("The Sun team's turn")
    expect(noa.locator("#catan-on-turn")).to_have_attribute("data-active", "false")
    expect(noa.locator("#catan-clock")).to_have_text(re.compile(r"^1:[0-3]\d$"))
    expect(noa.locator("#catan-claim-why")).to_have_text(
        "It is the Sun team's turn: a claim counts only on your team's turn.")
    claim(noa)
    refused = "Not your team's turn: a claim counts only on your team's turn."
    expect(noa.locator("#notice")).to_have_text(refused)
    expect(noa.locator("#catan-answer")).to_have_text(refused)  # also where the player tapped
    assert board_summary(hall_server, event_id)[1]["claims"] == [], "the refused claim is not queued"
    accessible(noa, "en, off turn, claim refused")
    shot(snap, noa, "catan-phone-en-off-turn")
    shot(snap, noa, "catan-phone-en-off-turn-claim", at="#catan-claim")

    # Turn 2 is Moon's: the claim goes through and waits for the staff.
    hall_server.roll(event_id, (2, 2))
    expect(noa.locator("#catan-on-turn")).to_have_text("Your team's turn")
    expect(noa.locator("#catan-on-turn")).to_have_attribute("data-active", "true")
    expect(noa.locator("#notice")).to_be_hidden()  # the last turn's refusal is gone
    expect(noa.locator("#catan-answer")).to_be_hidden()
    claim(noa)
    expect(noa.locator("#catan-claim-status")).to_have_text(
        "Your claim of 25 points (turn 2) is waiting for the staff: stay at your board.")
    expect(noa.locator("#catan-claim")).to_be_disabled()
    expect(noa.locator("#catan-claim-why")).to_have_text("Your claim is being checked by the staff.")
    queued = board_summary(hall_server, event_id)[1]["claims"]
    assert [(c["name"], c["points"], c["turn"]) for c in queued] == [(PLAYERS[1], 25, 2)]
    shot(snap, noa, "catan-phone-en-pending")
    noa.emulate_media(color_scheme="dark")
    noa.wait_for_timeout(600)  # Pico eases colours in over 0.2 s
    shot(snap, noa, "catan-phone-en-pending-dark")
    noa.emulate_media(color_scheme="light")

    # The console verifies it (through the API): the phone says so, also after a reload.
    hall_server.api("POST", f"/api/tables/{board['id']}/staff_move",
                    {"move": {"kind": "verify", "seat": 1, "resources": HAND}})
    expect(noa.locator("#catan-claim-status")).to_have_text("Your claim of 25 points (turn 2) is verified.")
    noa.reload()
    expect(noa.locator("#connection")).to_have_attribute("data-state", "connected")
    expect(noa.locator("#catan-claim-status")).to_have_text("Your claim of 25 points (turn 2) is verified.")
    expect(noa.locator("#catan-total")).to_have_text("25 of 25 points")

    # The next roll ends the game: the result, then the final breakdown for the standings.
    hall_server.api("POST", f"/api/events/{event_id}/roll", {"dice": [1, 2]}, expect=409)
    expect(noa.locator("#catan-outcome")).to_be_visible()
    expect(noa.locator("#catan-outcome-detail")).to_have_text(  # issue 27: the event's winner
        "You won the event with 25 points! Your place: 1 of 4.")
    expect(noa.locator("#catan-points-title")).to_have_text("My final points")
    expect(noa.locator("#catan-claim")).to_be_hidden()
    tap(noa, "settlements", 1)
    expect(noa.locator("#catan-total")).to_have_text("26 points")
    for kind, count in HAND.items():
        noa.locator(f"#catan-hand-{kind}").fill(str(count))
    noa.locator("#catan-final").tap()
    expect(noa.locator("#notice")).to_have_text("Your final points are sent.")
    expect(noa.locator("#catan-claim-why")).to_have_text("Sent: 26 points.")
    expect(noa.locator("#catan-answer")).to_have_text("Your final points are sent.")
    standings = board_summary(hall_server, event_id)[1]["standings"]
    mine = next(row for row in standings if row["name"] == PLAYERS[1])
    assert (mine["points"], mine["place"], mine["resources"]) == (26, 1, HAND)
    fits_the_width(noa)
    shot(snap, noa, "catan-phone-en-end")
    shot(snap, noa, "catan-phone-en-end-final", at="#catan-final")


def test_catan_big_phone_caps_and_tracker_refusals(tall_phone, hall_server):
    """A foreign start settlement needs a settlement or city under it; the page says so and
    sends nothing the rules refuse; a refused claim under 25 is impossible to tap."""
    event_id, board = catan_event(hall_server, "Caps")
    avi = join_seat(tall_phone(), hall_server, board["seats"][0]["join_path"])  # Sun
    # The start's two settlements and a city (RULES.md 24) carry at most three bonuses.
    tap(avi, "foreign_start_settlements", 3)
    expect(avi.locator('[data-field="foreign_start_settlements"] [data-step="1"]')).to_be_disabled()
    expect(avi.locator("#catan-total")).to_have_text("10 of 25 points")
    wait_for(lambda: board_summary(hall_server, event_id)[0]["points"] == [10, 4], "10 tracked points")
    tap(avi, "settlements", 1, step=-1)  # one settlement less: the bonus of three has two under it
    expect(avi.locator("#catan-form-problem")).to_have_text(
        "Settlements in a foreign start area: at most your settlements plus cities (2).")
    expect(avi.locator("#catan-saved")).to_have_text("Not saved: check the figures.")
    time.sleep(1)
    assert board_summary(hall_server, event_id)[0]["points"] == [10, 4], "nothing over a cap was sent"
    tap(avi, "cities", 1)  # the settlement became a city: valid again, and sent
    expect(avi.locator("#catan-form-problem")).to_be_hidden()
    expect(avi.locator("#catan-saved")).to_have_text("Saved.")
    wait_for(lambda: board_summary(hall_server, event_id)[0]["points"] == [11, 4], "11 tracked points")
    hall_server.roll(event_id, (6, 5))  # Sun's turn, but 11 points
    expect(avi.locator("#catan-on-turn")).to_have_text("Your team's turn")
    expect(avi.locator("#catan-claim")).to_be_disabled()
    expect(avi.locator("#catan-claim-why")).to_have_text("You need 25 points to claim victory; you have 11.")


@pytest.mark.parametrize("lang", ["he", "nl"])
def test_catan_big_phone_in_hebrew_and_dutch(tall_phone, hall_server, snap, lang):
    event_id, board = catan_event(hall_server, f"Catan {lang}", letter="C")
    noa = join_seat(tall_phone(LOCALES[lang]), hall_server, board["seats"][1]["join_path"])
    expect(noa.locator("html")).to_have_attribute("lang", lang)
    track_to_25(noa)
    wait_for(lambda: board_summary(hall_server, event_id)[0]["points"] == [4, 25], "25 tracked points")
    hall_server.roll(event_id, (3, 4))  # turn 1, a 7: the discard check, the robbers stay, paused
    expect(noa.locator("#catan-instructions li")).to_have_count(3)
    expect(noa.locator("#catan-clock").locator("..")).to_have_attribute("data-state", "paused")
    fits_the_width(noa)
    shot(snap, noa, f"catan-phone-{lang}-off-turn")
    hall_server.api("POST", f"/api/events/{event_id}/resume")
    hall_server.roll(event_id, (5, 5))  # turn 2: Moon's
    expect(noa.locator("#catan-on-turn")).to_have_attribute("data-active", "true")
    claim(noa)
    expect(noa.locator("#catan-claim-status")).to_have_attribute("data-status", "pending")
    fits_the_width(noa)
    accessible(noa, f"{lang}, claim pending")
    if lang == "he":
        expect(noa.locator("html")).to_have_attribute("dir", "rtl")
        assert english_words(noa, tuple(PLAYERS) + ("Board", "Cohen")) == []
    shot(snap, noa, f"catan-phone-{lang}-pending")
    shot(snap, noa, f"catan-phone-{lang}-pending-claim", at="#catan-claim")
    hall_server.api("POST", f"/api/tables/{board['id']}/staff_move",
                    {"move": {"kind": "reject", "seat": 1, "reason": "3 ערים בלבד / only 3 cities"}})
    expect(noa.locator("#catan-claim-status")).to_have_attribute("data-status", "rejected")
    expect(noa.locator("#catan-claim-status bdi")).to_have_text("3 ערים בלבד / only 3 cities")
    hall_server.api("POST", f"/api/events/{event_id}/end")
    expect(noa.locator("#catan-outcome")).to_be_visible()
    expect(noa.locator("#catan-final")).to_be_visible()
    fits_the_width(noa)
    accessible(noa, f"{lang}, game over")
    if lang == "he":
        assert english_words(noa, tuple(PLAYERS) + ("Board", "Cohen", "only", "cities")) == []
    shot(snap, noa, f"catan-phone-{lang}-end")


def test_catan_big_phone_claim_on_a_stale_view_gets_the_fresh_one(tall_phone, hall_server):
    """Two devices of one seat: the second claims; the first, whose updates are held back,
    still shows the claim button and taps it: refused `move/stale` with the fresh view."""
    event_id, board = catan_event(hall_server, "Stale claim")
    path = board["seats"][0]["join_path"]  # Avi, Sun
    held = HeldViews()
    first_device = tall_phone()
    first_device.route_web_socket(re.compile(r"/socket\.io/"), held.route)
    first = join_seat(first_device, hall_server, path)
    second = join_seat(tall_phone(), hall_server, path)
    track_to_25(second)
    expect(first.locator("#catan-total")).to_have_text("25 of 25 points")  # the tracker follows
    hall_server.roll(event_id, (4, 4))  # turn 1: Sun's
    expect(first.locator("#catan-claim")).to_be_enabled()
    held.holding.set()
    claim(second)
    expect(second.locator("#catan-claim-status")).to_have_attribute("data-status", "pending")
    expect(first.locator("#catan-claim-status")).to_be_hidden()  # its view is held back
    claim(first)
    expect(first.locator("#notice")).to_have_text("The table changed; check and tap again.")
    expect(first.locator("#catan-answer")).to_have_text("The table changed; check and tap again.")
    expect(first.locator("#catan-claim-status")).to_have_attribute("data-status", "pending")
    expect(first.locator("#catan-claim")).to_be_disabled()
    assert held.dropped >= 1
    assert len(board_summary(hall_server, event_id)[1]["claims"]) == 1


def test_catan_big_phone_counts_the_turn_by_the_servers_clock(tall_phone, hall_server):
    """A phone whose own clock is ten minutes ahead (set by hand, no network time) still shows
    the turn's time left: the page brings the server's clock (now_ms) and counts by it."""
    event_id, board = catan_event(hall_server, "Skewed phone")
    phone = tall_phone()
    phone.clock.install(time=time.time() + 600)
    avi = join_seat(phone, hall_server, board["seats"][0]["join_path"])
    hall_server.roll(event_id, (2, 3))
    expect(avi.locator("#catan-clock")).to_have_text(re.compile(r"^1:[23]\d$"))
    expect(avi.locator("#catan-clock-label")).to_have_text("time left")


def test_catan_big_phone_place_follows_another_boards_final_points(tall_phone, hall_server):
    """Issue 27: the event is over without a verified claim (the standings rank by points). A
    player at another board sends final points above Noa's: Noa's phone shows her new place at
    once (one `turn` message for the event), not only at its own next message."""
    event_id, board = catan_event(hall_server, "Catan places")
    other = next(t for t in hall_server.api("GET", f"/api/events/{event_id}")["table_seats"]
                 if t["id"] != board["id"])
    noa = join_seat(tall_phone(), hall_server, board["seats"][1]["join_path"])
    eli = join_seat(tall_phone(), hall_server, other["seats"][1]["join_path"])
    tap(noa, "cities", 1)  # a second city: 6 points
    expect(noa.locator("#catan-total strong")).to_have_text("6")
    wait_for(lambda: board_summary(hall_server, event_id)[0]["points"] == [4, 6], "Noa's 6 points")
    hall_server.roll(event_id, (3, 5))
    hall_server.api("POST", f"/api/events/{event_id}/end")
    expect(noa.locator("#catan-outcome-detail")).to_have_text(
        "No claim of victory was verified: the standings rank by points. Your place: 1 of 4.")
    expect(eli.locator("#catan-outcome")).to_be_visible()
    tap(eli, "cities", 2)  # two more cities: 8 points, above Noa's 6
    expect(eli.locator("#catan-total strong")).to_have_text("8")
    eli.locator("#catan-final").tap()
    expect(eli.locator("#notice")).to_have_text("Your final points are sent.")
    expect(noa.locator("#catan-outcome-detail")).to_have_text(
        "No claim of victory was verified: the standings rank by points. Your place: 2 of 4.")
