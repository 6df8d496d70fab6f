"""The organizer's console: signing a browser in (the printed link, or the PIN on a second
device) and the page whose JS drives the organizer API (docs/api.md)."""

from __future__ import annotations

import io
import logging
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    current_app,
    redirect,
    render_template,
    request,
    send_file,
    session,
    url_for,
)
from flask_babel import gettext as _

from companion.hall import clock
from companion.hall.checks import ROLL_MODES, RULESETS
from companion.hall.pin import pin_matches
from companion.hall.printables import KINDS as PRINT_KINDS
from companion.hall.printables import PrintOptions, phones_cannot_open, unreachable
from companion.journal.backup import BackupRefused, backup_file, is_postgres_target
from companion.printing.layouts import card_papers, page_papers
from companion.rules.errors import RuleError
from companion.rules.registry import ruleset as ruleset_of
from companion.rules.ruleset import CardSets, Series, needs_series
from companion.web.auth import (
    is_organizer_key,
    is_signed_in_organizer,
    open_session,
    organizer_required,
    service,
)
from companion.web.errors import message_page, opened_in_browser
from companion.web.i18n import current_language
from companion.web.offload import off_the_loop
from companion.web.pages import app_guard, phone_base_url, too_many

bp = Blueprint("organizer", __name__)
log = logging.getLogger("companion")
pin_guard = app_guard(bp, "organizer_pin_guard", "ORGANIZER_PIN", tries=5, hall_tries=20)


def sign_in(pin: dict[str, Any] | None = None) -> Any:
    open_session(pin)
    return redirect(url_for("organizer.console"), code=303)


def signin_page(error: str | None = None, status: int = 200) -> Any:
    return render_template("organizer/signin.html", pin_set=service().organizer_pin_set,
                           error=error), status


@bp.get("/organizer")
def console() -> Any:
    """`?key=KEY` (the link `companion serve` prints) signs this browser in; the key then
    leaves the address bar. A signed-in browser gets the console, others the sign-in page."""
    key = request.args.get("key")
    if key is not None:
        if not is_organizer_key(key):
            return message_page(_("Organizer"), _("This organizer link is not valid."), 403)
        return sign_in()
    if not is_signed_in_organizer():
        return signin_page()
    hall = service()
    with hall.lock:
        events = [{"id": e.id, "name": e.name} for e in hall.events.values()]
        card_sets = {(table.ruleset, table.card_sets) for table in hall.tables.values()}
    least, most = table_sizes()
    base = phone_base_url()
    data = {
        "events": events, "rulesets": ruleset_names(), "roll_modes": list(ROLL_MODES),
        "players_min": least, "players_max": most,
        "pin_set": hall.organizer_pin_set, "print_kinds": list(PRINT_KINDS),
        "papers": {kind: list(card_papers() if kind == "join-cards" else page_papers())
                   for kind in PRINT_KINDS},
        "ruleset_options": ruleset_options(),
        "tournament_rulesets": tournament_rulesets(),
        # the card sets a table may add (Harbor), per ruleset, named in the page's language
        "card_sets": {name: card_sets_of(name, current_language()) for name in RULESETS},
        # the rulesets the plain table form offers: not those whose tables a series makes
        "table_rulesets": [name for name in RULESETS if not needs_series(ruleset_of(name))],
        "series_rulesets": [name for name in RULESETS if isinstance(ruleset_of(name), Series)],
        "card_names": card_names(current_language(), card_sets),
        "console_words": console_words(current_language()),
        # Served on loopback (`serve --host 127.0.0.1`) pages.phone_base_url keeps that
        # address: the console says so, and does not offer the printouts the download refuses.
        "phone_base_url": base, "phones_cannot_reach": phones_cannot_open(base),
        "refused_kinds": [kind for kind in PRINT_KINDS
                          if unreachable(PrintOptions(kind, base_url=base)) is not None],
        # the server's clock: the console counts a turn's deadline down by it
        "now_ms": clock.now_ms(),
    }
    return render_template("organizer/console.html", data=data)


def ruleset_options() -> dict[str, list[dict[str, Any]]]:
    """Each ruleset's set-up options for the console's form, labelled in the page's language."""
    options = {}
    for name in RULESETS:
        specs = [spec.json() for spec in ruleset_of(name).option_specs()]
        for spec in specs:
            spec["label"] = _(spec["label"], low=spec.get("min"), high=spec.get("max"))
        options[name] = specs
    return options


def card_sets_of(ruleset: str, lang: str) -> list[dict[str, Any]]:
    """The card sets a table of the ruleset may add (`CardSets`), named in `lang`; none for a
    game without card sets."""
    rules = ruleset_of(ruleset)
    return rules.card_sets(lang) if isinstance(rules, CardSets) else []


def table_sizes() -> tuple[int, int]:
    """The fewest and the most players a table of the plain table form seats, over its
    rulesets with their base cards (a table's card sets may seat more: `card_sets`)."""
    seats = [rules.seats(rules.table_setup({}), {}) for name in RULESETS
             if not needs_series(rules := ruleset_of(name))]
    return min(s.least for s in seats), max(s.most for s in seats)


