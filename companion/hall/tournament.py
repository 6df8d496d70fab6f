"""A tournament of an event (RULES.md 25-29): registration, check-in, drops and late arrivals,
the seating of the preliminary rounds, rounds whose tables are ordinary tables of the event,
places and points when a round closes, then the semi-finals and the final.

Its journal stream `tournament:EVENT_ID` holds every decision, the generated seating too (a
replay never searches again), and the results of each table as the round closed. A round's
tables are created through the registry (`registry.add_tables`) and started as any table:
how a table plays does not change. Each player has one player token for the whole
tournament; `current_seat` turns it into the seat token of the player's table this round.

Actions check first, then commit, then apply, under the hall's lock; a refusal changes nothing.
"""

from __future__ import annotations

import secrets
import time
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from random import Random
from typing import TYPE_CHECKING, Any

from companion.hall import checks, registry
from companion.hall.checks import HallError, clean_name
from companion.hall.model import Change, Table
from companion.journal import Journal, Record
from companion.rules import registry as rules_registry
from companion.tournament.errors import TournamentError
from companion.tournament.scoring import (
    Score,
    Standing,
    TableResult,
    finalists,
    semi_finals,
    standings,
    tournament_ranking,
)
from companion.tournament.seating import reseat, table_sizes

if TYPE_CHECKING:
    from companion.hall.service import HallService

PRELIMINARY, SEMI_FINAL, FINAL = "preliminary", "semi-final", "final"
DEFAULT_ROUNDS = 3
MAX_ROUNDS = 10
ROUND_MINUTES = (5, 300)
MAX_PLAYERS = 2_000


def stream_of(event_id: str) -> str:
    return f"tournament:{event_id}"


@dataclass
class Player:
    id: int  # registration order, from 0: the seating's player id
    name: str
    token: str  # the player token: one for the whole tournament
    checked_in: bool = True
    dropped: bool = False
    late: bool = False  # arrived after the start

    @property
    def join_path(self) -> str:
        return f"/t/{self.token}"


@dataclass
class Round:
    number: int  # 1, 2, ...: the preliminaries, then a semi-final round, then the final
    stage: str  # PRELIMINARY, SEMI_FINAL or FINAL
    seating: tuple[tuple[int, ...], ...]  # player ids per table, in start order
    tables: list[str]  # the hall's table ids, one per seating table
    started_at: float
    results: tuple[TableResult, ...] | None = None  # set when the round closes

    @property
    def open(self) -> bool:
        return self.results is None


@dataclass
class Tournament:
    event_id: str
    rounds: int
    ruleset: str
    options: dict[str, Any]
    roll_mode: str
    round_minutes: int | None
    players: list[Player]
    keep_apart: list[list[int]]
    seed: int
    plan: list[tuple[tuple[int, ...], ...]] = field(default_factory=list)  # unplayed preliminaries
    played: list[Round] = field(default_factory=list)
    started: bool = False
    seq: int = 0

    @property
    def stream(self) -> str:
        return stream_of(self.event_id)

    def player(self, player_id: Any) -> Player:
        if not (isinstance(player_id, int) and not isinstance(player_id, bool)
                and 0 <= player_id < len(self.players)):
            raise HallError("tournament/unknown_player", f"there is no player {player_id!r}")
        return self.players[player_id]

    def by_token(self, token: str) -> Player | None:
        return next((p for p in self.players if p.token == token), None)

    @property
    def current(self) -> Round | None:
        return self.played[-1] if self.played else None

    @property
    def open_round(self) -> Round | None:
        current = self.current
        return current if current is not None and current.open else None

    def preliminaries(self) -> list[Round]:
        return [r for r in self.played if r.stage == PRELIMINARY]

    def present(self) -> list[int]:
        return [p.id for p in self.players if p.checked_in and not p.dropped]

    def absent(self) -> set[int]:
        return {p.id for p in self.players if p.dropped or not p.checked_in}

    def standing(self) -> tuple[Standing, ...]:
        """The standings over the closed preliminary rounds (RULES.md 27); every player who
        has played or is present, dropped players included (they keep their line)."""
        results = [result for r in self.preliminaries() if r.results for result in r.results]
        seated = {p for r in self.played for table in r.seating for p in table}
        players = [p.id for p in self.players if p.id in seated or (p.checked_in and not p.dropped)]
        return standings(results, players)

    def stage(self) -> str:
        """registration, preliminaries, semi-final, final or done."""
        if not self.started:
            return "registration"
        current = self.current
        if current is not None and current.stage == FINAL:
            return "final" if current.open else "done"
        if current is not None and current.stage == SEMI_FINAL:
            return SEMI_FINAL
        return "preliminaries"

    def next_stage(self) -> str | None:
        """What the organizer may start next: a preliminary round, the semi-finals, the
        final, or nothing (a round is open, or the final is over)."""
        if not self.started or self.open_round is not None:
            return None
        if len(self.preliminaries()) < self.rounds:
            return PRELIMINARY
        stages = [r.stage for r in self.played]
        if FINAL in stages:
            return None
        if SEMI_FINAL not in stages and semi_finals(self.standing(), self.absent()):
            return SEMI_FINAL
        return FINAL


