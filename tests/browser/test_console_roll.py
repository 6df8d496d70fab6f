"""The console's hall roll and the tools it lacked (issue 16, items 2, 6, 7, 9 and 10), in a
real Chromium against a served hall: two presses of Space roll once and ask before a second
roll, the open turns show beside the button and a roll can wait for them, the last hall roll is
undone, "New link" asks first and then shows the seat's QR to scan, dice rolled by hand, the
Wi-Fi on the cards and poster, A3 paper, the co-op difficulty, the warning on a loopback server,
and the phone's one-die/two-dice switch showing its current setting as the selected one."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import Page, expect
from serverproc import ServerProcess
from socket_phone import Phone

from browser.axe import axe_report, axe_violations
from browser.conftest import Hall, console_page, english_words, join_seat

BASE_URL = "http://hall.lan:5000"  # a name on the hall's network: phones reach it


@pytest.fixture(scope="module")
def lan_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    """A hall served with --base-url, the address its phones use: no loopback warning."""
    folder: Path = tmp_path_factory.mktemp("lan")
    with ServerProcess(folder / "hall.db", log_path=folder / "server.log",
                       extra_args=("--base-url", BASE_URL)) as server:
        server.start()
        yield Hall(server)


def open_console(screen, hall: Hall, event_id: str, lang: str = "en", width: int = 1366,
                 height: int = 768) -> Page:
    return console_page(screen, hall, lang, width, height, event_id=event_id, shows="#event-panel")


def rolls(hall: Hall, event_id: str) -> list[list[int]]:
    return hall.api("GET", f"/api/events/{event_id}/export?format=json")["rolls"]


def two_tables(hall: Hall, name: str) -> dict:
    return hall.create_event(name, [("A", ["Ada", "Bo"], "hall"), ("B", ["Cy", "Di"], "hall")])


def test_console_two_presses_of_space_roll_once_then_ask(screen, hall_server, guard, snap):
    guard.allow(r"status of 409")  # the second press, refused until the organizer says yes
    event = two_tables(hall_server, "Double press")
    page = open_console(screen, hall_server, event["id"])
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("Space")
    expect(page.locator("#last-roll")).to_contain_text("Roll 1:")
    # A press while the roll is on its way is not sent at all; the second press came
    # 150 ms later, once the first roll was in.
    expect(page.get_by_role("button", name="Roll for the hall")).to_be_enabled()
    page.keyboard.press("Space")
    question = page.locator("#roll-confirm")
    expect(question).to_be_visible()
    expect(question.get_by_role("alert")).to_have_text(re.compile("was this a second press by mistake"))
    assert len(rolls(hall_server, event["id"])) == 1
    expect(page.get_by_role("button", name="Roll again anyway")).not_to_be_focused()
    # Beside the button: how many tables still choose or build, which, and a roll that waits.
    expect(page.locator("#roll-busy-text")).to_have_text("Tables still building: 2")
    snap(page, "console-roll-second-press-1366x768")
    violations = axe_violations(page)
    assert not violations, axe_report(violations)
    page.get_by_role("button", name="Keep the one roll").click()
    expect(question).to_be_hidden()
    expect(page.get_by_role("button", name="Roll for the hall")).to_be_focused()
    assert len(rolls(hall_server, event["id"])) == 1
    page.get_by_role("button", name="Show them").click()
    expect(page.get_by_label("Show")).to_have_value("busy")
    expect(page.locator("#overview tr:not([hidden])")).to_have_count(2)


def test_console_undoes_the_last_hall_roll_while_no_table_moved_on(screen, hall_server, guard):
    guard.allow(r"status of 409")  # the undo refused once a table moved on
    event = two_tables(hall_server, "Undo roll")
    hall_server.roll(event["id"], (2, 5))
    page = open_console(screen, hall_server, event["id"])
    expect(page.locator("#last-roll")).to_have_text("Roll 1: 2 and 5, total 7.")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Undo the last hall roll").click()
    said = page.locator(".roll-actions + #notice")
    expect(said).to_have_text("Roll 1 is undone. Tables taken back: 2.")
    expect(said).to_be_in_viewport()
    expect(page.locator("#last-roll")).to_have_text("No hall roll yet.")
    expect(page.get_by_role("button", name="Undo the last hall roll")).to_be_hidden()
    assert rolls(hall_server, event["id"]) == []
    assert {t["turn"] for t in hall_server.api("GET", f"/api/events/{event['id']}")["tables"]} == {1}

    # A roll straight after the undo is not a second press; once a table moved on, the undo
    # is refused beside its button, naming that table.
    page.get_by_role("button", name="Roll for the hall").click()
    expect(page.locator("#last-roll")).to_contain_text("Roll 1:")
    table_b = event["tables"][1]["id"]
    hall_server.api("POST", f"/api/tables/{table_b}/adjust", {"seat": 0, "amount": 1, "reason": "x"})
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Undo the last hall roll").click()
    expect(said).to_have_text(
        "The last hall roll cannot be undone: these tables have moved on since: B.")
    expect(said).to_have_attribute("role", "alert")
    assert len(rolls(hall_server, event["id"])) == 1


def test_console_rolls_once_the_open_turns_are_done(screen, hall_server):
    event = hall_server.create_event("Wait", [("A", ["Ada", "Bo"], "hall")])
    hall_server.roll(event["id"], (1, 1))
    page = open_console(screen, hall_server, event["id"])
    expect(page.locator("#roll-busy-text")).to_have_text("Tables still building: 1")
    wait = page.get_by_role("button", name="Roll when they are done")
    wait.click()
    expect(wait).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#roll-busy-text")).to_contain_text("The hall rolls as soon as they are done.")
    ada = Phone(hall_server.url, event["tables"][0]["seats"][0]["token"])
    try:
        ada.move("done", {"kind": "end_turn"})
    finally:
        ada.client.disconnect()
    expect(page.locator("#last-roll")).to_contain_text("Roll 2:")
    expect(wait).to_have_attribute("aria-pressed", "false")
    assert len(rolls(hall_server, event["id"])) == 2


def qr_text(page: Page, selector: str) -> str:
    image = Image.open(io.BytesIO(page.locator(selector).screenshot())).convert("L")
    found = [r.text for r in zxingcpp.read_barcodes(image) if r.format == zxingcpp.BarcodeFormat.QRCode]
    assert len(found) == 1, found
    return found[0]


def test_console_new_link_asks_first_then_shows_the_qr_to_scan(screen, phone, hall_server, snap):
    event = hall_server.create_event("New link", [("T", ["Ann", "Ben"], "hall")])
    table = event["tables"][0]
    ben = join_seat(phone(), hall_server, table["seats"][1]["join_path"])
    page = open_console(screen, hall_server, event["id"])
    row = page.locator(".table-card tbody tr", has=page.get_by_role("rowheader", name="Ben"))
    page.once("dialog", lambda dialog: dialog.dismiss())
    row.get_by_role("button", name="New link").click()
    expect(page.locator("#qr-dialog")).not_to_be_visible()
    seats = hall_server.api("GET", f"/api/events/{event['id']}")["table_seats"][0]["seats"]
    assert seats[1]["token"] == table["seats"][1]["token"]  # asked, and no: nothing changed
    expect(ben.locator("#connection")).to_have_text("Connected")

    messages = []
    page.once("dialog", lambda dialog: (messages.append(dialog.message), dialog.accept()))
    row.get_by_role("button", name="New link").click()
    dialog = page.locator("#qr-dialog")
    expect(dialog).to_be_visible()
    assert "Ben" in messages[0] and "stops working at once" in messages[0]
    expect(dialog.get_by_role("heading")).to_have_text("New join link of Ben")
    expect(dialog.get_by_role("img", name="QR code of the join link of Ben")).to_be_visible()
    page.wait_for_function("document.getElementById('qr-image').naturalWidth > 0")
    seats = hall_server.api("GET", f"/api/events/{event['id']}")["table_seats"][0]["seats"]
    assert qr_text(page, "#qr-image") == seats[1]["join_url"] != table["seats"][1]["join_url"]
    expect(dialog.locator("#qr-url")).to_have_text(f"{hall_server.url}/j/{seats[1]['join_code']}")
    expect(ben.locator("#connection")).to_have_text("Not connected")  # the old phone is told
    snap(page, "console-new-link-qr-1366x768")
    violations = axe_violations(page)
    assert not violations, axe_report(violations)
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).not_to_be_visible()
    # The new phone scans it and sits down as Ben.
    again = join_seat(phone(), hall_server, seats[1]["join_path"])
    expect(again.locator("#coins")).to_have_text("3")
    # Any seat's QR shows on asking, without a new link.
    row.get_by_role("button", name="QR code").click()
    expect(dialog.get_by_role("heading")).to_have_text("Join link of Ben")
    page.keyboard.press("Escape")
    expect(dialog).not_to_be_visible()


def test_console_dice_by_hand_wifi_a3_and_coop_difficulty(screen, lan_server, snap):
    hall = lan_server
    event = hall.create_event("Tools", [("T", ["Ann", "Ben"], "hall")])
    page = open_console(screen, hall, event["id"], width=1920, height=1080)
    expect(page.locator("#reach-warning")).to_have_count(0)  # served for the hall's network

    page.get_by_text("Dice rolled by hand in the hall").click()
    page.get_by_label("First die").select_option("3")
    page.get_by_label("Second die").select_option("5")
    page.get_by_role("button", name="Roll with these dice").click()
    expect(page.locator("#last-roll")).to_have_text("Roll 1: 3 and 5, total 8.")
    assert rolls(hall, event["id"]) == [[3, 5]]

    links = page.locator("#print-links")
    page.get_by_label("Wi-Fi password (empty for an open network)").fill("secret pass")
    expect(page.locator("#wifi-note")).to_be_visible()  # a password needs the network's name
    page.get_by_label("Wi-Fi network name").fill("HallNet")
    expect(page.locator("#wifi-note")).to_be_hidden()
    for kind in ("join-cards", "poster"):
        href = links.locator(f"a[data-kind={kind}]").get_attribute("href")
        assert "wifi_ssid=HallNet&wifi_password=secret+pass" in href, href
        answer = page.request.get(hall.url + href)
        assert answer.status == 200 and answer.headers["content-type"] == "application/pdf"
    assert "wifi" not in links.locator("a[data-kind=standings]").get_attribute("href")
    page.get_by_label("Paper").select_option("a3")
    cards = links.locator("li", has=page.locator("a[data-kind=join-cards]"))
    expect(cards.locator("a")).not_to_have_attribute("href", re.compile("."))
    expect(cards).to_contain_text("(only on A4, Letter (US))")
    poster = links.locator("a[data-kind=poster]").get_attribute("href")
    assert "paper=a3" in poster and page.request.get(hall.url + poster).status == 200

    form = page.locator("#seating-form")
    expect(page.locator("#options-machi-koro-coop")).to_be_hidden()
    form.locator("select[name=ruleset]").select_option("machi-koro-coop")
    difficulty = page.get_by_label("The Tax Assessor's coins at the start (8 to 20): fewer is harder")
    expect(difficulty).to_have_value("13")
    difficulty.fill("16")
    page.get_by_label("Player names, one per line").fill("Cas\nDee")
    page.get_by_role("button", name="Create the tables").click()
    expect(form.locator("#notice")).to_have_text("The tables are created.")
    made = hall.api("GET", f"/api/events/{event['id']}")["tables"][-1]
    hall.api("POST", f"/api/tables/{made['id']}/start")
    made = hall.api("GET", f"/api/events/{event['id']}")["tables"][-1]
    assert made["coop"]["assessor"]["stake"] == 16
    page.locator("#prints-title").evaluate("(title) => title.scrollIntoView()")
    snap(page, "console-tools-1920x1080")


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_console_on_loopback_warns_that_no_phone_can_open_its_address(screen, hall_server, snap, lang):
    event = hall_server.create_event(f"Loopback {lang}", [("T", ["Ann", "Ben"], "hall")])
    page = open_console(screen, hall_server, event["id"], lang)
    warning = page.locator("#reach-warning")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text(hall_server.url)
    expect(warning).to_contain_text("companion serve --host 0.0.0.0")
    expect(page.locator("#print-links .unreachable")).to_have_count(2)  # join cards, poster
    for kind in ("join-cards", "poster"):
        link = page.locator(f"#print-links a[data-kind={kind}]")
        expect(link).not_to_have_attribute("href", re.compile("."))
    if lang == "he":
        events = " ".join(e["name"] for e in hall_server.api("GET", "/api/events")).split()
        assert english_words(page, ("Ann", "Ben", "T", *events)) == []
    snap(page, f"console-loopback-{lang}-1366x768")


def test_phone_dice_switch_shows_the_current_setting_as_selected(browser, guard, contexts, hall_server, snap):
    """The one-die/two-dice switch looked backwards: the current setting was the pale (disabled)
    button. Now it is the filled, pressed one, and the other is the one to press."""
    event = hall_server.create_event("Dice switch", [("T", ["Ann", "Ben"], "hall")])
    table = event["tables"][0]
    hall_server.api("POST", f"/api/tables/{table['id']}/adjust", {"seat": 0, "amount": 10, "reason": "x"})
    hall_server.roll(event["id"], (1, 1))
    ann = Phone(hall_server.url, table["seats"][0]["token"])
    try:
        ann.move("station", {"kind": "build", "card": "train_station"})
    finally:
        ann.client.disconnect()
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    contexts.append(context)
    guard.watch(context, hall_server.url)
    page = join_seat(context, hall_server, table["seats"][0]["join_path"])
    one, two = page.get_by_role("button", name="1 die"), page.get_by_role("button", name="2 dice")
    expect(one).to_have_attribute("aria-pressed", "true")
    expect(one).to_be_enabled()
    expect(two).to_have_attribute("aria-pressed", "false")
    style = "(b) => [getComputedStyle(b).backgroundColor, getComputedStyle(b).opacity]"
    (filled, opacity), (empty, _) = one.evaluate(style), two.evaluate(style)
    assert opacity == "1" and filled != empty and empty in ("rgba(0, 0, 0, 0)", "transparent")
    one.scroll_into_view_if_needed()
    snap(page, "phone-dice-switch-390x844")
    two.tap()
    expect(two).to_have_attribute("aria-pressed", "true")
    expect(one).to_have_attribute("aria-pressed", "false")


def test_console_offers_no_second_undo_after_an_undo(screen, hall_server):
    """Only the last roll, once: after undoing roll 2 the console offered "undo" for roll 1,
    which the server always refused (roll/nothing_to_undo). The button goes until a new roll."""
    event = two_tables(hall_server, "One undo")
    hall_server.roll(event["id"], (2, 5))
    hall_server.roll(event["id"], (3, 3))
    page = open_console(screen, hall_server, event["id"])
    undo = page.get_by_role("button", name="Undo the last hall roll")
    page.once("dialog", lambda dialog: dialog.accept())
    undo.click()
    expect(page.locator("#last-roll")).to_have_text("Roll 1: 2 and 5, total 7.")
    expect(undo).to_be_hidden()
    hall_server.roll(event["id"], (4, 1))
    expect(undo).to_be_visible()
