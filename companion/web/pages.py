"""Page routes: joining a seat by its QR link, the phone page and the hall screen (the
organizer's console has its own blueprint, companion/web/organizer.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import qrcode
import qrcode.constants
import qrcode.image.svg
from flask import Blueprint, current_app, g, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from companion.hall import HallError
from companion.rules.catalog import Catalog
from companion.web import i18n
from companion.web.auth import service
from companion.web.errors import message_page

bp = Blueprint("pages", __name__)


@bp.get("/")
def index() -> Any:
    """The general join page (the hall screen's QR code): a phone that joined goes back to its
    seat; any other is told how to join."""
    try:
        service().seat_for(session.get("seat_token"))
    except HallError:
        return render_template("play/join.html")
    return redirect(url_for("pages.play"))


@bp.get("/j/<token>")  # the path Seat.join_path prints on join cards
def join(token: str) -> Any:
    """A QR join card's link: keep the seat in a signed cookie, then open the phone page."""
    try:
        service().seat_for(token)
    except HallError:
        return message_page(_("Join"), _(
            "This join link is not (or no longer) valid. Ask the organizer for your seat's card."), 404)
    session["seat_token"] = token
    session.permanent = True
    return redirect(url_for("pages.play"))


@bp.get("/play")
def play() -> Any:
    hall = service()
    try:
        table, seat = hall.seat_for(session.get("seat_token"))
    except HallError:
        return message_page(_("Join"), _("Scan the QR code on your seat's card to join a table."), 403)
    data = {"view": hall.seat_view(table, seat),
            "cards": card_list(hall.catalog, i18n.current_language())}
    return render_template("play/play.html", table=table, seat=seat, data=data)


def card_list(catalog: Catalog, lang: str) -> list[dict[str, Any]]:
    """The cards as the pages draw them, named in the page's language (the catalog has
    every language's names)."""
    def name(names: Mapping[str, str]) -> str:
        return names.get(lang) or names["en"]

    cards = [{"id": c.id, "kind": "establishment", "name": name(c.names), "colour": c.colour,
              "icon": c.icon, "activation": list(c.activation), "cost": c.cost,
              "effect": c.effect, "amount": c.amount} for c in catalog.establishments.values()]
    cards += [{"id": lm.id, "kind": "landmark", "name": name(lm.names), "cost": lm.cost,
               "effect": lm.effect, "amount": lm.amount} for lm in catalog.landmarks.values()]
    return cards


@bp.get("/hall/<event_id>")
def hall(event_id: str) -> Any:
    hall = service()
    try:
        event = hall.event(event_id)
    except HallError:
        return message_page(_("Hall"), _("There is no such event on this server."), 404)
    join = join_page_url()
    data = {"event": event.id, "view": hall.hall_view(event), "join_url": join,
            "cards": card_list(hall.catalog, i18n.current_language())}
    return render_template("hall/hall.html", event=event, data=data, join_url=join,
                           join_qr=Markup(qr_svg(join)))


def join_page_url() -> str:
    return phone_base_url() + "/"


def phone_base_url() -> str:
    """This server as a phone in the hall reaches it, without a trailing slash: BASE_URL when
    set, else this request's host, with a loopback address (a projector or the console on the
    server's own laptop) replaced by the laptop's LAN address. The join page's QR code, the
    console's join links and the printed cards all use it."""
    if "phone_base_url" not in g:
        parts = urlsplit(current_app.config.get("BASE_URL") or request.host_url)
        if parts.hostname in ("127.0.0.1", "localhost", "::1"):
            from companion.server import lan_addresses  # the server imports the app: import late

            found = lan_addresses()
            if found:
                port = f":{parts.port}" if parts.port else ""
                parts = parts._replace(netloc=f"{found[0]}{port}")
        g.phone_base_url = urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))
    base: str = g.phone_base_url
    return base


def qr_svg(text: str) -> str:
    """A QR code as inline SVG (error correction M, quiet zone of 4 modules), drawn on the
    server so the page needs no script library."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=4,
                         image_factory=qrcode.image.svg.SvgPathFillImage)
    code.add_data(text)
    svg: str = code.make_image().to_string(encoding="unicode")
    return svg
