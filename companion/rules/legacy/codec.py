"""Legacy facts and moves to and from plain JSON-able dicts; base ones are the base codec's."""

from __future__ import annotations

from typing import Any

from companion.rules.frozen import kind_of
from companion.rules.legacy.facts import LEGACY_FACT_TYPES, LegacyFact
from companion.rules.legacy.moves import Contribute, LegacyMove
from companion.rules.machi_koro import codec

# Stored under each class's KIND, never its name (machi_koro/codec.py says why).
LEGACY_KINDS: dict[str, type] = {kind_of(cls): cls for cls in LEGACY_FACT_TYPES}
FACT_KINDS: dict[str, type] = {**codec.FACT_TYPES, **LEGACY_KINDS}


def encode_fact(fact: LegacyFact) -> tuple[str, dict[str, Any]]:
    return codec.encode_fact(fact)


def decode_fact(kind: str, data: dict[str, Any]) -> LegacyFact:
    """The fact `encode_fact` wrote, Legacy's or the base game's."""
    cls = LEGACY_KINDS.get(kind)
    if cls is None:
        return codec.decode_fact(kind, data)
    fact: LegacyFact = codec.fact_from_data(cls, data, {})
    return fact


def parse_move(wire: Any, dice: tuple[int, ...] = ()) -> LegacyMove:
    """The rules move for a wire move; `{"kind": "contribute"}` is Legacy's, a landmark is
    built as any card: `{"kind": "build", "card": id}`."""
    if isinstance(wire, dict) and wire.get("kind") == "contribute":
        return Contribute()
    return codec.parse_move(wire, dice)


def wire_move(move: LegacyMove) -> dict[str, Any]:
    """The wire form of a move, the inverse of `parse_move`."""
    if isinstance(move, Contribute):
        return {"kind": "contribute"}
    return codec.wire_move(move)
