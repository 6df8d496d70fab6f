"""Play at one table: a seat's move and the organizer's corrections, each on the one path of
DESIGN.md: decide, commit to the journal, evolve the table (only after the commit), publish."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

from companion.hall import dice as hall_dice
from companion.hall.checks import HallError, invalid, refusal, rules_refusal, seat_number
from companion.hall.model import Table, follows_turn, table_changed
from companion.hall.replay import apply_record, rebuild_table, rules_of
from companion.hall.shuffle import secure_shuffle
from companion.hall.table_memory import evolve, note_state, state_at
from companion.journal import AppendRequest, AppendResult, StaleSequence
from companion.rules.errors import RuleError
from companion.rules.registry import AnyRuleset
from companion.rules.ruleset import HallTurn, SeatRolls, SharedTurn

Fact = Any  # a ruleset's own fact (the hall keeps and journals it as the rules say)

if TYPE_CHECKING:
    from companion.hall.state import HallState

REFUSALS_KEPT = 500
STALE = "move/stale"  # the refusal of a move made from a view the table has left behind
OUT_OF_STEP = "table/out_of_step"  # another process kept moving the table while this one decided


T = TypeVar("T")


def twice(hall: HallState, action: Callable[[], T]) -> T:
    """Run an organizer's action; when its append finds the table moved on by another process
    (StaleSequence: the commit caught the table up), decide it again once, then refuse
    `table/out_of_step`. One process: the StaleSequence is raised as it always was."""
    try:
        return action()
    except StaleSequence:
        if not hall.shared:
            raise
    try:
        return action()
    except StaleSequence:
        raise out_of_step() from None


def out_of_step() -> HallError:
    return HallError(OUT_OF_STEP, "the table changed on another server while this was decided: "
                                  "check the new view and try again")


def next_move_number(table: Table) -> int:
    return table.moves[-1].number + 1 if table.moves else 1


def move_records(
    facts: list[Fact], number: int, encode: Callable[[Any], tuple[str, dict[str, Any]]],
) -> list[tuple[str, dict[str, Any]]]:
    """A move's facts as journal records (`encode`: the table's ruleset's form), each tagged
    with the move they belong to."""
    return [(kind, {**data, "move": number}) for kind, data in map(encode, facts)]


def commit(hall: HallState, table: Table, facts: list[Fact], author: str,
           request_id: str | None = None, answer: dict[str, Any] | None = None,
           decided_at: int | None = None) -> AppendResult:
    """Append one move's facts, then (only after the commit) evolve the table. A request id
    the journal had already (another process committed it) is not applied again: the table
    is caught up from the journal instead, and the result says `duplicate`. A stale append
    raises StaleSequence; several processes: with the table caught up first. The caller holds
    the table's stream lock (hall/locks.py); the append holds no other lock of the hall.
    `decided_at`: the seq the facts were decided at; a catch-up that moved the table on since
    (several processes: a reader applied another process's move while the decision read the
    journal) makes it stale without an append."""
    assert table.state is not None
    with hall.memory:
        note_state(table)
        number, expected = next_move_number(table), table.seq
    if decided_at is not None and decided_at != expected:
        raise StaleSequence(table.stream, decided_at, expected)
    try:
        result = hall.journal.append(table.stream, expected,
                                     move_records(facts, number, rules_of(table).encode_fact),
                                     request_id=request_id, author=author, answer=answer)
    except StaleSequence:
        if hall.shared:
            hall.reload(table)
        raise
    if result.duplicate:
        hall.reload(table)
        return result
    with hall.memory:
        if table.seq == expected:  # else a catch-up applied it from the journal already
            table.seq = result.last_seq
            evolve(table, number, author, facts)
    return result


def commit_record(hall: HallState, table: Table, kind: str, data: dict[str, Any]) -> None:
    """Append one of the organizer's registry records (a name, seats, a status, an undo) to the
    table's stream, then (only after the commit) apply it. Stale: as `commit`."""
    expected = table.seq
    applied(hall, table, append_record(hall, table, kind, data), kind, data, expected)


def append_record(hall: HallState, table: Table, kind: str, data: dict[str, Any],
                  also: Sequence[AppendRequest] = ()) -> AppendResult:
    """`commit_record`'s append (memory unchanged); `also`: other streams' appends committed in
    the same transaction (all or none). Stale: as `commit`."""
    with hall.memory:
        note_state(table)
    try:
        if also:
            request = AppendRequest(table.stream, table.seq, [(kind, data)], author="organizer")
            return hall.journal.append_many([request, *also])[0]
        return hall.journal.append(table.stream, table.seq, [(kind, data)], author="organizer")
    except StaleSequence:
        if hall.shared:
            hall.reload(table)
        raise


