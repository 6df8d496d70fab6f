"""Places and points of a table (RULES.md 26-27), the standings over the preliminary rounds
(27), the semi-final and final seeding and the tournament's ranking (28).

Points are `Fraction`s: tied players share the points of the places they cover, which can be
thirds or quarters (three players tied for first at a table of 4 get 10/3 each), and a float
would make equal totals unequal.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from companion.rules.errors import is_whole_number
from companion.tournament.errors import BadResult, TournamentError

POINTS: dict[int, tuple[int, ...]] = {4: (5, 3, 2, 1), 3: (5, 3, 1), 2: (5, 1)}
"""Points per place by table size (RULES.md 27); a table of 2 (only where the organizer allows
one) is not in the rules: first 5 and last 1, as at the other tables."""
SEMI_FINALS_FROM = 29  # players; fewer go straight to a final of the top 4 (RULES.md 28)
SNAKE = ((1, 8, 9, 16), (2, 7, 10, 15), (3, 6, 11, 14), (4, 5, 12, 13))
"""The semi-final tables by seed, each in start order (RULES.md 28)."""
Stage = Literal["final", "semi-final", "preliminaries"]


@dataclass(frozen=True)
class Score:
    """A player's count when the table's game ended or the round was closed."""

    player: int
    landmarks: int
    """Landmarks built."""
    landmark_cost: int
    """The total cost of the built landmarks."""
    coins: int


@dataclass(frozen=True)
class TableResult:
    """A table's result: its players' scores in start order, and who finished, in order: the
    winner alone without play on, everyone (or everyone but the last) with play on (RULES.md
    14), fewer or nobody at a table the organizer closed at the round's time."""

    scores: tuple[Score, ...]
    finished: tuple[int, ...] = ()


@dataclass(frozen=True)
class Placing:
    """A player's place and points at one table; `won` only for a game's winner."""

    player: int
    place: int
    points: Fraction
    won: bool
    landmarks: int
    coins: int


@dataclass(frozen=True)
class Standing:
    """A player's line in the standings, over all the preliminary tables they played."""

    player: int
    rank: int
    wins: int
    points: Fraction
    landmarks: int
    coins: int
    tables: int


@dataclass(frozen=True)
class Ranked:
    """A player's final rank in the tournament, and the stage they left it at."""

    player: int
    rank: int
    stage: Stage


def place(result: TableResult) -> tuple[Placing, ...]:
    """The table's places and points (RULES.md 26-27), best first, then in start order: the
    finished players in the order they finished, then the others by landmarks built, their
    total cost, then coins; players still equal share the place and its points."""
    _check(result)
    by_player = {score.player: score for score in result.scores}
    finished = [by_player[player] for player in result.finished]
    others = [score for score in result.scores if score.player not in result.finished]
    keys = [(len(finished) - index, 0, 0, 0) for index in range(len(finished))]  # larger: better
    keys += [(0, s.landmarks, s.landmark_cost, s.coins) for s in others]
    table = [*finished, *others]
    points = POINTS[len(table)]
    placings = []
    for score, key in zip(table, keys, strict=True):
        place = 1 + sum(other > key for other in keys)
        shared = sum(other == key for other in keys)
        share = Fraction(sum(points[place - 1:place - 1 + shared]), shared)
        won = bool(result.finished) and score.player == result.finished[0]
        placings.append(Placing(score.player, place, share, won, score.landmarks, score.coins))
    return tuple(sorted(placings, key=lambda placing: placing.place))


def _check(result: TableResult) -> None:
    """BadResult for a table that cannot be scored, naming what is wrong."""
    players = [score.player for score in result.scores]
    if len(players) not in POINTS:
        raise BadResult(f"scores: a table of {len(players)} players; tables have 2 to 4")
    for score in result.scores:
        if not is_whole_number(score.player) or players.count(score.player) > 1:
            raise BadResult(f"scores: player {score.player!r} is not an id or is listed twice")
        for name in ("landmarks", "landmark_cost", "coins"):
            value = getattr(score, name)
            if not is_whole_number(value) or value < 0:
                raise BadResult(f"scores: {name} of player {score.player} is {value!r}, "
                                "not a whole number of 0 or more")
    for player in result.finished:
        if player not in players or result.finished.count(player) > 1:
            raise BadResult(f"finished: {player!r} did not play at this table or is listed twice")


def standings(results: Iterable[TableResult], players: Iterable[int] = ()) -> tuple[Standing, ...]:
    """The standings over the preliminary tables' results (RULES.md 27): wins, then points,
    then landmarks built, then coins over all rounds; players still equal share a rank.
    `players` adds those with no table yet, at zero. Best first, then by player id."""
    totals = {player: _Totals() for player in players}
    for result in results:
        for placing in place(result):
            totals.setdefault(placing.player, _Totals()).add(placing)
    keys = {player: line.key() for player, line in totals.items()}
    lines = [Standing(player, 1 + sum(other > keys[player] for other in keys.values()),
                      line.wins, line.points, line.landmarks, line.coins, line.tables)
             for player, line in totals.items()]
    return tuple(sorted(lines, key=lambda standing: (standing.rank, standing.player)))


@dataclass
class _Totals:
    wins: int = 0
    points: Fraction = Fraction(0)
    landmarks: int = 0
    coins: int = 0
    tables: int = 0

    def add(self, placing: Placing) -> None:
        self.wins += placing.won
        self.points += placing.points
        self.landmarks += placing.landmarks
        self.coins += placing.coins
        self.tables += 1

    def key(self) -> tuple[int, Fraction, int, int]:
        return self.wins, self.points, self.landmarks, self.coins


