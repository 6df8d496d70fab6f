"""What happens in a Legacy game beyond the base game's facts (machi_koro/facts.py)."""

from __future__ import annotations

from typing import get_args

from companion.rules.frozen import journal_fact
from companion.rules.machi_koro import facts as base


@journal_fact("LegacyContributed")
class Contributed:
    """`seat` contributed to the community landmark (its cost paid by a CoinsTransferred
    before it, a bonus in coins by one after it): its flag is on the card."""

    seat: int
    community: str


@journal_fact("LegacyManualCardsActivated")
class ManualCardsActivated:
    """The roll of `total` activated cards the engine cannot play (`manual` ones): the organizer
    settles each with a correction whose reason names the card (RULES.md 15). Parallel tuples:
    the owner's seat, the card and its copies."""

    total: int
    seats: tuple[int, ...]
    cards: tuple[str, ...]
    copies: tuple[int, ...]


LegacyOwnFact = Contributed | ManualCardsActivated
LegacyFact = base.Fact | LegacyOwnFact
LEGACY_FACT_TYPES: tuple[type, ...] = get_args(LegacyOwnFact)
