"""Every refusal is a clear message with a 4xx status, never a traceback: JSON for the API and
JSON requests, a page in the browser's language (message.html) for a browser."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, jsonify, render_template, request
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from companion.hall import HallError

log = logging.getLogger("companion")


def error_json(code: str, message: str, status: int) -> Any:
    response = jsonify({"ok": False, "code": code, "message": message})
    response.status_code = status
    return response


def message_page(title: str, text: str, status: int) -> Any:
    """A page that says one thing (an unknown link, a refusal), in the page's language."""
    return render_template("message.html", title=title, message=text), status


def wants_json() -> bool:
    return request.path.startswith("/api/") or request.is_json


def page_sentence(status: int) -> str:
    """What an HTTP error page tells a browser."""
    if status == 404:
        return _("There is no such page on this server.")
    if status == 413:
        return _("The request is too large.")
    return _("That request is not valid.")


def init_app(app: Flask) -> None:
    @app.errorhandler(HallError)
    def hall_error(error: HallError) -> Any:
        return error_json(error.code, error.message, error.status)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        status = error.code or 400
        if not wants_json():
            return message_page(_("Error"), page_sentence(status), status)
        messages = {413: "the request is too large", 404: "not found",
                    405: "this method is not allowed here"}
        return error_json(f"http/{status}", messages.get(status, error.description or error.name),
                          status)

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Any:
        log.exception("unexpected error on %s", request.path)
        if not wants_json():
            return message_page(_("Error"), _(
                "Something went wrong on the server; nothing changed. Try again."), 500)
        return error_json("server/error", "something went wrong on the server; nothing changed", 500)
