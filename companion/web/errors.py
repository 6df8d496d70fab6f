"""Every refusal is a clear message with a 4xx status, never a traceback: JSON for the API and
JSON requests (a malformed request's detail in the request's language), a page in the browser's
language (message.html) for a browser. The console's downloads (a PDF, an export) are opened as
plain links: their refusals are pages for a browser too (`opened_in_browser`)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from flask import Flask, jsonify, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from companion.hall import HallError
from companion.journal import JournalUnavailable

log = logging.getLogger("companion")


def error_json(code: str, message: str, status: int) -> Any:
    response = jsonify({"ok": False, "code": code, "message": message})
    response.status_code = status
    return response


def said(error: HallError) -> str:
    """The refusal's message in the request's language (English without one): its detail
    translated, or the hall's English message for a refusal that has none."""
    return error.detail.say(_) if error.detail else error.message


def message_page(title: str, text: str, status: int,
                 link: tuple[str, str] | None = None) -> Any:
    """A page that says one thing (an unknown link, a refusal), in the page's language, with
    an optional way on: `link` is (address, words)."""
    return render_template("message.html", title=title, message=text, link=link), status


def wants_json() -> bool:
    return request.path.startswith("/api/") or request.is_json


def asks_for_json() -> bool:
    """An API client rather than a browser following a link: it sends a key or a JSON body,
    or does not put HTML before JSON (a browser's navigation asks for text/html first; fetch,
    curl and a request without Accept do not)."""
    if "Authorization" in request.headers or request.is_json:
        return True
    return request.accept_mimetypes.best_match(["application/json", "text/html"]) != "text/html"


def opened_in_browser(view: Callable[..., Any]) -> Callable[..., Any]:
    """For a download the console opens as a plain link: a refusal (the organizer's session
    ended, an unknown event) is a page in the browser's language, with the same status, for
    a browser; API clients still get the JSON error. Goes above `organizer_required`."""
    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        try:
            return view(*args, **kwargs)
        except HallError as error:
            if asks_for_json():
                raise
            return refusal_page(error)

    return wrapped


def refusal_page(error: HallError) -> Any:
    """A download's refusal as a browser shows it; a signed-out organizer gets the way back
    to the console's sign-in."""
    status = status_of(error.code, error.bad_input)
    if error.code == "auth/organizer":
        text = _("The organizer's session has ended: sign in again, then open the download again.")
        return message_page(_("Organizer"), text, status,
                            link=(url_for("organizer.console"), _("Sign in again")))
    if error.code == "event/unknown":
        return message_page(_("Error"), _("There is no such event on this server."), status)
    if error.code == "print/unreachable":  # the reason is the whole message: what to do
        return message_page(_("Error"), said(error), status)
    if error.detail:  # a refused choice (paper=a5): the sentence and what it was
        return message_page(_("Error"), f'{_("That request is not valid.")} ({said(error)})',
                            status)
    return message_page(_("Error"), _("That request is not valid."), status)


# The HTTP status of each refusal, chosen here at the web edge (the hall and the rules say only
# the code): a code not listed is a conflict with the table's or event's state, 409.
STATUS_OF_CODE = {
    "auth/organizer": 401,
    "auth/origin": 403, "seat/unknown_token": 403,
    "event/unknown": 404, "table/unknown": 404, "seat/unknown_code": 404,
    "request/unknown_language": 404, "request/unknown_action": 404,
    "tournament/unknown": 404, "tournament/unknown_player_token": 404,
    "tournament/invalid": 400, "tournament/cannot_seat": 400, "tournament/duplicate_name": 400,
    "tournament/keep_apart": 400, "tournament/unknown_player": 400,
    "series/unknown": 404, "series/no_series": 400,
}
STATUS_OF_AREA = {"request": 400, "rule": 400, "move": 400}  # a request or a move the rules refuse


def status_of(code: str, bad_input: bool = False) -> int:
    """The HTTP status of a refusal's code; a game's own code (`legacy/...`) is 400 when the
    rules say its input is wrong (`RuleError.bad_input`), else 409."""
    known = STATUS_OF_CODE.get(code) or STATUS_OF_AREA.get(code.split("/", 1)[0])
    return known or (400 if bad_input else 409)


def page_sentence(status: int) -> str:
    """What an HTTP error page tells a browser."""
    if status == 404:
        return _("There is no such page on this server.")
    if status == 413:
        return _("The request is too large.")
    return _("That request is not valid.")


def init_app(app: Flask) -> None:
    @app.after_request
    def name_the_scheme(response: Any) -> Any:
        # RFC 9110: a 401 says how to authenticate (the organizer's key as a bearer token; a
        # browser shows no password prompt for this scheme)
        if response.status_code == 401:
            response.headers.setdefault("WWW-Authenticate", 'Bearer realm="organizer"')
        return response

    @app.errorhandler(HallError)
    def hall_error(error: HallError) -> Any:
        return error_json(error.code, said(error), status_of(error.code, error.bad_input))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        status = error.code or 400
        if not wants_json():
            return message_page(_("Error"), page_sentence(status), status)
        messages = {413: _("the request is too large"), 404: _("not found"),
                    405: _("this method is not allowed here")}
        return error_json(f"http/{status}", messages.get(status, error.description or error.name),
                          status)

    @app.errorhandler(JournalUnavailable)
    def unavailable(error: JournalUnavailable) -> Any:
        # An expected condition (PostgreSQL restarting, the SQLite file locked): said once per
        # outage by the journal, never a traceback per request; the client may try again.
        if not wants_json():
            page, status = message_page(_("Error"), _(
                "The server cannot save anything right now. Nothing changed; try again in a "
                "moment."), 503)
            return page, status, {"Retry-After": "5"}
        response = error_json("server/unavailable", _(
            "the server cannot save anything right now (its journal is unavailable); nothing "
            "changed: try again in a moment"), 503)
        response.headers["Retry-After"] = "5"
        return response

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Any:
        log.exception("unexpected error on %s", request.path)
        if not wants_json():
            return message_page(_("Error"), _(
                "Something went wrong on the server; nothing changed. Try again."), 500)
        return error_json("server/error", _("something went wrong on the server; nothing changed"),
                          500)
