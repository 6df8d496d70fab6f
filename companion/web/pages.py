"""Page routes: joining a seat by its QR link, and the organizer's sign-in link."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template, request, session, url_for

from companion.hall import HallError
from companion.web.auth import is_organizer_key, service

bp = Blueprint("pages", __name__)


@bp.get("/j/<token>")
def join(token: str) -> Any:
    """A QR join card's link: keep the seat in a signed cookie, then open the phone page."""
    try:
        service().seat_for(token)
    except HallError as error:
        return render_template("pages/message.html", title="Join", message=error.message), 404
    session["seat_token"] = token
    session.permanent = True
    return redirect(url_for("pages.play"))


@bp.get("/play")
def play() -> Any:
    token = session.get("seat_token")
    try:
        table, seat = service().seat_for(token)
    except HallError:
        message = "Scan the QR code on your seat's card to join a table."
        return render_template("pages/message.html", title="Join", message=message), 403
    return render_template("pages/play.html", table=table, seat=seat)


@bp.get("/organizer")
def organizer() -> Any:
    key = request.args.get("key")
    if key is not None:
        if not is_organizer_key(key):
            return render_template("pages/message.html", title="Organizer",
                                   message="This organizer link is not valid."), 403
        session["organizer"] = True
        session.permanent = True
        return redirect(url_for("pages.organizer"))
    if session.get("organizer") is not True:
        return render_template("pages/message.html", title="Organizer",
                               message="Open the organizer link the server printed."), 401
    return render_template("pages/organizer.html", events=list(service().events.values()))


@bp.get("/hall/<event_id>")
def hall(event_id: str) -> Any:
    event = service().event(event_id)
    return render_template("pages/hall.html", event=event)
