"""The hall screen's tiles and standings read from the back of the hall (issue 16, item 8): whole
names (never "Da…", nor "…na" on a Hebrew page), tiles that page only when they do not fit, no
slot for a table ended before it started, and a win the hall sees: a large banner in the tile
and in the standings, without flashing, and still under prefers-reduced-motion. Both projector
sizes, English, Hebrew and Dutch.

Also the builders the other hall-screen tests use: a table whose next roller has two dice, a
table played to a win by its phone (a python-socketio client, as tests/socket_phone.py)."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from socket_phone import Phone

from browser.conftest import COOP, Hall, contrast_problems, english_words, hall_tile, open_hall
from companion.rules.machi_koro.catalog import load_catalog

CATALOG = load_catalog()
LANDMARKS = sorted(CATALOG.landmarks, key=lambda lm: CATALOG.landmarks[lm].cost)  # Radio Tower last
SIZES = ((1920, 1080), (1280, 720))
LOCALES = {"en": "en-US", "he": "he-IL", "nl": "nl-NL"}
LONG_NAMES = ["Alexandrina Montgomery-Vasquez", "Bartholomew Featherstonehaugh", "Dana",
              "Konstantinos Papadopoulos"]
ids = itertools.count(1)


# ------------------------------------------------------------------ builders


def move(phone: Phone, body: dict[str, Any]) -> None:
    phone.move(f"hall-screen-{next(ids)}", body)


def give_two_dice(hall: Hall, event_id: str, table: dict[str, Any]) -> None:
    """The table's first player builds a Train Station and picks two dice on her first turn;
    two hall rolls later (the other player's turn between) she rolls two dice. A two-player
    table; the event's other hall tables roll along."""
    hall.api("POST", f"/api/tables/{table['id']}/adjust", {"seat": 0, "amount": 10, "reason": "a gift"})
    phone = Phone(hall.url, table["seats"][0]["token"])
    try:
        hall.roll(event_id, (1, 2))  # her turn: she builds
        move(phone, {"kind": "build", "card": "train_station"})
        move(phone, {"kind": "dice_count", "count": 2})
        hall.roll(event_id, (1, 2))  # the other player's turn
    finally:
        phone.client.disconnect()


def play_to_a_win(hall: Hall, event_id: str, table: dict[str, Any]) -> None:
    """The table's first player gets the coins of every landmark and builds one a turn from her
    phone, cheapest first: she wins on her fourth turn. The event's other tables roll along."""
    hall.api("POST", f"/api/tables/{table['id']}/adjust", {"seat": 0, "amount": 60, "reason": "a quick game"})
    build_landmarks(hall, event_id, table, LANDMARKS)


def build_landmarks(hall: Hall, event_id: str, table: dict[str, Any], landmarks: list[str]) -> None:
    """The first player builds these landmarks, one on each of her turns (a hall roll each, and
    one for each other player's turn after it, unless it was her last)."""
    phone = Phone(hall.url, table["seats"][0]["token"])
    others = len(table["seats"]) - 1
    try:
        for landmark in landmarks:
            hall.roll(event_id, (3, 4))  # her turn (never doubles: no Amusement Park turn)
            move(phone, {"kind": "build", "card": landmark})
            if landmark != LANDMARKS[-1]:
                for _ in range(others):
                    hall.roll(event_id, (3, 4))
    finally:
        phone.client.disconnect()


def mid_game(hall: Hall, name: str, tables: int = 4, players: list[str] | None = None) -> dict[str, Any]:
    """An event of `tables` hall tables of four, five rolls in: coins moved, lines in the tiles."""
    seated = players or LONG_NAMES
    event = hall.create_event(name, [(f"Table {n}", seated, "hall") for n in range(1, tables + 1)])
    for dice in ((1, 2), (2, 5), (3, 1), (5, 1), (2, 2)):
        hall.roll(event["id"], dice)
    return event


# ------------------------------------------------------------------ checks

CUT_NAMES = """() => [...document.querySelectorAll('#tiles .name, #standings .name, #standings .where')]
  .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1
                 || getComputedStyle(e).textOverflow === 'ellipsis')
  .map((e) => `${e.textContent} (${e.scrollWidth}>${e.clientWidth})`)"""


def cut_names(page: Page) -> list[str]:
    """The names in tiles and standings that do not show whole (cut, or with an ellipsis)."""
    cut: list[str] = page.evaluate(CUT_NAMES)
    return cut


def tiles_fit(page: Page) -> None:
    """Every tile on show ends inside the tiles' box: nothing cut at the bottom."""
    box = page.locator("#tiles").bounding_box()
    assert box
    for shown in page.locator("#tiles .tile").all():
        tile = shown.bounding_box()
        assert tile and tile["y"] + tile["height"] <= box["y"] + box["height"] + 1, shown.inner_text()


def rows_fit(page: Page) -> None:
    """The standings show whole rows: the last one ends inside its section."""
    box = page.locator("section.standings").bounding_box()
    last = page.locator("#standings li").last.bounding_box()
    assert box and last and last["y"] + last["height"] <= box["y"] + box["height"] + 1, (last, box)


# ------------------------------------------------------------------ tests


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_hall_screen_shows_whole_names_in_tiles_and_standings(screen, hall_server, snap, lang):
    event = mid_game(hall_server, f"Names {lang}", tables=2)
    for width, height in SIZES:
        page = open_hall(screen, hall_server, event["id"], width, height, locale=LOCALES[lang])
        expect(page.locator("#standings li").first).to_be_visible()
        first = page.locator("#standings .name").first
        expect(first.locator("bdi")).to_have_count(1)  # a Latin name keeps its direction in Hebrew
        assert cut_names(page) == [], f"names cut at {width}x{height}"
        shown = page.locator("#standings .name").all_inner_texts()
        assert len(shown) >= 5 and set(shown) <= set(LONG_NAMES), shown
        rows_fit(page)
        tile_names = page.locator("#tiles .seats .name").all_inner_texts()
        assert tile_names == LONG_NAMES * 2, tile_names
        size = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
        assert size == [width, height], f"the hall screen scrolls at {width}x{height}: {size}"
        if lang == "he":
            assert english_words(page, tuple(" ".join(LONG_NAMES).split())) == []
        snap(page, f"hall-names-{lang}-{width}x{height}")


def the_night_of_the_issue(hall: Hall) -> dict[str, Any]:
    """Four tables as the issue's evening had them, and one more ended before it started: a
    hall table of four, an own-roll table of three, a co-op pair (its wide tile), another hall
    table of four; seven hall rolls in."""
    players = ["Ann", "Bartholomew", "Dana", "Konstantinos"]
    event = hall.create_event("The night", [("Table 1", players, "hall"),
                                            ("Table 2", ["Eve", "Finn", "Gus"], "own")])
    for table in ({"name": "Pair", "players": ["Ana", "Ben"], "ruleset": COOP, "roll_mode": "hall"},
                  {"name": "Table 4", "players": ["Hal", "Ida", "Jo", "Kim"], "roll_mode": "hall"}):
        made = hall.api("POST", f"/api/events/{event['id']}/tables", table, expect=201)
        hall.api("POST", f"/api/tables/{made['id']}/start")
    never = hall.api("POST", f"/api/events/{event['id']}/tables",
                     {"name": "Never", "players": ["Zed", "Zoe"], "roll_mode": "hall"}, expect=201)
    hall.api("POST", f"/api/tables/{never['id']}/end")
    for dice in ((1, 2), (2, 5), (3, 1), (5, 1), (2, 2), (4, 4), (3, 3)):
        hall.roll(event["id"], dice)
    return event


@pytest.mark.parametrize("night", ["four tables of four", "the issue's night"])
def test_hall_screen_four_tables_fit_without_paging(screen, hall_server, snap, night):
    # Tables of four, one a long name each: the names wrap, the tiles still fit.
    four = ["Alexandrina Montgomery-Vasquez", "Ben", "Dana", "Konstantinos"]
    event = mid_game(hall_server, "Four tables", players=four) if night == "four tables of four" else \
        the_night_of_the_issue(hall_server)
    for width, height in SIZES:
        page = open_hall(screen, hall_server, event["id"], width, height)
        expect(page.locator("#tiles .tile")).to_have_count(4)
        expect(page.locator("#tables-page")).to_have_text("")
        tiles_fit(page)
        assert cut_names(page) == []
        page.wait_for_timeout(10_500)  # the page would have turned by now
        expect(page.locator("#tiles .tile")).to_have_count(4)
        expect(page.locator("#tiles .tile").first.locator("h3")).to_contain_text("Table 1")
        snap(page, f"hall-four-tables-{night.replace(' ', '-').replace(chr(39), '')}-{width}x{height}")


def test_hall_screen_leaves_out_a_table_ended_before_it_started(screen, hall_server):
    event = hall_server.create_event("Ended early", [("Playing", ["Ann", "Ben"], "hall")])
    never = hall_server.api("POST", f"/api/events/{event['id']}/tables",
                            {"name": "Never", "players": ["Zed", "Zoe"], "roll_mode": "hall"}, expect=201)
    hall_server.api("POST", f"/api/tables/{never['id']}/end")
    hall_server.api("POST", f"/api/events/{event['id']}/tables",
                    {"name": "Soon", "players": ["Cy", "Di"], "roll_mode": "hall"}, expect=201)
    stopped = hall_server.api("POST", f"/api/events/{event['id']}/tables",
                              {"name": "Stopped", "players": ["Eve", "Fay"], "roll_mode": "hall"}, expect=201)
    hall_server.api("POST", f"/api/tables/{stopped['id']}/start")
    hall_server.roll(event["id"], (2, 3))
    hall_server.api("POST", f"/api/tables/{stopped['id']}/end")
    page = open_hall(screen, hall_server, event["id"])
    # A table set up and not started yet is about to start: it keeps its tile.
    expect(page.locator("#tiles .tile h3 > bdi")).to_have_text(["Playing", "Soon", "Stopped"])
    expect(hall_tile(page, "Soon").locator(".state")).to_have_text("Not started")
    expect(hall_tile(page, "Stopped").locator(".state")).to_have_text("Ended")
    names = page.locator("#standings .name").all_inner_texts()
    assert "Zed" not in names and "Zoe" not in names and "Eve" in names, names


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_hall_screen_celebrates_a_win_in_the_tile_and_the_standings(screen, hall_server, snap, lang):
    event = hall_server.create_event(f"Win {lang}", [("Winners", ["Dana", "Ben"], "hall"),
                                                     ("Others", ["Cy", "Di", "Ed"], "hall")])
    play_to_a_win(hall_server, event["id"], event["tables"][0])
    assert hall_server.first_table(event["id"])["winner"] == 0
    won_words = {"en": "Dana won!", "he": "הניצחון של Dana!", "nl": "Dana heeft gewonnen!"}[lang]
    for width, height in SIZES:
        page = open_hall(screen, hall_server, event["id"], width, height, locale=LOCALES[lang])
        banner = hall_tile(page, "Winners").locator(".win-banner")
        expect(banner).to_be_visible()
        expect(banner.locator(".headline")).to_have_text(won_words)
        headline = banner.locator(".headline").bounding_box()
        assert headline and headline["height"] > height / 22, f"the win is small: {headline}"
        assert banner.bounding_box()["width"] > 0.85 * hall_tile(page, "Winners").bounding_box()["width"]
        winner = page.locator("#standings li").first
        expect(winner).to_have_class("won")
        expect(winner.locator(".name")).to_have_text("Dana")
        expect(winner.locator(".won-mark")).to_be_visible()
        mark = winner.locator(".won-mark").bounding_box()
        assert mark and mark["height"] > height / 40
        assert cut_names(page) == []
        problems = contrast_problems(page, "dark")  # dark text on the gold banner
        assert not problems, "\n".join(problems)
        # No flashing: an animation, if any, plays once.
        counts = banner.evaluate("e => getComputedStyle(e).animationIterationCount")
        assert counts in ("1", "0"), counts
        snap(page, f"hall-won-{lang}-{width}x{height}")
    page.emulate_media(reduced_motion="reduce")
    still = page.locator(".win-banner, #standings li.won").evaluate_all(
        "all => all.map((e) => getComputedStyle(e).animationName)")
    assert set(still) == {"none"}, still


def test_hall_screen_a_win_comes_in_once_and_calmly(screen, hall_server, snap):
    """A win that comes while the hall looks grows in once (no flashing, no repeat at the next
    view), and not at all for a screen that asked for less motion."""
    event = hall_server.create_event("Coming in", [("Winners", ["Dana", "Ben"], "hall"),
                                                   ("Others", ["Cy", "Di"], "hall")])
    table = event["tables"][0]
    hall_server.api("POST", f"/api/tables/{table['id']}/adjust", {"seat": 0, "amount": 60, "reason": "quick"})
    build_landmarks(hall_server, event["id"], table, LANDMARKS[:-1])
    page = open_hall(screen, hall_server, event["id"])
    calm = open_hall(screen, hall_server, event["id"], 1280, 720)
    calm.emulate_media(reduced_motion="reduce")
    build_landmarks(hall_server, event["id"], table, LANDMARKS[-1:])
    animation = "e => [getComputedStyle(e).animationName, getComputedStyle(e).animationIterationCount]"
    tile = hall_tile(page, "Winners")
    expect(tile.locator(".win-banner")).to_be_visible()
    expect(tile).to_have_class(re.compile(r"\bfresh\b"))
    # A redraw meanwhile (the next view) goes on with the entrance instead of starting it again.
    expect(tile).to_have_attribute("style", re.compile(r"^--since: -\d+ms$"))
    assert tile.locator(".win-banner").evaluate(animation) == ["win-in", "1"]
    assert page.locator("#standings li.won").evaluate(animation) == ["win-in", "1"]
    snap(page, "hall-win-coming-in")
    expect(hall_tile(calm, "Winners").locator(".win-banner")).to_be_visible()
    assert hall_tile(calm, "Winners").locator(".win-banner").evaluate(animation)[0] == "none"
    assert calm.locator("#standings li.won").evaluate(animation)[0] == "none"
    page.wait_for_timeout(1300)  # the entrance is over (hall.js WIN_MS)
    hall_server.roll(event["id"], (1, 2))  # the next view draws it as it stays
    expect(page.locator("#roll-number")).to_have_text("Roll 8")
    expect(tile).not_to_have_class(re.compile(r"\bfresh\b"))
    assert tile.locator(".win-banner").evaluate(animation)[0] == "none"
