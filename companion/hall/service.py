"""The hall service: takes an action, checks who may make it, asks the rules, commits the
journal, evolves the state, then tells its listeners what changed (DESIGN.md, one move)."""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.hall import dice as hall_dice
from companion.hall import pin as hall_pin
from companion.hall import seating
from companion.hall.model import HallEvent, Move, Seat, Table
from companion.hall.replay import apply_record, rebuild_table, rules_of
from companion.hall.shuffle import secure_shuffle
from companion.journal import AppendRequest, Journal
from companion.rules import rulesets
from companion.rules.catalog import Catalog, load_catalog
from companion.rules.codec import encode_event
from companion.rules.errors import RuleError
from companion.rules.events import Event
from companion.rules.moves import EndTurn, Roll
from companion.rules.state import Phase, TableState

RULESETS = tuple(rulesets.REGISTRY)
ROLL_MODES = ("hall", "own")
NAME_LIMIT = 40
REFUSALS_KEPT = 500


class HallError(Exception):
    """An action the hall refuses; `code` is stable, `status` the HTTP status it maps to."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


@dataclass
class Change:
    """What an action changed, for the listeners that publish it."""

    tables: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)


def clean_name(name: Any, what: str = "name") -> str:
    if not isinstance(name, str) or not name.strip():
        raise HallError("request/invalid", f"a {what} is required", 400)
    name = " ".join(name.split())
    if len(name) > NAME_LIMIT:
        raise HallError("request/invalid", f"a {what} has at most {NAME_LIMIT} characters", 400)
    return name


class HallService:
    """All tables of all events on one journal; one lock makes every action atomic."""

    def __init__(self, journal: Journal, catalog: Catalog | None = None) -> None:
        self.journal = journal
        self.catalog = catalog or load_catalog()
        self.lock = threading.RLock()
        self.events: dict[str, HallEvent] = {}
        self.tables: dict[str, Table] = {}
        self.tokens: dict[str, tuple[str, int]] = {}
        self.refused: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()
        self.listeners: list[Callable[[Change], None]] = []
        self.organizer_key = ""
        self.organizer_pin: dict[str, Any] | None = None  # the hash of the console PIN
        self._load()

    # ------------------------------------------------------------ start

    def _load(self) -> None:
        for stream in self.journal.streams():
            records = self.journal.read(stream)
            if stream == "hall":
                self.organizer_key = records[0].data["key"]
                pins = [r.data for r in records if r.kind == "organizer_pin"]
                self.organizer_pin = (pins[-1] or None) if pins else None
            elif stream.startswith("event:"):
                self._load_event(records)
            elif stream.startswith("table:"):
                table = rebuild_table(records, self.catalog)
                self.tables[table.id] = table
        for table in sorted(self.tables.values(), key=lambda t: int(t.id)):
            self.events[table.event_id].tables.append(table.id)
            self._index_tokens(table)
            if table.state is not None and table.state.phase in (Phase.REROLL, Phase.CHOOSE):
                table.waiting_since = time.monotonic()  # a choice open at a restart gets a full window
        if not self.organizer_key:
            key = secrets.token_urlsafe(16)
            self.journal.append("hall", 0, [("organizer_key", {"key": key})], author="server")
            self.organizer_key = key

    def _load_event(self, records: list[Any]) -> None:
        event: HallEvent | None = None
        for record in records:
            data = record.data
            if record.kind == "event_created":
                event = HallEvent(data["id"], data["name"], data["dice_mode"])
            elif event is not None:
                self._apply_event_record(event, record.kind, data)
            if event is not None:
                event.seq = record.seq
        if event is not None:
            self.events[event.id] = event

    @staticmethod
    def _apply_event_record(event: HallEvent, kind: str, data: dict[str, Any]) -> None:
        if kind == "settings":
            event.dice_mode = data.get("dice_mode", event.dice_mode)
            event.choice_seconds = data.get("choice_seconds", event.choice_seconds)
        elif kind == "deck_shuffled":
            event.deck = [list(pair) for pair in data["deck"]]
        elif kind == "hall_rolled":
            event.rolls.append(list(data["dice"]))
            if data.get("from_deck"):
                event.deck.pop(0)

    def _index_tokens(self, table: Table) -> None:
        for token in [t for t, (tid, _) in self.tokens.items() if tid == table.id]:
            del self.tokens[token]
        for seat, entry in enumerate(table.seats):
            self.tokens[entry.token] = (table.id, seat)

    # ------------------------------------------------------------ look-ups

    def event(self, event_id: Any) -> HallEvent:
        event = self.events.get(str(event_id))
        if event is None:
            raise HallError("event/unknown", f"there is no event {event_id!r}", 404)
        return event

    def table(self, table_id: Any) -> Table:
        table = self.tables.get(str(table_id))
        if table is None:
            raise HallError("table/unknown", f"there is no table {table_id!r}", 404)
        return table

    def seat_for(self, token: Any) -> tuple[Table, int]:
        found = self.tokens.get(token) if isinstance(token, str) else None
        if found is None:
            raise HallError("seat/unknown_token", "this join link is not (or no longer) valid", 403)
        return self.tables[found[0]], found[1]

    # ------------------------------------------------------------ organizer: set-up

    def create_event(self, name: Any, dice_mode: Any = "random") -> HallEvent:
        name = clean_name(name, "event name")
        if dice_mode not in ("random", "balanced"):
            raise HallError("request/invalid", "dice_mode is random or balanced", 400)
        with self.lock:
            event = HallEvent(str(len(self.events) + 1), name, dice_mode)
            data = {"id": event.id, "name": name, "dice_mode": dice_mode}
            event.seq = self.journal.append(event.stream, 0, [("event_created", data)],
                                            author="organizer").last_seq
            self.events[event.id] = event
        self._publish(Change(events=[event.id]))
        return event

    def update_event(self, event_id: Any, settings: dict[str, Any]) -> HallEvent:
        data: dict[str, Any] = {}
        if "dice_mode" in settings:
            if settings["dice_mode"] not in ("random", "balanced"):
                raise HallError("request/invalid", "dice_mode is random or balanced", 400)
            data["dice_mode"] = settings["dice_mode"]
        if "choice_seconds" in settings:
            seconds = settings["choice_seconds"]
            if not isinstance(seconds, int) or isinstance(seconds, bool) or not 5 <= seconds <= 600:
                raise HallError("request/invalid", "choice_seconds is 5 to 600", 400)
            data["choice_seconds"] = seconds
        if not data:
            raise HallError("request/invalid", "nothing to change: dice_mode, choice_seconds", 400)
        with self.lock:
            event = self.event(event_id)
            self._append_event(event, [("settings", data)])
            self._apply_event_record(event, "settings", data)
        self._publish(Change(events=[event.id]))
        return event

    def create_table(
        self, event_id: Any, name: Any, players: Any, ruleset: Any = "machi-koro",
        roll_mode: Any = "hall", options: Any = None,
    ) -> Table:
        name = clean_name(name, "table name")
        rules, names = table_request(ruleset, roll_mode, players)
        settings = table_options(rules, options)
        low, high = rules.seats(self.catalog)
        if not low <= len(names) <= high:
            seats = f"{low} to {high}" if low != high else f"exactly {low}"
            raise HallError("request/invalid", f"a {ruleset} table seats {seats} players", 400)
        with self.lock:
            event = self.event(event_id)
            table = Table(str(len(self.tables) + 1), event.id, name, ruleset, roll_mode,
                          [Seat(n, secrets.token_urlsafe(16)) for n in names], options=settings)
            data = {"id": table.id, "event_id": event.id, "name": name, "ruleset": ruleset,
                    "roll_mode": roll_mode,
                    "seats": [{"name": s.name, "token": s.token} for s in table.seats]}
            if settings:
                data["options"] = settings
            table.seq = self.journal.append(table.stream, 0, [("table_created", data)],
                                            author="organizer").last_seq
            self.tables[table.id] = table
            event.tables.append(table.id)
            self._index_tokens(table)
        self._publish(Change(tables=[table.id], events=[event.id]))
        return table

    def rename_table(self, table_id: Any, name: Any) -> Table:
        return self._registry(table_id, "renamed", {"name": clean_name(name, "table name")})

    def add_player(self, table_id: Any, name: Any) -> Table:
        name = clean_name(name, "player name")
        with self.lock:
            table = self._in_setup(table_id)
            high = rules_of(table).seats(self.catalog)[1]
            if len(table.seats) >= high:
                raise HallError("table/full", f"a table seats at most {high}")
            return self._registry(table_id, "player_added",
                                  {"name": name, "token": secrets.token_urlsafe(16)})

    def remove_player(self, table_id: Any, seat: Any) -> Table:
        with self.lock:
            table = self._in_setup(table_id)
            self._seat_number(table, seat)
            low = rules_of(table).seats(self.catalog)[0]
            if len(table.seats) <= low:
                raise HallError("table/too_few", f"a table seats at least {low}")
            return self._registry(table_id, "player_removed", {"seat": seat})

    def reassign_seat(self, table_id: Any, seat: Any, name: Any = None) -> Table:
        """A new token for a seat (a lost phone, a new player); the old one stops at once."""
        with self.lock:
            table = self.table(table_id)
            number = self._seat_number(table, seat)
            new_name = table.seats[number].name if name is None else clean_name(name, "player name")
            if table.state is not None and new_name != table.seats[number].name:
                raise HallError("table/started", "a started table keeps its players' names")
            return self._registry(table_id, "seat_reassigned",
                                  {"seat": number, "name": new_name,
                                   "token": secrets.token_urlsafe(16)})

    def set_status(self, table_id: Any, status: str) -> Table:
        allowed = {"running": ("setup", "paused"), "paused": ("running",),
                   "ended": ("setup", "running", "paused")}
        with self.lock:
            table = self.table(table_id)
            if table.status not in allowed[status]:
                raise HallError("table/status", f"a {table.status} table cannot become {status}")
            if status == "running" and table.state is None:
                return self._start(table)
            return self._registry(table_id, "status", {"status": status})

    def _start(self, table: Table) -> Table:
        """The first start: the status record and the dealer's move (decks shuffled with
        `secrets`, for rulesets that have decks) in one transaction, so no restart ever finds
        a started table undealt. The journal keeps the order; a replay never shuffles."""
        rules = rules_of(table)
        names = tuple(seat.name for seat in table.seats)
        deal = rules.deal(rules.start(self.catalog, names, table.options), self.catalog,
                          secure_shuffle)
        batch = [AppendRequest(table.stream, table.seq, [("status", {"status": "running"})],
                               author="organizer")]
        if deal:
            batch.append(AppendRequest(table.stream, table.seq + 1,
                                       move_records(deal, 1, rules.encode_event), author="dealer"))
        table.seq = self.journal.append_many(batch)[-1].last_seq
        apply_record(table, "status", {"status": "running"}, self.catalog)
        if deal:
            self._evolve(table, 1, "dealer", deal)
        self._publish(Change(tables=[table.id], events=[table.event_id]))
        return table

    def _in_setup(self, table_id: Any) -> Table:
        table = self.table(table_id)
        if table.status != "setup":
            raise HallError("table/started", "players are added and removed before the start")
        return table

    @staticmethod
    def _seat_number(table: Table, seat: Any) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(table.seats):
            raise HallError("request/invalid", f"there is no seat {seat!r} at this table", 400)
        return seat

    def _registry(self, table_id: Any, kind: str, data: dict[str, Any]) -> Table:
        with self.lock:
            table = self.table(table_id)
            result = self.journal.append(table.stream, table.seq, [(kind, data)], author="organizer")
            table.seq = result.last_seq
            apply_record(table, kind, data, self.catalog)
            self._index_tokens(table)
        self._publish(Change(tables=[table.id], events=[table.event_id]))
        return table

    def _append_event(self, event: HallEvent, records: list[tuple[str, dict[str, Any]]]) -> None:
        event.seq = self.journal.append(event.stream, event.seq, records, author="organizer").last_seq

    # ------------------------------------------------------------ moves

    def move(self, token: Any, request_id: Any, move: Any) -> dict[str, Any]:
        """A phone's move: the ack `{"ok": true}` after commit, or a refusal with code and
        message. A repeated request id gets the first answer and changes nothing."""
        if not isinstance(request_id, str) or not 1 <= len(request_id) <= 100:
            return refusal("request/invalid", "a request_id (1 to 100 characters) is required")
        with self.lock:
            try:
                table, seat = self.seat_for(token)
            except HallError as error:
                return refusal(error.code, error.message)
            # Phones' ids live in their own namespace: a phone can never take an id the
            # server uses for its own appends (the hall roll's).
            request_id = f"phone:{request_id}"
            first = self.refused.get((table.id, request_id)) or self.journal.answer_for(
                table.stream, request_id)
            if first is not None:
                return first
            try:
                events = self._decide_move(table, seat, move)
            except (RuleError, HallError) as error:
                answer = refusal(error.code, error.message)
                self._remember_refusal(table.id, request_id, answer)
                return answer
            answer = {"ok": True}
            self._commit(table, events, f"seat {seat}", request_id, answer)
        self._publish(Change(tables=[table.id], events=[table.event_id]))
        return answer

    def _decide_move(self, table: Table, seat: int, move: Any) -> list[Event]:
        if table.status != "running" or table.state is None:
            raise HallError("table/not_running", f"the table is {table.status}, not running")
        state = table.state
        kind = move.get("kind") if isinstance(move, dict) else None
        drawn: tuple[int, ...] = ()
        if kind == "roll":
            if table.roll_mode == "hall":
                raise HallError("table/hall_roll", "this table rolls with the hall")
            drawn = hall_dice.roll(state.players[seat].dice_count)
        elif kind == "reroll":
            drawn = hall_dice.roll(len(state.dice))
        rules = rules_of(table)
        return rules.decide(state, seat, rules.parse_move(move, drawn), self.catalog,
                            secure_shuffle)

    def _remember_refusal(self, table_id: str, request_id: str, answer: dict[str, Any]) -> None:
        self.refused[(table_id, request_id)] = answer
        while len(self.refused) > REFUSALS_KEPT:
            self.refused.popitem(last=False)


    def _commit(self, table: Table, events: list[Event], author: str,
                request_id: str | None = None, answer: dict[str, Any] | None = None) -> None:
        """Append one move's events, then (only after the commit) evolve the table."""
        assert table.state is not None
        number = next_move_number(table)
        result = self.journal.append(table.stream, table.seq,
                                     move_records(events, number, rules_of(table).encode_event),
                                     request_id=request_id, author=author, answer=answer)
        table.seq = result.last_seq
        self._evolve(table, number, author, events)

    def _evolve(self, table: Table, number: int, author: str, events: list[Event]) -> None:
        assert table.state is not None
        table.moves.append(Move(number, author, events, table.state))
        table.state = rules_of(table).evolve_all(table.state, events)
        waiting = table.state.phase in (Phase.REROLL, Phase.CHOOSE)
        table.waiting_since = (table.waiting_since or time.monotonic()) if waiting else None

    # ------------------------------------------------------------ organizer: play

    def adjust(self, table_id: Any, seat: Any, amount: Any, reason: Any) -> Table:
        with self.lock:
            table = self._playing(table_id)
            assert table.state is not None
            try:
                events = rules_of(table).adjust(table.state, seat, amount, reason)
            except RuleError as error:
                raise HallError(error.code, error.message, 400) from None
            self._commit(table, events, "organizer")
        self._publish(Change(tables=[table.id], events=[table.event_id]))
        return table

    def undo(self, table_id: Any) -> Table:
        """Append the reversal of the table's last move: nothing in the past is edited."""
        with self.lock:
            table = self._playing(table_id)
            if not table.moves or table.moves[-1].author == "dealer":
                raise HallError("table/nothing_to_undo", "this table has no move to undo")
            number = table.moves[-1].number
            result = self.journal.append(table.stream, table.seq, [("reverted", {"move": number})],
                                         author="organizer")
            table.seq = result.last_seq
            apply_record(table, "reverted", {"move": number}, self.catalog)
        self._publish(Change(tables=[table.id], events=[table.event_id]))
        return table

    def _playing(self, table_id: Any) -> Table:
        table = self.table(table_id)
        if table.state is None:
            raise HallError("table/not_started", "the table has not started")
        return table

    def hall_roll(self, event_id: Any, dice: tuple[int, int] | None = None) -> dict[str, Any]:
        """One roll for every running hall-mode table, committed in one transaction."""
        with self.lock:
            event = self.event(event_id)
            event_records: list[tuple[str, dict[str, Any]]] = []
            from_deck = dice is None and event.dice_mode == "balanced"
            if from_deck and len(event.deck) <= hall_dice.DECK_LEFT_UNUSED:
                event_records.append(("deck_shuffled", {"deck": hall_dice.shuffled_deck()}))
                self._apply_event_record(event, *event_records[-1])
            if dice is None:
                d1, d2 = event.deck[0] if from_deck else hall_dice.roll_two()
            else:
                d1, d2 = dice
            tables = [self.tables[t] for t in event.tables]
            playing = [t for t in tables if t.roll_mode == "hall" and t.status == "running"]
            plans = [(table, *self._hall_turn(table, d1, d2)) for table in playing]
            roll_data = {"dice": [d1, d2], "from_deck": from_deck,
                         "tables": [t.id for t in playing]}
            event_records.append(("hall_rolled", roll_data))
            number = len(event.rolls) + 1
            batch = [AppendRequest(event.stream, event.seq, event_records, author="organizer")]
            for table, groups, _ in plans:
                first = next_move_number(table)
                encode = rules_of(table).encode_event
                records = [record for offset, events in enumerate(groups)
                           for record in move_records(events, first + offset, encode)]
                batch.append(AppendRequest(table.stream, table.seq, records,
                                           request_id=f"hall-roll-{event.id}-{number}",
                                           author="hall"))
            results = self.journal.append_many(batch)
            if any(result.duplicate for result in results):
                raise RuntimeError("a hall roll's request id was already used; nothing applied")
            event.seq = results[0].last_seq
            self._apply_event_record(event, "hall_rolled", roll_data)
            for (table, groups, _), result in zip(plans, results[1:], strict=True):
                table.seq = result.last_seq
                first = next_move_number(table)
                for offset, events in enumerate(groups):
                    self._evolve(table, first + offset, "hall", events)
        self._publish(Change(tables=[t.id for t in playing], events=[event.id]))
        return {"dice": [d1, d2], "roll": number, "tables": [t.id for t in playing]}

    def _hall_turn(self, table: Table, d1: int, d2: int) -> tuple[list[list[Event]], TableState]:
        """Close the previous turn (defaults for open choices, end of the build phase), then
        roll d1, or d1+d2 for a seat that rolls two dice (RULES.md 10-12)."""
        assert table.state is not None
        state, groups, rules = table.state, [], rules_of(table)
        closing: list[Event] = []
        while state.phase in (Phase.REROLL, Phase.CHOOSE, Phase.BUILD):
            move = rules.default_move(state) or EndTurn()
            events = rules.decide(state, state.active, move, self.catalog, secure_shuffle)
            closing += events
            state = rules.evolve_all(state, events)
        if closing:
            groups.append(closing)
        if state.phase is Phase.ROLL:
            dice = (d1,) if state.roller.dice_count == 1 else (d1, d2)
            events = rules.decide(state, state.active, Roll(dice), self.catalog, secure_shuffle)
            groups.append(events)
            state = rules.evolve_all(state, events)
        return groups, state

    def expire_choices(self, now: float | None = None) -> list[str]:
        """Apply the defaults at tables whose choice waited longer than the event allows."""
        now = time.monotonic() if now is None else now
        changed = []
        with self.lock:
            for table in self.tables.values():
                if table.waiting_since is None or table.state is None or table.status != "running":
                    continue
                if now - table.waiting_since < self.events[table.event_id].choice_seconds:
                    continue
                rules = rules_of(table)
                move = rules.default_move(table.state)
                if move is not None:
                    events = rules.decide(table.state, table.state.active, move, self.catalog,
                                          secure_shuffle)
                    self._commit(table, events, "timer")
                    changed.append(table.id)
        if changed:
            self._publish(Change(tables=changed,
                                 events=sorted({self.tables[t].event_id for t in changed})))
        return changed

    # ------------------------------------------------------------ organizer: console

    def seat_players(
        self, event_id: Any, players: Any, ruleset: Any = "machi-koro", roll_mode: Any = "hall",
        table_size: Any = None, name_prefix: Any = "Table",
    ) -> list[Table]:
        """A pasted list of players split into new tables of at most `table_size` (capped at
        the most the ruleset seats, which is also the default), named "PREFIX N". The whole
        list is checked before any table is created, so a refusal creates none."""
        rules, names = table_request(ruleset, roll_mode, players)
        low, high = rules.seats(self.catalog)
        size = high if table_size is None else table_size
        if not isinstance(size, int) or isinstance(size, bool) or not low <= size <= self.catalog.players_max:
            raise HallError("request/invalid", f"table_size is {low} to {self.catalog.players_max}", 400)
        sizes = seating.table_sizes(len(names), min(size, high), low)
        if sizes is None:
            raise HallError("request/invalid", f"{len(names)} players cannot sit at {ruleset} tables "
                            f"of {low} to {min(size, high)}", 400)
        prefix = clean_name(name_prefix, "table name")
        with self.lock:
            first = len(self.event(event_id).tables) + 1
            table_names = [clean_name(f"{prefix} {first + i}", "table name") for i in range(len(sizes))]
            return [self.create_table(event_id, name, group, ruleset, roll_mode)
                    for name, group in zip(table_names, seating.split_players(names, sizes),
                                           strict=True)]

    @property
    def organizer_pin_set(self) -> bool:
        return bool(self.organizer_pin)

    def set_organizer_pin(self, pin: Any) -> bool:
        """Set the PIN that signs in a second device (stored hashed), or clear it with None."""
        if pin is None:
            record: dict[str, Any] = {}
        else:
            problem = hall_pin.check_pin_format(pin)
            if problem:
                raise HallError("request/invalid", problem, 400)
            record = hall_pin.hash_pin(pin)
        with self.lock:
            self.journal.append("hall", self.journal.last_seq("hall"), [("organizer_pin", record)],
                                author="organizer")
            self.organizer_pin = record or None
        return self.organizer_pin_set

    def check_organizer_pin(self, pin: Any) -> bool:
        return hall_pin.pin_matches(self.organizer_pin, pin)

    # ------------------------------------------------------------ publish

    def _publish(self, change: Change) -> None:
        for listener in list(self.listeners):
            listener(change)


