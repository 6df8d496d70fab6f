"""Languages: every string the pages and the JS show has a Hebrew and a Dutch translation, the
catalogs are well formed, and each request gets the language it asked for."""

from __future__ import annotations

import ast
import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from companion.web import hall_service
from companion.web.i18n import LANGUAGES, TRANSLATIONS, compile_catalogs, merged_catalog, po_files

REPO = Path(__file__).resolve().parents[1]
TRANSLATED = LANGUAGES[1:]

# _("...") in templates and Python, t("...") in the page scripts; either quote, escapes allowed.
PY_CALL = re.compile(r"""\b_\(\s*(?P<q>["'])(?P<text>(?:\\.|(?!(?P=q)).)*)(?P=q)""")
JS_CALL = re.compile(r"""\b(?:t|tx)\(\s*(?P<q>["'`])(?P<text>(?:\\.|(?!(?P=q)).)*)(?P=q)""")
PY_PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
JS_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


# In Python: gettext's _(), and the hall's message ids of a refusal's detail (hall/checks.py):
# N_(), invalid(), malformed(); their first argument when it is a string.
PY_MARKERS = frozenset({"_", "N_", "invalid", "malformed"})


def python_msgids(path: Path) -> list[str]:
    """The message ids a Python module marks, adjacent literals joined as Python joins them."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        first = node.args[0]
        if name in PY_MARKERS and isinstance(first, ast.Constant) and isinstance(first.value, str):
            found.append(first.value)
    return found


def used_msgids() -> dict[str, set[str]]:
    """msgid -> the files that use it."""
    sources = [(p, PY_CALL) for p in (REPO / "templates").rglob("*.html")]
    sources += [(p, JS_CALL) for p in (REPO / "static" / "js").rglob("*.js")]
    found: dict[str, set[str]] = {}
    for path, pattern in sources:
        for match in pattern.finditer(path.read_text(encoding="utf-8")):
            found.setdefault(unescape(match["text"]), set()).add(str(path.relative_to(REPO)))
    for folder in ("web", "hall", "printing", "rules"):  # rules: a ruleset's title and options
        for path in (REPO / "companion" / folder).rglob("*.py"):
            for msgid in python_msgids(path):
                found.setdefault(msgid, set()).add(str(path.relative_to(REPO)))
    return found


def test_i18n_scanner_finds_the_strings_of_templates_python_and_js():
    found = used_msgids()
    assert "Skip to the content" in found  # templates/base.html
    assert "Scan the QR code on your seat's card to join a table." in found  # pages.py
    assert "You do not have enough coins for that." in found  # static/js/i18n.js
    assert "table_size is {low} to {high}" in found  # invalid() in hall/checks.py
    assert "a PIN is {low} to {high} digits" in found  # N_() in hall/pin.py
    assert "the names cannot be split into {ruleset} tables of {low} to {size} players (the list " \
           "has {count})" in found  # adjacent literals in hall/registry.py, joined


@pytest.mark.parametrize("lang", TRANSLATED)
def test_i18n_every_used_string_is_translated(lang):
    catalog = merged_catalog(lang)
    missing = sorted(f"{msgid!r} (in {', '.join(sorted(files))})"
                     for msgid, files in used_msgids().items()
                     if not (catalog.get(msgid) and catalog.get(msgid).string))
    assert not missing, f"{len(missing)} strings lack a {lang} translation:\n" + "\n".join(missing)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_i18n_every_translation_is_still_used(lang):
    """A msgid no template, page script or web module asks for any more is dead weight that
    translators keep paying for: remove it from the .po files."""
    used = used_msgids()
    unused = sorted(str(m.id) for m in merged_catalog(lang) if m.id and m.id not in used)
    assert not unused, f"{lang} translates strings nothing uses: {unused}"


# Refusal codes no page shows, and why.
NEVER_SHOWN = {
    "request/unknown_language": "only i18n.js's own fetch of a catalog meets it",
    "request/unknown_action": "the console sends only the table actions it knows",
    "rule/bad_deck_order": "the service always gives the dealer its shuffle",
    "rule/assessor_coins": "sent as request/invalid with its detail (hall/checks.py)",
    "rule/bad_options": "sent as request/invalid with its detail (hall/checks.py)",
    "rule/bad_catalog": "a card set's refusal is sent as request/invalid with its detail (hall/checks.py)",
    "rule/bad_option_value": "sent as request/invalid with its detail (hall/checks.py)",
    "seat/unknown_code": "the join page says it in its own words (pages.join_by_code)",
    "seat/shared_code": "the join page says it in its own words (pages.join_by_code)",
    "table/out_of_step": "the console names the tables a hall roll left out (organizer.js showSkipped)",
    "auth/origin": "only another origin's page meets it, and cannot read it (web/origin.py)",
}


def test_i18n_every_refusal_a_page_can_meet_has_a_sentence():
    """Each code the hall, the web layer and the rules refuse with has a translated sentence in
    static/js/i18n.js or the console's organizer-api.js; a missing one shows English."""
    code = re.compile(r"""["']((?:auth|event|move|request|rule|seat|server|table)/[a-z_]+)["']""")
    sent = {"http/401", "http/413"}  # the organizer's session ended; a pasted list too long
    for folder in ("hall", "web", "rules"):
        for path in (REPO / "companion" / folder).rglob("*.py"):
            sent |= set(code.findall(path.read_text(encoding="utf-8")))
    mapped = set()
    for name in ("i18n.js", "organizer-api.js"):
        mapped |= set(re.findall(r'"([a-z]+/[a-z_0-9]+)": t\(', (REPO / "static" / "js" / name).read_text()))
    assert "rule/not_your_turn" in sent and "table/full" in mapped  # the scanners find both sides
    assert not sorted(sent - set(NEVER_SHOWN) - mapped)


