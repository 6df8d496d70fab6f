"""The hall's registry: events, tables and seats, rebuilt from the journal at start; and the
change an action made, which the service publishes."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from companion.hall import join_codes
from companion.rules.registry import AnyRuleset, ruleset
from companion.rules.ruleset import HallTurn, Played, SharedTurn, Story, TimedChoices, Turns


@dataclass
class Seat:
    name: str
    token: str
    registered: int | None = None  # the player's registration number (None: a journal from before)

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


Move = Played[Any, Any]
"""One accepted action at a table: its journal records' move number, its author, its events
(the ruleset's own) and the state before it."""


@dataclass
class Undone:
    """A move the organizer undid, with the state it had made: the seat views tell the phones
    what the undo changed (from that state back to the move's `before`) and why."""

    move: Move
    after: Any  # the ruleset's state


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
    state: Any = None  # the ruleset's own state; None before the start
    seq: int = 0  # the journal's last sequence number for this table's stream
    moves: list[Move] = field(default_factory=list)
    waiting_since: float | None = None  # monotonic time a choice started waiting
    # (turn, seat, monotonic time) since when the seat's own roll is due (hall_roll.expire_roll)
    roll_waits: tuple[int, int, float] | None = None
    options: dict[str, Any] = field(default_factory=dict)  # the ruleset's set-up options
    card_sets: tuple[str, ...] = ("base",)  # the catalog's card sets the table plays
    undone: list[Undone] = field(default_factory=list)  # moves undone since the turn began
    # The states the table's views showed, by seq: (first seq, last seq, state), the latest
    # MOVES_KEPT; a move's `seq` is judged against these (play.py, `note_state`).
    states_by_seq: list[tuple[int, int, Any]] = field(default_factory=list)
    # The tables beside it by name, (left, right), "" at a chain's end, when its ruleset is
    # chained: kept by the hall from the event's table order (indexes.chain), never journalled.
    neighbours: tuple[str, ...] = ()
    # The set-up its ruleset made of its options and card sets (`setup`), with the two it was
    # made of: made again when either is replaced (a table's options change before its start).
    made_setup: tuple[Any, Any, Any] | None = field(default=None, repr=False, compare=False)

    @property
    def stream(self) -> str:
        return f"table:{self.id}"

    @property
    def rules(self) -> AnyRuleset:
        """The rules the table plays, from the registry by its ruleset's name."""
        return ruleset(self.ruleset)

    @property
    def setup(self) -> Any:
        """The table's set-up, its ruleset's own value (`Ruleset.table_setup`: a Machi Koro
        table's catalog of its card sets), which the rules, its views and its sheets take."""
        made = self.made_setup
        if made is None or made[0] is not self.options or made[1] is not self.card_sets:
            made = self.made_setup = (self.options, self.card_sets,
                                      self.rules.table_setup(self.options, self.card_sets))
        return made[2]

    @property
    def choosing(self) -> bool:
        """Whether a seat's choice is open and waits on the event's timer (the rules say)."""
        rules = self.rules
        return (self.state is not None and isinstance(rules, TimedChoices)
                and rules.choice_open(self.state))

    def story(self) -> Story[Any, Any]:
        """What the table's views are made from (the ruleset's views read it, never change it)."""
        return Story(names=tuple(seat.name for seat in self.seats), state=self.state,
                     moves=self.moves, undone=[(u.move, u.after) for u in self.undone],
                     running=self.status == "running", roll_mode=self.roll_mode,
                     setup=self.setup,
                     registered=self.registered,
                     neighbours=self.neighbours)

    @property
    def registered(self) -> tuple[int, ...]:
        """Each seat's registration number; () when a seat has none (a journal from before)."""
        numbers = [seat.registered for seat in self.seats]
        return tuple(n for n in numbers if n is not None) if None not in numbers else ()

    def move_to(self, state: Any) -> None:
        """The state a committed move (or event) made; a new turn forgets the undone moves of
        the last one, as the phones' lines of the last turn go."""
        rules = self.rules
        if (self.state is not None and isinstance(rules, Turns)
                and rules.turn(state) != rules.turn(self.state)):
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
        it when none is open. `fresh` starts it anew: a choice an undo reopened or a resumed
        table's gets a full window. A choice read from the journal (at a restart, or caught up
        from another process's records) does not: `table_memory.time_from_journal` then sets its
        clock back to its table's last record's time."""
        if not self.choosing:
            self.waiting_since = None
        elif fresh or self.waiting_since is None:
            self.waiting_since = time.monotonic()


@dataclass
class HallEvent:
    """The evening: its tables, its hall rolls (roll N is the event's turn N) and the clock of
    its turns (hall/clock.py), all rebuilt from the event's stream (replay.apply_event_record).
    Times are seconds since the epoch, from the records' `at`."""

    id: str
    name: str
    dice_mode: str = "random"  # random | balanced
    choice_seconds: int = 45
    # own-roll tables: the timer rolls for a seat whose turn waited choice_seconds for its roll
    seat_auto_roll: bool = False
    tables: list[str] = field(default_factory=list)
    rolls: list[list[int]] = field(default_factory=list)
    follow_ups: list[list[int]] = field(default_factory=list)  # each roll's follow-up dice ([]: none)
    deck: list[list[int]] = field(default_factory=list)
    undone_rolls: int = 0  # hall rolls taken back (hall_roll.undo_hall_roll); request ids count them
    last_roll_undone: bool = False  # only the last roll, once: none to undo until the next
    seq: int = 0
    # The clock of the turns (hall/clock.py): the organizer's schedule (`[first turn, seconds]`
    # steps; [] for none), whether the server rolls when a turn's time is up, a pause.
    schedule: list[list[int]] = field(default_factory=list)
    auto_roll: bool = False
    turn_started: float | None = None  # when the current turn's time began: its roll (or undo)
    paused_at: float | None = None  # when the clock was paused; None while it runs
    paused_after_roll: int | None = None  # the roll whose rules paused the clock (a 7), if they did
    paused_seconds: float = 0.0  # the current turn's time spent in pauses that ended
    ended: bool = False  # the organizer ended the event: no more rolls
    over: bool = False  # its tables' game is over (a ruleset's `hall_over`): no more rolls
    # The roll whose turn the organizer asked to end while its rules held it (hall/clock.py
    # `held_by`): the turn takes nothing more that would hold it (HallTurn.closing).
    closing_roll: int | None = None
    production_ended: bool = False  # the organizer ended the current turn's production early

    @property
    def stream(self) -> str:
        return f"event:{self.id}"

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    def hall_turn(self) -> HallTurn | None:
        """The event's latest roll as the rules see it (its number is the turn's); None
        before the first."""
        if not self.rolls:
            return None
        d1, d2 = self.rolls[-1]
        follow_up = self.follow_ups[-1] if len(self.follow_ups) == len(self.rolls) else []
        return HallTurn(len(self.rolls), (d1, d2), tuple(follow_up))


def follows_turn(rules: AnyRuleset) -> bool:
    """Whether the ruleset's tables take part in the event's shared turn (`SharedTurn`): their
    phones get the `turn` message, their moves are judged by it; the others play alone at
    their tables (hall/clock.py)."""
    return isinstance(rules, SharedTurn)


@dataclass
class Change:
    """What an action changed, for the listeners that publish it."""

    tables: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    revoked: list[str] = field(default_factory=list)  # seat tokens that stopped working
    turns: list[str] = field(default_factory=list)  # events whose turn changed (a roll, the clock)
    series: list[str] = field(default_factory=list)  # series whose state changed (hall/series.py)
    # table -> the seq its mover's answer showed (the answer carried the view): the mover's
    # connection need not hear that seq again, but it must hear any later one
    acked: dict[str, int] = field(default_factory=dict)
    # a hall roll or its undo: each table's change is all in its journal (nothing kept in
    # memory alone, such as a chain's neighbours), so another process may send its own phones'
    # tables by catching them up (web/sockets.py)
    hall_roll: bool = False


def table_changed(table: Table) -> Change:
    """One table and the event it belongs to (whose hall screen lists it)."""
    return Change(tables=[table.id], events=[table.event_id])
