"""Issue 27's Legacy campaign replayed through the organizer's console alone (no API call by
hand): on the first laptop the campaign starts from the base game's cards, the group adds its
community landmark with a Dutch name only, the console rolls for the start player and starts
game 1, whose result is written into the register by hand; the card list is saved as a file,
carried to a second laptop (a second server on a fresh database), loaded into a new campaign
there, and the next game is played at its table to a win by the players' phones (real
Socket.IO moves; the winner's browser phone celebrates), the console giving the coins a
correction. Console 1366x900 and phone 390x844 in English, Hebrew and Dutch."""

from __future__ import annotations

import json
import re
import time

from playwright.sync_api import Page, expect
from socket_phone import Phone

from browser.conftest import Hall, console_page, join_seat, open_hall
from browser.evening import card_of, create_campaign, mid_word_breaks, token_of

CONSOLE = (1366, 900)
LOCALES = {"en": "en-US", "he": "he-IL", "nl": "nl-NL"}
GROUP = [("Dana", "Dorp"), ("Eli", "Ezelstad")]


def new_event(page: Page, name: str) -> str:
    page.locator("#event-name").fill(name)
    page.locator("#event-form button[type=submit]").click()
    expect(page.locator("#legacy-part")).to_be_visible()
    return page.locator("#event-select").input_value()


def roll_for_start(page: Page, campaign, words: str) -> str:
    """The console's start roll, again on a tie; answers the line naming the start player."""
    rounds = campaign.locator(".legacy-rounds li")
    for n in range(1, 11):
        campaign.locator(".legacy-roll-button").click()
        expect(rounds).to_have_count(n)  # the round is drawn before the next roll
        if campaign.locator(".legacy-winner").count():
            break
    expect(campaign.locator(".legacy-winner")).to_contain_text(words)
    return campaign.locator(".legacy-winner").inner_text()


def add_community(campaign) -> None:
    campaign.locator(".legacy-editor > summary").click()
    editor = campaign.locator("form.legacy-card-form")
    editor.locator("input[name=kind][value=community]").check()
    editor.locator("[name=name-nl]").fill("Standbeeld")
    editor.locator("[name=cost]").fill("5")
    editor.locator("[name=amount]").fill("2")
    editor.locator("button[type=submit]").click()


