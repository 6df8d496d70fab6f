"""What happened at a board of the big Catan event. Only facts are stored; a board's state is a
fold over them (`engine.evolve`). Each class's journal name is its `journal_fact` kind: never
change it."""

from __future__ import annotations

from companion.rules.catan_big.claims import Breakdown
from companion.rules.catan_big.state import Hand
from companion.rules.frozen import journal_fact


@journal_fact("CatanPointsTracked")
class PointsTracked:
    """A player's points tracker, as they keep it up while they build."""

    seat: int
    breakdown: Breakdown


@journal_fact("CatanVictoryClaimed")
class VictoryClaimed:
    """A claim of 25 points or more, made in hall turn `turn` on the player's team's turn."""

    seat: int
    breakdown: Breakdown
    turn: int


@journal_fact("CatanClaimVerified")
class ClaimVerified:
    """The staff verified the seat's pending claim at the board in hall turn `turn`, counting
    the cards in hand for a tie."""

    seat: int
    resources: Hand
    turn: int


@journal_fact("CatanClaimRejected")
class ClaimRejected:
    seat: int
    reason: str


@journal_fact("CatanBreakdownCorrected")
class BreakdownCorrected:
    """The staff's correction of a seat's tracker (`final` False) or final breakdown."""

    seat: int
    breakdown: Breakdown
    reason: str
    final: bool


@journal_fact("CatanFinalEntered")
class FinalEntered:
    """A player's final breakdown after the game (RULES.md 24), with the cards in hand if given."""

    seat: int
    breakdown: Breakdown
    resources: Hand | None


@journal_fact("CatanGameEnded")
class GameEnded:
    """The event's game is over at this board: the turn of a verified claim ended (the hall asked
    for the next roll), or the organizer ended the event. `turn`: the hall turn it ended in."""

    turn: int | None


BoardFact = (PointsTracked | VictoryClaimed | ClaimVerified | ClaimRejected | BreakdownCorrected
             | FinalEntered | GameEnded)
FACT_TYPES: tuple[type[BoardFact], ...] = (PointsTracked, VictoryClaimed, ClaimVerified,
                                           ClaimRejected, BreakdownCorrected, FinalEntered,
                                           GameEnded)
