"""The variable supply (RULES.md 13) on a 390x844 phone in Chromium, in English and Hebrew: the
build list offers the face-up piles only, each with its count and how many of its kind are
still in the draw pile (Yucata's "(n)"), and a build takes a copy off its pile."""

from __future__ import annotations

from playwright.sync_api import expect

from browser.conftest import english_words
from browser.conftest import join_seat as join

PLAYERS = ["Ann", "ענת", "Dana"]


def variable_table(hall, name: str) -> tuple[dict, dict]:
    """An event with one started hall-roll table of three dealt a variable supply."""
    event = hall.api("POST", "/api/events", {"name": name}, expect=201)
    table = hall.api("POST", f"/api/events/{event['id']}/tables",
                     {"name": "Table 1", "players": PLAYERS, "roll_mode": "hall",
                      "variable_supply": True}, expect=201)
    hall.api("POST", f"/api/tables/{table['id']}/start")
    return event, table


def market_of(hall, event_id: str) -> dict:
    """The hall summary's `market`: the face-up piles, the draw pile by kind, its size."""
    market: dict = hall.first_table(event_id)["market"]
    assert market["variable_supply"] is True
    return market


ENGLISH = ("{n} left", "{m} in the draw pile")
HEBREW = ("נותרו {n}", "{m} בערימת השליפה")
FITS = """() => [...document.querySelectorAll("#market .meta")]
  .every((m) => m.scrollWidth <= m.clientWidth + 1)
  && document.documentElement.scrollWidth <= window.innerWidth"""


def expect_the_face_up_piles(page, market: dict, words: tuple[str, str]) -> None:
    """The page lists exactly the face-up establishments (and the landmarks), each pile with
    its count and, on a line of its own, its kind's copies in the draw pile, in the page's
    language (`words`), every line fitting the card (no sideways scrolling)."""
    face_up = sorted(card for card, n in market["supply"].items() if n > 0)
    assert len(face_up) == 10
    expect(page.locator("#market li.card:not(.landmark) button")).to_have_count(10)
    shown = sorted(page.locator("#market li.card:not(.landmark) button").evaluate_all(
        "(buttons) => buttons.map((b) => b.dataset.card)"))
    assert shown == face_up
    for card in face_up:
        pile, draw = page.locator(f'button[data-card="{card}"] .meta').all()
        expect(pile).to_contain_text(words[0].format(n=market["supply"][card]))
        expect(draw).to_have_text(words[1].format(m=market["draw"].get(card, 0)))
    hidden = [card for card in market["draw"] if card not in market["supply"]]
    assert hidden, "the draw pile holds kinds not face up"
    for card in hidden:
        expect(page.locator(f'button[data-card="{card}"]')).to_have_count(0)
    assert page.evaluate(FITS), "a line of the build list runs out of its card"


def test_phone_variable_supply_in_english_and_hebrew(tall_phone, hall_server, snap):
    event, table = variable_table(hall_server, "Variable")
    seats = table["seats"]
    ann = join(tall_phone(), hall_server, seats[0]["join_path"])
    anat = join(tall_phone("he-IL"), hall_server, seats[1]["join_path"])
    market = market_of(hall_server, event["id"])

    # before the roll: the face-up piles with their draw-pile counts, closed by the turn
    expect_the_face_up_piles(ann, market, ENGLISH)
    expect(ann.locator("#build-note")).to_have_text("After the roll.")
    expect(anat.locator("html")).to_have_attribute("dir", "rtl")
    expect_the_face_up_piles(anat, market, HEBREW)
    assert english_words(anat, names=("Ann", "Dana")) == []

    # Ann gets coins, rolls 4 (nothing pays) and builds the first face-up kind she can afford
    hall_server.api("POST", f"/api/tables/{table['id']}/adjust", {"seat": 0, "amount": 20, "reason": "gift"})
    hall_server.roll(event["id"], (4, 4))
    expect(ann.locator("#coins")).to_have_text("23")
    open_cards = ann.locator("#market li.card:not(.landmark) button:enabled")
    expect(open_cards.first).to_be_visible()
    card = open_cards.first.get_attribute("data-card")
    assert market["supply"][card] > 0
    snap(ann, "phone-variable-supply-en")
    open_cards.first.tap()
    ann.locator("#confirm-ok").tap()
    expect(ann.locator("#build-note")).to_have_text("You have already built this turn.")
    after = market_of(hall_server, event["id"])
    assert sum(after["supply"].values()) + after["draw_left"] == \
        sum(market["supply"].values()) + market["draw_left"] - 1
    expect_the_face_up_piles(ann, after, ENGLISH)
    expect_the_face_up_piles(anat, after, HEBREW)
    anat.locator("#build-note").scroll_into_view_if_needed()
    snap(anat, "phone-variable-supply-he")
