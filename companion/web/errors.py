"""Every refusal is a clear JSON message with a 4xx status; never a traceback."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, jsonify, request
from markupsafe import escape
from werkzeug.exceptions import HTTPException

from companion.hall import HallError

log = logging.getLogger("companion")


def error_json(code: str, message: str, status: int) -> Any:
    response = jsonify({"ok": False, "code": code, "message": message})
    response.status_code = status
    return response


def init_app(app: Flask) -> None:
    @app.errorhandler(HallError)
    def hall_error(error: HallError) -> Any:
        return error_json(error.code, error.message, error.status)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        status = error.code or 400
        messages = {413: "the request is too large", 404: "not found",
                    405: "this method is not allowed here"}
        message = messages.get(status, error.description or error.name)
        if request.path.startswith("/api/") or request.is_json:
            return error_json(f"http/{status}", message, status)
        return (f"<!doctype html><title>{status}</title><p>{escape(message)}</p>", status,
                {"Content-Type": "text/html; charset=utf-8"})

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Any:
        log.exception("unexpected error on %s", request.path)
        return error_json("server/error", "something went wrong on the server; nothing changed", 500)
