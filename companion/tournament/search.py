"""Improving one round's tables by local search: swaps of two players and moves of one player
to a table one seat smaller, which lower repeated opponents first and second first seats next
(RULES.md 25), and never seat keep-apart players together.

A tabu search: each step takes a player of a table that costs something and makes the best
swap or move for that player even when it costs more, while a move just undone is barred
for a few steps. It stops at a seating that costs nothing (or the lower bound), or after a
number of steps without a better seating, and returns the best one seen. Randomness only from
the `Random` passed in, so one seed gives one seating.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from random import Random

MAX_STEPS_PER_PATIENCE = 20  # a hard cap on the steps of one round: this many times the patience
SAMPLE_TABLES = 24  # a search step first tries this many other tables, then all of them ...
FULL_SEARCH_TABLES = 60  # ... unless there are more than this many
POLISH_TABLES = 12  # a polishing step tries swaps with this many other tables,
POLISH_PATIENCE = 40  # ... and polishing stops after this many steps with no gain


@dataclass
class Record:
    """What the rounds played so far say: how often each two players met, and how often each
    player took each start position (0: first player)."""

    met: dict[int, dict[int, int]] = field(default_factory=dict)
    seats: dict[int, list[int]] = field(default_factory=dict)
    rounds: int = 0

    def add(self, tables: Sequence[Sequence[int]]) -> None:
        """Count one round: its tables, each in start order."""
        for table in tables:
            for position, player in enumerate(table):
                seats = self.seats.setdefault(player, [])
                seats.extend([0] * (position + 1 - len(seats)))
                seats[position] += 1
                met = self.met.setdefault(player, {})
                for other in table:
                    if other != player:
                        met[other] = met.get(other, 0) + 1
        self.rounds += 1

    def firsts(self, player: int) -> int:
        """How often `player` was first player."""
        seats = self.seats.get(player)
        return seats[0] if seats else 0

    def seat_count(self, player: int, position: int) -> int:
        """How often `player` sat at start position `position`."""
        seats = self.seats.get(player, [])
        return seats[position] if position < len(seats) else 0


class _Move(NamedTuple):
    """Player `mover` of table `source` goes to table `target`; `other` (if any) comes back."""

    delta: int
    mover: int
    source: int
    target: int
    other: int | None


class _Search:
    """One round's tables with their costs kept up to date as players change tables."""

    def __init__(self, tables: Sequence[Sequence[int]], record: Record,
                 apart: Mapping[int, frozenset[int]], rng: Random) -> None:
        self.tables = [list(table) for table in tables]
        self.where = {player: index for index, table in enumerate(self.tables) for player in table}
        self.met = {player: {other: count for other, count in record.met.get(player, {}).items()
                             if other in self.where} for player in self.where}
        self.first = {player: record.firsts(player) for player in self.where}
        self.seats = {player: record.seats.get(player, []) for player in self.where}
        self.apart = apart
        self.rng = rng
        # Any repeated meeting outweighs every second first seat of the round (the priorities).
        self.weight = len(self.tables) * (record.rounds + 1) + 1
        self.contrib: dict[int, int] = {}
        self.opp = [0] * len(self.tables)
        self.low = [(0, 0)] * len(self.tables)
        for index in range(len(self.tables)):
            self._recount(index)
        self.tabu: dict[tuple[int, int], int] = {}

    def cost(self, index: int) -> int:
        """A table's cost: its repeated meetings, weighted, then its first player's past firsts."""
        return self.weight * self.opp[index] + self.low[index][0]

    def total(self) -> int:
        return sum(self.cost(index) for index in range(len(self.tables)))

    def floor(self) -> int:
        """No seating costs less: every table's first player is a different player."""
        return sum(sorted(self.first.values())[:len(self.tables)])

    def _recount(self, index: int) -> None:
        table = self.tables[index]
        for player in table:
            met = self.met[player]
            self.contrib[player] = sum(met.get(other, 0) for other in table)
        self.opp[index] = sum(self.contrib[player] for player in table) // 2
        firsts = sorted(self.first[player] for player in table)
        self.low[index] = (firsts[0], firsts[1] if len(firsts) > 1 else firsts[0])

    def run(self, patience: int) -> list[list[int]]:
        """Search until nothing is left to gain or `patience` steps bring nothing better."""
        floor, total = self.floor(), self.total()
        best, best_total, since = [list(table) for table in self.tables], total, 0
        for step in range(1, patience * MAX_STEPS_PER_PATIENCE + 1):
            if best_total <= floor or since >= patience:
                break
            move = self._choose(step, best_total - total)
            since += 1
            if move is None:
                continue
            self._apply(move, step)
            total += move.delta
            if total < best_total:
                best, best_total, since = [list(table) for table in self.tables], total, 0
        self.tables = best
        self.where = {player: index for index, table in enumerate(best) for player in table}
        for index in range(len(best)):
            self._recount(index)
        return best

    def polish(self, steps: int) -> list[list[int]]:
        """Fewer start positions taken again, at no cost in opponents or first seats: swaps
        and moves between a table whose best start order repeats a position and a few others,
        kept when they lower the repeats (or, rarely, the other costs)."""
        spread = [self._spread(table) for table in self.tables]
        bound = [self._bound(table) for table in self.tables]
        since = 0
        for _ in range(steps * MAX_STEPS_PER_PATIENCE):
            costly = [index for index, cost in enumerate(spread) if cost > bound[index]]
            if not costly or since >= steps:
                break
            since += 1
            source = self.rng.choice(costly)
            mover = self.rng.choice(self.tables[source])
            others = [index for index in range(len(self.tables)) if index != source]
            targets = self.rng.sample(others, min(POLISH_TABLES, len(others)))
            for move in self._moves(mover, source, targets):
                if move.delta > 0:
                    continue
                old_source, old_target = self.tables[move.source], self.tables[move.target]
                new_source = [p for p in old_source if p != move.mover] + _listed(move.other)
                new_target = [p for p in old_target if p != move.other] + [move.mover]
                gain = (spread[move.source] + spread[move.target]
                        - self._spread(new_source) - self._spread(new_target))
                if gain > 0 or move.delta < 0:
                    self._apply(move, 0)
                    since = 0
                    for index in (move.source, move.target):
                        spread[index] = self._spread(self.tables[index])
                        bound[index] = self._bound(self.tables[index])
                    break
        return self.tables

    def _bound(self, table: Sequence[int]) -> int:
        """No order of the table repeats fewer positions: players who took each of its
        positions before take one again."""
        seats = self.seats
        return sum(min(seats[player][:len(table)]) if len(seats[player]) >= len(table) else 0
                   for player in table)

    def _spread(self, table: Sequence[int]) -> int:
        """The start positions taken again in the table's best order, among the orders whose
        first player has been first least often."""
        low = min(self.first[player] for player in table)
        seats = self.seats
        return min(sum(seats[player][index] if index < len(seats[player]) else 0
                       for index, player in enumerate(order))
                   for order in permutations(table) if self.first[order[0]] == low)

    def _choose(self, step: int, aspiration: int) -> _Move | None:
        """The best swap or move for a player of a costly table: among a few other tables when
        that gains something or the tables are many, else among all."""
        costly = [index for index in range(len(self.tables)) if self.cost(index)]
        if not costly:
            return None
        source = self.rng.choice(costly)
        table = self.tables[source]
        culprits = [player for player in table if self.contrib[player]] or table
        mover = self.rng.choice(culprits)
        others = [index for index in range(len(self.tables)) if index != source]
        if len(others) > SAMPLE_TABLES:
            sample = self.rng.sample(others, SAMPLE_TABLES)
            move = self._best(self._moves(mover, source, sample), step, aspiration, strict=True)
            if move is not None and (move.delta < 0 or len(others) > FULL_SEARCH_TABLES):
                return move
        return self._best(self._moves(mover, source), step, aspiration, strict=False)

    def _best(self, moves: list[_Move], step: int, aspiration: int, strict: bool) -> _Move | None:
        """The least costly of the moves, at random among equals; a move that undoes a recent
        one only when it beats the best seating seen (`aspiration` is that gain), or when
        nothing else is left and not `strict`."""
        allowed: list[_Move] = []
        barred: list[_Move] = []
        for move in moves:
            free = self.tabu.get((move.mover, move.target), 0) < step and (
                move.other is None or self.tabu.get((move.other, move.source), 0) < step)
            (allowed if free or move.delta < aspiration else barred).append(move)
        options = allowed or ([] if strict else barred)
        if not options:
            return None
        least = min(move.delta for move in options)
        return self.rng.choice([move for move in options if move.delta == least])

    def _moves(self, mover: int, source: int, targets: Sequence[int] | None = None) -> list[_Move]:
        """Every legal swap of `mover` with a player of another table (of the `targets`, by
        default all), and every move of `mover` to a table one seat smaller, with the change
        in total cost."""
        rest = [player for player in self.tables[source] if player != mover]
        joins: dict[int, int] = {}  # what a newcomer to the source table would meet again
        shut: set[int] = set()  # who may not join the source table (kept apart from its rest)
        for player in rest:
            shut |= self.apart.get(player, frozenset())
            for other, count in self.met[player].items():
                joins[other] = joins.get(other, 0) + count
        met = self.met[mover]
        meets: dict[int, int] = {}  # what the mover would meet again at each table
        for other, count in met.items():
            meets[self.where[other]] = meets.get(self.where[other], 0) + count
        partners: dict[int, set[int]] = {}
        for other in self.apart.get(mover, frozenset()):
            partners.setdefault(self.where[other], set()).add(other)
        weight, first, contrib = self.weight, self.first, self.contrib
        rest_low = min(first[player] for player in rest) if rest else 0
        left_opp = self.opp[source] - contrib[mover]
        moves = []
        for target in range(len(self.tables)) if targets is None else targets:
            table = self.tables[target]
            if target == source:
                continue
            before = self.cost(source) + self.cost(target)
            block = partners.get(target)
            low, second = self.low[target]
            if not block and len(table) + 1 == len(self.tables[source]):
                after = (weight * (left_opp + self.opp[target] + meets.get(target, 0))
                         + rest_low + min(low, first[mover]))
                moves.append(_Move(after - before, mover, source, target, None))
            for other in table:
                if other in shut or (block and (len(block) > 1 or other not in block)):
                    continue
                opp = (left_opp + joins.get(other, 0) + self.opp[target] - contrib[other]
                       + meets.get(target, 0) - met.get(other, 0))
                target_low = min(second if first[other] == low else low, first[mover])
                after = weight * opp + min(rest_low, first[other]) + target_low
                moves.append(_Move(after - before, mover, source, target, other))
        return moves

    def _apply(self, move: _Move, step: int) -> None:
        source, target = self.tables[move.source], self.tables[move.target]
        source.remove(move.mover)
        target.append(move.mover)
        self.where[move.mover] = move.target
        tenure = len(self.tables) // 10 + self.rng.randrange(1, 10)
        self.tabu[(move.mover, move.source)] = step + tenure
        if move.other is not None:
            target.remove(move.other)
            source.append(move.other)
            self.where[move.other] = move.source
            self.tabu[(move.other, move.target)] = step + tenure
        self._recount(move.source)
        self._recount(move.target)


def _listed(player: int | None) -> list[int]:
    return [] if player is None else [player]


def improve(tables: Sequence[Sequence[int]], record: Record, apart: Mapping[int, frozenset[int]],
            rng: Random, patience: int) -> list[list[int]]:
    """Better tables for one round: the same players and table sizes, fewer repeated opponents
    first, fewer second first seats next, then fewer start positions taken again; keep-apart
    players still apart (`tables` must already keep them apart)."""
    if len(tables) < 2:
        return [list(table) for table in tables]
    search = _Search(tables, record, apart, rng)
    search.run(patience)
    return search.polish(POLISH_PATIENCE)