def tournament_rulesets() -> list[str]:
    """The rulesets a tournament can play: their tables seat 3 and 4 (RULES.md 25), and a
    table of theirs needs no series (a Legacy game's options are its campaign's)."""
    fits = []
    for name in RULESETS:
        rules = ruleset_of(name)
        if needs_series(rules):
            continue
        seats = rules.seats(rules.table_setup({}), {})
        if seats.least <= 3 and seats.most >= 4:
            fits.append(name)
    return fits


def ruleset_names() -> dict[str, str]:
    """Each ruleset the hall can seat, by id, with its name in the page's language."""
    return {ruleset: _(ruleset_of(ruleset).title) for ruleset in RULESETS}


def card_names(lang: str, played: set[tuple[str, tuple[str, ...]]]) -> dict[str, str]:
    """Every card a ruleset names with its base cards or with the card sets a table of the
    hall plays (`played`: ruleset, card sets), by id, in the page's language (the console's
    journal and corrections name cards)."""
    names: dict[str, str] = {}
    wanted = sorted({*((name, ("base",)) for name in RULESETS), *played})
    for ruleset, card_sets in wanted:
        try:
            rules = ruleset_of(ruleset)
            setup = rules.table_setup({}, card_sets)
        except RuleError:
            continue  # a table of a ruleset or card set this build no longer has
        for card in rules.page_data(setup, lang).get("cards", []):
            names.setdefault(card["id"], card["name"])
    return names


def console_words(lang: str) -> dict[str, dict[str, str]]:
    """Each ruleset's own words for the console's general ones (its page data's
    `console_words`: Catan's boards, Sun and Moon), translated; web knows no game's words."""
    found = {}
    for ruleset in RULESETS:
        rules = ruleset_of(ruleset)
        words = rules.page_data(rules.table_setup({}), lang).get("console_words")
        if words:
            found[ruleset] = {key: _(value) if value else "" for key, value in words.items()}
    return found


@bp.post("/organizer/pin")
def pin_sign_in() -> Any:
    """The PIN form of a second device. The try is counted before the slow check (GuessGuard),
    and the check runs off the event loop, so phones are answered meanwhile: the PIN's record
    is read here, on the loop (several processes: from the journal), and only the hashing
    runs in the native thread, which takes no lock of the hall and no journal connection."""
    hall = service()
    record = hall.pin_record()
    if not record:
        return signin_page(_("No PIN is set. Open the organizer link the server printed."), 409)
    guard, address, now = pin_guard(), request.remote_addr or "?", time.monotonic()
    wait = guard.try_now(address, now)
    if wait:
        return too_many(signin_page(_("Too many wrong PINs. Try again in %(seconds)s seconds.",
                                      seconds=wait), 429), wait)
    if not off_the_loop(pin_matches, record, request.form.get("pin", "").strip()):
        return signin_page(_("That PIN is not right."), 403)
    guard.right(address, now, forget=True)
    return sign_in(record)


@bp.post("/organizer/signout")
def sign_out() -> Any:
    session.pop("organizer", None)
    return redirect(url_for("organizer.console"), code=303)


@bp.get("/organizer/backup")
@opened_in_browser  # the console opens it as a link
@organizer_required
def backup() -> Any:
    """The hall's SQLite file as a download, copied with SQLite's online backup while the hall
    plays on (journal/backup.py; the copy runs off the event loop). A PostgreSQL journal is
    copied with pg_dump: the page says so."""
    database = str(current_app.config["DATABASE"])
    if is_postgres_target(database):
        return message_page(_("Download a backup"), _(
            "This hall's journal is in PostgreSQL: copy it with pg_dump (docs/scaling.md)."), 409)
    with tempfile.TemporaryDirectory(prefix="companion-backup-") as folder:
        copy = Path(folder) / "companion.db"
        try:
            size = off_the_loop(backup_file, Path(database), copy)
        except BackupRefused as error:
            log.error("backup download failed: %s", error)
            return message_page(_("Download a backup"), _(
                "The copy could not be made; nothing changed. Try again, or stop the server and "
                "copy the database file."), 500)
        data = copy.read_bytes()
    log.info("backup downloaded (%d bytes) by %s", size, request.remote_addr or "?")
    name = f"companion-backup-{datetime.now():%Y-%m-%d-%H%M}.db"
    response = send_file(io.BytesIO(data), mimetype="application/vnd.sqlite3", as_attachment=True,
                         download_name=name)
    response.headers["Cache-Control"] = "no-store"  # it holds the seats' tokens
    return response
@bp.post("/organizer/signout-others")
def sign_out_others() -> Any:
    """The console's "Sign out every other device": every other console session ends (on
    every process: a journal record); this one stays signed in, as it was opened."""
    if not is_signed_in_organizer():
        return signin_page(status=401)
    opened_by = session.get("pin")
    service().sign_out_others()
    open_session(service().organizer_pin if opened_by is not None else None)
    return redirect(url_for("organizer.console"), code=303)
