"""Page routes: joining a seat by its QR link or its join code, the phone page and the hall
screen (the organizer's console has its own blueprint, companion/web/organizer.py)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import qrcode
import qrcode.constants
import qrcode.image.svg
from flask import Blueprint, current_app, g, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from jinja2 import Template
from markupsafe import Markup

from companion import addresses
from companion.hall import HallError, clock, join_codes
from companion.hall.checks import RULESETS
from companion.hall.model import Table
from companion.hall.tournament_journal import known
from companion.rules.registry import ruleset as ruleset_of
from companion.web import i18n
from companion.web.auth import service
from companion.web.errors import message_page, status_of
from companion.web.guesses import GuessGuard, guard_from_config

bp = Blueprint("pages", __name__)
log = logging.getLogger("companion")


@bp.get("/")
def index() -> Any:
    """The general join page (the hall screen's QR code): a phone that joined goes back to its
    seat; any other is told how to join."""
    try:
        service().seat_for(session.get("seat_token"))
    except HallError:
        return join_page()
    return redirect(url_for("pages.play"))


@bp.post("/")
def join_typed() -> Any:
    """The join page's form: the code typed from a card sits this phone down as its QR would."""
    typed = request.form.get("code", "")
    if join_codes.read_code(typed) is None:
        text = _(
            "A join code has 8 letters and digits: the end of the address at the bottom of your card.")
        return join_page(text, 400, typed)
    return join_by_code(typed, lambda text, status: join_page(text, status, typed))


def join_page(error: str | None = None, status: int = 200, typed: str = "") -> Any:
    return render_template("play/join.html", error=error, typed=typed[:40]), status


@bp.get("/j/<token>")  # Seat.join_path (the card's QR) and Seat.code_path (its URL to type)
def join(token: str) -> Any:
    """A join card's link, with the seat's token or its join code: keep the seat's token in a
    signed cookie (never the code), then open the phone page."""
    try:
        service().seat_for(token)
    except HallError:
        if join_codes.read_code(token) is not None:
            return join_by_code(token, lambda text, status: message_page(_("Join"), text, status))
        return message_page(_("Join"), _(
            "This join link is not (or no longer) valid. Ask the organizer for your seat's card."), 404)
    return sit_down(token)


def sit_down(token: str) -> Any:
    session["seat_token"] = token
    session.permanent = True
    return redirect(url_for("pages.play"))


def join_by_code(typed: str, refuse: Callable[[str, int], Any]) -> Any:
    """Sit this phone at the seat whose join code `typed` reads as; `refuse(text, status)`
    answers a wrong one. Wrong codes are limited per address and for the whole hall
    (GuessGuard, counted before the check); a right one does not count, but neither does it
    clear the count, or one player's own code would let them guess on."""
    guard, address, now = code_guard(), request.remote_addr or "?", time.monotonic()
    wait = guard.try_now(address, now)
    if wait:
        return too_many(refuse(_("Too many wrong codes. Try again in %(seconds)s seconds.",
                                 seconds=wait), 429), wait)
    try:
        token = service().token_for_code(typed)
    except HallError as error:
        return refuse(code_refusal(error.code), status_of(error.code, error.bad_input))
    guard.right(address, now)
    return sit_down(token)


def too_many(refusal: tuple[Any, int], wait: int) -> tuple[Any, int, dict[str, str]]:
    """A guess refused for too many wrong ones (page, 429): the client may try again in
    `wait` seconds, as its Retry-After header says. The log says so once per guesser and
    lock-out, not once per refused request (a guesser that keeps trying cannot flood it)."""
    address, now = request.remote_addr or "?", time.monotonic()
    quiet_until: dict[str, float] = current_app.extensions.setdefault("guessers_logged", {})
    if quiet_until.get(address, 0.0) <= now:
        for known in [a for a, until in quiet_until.items() if until <= now]:
            del quiet_until[known]
        quiet_until[address] = now + wait
        log.warning("refused a guesser at %s: too many wrong tries on %s; locked out for %d s",
                    address, request.path, wait)
    page, status = refusal
    return page, status, {"Retry-After": str(wait)}


def code_refusal(code: str) -> str:
    """What a phone is told when the code it gave opens no seat (the HallError's code)."""
    if code == "seat/shared_code":
        return _(
            "This code belongs to two seats, so it opens neither. Scan the QR code on your card instead.")
    return _("No seat has this code. Check it against your card, or scan the card's QR code.")


def app_guard(blueprint: Blueprint, name: str, prefix: str, *, tries: int,
              hall_tries: int) -> Callable[[], GuessGuard]:
    """Give the app a guess guard as `app.extensions[name]`, configured by the app's `prefix`
    settings (`guard_from_config`) when `blueprint` is registered; returns its getter."""
    @blueprint.record_once
    def make_guard(state: Any) -> None:
        state.app.extensions[name] = guard_from_config(
            state.app.config, prefix, tries=tries, hall_tries=hall_tries)

    def guard() -> GuessGuard:
        found: GuessGuard = current_app.extensions[name]
        return found

    return guard


code_guard = app_guard(bp, "join_code_guard", "JOIN_CODE", tries=10, hall_tries=100)


@bp.get("/play")
def play() -> Any:
    hall = service()
    try:
        table, seat = hall.seat_for(session.get("seat_token"))
    except HallError:  # no seat, or its card was replaced: the way back is the join page's form
        return join_page(status=403)
    data = {"view": hall.seat_view(table, seat), **page_data([table], i18n.current_language())}
    tournament = known(hall, table.event_id)
    if tournament is not None and any(table.id in r.tables for r in tournament.played):
        # a tournament's table: once it ends, the phone says where its player stands and
        # what comes next (static/js/play-tournament.js), not an ended game's market
        data["tournament"] = {"event": table.event_id}
    return render_template("play/play.html", table=table, seat=seat, data=data)


def page_data(tables: Iterable[Table], lang: str) -> dict[str, Any]:
    """What the pages of these tables' games need beyond the views (`Ruleset.page_data`, for
    each ruleset and card sets once): lists of objects with an `id` merge, one entry an id."""
    data: dict[str, Any] = {}
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for table in tables:
        key = (table.ruleset, table.card_sets)
        if key in seen:
            continue
        seen.add(key)
        for name, value in table.rules.page_data(table.setup, lang).items():
            if isinstance(value, list) and isinstance(data.get(name), list):
                known = {item.get("id") for item in data[name]}
                data[name] += [item for item in value if item.get("id") not in known]
            else:
                data.setdefault(name, value)
    return data


@bp.get("/hall/<event_id>")
def hall(event_id: str) -> Any:
    hall = service()
    try:
        event = hall.event(event_id)
    except HallError:
        return message_page(_("Hall"), _("There is no such event on this server."), 404)
    if known(hall, event.id) is not None:
        # a tournament's hall ranks players over its rounds, not seats of tables: its screen
        return redirect(url_for("tournament.screen", event_id=event.id))
    join = join_page_url()
    with hall.lock:
        tables = hall.tables_of(event)
    # now_ms: the server's clock, so a projector on another laptop counts a turn's deadline
    # (epoch ms) down by the server's time, give or take the page's load
    # rulesets: each game's name, to head its own standings (a co-op pair is not ranked
    # among the players of another game)
    data = {"event": event.id, "view": hall.hall_view(event), "join_url": join, "cards": [],
            "now_ms": clock.now_ms(),
            "rulesets": {name: _(ruleset_of(name).title) for name in RULESETS},
            **page_data(tables, i18n.current_language())}
    return render_template(hall_templates(tables), event=event, data=data, join_url=join,
                           join_qr=Markup(qr_svg(join)))


def hall_templates(tables: Iterable[Table]) -> list[str | Template]:
    """The hall screens to try, first found wins: a ruleset's own screen
    (templates/hall/screens/<ruleset>.html) when every table of the event plays that ruleset,
    then the general one. Web learns no game: a ruleset brings its screen by its file's name."""
    rulesets = {table.ruleset for table in tables}
    own: list[str | Template] = ([f"hall/screens/{name}.html" for name in rulesets]
                                 if len(rulesets) == 1 else [])
    return [*own, "hall/hall.html"]


def join_page_url() -> str:
    return phone_base_url() + "/"


def phone_base_url() -> str:
    """This server as a phone in the hall reaches it, without a trailing slash: BASE_URL when
    set, else this request's host, with a loopback address (a projector or the console on the
    server's own laptop) replaced by the laptop's LAN address. The join page's QR code, the
    console's join links and the printed cards all use it."""
    if "phone_base_url" not in g:
        parts = urlsplit(current_app.config.get("BASE_URL") or request.host_url)
        if parts.hostname in ("127.0.0.1", "localhost", "::1") and listens_on_the_lan():
            found = addresses.lan_addresses()
            if found:
                port = f":{parts.port}" if parts.port else ""
                parts = parts._replace(netloc=f"{found[0]}{port}")
        g.phone_base_url = urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))
    base: str = g.phone_base_url
    return base


def listens_on_the_lan() -> bool:
    """Whether phones can reach this server at the laptop's LAN address: not when `serve` was
    told to listen on one address only (--host 127.0.0.1 keeps the hall on this laptop)."""
    return current_app.config.get("LISTEN_HOST") in (None, *addresses.EVERY_INTERFACE)


def qr_svg(text: str) -> str:
    """A QR code as inline SVG (error correction M, quiet zone of 4 modules), drawn on the
    server so the page needs no script library."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=4,
                         image_factory=qrcode.image.svg.SvgPathFillImage)
    code.add_data(text)
    svg: str = code.make_image().to_string(encoding="unicode")
    return svg
