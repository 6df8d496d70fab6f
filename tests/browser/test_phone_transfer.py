"""What a phone downloads and how long its page is (issue 16, item 11): with 1,100 phones on
one access point every kilobyte counts 1,100 times. Measured in Chromium through the DevTools
protocol: every HTTP response's encodedDataLength (headers and body as they came over the
wire, a redirect's too) and every WebSocket frame the page received, with its header."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import expect

FIRST_JOIN_BYTES = 60_000  # the targets, in bytes
RELOAD_BYTES = 5_000
LOCALES = {"en": "en-US", "he": "he-IL", "nl": "nl-NL"}


@dataclass
class Transfer:
    """The bytes one page received, as Chromium's network domain reports them."""

    responses: dict[str, tuple[str, int, float]] = field(default_factory=dict)  # id: url, status, bytes
    redirects: list[tuple[str, float]] = field(default_factory=list)
    urls: dict[str, tuple[str, int]] = field(default_factory=dict)
    frames: int = 0
    handshakes: int = 0

    def watch(self, context, page) -> Transfer:
        cdp = context.new_cdp_session(page)
        cdp.on("Network.requestWillBeSent", self._request)
        cdp.on("Network.responseReceived", self._response)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.webSocketFrameReceived", self._frame)
        cdp.on("Network.webSocketHandshakeResponseReceived", self._handshake)
        cdp.send("Network.enable")
        return self

    def _request(self, event) -> None:
        redirect = event.get("redirectResponse")
        if redirect:
            self.redirects.append((redirect["url"], redirect.get("encodedDataLength", 0)))

    def _response(self, event) -> None:
        self.urls[event["requestId"]] = (event["response"]["url"], event["response"]["status"])

    def _finished(self, event) -> None:
        url, status = self.urls.get(event["requestId"], ("?", 0))
        self.responses[event["requestId"]] = (url, status, event["encodedDataLength"])

    def _frame(self, event) -> None:
        size = len(event["response"]["payloadData"].encode())
        self.frames += size + (2 if size < 126 else 4)  # a server's frame: no mask

    def _handshake(self, event) -> None:
        headers = event["response"].get("headersText") or "".join(
            f"{k}: {v}\r\n" for k, v in event["response"]["headers"].items())
        self.handshakes += len(headers) + 20

    @property
    def total(self) -> int:
        return round(sum(n for _, _, n in self.responses.values()) + sum(n for _, n in self.redirects)
                     + self.frames + self.handshakes)

    def report(self) -> str:
        lines = [f"{n:8.0f} {status} {url}" for url, status, n in self.responses.values()]
        lines += [f"{n:8.0f} redirect {url}" for url, n in self.redirects]
        lines += [f"{self.frames:8d} WebSocket frames", f"{self.handshakes:8d} WebSocket handshakes",
                  f"{self.total:8d} in all"]
        return "\n".join(lines)

    def clear(self) -> None:
        self.responses.clear()
        self.redirects.clear()
        self.urls.clear()
        self.frames = self.handshakes = 0




def settled(page) -> None:
    """The page is drawn, connected, and has nothing more on the way."""
    expect(page).to_have_url(re.compile(r"/play$"))
    expect(page.locator("#connection")).to_have_attribute("data-state", "connected")
    expect(page.locator("#players li").first).to_be_visible()
    page.wait_for_timeout(1500)


def join_measured(context, url: str) -> tuple[object, Transfer]:
    page = context.new_page()
    transfer = Transfer().watch(context, page)
    page.goto(url)
    settled(page)
    return page, transfer


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_phone_transfer_first_join_and_reload_fit_the_budget(tall_phone, hall_server, lang):
    event = hall_server.create_event(f"Bytes {lang}", [("Table 1", ["Ann", "Ben", "Dana"], "hall")])
    seat = event["tables"][0]["seats"][1]
    context = tall_phone(LOCALES[lang])
    page, transfer = join_measured(context, hall_server.url + seat["join_path"])
    first = transfer.total
    assert first <= FIRST_JOIN_BYTES, f"first join, {lang}: {first} bytes\n{transfer.report()}"
    transfer.clear()
    page.reload()
    settled(page)
    assert transfer.total <= RELOAD_BYTES, f"reload, {lang}: {transfer.total} bytes\n{transfer.report()}"
    # a reload after the table changed: the page itself is new, its files are not
    hall_server.roll(event["id"], (2, 5))
    expect(page.locator("#dice .die")).to_have_count(1)
    transfer.clear()
    page.reload()
    settled(page)
    expect(page.locator("#dice .die")).to_have_count(1)
    after_roll = f"reload after a roll, {lang}: {transfer.total}"
    assert transfer.total <= RELOAD_BYTES, f"{after_roll}\n{transfer.report()}"
    print(f"\n{lang}: first join {first} bytes, reload {transfer.total} bytes")


def test_phone_transfer_coop_phone_in_hebrew_fits_the_budget(tall_phone, hall_server):
    _, table = hall_server.coop_event("Bytes co-op", players=("ענת", "Ben"))
    context = tall_phone("he-IL")
    page, transfer = join_measured(context, hall_server.url + table["seats"][1]["join_path"])
    expect(page.locator("#coop-row li")).to_have_count(4)
    assert transfer.total <= FIRST_JOIN_BYTES, f"first join: {transfer.total}\n{transfer.report()}"
    first = transfer.total
    transfer.clear()
    page.reload()
    settled(page)
    assert transfer.total <= RELOAD_BYTES, f"reload: {transfer.total}\n{transfer.report()}"
    print(f"\nco-op, he: first join {first} bytes, reload {transfer.total} bytes")


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_phone_transfer_page_says_a_shared_note_once(tall_phone, hall_server, lang, snap):
    """Waiting for another player's turn, every card of the build list would say "On your turn,
    after the roll.": the list says it once, and the page stays short."""
    event = hall_server.create_event(f"Short {lang}", [("Table 1", ["Ann", "Ben", "Dana"], "hall")])
    context = tall_phone(LOCALES[lang])
    page, _ = join_measured(context, hall_server.url + event["tables"][0]["seats"][1]["join_path"])
    hall_server.roll(event["id"], (2, 5))  # Ann's turn: Ben waits
    expect(page.locator("#dice .die")).to_have_count(1)
    expect(page.locator("#build-note")).not_to_be_empty()
    assert page.locator("#market .why").count() == 0
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 2000, f"the phone page is {height} px long at 390x844 (2,706 before issue 16)"
    snap(page, f"phone-waiting-{lang}")