# ------------------------------------------------------------ the journal


def load_tournaments(journal: Journal) -> dict[str, Tournament]:
    """Every tournament of the journal, rebuilt from its stream (at the hall's start)."""
    found = {}
    for stream in journal.streams():
        if stream.startswith("tournament:"):
            tournament = rebuild(journal.read(stream))
            if tournament is not None:
                found[tournament.event_id] = tournament
    return found


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


def commit(hall: HallService, t: Tournament, kind: str, data: dict[str, Any]) -> None:
    """Append one record to the tournament's stream, then apply it (under the hall's lock)."""
    t.seq = hall.journal.append(t.stream, t.seq, [(kind, data)], author="organizer").last_seq
    apply(t, kind, data)


def tournaments(hall: HallService) -> dict[str, Tournament]:
    found: dict[str, Tournament] = hall.tournaments
    return found


def tournament_of(hall: HallService, event_id: Any) -> Tournament:
    hall.event(event_id)  # event/unknown first
    found = tournaments(hall).get(str(event_id))
    if found is None:
        raise HallError("tournament/unknown",
                        f"event {event_id} has no tournament: create one first")
    return found


def find_player(hall: HallService, token: Any) -> tuple[Tournament, Player] | None:
    if not isinstance(token, str):
        return None
    with hall.lock:
        for t in tournaments(hall).values():
            player = t.by_token(token)
            if player is not None:
                return t, player
    return None


# ------------------------------------------------------------ checks of the organizer's input


def refuse(code: str, message: str) -> HallError:
    return HallError(f"tournament/{code}", " ".join(message.split()))


def _key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold()


def player_names(value: Any) -> list[str]:
    """A pasted list (text, one name a line; or a list of names), cleaned; blank lines go."""
    if isinstance(value, str):
        lines = [line for line in value.splitlines() if line.strip()]
    elif isinstance(value, list):
        lines = value
    else:
        raise refuse("invalid", "players is the pasted list of names, one a line (or a list)")
    names = []
    for line in lines:
        try:
            names.append(clean_name(line, "player name"))
        except HallError as error:
            raise refuse("invalid", f"players: {error.message} (line {len(names) + 1})") from None
    if len(names) > MAX_PLAYERS:
        raise refuse("invalid", f"players: {len(names)} names; a tournament takes at most {MAX_PLAYERS}")
    return names


def no_duplicates(names: Sequence[str], known: Sequence[str] = ()) -> None:
    seen = {_key(name): i for i, name in enumerate(known)}
    for number, name in enumerate(names, start=1):
        if _key(name) in seen:
            raise refuse("duplicate_name",
                         f"players: {name!r} is listed twice; add an initial or a surname to "
                         "one of them so every player has a name of their own")
        seen[_key(name)] = number


