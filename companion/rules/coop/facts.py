"""What happens at a co-op table beyond the base game's facts, and the co-op move.

Deck orders are in the facts (`DecksShuffled`, `AssessorDeckShuffled`): the dealer shuffled,
the journal keeps the order, a replay never shuffles again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import get_args

from companion.rules.coop.state import CoopAccount, EndReason, Outcome
from companion.rules.frozen import journal_fact
from companion.rules.machi_koro import facts as base


@dataclass(frozen=True, slots=True)
class GiveAssessor:
    """Move: the active player gives `amount` of their coins to the assessor (RULES.md 17)."""

    amount: int


@journal_fact("AssessorCoinsTransferred")
class AssessorCoinsTransferred:
    """A coin movement with the assessor as one party: its stake from the bank, a player's
    gift, a tax or a supplemental tax to the bank."""

    source: CoopAccount
    target: CoopAccount
    amount: int
    card: str  # the assessor card taxed; "stake" or "gift" otherwise
    kind: str  # stake | gift | tax | supplemental


@journal_fact("DecksShuffled")
class DecksShuffled:
    """The deal: both decks in the dealer's order, top card first."""

    market: tuple[str, ...]
    assessor: tuple[str, ...]


@journal_fact("MarketCardRevealed")
class MarketCardRevealed:
    """The market deck's top card comes into the row on the left."""

    card: str


@journal_fact("MarketCardDiscarded")
class MarketCardDiscarded:
    """A turn without an establishment bought: the row's rightmost card goes (RULES.md 16)."""

    card: str


@journal_fact("AssessorCardDrawn")
class AssessorCardDrawn:
    """The assessor's top card, what it meant with `sought` the value sought, and where it
    went: `tax` to the array, `supplemental` and `miss` to the discards; `unpaid` stays face
    up on the deck (the game is lost)."""

    card: str
    sought: int
    result: str  # tax | supplemental | miss | unpaid
    amount: int


@journal_fact("AssessorDeckShuffled")
class AssessorDeckShuffled:
    """Every assessor card not in the array (deck and discards) shuffled into a new deck."""

    order: tuple[str, ...]


@journal_fact("FinalRoundBegan")
class FinalRoundBegan:
    """The last value was assessed: each player has one more turn (RULES.md 19)."""



@journal_fact("CoopGameEnded")
class CoopGameEnded:
    outcome: Outcome
    reason: EndReason


CoopEvent = (
    AssessorCoinsTransferred | DecksShuffled | MarketCardRevealed | MarketCardDiscarded
    | AssessorCardDrawn | AssessorDeckShuffled | FinalRoundBegan | CoopGameEnded
)
AnyFact = base.Fact | CoopEvent
COOP_FACT_TYPES: tuple[type, ...] = get_args(CoopEvent)
