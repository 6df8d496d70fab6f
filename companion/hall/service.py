"""The hall service: takes an action, checks who may make it, asks the rules, commits the
journal, evolves the state, then tells its listeners what changed (DESIGN.md, one move).

`HallService` holds the hall's state (events, tables, seat tokens, the organizer's key and
PIN) and its locks (hall/locks.py: the organizer's, one per stream, and the memory's; a move
holds only its table's across its journal round trip, so moves at different tables do not wait
for each other); it rebuilds that state from the journal at start. The actions live with
their kind: `registry` (the organizer's events, tables and seats), `play` (a seat's move, the
organizer's corrections, and the commit every move takes) and `hall_roll` (the hall's roll and
the defaults of choices that waited too long).

Several processes (a shared journal: PostgreSQL, `shared`): the journal is the truth of each
table. Memory is a cache that catches up before it is used (`catch_up`, one `last_seq` read;
`catch_up_all`, one `last_seqs` read for many), finds tables and events other processes
created (`discover`: ids are dense, so one read of the next id's stream), and is reloaded
when an append finds the stream moved on (`StaleSequence`). With SQLite and one process none
of this runs (docs/scaling.md).
"""

from __future__ import annotations

import copy
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any, TypeVar

from companion.hall import clock, hall_roll, join_codes, play, registry, table_memory, views
from companion.hall import pin as hall_pin
from companion.hall.checks import HallError, invalid
from companion.hall.indexes import chain, index_tokens
from companion.hall.locks import StreamLocks
from companion.hall.model import Change, HallEvent, Table
from companion.hall.replay import apply_event_records, rebuild_event, rebuild_table
from companion.journal import Journal, Record, SqliteJournal, StaleSequence

log = logging.getLogger("companion")
Found = TypeVar("Found")

# Looks for tokens this process does not know (`find_tokens`: one query of every table's last
# seq, about 2.5 ms for 300 tables on PostgreSQL, on the process's one journal connection) a
# second at most, as a bucket that refills: a flood of made-up tokens beyond it gets the cheap
# look only (new tables), and cannot keep the journal's connection from the moves.
TOKEN_LOOKS_PER_SECOND = 20.0


