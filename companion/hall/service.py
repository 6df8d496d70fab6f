"""The hall service: takes an action, checks who may make it, asks the rules, commits the
journal, evolves the state, then tells its listeners what changed (DESIGN.md, one move).

`HallService` is the facade the web layer, the CLI and printing call: the hall's state and
the primitives every action shares (hall/state.py: memory, locks, catch-up, publishing) with
the actions on top, each delegated to its worker with the state: `registry` (the organizer's
events, tables and seats), `play` (a seat's move, the organizer's corrections, and the commit
every move takes), `hall_roll` (the hall's roll and the defaults of choices that waited too
long), `clock` (the event's clock) and `series` (a won game's report to its series). The
workers take the state, never this facade, so none of them imports it (tests/test_hall_layers.py).
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from companion.hall import clock, hall_roll, play, registry, views
from companion.hall import pin as hall_pin
from companion.hall import series as hall_series
from companion.hall.checks import HallError, invalid
from companion.hall.model import Change, HallEvent, Table
from companion.hall.series_model import load as load_series
from companion.hall.series_model import table_index
from companion.hall.state import HallState
from companion.hall.tournament_journal import load_tournaments
from companion.journal import Journal, StaleSequence

log = logging.getLogger("companion")


class HallService(HallState):
    """The hall's actions over its state (`HallState`): each delegates to its worker, handing
    it the state. Its names are the hall's API (web/, cli.py, printing, tests)."""

    def __init__(self, journal: Journal, shared: bool | None = None) -> None:
        super().__init__(journal, shared)
        # Tournaments (hall/tournament.py), rebuilt from their `tournament:EVENT_ID` streams.
        self.tournaments = load_tournaments(self.journal)
        # Series of games (hall/series.py: a Legacy campaign), from their `series:ID` streams;
        # a series' table won before a stop and not recorded yet is recorded now, once.
        self.series = load_series(self.journal)
        self.series_tables = table_index(self.series.values())
        hall_series.report_all(self)

    def _report_to_series(self, change: Change) -> None:
        """A table of a series whose game ended reports its result to the series before the
        listeners hear (`HallState.publish`), and the change names the series and its event."""
        ours = [table for table in change.tables if hall_series.may_be_a_game(self, table)]
        if not ours:
            return
        try:
            reported = hall_series.report(self, ours)
        except Exception:
            log.exception("reporting %s to their series failed", ours)
            return
        with self.lock:
            events = {self.series[series_id].event_id for series_id in reported}
        change.events += [event for event in sorted(events) if event not in change.events]
        change.series += [series_id for series_id in reported if series_id not in change.series]

    # ------------------------------------------------------------ views as they stand

    def seat_view(self, table: Table, seat: int) -> dict[str, Any]:
        """A seat's view now, with its event's turn timer; built under the memory's lock, as
        every view (never the organizer's: a move builds its answer's view holding its table)."""
        with self.memory:
            return views.seat_view(table, seat, self.choice_seconds(table))

    def view_copies(self, table_ids: Iterable[str]) -> list[tuple[Table, int]]:
        """The tables as their seat views read them, each with its event's turn timer: copies
        (`view_copy`) taken in one short hold of the lock, so that a publisher builds and sends
        the views of hundreds of tables without it, and without taking it again per table."""
        with self.memory:
            return [(view_copy(table), self.choice_seconds(table))
                    for table in (self.tables[table_id] for table_id in table_ids)]

    def hall_view(self, event: HallEvent) -> dict[str, Any]:
        """An event's hall view now (its screens and the organizer's console)."""
        with self.memory:
            return views.hall_view(event, self.tables_of(event))

    def turn_message(self, event_id: str) -> views.EncodedView | None:
        """The `turn` message for the phones of the event's tables, its JSON made once; None
        when the event has no turn yet or its phones need none (`clock.turn_shown`)."""
        with self.memory:
            event = self.events.get(event_id)
            return None if event is None else views.turn_message(event, self.tables_of(event))

    # ------------------------------------------------------------ organizer: registry

    def create_event(self, name: Any, dice_mode: Any = "random") -> HallEvent:
        return registry.create_event(self, name, dice_mode)

    def update_event(self, event_id: Any, settings: dict[str, Any]) -> HallEvent:
        return registry.update_event(self, event_id, settings)

    def create_table(
        self, event_id: Any, name: Any, players: Any, ruleset: Any = "machi-koro",
        roll_mode: Any = "hall", options: Any = None, card_sets: Any = None,
    ) -> Table:
        return registry.create_table(self, event_id, name, players, ruleset, roll_mode, options,
                                     card_sets)

    def seat_players(
        self, event_id: Any, players: Any, ruleset: Any = "machi-koro", roll_mode: Any = "hall",
        table_size: Any = None, name_prefix: Any = "Table", options: Any = None,
        card_sets: Any = None, table_options: Any = None,
    ) -> list[Table]:
        return registry.seat_players(self, event_id, players, ruleset, roll_mode, table_size,
                                     name_prefix, options, card_sets, table_options)

    def rename_table(self, table_id: Any, name: Any) -> Table:
        return registry.rename_table(self, table_id, name)

    def set_table_options(self, table_id: Any, options: Any) -> Table:
        return registry.set_options(self, table_id, options)

    def set_status(self, table_id: Any, action: str) -> Table:
        return registry.set_status(self, table_id, action)

    def add_player(self, table_id: Any, name: Any) -> Table:
        return registry.add_player(self, table_id, name)

    def remove_player(self, table_id: Any, seat: Any) -> Table:
        return registry.remove_player(self, table_id, seat)

    def reassign_seat(self, table_id: Any, seat: Any, name: Any = None) -> Table:
        return registry.reassign_seat(self, table_id, seat, name)

    # ------------------------------------------------------------ play

    def move(self, token: Any, request_id: Any, move: Any, seq: Any = None,
             view: bool = False) -> dict[str, Any]:
        return play.move(self, token, request_id, move, seq, view)

    def adjust(self, table_id: Any, seat: Any, amount: Any, reason: Any) -> Table:
        return play.adjust(self, table_id, seat, amount, reason)

    def undo(self, table_id: Any) -> Table:
        return play.undo(self, table_id)

    def staff_move(self, table_id: Any, move: Any) -> Table:
        return play.staff_move(self, table_id, move)

    def roll_for_seat(self, table_id: Any) -> Table:
        return play.roll_for_seat(self, table_id)

    def end_turn_for_seat(self, table_id: Any, seat: Any) -> Table:
        return play.end_turn_for_seat(self, table_id, seat)

    def hall_roll(self, event_id: Any, dice: Any = None, confirm: Any = None,
                  now: datetime | None = None, follow_up: Any = None) -> dict[str, Any]:
        return hall_roll.hall_roll(self, event_id, dice, confirm, now, follow_up)

    def undo_hall_roll(self, event_id: Any) -> dict[str, Any]:
        return hall_roll.undo_hall_roll(self, event_id)

    def expire_choices(self, now: float | None = None) -> list[str]:
        """The timer's round (server.choice_timer; several processes: only the holder of the
        timer's lease): the defaults of choices that waited too long, and the server's roll
        for every event whose turn's time is up with auto-roll on (`roll_when_due`)."""
        changed = hall_roll.expire_choices(self, now)
        self.roll_when_due()
        return changed

    def roll_when_due(self, now: float | None = None) -> list[str]:
        """The automatic rolls due at `now` (seconds since the epoch; by default now)."""
        return hall_roll.roll_when_due(self, now)

    # ------------------------------------------------------------ organizer: the event's clock

    def set_clock(self, event_id: Any, schedule: Any = clock.MISSING,
                  auto_roll: Any = clock.MISSING) -> HallEvent:
        return clock.set_clock(self, event_id, schedule, auto_roll)

    def pause_event(self, event_id: Any) -> HallEvent:
        return clock.pause(self, event_id)

    def resume_event(self, event_id: Any) -> HallEvent:
        return clock.resume(self, event_id)

    def end_production(self, event_id: Any) -> HallEvent:
        return clock.end_production(self, event_id)

    def end_event(self, event_id: Any) -> HallEvent:
        return clock.end(self, event_id)

    # ------------------------------------------------------------ organizer: PIN

    @property
    def organizer_pin_set(self) -> bool:
        return bool(self.pin_record())

    def pin_record(self) -> dict[str, Any] | None:
        """The PIN's stored hash as the journal has it (set, changed or cleared on any process),
        None when no PIN is set. Read here, on the server's loop; comparing a typed PIN with it
        (`pin.pin_matches`, slow on purpose) needs nothing of the hall, so it may run in a
        native thread without a lock or a journal connection."""
        self.catch_up_hall()
        return self.organizer_pin

    def set_organizer_pin(self, pin: Any) -> bool:
        """Set the PIN that signs in a second device (stored hashed), or clear it with None. A
        new or cleared PIN ends the consoles the old one signed in (web/auth.py: a session
        keeps the salt of the PIN that opened it)."""
        if pin is None:
            record: dict[str, Any] = {}
        else:
            problem = hall_pin.check_pin_format(pin)
            if problem:
                raise invalid(problem)
            record = hall_pin.hash_pin(pin)
        self._append_hall("organizer_pin", record, "the PIN was changed")
        return self.organizer_pin_set

    def check_organizer_pin(self, pin: Any) -> bool:
        """Whether `pin` is the PIN as the journal has it (the web layer reads `pin_record` on
        its loop and compares off it: web/organizer.py)."""
        return hall_pin.pin_matches(self.pin_record(), pin)

    def sign_out_others(self) -> int:
        """End every console session signed in before now (a lost phone, a borrowed laptop):
        one journal record, seen by every process. The new epoch, for the console that asked
        (it stays signed in)."""
        self._append_hall("organizer_signout", {}, "the consoles were signed out")
        return self.signout_epoch

    def _append_hall(self, kind: str, data: dict[str, Any], what: str) -> None:
        with self.lock:
            for attempt in range(2):
                try:
                    self.journal.append("hall", self.hall_seq, [(kind, data)], author="organizer")
                    break
                except StaleSequence:
                    # another process wrote the hall's stream (a PIN, a first key) since this
                    # one read it: take the stream as it is now, and write once more
                    records = self.journal.read("hall")
                    with self.memory:
                        self._load_hall(records)
                    if attempt == 1:
                        raise HallError(play.OUT_OF_STEP, f"{what} on another server meanwhile: "
                                        "try again") from None
            records = self.journal.read("hall")
            with self.memory:
                self._load_hall(records)


def view_copy(table: Table) -> Table:
    """A copy of a table that its views can be built from while the table moves on: its
    lists copied (the states and kept moves are never changed once made, but for the last
    move's facts, which a catch-up may still add to), the states_by_seq left out."""
    copied = copy.copy(table)
    copied.seats = [copy.copy(seat) for seat in table.seats]
    copied.moves = list(table.moves)
    if copied.moves:
        last = copied.moves[-1] = copy.copy(copied.moves[-1])
        last.facts = list(last.facts)
    copied.undone = list(table.undone)
    copied.states_by_seq = []
    copied.options = dict(table.options)
    copied.made_setup = (copied.options, copied.card_sets, table.setup)  # the same set-up
    return copied
