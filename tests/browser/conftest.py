"""Browser tests on real parts: `companion serve` in a subprocess, Debian's Chromium driven by
Playwright (never `playwright install`), phones as browser contexts with phone viewports.

Fixtures:
- `hall_server`: a served hall on a fresh SQLite file for the test module (`.url`, `.key`,
  `.api(method, path, body)`, `.create_event(...)`, `.coins(event_id)`); `own_server` is the
  same for one test, for tests that kill or restart it.
- `browser`: one Chromium for the session.
- `guard`: fails the test on any request to a host other than the app's own, and on any
  console error or uncaught page error; `guard.allow(regex)` lets through console errors a
  test provokes on purpose (a server it killed).
- `phone(locale="en-US")`: a new 360x640 touch context (guarded), closed after the test;
  `screen(width, height)`: a desktop-like context for the hall projector.
- `snap(page, name)`: a screenshot in artifacts/screenshots/NAME.png, checked not blank.

Helpers: `join_seat(context, hall, join_path)` opens a QR card's link like a phone and waits
until it is connected; `open_hall(screen, hall, event_id)` the projector and
`console_page(screen, hall)` the signed-in organizer console (on an event, at a size), both
connected; `english_words(page, names)` lists the English words a translated page shows
outside names;
`expect_phones_show_the_journal(hall, event_id, phones)` checks each phone's coins against the
journal; `hall_tile(page, name)` is a table's tile on the projector; `contrast_problems(page,
scheme)` the text under WCAG AA contrast (contrast.js) once the colour scheme has settled;
`fetch(url)` is a plain GET: (status, text).
"""

from __future__ import annotations

import re
import shutil
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from PIL import Image
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect, sync_playwright
from serverproc import REPO, ServerProcess, http_json, organizer_key

SCREENSHOTS = REPO / "artifacts" / "screenshots"
CONTRAST_PROBLEMS = (Path(__file__).parent / "contrast.js").read_text(encoding="utf-8")
COOP = "machi-koro-coop"
# Latin words a Hebrew page may show: the other languages' names in the switch, and the
# abbreviations the translations keep (as tests/test_i18n.py, which reads the served HTML).
LATIN_IN_HEBREW = ("English", "Nederlands", "QR", "PIN", "CSV", "JSON")
ENGLISH_WORDS = """(allowed) => {
  const found = new Set();
  const add = (text) => {
    for (const word of text.match(/(?<![/\\w])[A-Za-z]{2,}/g) ?? []) {  // not in a path: /organizer
      if (!allowed.includes(word)) found.add(word);
    }
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement.closest("script, style, bdi")) add(node.textContent);
  }
  const spoken = ["aria-label", "title", "alt", "placeholder"];
  for (const element of document.querySelectorAll(spoken.map((name) => `[${name}]`).join(", "))) {
    for (const name of spoken) add(element.getAttribute(name) ?? "");
  }
  return [...found].sort();
}"""
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PHONE = {"width": 360, "height": 640}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.slow)


class Hall:
    """A served hall and its organizer's HTTP API (docs/api.md)."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.key = organizer_key(server)

    @property
    def url(self) -> str:
        return self.server.url

    def api(self, method: str, path: str, body: Any = None, expect: int | None = None) -> Any:
        status, answer = http_json(self.url + path, method=method, body=body, key=self.key)
        assert status == expect if expect else status in (200, 201), f"{method} {path}: {status} {answer}"
        return answer

    def create_event(self, name: str, tables: list[tuple[str, list[str], str]],
                     **settings: Any) -> dict[str, Any]:
        """An event with started tables, each `(name, players, roll_mode)`; answers
        `{"id", "tables": [the API's table answers with seats and join paths]}`."""
        event = self.api("POST", "/api/events", {"name": name}, expect=201)
        if settings:
            self.api("POST", f"/api/events/{event['id']}/settings", settings)
        made = []
        for table_name, players, mode in tables:
            table = self.api("POST", f"/api/events/{event['id']}/tables",
                             {"name": table_name, "players": players, "roll_mode": mode}, expect=201)
            self.api("POST", f"/api/tables/{table['id']}/start")
            made.append(table)
        return {"id": event["id"], "tables": made}

    def coop_event(self, name: str, players: tuple[str, str] = ("Ana", "Ben"),
                   table_name: str = "Pair", **extra: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """An event with one started co-op table (hall roll); answers the event and the API's
        table answer with seats and join paths. `extra`: more table settings (assessor_coins)."""
        event = self.api("POST", "/api/events", {"name": name}, expect=201)
        table = self.api("POST", f"/api/events/{event['id']}/tables",
                         {"name": table_name, "players": list(players), "ruleset": COOP,
                          "roll_mode": "hall", **extra}, expect=201)
        self.api("POST", f"/api/tables/{table['id']}/start")
        return event, table

    def first_table(self, event_id: str) -> dict[str, Any]:
        """The hall view's summary of an event's first table (docs/api.md)."""
        summary: dict[str, Any] = self.api("GET", f"/api/events/{event_id}")["tables"][0]
        return summary

    def roll(self, event_id: str, dice: tuple[int, int]) -> dict[str, Any]:
        answer: dict[str, Any] = self.api("POST", f"/api/events/{event_id}/roll", {"dice": list(dice)})
        return answer

    def coins(self, event_id: str) -> dict[tuple[str, str], int]:
        """(table name, player name) -> coins, as the journal's export holds them."""
        export = self.api("GET", f"/api/events/{event_id}/export?format=json")
        return {(row["table"], row["player"]): row["coins"] for row in export["results"]}


