"""The hall's state and the primitives its workers share: the events, tables, seat tokens and
series in memory, the organizer's key and PIN, the three locks (hall/locks.py: the organizer's,
one per stream, and the memory's, in that order), the journal, and the catch-up, look-ups and
publishing every action uses. The workers (play, hall_roll, clock, registry, series, the
tournament's) take this, never the `HallService` facade (hall/service.py) that composes them:
it imports no worker. One hook runs an action: `publish` first has a finished game of a series
report its result (`_report_to_series`), which does nothing here and which the service
overrides with the series worker's `report` (a bare `HallState` reports nothing).

Several processes (a shared journal: PostgreSQL, `shared`): the journal is the truth of each
table. Memory is a cache that catches up before it is used (`catch_up`, one `last_seq` read;
`catch_up_all`, one `last_seqs` read for many), finds tables and events other processes
created (`discover`: ids are dense, so one read of the next id's stream), and is reloaded
when an append finds the stream moved on (`StaleSequence`). With SQLite and one process none
of this runs (docs/scaling.md).
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from companion.hall import join_codes, table_memory
from companion.hall.checks import HallError
from companion.hall.indexes import chain, derived_from, index_tokens
from companion.hall.locks import StreamLocks
from companion.hall.model import Change, HallEvent, Table
from companion.hall.replay import apply_event_records, rebuild_event, rebuild_table
from companion.hall.series_model import Series
from companion.hall.tournament_model import Tournament
from companion.journal import Journal, Record, SqliteJournal, StaleSequence

log = logging.getLogger("companion")
Found = TypeVar("Found")

# Looks for tokens this process does not know (`find_tokens`: one query of every table's last
# seq, about 2.5 ms for 300 tables on PostgreSQL, on the process's one journal connection) a
# second at most, as a bucket that refills: a flood of made-up tokens beyond it gets the cheap
# look only (new tables), and cannot keep the journal's connection from the moves.
TOKEN_LOOKS_PER_SECOND = 20.0


class HallState:
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
        # Tournaments (hall/tournament.py) and series of games (hall/series.py: a Legacy
        # campaign), from their own streams: the service loads them with their workers.
        self.tournaments: dict[str, Tournament] = {}
        self.series: dict[str, Series] = {}
        self.series_tables: dict[str, tuple[str, int]] = {}  # table id -> (series id, game)
        self._load()

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
            if not fresh:
                return
            before = derived_from(table)
            whole = not table_memory.catch_up_table(table, fresh)
        if whole:  # the moves kept in memory cannot follow: the table from its whole stream
            self.rebuild(table, self.journal.read(table.stream))
        with self.memory:
            # what the indexes derive from the table, indexed anew when it changed (a seat
            # reassigned, a rename another process made): a hall roll on two processes
            # catches up hundreds of tables, and each look walks every token or table
            after = derived_from(table)
            if whole or after.tokens != before.tokens:
                index_tokens(self.tokens, self.codes, table)
            if whole or after.in_line != before.in_line:
                self.chain(self.events[table.event_id])

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
        """A series' game that ended reports its result before the listeners hear: nothing
        here, where no series worker is known; the service reports (hall/series.py)."""

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
