"""Facts and moves to and from plain JSON-able dicts, for the journal and the wire."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, fields, is_dataclass
from enum import StrEnum
from typing import Any, get_args

from companion.rules.errors import BadMove, is_whole_number
from companion.rules.frozen import kind_of
from companion.rules.machi_koro import facts as ev
from companion.rules.machi_koro import moves as mv
from companion.rules.machi_koro.state import Choice

# Journals store a fact under its class's KIND (frozen.journal_fact), a fixed string (today's
# class names), never the class's name itself.
FACT_TYPES: dict[str, type] = {kind_of(cls): cls for cls in get_args(ev.Fact)}


def encode_fact(fact: Any) -> tuple[str, dict[str, Any]]:
    """(kind, data) of any ruleset's fact (a dataclass): its stored KIND and `fact_data`."""
    return kind_of(type(fact)), fact_data(fact)


def fact_data(fact: Any) -> dict[str, Any]:
    """The fields of any ruleset's fact (a dataclass) as JSON-able values: tuples become
    lists, enum members (choices, outcomes) their values, a dataclass (a Catan breakdown) its
    object."""
    data: dict[str, Any] = {}
    for field in fields(fact):
        value = getattr(fact, field.name)
        if isinstance(value, tuple):
            value = [v.value if isinstance(v, StrEnum) else v for v in value]
        elif isinstance(value, StrEnum):
            value = value.value
        elif is_dataclass(value) and not isinstance(value, type):
            value = asdict(value)
        data[field.name] = value
    return data


def decode_fact(kind: str, data: dict[str, Any]) -> ev.Fact:
    """The fact `encode_fact` wrote."""
    fact: ev.Fact = fact_from_data(FACT_TYPES[kind], data, _ENUMS)
    return fact


_ENUMS: dict[str, type[StrEnum]] = {"pending": Choice, "choice": Choice}


def fact_from_data(cls: type, data: Mapping[str, Any],
                   readers: Mapping[str, Callable[[Any], Any]]) -> Any:
    """The inverse of `fact_data` for any ruleset's fact class: lists become tuples, the
    fields named in `readers` (or their items) what that reader makes of them (an enum's
    member, a breakdown)."""
    values: dict[str, Any] = {}
    for field in fields(cls):
        if field.name not in data:
            continue
        value, read = data[field.name], readers.get(field.name)
        if isinstance(value, list):
            value = tuple(read(v) for v in value) if read else tuple(value)
        elif read:
            value = read(value)
        values[field.name] = value
    return cls(**values)


def _seat(move: dict[str, Any], key: str) -> int:
    value = move.get(key)
    if not is_whole_number(value):
        raise BadMove(f"{key!r} must be a seat number, not {value!r}")
    return value


def _text(move: dict[str, Any], key: str) -> str:
    value = move.get(key)
    if not isinstance(value, str) or not value:
        raise BadMove(f"{key!r} must be a card id, not {value!r}")
    return value


def parse_move(move: Any, dice: tuple[int, ...] = ()) -> mv.Move:
    """The rules move for a wire move `{"kind": ...}` (docs/api.md). Dice moves take the dice
    the service drew."""
    if not isinstance(move, dict):
        raise BadMove("a move is an object with a kind")
    kind = move.get("kind")
    if kind == "roll":
        return mv.Roll(dice)
    if kind == "reroll":
        return mv.Reroll(dice)
    if kind == "dice_count":
        count = move.get("count")
        if not is_whole_number(count) or count not in (1, 2):
            raise BadMove(f"'count' must be 1 or 2, not {count!r}")
        return mv.ChooseDice(count)
    if kind == "keep":
        return mv.KeepRoll()
    if kind == "harbor":
        add = move.get("add")
        if not isinstance(add, bool):
            raise BadMove(f"'add' must be true or false, not {add!r}")
        return mv.AddTwo(add)
    if kind == "tv_station":
        return mv.TargetTvStation(_seat(move, "target"))
    if kind == "business_center":
        if move.get("decline"):
            return mv.DeclineSwap()
        return mv.SwapEstablishments(_seat(move, "with"), _text(move, "give"), _text(move, "take"))
    if kind == "build":
        return mv.Build(_text(move, "card"))
    if kind == "end_turn":
        return mv.EndTurn()
    raise BadMove(f"unknown move kind {kind!r}")


def wire_move(move: mv.Move) -> dict[str, Any]:
    """The wire form of a move, the inverse of `parse_move` (dice moves carry no dice)."""
    match move:
        case mv.ChooseDice(count=count):
            return {"kind": "dice_count", "count": count}
        case mv.Roll():
            return {"kind": "roll"}
        case mv.KeepRoll():
            return {"kind": "keep"}
        case mv.Reroll():
            return {"kind": "reroll"}
        case mv.AddTwo(add=add):
            return {"kind": "harbor", "add": add}
        case mv.TargetTvStation(target=target):
            return {"kind": "tv_station", "target": target}
        case mv.SwapEstablishments(other=other, give=give, take=take):
            return {"kind": "business_center", "with": other, "give": give, "take": take}
        case mv.DeclineSwap():
            return {"kind": "business_center", "decline": True}
        case mv.Build(card=card):
            return {"kind": "build", "card": card}
        case mv.EndTurn():
            return {"kind": "end_turn"}
    raise BadMove(f"unknown move {move!r}")