def served(tmp: Path) -> ServerProcess:
    return ServerProcess(tmp / "hall.db", log_path=tmp / "server.log")


@pytest.fixture(scope="module")
def hall_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with served(tmp_path_factory.mktemp("hall")) as server:
        server.start()
        yield Hall(server)


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Hall]:
    with served(tmp_path) as server:
        server.start()
        yield Hall(server)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    executable = shutil.which("chromium")
    assert executable, "Debian's chromium is needed (scripts/test.sh installs it)"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Guard:
    """Watches contexts: requests only to the app's own host, no console errors, no page
    errors. Problems are collected and fail the test at its end."""

    def __init__(self) -> None:
        self.hosts: set[str] = set()
        self.problems: list[str] = []
        self.allowed: list[re.Pattern[str]] = []

    def allow(self, pattern: str) -> None:
        self.allowed.append(re.compile(pattern))

    def watch(self, context: BrowserContext, app_url: str) -> BrowserContext:
        self.hosts.add(urlsplit(app_url).netloc)
        context.on("request", lambda request: self._check_url(request.url))
        context.on("page", self._watch_page)
        for page in context.pages:
            self._watch_page(page)
        return context

    def _watch_page(self, page: Page) -> None:
        page.on("websocket", lambda socket: self._check_url(socket.url))
        page.on("console", lambda message: self._console(message.type, message.text, page.url))
        page.on("pageerror", lambda error: self.problems.append(f"page error on {page.url}: {error}"))

    def _check_url(self, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme in ("data", "blob", "about"):
            return
        if parts.netloc not in self.hosts:
            self.problems.append(f"request to another host: {url}")

    def _console(self, kind: str, text: str, where: str) -> None:
        if kind == "error" and not any(p.search(text) for p in self.allowed):
            self.problems.append(f"console error on {where}: {text}")

    def check(self) -> None:
        assert not self.problems, "\n".join(self.problems)


@pytest.fixture
def guard() -> Iterator[Guard]:
    watching = Guard()
    yield watching
    watching.check()


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    opened: list[BrowserContext] = []
    yield opened
    for context in opened:
        context.close()


@pytest.fixture
def phone(browser: Browser, guard: Guard, contexts: list[BrowserContext],
          hall_server: Hall) -> Callable[..., BrowserContext]:
    """A phone: a new 360x640 touch context in `locale`, watched by the guard."""

    def open_phone(locale: str = "en-US", app_url: str | None = None) -> BrowserContext:
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                      device_scale_factor=2, locale=locale)
        contexts.append(context)
        return guard.watch(context, app_url or hall_server.url)

    return open_phone


TALL_PHONE = {"width": 390, "height": 844}  # issue 16's phone


@pytest.fixture
def tall_phone(browser: Browser, guard: Guard, contexts: list[BrowserContext],
               hall_server: Hall) -> Callable[..., BrowserContext]:
    """A 390x844 touch phone in `locale` (issue 16's size), watched by the guard."""

    def open_phone(locale: str = "en-US") -> BrowserContext:
        context = browser.new_context(viewport=TALL_PHONE, is_mobile=True, has_touch=True,
                                      device_scale_factor=2, locale=locale)
        contexts.append(context)
        return guard.watch(context, hall_server.url)

    return open_phone