def keep_apart_groups(value: Any, names: Sequence[str]) -> list[list[int]]:
    """Groups of names (text: one group a line, names separated by commas; or lists of names)
    as lists of player ids."""
    if value is None or value == "":
        return []
    if isinstance(value, str):
        groups: Any = [line.split(",") for line in value.splitlines() if line.strip()]
    elif isinstance(value, list) and all(isinstance(g, list) for g in value):
        groups = value
    else:
        raise refuse("invalid", "keep_apart is a list of groups of names (a line each, names "
                     "separated by commas)")
    ids = {_key(name): i for i, name in enumerate(names)}
    found = []
    for group in groups:
        members = []
        for name in group:
            if not isinstance(name, str) or not name.strip():
                continue
            player = ids.get(_key(" ".join(name.split())))
            if player is None:
                raise refuse("keep_apart", f"keep_apart: {name.strip()!r} is not on the list of "
                              "players; write the name as it is on the list")
            members.append(player)
        if len(members) > 1:
            found.append(members)
    return found


def check_seating(count: int, groups: Sequence[Sequence[int]], names: Sequence[str]) -> None:
    """Refuse a count of players that cannot be seated, or a keep-apart group larger than the
    number of tables (RULES.md 25), saying what to change."""
    try:
        tables = len(table_sizes(count))
    except TournamentError as error:
        raise refuse("cannot_seat", f"{count} players cannot be seated at tables of 4 and 3: "
                     + ("add or remove one player" if count == 5
                        else f"add {3 - count} more") + f" ({error.message})") from None
    for group in groups:
        if len(group) > tables:
            listed = ", ".join(names[p] for p in group)
            raise refuse("keep_apart", f"keep_apart: the group {listed} has {len(group)} "
                         f"players but there are only {tables} tables; split the group into "
                         f"groups of at most {tables}")


def settings(data: dict[str, Any]) -> dict[str, Any]:
    rounds = data.get("rounds", DEFAULT_ROUNDS)
    if not (isinstance(rounds, int) and not isinstance(rounds, bool) and 1 <= rounds <= MAX_ROUNDS):
        raise refuse("invalid", f"rounds is the number of preliminary rounds, 1 to {MAX_ROUNDS}")
    ruleset = data.get("ruleset", "machi-koro")
    if ruleset not in checks.RULESETS:
        raise refuse("invalid", f"ruleset is one of {', '.join(checks.RULESETS)}")
    rules = rules_registry.ruleset(ruleset)
    try:
        options = checks.table_options(rules, data.get("options"))
    except HallError as error:
        raise refuse("invalid", error.message) from None
    roll_mode = data.get("roll_mode", "own")
    if roll_mode not in checks.ROLL_MODES:
        raise refuse("invalid", "roll_mode is hall or own")
    minutes = data.get("round_minutes")
    low, high = ROUND_MINUTES
    if minutes is not None and not (isinstance(minutes, int) and not isinstance(minutes, bool)
                                    and low <= minutes <= high):
        raise refuse("invalid", f"round_minutes is a whole number from {low} to {high}, or null "
                     "for rounds without a time")
    return {"rounds": rounds, "ruleset": ruleset, "options": options, "roll_mode": roll_mode,
            "round_minutes": minutes}


# ------------------------------------------------------------ the organizer's actions


