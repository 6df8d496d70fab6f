"""The organizer's actions on a tournament of an event (RULES.md 25-29): registration,
check-in, the start, drops and late arrivals, starting a round and closing it.

Each action checks first (a refusal changes nothing), then commits to the tournament's stream
`tournament:EVENT_ID`, then applies, under the hall's lock; what changed is published once the
lock is released. A round's tables are ordinary tables of the event: they are created, started
and dealt in the same transaction as the round's record, so no crash leaves tables without
their round or a round without its tables. How a table plays does not change.

The parts: `tournament_model` (the tournament in memory), `tournament_journal` (its replay,
the catch-up with other processes and the look-ups), `tournament_registration` (the checks of
the organizer's input) and `tournament_views` (what the pages and the API show).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from random import Random
from typing import TYPE_CHECKING, Any

from companion.hall import registry
from companion.hall.checks import HallError
from companion.hall.indexes import index_tokens
from companion.hall.model import Change, Seat, Table
from companion.hall.play import move_records
from companion.hall.replay import apply_record, dealt
from companion.hall.shuffle import secure_shuffle
from companion.hall.table_memory import evolve
from companion.hall.tournament_journal import (
    apply,
    commit,
    decide,
    known,
    load_tournaments,
    rebuild,
    tournament_of,
    twice,
)
from companion.hall.tournament_model import (
    FINAL,
    PRELIMINARY,
    SEMI_FINAL,
    Round,
    Tournament,
    refuse,
    stream_of,
)
from companion.hall.tournament_registration import (
    check_ruleset,
    check_seating,
    keep_apart_groups,
    name_key,
    no_duplicates,
    player_names,
    settings,
)
from companion.journal import AppendRequest, StaleSequence
from companion.tournament.errors import TournamentError
from companion.tournament.scoring import (
    Cut,
    Score,
    TableResult,
    cut_count,
    cut_line,
    finalists,
    semi_finals,
)
from companion.tournament.seating import reseat

if TYPE_CHECKING:
    from companion.hall.state import HallState

__all__ = ["FINAL", "PRELIMINARY", "SEMI_FINAL", "Round", "Tournament", "load_tournaments",
           "tournament_of"]


def create(hall: HallState, event_id: Any, data: dict[str, Any]) -> Tournament:
    """Register a tournament for the event: its players (checked in unless `absent` names
    them), keep-apart groups, rounds, ruleset, options and round time."""
    chosen = settings(data)
    names = player_names(data.get("players"))
    no_duplicates(names)
    groups = keep_apart_groups(data.get("keep_apart"), names)
    absent = {name_key(n) for n in player_names(data.get("absent") or [])}
    present = [n for n in names if name_key(n) not in absent]
    check_seating(len(present), [[p for p in g if name_key(names[p]) not in absent]
                                 for g in groups], names)
    with hall.lock:
        event = hall.event(event_id)
        if known(hall, event.id) is not None:
            raise refuse("exists", f"event {event.id} has a tournament already")
        record = {"event_id": event.id, **chosen, "keep_apart": groups,
                  "seed": secrets.randbits(32),
                  "players": [{"name": n, "token": registry.new_token(),
                               **({"checked_in": False} if name_key(n) in absent else {})}
                              for n in names]}
        try:
            hall.journal.append(stream_of(event.id), 0, [("tournament_created", record)],
                                author="organizer")
        except StaleSequence:  # another process registered one first
            known(hall, event.id)
            raise refuse("exists", f"event {event.id} has a tournament already") from None
        tournament = rebuild(hall.journal.read(stream_of(event.id)))
        assert tournament is not None
        hall.tournaments[event.id] = tournament
    hall.publish(Change(events=[event.id]))
    return tournament


def _groups_present(t: Tournament, present: Sequence[int]) -> list[list[int]]:
    keep = set(present)
    return [[p for p in g if p in keep] for g in t.keep_apart]


def _plan(t: Tournament, present: list[int], rounds: int) -> list[list[list[int]]]:
    """The seating of the next `rounds` preliminary rounds for `present`, the preliminaries
    played so far as history; refused (nothing changes) when they cannot be seated."""
    names = [p.name for p in t.players]
    check_seating(len(present), _groups_present(t, present), names)
    played = [r.seating for r in t.preliminaries()]
    rng = Random(t.seed * 1_000 + t.seq)
    try:
        seating = reseat(played, present, rounds, rng, keep_apart=_groups_present(t, present))
    except TournamentError as error:
        raise refuse("cannot_seat", error.message) from None
    return [[list(table) for table in tables] for tables in seating]


def check_in(hall: HallState, event_id: Any, player_id: Any, present: Any = True) -> Tournament:
    """Before the start: mark a registered player present (or absent)."""
    if not isinstance(present, bool):
        raise refuse("invalid", "present is true or false")

    def decision(t: Tournament) -> tuple[str, dict[str, Any]]:
        player = t.player(player_id)
        if t.started:
            raise refuse("started", "the tournament has started: a player who comes now "
                         "arrives late (late), one who leaves drops (drop)")
        return "checked_in", {"player": player.id, "present": present}

    return decide(hall, event_id, decision)


def start(hall: HallState, event_id: Any) -> Tournament:
    """Close registration and seat every preliminary round for the players present."""
    def decision(t: Tournament) -> tuple[str, dict[str, Any]]:
        if t.started:
            raise refuse("started", "the tournament has started already")
        return "started", {"plan": _plan(t, t.present(), t.rounds)}

    return decide(hall, event_id, decision)


def drop(hall: HallState, event_id: Any, player_id: Any) -> Tournament:
    """A player leaves: not seated in the rounds not started yet (which are seated again); a
    table they sit at now plays on."""
    def decision(t: Tournament) -> tuple[str, dict[str, Any]]:
        player = t.player(player_id)
        if player.dropped:
            raise refuse("dropped", f"{player.name} has dropped already")
        data: dict[str, Any] = {"player": player.id}
        if t.started and t.remaining():
            present = [p for p in t.present() if p != player.id]
            data["plan"] = _plan(t, present, t.remaining())
        return "dropped", data

    return decide(hall, event_id, decision)


def arrive(hall: HallState, event_id: Any, name: Any) -> Tournament:
    """A late arrival: a registered player who was absent, or a new name; seated from the
    next preliminary round on (the rounds not started yet are seated again)."""
    [cleaned] = player_names([name])

    def decision(t: Tournament) -> tuple[str, dict[str, Any]]:
        known = next((p for p in t.players if name_key(p.name) == name_key(cleaned)), None)
        if known is not None and known.checked_in and not known.dropped:
            raise refuse("duplicate_name", f"players: {cleaned!r} is playing already; a new "
                         "player needs a name of their own (add an initial or a surname)")
        data: dict[str, Any] = ({"player": known.id} if known is not None
                                else {"name": cleaned, "token": registry.new_token()})
        new_id = known.id if known is not None else len(t.players)
        if t.started and t.remaining():
            data["plan"] = _plan(t, sorted([*t.present(), new_id]), t.remaining())
        return "arrived", data

    return decide(hall, event_id, decision)


# ------------------------------------------------------------ rounds


def start_round(hall: HallState, event_id: Any, stage: str | None = None) -> Round:
    """Start the next round: its tables created from the seating (start order = seat order),
    started and dealt, and the round recorded, in one transaction. `stage` FINAL starts the
    semi-finals or the final, whichever comes next."""
    with hall.lock:
        t = tournament_of(hall, event_id)
        tables = twice(hall, t, lambda: _start_round(hall, t, stage))
        started = t.played[-1]
    hall.publish(Change(tables=[table.id for table in tables], events=[t.event_id]))
    return started


def _start_round(hall: HallState, t: Tournament, stage: str | None) -> list[Table]:
    """Decide the next round and commit it with its tables (under the hall's lock)."""
    if not t.started:
        raise refuse("not_started", "start the tournament first: that seats the rounds")
    current = t.open_round
    if current is not None:
        raise refuse("round_open", f"round {current.number} is still open: close it "
                     "before starting the next")
    coming = t.next_stage()
    if coming is None:
        raise refuse("over", "the final has been played: the tournament is over")
    if stage == PRELIMINARY and coming != PRELIMINARY:
        raise refuse("preliminaries_over", "every preliminary round has been played: "
                     "start the final")
    if stage == FINAL and coming == PRELIMINARY:
        raise refuse("preliminaries_left", f"{t.remaining()} preliminary round(s) are "
                     "still to play before the final")
    check_ruleset(t.ruleset, t.options)  # a tournament registered before this was checked
    seating = _next_seating(hall, t, coming)
    number = len(t.played) + 1
    label = {PRELIMINARY: f"R{number}", SEMI_FINAL: "Semi-final", FINAL: "Final"}[coming]
    event = hall.event(t.event_id)
    hall.discover()  # table ids are the next the journal has
    first = len(hall.tables) + 1
    tables = [Table(str(first + i), event.id, label if coming == FINAL else f"{label} T{i + 1}",
                    t.ruleset, t.roll_mode,
                    [Seat(t.players[p].name, registry.new_token()) for p in players],
                    options=dict(t.options))
              for i, players in enumerate(seating)]
    deals = [dealt(table, secure_shuffle)
             for table in tables]
    record = {"round": number, "stage": coming, "seating": [list(p) for p in seating],
              "tables": [table.id for table in tables], "started_at": time.time()}
    batch = []
    for table, deal in zip(tables, deals, strict=True):
        batch.append(AppendRequest(table.stream, 0, [
            ("table_created", registry.created_record(table)), ("status", {"status": "running"})],
            author="organizer"))
        if deal:
            batch.append(AppendRequest(table.stream, 2,
                                       move_records(deal, 1, table.rules.encode_fact),
                                       author="dealer"))
    batch.append(AppendRequest(t.stream, t.seq, [("round_started", record)], author="organizer"))
    results = hall.journal.append_many(batch)  # all of them or, stale, none
    seqs = {request.stream: result.last_seq for request, result in zip(batch, results, strict=True)}
    for table, deal in zip(tables, deals, strict=True):
        table.seq = seqs[table.stream]
        hall.tables[table.id] = table
        event.tables.append(table.id)
        index_tokens(hall.tokens, hall.codes, table)
        apply_record(table, "status", {"status": "running"})
        if deal:
            evolve(table, 1, "dealer", deal)
    t.seq = seqs[t.stream]
    apply(t, "round_started", record)
    return tables


def _next_seating(hall: HallState, t: Tournament, stage: str) -> tuple[tuple[int, ...], ...]:
    if stage == PRELIMINARY:
        if not t.plan:
            raise refuse("cannot_seat", "no seating is left for this round")
        return t.plan[0]
    standing = t.standing()
    absent = t.absent()
    semis = t.semi_results()
    if not semis:  # the cut of the preliminaries: to the semi-finals, or straight to the final
        _draw_at_the_cut(hall, t, cut_line(standing, cut_count(standing), absent))
    try:
        if stage == SEMI_FINAL:
            return semi_finals(standing, absent, t.drawn())
        return (finalists(standing, semis, absent, t.drawn()),)
    except TournamentError as error:
        raise refuse("cannot_seat", error.message) from None


def _draw_at_the_cut(hall: HallState, t: Tournament, cut: Cut | None) -> None:
    """RULES.md 28: the server draws among the players equal at the cut and journals the
    draw before the round that it seats; a draw already journalled for these same players
    (a round whose commit failed after it) stands, so a restart replays it."""
    if cut is None:
        return
    drawn = t.draw
    if drawn is not None and (drawn.count, drawn.sure, drawn.tied) == (cut.count, cut.sure, cut.tied):
        return
    commit(hall, t, "cut_drawn", {"count": cut.count, "sure": list(cut.sure), "tied": list(cut.tied),
                                  "seats": cut.seats, "order": list(secure_shuffle(cut.tied))})


def table_result(table: Table, players: Sequence[int]) -> TableResult:
    """A table's result as its ruleset's standings rows give it (RULES.md 26): the winner
    first when there is one, the others by landmarks, their cost, then coins."""
    rows = table.rules.standings_rows(table.story())
    scores = tuple(Score(player, int(row.get("landmarks") or 0),
                         int(row.get("landmark_cost") or 0), int(row.get("coins") or 0))
                   for player, row in zip(players, rows, strict=True))
    finished = tuple(player for player, row in zip(players, rows, strict=True)
                     if row.get("outcome") == "won")
    return TableResult(scores, finished[:1])


def close_round(hall: HallState, event_id: Any) -> Round:
    """Close the open round: its unfinished tables end and are ranked as they stand
    (RULES.md 26); every table's result is recorded."""
    with hall.lock:
        t = tournament_of(hall, event_id)
        current = t.open_round
        if current is None:
            raise refuse("no_round_open", "no round is open: start one first")
        tables = [hall.table(table_id) for table_id in current.tables]
    for table in tables:
        if hall.catch_up(table).status in ("setup", "running", "paused"):
            try:
                registry.set_status(hall, table.id, "end")
            except HallError as error:
                if error.code != "table/status":
                    raise  # else: ended meanwhile (another process): it stands as it ended

    def close() -> Round:
        closing = t.open_round
        if closing is None:
            raise refuse("no_round_open", "the round was closed meanwhile")
        results = [table_result(hall.catch_up(hall.table(table_id)), players)
                   for table_id, players in zip(closing.tables, closing.seating, strict=True)]
        commit(hall, t, "round_closed", {"round": closing.number, "results": [
            {"scores": [{"player": s.player, "landmarks": s.landmarks,
                         "landmark_cost": s.landmark_cost, "coins": s.coins} for s in r.scores],
             "finished": list(r.finished)} for r in results]})
        return closing

    with hall.lock:
        closed = twice(hall, t, close)
    hall.publish(Change(events=[t.event_id]))
    return closed