def applied(hall: HallState, table: Table, result: AppendResult, kind: str,
            data: dict[str, Any], expected: int) -> None:
    """`commit_record`'s change of memory, once its append (after seq `expected`) committed;
    nothing when a catch-up applied it from the journal already."""
    with hall.memory:
        if table.seq != expected:
            return
        table.seq = result.last_seq
        apply_record(table, kind, data)
        note_state(table)


# ------------------------------------------------------------ a seat's move

def move(hall: HallState, token: Any, request_id: Any, move: Any,
         seq: Any = None, view: bool = False) -> dict[str, Any]:
    """A phone's move: the ack `{"ok": true}` after commit, or a refusal with code and
    message. A repeated request id gets the first answer and changes nothing. `seq` is the
    seq of the view the move was made from (None: judged on the table as it is, as a script's
    or an older phone's): `check_seen`. `view`: an accepted move's answer and a `move/stale`
    refusal carry the seat's view, built right after the commit (or the refusal) from the
    table and seat the move was decided on, so a seat reassigned meanwhile on another
    process never turns an accepted move's answer into a refusal."""
    if not isinstance(request_id, str) or not 1 <= len(request_id) <= 100:
        return refusal("request/invalid", "a request_id (1 to 100 characters) is required")

    def with_view(answer: dict[str, Any], table: Table, seat: int) -> dict[str, Any]:
        if view and (answer.get("ok") or answer.get("code") == STALE):
            from companion.hall import views  # it builds on clock, which builds on this module
            with hall.memory:  # as every view (`HallService.seat_view`)
                return {**answer, "view": views.seat_view(table, seat, hall.choice_seconds(table))}
        return answer

    try:
        # A token known here is not looked up in the journal (several processes: a round trip
        # per move): the append below checks the table's seq, and a table another process
        # moved on is caught up there and the move decided again, the seat checked again.
        table, _ = hall.seat_for(token, catch_up=False)
    except HallError as error:
        return refusal(error.code, error.message)
    # Only this table's writers wait for this move (hall/locks.py): a move at another table
    # commits meanwhile, its journal round trips overlapping this one's.
    with hall.hold(table.stream):
        if hall.shared and isinstance(seq, int) and seq > table.seq:
            hall.catch_up(table)  # the phone saw what another process wrote: this one reads it
        found = hall.seat_of(token)  # the seat as it is now the table is held
        if found is None or found[0] != table.id:
            return refusal("seat/unknown_token", "this join link is not (or no longer) valid")
        seat = found[1]
        request_id = stored_request_id(token, request_id)
        with hall.memory:
            first = hall.refused.get((table.id, request_id))
        if first is not None:
            return with_view(first, table, seat)
        for attempt in range(2):
            with hall.memory:
                decided_at = table.seq  # the copy this attempt decides on
            try:
                with hall.memory:
                    check_seen(table, seat, seq, move)
                facts = decide_move(hall, table, seat, move)
            except (RuleError, HallError) as error:
                # Several processes: refused on an old copy of the table (another process
                # moved it on; a catch-up during the decision's own journal reads counts)?
                # Then decided again, once, on the table as the journal has it.
                if hall.shared and attempt == 0 and moved_since(hall, table, decided_at):
                    # refused on this process's old copy of the table: decide on the journal's
                    found = hall.seat_of(token)
                    if found is None or found[0] != table.id:
                        return refusal("seat/unknown_token",
                                       "this join link is not (or no longer) valid")
                    seat = found[1]
                    continue
                # A repeated request the journal accepted before gets that answer (its move
                # may be refused now); the lookup is made only here: an accepted one's append
                # finds it (`duplicate`), a round trip per move saved.
                first = hall.journal.answer_for(table.stream, request_id)
                if first is not None:
                    return with_view(first, table, seat)
                answer = refusal(error.code, error.message)
                if table.seq == decided_at:  # not a refusal of a copy that moved on meanwhile
                    remember_refusal(hall, table.id, request_id, answer)
                return with_view(answer, table, seat)
            try:
                result = commit(hall, table, facts, f"seat {seat}", request_id, {"ok": True},
                                decided_at)
                break
            except StaleSequence:
                # Another process moved the table on (several processes; commit caught it up):
                # decide again, once, on the table as its journal has it, with the seat checked
                # again (the seat may have been reassigned meanwhile).
                if not hall.shared or attempt == 1:
                    if hall.shared:  # unless the journal took this very request before
                        first = hall.journal.answer_for(table.stream, request_id)
                        return (with_view(first, table, seat) if first is not None
                                else refusal(OUT_OF_STEP, out_of_step().message))
                    raise
                found = hall.seat_of(token)
                if found is None or found[0] != table.id:
                    return refusal("seat/unknown_token",
                                   "this join link is not (or no longer) valid")
                seat = found[1]
        answer = with_view(dict(result.answer), table, seat)
        change = table_changed(table)
        if "view" in answer:
            change.acked[table.id] = answer["view"]["seq"]
    hall.publish(change)
    return answer


