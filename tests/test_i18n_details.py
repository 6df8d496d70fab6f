"""A refused organizer request's detail in the request's language: the console on a Hebrew or
Dutch page shows the field's problem in that language, an API client without one gets English,
the codes and the answer's shape stay as they were, and a refusal changes nothing."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from conftest import api

from companion.hall.checks import Detail, HallError, invalid
from companion.web import hall_service
from companion.web.errors import status_of

REPO = Path(__file__).resolve().parents[1]
HEBREW = re.compile(r"[\u0590-\u05FF]")

# (method, path, body, the English detail); {event} and {table} are filled in.
REFUSALS = [
    ("post", "/api/events", {"name": "  "}, "an event name is required"),
    ("post", "/api/events/{event}/settings", {"choice_seconds": 3}, "choice_seconds is 5 to 600"),
    ("post", "/api/events/{event}/settings", {}, "nothing to change: send dice_mode, choice_seconds"),
    ("post", "/api/events/{event}/seating", {"players": ["A", "B", "C"], "ruleset": "machi-koro-coop"},
     "Machi Koro co-op (Tax Assessor) tables seat exactly 2 players: the number of names must be "
     "a multiple of 2 (the list has 3)"),
    ("post", "/api/events/{event}/seating", {"players": ["A", "B", "C"], "table_size": 2},
     "the names cannot be split into tables of 2 players (the list has 3)"),  # Machi Koro seats 2-4
    ("post", "/api/events/{event}/seating", {"players": []}, "the list of players is empty"),
    ("post", "/api/events/{event}/seating", {"players": ["A", "B"], "table_size": 9},
     "table_size is 2 to 4"),
    ("post", "/api/events/{event}/tables", {"name": "T", "players": ["A", "B", "C"],
                                            "ruleset": "machi-koro-coop"},
     "a Machi Koro co-op (Tax Assessor) table seats exactly 2 players"),
    ("post", "/api/events/{event}/tables", {"name": "T", "players": ["A"]},
     "a Machi Koro table seats 2 to 4 players"),
    ("post", "/api/events/{event}/tables", {"name": "T", "players": ["A", "B"], "assessor_coins": 9},
     "a Machi Koro table takes no option assessor_coins"),
    ("post", "/api/events/{event}/tables", {"name": "T", "players": ["A", "B"], "assessor_coins": 7,
                                            "ruleset": "machi-koro-coop"},
     "assessor_coins is a whole number from 8 to 20"),
    ("post", "/api/events/{event}/tables", {"name": "T", "players": ["A", "x" * 41]},
     "a player name has at most 40 characters"),
    ("post", "/api/tables/{table}/rename", {"name": ""}, "a table name is required"),
    ("post", "/api/tables/{table}/remove_player", {"seat": 7}, "there is no seat 7 at this table"),
    ("post", "/api/organizer/pin", {"pin": "12"}, "a PIN is 6 to 12 digits"),
    ("post", "/api/organizer/pin", {"pin": "777777"}, "a PIN of one repeated digit is too easy to guess"),
    ("post", "/api/organizer/pin", {}, 'the body is {"pin": "DIGITS"} (6 to 12 digits) or {"pin": null}'),
    ("post", "/api/events/{event}/roll", {"dice": [0, 7]}, "dice are two numbers from 1 to 6"),
    ("get", "/api/events/{event}/export?format=xml", None, "format is json or csv"),
    ("get", "/prints/poster.pdf?event={event}&wifi_password=pw", None, "wifi_password needs wifi_ssid"),
    ("get", "/prints/poster.pdf?event={event}&paper=a5", None, "poster print on a4, letter, a3, not 'a5'"),
]


@pytest.fixture
def places(http, key):
    event = api(http, key, "post", "/api/events", {"name": "Night"}).get_json()
    table = api(http, key, "post", f"/api/events/{event['id']}/tables",
                {"name": "T1", "players": ["Ann", "Ben"]}).get_json()
    return {"event": event["id"], "table": table["id"]}


def journal_size(app) -> int:
    journal = hall_service(app).journal
    return sum(journal.last_seq(stream) for stream in journal.streams())


def ask(http, key, method, path, body, language=None):
    """An API client's request, in `language` when one is given (as Accept-Language)."""
    headers = {"Authorization": f"Bearer {key}", "Accept": "application/json"}
    if language:
        headers["Accept-Language"] = language
    return getattr(http, method)(path, json=body, headers=headers)


@pytest.mark.parametrize(("method", "path", "body", "english"), REFUSALS,
                         ids=[english[:40] for *_, english in REFUSALS])
def test_i18n_details_follow_the_request_language(app, http, key, places, method, path, body,
                                                   english):
    path = path.format(**places)
    before = journal_size(app)
    answers = {}
    for language in (None, "en", "he", "nl"):
        response = ask(http, key, method, path, body, language)
        assert response.status_code == 400, response.get_data(as_text=True)
        answers[language] = response.get_json()
        assert set(answers[language]) == {"ok", "code", "message"}
        assert answers[language]["ok"] is False
        assert answers[language]["code"] == answers[None]["code"]
    assert answers[None]["code"].startswith("request/")
    assert answers[None]["message"] == answers["en"]["message"] == english
    hebrew, dutch = answers["he"]["message"], answers["nl"]["message"]
    assert HEBREW.search(hebrew), hebrew
    assert dutch != english and not HEBREW.search(dutch)
    for number in re.findall(r"\d+", english):  # the values the detail names stay in it
        assert number in hebrew and number in dutch
    assert journal_size(app) == before


