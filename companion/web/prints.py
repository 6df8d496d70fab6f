"""The organizer's downloads: every printout of an event as a PDF (docs/api.md, Prints)."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from flask import Blueprint, current_app, request, send_file

from companion.hall.checks import HallError, invalid
from companion.hall.printables import (
    PrintOptions,
    filename,
    hall_wifi,
    prepare,
    problem,
    unreachable,
)
from companion.web.auth import organizer_required, service
from companion.web.errors import opened_in_browser
from companion.web.pages import phone_base_url

bp = Blueprint("prints", __name__)


def options(kind: str) -> PrintOptions:
    """The query's choices, checked before the hall is read; a bad one is a 400 naming it.
    Join cards or a poster whose address no phone can open (served with --host 127.0.0.1, or
    on a laptop with no LAN address) are a 409 `print/unreachable` saying what to do."""
    args = request.args
    try:
        wifi = hall_wifi(args.get("wifi_ssid", ""), args.get("wifi_password", ""))
    except ValueError:
        raise invalid("wifi_password needs wifi_ssid") from None
    chosen = PrintOptions(kind, args.get("paper", "a4"), args.get("lang", "en"), phone_base_url(),
                          wifi)
    found = problem(chosen)
    if found is not None:
        raise invalid(found)
    no_phone = unreachable(chosen)
    if no_phone is not None:
        raise HallError("print/unreachable", no_phone)
    return chosen


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
