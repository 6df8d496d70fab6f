"""The console's downloads (/prints/KIND.pdf and /api/events/ID/export) are opened as plain
links: a browser whose organizer session has ended gets a page in its language with the way
back to the sign-in, not an English JSON body; API clients still get the JSON error. Through
the real app on a real SQLite file."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from conftest import api
from test_i18n import LATIN_IN_HEBREW, ShownWords

from companion.hall.demo import create_demo
from companion.web import hall_service

# What Chromium and Firefox send when a link is followed.
BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
SIGNED_OUT = {
    "he": "הכניסה של המארגן הסתיימה: התחברו שוב ואז פתחו את ההורדה שוב.",
    "nl": "De sessie van de organisator is afgelopen: meld deze browser opnieuw aan en open "
          "daarna de download nog eens.",
    "en": "The organizer's session has ended: sign in again, then open the download again.",
}
SIGN_IN_AGAIN = {"he": "להתחבר שוב", "nl": "Opnieuw aanmelden", "en": "Sign in again"}
# The console's links (static/js/organizer.js drawLinks), without the console's own ?lang.
DOWNLOADS = ("/prints/join-cards.pdf?event=1&paper=a4", "/prints/standings.pdf?event=1",
             "/api/events/1/export?format=csv", "/api/events/1/export?format=json")


@pytest.fixture
def demo(app: Any) -> dict[str, Any]:
    return create_demo(hall_service(app))


def session_ended(app: Any, key: str) -> Any:
    """A browser that signed in to the console and whose session then ended (signed out)."""
    browser = app.test_client()
    assert browser.get(f"/organizer?key={key}").status_code in (302, 303)
    assert browser.post("/organizer/signout").status_code == 303
    return browser


def click(browser: Any, path: str, lang: str) -> Any:
    return browser.get(path, headers={"Accept": BROWSER, "Accept-Language": f"{lang},en;q=0.5"})


def shown_english(page: str) -> set[str]:
    parser = ShownWords()
    parser.feed(page)
    return {word for text in parser.words for word in re.findall(r"[A-Za-z]{2,}", text)}


@pytest.mark.parametrize("path", DOWNLOADS)
@pytest.mark.parametrize("lang", ["he", "nl", "en"])
def test_download_pages_signed_out_browser_gets_a_page_in_its_language(
        app: Any, demo: dict[str, Any], path: str, lang: str) -> None:
    answer = click(session_ended(app, demo["organizer_key"]), path, lang)
    page = html.unescape(answer.get_data(as_text=True))
    assert answer.status_code == 401 and answer.mimetype == "text/html"
    assert SIGNED_OUT[lang] in page
    assert f'<a href="/organizer">{SIGN_IN_AGAIN[lang]}</a>' in page
    assert f'<html lang="{lang}" dir="{"rtl" if lang == "he" else "ltr"}"' in page
    assert "auth/organizer" not in page and "%PDF" not in page and "Content-Disposition" not in answer.headers
    if lang == "he":
        assert shown_english(page) <= LATIN_IN_HEBREW


def test_download_pages_the_consoles_own_lang_decides_the_page(app: Any, demo: dict[str, Any]) -> None:
    """The console's print links carry its language (?lang=he), which also is the page's."""
    answer = click(app.test_client(), "/prints/poster.pdf?event=1&paper=a4&lang=he", "nl")
    assert answer.status_code == 401 and SIGNED_OUT["he"] in answer.get_data(as_text=True)


def test_download_pages_the_sign_in_link_leads_back_to_the_downloads(
        app: Any, demo: dict[str, Any]) -> None:
    browser = session_ended(app, demo["organizer_key"])
    assert click(browser, DOWNLOADS[1], "en").status_code == 401
    signin = browser.get("/organizer", headers={"Accept": BROWSER})
    assert signin.status_code == 200 and "organizer link" in signin.get_data(as_text=True)
    browser.get(f"/organizer?key={demo['organizer_key']}")
    answer = click(browser, DOWNLOADS[1], "en")
    assert answer.status_code == 200 and answer.data.startswith(b"%PDF")
    export = click(browser, DOWNLOADS[2], "en")
    assert export.status_code == 200 and export.mimetype == "text/csv"


@pytest.mark.parametrize("path", DOWNLOADS)
@pytest.mark.parametrize("headers", [
    {"Accept": "application/json", "Accept-Language": "he"},
    {"Accept": "*/*", "Accept-Language": "nl"},  # fetch() and curl
    {"Accept-Language": "he"},  # no Accept at all
    {"Accept": BROWSER, "Accept-Language": "he", "Authorization": "Bearer not-the-key"},
])
def test_download_pages_json_clients_still_get_the_json_error(
        app: Any, demo: dict[str, Any], path: str, headers: dict[str, str]) -> None:
    answer = app.test_client().get(path, headers=headers)
    assert answer.status_code == 401 and answer.mimetype == "application/json"
    assert answer.get_json() == {"ok": False, "code": "auth/organizer",
                                 "message": "this needs the organizer's key"}


@pytest.mark.parametrize("path", DOWNLOADS)
def test_download_pages_the_api_helper_still_gets_json(app: Any, demo: dict[str, Any], path: str) -> None:
    for key in (None, "not-the-key"):
        answer = api(app.test_client(), key, "get", path)
        assert answer.status_code == 401 and answer.get_json()["code"] == "auth/organizer"


@pytest.mark.parametrize(("path", "status", "words"), [
    ("/prints/standings.pdf?event=42", 404, "Dit evenement bestaat niet op deze server."),
    ("/api/events/42/export?format=csv", 404, "Dit evenement bestaat niet op deze server."),
    ("/prints/standings.pdf?event=1&paper=a5", 400, "Dat verzoek is niet geldig."),
    ("/api/events/1/export?format=xml", 400, "Dat verzoek is niet geldig."),
])
def test_download_pages_signed_in_browser_meets_other_refusals_as_pages(
        app: Any, demo: dict[str, Any], path: str, status: int, words: str) -> None:
    """The same statuses as before; a browser reads them in its language. With the key (an API
    client) the JSON error with its detail stays, as tests/test_prints_web.py checks."""
    browser = app.test_client()
    browser.get(f"/organizer?key={demo['organizer_key']}")
    answer = click(browser, path, "nl")
    assert answer.status_code == status and answer.mimetype == "text/html"
    assert words in answer.get_data(as_text=True)
    keyed = api(app.test_client(), demo["organizer_key"], "get", path)
    assert keyed.status_code == status and keyed.get_json()["message"]


def test_download_pages_a_refused_choice_says_which_in_the_browsers_language(
        app: Any, demo: dict[str, Any]) -> None:
    """A hand-edited link (paper=a5): the page names the refused choice, in Dutch here."""
    browser = app.test_client()
    browser.get(f"/organizer?key={demo['organizer_key']}")
    answer = click(browser, "/prints/standings.pdf?event=1&paper=a5", "nl")
    page = html.unescape(answer.get_data(as_text=True))
    assert answer.status_code == 400
    assert "Dat verzoek is niet geldig. (het papier voor standings is een van: a4, letter, a3; " \
           "niet 'a5')" in page
