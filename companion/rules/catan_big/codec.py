"""The big Catan event's moves from their wire forms (DESIGN.md), and its facts to and from the
journal's plain JSON records. Every refusal names the field (`breakdown.cities: ...`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict
from typing import Any

from companion.rules.catan_big import facts as ft
from companion.rules.catan_big import moves as mv
from companion.rules.catan_big.claims import Breakdown, read_breakdown, read_hand
from companion.rules.catan_big.errors import BadBoardMove, BadClaim
from companion.rules.catan_big.fields import an_object, required, whole, written_out
from companion.rules.catan_big.state import REASON_MAX
from companion.rules.coop.scenario import show
from companion.rules.frozen import kind_of
from companion.rules.machi_koro import codec as base_codec
from companion.rules.ruleset import HallTurn

SEAT_KINDS = ("track", "claim", "final")
STAFF_KINDS = ("verify", "reject", "correct", "end")

FACT_TYPES: dict[str, type[ft.BoardFact]] = {kind_of(cls): cls for cls in ft.FACT_TYPES}


# ---------------------------------------------------------------- reading moves


def parse_move(wire: Any, hall: HallTurn | None) -> mv.SeatMove:
    """A phone's move (the seat is the phone's): track, claim or final. A claim knows the hall
    turn it is made in (None before the first roll)."""
    kind = move_kind(wire, SEAT_KINDS, STAFF_KINDS, "a staff move: only the organizer makes it")
    breakdown = read_wire_breakdown(wire)
    if kind == "track":
        return mv.TrackPoints(breakdown)
    if kind == "claim":
        return (mv.ClaimVictory(breakdown, None) if hall is None
                else mv.ClaimVictory(breakdown, hall.number, hall.closing))
    resources = None if wire.get("resources") is None else read_hand(wire["resources"])
    return mv.EnterFinal(breakdown, resources)


def parse_staff_move(wire: Any, hall: HallTurn | None, seats: int) -> mv.StaffMove:
    """A staff move at a board (verify, reject, correct, end), the seat it concerns checked."""
    kind = move_kind(wire, STAFF_KINDS, SEAT_KINDS, "a player's move, made on their phone")
    turn = None if hall is None else hall.number
    if kind == "end":
        return mv.EndGame(turn)
    seat = read_seat(required(wire, "seat", error=BadBoardMove), seats)
    if kind == "verify":
        return mv.VerifyClaim(seat, read_hand(required(wire, "resources", error=BadClaim)), turn)
    reason = read_reason(required(wire, "reason", error=BadBoardMove))
    if kind == "reject":
        return mv.RejectClaim(seat, reason)
    return mv.CorrectBreakdown(seat, read_wire_breakdown(wire), reason)


def move_kind(wire: Any, known: tuple[str, ...], other: tuple[str, ...], why: str) -> str:
    data = an_object(wire, "move", BadBoardMove)
    kind = required(data, "kind", error=BadBoardMove)
    if kind in known:
        return str(kind)
    if kind in other:
        raise BadBoardMove(f"kind: {show(kind)} is {why}")
    raise BadBoardMove(f"kind: unknown move {show(kind)} (known: {', '.join(known)})")


def read_wire_breakdown(wire: Mapping[str, Any]) -> Breakdown:
    """The move's `breakdown`, each field within its cap of RULES.md 23 (catan/over_cap)."""
    data = an_object(required(wire, "breakdown", error=BadClaim), "breakdown", BadClaim)
    return read_breakdown(data, "breakdown")


def read_seat(value: Any, seats: int) -> int:
    return whole(value, "seat", 0, seats - 1, error=BadBoardMove)


def read_reason(value: Any) -> str:
    """The staff's reason: text of 1 to REASON_MAX characters, not only spaces."""
    if not isinstance(value, str) or not value.strip():
        raise BadBoardMove(f"reason: a reason of 1 to {REASON_MAX} characters is required, "
                           f"not {show(value)}")
    if len(value) > REASON_MAX:
        raise BadBoardMove(f"reason: at most {REASON_MAX} characters, not {len(value)}")
    return written_out(value, "reason", BadBoardMove)


# ---------------------------------------------------------------- the journal


def breakdown_json(breakdown: Breakdown) -> dict[str, Any]:
    return asdict(breakdown)


def encode_fact(fact: ft.BoardFact) -> tuple[str, dict[str, Any]]:
    """(kind, data): the fact's stored KIND and its fields as JSON values (a breakdown as its
    object, cards in hand as a list of five)."""
    return base_codec.encode_fact(fact)


def decode_fact(kind: str, data: Mapping[str, Any]) -> ft.BoardFact:
    """The fact `encode_fact` wrote."""
    fact: ft.BoardFact = base_codec.fact_from_data(FACT_TYPES[kind], data, _READERS)
    return fact


_READERS: dict[str, Callable[[Any], Any]] = {"breakdown": lambda data: Breakdown(**data)}
