"""Co-op events and moves to and from plain JSON-able dicts; base ones go to the base codec."""

from __future__ import annotations

from dataclasses import fields
from enum import StrEnum
from typing import Any

from companion.rules import codec
from companion.rules.coop import CoopMove
from companion.rules.coop_events import COOP_EVENT_TYPES, AnyEvent, GiveAssessor
from companion.rules.coop_state import EndReason, Outcome
from companion.rules.errors import BadMove, is_whole_number

COOP_KINDS: dict[str, type] = {cls.__name__: cls for cls in COOP_EVENT_TYPES}
EVENT_KINDS: dict[str, type] = {**codec.EVENT_TYPES, **COOP_KINDS}
_ENUMS: dict[str, type[StrEnum]] = {"outcome": Outcome, "reason": EndReason}


def encode_event(event: AnyEvent) -> tuple[str, dict[str, Any]]:
    """(kind, data) of a base or co-op event."""
    return type(event).__name__, codec.event_data(event)


def decode_event(kind: str, data: dict[str, Any]) -> AnyEvent:
    """The event `encode_event` wrote."""
    cls = COOP_KINDS.get(kind)
    if cls is None:
        return codec.decode_event(kind, data)
    values: dict[str, Any] = {}
    for field in fields(cls):
        if field.name not in data:
            continue
        value = data[field.name]
        if isinstance(value, list):
            value = tuple(value)
        elif field.name in _ENUMS:
            value = _ENUMS[field.name](value)
        values[field.name] = value
    event: AnyEvent = cls(**values)
    return event


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
