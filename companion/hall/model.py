"""The hall's registry: events, tables and seats, rebuilt from the journal at start; and the
change an action made, which the service publishes."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from companion.hall import join_codes
from companion.rules.coop.state import CoopState
from companion.rules.machi_koro.events import DiceRolled, Event
from companion.rules.machi_koro.state import Phase, TableState


@dataclass
class Seat:
    name: str
    token: str

    @property
    def join_path(self) -> str:
        """Where a phone sits down at this seat (`pages.join`): the QR of its join card."""
        return f"/j/{self.token}"

    @property
    def join_code(self) -> str:
        """The code to type instead of scanning, as printed (`K7M3-QX9A`): from the token."""
        return join_codes.printed(join_codes.join_code(self.token))

    @property
    def code_path(self) -> str:
        """The join path with the code for the token: the short URL a card prints to type."""
        return f"/j/{self.join_code}"


@dataclass
class Move:
    """One accepted action at a table: its journal records' move number and its events."""

    number: int
    author: str
    events: list[Event]
    before: TableState | CoopState


@dataclass
class Undone:
    """A move the organizer undid, with the state it had made: the seat views tell the phones
    what the undo changed (from that state back to the move's `before`) and why."""

    move: Move
    after: TableState | CoopState


# Undone moves a table keeps for the seat views: those since the current turn began, the latest.
UNDONE_KEPT = 16

# Moves a table keeps in memory: undo and the screens need the latest few; older ones stay in
# the journal (an undo that reaches past these rebuilds them from it). Each kept move holds the
# state before it: keeping every move grew a served hall by about 0.85 kB a move, for good.
MOVES_KEPT = 64


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
    undone: list[Undone] = field(default_factory=list)  # moves undone since the turn began

    @property
    def stream(self) -> str:
        return f"table:{self.id}"

    @property
    def choosing(self) -> bool:
        """Whether a seat's choice is open (a reroll, Radio Tower, TV Station, Business Center)."""
        return self.state is not None and self.state.phase in (Phase.REROLL, Phase.CHOOSE)

    def move_to(self, state: TableState | CoopState) -> None:
        """The state a committed move (or event) made; a new turn forgets the undone moves of
        the last one, as the phones' lines of the last turn go."""
        if self.state is not None and state.turn != self.state.turn:
            self.undone.clear()
        self.state = state

    def undo(self, move: Move) -> None:
        """Take back `move`, the latest (already off `moves`): the state before it comes back,
        and the move with the state it had made is kept for the seat views."""
        assert self.state is not None
        self.undone = [*self.undone[1 - UNDONE_KEPT:], Undone(move, self.state)]
        self.state = move.before

    def forget_old_moves(self) -> None:
        """Keep the latest MOVES_KEPT moves in memory (MOVES_KEPT's comment)."""
        del self.moves[:-MOVES_KEPT]

    @property
    def forgot_moves(self) -> bool:
        """Whether older moves than the kept ones are in the journal (moves count from 1, and
        an undo takes the last one off, so the kept ones are consecutive)."""
        return bool(self.moves) and self.moves[0].number > 1

    def time_choice(self, fresh: bool = False) -> None:
        """Start the clock of a choice that opened and keep it while the choice waits, or stop
        it when none is open. `fresh` starts it anew: a choice an undo reopened, a resumed
        table's or one open at a restart gets a full window."""
        if not self.choosing:
            self.waiting_since = None
        elif fresh or self.waiting_since is None:
            self.waiting_since = time.monotonic()


@dataclass
class HallEvent:
    id: str
    name: str
    dice_mode: str = "random"  # random | balanced
    choice_seconds: int = 45
    tables: list[str] = field(default_factory=list)
    rolls: list[list[int]] = field(default_factory=list)
    deck: list[list[int]] = field(default_factory=list)
    undone_rolls: int = 0  # hall rolls taken back (hall_roll.undo_hall_roll); request ids count them
    last_roll_undone: bool = False  # only the last roll, once: none to undo until the next
    seq: int = 0

    @property
    def stream(self) -> str:
        return f"event:{self.id}"


@dataclass
class Change:
    """What an action changed, for the listeners that publish it."""

    tables: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    revoked: list[str] = field(default_factory=list)  # seat tokens that stopped working


def events_since_roll(table: Table) -> list[Event]:
    """The table's events from its latest roll (not a reroll) on, or all of them before any
    roll: what the screens show as the last roll's coin movements."""
    found: list[Event] = []
    for move in reversed(table.moves):
        for event in reversed(move.events):
            found.append(event)
            if isinstance(event, DiceRolled) and not event.reroll:
                return found[::-1]
    return found[::-1]


def parties(table: Table, source: int | str, target: int | str) -> dict[str, Any]:
    """A ledger entry's two parties by account (a seat, "bank", "assessor") and by name."""
    def name(account: int | str) -> str:
        return account if isinstance(account, str) else table.seats[account].name

    return {"from": name(source), "to": name(target), "from_seat": source, "to_seat": target}


def table_changed(table: Table) -> Change:
    """One table and the event it belongs to (whose hall screen lists it)."""
    return Change(tables=[table.id], events=[table.event_id])
