"""A series of games in an event (a Legacy campaign; ruleset.py, "a series of games"): its
journal stream `series:ID`, the organizer's commands on it, the tables of its games, and the
result a won table of the series reports to it.

The stream holds `series_created` (the event and the ruleset), the ruleset's series facts (its
own kinds, `Series.series_kinds`) and `series_table` (the table of a game). The hall knows a
series' state only through the ruleset's `series_*` hooks. Ids are dense over the hall, as the
tables'; several processes on one journal catch a series up by its last seq before using it,
as tournaments (tournament_journal.py)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from companion.hall import dice as hall_dice
from companion.hall.checks import NAME_LIMIT, HallError, clean_name, invalid, rules_refusal
from companion.hall.indexes import index_tokens
from companion.hall.model import Change, Seat, Table
from companion.hall.play import move_records
from companion.hall.registry import (
    created_record,
    new_token,
    next_registrations,
)
from companion.hall.replay import apply_record, dealt
from companion.hall.series_model import (
    CREATED,
    TABLE,
    Series,
    apply,
    rebuild,
    series_rules,
    table_index,
)
from companion.hall.shuffle import secure_shuffle
from companion.hall.table_memory import evolve as evolve_table
from companion.journal import AppendRequest, StaleSequence
from companion.rules.errors import RuleError
from companion.rules.registry import REGISTRY, ruleset
from companion.rules.ruleset import Series as SeriesRules
from companion.rules.ruleset import needs_series

if TYPE_CHECKING:
    from companion.hall.state import HallState

T = TypeVar("T")


def today() -> str:
    """Today's date as a register writes it (UTC); tests may replace it."""
    return datetime.now(UTC).date().isoformat()


def catch_up(hall: HallState, series: Series) -> Series:
    if hall.shared and hall.journal.last_seq(series.stream) != series.seq:
        with hall.lock:
            for record in hall.journal.read(series.stream, series.seq):
                apply(series, record.kind, record.data)
                series.seq = record.seq
            hall.series_tables.update(table_index([series]))
    return series


def discover(hall: HallState) -> bool:
    """Series another process created since (several processes only)."""
    found = False
    if not hall.shared:
        return found
    with hall.lock:
        while records := hall.journal.read(f"series:{len(hall.series) + 1}"):
            series = rebuild(records)
            if series is None:
                break
            hall.series[series.id] = series
            hall.series_tables.update(table_index([series]))
            found = True
    return found


def series_of(hall: HallState, series_id: Any) -> Series:
    found = hall.series.get(str(series_id))
    if found is None and discover(hall):
        found = hall.series.get(str(series_id))
    if found is None:
        raise HallError("series/unknown", f"there is no series {series_id!r}")
    return catch_up(hall, found)


def of_event(hall: HallState, event_id: Any) -> list[Series]:
    event = hall.event(event_id)
    discover(hall)
    with hall.lock:
        return [catch_up(hall, s) for s in sorted(hall.series.values(), key=lambda s: int(s.id))
                if s.event_id == event.id]


# ------------------------------------------------------------ deciding and committing


def twice(hall: HallState, action: Callable[[], T]) -> T:
    """Run `action` under the lock; once more after a stale append (another process moved a
    stream on: caught up first), then refuse `series/out_of_step`."""
    with hall.lock:
        try:
            return action()
        except StaleSequence:
            hall.discover()
            discover(hall)
            for series in hall.series.values():
                catch_up(hall, series)
        try:
            return action()
        except StaleSequence:
            raise HallError("series/out_of_step", "the series changed on another server while "
                            "this was decided: look at it again and try again") from None


