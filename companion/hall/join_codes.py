"""A seat's join code: eight characters to type when a phone cannot scan its card's QR.

The code is derived from the seat's token (Crockford base32 of the first 40 bits of its
SHA-256), so nothing new is stored: a reassigned seat's new token brings a new code, and the
old code stops with the old token. It is printed as two groups, `K7M3-QX9A`. Crockford's
alphabet has no I, L, O or U, and reading is forgiving: case, spaces and dashes do not count,
I and L read as 1, O as 0. The code opens a seat only through the web layer, which limits
wrong guesses per address; 1,100 seats among 2**40 codes leave a guess about 1 in 10**9.
"""

from __future__ import annotations

import hashlib
import unicodedata

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base32: no I, L, O, U
LENGTH = 8  # 40 bits
GROUP = 4  # printed as two groups of four
READ_AS = {"I": "1", "L": "1", "O": "0"}  # letters people type for the digits they look like


def join_code(token: str) -> str:
    """The seat's code as stored in the index: eight characters of ALPHABET, no hyphen."""
    bits = int.from_bytes(hashlib.sha256(token.encode("utf-8")).digest()[:5], "big")
    return "".join(ALPHABET[(bits >> shift) & 31] for shift in range(5 * (LENGTH - 1), -1, -5))


def printed(code: str) -> str:
    """A code as a card prints it and a person reads it: `K7M3-QX9A`."""
    return f"{code[:GROUP]}-{code[GROUP:]}"


def read_code(typed: str) -> str | None:
    """The code a person typed (`k7m3 qx9a`, `K7M3-QX9A`, `k7m3-qx9a` with an I for the 1),
    or None when it cannot be one: the wrong length or a character outside the alphabet."""
    folded = unicodedata.normalize("NFKC", typed).upper()
    kept = [READ_AS.get(ch, ch) for ch in folded
            if not (ch.isspace() or unicodedata.category(ch) == "Pd")]  # Pd: every dash
    code = "".join(kept)
    if len(code) != LENGTH or any(ch not in ALPHABET for ch in code):
        return None
    return code
