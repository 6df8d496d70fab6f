"""Dice drawn by the service: an unpredictable source, or a balanced deck of the 36 pairs."""

from __future__ import annotations

import secrets

from companion.hall.shuffle import secure_shuffle

DECK_LEFT_UNUSED = 5  # like Catan's event cards: reshuffle with 5 pairs still in the deck


def roll(count: int) -> tuple[int, ...]:
    return tuple(secrets.randbelow(6) + 1 for _ in range(count))


def shuffled_deck() -> list[list[int]]:
    """The 36 ordered two-dice combinations in an unpredictable order."""
    return list(secure_shuffle([[a, b] for a in range(1, 7) for b in range(1, 7)]))
