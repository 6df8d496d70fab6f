"""The co-op Tax Assessor on the hall screen and its endings, in a real Chromium against a
served hall: the co-op tile plays the assessor's turn one step after another after the hall
roll that ends a round; a game won together shows the win on both phones and on the tile (and
in the export); a lost game shows the loss with its reason on the tile and the phone."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from browser.conftest import (
    COOP,
    console_page,
    contrast_problems,
    english_words,
    hall_tile,
    open_hall,
)
from browser.conftest import join_seat as join
from companion.rules.machi_koro.catalog import load_catalog

CATALOG = load_catalog()
LANDMARKS = sorted(CATALOG.landmarks, key=lambda lm: CATALOG.landmarks[lm].cost)  # Radio Tower last

# Counts how many of the assessor's steps are shown each time the tiles change, so the test
# can tell a turn played step by step from one drawn all at once.
RECORD_STEPS = """() => {
  window.shownSteps = [];
  const now = () => {
    const steps = [...document.querySelectorAll('.coop-steps li')];
    const shown = steps.filter((li) => li.classList.contains('shown')).length;
    const newest = steps.findIndex((li) => li.classList.contains('newest'));
    const text = (selector) => document.querySelector(selector)?.textContent ?? '';
    return `${shown}/${newest}/${text('.assessor .purse .big')}/${text('.assessor .sought .big')}`;
  };
  new MutationObserver(() => {
    if (window.shownSteps.at(-1) !== now()) window.shownSteps.push(now());
  }).observe(document.getElementById('tiles'), { childList: true, subtree: true });
}"""


def coop_tile(page: Page):
    return page.locator(f'.tile[data-ruleset="{COOP}"]')


def step_text(step: dict) -> str:
    """A step as the English page writes it."""
    name = CATALOG.establishment(step["card"]).names["en"] if "card" in step else ""
    if step["step"] == "reshuffle":
        return f"Reshuffled: {step['cards']} cards"
    if step["step"] == "final_round":
        return "Final round: one more turn each."
    if step["step"] == "end":
        return "The game is over."
    return {"tax": f"{name}: tax of {step['amount']}",
            "supplemental": f"{name}: supplemental tax of {step['amount']}",
            "miss": f"{name}: no tax ({step['sought']} sought)",
            "unpaid": f"{name}: the assessor cannot pay {step['amount']}"}[step["result"]]


def as_of(steps: list[dict], shown: int, coop: dict) -> str:
    """The assessor's coins and the value sought once `shown` steps of its turn are on screen
    (the turn starting from 13 coins): what the tile must show then."""
    paid = sum(s["amount"] for s in steps[:shown] if s.get("result") in ("tax", "supplemental"))
    still_drawing = [s for s in steps[shown:] if s["step"] == "draw"]
    sought = still_drawing[0]["sought"] if still_drawing else coop["assessor"]["sought"]
    return f"{13 - paid}/{sought}"


def font_px(locator) -> float:
    return float(locator.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))


def test_coop_hall_tile_plays_the_assessors_turn_step_by_step(screen, hall_server, snap):
    event, _ = hall_server.coop_event("Co-op hall")
    trio = hall_server.api("POST", f"/api/events/{event['id']}/tables",
                           {"name": "Trio", "players": ["Cy", "Di", "Ed"], "roll_mode": "hall"},
                           expect=201)
    hall_server.api("POST", f"/api/tables/{trio['id']}/start")
    page = open_hall(screen, hall_server, event["id"])
    tile = coop_tile(page)
    expect(tile.locator(".seats li")).to_have_count(2)
    expect(tile.locator(".seats li").first).to_contain_text("Ana")
    expect(tile.locator(".assessor .purse")).to_have_text("The assessor's coins 13")
    expect(tile.locator(".assessor .sought")).to_have_text("Value sought next: 1")
    expect(tile.locator(".piles").nth(0)).to_have_text("Assessor's deck 17 · discards 0")
    expect(tile.locator(".piles").nth(1)).to_have_text("Market deck 67 · discards 0")
    page.evaluate(RECORD_STEPS)

    hall_server.roll(event["id"], (5, 1))  # Ana rolls 5: nothing pays
    hall_server.roll(event["id"], (5, 1))  # her turn closes, Ben rolls
    expect(tile.locator(".state")).to_have_text("Ben may build")
    hall_server.roll(event["id"], (5, 1))  # Ben's turn closes: the round ends, the assessor plays
    expect(tile.locator(".state")).to_have_text("The assessor is playing…")
    coop = hall_server.first_table(event["id"])["coop"]
    steps = coop["last_assessor_turn"]["steps"]
    assert len(steps) >= 2, "a first turn is a tax and a reshuffle, or two draws"
    expect(tile.locator(".coop-steps li.shown")).to_have_count(len(steps), timeout=15_000)
    expect(tile.locator(".coop-steps li.newest")).to_have_count(0)  # it stands out for a while
    expect(tile.locator(".coop-steps li")).to_have_text([step_text(s) for s in steps])
    # Drawn as "shown/newest/assessor's coins/value sought": before the first step the coins
    # and value of before the turn, then each step alone as the newest with the coins it has
    # paid so far, then all of them with none standing out.
    one_by_one = [f"{n}/{n - 1}/{as_of(steps, n, coop)}" for n in range(1, len(steps) + 1)]
    one_by_one.append(f"{len(steps)}/-1/{as_of(steps, len(steps), coop)}")
    recorded = page.evaluate("window.shownSteps")
    assert [r for r in recorded if not r.startswith("0/")] == one_by_one, recorded
    assert {r for r in recorded if r.startswith("0/")} == {"0/-1/13/1"}, recorded
    expect(tile.locator(".state")).to_have_text("Ana may build")
    assessor = coop["assessor"]
    expect(tile.locator(".assessor .purse .big")).to_have_text(str(assessor["coins"]))
    expect(tile.locator(".assessed li")).to_have_count(len(assessor["assessed"]))
    sought = f"Value sought next: {assessor['sought']}"
    expect(tile.locator(".assessor .sought")).to_have_text(sought)
    expect(tile.locator(".piles").nth(0)).to_have_text(
        f"Assessor's deck {assessor['deck']} · discards {assessor['discards']}")
    # Readable from the back of the hall: at 1920x1080 the steps are body text (26 px), the
    # assessor's coins and the value sought twice that.
    assert font_px(tile.locator(".coop-steps li").first) >= 24
    assert font_px(tile.locator(".assessor .purse .big")) >= 48
    assert font_px(tile.locator(".assessor .sought .big")) >= 48
    snap(page, "hall-coop-turn")

    hebrew = open_hall(screen, hall_server, event["id"], locale="he-IL")
    expect(hebrew.locator("html")).to_have_attribute("dir", "rtl")
    expect(coop_tile(hebrew).locator(".assessor .sought")).to_have_text(
        f"הערך המבוקש הבא: {assessor['sought']}")
    expect(coop_tile(hebrew).locator(".coop-steps li.shown")).to_have_count(len(steps))  # at once
    assert english_words(hebrew) == []
    snap(hebrew, "hall-coop-he")

    small = open_hall(screen, hall_server, event["id"], 1280, 720)  # the same layout, nothing cut
    expect(coop_tile(small).locator(".coop-steps li.shown")).to_have_count(len(steps))
    size = small.evaluate("[document.documentElement.scrollWidth, "
                          "document.documentElement.scrollHeight]")
    assert size == [1280, 720], f"the hall screen scrolls: {size}"
    for name in ("Pair", "Trio"):
        # When the tiles do not fit they take turns, a page every 10 s (how tall the co-op tile is
        # depends on the shuffled deck: the assessor's turn has two to four steps).
        shown = hall_tile(small, name)
        expect(shown).to_be_visible(timeout=15_000)
        box = shown.bounding_box()
        assert box and box["y"] + box["height"] <= 720, f"{name}'s tile is cut: {box}"


def build_on_phone(page: Page, landmark: str) -> None:
    page.locator(f'#market button[data-card="{landmark}"]').tap()
    page.locator("#confirm-ok").tap()
    name = CATALOG.landmarks[landmark].names["en"]
    expect(page.locator("#notice")).to_have_text(f"Built: {name}.")


def test_coop_hall_and_phones_show_a_game_won_together(phone, screen, hall_server, snap):
    """The fastest honest win: the organizer gives each player the coins for all four landmarks
    (52), then each builds one a turn on the phone, cheapest first; four rounds, and the three
    assessor turns between them take at most 1 + 2 + 3 of its 13 coins."""
    event, table = hall_server.coop_event("Co-op win")
    for seat in (0, 1):
        hall_server.api("POST", f"/api/tables/{table['id']}/adjust",
                        {"seat": seat, "amount": 60, "reason": "a quick game"})
    pair = [join(phone(), hall_server, seat["join_path"]) for seat in table["seats"]]
    hall = open_hall(screen, hall_server, event["id"])
    for landmark in LANDMARKS:
        for page in pair:
            hall_server.roll(event["id"], (3, 4))
            build_on_phone(page, landmark)
    won = hall_server.first_table(event["id"])
    assert won["coop"]["outcome"] == "won" and won["result"]["outcomes"] == ["won", "won"]
    for page in pair:
        banner = page.locator("#coop-outcome")
        expect(banner).to_be_in_viewport()  # scrolled to from the build list at the bottom
        expect(banner).to_have_attribute("data-outcome", "won")
        expect(banner.locator(".headline")).to_have_text("You won together: both cities are complete!")
        expect(banner.locator(".detail")).to_have_text(f"All 8 landmarks built, on turn {won['turn']}.")
        expect(page.locator("#status")).to_be_hidden()  # no "Ana's turn" under the banner
        expect(page.locator("#build")).to_be_hidden()
        expect(page.locator("#landmarks li.built")).to_have_count(4)
    tile = coop_tile(hall)
    expect(tile.locator(".coop-outcome")).to_have_attribute("data-outcome", "won")
    expect(tile.locator(".coop-outcome .headline")).to_have_text("Won together: both cities are complete!")
    expect(tile.locator(".stars").first).to_have_attribute("aria-label", "4 of 4 landmarks")
    expect(tile.locator(".seats li.active")).to_have_count(0)
    rows = hall_server.api("GET", f"/api/events/{event['id']}/export?format=json")["results"]
    assert [(r["player"], r["winner"], r["result"]) for r in rows] == [
        ("Ana", True, "won"), ("Ben", True, "won")]
    pair[1].wait_for_function("scrollY === 0")  # back at the top, where the banner is
    snap(pair[1], "phone-coop-won")
    # The assessor's last turn plays one step every 1.4 s after the dice (hall-coop.js STEP_MS),
    # so the wait for its end grows with its steps rather than Playwright's fixed 5 s.
    steps = len(won["coop"]["last_assessor_turn"]["steps"])
    played = tile.locator(".coop-steps li.due-later, .coop-steps li.newest")
    expect(played).to_have_count(0, timeout=5_000 + 1_400 * (steps + 1))
    expect(hall.locator("#dice .sum")).to_have_text("= 7")  # and the dice have stopped
    snap(hall, "hall-coop")


def test_coop_hall_and_phone_say_why_the_game_was_lost(phone, screen, hall_server, snap):
    event, table = hall_server.coop_event("Co-op loss", assessor_coins=8)
    ana = join(phone(), hall_server, table["seats"][0]["join_path"])
    hall = open_hall(screen, hall_server, event["id"])
    for _ in range(200):  # nobody builds or gives: the assessor pays until it cannot
        if hall_server.first_table(event["id"])["coop"]["outcome"]:
            break
        hall_server.roll(event["id"], (4, 4))
    coop = hall_server.first_table(event["id"])["coop"]
    assert (coop["outcome"], coop["reason"]) == ("lost", "tax_unpaid")
    unpaid = coop["last_assessor_turn"]["steps"][-2]
    assert unpaid["result"] == "unpaid"
    why = (f"{CATALOG.establishment(unpaid['card']).names['en']} asked for a tax of "
           f"{unpaid['amount']}; the assessor had {coop['assessor']['coins']}.")
    tile = coop_tile(hall)
    expect(tile.locator(".coop-outcome .headline")).to_have_text(
        "Lost: the assessor could not pay a tax.", timeout=15_000)
    expect(tile.locator(".coop-outcome .detail")).to_have_text(why)
    expect(tile.locator(".coop-steps li.unpaid").first).to_have_text(step_text(unpaid))
    expect(ana.locator("#coop-outcome .headline")).to_have_text("You lost: the assessor could not pay a tax.")
    expect(ana.locator("#coop-outcome .detail")).to_have_text(why)
    expect(ana.locator("#status")).to_be_hidden()
    problems = contrast_problems(hall, "dark")
    assert not problems, "\n".join(problems)
    snap(hall, "hall-coop-lost")
    console = console_page(screen, hall_server)
    console.locator("#event-select").select_option(label="Co-op loss")
    expect(console.locator(".table-card .turn").first).to_have_text("Game over: the players lost.")
    # The journal tells the co-op game in words, the assessor's turns as the tile shows them.
    console.locator(".table-card .audit summary").first.click()
    journal = console.locator(".table-card .audit-body").first
    expect(journal).to_contain_text("Move 1 by the dealer")
    expect(journal).to_contain_text("8 from the bank to the assessor (stake)")
    expect(journal).to_contain_text(step_text(unpaid))
    expect(journal).to_contain_text("Lost: the assessor could not pay a tax.")
    assert "Assessor" not in journal.inner_text() and "{" not in journal.inner_text()
