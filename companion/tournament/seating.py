"""Seating the preliminary rounds of a tournament (RULES.md 25), and re-seating the rounds not
yet played when players drop or arrive late.

Every present player sits once a round, at tables of 4 and as few tables of 3 as the count
allows (tables of 4 first, then the 3s); never a table of 2 unless the organizer allows it,
and then only where the count leaves no other way (2 or 5 players). Each round is built on
the rounds before it, with these priorities in order: nobody meets an opponent again while
that can be avoided; nobody is first player twice while that can be avoided (then, within
each table, nobody takes a start position again while that can be avoided); and players
of one keep-apart group never share a table, which is always possible for a group no larger
than the number of tables and is therefore kept without exception (larger groups are
refused).

How: the players are dealt round the tables in a random order in which each keep-apart group
stands together, so a group never lands twice at one table; a tabu search (`search.py`) then
swaps players to remove repeated opponents and second first seats; the start order of each
table is the best of its orders. A seating that keeps a repeat or a second first seat that a
count does not force is made again from the start a few times (small tournaments, where the
early rounds can block the later ones) and the best is kept. Randomness only from the
`Random` passed in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import TYPE_CHECKING

from companion.rules.errors import is_whole_number
from companion.tournament.errors import CannotSeat
from companion.tournament.firsts import choose_firsts, order_table
from companion.tournament.joint import improve_rounds
from companion.tournament.search import Record, improve

if TYPE_CHECKING:
    from random import Random

Table = tuple[int, ...]
"""A table's players in start order: the first is the first player."""
Round = tuple[Table, ...]

PATIENCE_STEPS = 200  # a round's search stops after this many steps with nothing better ...
PATIENCE_PER_TABLE = 4  # ... plus this many per table, up to
PATIENCE_TABLES = 50  # ... this many tables (many tables leave many ways, found soon)
MAX_ATTEMPTS = 12  # a seating short of the ideal is made again from scratch up to this many times,
ATTEMPT_BUDGET = 1_200  # ... fewer for many players and rounds: this divided by players x rounds
JOINT_PLAYERS = 48  # up to this many players, a seating with repeats is searched over all rounds
JOINT_STEPS = 30_000  # ... for this many swaps (about a second for 12 players in 4 rounds)


def table_sizes(players: int, *, allow_two: bool = False) -> tuple[int, ...]:
    """The sizes of one round's tables: 4s, then as few 3s as `players` allows; a table of 2
    only with `allow_two` and only for 2 or 5 players. CannotSeat says what to change."""
    threes = -players % 4
    fours = (players - 3 * threes) // 4
    if players >= 3 and fours >= 0:
        return (4,) * fours + (3,) * threes
    if allow_two and players in (2, 5):
        return (3, 2) if players == 5 else (2,)
    if players == 5:
        raise CannotSeat("players: 5 cannot sit at tables of 4 and 3 (RULES.md 25); "
                         "check in one more or one fewer")
    needed = 2 if allow_two else 3
    raise CannotSeat(f"players: {players} cannot be seated; a table needs at least {needed} "
                     f"players (RULES.md 25): check in {needed - players} more")


def seat(players: int, rounds: int, rng: Random, *, keep_apart: Sequence[Sequence[int]] = (),
         allow_two: bool = False) -> tuple[Round, ...]:
    """The seating of `rounds` preliminary rounds for players 0 to `players` - 1."""
    if not is_whole_number(players):
        raise CannotSeat(f"players: {players!r} is not a whole number")
    return reseat((), range(players), rounds, rng, keep_apart=keep_apart, allow_two=allow_two)