@pytest.mark.parametrize("path", [p for lang in TRANSLATED for p in po_files(lang)],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_i18n_po_file_is_complete_and_keeps_placeholders(path):
    with path.open("rb") as source:
        catalog = read_po(source, locale=path.parent.name)
    assert catalog.locale is not None and str(catalog.locale) == path.parent.name
    messages = [m for m in catalog if m.id]
    assert messages, f"{path} has no messages"
    for message in messages:
        assert message.string, f"{path}: {message.id!r} has no translation"
        assert not message.fuzzy, f"{path}: {message.id!r} is marked fuzzy"
        for pattern in (PY_PLACEHOLDER, JS_PLACEHOLDER):
            assert set(pattern.findall(message.id)) == set(pattern.findall(message.string)), (
                f"{path}: {message.id!r} and its translation have different placeholders")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_i18n_areas_agree_on_shared_msgids(lang):
    seen: dict[str, tuple[str, str]] = {}
    for path in po_files(lang):
        with path.open("rb") as source:
            for message in read_po(source, locale=lang):
                if not message.id:
                    continue
                first = seen.setdefault(message.id, (message.string, path.name))
                assert first[0] == message.string, (
                    f"{lang}: {message.id!r} is {first[0]!r} in {first[1]} but "
                    f"{message.string!r} in {path.name}")


def test_i18n_every_language_has_the_same_areas():
    areas = {lang: [p.name for p in po_files(lang)] for lang in TRANSLATED}
    assert areas["he"] == areas["nl"]
    assert {"common.po", "play.po", "hall.po"} <= set(areas["he"])


def test_i18n_compile_merges_areas_into_one_mo(tmp_path):
    messages = compile_catalogs(tmp_path)
    assert messages["en"] == {}
    for lang in TRANSLATED:
        with (tmp_path / lang / "LC_MESSAGES" / "messages.mo").open("rb") as mo:
            compiled = {m.id: m.string for m in read_mo(mo) if m.id}
        assert compiled == messages[lang]
        for path in po_files(lang):  # every area is in the one file
            with path.open("rb") as source:
                assert {m.id for m in read_po(source) if m.id} <= set(compiled)
    assert not list(TRANSLATIONS.rglob("*.mo")), "compiled catalogs are never kept in the sources"


@pytest.fixture
def app_config(tmp_path):
    """The conftest app, with its compiled catalogs in the test's own folder."""
    return {"I18N_CACHE": str(tmp_path / "i18n")}


def html_tag(page: str) -> str:
    found = re.search(r"<html[^>]*>", page)
    assert found, "no <html> tag"
    return found.group(0)


def test_i18n_default_is_english_left_to_right(http):
    page = http.get("/play").get_data(as_text=True)
    assert html_tag(page) == '<html lang="en" dir="ltr">'
    assert "Scan the QR code on your seat's card" in html.unescape(page)  # the join page's words


def test_i18n_accept_language_picks_the_best_match(http):
    page = http.get("/play", headers={"Accept-Language": "fr;q=0.9, nl;q=0.8, en;q=0.5"})
    assert html_tag(page.get_data(as_text=True)) == '<html lang="nl" dir="ltr">'
    assert "Scan de QR-code" in page.get_data(as_text=True)


def test_i18n_lang_parameter_wins_sets_a_cookie_and_hebrew_is_right_to_left(http):
    response = http.get("/play?lang=he", headers={"Accept-Language": "nl"})
    page = response.get_data(as_text=True)
    assert html_tag(page) == '<html lang="he" dir="rtl">'
    assert "סרקו את קוד ה-QR" in page
    assert "lang=he" in response.headers["Set-Cookie"]
    # the cookie now outranks the browser's language
    later = http.get("/play", headers={"Accept-Language": "nl"}).get_data(as_text=True)
    assert html_tag(later) == '<html lang="he" dir="rtl">'


def test_i18n_unknown_language_is_ignored(http):
    response = http.get("/play?lang=xx", headers={"Accept-Language": "de"})
    assert html_tag(response.get_data(as_text=True)) == '<html lang="en" dir="ltr">'
    assert "Set-Cookie" not in response.headers or "lang=" not in response.headers["Set-Cookie"]


def test_i18n_every_page_has_a_language_switch(http):
    page = http.get("/play?lang=nl").get_data(as_text=True)
    for lang in LANGUAGES:
        assert f'href="/play?lang={lang}"' in page
    assert 'aria-current="true">Nederlands</a>' in page


def test_i18n_switch_keeps_the_other_query_parameters(app):
    with app.test_request_context("/hall/1?lang=he&size=big"):
        assert app.jinja_env.globals is not None
        from companion.web.i18n import language_url
        assert language_url("nl") == "/hall/1?size=big&lang=nl"


def test_i18n_json_catalog_for_the_js(http):
    answer = http.get("/i18n/he.json")
    assert answer.status_code == 200
    assert answer.get_json()["You do not have enough coins for that."] == "אין לך מספיק מטבעות בשביל זה."
    assert http.get("/i18n/en.json").get_json() == {}
    missing = http.get("/i18n/xx.json")
    assert missing.status_code == 404 and missing.get_json()["ok"] is False


def test_i18n_pages_load_nothing_from_outside(http):
    page = http.get("/play").get_data(as_text=True)
    assert not re.search(r"""(?:src|href)=["'](?:https?:)?//""", page)
    assert "/static/vendor/pico/pico.min.css" in page and "/static/css/app.css" in page


class ShownWords(HTMLParser):
    """What a page says in its own words: its text and the attributes a screen reader or a
    tooltip speaks; not scripts or styles, nor the names and addresses it holds in <bdi>."""

    SPOKEN = ("aria-label", "title", "alt", "placeholder")

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "bdi"):
            self.hidden += 1
        self.words += [value for name, value in attrs if name in self.SPOKEN and value]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "bdi"):
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden and data.strip():
            self.words.append(data.strip())


