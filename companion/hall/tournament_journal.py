"""A tournament's journal stream `tournament:EVENT_ID`: the replay that rebuilds it, the
commit of one decision, and the look-ups, which catch a tournament up with its journal first.

Several processes on one journal (`hall.shared`): memory is a cache of the stream. A look-up
compares the stream's last seq with the tournament's and applies what another process
appended; a tournament another process created is read on a miss. An action whose append
finds the stream moved on (StaleSequence) is caught up and decided again once (`decide`),
then refused `tournament/out_of_step`, never left to fail as a server error."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar
from weakref import WeakKeyDictionary

from companion.hall.checks import HallError
from companion.hall.model import Change
from companion.hall.tournament_model import (
    PRELIMINARY,
    Draw,
    Player,
    Round,
    Tournament,
    refuse,
    stream_of,
)
from companion.journal import Journal, Record, StaleSequence, rebuild_streams
from companion.tournament.scoring import Score, TableResult

if TYPE_CHECKING:
    from companion.hall.state import HallState

T = TypeVar("T")


# ------------------------------------------------------------ the replay


def load_tournaments(journal: Journal) -> dict[str, Tournament]:
    """Every tournament of the journal, rebuilt from its stream (at the hall's start)."""
    return {tournament.event_id: tournament
            for tournament in rebuild_streams(journal, "tournament:", rebuild)}


def rebuild(records: Iterable[Record]) -> Tournament | None:
    tournament: Tournament | None = None
    for record in records:
        if record.kind == "tournament_created":
            tournament = created(record.data)
        elif tournament is not None:
            apply(tournament, record.kind, record.data)
        if tournament is not None:
            tournament.seq = record.seq
    return tournament


def created(data: dict[str, Any]) -> Tournament:
    players = [Player(i, p["name"], p["token"], p.get("checked_in", True))
               for i, p in enumerate(data["players"])]
    return Tournament(data["event_id"], data["rounds"], data["ruleset"], dict(data["options"]),
                      data["roll_mode"], data.get("round_minutes"), players,
                      [list(g) for g in data["keep_apart"]], data["seed"])


def _seating(rounds: Sequence[Sequence[Sequence[int]]]) -> list[tuple[tuple[int, ...], ...]]:
    return [tuple(tuple(table) for table in tables) for tables in rounds]


def _results(data: Sequence[dict[str, Any]]) -> tuple[TableResult, ...]:
    return tuple(TableResult(tuple(Score(s["player"], s["landmarks"], s["landmark_cost"],
                                         s["coins"]) for s in r["scores"]),
                             tuple(r["finished"])) for r in data)


def apply(t: Tournament, kind: str, data: dict[str, Any]) -> None:
    """Apply one record of the tournament's stream (after its commit, and at a replay)."""
    if kind == "checked_in":
        t.players[data["player"]].checked_in = data["present"]
    elif kind == "started":
        t.started = True
        t.plan = _seating(data["plan"])
    elif kind == "dropped":
        t.players[data["player"]].dropped = True
        if "plan" in data:
            t.plan = _seating(data["plan"])
    elif kind == "arrived":
        if "player" in data:
            player = t.players[data["player"]]
            player.checked_in, player.dropped = True, False
        else:
            t.players.append(Player(len(t.players), data["name"], data["token"]))
            player = t.players[-1]
        player.late = t.started
        if "plan" in data:
            t.plan = _seating(data["plan"])
    elif kind == "round_started":
        seating = tuple(tuple(table) for table in data["seating"])
        t.played.append(Round(data["round"], data["stage"], seating, list(data["tables"]),
                              data["started_at"]))
        if data["stage"] == PRELIMINARY and t.plan:
            t.plan = t.plan[1:]
    elif kind == "round_closed":
        t.played[-1].results = _results(data["results"])
    elif kind == "cut_drawn":
        t.draw = Draw(data["count"], tuple(data["sure"]), tuple(data["tied"]), data["seats"],
                      tuple(data["order"]))


# ------------------------------------------------------------ catching up


def reload(hall: HallState, t: Tournament) -> Tournament:
    """Apply what the stream holds beyond the tournament's seq (another process's records)."""
    with hall.lock:
        for record in hall.journal.read(t.stream, t.seq):
            apply(t, record.kind, record.data)
            t.seq = record.seq
    return t


def catch_up(hall: HallState, t: Tournament) -> Tournament:
    """The tournament as its journal has it (several processes: one `last_seq` read)."""
    if hall.shared and hall.journal.last_seq(t.stream) != t.seq:
        reload(hall, t)
    return t


def known(hall: HallState, event_id: str) -> Tournament | None:
    """The event's tournament, caught up; one another process created is read (several
    processes only); None when the event has none."""
    with hall.lock:
        found: Tournament | None = hall.tournaments.get(event_id)
        if found is not None:
            return catch_up(hall, found)
        if not hall.shared:
            return None
        found = rebuild(hall.journal.read(stream_of(event_id)))
        if found is not None:
            hall.tournaments[event_id] = found
        return found


def tournament_of(hall: HallState, event_id: Any) -> Tournament:
    event = hall.event(event_id)  # event/unknown first
    found = known(hall, event.id)
    if found is None:
        raise HallError("tournament/unknown",
                        f"event {event.id} has no tournament: create one first")
    return found


SWEEP_SECONDS = 1.0  # the least time between two looks for a token no tournament here knows
_swept: WeakKeyDictionary[HallState, float] = WeakKeyDictionary()


def _may_sweep(hall: HallState) -> bool:
    """Whether a token's miss may look through the journal now (at most once a second, so
    made-up links cannot keep the journal busy)."""
    now = time.monotonic()
    if now - _swept.get(hall, -SWEEP_SECONDS) < SWEEP_SECONDS:
        return False
    _swept[hall] = now
    return True


def find_player(hall: HallState, token: Any) -> tuple[Tournament, Player] | None:
    """The tournament and player of a player token, both as the journal has them."""
    if not isinstance(token, str):
        return None
    with hall.lock:
        for t in list(hall.tournaments.values()):
            player = t.by_token(token)
            if player is not None:
                return catch_up(hall, t), player  # applied in place: the player is current
        if not hall.shared or not _may_sweep(hall):
            return None
        hall.discover()  # a late arrival or a tournament another process registered
        for event_id in list(hall.events):
            found = known(hall, event_id)
            player = found.by_token(token) if found is not None else None
            if found is not None and player is not None:
                return found, player
    return None


# ------------------------------------------------------------ deciding and committing


def out_of_step() -> HallError:
    return refuse("out_of_step", "the tournament changed on another server while this was "
                  "decided: look at it again and try again")


def twice(hall: HallState, t: Tournament, action: Callable[[], T]) -> T:
    """Run `action` (it decides and commits, under the hall's lock); when its append finds
    the stream moved on, catch the tournament (and the hall's tables) up and run it again
    once; a second stale append is refused `tournament/out_of_step`."""
    with hall.lock:
        try:
            return action()
        except StaleSequence:
            hall.discover()
            reload(hall, t)
        try:
            return action()
        except StaleSequence:
            raise out_of_step() from None


def commit(hall: HallState, t: Tournament, kind: str, data: dict[str, Any]) -> None:
    """Append one record to the tournament's stream, then apply it (under the hall's lock)."""
    t.seq = hall.journal.append(t.stream, t.seq, [(kind, data)], author="organizer").last_seq
    apply(t, kind, data)


def decide(hall: HallState, event_id: Any,
           decision: Callable[[Tournament], tuple[str, dict[str, Any]]]) -> Tournament:
    """One organizer's action on the caught-up tournament: `decision` checks (a refusal
    changes nothing) and gives the record to commit; decided again once on a stale append.
    Published once the lock is released."""
    with hall.lock:
        t = tournament_of(hall, event_id)
        twice(hall, t, lambda: commit(hall, t, *decision(t)))
    hall.publish(Change(events=[t.event_id]))
    return t
