"""Dice drawn by the service: an unpredictable source, or a balanced deck of the 36 pairs."""

from __future__ import annotations

import secrets

DECK_LEFT_UNUSED = 5  # like Catan's event cards: reshuffle with 5 pairs still in the deck


def roll_two() -> tuple[int, int]:
    return secrets.randbelow(6) + 1, secrets.randbelow(6) + 1


def roll(count: int) -> tuple[int, ...]:
    return tuple(secrets.randbelow(6) + 1 for _ in range(count))


def shuffled_deck() -> list[list[int]]:
    """The 36 ordered two-dice combinations in an unpredictable order."""
    deck = [[a, b] for a in range(1, 7) for b in range(1, 7)]
    for i in range(len(deck) - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck
