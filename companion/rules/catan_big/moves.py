"""Moves at a board of the big Catan event: the phones' (a seat's own) and the staff's (from the
console, the organizer's key only). `codec` reads them from their wire forms (DESIGN.md)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.catan_big.claims import Breakdown
from companion.rules.catan_big.state import Hand

# ---------------------------------------------------------------- a seat's own moves


@dataclass(frozen=True, slots=True)
class TrackPoints:
    """Keep the points tracker up: any time until the game is over."""

    breakdown: Breakdown


@dataclass(frozen=True, slots=True)
class ClaimVictory:
    """Claim victory with this breakdown in hall turn `turn` (None: before the first roll)."""

    breakdown: Breakdown
    turn: int | None
    closing: bool = False  # the turn is ending (HallTurn.closing): no claim holds it longer


@dataclass(frozen=True, slots=True)
class EnterFinal:
    """The final breakdown for the standings, after the game (cards in hand optional)."""

    breakdown: Breakdown
    resources: Hand | None


SeatMove = TrackPoints | ClaimVictory | EnterFinal

# ---------------------------------------------------------------- the staff's moves


@dataclass(frozen=True, slots=True)
class VerifyClaim:
    """Verify `seat`'s pending claim at the board, with the cards in hand counted for a tie."""

    seat: int
    resources: Hand
    turn: int | None  # the event's hall turn when the staff verify it


@dataclass(frozen=True, slots=True)
class RejectClaim:
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class CorrectBreakdown:
    """The staff's correction of `seat`'s tracker, or of its final breakdown once the game is
    over."""

    seat: int
    breakdown: Breakdown
    reason: str


@dataclass(frozen=True, slots=True)
class EndGame:
    """The event's game is over at this board (the hall makes it when the game ends)."""

    turn: int | None


StaffMove = VerifyClaim | RejectClaim | CorrectBreakdown | EndGame
BoardMove = SeatMove | StaffMove
