"""Card shuffles for the rules' dealer inputs: an unpredictable order (`secrets`), recorded in
the journal by the events that use it."""

from __future__ import annotations

import secrets
from collections.abc import Sequence


def secure_shuffle(cards: Sequence[str]) -> tuple[str, ...]:
    """The same cards in an unpredictable order (Fisher-Yates with `secrets.randbelow`)."""
    order = list(cards)
    for i in range(len(order) - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)
