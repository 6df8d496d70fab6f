"""What happened at a board of the big Catan event. Only facts are stored; a board's state is a
fold over them (`engine.evolve`). Each class keeps its journal name in `KIND`: never change it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.rules.catan_big.claims import Breakdown
from companion.rules.catan_big.state import Hand


@dataclass(frozen=True, slots=True)
class PointsTracked:
    """A player's points tracker, as they keep it up while they build."""

    KIND: ClassVar[str] = "CatanPointsTracked"  # its name in every journal: never change it
    seat: int
    breakdown: Breakdown


@dataclass(frozen=True, slots=True)
class VictoryClaimed:
    """A claim of 25 points or more, made in hall turn `turn` on the player's team's turn."""

    KIND: ClassVar[str] = "CatanVictoryClaimed"  # its name in every journal: never change it
    seat: int
    breakdown: Breakdown
    turn: int


@dataclass(frozen=True, slots=True)
class ClaimVerified:
    """The staff verified the seat's pending claim at the board in hall turn `turn`, counting
    the cards in hand for a tie."""

    KIND: ClassVar[str] = "CatanClaimVerified"  # its name in every journal: never change it
    seat: int
    resources: Hand
    turn: int


@dataclass(frozen=True, slots=True)
class ClaimRejected:
    KIND: ClassVar[str] = "CatanClaimRejected"  # its name in every journal: never change it
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class BreakdownCorrected:
    """The staff's correction of a seat's tracker (`final` False) or final breakdown."""

    KIND: ClassVar[str] = "CatanBreakdownCorrected"  # its name in every journal: never change it
    seat: int
    breakdown: Breakdown
    reason: str
    final: bool


@dataclass(frozen=True, slots=True)
class FinalEntered:
    """A player's final breakdown after the game (RULES.md 24), with the cards in hand if given."""

    KIND: ClassVar[str] = "CatanFinalEntered"  # its name in every journal: never change it
    seat: int
    breakdown: Breakdown
    resources: Hand | None


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The event's game is over at this board: the turn of a verified claim ended (the hall asked
    for the next roll), or the organizer ended the event. `turn`: the hall turn it ended in."""

    KIND: ClassVar[str] = "CatanGameEnded"  # its name in every journal: never change it
    turn: int | None


BoardFact = (PointsTracked | VictoryClaimed | ClaimVerified | ClaimRejected | BreakdownCorrected
             | FinalEntered | GameEnded)
FACT_TYPES: tuple[type[BoardFact], ...] = (PointsTracked, VictoryClaimed, ClaimVerified,
                                           ClaimRejected, BreakdownCorrected, FinalEntered,
                                           GameEnded)