class HallService:
    """All tables of all events on one journal. `lock` is the organizer's (registry changes and
    hall rolls), `streams` has one lock per table or event stream (its writers, one at a time),
    `memory` guards the tables' and indexes' memory: hall/locks.py, in that order."""

    def __init__(self, journal: Journal, shared: bool | None = None) -> None:
        self.journal = journal
        # Whether other processes may write the same journal (anything but a SQLite file).
        self.shared = not isinstance(journal, SqliteJournal) if shared is None else shared
        self._looks = TOKEN_LOOKS_PER_SECOND  # the token looks left now (`_may_look`)
        self._looked = time.monotonic()
        self._looks_guard = threading.Lock()
        self.lock = threading.RLock()
        self.streams = StreamLocks()
        self.memory = threading.RLock()
        self.events: dict[str, HallEvent] = {}
        self.tables: dict[str, Table] = {}
        self.tokens: dict[str, tuple[str, int]] = {}
        self.codes: dict[str, set[str]] = {}  # join code -> its tokens (two only by a rare clash)
        self.refused: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()
        self.failing_defaults: dict[str, int] = {}  # table id -> seq its failed default was logged at
        self.failing_rolls: dict[str, int] = {}  # table id -> seq its left-out hall roll was logged at
        self.listeners: list[Callable[[Change], None]] = []
        self.organizer_key = ""
        self.organizer_pin: dict[str, Any] | None = None  # the hash of the console PIN
        self.signout_epoch = 0  # consoles signed in before the latest "sign out others" end
        self.hall_seq = 0  # the hall stream's seq this process has read (several processes)
        self._load()
        # Tournaments (hall/tournament.py), rebuilt from their `tournament:EVENT_ID` streams.
        from companion.hall.tournament import Tournament, load_tournaments
        self.tournaments: dict[str, Tournament] = load_tournaments(self.journal)
        # Series of games (hall/series.py: a Legacy campaign), from their `series:ID` streams;
        # a series' table won before a stop and not recorded yet is recorded now, once.
        from companion.hall import series as hall_series
        self.series: dict[str, hall_series.Series] = hall_series.load(self.journal)
        self.series_tables: dict[str, tuple[str, int]] = hall_series.table_index(
            self.series.values())
        hall_series.report_all(self)

    def _load(self) -> None:
        last_at: dict[str, str] = {}
        for stream in self.journal.streams():
            records = self.journal.read(stream)
            if stream == "hall":
                self._load_hall(records)
            elif stream.startswith("event:"):
                event = rebuild_event(records)
                if event is not None:
                    self.events[event.id] = event
            elif stream.startswith("table:"):
                table = rebuild_table(records)
                table.forget_old_moves()
                self.tables[table.id] = table
                last_at[table.id] = records[-1].at
        for table in sorted(self.tables.values(), key=lambda t: int(t.id)):
            self.events[table.event_id].tables.append(table.id)
            index_tokens(self.tokens, self.codes, table)
            table_memory.time_from_journal(table, last_at[table.id])
        self.rechain(self.events)
        if not self.organizer_key:
            self._first_key()

    def _load_hall(self, records: list[Record]) -> None:
        self.organizer_key = records[0].data["key"]
        pins = [r.data for r in records if r.kind == "organizer_pin"]
        self.organizer_pin = (pins[-1] or None) if pins else None
        self.signout_epoch = sum(1 for r in records if r.kind == "organizer_signout")
        self.hall_seq = records[-1].seq

    def catch_up_hall(self) -> None:
        """The hall's own stream (the PIN, the sign-out of other consoles) as the journal has
        it: several processes, one `last_seq` read and, if another process changed it, one
        read of the (short) stream."""
        if self.shared and self.journal.last_seq("hall") != self.hall_seq:
            records = self.journal.read("hall")
            with self.memory:
                self._load_hall(records)

    def _first_key(self) -> None:
        """The organizer key of a new journal: the first record of the hall's stream. Two
        processes starting on a new database both try; the loser reads the winner's key."""
        key = secrets.token_urlsafe(16)
        try:
            self.hall_seq = self.journal.append("hall", 0, [("organizer_key", {"key": key})],
                                                author="server").last_seq
            self.organizer_key = key
        except StaleSequence:
            self._load_hall(self.journal.read("hall"))

    # ------------------------------------------------------------ the journal as the truth

    def catch_up(self, table: Table) -> Table:
        """The table as its journal has it (several processes: one `last_seq` read, and the
        records another process appended applied); with one process, the table as it is."""
        if self.shared and self.journal.last_seq(table.stream) != table.seq:
            self.reload(table)
        return table

    def reload(self, table: Table) -> Table:
        """Apply what the table's journal holds beyond its seq (another process's appends),
        in place: whoever holds the table sees it. Its seat tokens are indexed anew."""
        self.advance(table, self.journal.read(table.stream, table.seq))
        return table

    def advance(self, table: Table, records: list[Record]) -> None:
        """Apply records of the table's stream read from the journal (read without any lock),
        under the memory's lock, those beyond its seq only: a table caught up twice at once
        (two readers, or a reader and its own writer) applies each record once."""
        with self.memory:
            fresh = [record for record in records if record.seq > table.seq]
            whole = not table_memory.catch_up_table(table, fresh)
        if whole:  # the moves kept in memory cannot follow: the table from its whole stream
            self.rebuild(table, self.journal.read(table.stream))
        with self.memory:
            index_tokens(self.tokens, self.codes, table)
            self.chain(self.events[table.event_id])  # a rename another process made

    def rebuild(self, table: Table, records: list[Record]) -> None:
        """The table from its whole stream `records`, read without a lock: not when the table
        moved past them meanwhile (a commit here after the read), which would roll it back."""
        with self.memory:
            if not records or records[-1].seq >= table.seq:
                table_memory.rebuild_in_place(table, records)

    def hold(self, *streams: str) -> Any:
        """The stream locks of `streams` (hall/locks.py), for a block that decides and commits
        there."""
        return self.streams.hold(streams)

    def catch_up_event(self, event: HallEvent) -> HallEvent:
        """The event as its journal has it (its settings, rolls and deck), as `catch_up`."""
        if self.shared and self.journal.last_seq(event.stream) != event.seq:
            self._reload_event(event)
        return event

    def _reload_event(self, event: HallEvent) -> None:
        self.advance_event(event, self.journal.read(event.stream, event.seq))

    def advance_event(self, event: HallEvent, records: list[Record]) -> None:
        """Apply records of the event's stream read from the journal, those beyond its seq
        only (as `advance`: a move's catch-up and a roll's own may meet)."""
        with self.memory:
            apply_event_records(event, [r for r in records if r.seq > event.seq])

    def catch_up_all(self, tables: Iterable[Table] = (),
                     events: Iterable[HallEvent] = ()) -> bool:
        """Catch up many tables and events at once (several processes): one read of all their
        streams' last seqs (`Journal.last_seqs`, one query), then the records of only those
        another process moved on (the tables': `Journal.read_after`, one query). Also looks
        whether another process created the next event or table, and if so `discover`s them.
        Whether anything moved or appeared."""
        if not self.shared:
            return False
        tables, events = list(tables), list(events)
        with self.memory:
            following = (f"event:{len(self.events) + 1}", f"table:{len(self.tables) + 1}")
        seqs = self.journal.last_seqs([*following, *(e.stream for e in events),
                                       *(t.stream for t in tables)])
        moved = False
        if any(seqs[stream] for stream in following):
            moved = self.discover()
        for event in events:
            if seqs[event.stream] != event.seq:
                self._reload_event(event)
                moved = True
        behind = [table for table in tables if seqs[table.stream] != table.seq]
        if behind:  # one read of all their new records (a hall roll on two processes: every
            # table the other process moved; a read each held the roll, issue 15), no lock held
            records = self.journal.read_after({table.stream: table.seq for table in behind})
            for table in behind:
                self.advance(table, records[table.stream])
        return moved or bool(behind)

    def discover(self) -> bool:
        """Load the events and tables other processes created since (several processes only);
        whether there were any. Ids are dense (the next id is taken by appending to its stream
        at seq 0), so a look at the next id's stream finds them. An event is journalled before
        its tables, so a table whose event is not known yet (both created since the events
        were looked at) sends this back to the events."""
        if not self.shared:
            return False
        with self.lock:
            found = self._discover()
            if found:
                self.rechain(self.events)
            return found

    def _discover(self) -> bool:
        found = False
        with self.lock:
            while True:
                found = self._discover_events() or found
                while records := self.journal.read(f"table:{len(self.tables) + 1}"):
                    table = rebuild_table(records)
                    if table.event_id not in self.events:
                        break  # its event came after the look at the events: look again
                    table.forget_old_moves()
                    table_memory.time_from_journal(table, records[-1].at)
                    with self.memory:
                        self.tables[table.id] = table
                        self.events[table.event_id].tables.append(table.id)
                        index_tokens(self.tokens, self.codes, table)
                    found = True
                else:
                    return found
                if not self._discover_events():
                    # cannot happen (an event's first record commits before its tables'): the
                    # table waits for the next look rather than failing this one
                    log.error("table %s names event %s, which the journal does not have",
                              table.id, table.event_id)
                    return found
                found = True

    def _discover_events(self) -> bool:
        found = False
        while records := self.journal.read(f"event:{len(self.events) + 1}"):
            event = rebuild_event(records)
            if event is None:
                break
            with self.memory:
                self.events[event.id] = event
            found = True
        return found

    def sweep(self) -> None:
        """Catch up every event and table (several processes), with one read of their last
        seqs: the timer worker's round."""
        if not self.shared:
            return
        self.discover()
        with self.memory:
            tables, events = list(self.tables.values()), list(self.events.values())
        self.catch_up_all(tables, events)

    def publish(self, change: Change) -> None:
        """Tell the listeners what an action changed; called only after its commit. A listener
        that fails is logged and the others still hear: the action stands in the journal, and
        its answer must not say it failed. A table of a series whose game ended reports its
        result to the series first (hall/series.py, `report`; several processes: also a series
        another process made after this one read the series)."""
        if change.tables and (self.series_tables or self.shared):
            self._report_to_series(change)
        for listener in list(self.listeners):
            try:
                listener(change)
            except Exception:
                log.exception("publishing %s failed", change)

    def _report_to_series(self, change: Change) -> None:
        from companion.hall import series as hall_series
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

    # ------------------------------------------------------------ look-ups

    def event(self, event_id: Any) -> HallEvent:
        return self._known(self.events, event_id, "event")

    def table(self, table_id: Any) -> Table:
        return self._known(self.tables, table_id, "table")

    def _known(self, known: dict[str, Found], key: Any, what: str) -> Found:
        """known[key]; when it is not there, once more after `discover` (another process may
        have made it), else HallError `{what}/unknown`."""
        found = known.get(str(key))
        if found is None and self.discover():
            found = known.get(str(key))
        if found is None:
            raise HallError(f"{what}/unknown", f"there is no {what} {key!r}")
        return found

    def tables_of(self, event: HallEvent) -> list[Table]:
        return [self.tables[t] for t in event.tables]

    def chain(self, event: HallEvent) -> list[str]:
        """The neighbours of the event's chained tables set anew (`indexes.chain`); the ids of
        the tables whose neighbours changed. Under the memory's lock."""
        return chain(self.tables_of(event))

    def rechain(self, event_ids: Iterable[str]) -> list[str]:
        """`chain` the events (under the memory's lock); the tables whose neighbours changed."""
        with self.memory:
            return [table_id for event_id in sorted(set(event_ids))
                    for table_id in self.chain(self.events[event_id])]

    def choice_seconds(self, table: Table) -> int:
        """The turn timer of the table's event (the organizer may change it)."""
        return self.events[table.event_id].choice_seconds

    def seat_for(self, token: Any, catch_up: bool = True) -> tuple[Table, int]:
        """The table and seat a token opens. Several processes: the table caught up first (a
        seat reassigned on another process no longer opens with its old token; not with
        `catch_up` False, for a caller whose append checks the seq anyway), and a token not
        known here looked for in the journal: new tables, and seats reassigned elsewhere
        (`find_tokens`)."""
        found = self.seat_of(token)
        if self.shared and isinstance(token, str):
            if found is not None and not catch_up:
                return self.tables[found[0]], found[1]
            if found is not None:
                self.catch_up(self.tables[found[0]])
            else:
                self.find_tokens()
            found = self.seat_of(token)
        if found is None:
            raise HallError("seat/unknown_token", "this join link is not (or no longer) valid")
        return self.tables[found[0]], found[1]

    def seat_of(self, token: Any) -> tuple[str, int] | None:
        """(table id, seat) of a token as this process knows it now; no journal read."""
        if not isinstance(token, str):
            return None
        with self.memory:  # a reassignment re-indexes the table's tokens under it
            return self.tokens.get(token)

    def find_tokens(self) -> None:
        """The seat tokens of every table as the journal has them, for a token not known here
        (several processes): one query (`catch_up_all`: the last seq of every table's stream
        and of the next ids'), and reads of only the tables that moved on or appeared. Events
        hold no tokens. Unknown tokens are mostly made-up ones: beyond TOKEN_LOOKS_PER_SECOND
        only new tables are looked for (`discover`, two reads)."""
        if not self._may_look():
            self.discover()
            return
        with self.memory:
            tables = list(self.tables.values())
        self.catch_up_all(tables)

    def _may_look(self) -> bool:
        now = time.monotonic()
        with self._looks_guard:
            self._looks = min(TOKEN_LOOKS_PER_SECOND,
                              self._looks + (now - self._looked) * TOKEN_LOOKS_PER_SECOND)
            self._looked = now
            if self._looks < 1:
                return False
            self._looks -= 1
            return True

    def token_for_code(self, typed: Any) -> str:
        """The token of the one seat whose join code `typed` reads as (join_codes.read_code).
        A code two seats share opens neither, so no phone takes another's seat: their QR codes
        still work. The web layer limits the guesses."""
        code = join_codes.read_code(typed) if isinstance(typed, str) else None
        with self.memory:  # a copy: a reassignment may change the index meanwhile
            tokens = set(self.codes.get(code, ())) if code else set()
        if len(tokens) > 1:
            raise HallError("seat/shared_code", "two seats share this join code: scan the card's QR")
        if not tokens:
            raise HallError("seat/unknown_code", "no seat has this join code")
        return next(iter(tokens))

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