def records_of(rules: SeriesRules, facts: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    return [rules.series_encode(fact) for fact in facts]


def create(hall: HallState, event_id: Any, wire: Any) -> Series:
    """A new series of `wire["ruleset"]`'s games in the event; the rest of `wire` is the
    ruleset's (a Legacy campaign's name, mayors and catalog)."""
    if not isinstance(wire, dict):
        raise invalid("the body must be a JSON object")
    name = wire.get("ruleset")
    if not isinstance(name, str) or name not in _with_series():
        raise HallError("series/no_series", "ruleset: one of " + ", ".join(_with_series())
                        + f" is required (a ruleset with a series of games), got {name!r}")
    rules = series_rules(name)
    try:
        facts = rules.series_start({k: v for k, v in wire.items() if k != "ruleset"})
        state = rules.series_evolve(None, facts)
    except RuleError as error:
        raise rules_refusal(error) from None

    def act() -> Series:
        event = hall.event(event_id)
        discover(hall)
        series = Series(str(len(hall.series) + 1), event.id, name)
        created = {"id": series.id, "event_id": event.id, "ruleset": name}
        series.seq = hall.journal.append(series.stream, 0, [(CREATED, created),
                                                            *records_of(rules, facts)],
                                         author="organizer").last_seq
        series.state = state
        hall.series[series.id] = series
        return series

    series = twice(hall, act)
    hall.publish(Change(events=[series.event_id], series=[series.id]))
    return series


def command(hall: HallState, series_id: Any, wire: Any) -> Series:
    """The organizer's command on the series: the dice it asks for drawn here, today's date
    passed; a refusal changes nothing."""
    def act() -> Series:
        series = series_of(hall, series_id)
        rules = series.rules
        try:
            count = rules.series_dice(series.state, wire)
            facts = rules.series_decide(series.state, wire, hall_dice.roll(count) if count else (),
                                        today())
            after = rules.series_evolve(series.state, facts)
        except RuleError as error:
            raise rules_refusal(error) from None
        unrecorded = won_and_unrecorded(hall, series, after)
        if unrecorded is not None:
            raise HallError("series/table_won", f"game {unrecorded}'s table is won: its record is "
                            "taken back by undoing the move that won it (POST /api/tables/ID/undo)")
        series.seq = hall.journal.append(series.stream, series.seq, records_of(rules, facts),
                                         author="organizer").last_seq
        series.state = after
        return series

    series = twice(hall, act)
    hall.publish(Change(events=[series.event_id], series=[series.id]))
    return series


def won_and_unrecorded(hall: HallState, series: Series, after: Any) -> int | None:
    """The game whose won table's result the series had recorded and `after` has not (a
    withdrawal by hand): the register and the table would disagree (a restart records it
    again), so only the undo of the winning move withdraws it (`undoing`)."""
    rules = series.rules
    for number, table_id in sorted(series.tables.items()):
        table = hall.table(table_id)
        if hall.shared:
            hall.catch_up(table)
        result = table.rules.result(table.state) if table.state is not None else None
        if (result is not None and rules.series_result(series.state, number, result, today()) is None
                and rules.series_result(after, number, result, today()) is not None):
            return number
    return None


def next_game(hall: HallState, series_id: Any, wire: Any) -> tuple[Series, Table]:
    """Start the series' next game: its facts, and its table (created and started: the seats
    the ruleset names in order, its options, its deal) in one transaction."""
    def act() -> tuple[Series, Table]:
        series = series_of(hall, series_id)
        rules = series.rules
        try:
            facts = rules.series_next(series.state, wire)
            after = rules.series_evolve(series.state, facts)
            spec = rules.series_table(after)
            table_rules = ruleset(spec.ruleset)
            options = table_rules.check_options(spec.options)
        except RuleError as error:
            raise rules_refusal(error) from None
        names = [clean_name(name, "player name") for name in spec.names]
        hall.discover()
        event = hall.event(series.event_id)
        numbers = next_registrations(hall, event, len(names))
        title = clean_name(spec.name[:NAME_LIMIT], "table name")
        table = Table(str(len(hall.tables) + 1), event.id, title, spec.ruleset, "own",
                      [Seat(n, new_token(), r) for n, r in zip(names, numbers, strict=True)],
                      options=dict(options))
        deal = dealt(table, secure_shuffle)
        table_records = [("table_created", created_record(table)), ("status", {"status": "running"})]
        batch = [AppendRequest(table.stream, 0, table_records, author="organizer")]
        if deal:
            batch.append(AppendRequest(table.stream, len(table_records),
                                       move_records(deal, 1, table_rules.encode_fact),
                                       author="dealer"))
        batch.append(AppendRequest(series.stream, series.seq,
                                   [*records_of(rules, facts),
                                    (TABLE, {"game": spec.number, "table": table.id})],
                                   author="organizer"))
        results = hall.journal.append_many(batch)
        table.seq = results[-2].last_seq
        series.seq = results[-1].last_seq
        series.state = after
        series.tables[spec.number] = table.id
        hall.series_tables[table.id] = (series.id, spec.number)
        hall.tables[table.id] = table
        event.tables.append(table.id)
        index_tokens(hall.tokens, hall.codes, table)
        apply_record(table, "status", {"status": "running"})
        if deal:
            evolve_table(table, 1, "dealer", deal)
        return series, table

    series, table = twice(hall, act)
    hall.publish(Change(tables=[table.id], events=[series.event_id], series=[series.id]))
    return series, table


# ------------------------------------------------------------ a won table reports to its series


def of_table(hall: HallState, table: Table) -> tuple[Series, int] | None:
    """The series (caught up) and game number of a table a series made; None for another
    table. Several processes: a table of a ruleset whose tables only a series makes
    (`needs_series`) and not known here has its event's series looked for first (another
    process made the series, or its next game, after this one read them)."""
    found = hall.series_tables.get(table.id)
    if found is None and hall.shared and needs_series(table.rules):
        of_event(hall, table.event_id)
        found = hall.series_tables.get(table.id)
    return None if found is None else (series_of(hall, found[0]), found[1])


def held(hall: HallState, table: Table, series: Series) -> AbstractContextManager[None]:
    """Several processes: the table's and its series' streams held from the catch-up to the
    append (`Journal.holding`), so a report of the table's win and the undo of it, on two
    processes at once, never both pass; one process: nothing is held."""
    return hall.journal.holding([table.stream, series.stream]) if hall.shared else nullcontext()


def may_be_a_game(hall: HallState, table_id: str) -> bool:
    """Whether the table may be a series' game (`of_table` says), asked without the lock: a hall
    roll publishes hundreds of tables. Several processes: a table not known here may be one."""
    if table_id in hall.series_tables:
        return True
    table = hall.tables.get(table_id)
    return hall.shared and (table is None or needs_series(table.rules))


def report(hall: HallState, table_ids: Iterable[str]) -> list[str]:
    """Record in their series the results of these tables' games that ended and are not
    recorded yet (the ruleset's `series_result` says: idempotent, so a restart, a second
    process or a second report records nothing twice; two processes at once: the append's
    expected seq refuses the second, which then finds it recorded). The ids of the series
    changed. Tables that are no series' games are passed over."""
    changed: list[str] = []
    for table_id in table_ids:
        if not may_be_a_game(hall, table_id):
            continue
        try:
            series_id = twice(hall, functools.partial(record_result, hall, table_id))
        except (RuleError, HallError):
            continue  # the organizer records it by hand (record_game): a report never fails a move
        if series_id is not None:
            changed.append(series_id)
    return changed


def record_result(hall: HallState, table_id: str) -> str | None:
    """`report` of one table, under the lock: the id of its series if it recorded its result."""
    table = hall.table(table_id)
    found = of_table(hall, table)
    if found is None:
        return None
    series, number = found
    with held(hall, table, series):
        catch_up(hall, series)
        hall.catch_up(table)
        result = table.rules.result(table.state) if table.state is not None else None
        rules = series.rules
        wire = None if result is None else rules.series_result(series.state, number, result,
                                                                today())
        if wire is None:
            return None
        facts = rules.series_decide(series.state, wire, (), today())
        after = rules.series_evolve(series.state, facts)
        appended = hall.journal.append(series.stream, series.seq, records_of(rules, facts),
                                       author="hall")
    series.seq, series.state = appended.last_seq, after  # once committed (and let go)
    return series.id


@contextmanager
def undoing(hall: HallState, table: Table) -> Iterator[list[AppendRequest]]:
    """Around the undo of a table's last move. When that move decided the game of a series that
    has recorded its result (its ruleset's `series_result` has nothing left to record), the
    line is withdrawn with it: the block gets the series' append of the ruleset's withdrawal
    (`series_withdraw`) to commit in one transaction with the table's reversal, and the series
    in memory follows once it committed. When the series has moved on from the game (the next
    game started from its winner, RULES.md 15), the undo is refused `undo/recorded`: the table
    and the register stay as they are. Several processes: the table and its series caught up
    and held till the undo's append (`held`)."""
    found = of_table(hall, table)
    if found is None:
        yield []
        return
    series, number = found
    withdrawal: list[AppendRequest] = []
    after = None
    with held(hall, table, series):
        catch_up(hall, series)
        hall.catch_up(table)
        result = table.rules.result(table.state) if table.state is not None else None
        last = table.moves[-1] if table.moves else None
        if (result is not None and last is not None and table.rules.result(last.before) != result
                and series.rules.series_result(series.state, number, result, today()) is None):
            facts, after = withdrawn(series, number)
            withdrawal.append(AppendRequest(series.stream, series.seq,
                                            records_of(series.rules, facts), author="organizer"))
        yield withdrawal
    if withdrawal and after is not None:  # committed (and let go): the block's append had it
        series.seq, series.state = series.seq + len(withdrawal[0].records), after
        hall.publish(Change(series=[series.id]))


def withdrawn(series: Series, number: int) -> tuple[list[Any], Any]:
    """The facts that withdraw game `number`'s recorded result and the series after them; the
    undo's refusal `undo/recorded` when the series cannot withdraw it (it moved on)."""
    rules = series.rules
    wire = rules.series_withdraw(series.state, number)
    try:
        if wire is not None:
            facts = rules.series_decide(series.state, wire, (), today())
            return facts, rules.series_evolve(series.state, facts)
    except RuleError:
        pass
    later = sorted(game for game in series.tables if game > number)
    why = (f"game {later[0]} has started from its result" if later
           else "its series cannot withdraw the line now")
    raise HallError("undo/recorded", f"game {number} of {series.name} is in its register and {why}: "
                    "the move that decided it cannot be undone any more")


def report_all(hall: HallState) -> list[str]:
    """Every series table's result not recorded yet (at the hall's start: a win committed just
    before a stop is recorded once)."""
    return report(hall, list(hall.series_tables))


def view(hall: HallState, series: Series) -> dict[str, Any]:
    """The series for the console (docs/api.md, Series)."""
    with hall.lock:
        rules = series.rules
        return {"id": series.id, "event_id": series.event_id, "ruleset": series.ruleset,
                "name": series.name, "seq": series.seq,
                "tables": {str(game): table for game, table in sorted(series.tables.items())},
                "state": rules.series_view(series.state)}


def _with_series() -> tuple[str, ...]:
    return tuple(name for name, rules in REGISTRY.items() if isinstance(rules, SeriesRules))
