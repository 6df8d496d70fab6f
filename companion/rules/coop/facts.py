"""What happens at a co-op table beyond the base game's facts, and the co-op move.

Deck orders are in the facts (`DecksShuffled`, `AssessorDeckShuffled`): the dealer shuffled,
the journal keeps the order, a replay never shuffles again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, get_args

from companion.rules.coop.state import CoopAccount, EndReason, Outcome
from companion.rules.machi_koro import facts as base


@dataclass(frozen=True, slots=True)
class GiveAssessor:
    """Move: the active player gives `amount` of their coins to the assessor (RULES.md 17)."""

    amount: int


@dataclass(frozen=True, slots=True)
class AssessorCoinsTransferred:
    """A coin movement with the assessor as one party: its stake from the bank, a player's
    gift, a tax or a supplemental tax to the bank."""

    KIND: ClassVar[str] = "AssessorCoinsTransferred"  # its name in every journal: never change it

    source: CoopAccount
    target: CoopAccount
    amount: int
    card: str  # the assessor card taxed; "stake" or "gift" otherwise
    kind: str  # stake | gift | tax | supplemental


@dataclass(frozen=True, slots=True)
class DecksShuffled:
    """The deal: both decks in the dealer's order, top card first."""

    KIND: ClassVar[str] = "DecksShuffled"  # its name in every journal: never change it

    market: tuple[str, ...]
    assessor: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MarketCardRevealed:
    """The market deck's top card comes into the row on the left."""

    KIND: ClassVar[str] = "MarketCardRevealed"  # its name in every journal: never change it

    card: str


@dataclass(frozen=True, slots=True)
class MarketCardDiscarded:
    """A turn without an establishment bought: the row's rightmost card goes (RULES.md 16)."""

    KIND: ClassVar[str] = "MarketCardDiscarded"  # its name in every journal: never change it

    card: str


@dataclass(frozen=True, slots=True)
class AssessorCardDrawn:
    """The assessor's top card, what it meant with `sought` the value sought, and where it
    went: `tax` to the array, `supplemental` and `miss` to the discards; `unpaid` stays face
    up on the deck (the game is lost)."""

    KIND: ClassVar[str] = "AssessorCardDrawn"  # its name in every journal: never change it

    card: str
    sought: int
    result: str  # tax | supplemental | miss | unpaid
    amount: int


@dataclass(frozen=True, slots=True)
class AssessorDeckShuffled:
    """Every assessor card not in the array (deck and discards) shuffled into a new deck."""

    KIND: ClassVar[str] = "AssessorDeckShuffled"  # its name in every journal: never change it

    order: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FinalRoundBegan:
    """The last value was assessed: each player has one more turn (RULES.md 19)."""

    KIND: ClassVar[str] = "FinalRoundBegan"  # its name in every journal: never change it


@dataclass(frozen=True, slots=True)
class CoopGameEnded:
    KIND: ClassVar[str] = "CoopGameEnded"  # its name in every journal: never change it
    outcome: Outcome
    reason: EndReason


CoopEvent = (
    AssessorCoinsTransferred | DecksShuffled | MarketCardRevealed | MarketCardDiscarded
    | AssessorCardDrawn | AssessorDeckShuffled | FinalRoundBegan | CoopGameEnded
)
AnyFact = base.Fact | CoopEvent
COOP_FACT_TYPES: tuple[type, ...] = get_args(CoopEvent)