def reseat(played: Sequence[Sequence[Sequence[int]]], players: Iterable[int], rounds: int,
           rng: Random, *, keep_apart: Sequence[Sequence[int]] = (),
           allow_two: bool = False) -> tuple[Round, ...]:
    """The seating of the next `rounds` rounds for the `players` present now, the `played`
    rounds (tables in start order, dropped players included) counting as history: who met
    whom and who sat where. A late arrival is a new id with no history."""
    present = _players(players)
    if not is_whole_number(rounds) or rounds < 1:
        raise CannotSeat(f"rounds: {rounds!r}; at least 1 round is needed")
    sizes = table_sizes(len(present), allow_two=allow_two)
    groups = _groups(keep_apart, set(present), len(sizes))
    history = [_played_round(past, number) for number, past in enumerate(played, start=1)]
    attempts = max(1, min(MAX_ATTEMPTS, ATTEMPT_BUDGET // (len(present) * rounds)))
    before = repeats(history)
    floor = before.firsts + _new_firsts_floor(history, present, len(sizes), rounds)
    best: tuple[Round, ...] = ()
    least = Repeats(0, 0, 0)
    for _ in range(attempts):
        seating = _plan(history, present, len(sizes), groups, rounds, rng)
        shortfall = repeats([*history, *seating])
        if not best or _order(shortfall) < _order(least):
            best, least = seating, shortfall
        if least.opponents == before.opponents and least.firsts <= floor:
            break  # nothing better is possible in what comes first
    if least.opponents > before.opponents and len(present) <= JOINT_PLAYERS:
        apart = {player: frozenset(group) - {player} for group in groups for player in group}
        joint = _first_players(history, improve_rounds(history, best, apart, rng, JOINT_STEPS))
        best, least = _better(history, (best, least), joint)
    if least.firsts > floor:
        best, least = _better(history, (best, least), _first_players(history, best))
    return best


def _better(history: Sequence[Sequence[Sequence[int]]], kept: tuple[tuple[Round, ...], Repeats],
            other: tuple[Round, ...]) -> tuple[tuple[Round, ...], Repeats]:
    """The better of a seating and its repeats and `other` (the kept one when equal)."""
    shortfall = repeats([*history, *other])
    return (other, shortfall) if _order(shortfall) < _order(kept[1]) else kept


def _first_players(history: Sequence[Sequence[Sequence[int]]],
                   rounds: Sequence[Sequence[Sequence[int]]]) -> tuple[Round, ...]:
    """The same tables with their first players chosen over all rounds at once (`firsts.py`)
    and the others in the start positions they took least."""
    record = Record()
    for past in history:
        record.add(past)
    tables = [table for tables in rounds for table in tables]
    firsts = iter(choose_firsts(tables, {player: record.firsts(player) for player in record.seats}))
    seating = []
    for planned in rounds:
        ordered = tuple(order_table(table, next(firsts), record.seats) for table in planned)
        record.add(ordered)
        seating.append(ordered)
    return tuple(seating)


def _plan(history: Sequence[Sequence[Sequence[int]]], present: Sequence[int], tables: int,
          groups: Sequence[Sequence[int]], rounds: int, rng: Random) -> tuple[Round, ...]:
    """One attempt: the next `rounds` rounds, each built on the ones before."""
    record = Record()
    for past in history:
        record.add(past)
    apart = {player: frozenset(group) - {player} for group in groups for player in group}
    patience = PATIENCE_STEPS + PATIENCE_PER_TABLE * min(tables, PATIENCE_TABLES)
    seating = []
    for _ in range(rounds):
        dealt = _deal(present, tables, groups, rng)
        chosen = improve(dealt, record, apart, rng, patience) if record.rounds else dealt
        ordered = sorted((_start_order(table, record, rng) for table in chosen), key=len, reverse=True)
        record.add(ordered)
        seating.append(tuple(ordered))
    return tuple(seating)


def _new_firsts_floor(history: Sequence[Sequence[Sequence[int]]], present: Sequence[int],
                      tables: int, rounds: int) -> int:
    """The fewest second first seats the next rounds can add: each round needs a first
    player per table, and only those never first yet are free."""
    record = Record()
    for past in history:
        record.add(past)
    fresh = sum(1 for player in present if not record.firsts(player))
    return max(0, rounds * tables - fresh)


def _order(shortfall: Repeats) -> tuple[int, int, int]:
    return shortfall.opponents, shortfall.firsts, shortfall.positions


def _players(players: Iterable[int]) -> list[int]:
    """The present players' ids, sorted; CannotSeat for a repeated id or one not an int."""
    seen: set[int] = set()
    for player in players:
        if not is_whole_number(player):
            raise CannotSeat(f"players: {player!r} is not a player id (a whole number)")
        if player in seen:
            raise CannotSeat(f"players: {player} is listed twice")
        seen.add(player)
    return sorted(seen)


def _groups(keep_apart: Sequence[Sequence[int]], present: set[int], tables: int) -> list[list[int]]:
    """The keep-apart groups of two or more; CannotSeat for an id not present, a player in two
    groups, or a group larger than the number of tables."""
    grouped: set[int] = set()
    groups = []
    for group in keep_apart:
        members = list(group)
        for player in members:
            if player not in present:
                raise CannotSeat(f"keep_apart: {player!r} is not a present player; "
                                 "leave dropped players out of the groups")
            if player in grouped:
                raise CannotSeat(f"keep_apart: player {player} is in two groups (or twice in "
                                 "one); merge the groups or list the player once")
            grouped.add(player)
        if len(members) > tables:
            raise CannotSeat(f"keep_apart: a group of {len(members)} ({members}) cannot be kept "
                             f"apart at {tables} table{'s' if tables > 1 else ''}; split the "
                             "group or seat more players")
        if len(members) > 1:
            groups.append(members)
    return groups


def _played_round(tables: Sequence[Sequence[int]], number: int) -> list[list[int]]:
    """A played round as lists; CannotSeat for an id not an int or a player seated twice."""
    seen: set[int] = set()
    result = []
    for table in tables:
        for player in table:
            if not is_whole_number(player) or player in seen:
                raise CannotSeat(f"played: round {number} seats {player!r} twice or it is not "
                                 "a player id")
            seen.add(player)
        result.append(list(table))
    return result


def _deal(players: Sequence[int], tables: int, groups: Sequence[Sequence[int]],
          rng: Random) -> list[list[int]]:
    """Players dealt round `tables` tables in a random order where each group stands together:
    a run of at most `tables` players lands at as many different tables, and the first
    tables get the extra player (4s before 3s)."""
    grouped = {player for group in groups for player in group}
    blocks = [list(group) for group in groups] + [[p] for p in players if p not in grouped]
    rng.shuffle(blocks)
    dealt: list[list[int]] = [[] for _ in range(tables)]
    for index, player in enumerate(player for block in blocks for player in block):
        dealt[index % tables].append(player)
    return dealt


def _start_order(table: Sequence[int], record: Record, rng: Random) -> Table:
    """The table's best start order: a first player who has been first least often, then the
    fewest positions taken before; ties fall to the random order."""
    members = list(table)
    rng.shuffle(members)

    def cost(order: Table) -> tuple[int, int]:
        repeats = sum(record.seat_count(player, index) for index, player in enumerate(order))
        return record.firsts(order[0]), repeats

    return min(permutations(members), key=cost)


@dataclass(frozen=True)
class Repeats:
    """How far a seating falls short of the ideal: meetings of two players after their first
    (a pair meeting three times counts 2), first seats after a player's first, and start
    positions taken again."""

    opponents: int
    firsts: int
    positions: int


def repeats(rounds: Sequence[Sequence[Sequence[int]]]) -> Repeats:
    """Count the repeats of a seating (the played rounds and the planned ones alike)."""
    record = Record()
    for tables in rounds:
        record.add(tables)
    meetings = sum(count - 1 for met in record.met.values() for count in met.values()) // 2
    seats = [count - 1 for counts in record.seats.values() for count in counts if count > 1]
    firsts = sum(counts[0] - 1 for counts in record.seats.values() if counts[0] > 1)
    return Repeats(meetings, firsts, sum(seats))
