"""The Flask app factory and the unbound Socket.IO extension."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from flask import Flask
from flask_socketio import SocketIO

from companion.hall import HallService
from companion.journal import open_journal
from companion.paths import resource_dir
from companion.web.wire import JsonFirstPacket

# `companion serve` runs gevent (one thread, cooperative): with threading a hall of 1,100 phones
# missed rolls; the hall benchmark's figures are in the README. The factory itself defaults to
# threading so that tests with Flask-SocketIO's test client need no monkey-patching.
SERVED_ASYNC_MODE = "gevent"
ASYNC_MODE = "threading"
MAX_BODY = 64 * 1024

socketio = SocketIO()


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__, template_folder=str(resource_dir("templates")),
        static_folder=str(resource_dir("static")), instance_relative_config=True,
    )
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY, DATABASE=None, BASE_URL=None,
                      ASYNC_MODE=ASYNC_MODE, HALL_PUBLISH_SECONDS=0.0, MESSAGE_QUEUE=None)
    if test_config:
        app.config.update(test_config)
    # DATABASE: a SQLite file (by default companion.db in the working folder, as `serve` has
    # it; never the instance folder, which is inside the installation) or a postgresql:// URL.
    # No folder is made for it: a mistyped folder is refused by SQLite, not created.
    database = app.config["DATABASE"] or str(Path.cwd() / "companion.db")
    app.config["DATABASE"] = database
    service = HallService(open_journal(database))
    app.extensions["hall"] = service
    # Sessions stay valid across restarts: the secret is derived from the stored organizer key.
    app.secret_key = hashlib.sha256(f"session:{service.organizer_key}".encode()).hexdigest()
    app.config.update(SESSION_COOKIE_SAMESITE="Lax", SESSION_COOKIE_HTTPONLY=True)
    # Where shared guess counts live in MESSAGE_QUEUE's Redis: one hall's own (web/guesses.py).
    app.config.setdefault("GUESS_NAMESPACE", hashlib.sha256(
        f"guesses:{service.organizer_key}".encode()).hexdigest()[:16])

    from companion.web import api, assets, errors, i18n, organizer, origin, pages, prints, sockets

    errors.init_app(app)
    i18n.init_app(app)  # every page, error pages too, is in the browser's language
    assets.init_app(app)  # static files by version and compressed, pages compressed
    origin.init_app(app)  # a state change a cookie authenticates comes from this origin
    app.register_blueprint(api.bp)
    app.register_blueprint(organizer.bp)  # before pages: it owns /organizer
    app.register_blueprint(pages.bp)
    app.register_blueprint(prints.bp)
    from companion.web import tournament  # a tournament's API, pages and paper
    app.register_blueprint(tournament.bp)
    socketio.init_app(app, async_mode=app.config["ASYNC_MODE"], max_http_buffer_size=MAX_BODY,
                      ping_interval=10, ping_timeout=20, serializer=JsonFirstPacket,
                      **client_manager(app.config["MESSAGE_QUEUE"]))
    sockets.subscribe(service, hall_seconds=app.config["HALL_PUBLISH_SECONDS"])
    return app


def client_manager(message_queue: str | None) -> dict[str, Any]:
    """Socket.IO's client manager for MESSAGE_QUEUE (redis://..., several server processes:
    docs/scaling.md): the library's Redis manager keeping encode-once (web/sockets.py); without
    one, the library's in-process manager. Said every time: Flask-SocketIO keeps its options
    from one init_app to the next, and an app without a queue must not inherit one."""
    socketio.server_options.pop("client_manager", None)
    if not message_queue:
        return {}
    from companion.web.fanout import BatchRedisManager

    return {"client_manager": BatchRedisManager(message_queue, channel="companion")}


def hall_service(app: Flask) -> HallService:
    service: HallService = app.extensions["hall"]
    return service