def create(hall: HallService, event_id: Any, data: dict[str, Any]) -> Tournament:
    """Register a tournament for the event: its players (checked in unless `absent` names
    them), keep-apart groups, rounds, ruleset, options and round time."""
    chosen = settings(data)
    names = player_names(data.get("players"))
    no_duplicates(names)
    groups = keep_apart_groups(data.get("keep_apart"), names)
    absent = {_key(n) for n in player_names(data.get("absent") or [])}
    present = [n for n in names if _key(n) not in absent]
    check_seating(len(present), [[p for p in g if _key(names[p]) not in absent] for g in groups],
                  names)
    with hall.lock:
        event = hall.event(event_id)
        if event.id in tournaments(hall):
            raise refuse("exists", f"event {event.id} has a tournament already")
        record = {"event_id": event.id, **chosen, "keep_apart": groups,
                  "seed": secrets.randbits(32),
                  "players": [{"name": n, "token": registry.new_token(),
                               **({"checked_in": False} if _key(n) in absent else {})}
                              for n in names]}
        hall.journal.append(stream_of(event.id), 0, [("tournament_created", record)],
                            author="organizer")
        tournament = rebuild(hall.journal.read(stream_of(event.id)))
        assert tournament is not None
        tournaments(hall)[event.id] = tournament
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


def check_in(hall: HallService, event_id: Any, player_id: Any, present: Any = True) -> Tournament:
    """Before the start: mark a registered player present (or absent)."""
    if not isinstance(present, bool):
        raise refuse("invalid", "present is true or false")
    with hall.lock:
        t = tournament_of(hall, event_id)
        player = t.player(player_id)
        if t.started:
            raise refuse("started", "the tournament has started: a player who comes now "
                         "arrives late (late), one who leaves drops (drop)")
        commit(hall, t, "checked_in", {"player": player.id, "present": present})
    hall.publish(Change(events=[t.event_id]))
    return t


def start(hall: HallService, event_id: Any) -> Tournament:
    """Close registration and seat every preliminary round for the players present."""
    with hall.lock:
        t = tournament_of(hall, event_id)
        if t.started:
            raise refuse("started", "the tournament has started already")
        plan = _plan(t, t.present(), t.rounds)
        commit(hall, t, "started", {"plan": plan})
    hall.publish(Change(events=[t.event_id]))
    return t


def _remaining(t: Tournament) -> int:
    """Preliminary rounds not started yet."""
    return t.rounds - len(t.preliminaries())


def drop(hall: HallService, event_id: Any, player_id: Any) -> Tournament:
    """A player leaves: not seated in the rounds not started yet (which are seated again); a
    table they sit at now plays on."""
    with hall.lock:
        t = tournament_of(hall, event_id)
        player = t.player(player_id)
        if player.dropped:
            raise refuse("dropped", f"{player.name} has dropped already")
        data: dict[str, Any] = {"player": player.id}
        if t.started and _remaining(t):
            present = [p for p in t.present() if p != player.id]
            data["plan"] = _plan(t, present, _remaining(t))
        commit(hall, t, "dropped", data)
    hall.publish(Change(events=[t.event_id]))
    return t


def arrive(hall: HallService, event_id: Any, name: Any) -> Tournament:
    """A late arrival: a registered player who was absent, or a new name; seated from the
    next preliminary round on (the rounds not started yet are seated again)."""
    with hall.lock:
        t = tournament_of(hall, event_id)
        [cleaned] = player_names([name])
        known = next((p for p in t.players if _key(p.name) == _key(cleaned)), None)
        if known is not None and known.checked_in and not known.dropped:
            raise refuse("duplicate_name", f"players: {cleaned!r} is playing already; a new "
                         "player needs a name of their own (add an initial or a surname)")
        data: dict[str, Any] = ({"player": known.id} if known is not None
                                else {"name": cleaned, "token": registry.new_token()})
        new_id = known.id if known is not None else len(t.players)
        if t.started and _remaining(t):
            data["plan"] = _plan(t, sorted([*t.present(), new_id]), _remaining(t))
        commit(hall, t, "arrived", data)
    hall.publish(Change(events=[t.event_id]))
    return t