# Latin words a Hebrew page may show: the other languages' names in the switch, and the
# abbreviations the translations keep.
LATIN_IN_HEBREW = {"English", "Nederlands", "QR", "PIN", "CSV", "JSON"}


def test_i18n_hebrew_pages_show_no_english(app):
    """Every page in Hebrew, with Hebrew names: a string the catalog scanner cannot see (a
    literal in a template, an attribute) would show here as an English word."""
    hall = hall_service(app)
    organizer = app.test_client()
    organizer.get(f"/organizer?key={hall.organizer_key}")

    def call(method: str, path: str, body: dict | None = None) -> dict:
        answer = organizer.open(path, method=method, json=body)
        assert answer.status_code in (200, 201), answer.get_json()
        return answer.get_json()

    event = call("POST", "/api/events", {"name": "ערב"})
    seats = []
    for ruleset in ("machi-koro", "machi-koro-coop"):
        table = call("POST", f"/api/events/{event['id']}/tables",
                     {"name": "שולחן", "players": ["ענת", "דנה"], "ruleset": ruleset})
        call("POST", f"/api/tables/{table['id']}/start")
        seats.append(table["seats"][0]["join_path"])
    pages = {"console": organizer.get("/organizer?lang=he"),
             "hall": organizer.get(f"/hall/{event['id']}?lang=he"),
             "no event": organizer.get("/hall/999?lang=he"),
             "sign-in": app.test_client().get("/organizer?lang=he"),
             "join": app.test_client().get("/?lang=he"),
             "no seat": app.test_client().get("/play?lang=he")}
    for path in seats:
        phone = app.test_client()
        phone.get(path)
        pages[path] = phone.get("/play?lang=he")
    for name, response in pages.items():
        parser = ShownWords()
        parser.feed(response.get_data(as_text=True))
        english = {word for text in parser.words for word in re.findall(r"[A-Za-z]{2,}", text)}
        assert parser.words and english <= LATIN_IN_HEBREW, f"{name}: {sorted(english - LATIN_IN_HEBREW)}"


def test_i18n_hebrews_old_code_iw_gets_hebrew(http):
    page = http.get("/play", headers={"Accept-Language": "iw-IL, en;q=0.5"}).get_data(as_text=True)
    assert '<html lang="he" dir="rtl"' in page


@pytest.mark.parametrize(("header", "language"), [
    ("he-IL, en;q=0.5", "he"),  # Werkzeug's best_match took the exact "en" over the regional he-IL
    ("nl-BE,en-US;q=0.7,en;q=0.3", "nl"),
    ("fr-FR, de;q=0.9, en-GB;q=0.1", "en"),
    ("fr-FR, de;q=0.9", "en"),
    ("he;q=0, nl", "nl"),
    ("", "en"),
])
def test_i18n_browser_language_by_preference_and_primary_subtag(http, header, language):
    page = http.get("/play", headers={"Accept-Language": header}).get_data(as_text=True)
    assert f'<html lang="{language}"' in page