def moved_since(hall: HallState, table: Table, seq: int) -> bool:
    """Whether the table moved on since seq `seq` (several processes: caught up first)."""
    hall.catch_up(table)
    return table.seq != seq


def stored_request_id(token: str, request_id: str) -> str:
    """The id under which the journal keeps a phone's request: in the phones' own namespace (a
    phone never takes an id the server uses, the hall roll's) and the seat token's, so another
    seat reusing an id is a request of its own, never answered with this seat's answer. The
    token is hashed: the journal's request table need not hold a second copy of it."""
    seat_key = hashlib.sha256(token.encode()).hexdigest()[:16]
    return f"phone:{seat_key}:{request_id}"


def check_seen(table: Table, seat: int, seq: Any, wire: Any) -> None:
    """Refuse `move/stale` a move made from a view of the table (seq `seq`) that the table has
    left behind in a way that could change the move's outcome (the rules' call, `stale`); a
    change that cannot matter (another seat's dice setting, a rename, a pause resumed) lets it
    through. A view older than the states the table keeps counts as stale; a seq that is not
    a whole number, or from the future, is `request/invalid`. None: nothing to check."""
    note_state(table)
    if seq is None:
        return
    if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq <= table.seq:
        raise invalid("seq is the seq of the view the move was made from (0 to {last}), not "
                      "{seq}", last=table.seq, seq=repr(seq))
    if seq == table.seq or table.status != "running" or table.state is None:
        return  # the view is the table as it is; a table not running refuses any move
    seen = state_at(table, seq)
    if seen is None or rules_of(table).stale(seen, table.state, seat, wire):
        raise HallError(STALE, f"the table changed since the view this move was made from (seq "
                        f"{seq}, now {table.seq}): check the new view and try again")


def decide_move(hall: HallState, table: Table, seat: int, move: Any) -> list[Fact]:
    """The rules' facts for a seat's move, with the dice it rolls drawn here (rules take dice
    as inputs); a table that rolls with the hall has no roll of its own."""
    if table.status != "running" or table.state is None:
        raise HallError("table/not_running", f"the table is {table.status}, not running")
    state, rules = table.state, rules_of(table)
    count = 0
    if isinstance(rules, SeatRolls):
        if table.roll_mode == "hall" and rules.hall_rolls(move):
            raise HallError("table/hall_roll", "this table rolls with the hall")
        count = rules.dice_for(state, seat, move)
    drawn = hall_dice.roll(count) if count else ()
    return rules.decide(state, seat, rules.parse_move(move, drawn, hall=event_turn(hall, table)),
                        table.setup, secure_shuffle)


def event_turn(hall: HallState, table: Table) -> HallTurn | None:
    """The latest roll of the table's event, which its rules may judge a move by (Catan's
    claims: the team on turn); several processes: the event caught up first, for rulesets
    that take part in the event's turn (`follows_turn`)."""
    from companion.hall import clock  # it builds on this module

    event = hall.events[table.event_id]
    if hall.shared and follows_turn(table.rules):
        hall.catch_up_event(event)
    turn = event.hall_turn()
    if turn is not None and clock.closing(event, time.time()):
        return replace(turn, closing=True)
    return turn


def remember_refusal(hall: HallState, table_id: str, request_id: str,
                     answer: dict[str, Any]) -> None:
    """A refused request id keeps its answer (refusals are not journalled), the latest few."""
    with hall.memory:
        hall.refused[(table_id, request_id)] = answer
        while len(hall.refused) > REFUSALS_KEPT:
            hall.refused.popitem(last=False)


# ------------------------------------------------------------ the organizer's corrections

def adjust(hall: HallState, table_id: Any, seat: Any, amount: Any, reason: Any) -> Table:
    return organizer_facts(hall, table_id, lambda rules, table: rules.adjust(
        table.state, seat, amount, reason))


def staff_move(hall: HallState, table_id: Any, wire: Any) -> Table:
    """A move the staff make at a table (`SharedTurn.staff_move`: Catan's verification of a
    claim), with the event's latest roll; committed with author "organizer". The rules'
    refusal is the answer's, and nothing changes; a ruleset without a shared turn has none."""
    def decide(rules: AnyRuleset, table: Table) -> list[Fact]:
        if not isinstance(rules, SharedTurn):
            raise RuleError(f"{rules.name} tables take no staff moves")
        return rules.staff_move(table.state, wire, event_turn(hall, table))
    return organizer_facts(hall, table_id, decide)