def start_round(hall: HallService, event_id: Any, stage: str | None = None) -> Round:
    """Start the next round: its tables created from the seating (start order = seat order)
    and started. `stage` FINAL starts the semi-finals or the final, whichever comes next."""
    with hall.lock:
        t = tournament_of(hall, event_id)
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
            raise refuse("preliminaries_left", f"{_remaining(t)} preliminary round(s) are "
                         "still to play before the final")
        seating = _next_seating(t, coming)
        number = len(t.played) + 1
        names = [[t.players[p].name for p in table] for table in seating]
        label = {PRELIMINARY: f"R{number}", SEMI_FINAL: "Semi-final", FINAL: "Final"}[coming]
        groups = [(f"{label} T{i}" if coming != FINAL else label, table)
                  for i, table in enumerate(names, start=1)]
        event = hall.event(t.event_id)
        created = registry.add_tables(hall, event, groups, t.ruleset, t.roll_mode,
                                      dict(t.options))
        commit(hall, t, "round_started", {
            "round": number, "stage": coming, "seating": [list(table) for table in seating],
            "tables": [table.id for table in created], "started_at": time.time()})
        started = t.played[-1]
    hall.publish(Change(tables=[table.id for table in created], events=[t.event_id]))
    for table in created:
        hall.set_status(table.id, "start")
    return started


def _next_seating(t: Tournament, stage: str) -> tuple[tuple[int, ...], ...]:
    if stage == PRELIMINARY:
        if not t.plan:
            raise refuse("cannot_seat", "no seating is left for this round")
        return t.plan[0]
    standing = t.standing()
    absent = t.absent()
    try:
        if stage == SEMI_FINAL:
            return semi_finals(standing, absent)
        semis = [result for r in t.played if r.stage == SEMI_FINAL and r.results
                 for result in r.results]
        return (finalists(standing, semis, absent),)
    except TournamentError as error:
        raise refuse("cannot_seat", error.message) from None


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


def close_round(hall: HallService, event_id: Any) -> Round:
    """Close the open round: its unfinished tables end and are ranked as they stand
    (RULES.md 26); every table's result is recorded."""
    with hall.lock:
        t = tournament_of(hall, event_id)
        current = t.open_round
        if current is None:
            raise refuse("no_round_open", "no round is open: start one first")
        tables = [hall.table(table_id) for table_id in current.tables]
    for table in tables:
        if table.status in ("setup", "running", "paused"):
            hall.set_status(table.id, "end")
    with hall.lock:
        if t.open_round is not current:
            raise refuse("no_round_open", "the round was closed meanwhile")
        results = [table_result(table, players)
                   for table, players in zip(tables, current.seating, strict=True)]
        commit(hall, t, "round_closed", {"round": current.number, "results": [
            {"scores": [{"player": s.player, "landmarks": s.landmarks,
                         "landmark_cost": s.landmark_cost, "coins": s.coins} for s in r.scores],
             "finished": list(r.finished)} for r in results]})
    hall.publish(Change(events=[t.event_id]))
    return current


# ------------------------------------------------------------ where a player sits


def current_seat(hall: HallService, token: Any) -> tuple[Tournament, Player, str | None]:
    """The player of a player token, and the seat token of their table in the open round
    (None between rounds or when they do not play this round)."""
    found = find_player(hall, token)
    if found is None:
        raise HallError("tournament/unknown_player_token",
                        "this tournament link is not (or no longer) valid")
    t, player = found
    with hall.lock:
        current = t.open_round
        if current is None:
            return t, player, None
        for table_id, seating in zip(current.tables, current.seating, strict=True):
            if player.id in seating:
                return t, player, hall.table(table_id).seats[seating.index(player.id)].token
    return t, player, None


def points_text(points: Fraction) -> str:
    """Points as people read them: 5, 3.33, 2.5."""
    if points.denominator == 1:
        return str(points.numerator)
    return f"{float(points):.2f}".rstrip("0").rstrip(".")


def shown_round(t: Tournament) -> tuple[int, str, tuple[tuple[int, ...], ...], bool] | None:
    """The round players look for: the open one, else the next preliminary round planned;
    (number, stage, seating, open)."""
    current = t.open_round
    if current is not None:
        return current.number, current.stage, current.seating, True
    if t.started and t.plan and t.next_stage() == PRELIMINARY:
        return len(t.played) + 1, PRELIMINARY, t.plan[0], False
    return None


