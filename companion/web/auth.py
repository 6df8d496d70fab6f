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
    """Whether this browser's session is the organizer's (the printed link or the PIN), and
    still is: signed in since the console last signed out every other device, and, when a PIN
    opened it, with that PIN still the one set (a new or cleared PIN ends it). Both are read
    from the journal's hall stream, so every process judges a session alike."""
    if session.get("organizer") is not True:
        return False
    hall = service()
    hall.catch_up_hall()
    opened_by = session.get("pin")
    pin = hall.organizer_pin
    return (session.get("epoch", 0) == hall.signout_epoch
            and (opened_by is None or (pin is not None and pin.get("salt") == opened_by)))


def open_session(pin: dict[str, Any] | None = None) -> None:
    """Sign this browser in as the organizer; `pin`: the PIN's record that opened it."""
    session["organizer"] = True
    session["epoch"] = service().signout_epoch
    if pin is None:
        session.pop("pin", None)
    else:
        session["pin"] = pin["salt"]
    session.permanent = True


def organizer_required(view: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        header = request.headers.get("Authorization", "")
        key = header[7:] if header.startswith("Bearer ") else None
        if not (is_organizer_key(key) or is_signed_in_organizer()):
            raise HallError("auth/organizer", "this needs the organizer's key")
        return view(*args, **kwargs)

    return wrapped
