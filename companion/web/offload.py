"""CPU-heavy work that must not stop the served hall: under gevent one event loop serves every
phone, so a call that holds the CPU for tens of milliseconds (the PIN's salted hash) runs in
gevent's pool of native threads; hashlib lets go of the interpreter lock while it hashes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import current_app

T = TypeVar("T")


def off_the_loop(function: Callable[..., T], *args: Any) -> T:
    """`function(*args)`, in a native thread when the app is served by gevent (the event loop
    goes on serving meanwhile), else here (threading mode: the caller is a thread already)."""
    if current_app.config.get("ASYNC_MODE") == "gevent":
        import gevent

        result: T = gevent.get_hub().threadpool.apply(function, args)
        return result
    return function(*args)
