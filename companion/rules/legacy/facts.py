"""What happens in a Legacy game beyond the base game's facts (machi_koro/facts.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, get_args

from companion.rules.machi_koro import facts as base


@dataclass(frozen=True, slots=True)
class Contributed:
    """`seat` contributed to the community landmark (its cost paid by a CoinsTransferred
    before it, a bonus in coins by one after it): its flag is on the card."""

    KIND: ClassVar[str] = "LegacyContributed"  # its name in every journal: never change it

    seat: int
    community: str


@dataclass(frozen=True, slots=True)
class ManualCardsActivated:
    """The roll of `total` activated cards the engine cannot play (`manual` ones): the organizer
    settles each with a correction whose reason names the card (RULES.md 15). Parallel tuples:
    the owner's seat, the card and its copies."""

    KIND: ClassVar[str] = "LegacyManualCardsActivated"  # its name in every journal: never change it

    total: int
    seats: tuple[int, ...]
    cards: tuple[str, ...]
    copies: tuple[int, ...]


LegacyOwnFact = Contributed | ManualCardsActivated
LegacyFact = base.Fact | LegacyOwnFact
LEGACY_FACT_TYPES: tuple[type, ...] = get_args(LegacyOwnFact)