def test_evening_legacy_campaign_carried_to_a_second_laptop(screen, tall_phone, hall_server: Hall,
                                                            own_server: Hall, snap, tmp_path):
    started = time.monotonic()
    # The first laptop: the campaign from the base game's cards, in Dutch.
    page = console_page(screen, hall_server, "nl", *CONSOLE, shows="#event-form", locale="nl-NL")
    new_event(page, "Legacy-avond")
    create_campaign(page, "Ons eiland", "base", GROUP)
    ours = page.locator("article.legacy-campaign")
    expect(ours).to_have_count(1)
    ours.locator(".legacy-cards > summary").click()
    expect(ours.locator(".legacy-catalog[data-kind=establishment] tbody tr")).to_have_count(15)
    expect(ours.locator("tr[data-card=wheat_field]")).to_contain_text("Graanakker")
    add_community(ours)
    expect(page.locator("#notice")).to_have_text("De kaart is aan de catalogus toegevoegd.")
    roll_for_start(page, ours, "begint het eerste spel.")
    setup = ours.locator("form.legacy-next-form")
    expect(setup.locator("select[name=community]")).to_have_value("standbeeld")
    setup.locator("button[type=submit]").click()
    expect(ours.locator(".legacy-playing")).to_contain_text("Spel 1")
    snap(page, "evening-legacy-console-game1-nl")

    # Game 1's result by hand into the register (the group played it on paper).
    ours.locator(".legacy-playing details > summary").click()
    record = ours.locator("form.legacy-record")
    record.locator("[name=winner]").select_option("1")
    record.locator("[name=date]").fill("2026-11-28")
    record.locator("button[type=submit]").click()
    expect(ours.locator("table.legacy-register tbody tr")).to_have_count(1)
    expect(ours.locator("table.legacy-register tbody tr")).to_contain_text("Eli")

    # The card list saved as a file ...
    with page.expect_download() as download:
        ours.locator(".legacy-save-cards").click()
    saved = tmp_path / "ons-eiland.json"
    download.value.save_as(saved)
    cards = json.loads(saved.read_text(encoding="utf-8"))
    assert cards["community"][0]["id"] == "standbeeld"

    # ... and loaded on the second laptop.
    other = console_page(screen, own_server, "en", *CONSOLE, shows="#event-form")
    event_id = new_event(other, "At Eli's")
    create_campaign(other, "Ons eiland", "file", GROUP, str(saved))
    expect(other.locator("#notice")).to_have_text("The campaign is created.")
    carried = other.locator("article.legacy-campaign")
    carried.locator(".legacy-cards > summary").click()
    expect(carried.locator("tr[data-card=standbeeld]")).to_contain_text("Standbeeld")
    roll_for_start(other, carried, "starts the first game.")
    carried.locator("form.legacy-next-form button[type=submit]").click()
    expect(carried.locator(".legacy-playing")).to_contain_text("Game 1 is being played")
    snap(other, "evening-legacy-console-carried-en")
    expect(carried.locator(".legacy-playing")).to_contain_text("Landmarks by letter: Dana ABC · Eli ABC.")

    # Game 1 at the second laptop's table: Dana on her phone in Dutch and on a Socket.IO phone,
    # Eli on one; the console gives Dana the coins of a quick game (a correction).
    table = card_of(other, "Ons eiland – 1")
    dana_page = join_seat(tall_phone("nl-NL"), own_server, f"/j/{token_of(table, 0)}")
    expect(dana_page.locator("#legacy-goal")).to_have_text(
        "Om te winnen: bouw nog 3 bezienswaardigheden en draag bij aan de gemeenschapsbezienswaardigheid.")
    table.locator(".correction > summary").click()
    correction = table.locator(".adjust-form")
    correction.locator("[name=seat]").select_option("0")
    correction.locator("[name=amount]").fill("40")
    correction.locator("[name=reason]").fill("a quick game")
    correction.locator("button[type=submit]").click()
    expect(dana_page.locator("#coins")).to_have_text("43")
    dana, eli = (Phone(own_server.url, token_of(table, seat)) for seat in (0, 1))
    try:
        legacy = dana.wait_for(0)["legacy"]
        landmarks = [mark["id"] for mark in legacy["landmarks"][0]]
        assert landmarks == ["train_station", "shopping_mall", "amusement_park"]
        if legacy["first"] == 1:  # the start roll chose Eli: he plays a turn first
            plain_turn(eli, 1, "eli-first")
        actions = [{"kind": "build", "card": mark} for mark in landmarks] + [{"kind": "contribute"}]
        for turn, action in enumerate(actions):
            dana.move(f"dana-roll-{turn}", {"kind": "roll", "dice": 1})
            after = dana.move(f"dana-act-{turn}", action)
            if action is actions[-1]:
                break
            if after["active"] == 0:
                dana.move(f"dana-end-{turn}", {"kind": "end_turn"})
            plain_turn(eli, 1, f"eli-{turn}")
        assert dana.view["winner"] == 0, dana.view["phase"]
    finally:
        dana.client.disconnect()
        eli.client.disconnect()

    # The win: Dana's phone celebrates; the console writes it into the register by itself.
    expect(dana_page.locator("body")).to_have_class(re.compile("i-won"))
    expect(dana_page.locator("#status")).to_have_text("Je hebt gewonnen!")
    snap(dana_page, "evening-legacy-phone-won-nl")
    assert mid_word_breaks(dana_page.locator("#legacy-community-title")) == []  # the Dutch word
    register = carried.locator("table.legacy-register tbody tr")
    expect(register).to_have_count(1)
    expect(register).to_contain_text("Dana")
    expect(register).to_contain_text("Dorp")
    carried.locator("table.legacy-register").evaluate("(e) => e.scrollIntoView({block: 'start'})")
    snap(other, "evening-legacy-console-won-en")
    assert time.monotonic() - started < 60

    # After the game, in English, Hebrew and Dutch: the second laptop's console, its hall
    # screen, Eli's phone.
    laptop = [other, dana_page]
    for lang in ("en", "he", "nl"):
        if lang != "en":
            console = console_page(screen, own_server, lang, *CONSOLE, event_id=event_id,
                                   shows="table.legacy-register tbody tr", locale=LOCALES[lang])
            console.locator("article.legacy-campaign").evaluate("(e) => e.scrollIntoView({block: 'start'})")
            snap(console, f"evening-legacy-console-won-{lang}")
        projector = open_hall(screen, own_server, event_id, 1920, 1080, locale=LOCALES[lang])
        expect(projector.locator("#tiles .tile")).to_have_count(1)
        snap(projector, f"evening-legacy-projector-won-{lang}")
        phone = join_seat(tall_phone(LOCALES[lang]), own_server, f"/j/{token_of(table, 1)}")
        expect(phone.locator("body")).to_have_class(re.compile("game-won"))
        snap(phone, f"evening-legacy-phone-eli-{lang}")
        for shown in (projector, phone):  # issue 27 (9): no word broken mid-word
            assert mid_word_breaks(shown.locator("body")) == [], lang
        laptop.extend([projector, phone] + ([console] if lang != "en" else []))
    for page in laptop:  # before the second laptop's server stops: no reconnecting page left
        page.context.close()


def plain_turn(phone: Phone, seat: int, tag: str) -> None:
    """A turn that builds nothing: the roll (one die), then the end of the turn."""
    after = phone.move(f"{tag}-roll", {"kind": "roll", "dice": 1})
    if after["active"] == seat and after["phase"] == "build":
        phone.move(f"{tag}-end", {"kind": "end_turn"})



