"""Languages of the pages and of the strings the JS shows, from one set of catalogs.

The sources are `companion/translations/<lang>/<area>.po` (one per area: common, play, hall,
organizer, ...; English is the msgid itself). At start every language's files are merged and
compiled into one `messages.mo` in a cache folder that Flask-Babel reads, and kept as a dict
that `GET /i18n/<lang>.json` hands to `static/js/i18n.js`: whole, or only the areas a page names
(`?areas=common,play,coop`: the phone's third of it). Compiled files are never committed.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Blueprint, Flask, current_app, g, jsonify, request
from flask_babel import Babel

from companion.hall.checks import N_, Detail, HallError

LANGUAGES = ("en", "he", "nl")
RTL = frozenset({"he"})
NAMES = {"en": "English", "he": "עברית", "nl": "Nederlands"}  # each in its own language
COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600
TRANSLATIONS = Path(__file__).resolve().parents[1] / "translations"

bp = Blueprint("i18n", __name__)


def po_files(lang: str, root: Path = TRANSLATIONS) -> list[Path]:
    """The catalog sources of one language, one per area, in a stable order."""
    return sorted((root / lang).glob("*.po"))


def merged_catalog(lang: str, root: Path = TRANSLATIONS) -> Catalog:
    """Every area's messages of `lang` in one catalog; a msgid two areas both translate must
    agree (the test of the catalogs checks it), the first one wins here."""
    merged = Catalog(locale=lang, domain="messages")
    for path in po_files(lang, root):
        with path.open("rb") as source:
            area = read_po(source, locale=lang)
        for message in area:
            if message.id and message.string and not message.fuzzy and message.id not in merged:
                merged.add(message.id, message.string, flags=message.flags)
    return merged


def area_messages(lang: str, root: Path = TRANSLATIONS) -> dict[str, dict[str, str]]:
    """Each area's translated messages of `lang`, by the area's name (its .po file's stem)."""
    areas = {}
    for path in po_files(lang, root):
        with path.open("rb") as source:
            areas[path.stem] = {str(m.id): str(m.string) for m in read_po(source, locale=lang)
                                if m.id and m.string and not m.fuzzy}
    return areas


def compile_catalogs(target: Path, root: Path = TRANSLATIONS) -> dict[str, dict[str, str]]:
    """Write `<target>/<lang>/LC_MESSAGES/messages.mo` for every translated language and
    return the same messages as plain dicts for the JS. Writes are atomic: several servers
    may share an instance folder."""
    messages: dict[str, dict[str, str]] = {"en": {}}
    for lang in LANGUAGES[1:]:
        catalog = merged_catalog(lang, root)
        folder = target / lang / "LC_MESSAGES"
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, suffix=".mo.tmp")
        with os.fdopen(handle, "wb") as out:
            write_mo(out, catalog)
        os.replace(temporary, folder / "messages.mo")
        messages[lang] = {str(m.id): str(m.string) for m in catalog if m.id}
    return messages


def cache_folder(app: Flask) -> Path:
    """Where the compiled catalogs go: `I18N_CACHE` if set, else the instance folder, or a
    private temporary folder when that cannot be written (a read-only install)."""
    folder = Path(app.config.get("I18N_CACHE") or Path(app.instance_path) / "i18n-cache")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=folder)  # noqa: SIM115 - closed at once
        probe.close()
        return folder
    except OSError:
        return Path(tempfile.mkdtemp(prefix="companion-i18n-"))


def choose_language() -> str:
    """`?lang=xx`, else the `lang` cookie, else the browser's best match, else English."""
    asked = request.args.get(COOKIE)
    if asked in LANGUAGES:
        return asked
    kept = request.cookies.get(COOKIE)
    if kept in LANGUAGES:
        return kept
    return browser_language(request.accept_languages)


def browser_language(accepted: Iterable[tuple[str, float]]) -> str:
    """The first of the browser's languages, by its preference, that we have, by the primary
    subtag: "he-IL, en;q=0.5" is Hebrew (Werkzeug's best_match took the exact "en" over it), and
    "iw" is Hebrew's old code, which some older Android phones still send."""
    for tag, quality in sorted(accepted, key=lambda item: -item[1]):
        primary = tag.replace("_", "-").split("-")[0].lower()
        primary = {"iw": "he"}.get(primary, primary)
        if quality > 0 and primary in LANGUAGES:
            return primary
    return LANGUAGES[0]


def current_language() -> str:
    if "lang" not in g:
        g.lang = choose_language()
    lang: str = g.lang
    return lang


def language_url(lang: str) -> str:
    """This page in another language: the same path and query with `lang` replaced."""
    query = {key: value for key, value in request.args.items() if key != COOKIE}
    query[COOKIE] = lang
    return f"{request.path}?{urlencode(query)}"


@bp.get("/i18n/<lang>.json")
def catalog_json(lang: str) -> Any:
    """The translations for static/js/i18n.js (English: none needed): of every msgid, or with
    `?areas=common,play` of those areas only (an area this server lacks adds nothing)."""
    messages = current_app.extensions["i18n_messages"]
    if lang not in messages:
        raise HallError("request/unknown_language",
                        Detail(N_("there is no language {lang}"), {"lang": repr(lang)}))
    chosen = messages[lang]
    if request.args.get("areas") is not None:
        areas = current_app.extensions["i18n_areas"].get(lang, {})
        chosen = {}
        for name in request.args["areas"].split(","):
            chosen.update(areas.get(name, {}))
    response = jsonify(chosen)
    response.cache_control.no_cache = True
    return response


def init_app(app: Flask) -> None:
    """Compile the catalogs, choose each request's language, give Jinja `_`, `lang`, `dir`."""
    folder = cache_folder(app)
    app.extensions["i18n_messages"] = compile_catalogs(folder)
    app.extensions["i18n_areas"] = {lang: area_messages(lang) for lang in LANGUAGES[1:]}
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(folder)
    app.config.setdefault("BABEL_DEFAULT_LOCALE", "en")
    Babel(app, locale_selector=current_language)  # one per app: it caches loaded catalogs

    @app.after_request
    def remember_choice(response: Any) -> Any:
        asked = request.args.get(COOKIE)
        if asked in LANGUAGES and request.cookies.get(COOKIE) != asked:
            response.set_cookie(COOKIE, asked, max_age=COOKIE_AGE, samesite="Lax")
        return response

    @app.context_processor
    def language_context() -> dict[str, Any]:
        lang = current_language()
        return {"lang": lang, "dir": "rtl" if lang in RTL else "ltr", "languages": NAMES,
                "language_url": language_url}

    app.register_blueprint(bp)
