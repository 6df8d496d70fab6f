"""The organizer's commands to a Legacy campaign (campaign.py decides them), and their wire
form from the console: `{"command": "add_entry", "kind": "landmarks", "entry": {...}}`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.rules.errors import BadMove


@dataclass(frozen=True, slots=True)
class AddEntry:
    kind: Any  # establishments | landmarks | community
    entry: Any  # the console's JSON, checked by `decide`


@dataclass(frozen=True, slots=True)
class ReplaceEntry:
    kind: Any
    entry: Any


@dataclass(frozen=True, slots=True)
class SetStatus:
    card: Any
    status: Any  # in_play | reserve | archive


@dataclass(frozen=True, slots=True)
class SetPicks:
    seat: Any
    picks: Any


@dataclass(frozen=True, slots=True)
class RollForStart:
    dice: Any  # one [d1, d2] per contender, in seat order


@dataclass(frozen=True, slots=True)
class StartGame:
    """The next game's set-up; a field left None takes the proposal (`proposal`)."""

    landmarks: Any = None
    community: Any = None
    town_square: Any = None
    slot_costs: Any = None


@dataclass(frozen=True, slots=True)
class RecordGame:
    number: Any
    winner: Any
    date: Any


@dataclass(frozen=True, slots=True)
class TickStep:
    number: Any
    step: Any


@dataclass(frozen=True, slots=True)
class WithdrawGame:
    """The last game's register line taken back (the undo of the move that decided it)."""

    number: Any


Command = (AddEntry | ReplaceEntry | SetStatus | SetPicks | RollForStart | StartGame | RecordGame
           | TickStep | WithdrawGame)


_FIELDS: dict[str, tuple[type, tuple[str, ...]]] = {
    "add_entry": (AddEntry, ("kind", "entry")),
    "replace_entry": (ReplaceEntry, ("kind", "entry")),
    "set_status": (SetStatus, ("card", "status")),
    "set_picks": (SetPicks, ("seat", "picks")),
    "roll_for_start": (RollForStart, ("dice",)),
    "start_game": (StartGame, ("landmarks", "community", "town_square", "slot_costs")),
    "record_game": (RecordGame, ("number", "winner", "date")),
    "tick_step": (TickStep, ("number", "step")),
    "withdraw_game": (WithdrawGame, ("number",)),
}
"""Each wire command's class and its fields (a field not sent is None: `decide` names it)."""


def parse_command(wire: object) -> Command:
    """The command of a console's JSON; BadMove for an unknown one or an unknown field (the
    console's JSON may hold anything in `command`, a list or an object too)."""
    name = wire.get("command") if isinstance(wire, dict) else None
    if not isinstance(wire, dict) or not isinstance(name, str) or name not in _FIELDS:
        raise BadMove(f"command: one of {', '.join(_FIELDS)} is required")
    cls, fields = _FIELDS[name]
    unknown = sorted(str(key) for key in wire if key not in (*fields, "command"))
    if unknown:
        raise BadMove(f"{unknown[0]}: unknown field of {name}")
    command: Command = cls(**{field: wire.get(field) for field in fields})
    return command