@dataclass(frozen=True)
class Cut:
    """Players still equal at the cut line for `count` seats (RULES.md 28): those ranked
    above them (`sure`, best first) and the `tied` (by player id), who share the `seats` left."""

    count: int
    sure: tuple[int, ...]
    tied: tuple[int, ...]
    seats: int


def cut_line(standing: Sequence[Standing], count: int, absent: Collection[int] = ()) -> Cut | None:
    """The players still there who are equal across the cut of the best `count`, or None
    when the standings' ranks alone decide who plays on (or too few can)."""
    order = _present_order(standing, absent)
    if len(order) <= count or order[count - 1].rank != order[count].rank:
        return None
    rank = order[count].rank
    sure = tuple(line.player for line in order if line.rank < rank)
    tied = tuple(sorted(line.player for line in order if line.rank == rank))
    return Cut(count, sure, tied, count - len(sure))


def seeds(standing: Sequence[Standing], count: int, absent: Collection[int] = (),
          drawn: Sequence[int] = ()) -> tuple[int, ...]:
    """The best `count` players of the standings who are still there (not `absent`), best
    first; equal ranks above the cut fall to the lower player id, players equal across it to
    the server's draw, `drawn` (its order of the tied players), which is then needed."""
    order = _present_order(standing, absent)
    if len(order) < count:
        raise TournamentError(f"standings: {len(order)} players can play on, {count} are needed")
    cut = cut_line(standing, count, absent)
    if cut is None:
        return tuple(line.player for line in order[:count])
    if sorted(drawn) != list(cut.tied):
        names = ", ".join(map(str, cut.tied[:-1])) + f" and {cut.tied[-1]}"
        raise TournamentError(f"standings: players {names} are equal at the cut for "
                              f"{cut.seats} seat{'s' if cut.seats > 1 else ''}: a draw among "
                              "them is needed")
    return cut.sure + tuple(drawn[:cut.seats])


def _present_order(standing: Sequence[Standing], absent: Collection[int]) -> list[Standing]:
    return [line for line in sorted(standing, key=lambda line: (line.rank, line.player))
            if line.player not in absent]


def cut_count(standing: Sequence[Standing]) -> int:
    """How many play on after the preliminaries: 16 to the semi-finals, else 4 to the final."""
    return 16 if len(standing) >= SEMI_FINALS_FROM else 4


def semi_finals(standing: Sequence[Standing], absent: Collection[int] = (),
                drawn: Sequence[int] = ()) -> tuple[tuple[int, ...], ...]:
    """The four semi-final tables of the top 16 in snake order, each in start order (best
    seed first); none with fewer than 29 players in the standings (RULES.md 28). `drawn`:
    the draw at the cut, when one is needed (`seeds`)."""
    if len(standing) < SEMI_FINALS_FROM:
        return ()
    top = seeds(standing, 16, absent, drawn)
    return tuple(tuple(top[seed - 1] for seed in table) for table in SNAKE)


def finalists(standing: Sequence[Standing], semi_results: Sequence[TableResult] = (),
              absent: Collection[int] = (), drawn: Sequence[int] = ()) -> tuple[int, ...]:
    """The final table in start order (best seed first): the top 4 of the standings, or with
    29 or more players the winner of each semi-final, the better seed where a closed table
    left its first place shared."""
    tables = semi_finals(standing, absent, drawn)
    if not tables:
        return seeds(standing, 4, absent, drawn)
    seed = {player: number for number, player in enumerate(seeds(standing, 16, absent, drawn))}
    if sorted(sorted(_players(result)) for result in semi_results) != sorted(map(sorted, tables)):
        raise BadResult("semi_results: one result for each of the four semi-final tables is needed")
    winners = [min((p.player for p in place(result) if p.place == 1), key=seed.__getitem__)
               for result in semi_results]
    return tuple(sorted(winners, key=seed.__getitem__))


def tournament_ranking(standing: Sequence[Standing], final: TableResult,
                       semi_results: Sequence[TableResult] = (),
                       absent: Collection[int] = (), drawn: Sequence[int] = ()) -> tuple[Ranked, ...]:
    """The tournament's ranking (RULES.md 28): the final's places first, then the players who
    left at the semi-finals in the order of their preliminary ranks, then everyone else in
    theirs (who lost a draw at the cut too); equal ranks are shared within each of these
    groups."""
    expected = finalists(standing, semi_results, absent, drawn)
    if sorted(_players(final)) != sorted(expected):
        raise BadResult(f"final: the final table is {sorted(expected)}, not {sorted(_players(final))}")
    prior = {line.player: line.rank for line in standing}
    semi = [player for result in semi_results for player in _players(result)]
    left_semi = sorted((prior[p], p) for p in semi if p not in expected)
    rest = sorted((line.rank, line.player) for line in standing
                  if line.player not in expected and line.player not in semi)
    finals = [(placing.place, placing.player) for placing in place(final)]
    groups: list[tuple[Stage, list[tuple[int, int]]]] = [
        ("final", finals), ("semi-final", left_semi), ("preliminaries", rest)]
    ranking, above = [], 0
    for stage, group in groups:
        for key, player in group:
            better = sum(other < key for other, _ in group)
            ranking.append(Ranked(player, above + better + 1, stage))
        above += len(group)
    return tuple(ranking)


def _players(result: TableResult) -> list[int]:
    return [score.player for score in result.scores]
