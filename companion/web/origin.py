"""Cross-site request forgery: a state-changing request that a browser's cookie could
authenticate (the organizer's console, a phone's seat, the sign-in and join forms) must come
from a page of this server's own origin.

SameSite=Lax keeps the cookie off cross-site requests, but a page of the same site (this host
at another port) still sends it. So every POST, PUT, PATCH and DELETE without the organizer's
key as its bearer is refused (403 `auth/origin`, before its view runs, so nothing changes) when
the browser says it came from elsewhere: `Sec-Fetch-Site` is `cross-site` or `same-site`, or
its `Origin` (else its `Referer`) is not this request's own scheme://host:port. The origin is
compared with the Host the request came to: a hall is reached at several addresses, and a page
is always sent back to the one it was loaded from. `Origin: null` (a sandboxed or privacy-bound
page) is refused. A request that names no origin at all (curl, an API client) is served: it
cannot be a forged browser request.

A bearer key is not sent by a browser on its own, and a page of another origin cannot add the
header without CORS, which this server never grants. Socket.IO's handshake and WebSocket upgrade
are checked by python-engineio itself: without `cors_allowed_origins` it accepts only an
`Origin` equal to the request's own `scheme://Host` (tests/test_csrf.py)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Flask, current_app, request
from flask_babel import gettext as _

from companion.hall import HallError
from companion.hall.checks import N_, Detail
from companion.web.auth import is_organizer_key
from companion.web.errors import message_page, wants_json

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
FOREIGN_FETCH_SITES = frozenset({"cross-site", "same-site"})
DEFAULT_PORTS = {"http": 80, "https": 443}

Origin = tuple[str, str, int]


def origin_of(url: str) -> Origin | None:
    """(scheme, host, port) of an absolute http(s) URL, the port filled in; None for anything
    else (`null`, a relative or malformed address)."""
    try:
        parts = urlsplit(url.strip())
        scheme, host, port = parts.scheme.lower(), parts.hostname, parts.port
    except ValueError:  # a port that is not one, a broken IPv6 literal
        return None
    if scheme not in DEFAULT_PORTS or not host:
        return None
    return scheme, host, port or DEFAULT_PORTS[scheme]


def has_the_key() -> bool:
    """Whether the request carries the organizer's key as its bearer (not its cookie)."""
    header = request.headers.get("Authorization", "")
    return header.startswith("Bearer ") and is_organizer_key(header[7:])


def from_another_origin() -> bool:
    """Whether the browser says this request came from a page of another origin."""
    if request.headers.get("Sec-Fetch-Site", "").strip().lower() in FOREIGN_FETCH_SITES:
        return True
    named = request.headers.get("Origin") or request.headers.get("Referer")
    if not named:
        return False  # not a browser's request, or one that names nothing: nothing to forge
    origin = origin_of(named)
    return origin is None or origin not in own_origins()


def own_origins() -> set[Origin]:
    """The origins this server's pages come from: the one this request came to, and the
    `--base-url` phones are given (behind a TLS proxy, https://name while the request here
    is plain http)."""
    own = {origin_of(request.host_url), origin_of(current_app.config.get("BASE_URL") or "")}
    return {origin for origin in own if origin is not None}


def refused() -> Any:
    """The refusal as the request expects it: JSON for the API, a page for a browser's form."""
    if wants_json():
        raise HallError("auth/origin", Detail(N_(
            "this request came from a page of another site; nothing changed")))
    return message_page(_("Error"), _(
        "This form was sent from a page of another site, so nothing changed. Open the page "
        "on this server and send it again."), 403)


def init_app(app: Flask) -> None:
    @app.before_request
    def same_origin_only() -> Any:
        if request.method in STATE_CHANGING and not has_the_key() and from_another_origin():
            return refused()
        return None
