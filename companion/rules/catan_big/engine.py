"""Deciding the moves at a board of the big Catan event (RULES.md 21-24), and evolving its state
by their facts. `decide` may refuse (a CatanError with its stable code; nothing changes);
`evolve` never fails. The turn and its team come with the move: they are the event's."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from companion.rules.catan_big import facts as ft
from companion.rules.catan_big import moves as mv
from companion.rules.catan_big.claims import WINNING_POINTS, Breakdown
from companion.rules.catan_big.errors import (
    BadBoardMove,
    ClaimPending,
    NoClaim,
    NotOver,
    NotStarted,
    OffTurn,
    Over,
    TurnClosing,
    Under25,
)
from companion.rules.catan_big.state import ROLES, BoardState, Final, SeatClaim, SeatState
from companion.rules.catan_big.turns import team_of
from companion.rules.frozen import kind_of

# The facts that mean the same in any hall turn: a points tracker and the staff's correction of
# it; the undo of the event's roll leaves them standing (a claim is of its turn).
TURN_FREE = frozenset({kind_of(ft.PointsTracked), kind_of(ft.BreakdownCorrected)})

# The reasons a claim is closed, as the seat view gives them (the pages translate them): the
# refusals' codes without their prefix.
GAME_OVER, NOT_STARTED, NOT_YOUR_TURN = "game_over", "not_started", "not_your_turn"
CLAIM_PENDING, UNDER_25 = "claim_pending", "under_25"


def decide(state: BoardState, seat: int, move: mv.BoardMove) -> list[ft.BoardFact]:
    """The facts of a seat's own move (track, claim, final)."""
    match move:
        case mv.TrackPoints(breakdown=breakdown):
            if state.over:
                raise Over("track: the game is over; enter your final breakdown instead")
            return [ft.PointsTracked(seat, breakdown)]
        case mv.ClaimVictory(breakdown=breakdown, turn=turn, closing=closing):
            check_claim(state, seat, breakdown, turn)
            if closing:  # after the checks above: their reasons say more (off turn, pending)
                raise TurnClosing("claim: the turn is ending (its time is up, or the next roll "
                                  "was asked): claim in your team's next turn")
            assert turn is not None
            return [ft.VictoryClaimed(seat, breakdown, turn)]
        case mv.EnterFinal(breakdown=breakdown, resources=resources):
            if not state.over:
                raise NotOver("final: the final breakdown is entered after the game is over")
            return [ft.FinalEntered(seat, breakdown, resources)]
    raise BadBoardMove(f"move: {type(move).__name__} is a staff move, not a seat's")


def claim_closed(state: BoardState, seat: int, points: int, turn: int | None) -> str | None:
    """Why `seat` may not claim `points` in hall turn `turn` now (a reason of the seat view), or
    None: the game is over or decided at this board; no roll yet; not the seat's team's turn
    (RULES.md 21); its claim is pending; under 25 points (RULES.md 23)."""
    if state.over or state.decided:
        return GAME_OVER
    if turn is None:
        return NOT_STARTED
    if team_of(turn) != ROLES[seat]:
        return NOT_YOUR_TURN
    if state.seats[seat].pending:
        return CLAIM_PENDING
    if points < WINNING_POINTS:
        return UNDER_25
    return None


def check_claim(state: BoardState, seat: int, breakdown: Breakdown, turn: int | None) -> None:
    reason = claim_closed(state, seat, breakdown.points, turn)
    if reason == GAME_OVER:
        raise Over("claim: the game is over" if state.over else
                   "claim: a claim at this board is verified; the game ends with this turn")
    if reason == NOT_STARTED:
        raise NotStarted("claim: the game has not started: no roll yet")
    if reason == NOT_YOUR_TURN:
        assert turn is not None
        raise OffTurn(f"claim: turn {turn} is the {team_of(turn)} team's, not the "
                      f"{ROLES[seat]} team's")
    if reason == CLAIM_PENDING:
        raise ClaimPending("claim: your claim is being verified by the staff")
    if reason == UNDER_25:
        raise Under25(f"claim: {breakdown.points} points is under {WINNING_POINTS}: no win, "
                      f"play goes on")


