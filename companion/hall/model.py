"""The hall's registry: events, tables and seats, rebuilt from the journal at start; and the
change an action made, which the service publishes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.rules.coop_state import CoopState
from companion.rules.events import Event
from companion.rules.state import TableState


@dataclass
class Seat:
    name: str
    token: str


@dataclass
class Move:
    """One accepted action at a table: its journal records' move number and its events."""

    number: int
    author: str
    events: list[Event]
    before: TableState | CoopState
    reverted: bool = False


@dataclass
class Table:
    id: str
    event_id: str
    name: str
    ruleset: str
    roll_mode: str  # "hall" or "own"
    seats: list[Seat]
    status: str = "setup"  # setup | running | paused | ended
    state: TableState | CoopState | None = None  # the ruleset's own state
    seq: int = 0  # the journal's last sequence number for this table's stream
    moves: list[Move] = field(default_factory=list)
    waiting_since: float | None = None  # monotonic time a choice started waiting
    options: dict[str, Any] = field(default_factory=dict)  # the ruleset's set-up options

    @property
    def stream(self) -> str:
        return f"table:{self.id}"


@dataclass
class HallEvent:
    id: str
    name: str
    dice_mode: str = "random"  # random | balanced
    choice_seconds: int = 45
    tables: list[str] = field(default_factory=list)
    rolls: list[list[int]] = field(default_factory=list)
    deck: list[list[int]] = field(default_factory=list)
    seq: int = 0

    @property
    def stream(self) -> str:
        return f"event:{self.id}"


@dataclass
class Change:
    """What an action changed, for the listeners that publish it."""

    tables: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)


def table_changed(table: Table) -> Change:
    """One table and the event it belongs to (whose hall screen lists it)."""
    return Change(tables=[table.id], events=[table.event_id])
