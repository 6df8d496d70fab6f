"""Co-op facts and moves from plain JSON-able dicts, and moves to them; base ones, and the
encoding of every fact, are the base codec's."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from companion.rules.coop.engine import CoopMove
from companion.rules.coop.facts import COOP_FACT_TYPES, AnyFact, GiveAssessor
from companion.rules.coop.state import EndReason, Outcome
from companion.rules.errors import BadMove, is_whole_number
from companion.rules.frozen import kind_of
from companion.rules.machi_koro import codec

# Stored under each class's KIND, never its name (codec.FACT_TYPES says why).
COOP_KINDS: dict[str, type] = {kind_of(cls): cls for cls in COOP_FACT_TYPES}
FACT_KINDS: dict[str, type] = {**codec.FACT_TYPES, **COOP_KINDS}
_ENUMS: dict[str, type[StrEnum]] = {"outcome": Outcome, "reason": EndReason}


encode_fact = codec.encode_fact  # a co-op fact is written as a base game's is


def decode_fact(kind: str, data: dict[str, Any]) -> AnyFact:
    """The fact `codec.encode_fact` wrote, co-op or base."""
    cls = COOP_KINDS.get(kind)
    if cls is None:
        return codec.decode_fact(kind, data)
    fact: AnyFact = codec.fact_from_data(cls, data, _ENUMS)
    return fact


def parse_move(move: Any, dice: tuple[int, ...] = ()) -> CoopMove:
    """The rules move for a wire move; `{"kind": "give_assessor", "amount": N}` is co-op's."""
    if isinstance(move, dict) and move.get("kind") == "give_assessor":
        amount = move.get("amount")
        if not is_whole_number(amount):
            raise BadMove(f"'amount' must be a whole number of coins, not {amount!r}")
        return GiveAssessor(amount)
    return codec.parse_move(move, dice)


def wire_move(move: CoopMove) -> dict[str, Any]:
    """The wire form of a move, the inverse of `parse_move`."""
    if isinstance(move, GiveAssessor):
        return {"kind": "give_assessor", "amount": move.amount}
    return codec.wire_move(move)
