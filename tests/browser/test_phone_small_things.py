"""Small things on the phone (issue 27, item 13), at 390x844 in English, Hebrew and Dutch: the
dice-count toggle fits the phone's width (Dutch: "Ik gooi: 2 dobbelstenen"); a win is
celebrated."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from socket_phone import Phone

from browser.conftest import join_seat
from browser.test_hall_screen_tiles import play_to_a_win

LOCALES = {"en": "en-US", "he": "he-IL", "nl": "nl-NL"}


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_phone_dice_count_toggle_fits_a_390px_phone(screen, hall_server, snap, lang):
    event = hall_server.create_event(f"Toggle {lang}", [("Table 1", ["Dana Levi", "Eli"], "own")])
    table = event["tables"][0]
    hall_server.api("POST", f"/api/tables/{table['id']}/adjust", {"seat": 0, "amount": 10, "reason": "test"})
    phone = Phone(hall_server.url, table["seats"][0]["token"])
    try:
        phone.move(f"toggle-{lang}-1", {"kind": "roll"})
        phone.move(f"toggle-{lang}-2", {"kind": "build", "card": "train_station"})
    finally:
        phone.client.disconnect()
    page = join_seat(screen(390, 844, locale=LOCALES[lang]), hall_server, table["seats"][0]["join_path"])
    toggle = page.locator(".dice-count")
    expect(toggle).to_be_visible()
    for part in [toggle, *toggle.locator("button").all()]:
        box = part.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, (lang, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    toggle.scroll_into_view_if_needed()
    snap(page, f"phone-dice-count-{lang}")


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_phone_celebrates_a_win(screen, hall_server, snap, lang):
    """The winner's phone shows a gold banner, the others' a framed one; the market is gone
    (it was plain bold text above the whole market)."""
    event = hall_server.create_event(f"Win {lang}", [("Table 1", ["Dana Levi", "Eli"], "hall")])
    table = event["tables"][0]
    play_to_a_win(hall_server, event["id"], table)
    for seat, who in ((0, "winner"), (1, "other")):
        context = screen(390, 844, locale=LOCALES[lang])
        page = join_seat(context, hall_server, table["seats"][seat]["join_path"])
        expect(page.locator("body")).to_have_class(re.compile("game-won"))
        expect(page.locator("#build")).to_be_hidden()
        banner = page.locator("#status").bounding_box()
        assert banner and banner["height"] > 50, banner
        if seat == 0:
            expect(page.locator("body")).to_have_class(re.compile("i-won"))
        snap(page, f"phone-win-{who}-{lang}")


def test_phone_a_new_roll_takes_away_my_older_notice(screen, hall_server, snap):
    """"Turn ended." no longer stands above the losses of the next player's roll."""
    event = hall_server.create_event("Notice", [("Table 1", ["Dana Levi", "Eli"], "own")])
    table = event["tables"][0]
    page = join_seat(screen(390, 844), hall_server, table["seats"][0]["join_path"])
    page.get_by_role("button", name="Roll the dice").click()
    page.get_by_role("button", name="End my turn").click()
    expect(page.locator("#notice")).to_have_text("Turn ended.")
    eli = Phone(hall_server.url, table["seats"][1]["token"])
    try:
        eli.move("notice-eli-roll", {"kind": "roll"})
    finally:
        eli.client.disconnect()
    expect(page.locator("#notice")).to_be_hidden()
    expect(page.locator("#dice")).not_to_be_empty()
    snap(page, "phone-notice-after-roll-en")


def test_phone_names_its_table_in_its_connection_for_a_proxy(screen, hall_server):
    """A proxy in front of several processes sends a table's phones to one process by the
    `table` of their Socket.IO address (docs/scaling.md; the nginx block there is run by
    tests/test_multiprocess.py): the phone puts its table's id there."""
    event = hall_server.create_event("Proxy", [("Table 1", ["Dana", "Eli"], "own"),
                                               ("Table 2", ["Ori", "Tal"], "own")])
    table = event["tables"][1]
    page = screen(390, 844).new_page()
    addresses: list[str] = []
    page.on("websocket", lambda socket: addresses.append(socket.url))
    page.goto(hall_server.url + table["seats"][0]["join_path"])
    expect(page.locator("#connection")).to_have_attribute("data-state", "connected")
    assert addresses, "the phone opened no WebSocket"
    assert all(f"table={table['id']}&" in url or url.endswith(f"table={table['id']}")
               for url in addresses), addresses


def test_phone_applies_a_whole_frame_of_its_own_seq_and_ignores_an_old_patch(screen, hall_server):
    """The page's `viewAfter` (static/js/play.js), its rules for a message of the view's own
    seq: a whole frame (base null) applies, since what changed is kept in memory alone (a
    board's neighbours after a rename, sent whole by a process with no frame to patch); a
    patch from another base is old; a newer patch from another base is a gap (null)."""
    event = hall_server.create_event("Frames", [("Table 1", ["Dana", "Eli"], "own")])
    table = event["tables"][0]
    page = join_seat(screen(390, 844), hall_server, table["seats"][0]["join_path"])
    answers = page.evaluate("""async () => {
        const src = document.querySelector('script[type=module][src*="play.js"]').src;
        const { viewAfter } = await import(src);
        const view = { table: { id: "T" }, seat: 0, seq: 5, name: "old" };
        const message = (base, seq) => ({ table: "T", base, seq, common: { name: ["new"] },
                                          seats: [{}, {}] });
        const shown = (next) => next === null ? null : next === view ? "kept" : next.name;
        return [shown(viewAfter(view, message(null, 5))), shown(viewAfter(view, message(4, 5))),
                shown(viewAfter(view, message(null, 4))), shown(viewAfter(view, message(5, 6))),
                shown(viewAfter(view, message(3, 6)))];
    }""")
    assert answers == ["new", "kept", "kept", "new", None], answers