def next_move_number(table: Table) -> int:
    return table.moves[-1].number + 1 if table.moves else 1


def move_records(
    events: list[Event], number: int,
    encode: Callable[[Any], tuple[str, dict[str, Any]]] = encode_event,
) -> list[tuple[str, dict[str, Any]]]:
    """A move's events as journal records (in the table's ruleset's form), each tagged with
    the move they belong to."""
    return [(kind, {**data, "move": number}) for kind, data in map(encode, events)]


def table_request(ruleset: Any, roll_mode: Any, players: Any) -> tuple[rulesets.Ruleset, list[str]]:
    """New tables' ruleset and cleaned player names, with their roll mode checked: one set of
    checks for a table made by hand and for tables seated from a pasted list."""
    if ruleset not in RULESETS:
        raise HallError("request/invalid", f"ruleset is one of {', '.join(RULESETS)}", 400)
    if roll_mode not in ROLL_MODES:
        raise HallError("request/invalid", "roll_mode is hall or own", 400)
    if not isinstance(players, list):
        raise HallError("request/invalid", "players is a list of names", 400)
    return rulesets.ruleset(ruleset), [clean_name(player, "player name") for player in players]


def table_options(rules: rulesets.Ruleset, options: Any) -> dict[str, Any]:
    """A table's set-up options (the co-op game's `assessor_coins`), checked by its ruleset."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise HallError("request/invalid", "options is an object", 400)
    try:
        return rules.options(options)
    except RuleError as error:
        raise HallError("request/invalid", error.message, 400) from None


def refusal(code: str, message: str) -> dict[str, Any]:
    return {"ok": False, "code": code, "message": message}
