"""The organizer's downloads: every printout of an event as a PDF (docs/api.md, Prints)."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from flask import Blueprint, current_app, request, send_file

from companion.hall.checks import N_, Detail, invalid
from companion.printing.from_hall import (
    KINDS,
    LANGS,
    PrintOptions,
    check,
    filename,
    hall_wifi,
    is_base_url,
    prepare,
)
from companion.printing.layouts import card_papers, page_papers
from companion.web.auth import organizer_required, service
from companion.web.errors import opened_in_browser
from companion.web.pages import phone_base_url

bp = Blueprint("prints", __name__)


def options(kind: str) -> PrintOptions:
    """The query's choices, checked before the hall is read; a bad one is a 400 naming it."""
    args = request.args
    try:
        wifi = hall_wifi(args.get("wifi_ssid", ""), args.get("wifi_password", ""))
    except ValueError:
        raise invalid("wifi_password needs wifi_ssid") from None
    chosen = PrintOptions(kind, args.get("paper", "a4"), args.get("lang", "en"), phone_base_url(),
                          wifi)
    try:
        check(chosen)
    except ValueError as error:
        raise invalid(refused_choice(chosen) or Detail(str(error))) from None
    return chosen


def refused_choice(chosen: PrintOptions) -> Detail | None:
    """Which choice `check` refuses, in words the web layer translates (check's own message
    is English only); None for a refusal not named here."""
    papers = card_papers() if chosen.kind == "join-cards" else page_papers()
    if chosen.kind not in KINDS:
        return Detail(N_("unknown kind {kind}; expected one of {kinds}"),
                      {"kind": repr(chosen.kind), "kinds": ", ".join(KINDS)})
    if chosen.paper not in papers:
        return Detail(N_("{kind} print on {papers}, not {paper}"),
                      {"kind": chosen.kind, "papers": ", ".join(papers), "paper": repr(chosen.paper)})
    if chosen.lang not in LANGS:
        return Detail(N_("unknown language {lang}; expected one of {langs}"),
                      {"lang": repr(chosen.lang), "langs": ", ".join(LANGS)})
    if chosen.kind in ("join-cards", "poster") and not is_base_url(chosen.base_url):
        return Detail(N_("the base URL must start with http:// or https:// and name the server, "
                         "like {example}, not {url}"),
                      {"example": "http://192.168.1.20:5000", "url": repr(chosen.base_url)})
    return None


def off_the_event_loop(draw: Callable[[], bytes]) -> bytes:
    """Draw in gevent's pool of native threads when served with gevent: drawn on the event loop,
    200 join cards stopped every phone for 1.3 s (measured); in a thread the loop runs on,
    sharing the GIL. With threading (tests) each request has its own thread already."""
    if current_app.config.get("ASYNC_MODE") != "gevent":
        return draw()
    from gevent import get_hub

    pdf: bytes = get_hub().threadpool.apply(draw)
    return pdf


@bp.get("/prints/<kind>.pdf")
@opened_in_browser
@organizer_required
def download(kind: str) -> Any:
    """GET /prints/KIND.pdf?event=ID&paper=a4&lang=en: the PDF as an attachment."""
    event_id = request.args.get("event")
    if not event_id:
        raise invalid("event is required: {example}", example="/prints/KIND.pdf?event=ID")
    chosen = options(kind)
    pdf = off_the_event_loop(prepare(service(), event_id, chosen))
    response = send_file(io.BytesIO(pdf), mimetype="application/pdf", as_attachment=True,
                         download_name=filename(event_id, chosen))
    response.headers["Cache-Control"] = "no-store"  # join cards carry the seats' tokens
    return response