def decide_staff(state: BoardState, move: mv.StaffMove) -> list[ft.BoardFact]:
    """The facts of a staff move at the board (verify, reject, correct, end)."""
    match move:
        case mv.VerifyClaim(seat=seat, resources=resources, turn=turn):
            claim = pending_claim(state, seat, "verify")
            if state.over:
                raise Over("verify: the game is over")
            return [ft.ClaimVerified(seat, resources, claim.turn if turn is None else turn)]
        case mv.RejectClaim(seat=seat, reason=reason):
            pending_claim(state, seat, "reject")
            return [ft.ClaimRejected(seat, reason)]
        case mv.CorrectBreakdown(seat=seat, breakdown=breakdown, reason=reason):
            return [ft.BreakdownCorrected(seat, breakdown, reason, final=state.over)]
        case mv.EndGame(turn=turn):
            if state.over:
                raise Over("end: the game is over already")
            return [ft.GameEnded(turn)]
    raise BadBoardMove(f"move: {type(move).__name__} is a seat's move, not the staff's")


def pending_claim(state: BoardState, seat: int, verb: str) -> SeatClaim:
    claim = state.seats[seat].claim
    if claim is None or claim.status != "pending":
        status = "no claim" if claim is None else f"its claim is {claim.status}"
        raise NoClaim(f"seat: seat {seat} has no pending claim to {verb} ({status})")
    return claim


# ---------------------------------------------------------------- evolve


def evolve(state: BoardState, facts: Iterable[ft.BoardFact]) -> BoardState:
    """The state after the facts, in order (replay is the same fold from the start)."""
    for fact in facts:
        state = evolve_one(state, fact)
    return state


def evolve_one(state: BoardState, fact: ft.BoardFact) -> BoardState:
    match fact:
        case ft.GameEnded(turn=turn):
            return replace(state, over=True, ended_turn=turn)
        case ft.PointsTracked(seat=seat, breakdown=breakdown):
            old = state.seats[seat]
            return with_seat(state, seat, replace(old, tracker=breakdown, corrected=None))
        case ft.VictoryClaimed(seat=seat, breakdown=breakdown, turn=turn):
            old = state.seats[seat]
            return with_seat(state, seat, replace(old, claim=SeatClaim("pending", breakdown, turn)))
        case ft.ClaimVerified(seat=seat, resources=resources, turn=turn):
            old = state.seats[seat]
            assert old.claim is not None
            claim = replace(old.claim, status="verified", resources=resources, verified_turn=turn)
            return with_seat(state, seat, replace(old, claim=claim))
        case ft.ClaimRejected(seat=seat, reason=reason):
            old = state.seats[seat]
            assert old.claim is not None
            claim = replace(old.claim, status="rejected", reason=reason)
            return with_seat(state, seat, replace(old, claim=claim))
        case ft.BreakdownCorrected(seat=seat, breakdown=breakdown, reason=reason, final=True):
            old = state.seats[seat]
            kept = None if old.final is None else old.final.resources
            return with_seat(state, seat, replace(old, final=Final(breakdown, kept, reason)))
        case ft.BreakdownCorrected(seat=seat, breakdown=breakdown, reason=reason):
            old = state.seats[seat]
            return with_seat(state, seat, replace(old, tracker=breakdown, corrected=reason))
        case ft.FinalEntered(seat=seat, breakdown=breakdown, resources=resources):
            old = state.seats[seat]
            return with_seat(state, seat, replace(old, final=Final(breakdown, resources)))
    return state


def with_seat(state: BoardState, seat: int, new: SeatState) -> BoardState:
    seats = list(state.seats)
    seats[seat] = new
    return replace(state, seats=tuple(seats))
