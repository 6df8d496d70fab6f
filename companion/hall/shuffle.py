"""Shuffles drawn by the service: the rules' dealer input (card decks) and the balanced dice deck,
in an unpredictable order (`secrets`), recorded in the journal by the events that use them."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def secure_shuffle(cards: Sequence[T]) -> tuple[T, ...]:
    """The same cards in an unpredictable order (Fisher-Yates with `secrets.randbelow`)."""
    order = list(cards)
    for i in range(len(order) - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)
