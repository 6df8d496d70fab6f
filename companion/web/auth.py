"""Who is asking: the organizer (key or signed-in browser) or a seat (token or cookie)."""

from __future__ import annotations

import functools
import hmac
from collections.abc import Callable
from typing import Any

from flask import current_app, request, session

from companion.hall import HallError, HallService
from companion.web import hall_service


def service() -> HallService:
    """The hall of the app that serves this request."""
    return hall_service(current_app)


def is_organizer_key(key: Any) -> bool:
    """Whether `key` is the organizer's; the key is ASCII, so anything else (a lone surrogate
    from JSON, which cannot even be encoded) is not it."""
    return (isinstance(key, str) and key.isascii()
            and hmac.compare_digest(key.encode(), service().organizer_key.encode()))


def is_signed_in_organizer() -> bool:
    """Whether this browser's session is the organizer's (the printed link or the PIN)."""
    return session.get("organizer") is True


def organizer_required(view: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        header = request.headers.get("Authorization", "")
        key = header[7:] if header.startswith("Bearer ") else None
        if not (is_organizer_key(key) or is_signed_in_organizer()):
            raise HallError("auth/organizer", "this needs the organizer's key")
        return view(*args, **kwargs)

    return wrapped