def test_i18n_details_exact_words_for_the_console_forms(http, key, places):
    """The seat-count rule of a pasted list and the turn timer, word for word, with the
    ruleset's name in the page's language."""
    seating = f"/api/events/{places['event']}/seating"
    coop = {"players": ["A", "B", "C"], "ruleset": "machi-koro-coop"}
    settings = f"/api/events/{places['event']}/settings"
    assert ask(http, key, "post", seating, coop, "nl").get_json()["message"] == (
        "aan tafels voor Machi Koro coöperatief (belastinginspecteur) zitten precies 2 spelers: "
        "het aantal namen moet een veelvoud van 2 zijn (de lijst heeft er 3)")
    assert ask(http, key, "post", seating, coop, "he").get_json()["message"] == (
        "בשולחנות של מאצ'י קורו שיתופי (גובה המסים) יושבים בדיוק 2 שחקנים: "
        "מספר השמות חייב להתחלק ב-2 (ברשימה יש 3)")
    timer = {"choice_seconds": 601}
    assert ask(http, key, "post", settings, timer, "he").get_json()["message"] == (
        "שעון התור (choice_seconds) הוא בין 5 ל-600 שניות")
    assert ask(http, key, "post", settings, timer, "nl").get_json()["message"] == (
        "de beurttimer (choice_seconds) is 5 tot 600 seconden")


def test_i18n_details_follow_the_console_pages_language_cookie(app, places):
    """The console's browser: signed in by its cookie, its page in Hebrew (the lang cookie);
    its API calls get the detail in Hebrew, and after switching to Dutch, in Dutch."""
    browser = app.test_client()
    browser.get(f"/organizer?key={hall_service(app).organizer_key}")
    browser.get("/organizer?lang=he")
    path = f"/api/events/{places['event']}/settings"
    answer = browser.post(path, json={"choice_seconds": 3}, headers={"Accept-Language": "en"})
    assert answer.status_code == 400 and HEBREW.search(answer.get_json()["message"])
    browser.get("/organizer?lang=nl")
    answer = browser.post(path, json={"choice_seconds": 3})
    assert answer.get_json()["message"].startswith("de beurttimer")


def test_i18n_details_of_http_errors_follow_the_language(http):
    english = http.get("/api/nowhere").get_json()
    dutch = http.get("/api/nowhere", headers={"Accept-Language": "nl"}).get_json()
    assert (english["code"], english["message"]) == ("http/404", "not found")
    assert (dutch["code"], dutch["message"]) == ("http/404", "niet gevonden")
    hebrew = http.get("/i18n/xx.json", headers={"Accept-Language": "he"}).get_json()
    assert hebrew["code"] == "request/unknown_language" and hebrew["message"] == "אין שפה 'xx'"


def test_i18n_details_hall_error_keeps_english_for_logs_and_the_command_line():
    error = invalid("table_size is {low} to {high}", low=2, high=4)
    assert (error.code, status_of(error.code), error.message) == ("request/invalid", 400,
                                                                  "table_size is 2 to 4")
    assert str(error) == error.message
    assert error.detail == Detail("table_size is {low} to {high}", {"low": 2, "high": 4})
    assert HallError("table/full", "a table seats at most 4").detail is None


def test_i18n_details_a_broken_translation_says_english_rather_than_fail():
    detail = Detail("table_size is {low} to {high}", {"low": 2, "high": 4})
    assert detail.say(lambda _: "{lo} tot {high}") == "table_size is 2 to 4"
    assert detail.say(lambda _: "{low} tot {high}") == "2 tot 4"
    assert Detail("a {x} without values").say() == "a {x} without values"  # not formatted


def marked_calls(path: Path):
    """The calls of invalid() and malformed() in a module, and of HallError with a request/ code."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and node.args:
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            first = node.args[0]
            if name in ("invalid", "malformed"):
                yield path, node.lineno, first
            elif (name == "HallError" and isinstance(first, ast.Constant)
                  and str(first.value).startswith("request/") and len(node.args) > 1):
                yield path, node.lineno, node.args[1]


def test_i18n_details_every_request_refusal_is_a_message_id():
    """A request/ refusal's message is a literal message id (the catalogs' scanner finds it) or
    a Detail built elsewhere, never text made on the spot (an f-string) no catalog can hold."""
    calls = [call for folder in ("hall", "web")
             for path in (REPO / "companion" / folder).rglob("*.py") for call in marked_calls(path)]
    assert len(calls) > 20  # the scan sees them
    made = [f"{path.name}:{line}" for path, line, message in calls
            if isinstance(message, ast.JoinedStr | ast.BinOp)
            or (isinstance(message, ast.Call) and getattr(message.func, "id", "") == "str")]
    assert not made