def public_view(hall: HallService, t: Tournament) -> dict[str, Any]:
    """What the projector and the phones show: no tokens."""
    with hall.lock:
        event = hall.event(t.event_id)
        names = [p.name for p in t.players]
        standing = [{"rank": s.rank, "name": names[s.player], "wins": s.wins,
                     "points": points_text(s.points), "landmarks": s.landmarks,
                     "coins": s.coins, "tables": s.tables,
                     "dropped": t.players[s.player].dropped}
                    for s in t.standing()]
        shown = shown_round(t)
        seating = None
        if shown is not None:
            number, stage, tables, is_open = shown
            current = t.open_round
            table_names = ([hall.table(i).name for i in current.tables] if current is not None
                           else [f"R{number} T{i}" for i in range(1, len(tables) + 1)])
            seating = {"round": number, "stage": stage, "open": is_open, "tables": [
                {"table": i, "name": table_names[i - 1],
                 "players": [names[p] for p in table]}
                for i, table in enumerate(tables, start=1)]}
        current = t.current
        round_info = None
        if current is not None:
            ends = (current.started_at + 60 * t.round_minutes
                    if t.round_minutes and current.open else None)
            round_info = {"round": current.number, "stage": current.stage,
                          "open": current.open, "started_at": current.started_at,
                          "ends_at": ends}
        ranking = None
        if t.stage() == "done":
            ranking = final_ranking(t)
        return {"event": {"id": event.id, "name": event.name}, "stage": t.stage(),
                "rounds": t.rounds, "played": len(t.preliminaries()),
                "round_minutes": t.round_minutes, "current": round_info,
                "seating": seating, "standings": standing, "ranking": ranking,
                "next": t.next_stage(), "now": time.time()}


def final_ranking(t: Tournament) -> list[dict[str, Any]]:
    final = t.played[-1]
    assert final.results is not None
    semis = [r for round_ in t.played if round_.stage == SEMI_FINAL and round_.results
             for r in round_.results]
    ranked = tournament_ranking(t.standing(), final.results[0], semis, t.absent())
    return [{"rank": r.rank, "name": t.players[r.player].name, "stage": r.stage} for r in ranked]


def where(hall: HallService, t: Tournament, query: str) -> list[dict[str, Any]]:
    """The seats of the shown round whose player's name holds `query` (any case)."""
    view = public_view(hall, t)
    wanted = _key(" ".join(query.split()))
    seating = view["seating"]
    if seating is None:
        return []
    return [{"name": name, "round": seating["round"], "table": table["table"],
             "table_name": table["name"], "position": position}
            for table in seating["tables"]
            for position, name in enumerate(table["players"], start=1)
            if wanted and wanted in _key(name)]


def organizer_view(hall: HallService, t: Tournament, base: str) -> dict[str, Any]:
    """The public view with the players' tokens and join links, for the organizer."""
    view = public_view(hall, t)
    with hall.lock:
        view["players"] = [{"id": p.id, "name": p.name, "token": p.token,
                            "join_path": p.join_path, "join_url": base + p.join_path,
                            "checked_in": p.checked_in, "dropped": p.dropped, "late": p.late}
                           for p in t.players]
        view["keep_apart"] = [[t.players[p].name for p in g] for g in t.keep_apart]
        view["ruleset"], view["options"] = t.ruleset, t.options
        view["roll_mode"] = t.roll_mode
        view["plan"] = [[[t.players[p].name for p in table] for table in tables]
                        for tables in t.plan]
        view["played_rounds"] = [{"round": r.number, "stage": r.stage, "tables": r.tables,
                                  "open": r.open, "seating": [[t.players[p].name for p in table]
                                                              for table in r.seating]}
                                 for r in t.played]
    return view