@pytest.fixture
def screen(browser: Browser, guard: Guard, contexts: list[BrowserContext],
           hall_server: Hall) -> Callable[..., BrowserContext]:
    """A projector or laptop screen of `width` x `height`, watched by the guard."""

    def open_screen(width: int = 1920, height: int = 1080, locale: str = "en-US",
                    app_url: str | None = None) -> BrowserContext:
        context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        contexts.append(context)
        return guard.watch(context, app_url or hall_server.url)

    return open_screen


def assert_not_blank(path: Path) -> None:
    """A screenshot shows something: several colours, and no single colour covers almost all."""
    with Image.open(path) as image:
        small = image.convert("RGB").resize((200, 200))
    colours = small.getcolors(maxcolors=200 * 200) or []
    assert len(colours) >= 8, f"{path.name}: only {len(colours)} colours"
    commonest = max(count for count, _ in colours)
    assert commonest < 0.97 * 200 * 200, f"{path.name}: one colour covers {commonest / 400:.1f}%"


@pytest.fixture
def snap() -> Callable[[Page, str], Path]:
    def take(page: Page, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=False)
        assert_not_blank(path)
        return path

    return take


def join_seat(context: BrowserContext, hall: Hall, join_path: str) -> Page:
    """A phone opens its join link (the QR card), lands on /play and gets connected."""
    page = context.new_page()
    page.goto(hall.url + join_path)
    expect(page).to_have_url(re.compile(r"/play$"))
    expect(page.locator("#connection")).to_have_attribute("data-state", "connected")
    return page


def open_hall(screen: Callable[..., BrowserContext], hall: Hall, event_id: str,
              width: int = 1920, height: int = 1080, locale: str = "en-US") -> Page:
    """The hall projector of an event, connected."""
    page = screen(width, height, locale=locale).new_page()
    page.goto(f"{hall.url}/hall/{event_id}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "connected")
    return page


def console_page(screen: Callable[..., BrowserContext], hall: Hall, lang: str = "en",
                 width: int = 1280, height: int = 900, *, event_id: str | None = None,
                 shows: str | None = None, locale: str = "en-US") -> Page:
    """The organizer console, signed in by the key link, in `lang`, live; with `event_id`,
    opened on that event, and with `shows`, once the first element it selects is visible."""
    page = screen(width, height, locale=locale, app_url=hall.url).new_page()
    page.goto(f"{hall.url}/organizer?key={hall.key}")
    if event_id is not None:
        page.goto(f"{hall.url}/organizer?lang={lang}&event={event_id}")
    elif lang != "en":
        page.goto(f"{hall.url}/organizer?lang={lang}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "connected")
    if shows is not None:
        expect(page.locator(shows).first).to_be_visible()
    return page


def english_words(page: Page, names: tuple[str, ...] = ()) -> list[str]:
    """The English words a Hebrew page shows once its scripts have drawn it (text, also hidden,
    and spoken attributes), other than in <bdi>, in a path, or among the `names` of players and
    events: a string a script shows without t() comes out here."""
    words: list[str] = page.evaluate(ENGLISH_WORDS, [*LATIN_IN_HEBREW, *names])
    return words


def expect_phones_show_the_journal(hall: Hall, event_id: str,
                                   phones: dict[str, Page]) -> dict[str, int]:
    """Every phone, by its player's name, shows the coins the journal (the export) holds for
    that player; answers every player's coins by name."""
    coins = {player: n for (_, player), n in hall.coins(event_id).items()}
    for name, page in phones.items():
        expect(page.locator("#coins")).to_have_text(str(coins[name]), timeout=5000)
    return coins


def hall_tile(page: Page, name: str) -> Locator:
    """The projector's tile of the table called `name`."""
    return page.locator(".tile", has=page.locator("h3", has_text=name))


def contrast_problems(page: Page, scheme: str) -> list[str]:
    """The texts of the page below WCAG AA contrast in `scheme` (contrast.js)."""
    page.emulate_media(color_scheme=scheme)
    page.wait_for_timeout(600)  # Pico eases colours in over 0.2 s: measure the settled ones
    problems: list[str] = page.evaluate(CONTRAST_PROBLEMS)
    return problems


def fetch(url: str) -> tuple[int, str]:
    """A plain GET of a page: (status, text); 4xx and 5xx are returned, not raised."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.read().decode()
