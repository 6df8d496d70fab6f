"""The organizer's PIN: checked, hashed with a salt, and verified; only the hash is stored.

A PIN signs in a second device (a phone at the hall's door) without handing it the organizer's
key. The web layer limits how fast anyone may guess it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from companion.hall.checks import N_, Detail

PIN_DIGITS = (6, 12)
ITERATIONS = 200_000  # about 60 ms per check on the hall's laptop: slow to guess, quick to type


def check_pin_format(pin: Any) -> Detail | None:
    """The reason a PIN is not acceptable (in words the web layer translates), or None."""
    low, high = PIN_DIGITS
    if (not isinstance(pin, str) or not pin.isascii() or not pin.isdigit()
            or not low <= len(pin) <= high):
        return Detail(N_("a PIN is {low} to {high} digits"), {"low": low, "high": high})
    if len(set(pin)) == 1:
        return Detail(N_("a PIN of one repeated digit is too easy to guess"))
    return None


def hash_pin(pin: str, salt: str | None = None, iterations: int = ITERATIONS) -> dict[str, Any]:
    """The journal record of a PIN: salt, iteration count and the PBKDF2-SHA256 hash."""
    salt = salt or secrets.token_hex(16)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), iterations).hex()
    return {"salt": salt, "iterations": iterations, "hash": digest}


def pin_matches(record: dict[str, Any] | None, pin: Any) -> bool:
    """Whether `pin` is the one `record` was made from; False when no PIN is set."""
    if not record or not isinstance(pin, str) or not pin.isascii() or len(pin) > 64:
        return False
    again = hash_pin(pin, record["salt"], record["iterations"])
    return hmac.compare_digest(again["hash"], record["hash"])