ROLL = {"kind": "roll"}  # a seat's roll, with the dice the seat chose (SeatRolls.dice_for)


def roll_for_seat(hall: HallState, table_id: Any) -> Table:
    """The organizer rolls for the seat whose turn waits on its roll (a seat without a phone
    at a table that rolls its own dice): the seat's own roll move, decided by its rules."""
    def due_seat(table: Table) -> int:
        rules = rules_of(table)
        seat = (rules.roll_due(table.state)
                if table.status == "running" and isinstance(rules, SeatRolls) else None)
        if seat is None:
            raise HallError("table/no_roll_due", "no seat of this table is waiting to roll")
        return seat

    return move_for_seat(hall, table_id, due_seat, ROLL)


END_TURN = {"kind": "end_turn"}  # a seat's end of its turn, without building


def end_turn_for_seat(hall: HallState, table_id: Any, seat: Any) -> Table:
    """The organizer ends the turn of `seat` at a table that rolls its own dice (a seat
    without a phone, after "Roll for NAME"): the seat's own end of turn, decided by its rules
    (another seat's turn, or one before its roll, is refused with the rules' reason)."""
    return move_for_seat(hall, table_id, lambda table: seat_number(len(table.seats), seat),
                         END_TURN)


def move_for_seat(hall: HallState, table_id: Any, seat_of: Callable[[Table], int],
                  wire: dict[str, Any]) -> Table:
    """The organizer makes a seat's own move at a table that rolls its own dice (`seat_of`
    names the seat, or refuses): decided by the seat's rules, committed as the organizer's."""
    def act() -> Table:
        table = playing(hall, table_id)
        if table.roll_mode != "own":
            raise HallError("table/hall_roll", "this table rolls with the hall")
        seat = seat_of(table)
        try:
            facts = decide_move(hall, table, seat, dict(wire))
        except RuleError as error:
            raise rules_refusal(error) from None
        commit(hall, table, facts, "organizer")
        return table

    return organizer_change(hall, table_id, act)


def organizer_facts(hall: HallState, table_id: Any,
                    decide: Callable[[AnyRuleset, Table], list[Any]]) -> Table:
    """The facts the rules `decide` for an organizer's correction at a started table,
    committed with author "organizer" (none: nothing is); a refusal of the rules is a
    HallError, and nothing changes."""
    def act() -> Table:
        table = playing(hall, table_id)
        try:
            facts = decide(rules_of(table), table)
        except RuleError as error:
            raise rules_refusal(error) from None
        if facts:
            commit(hall, table, facts, "organizer")
        return table

    return organizer_change(hall, table_id, act)


def organizer_change(hall: HallState, table_id: Any, act: Callable[[], Table]) -> Table:
    """Run an organizer's change of a table (`act` decides and commits it) under the hall's
    lock and the table's stream lock (its moves wait, other tables' do not), once more after
    a stale append (`twice`), then show the table to its watchers."""
    with hall.lock, hall.hold(hall.table(table_id).stream):
        table = twice(hall, act)
    hall.publish(table_changed(table))
    return table


def undo(hall: HallState, table_id: Any) -> Table:
    """Append the reversal of the table's last move: nothing in the past is edited. The undo of
    the move that decided a series' game withdraws the series' record of it in the same
    transaction, or is refused once the series moved on (`series.undoing`: several processes,
    the journal's table and series held till the append; memory follows after)."""
    from companion.hall import series  # it builds on this module

    def act() -> Table:
        table = playing(hall, table_id)
        kept = table.moves
        try:
            with series.undoing(hall, table) as withdrawal:
                if len(table.moves) == 1 and table.forgot_moves:  # the undo needs older moves
                    table.moves = rebuild_table(hall.journal.read(table.stream)).moves
                if not table.moves or table.moves[-1].author == "dealer":
                    raise HallError("table/nothing_to_undo", "this table has no move to undo")
                data = {"move": table.moves[-1].number}
                result = append_record(hall, table, "reverted", data, withdrawal)
        except StaleSequence:  # several processes: the append caught the table up
            if not hall.shared:
                table.moves = kept
            raise
        except Exception:  # nothing committed: memory keeps what it kept (MOVES_KEPT)
            table.moves = kept
            raise
        applied(hall, table, result, "reverted", data, result.first_seq - 1)
        with hall.memory:
            table.forget_old_moves()
        return table

    return organizer_change(hall, table_id, act)


def playing(hall: HallState, table_id: Any) -> Table:
    table = hall.catch_up(hall.table(table_id))
    if table.state is None:
        raise HallError("table/not_started", "the table has not started")
    return table
