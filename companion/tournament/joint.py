"""Improving the planned rounds together, for the small tournaments a club plays (RULES.md 25:
nobody meets the same opponent twice while that can be avoided).

Round by round, the best second round can leave the third no good way: 12 players in 3
rounds come to 8 repeated meetings that way, where 6 is the floor. This search swaps two
players of one planned round at a time, over all planned rounds at once, and accepts a swap
that costs more now and then (simulated annealing), so it leaves such dead ends; it keeps the
best seating seen. Keep-apart players never come together; the played rounds stay as they
were and count as history. Randomness only from the `Random` passed in.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from random import Random

START_HEAT = 1.2  # a swap costing one more meeting is taken at first about 4 times in 9 ...
END_HEAT = 0.05  # ... and at the end almost never


def improve_rounds(history: Sequence[Sequence[Sequence[int]]],
                   planned: Sequence[Sequence[Sequence[int]]],
                   apart: Mapping[int, frozenset[int]], rng: Random,
                   steps: int) -> list[list[list[int]]]:
    """`planned` with fewer repeated meetings where `steps` swaps find them: the same players
    in each round at the same table sizes."""
    rounds = [[list(table) for table in tables] for tables in planned]
    met: dict[int, dict[int, int]] = {}
    for tables in [*history, *rounds]:
        for table in tables:
            _meet(met, table, 1)
    least = cost = _repeats(met)
    floor = _repeats_of(history)
    best = [[list(table) for table in tables] for tables in rounds]
    choices = [r for r, tables in enumerate(rounds) if len(tables) > 1]
    for step in range(steps):
        if least <= floor or not choices:
            break
        tables = rounds[rng.choice(choices)]
        a_table, b_table = rng.sample(range(len(tables)), 2)
        table_a, table_b = tables[a_table], tables[b_table]
        a, b = rng.choice(table_a), rng.choice(table_b)
        rest_a = [p for p in table_a if p != a]
        rest_b = [p for p in table_b if p != b]
        if any(p in apart.get(b, ()) for p in rest_a) or any(p in apart.get(a, ()) for p in rest_b):
            continue
        delta = (_joining(met, b, rest_a) - _leaving(met, a, rest_a)
                 + _joining(met, a, rest_b) - _leaving(met, b, rest_b))
        heat = START_HEAT * (END_HEAT / START_HEAT) ** (step / steps)
        if delta > 0 and rng.random() >= math.exp(-delta / heat):
            continue
        _meet(met, table_a, -1)
        _meet(met, table_b, -1)
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        _meet(met, table_a, 1)
        _meet(met, table_b, 1)
        cost += delta
        if cost < least:
            least = cost
            best = [[list(table) for table in tables] for tables in rounds]
    return best


def _meet(met: dict[int, dict[int, int]], table: Sequence[int], count: int) -> None:
    for player in table:
        mine = met.setdefault(player, {})
        for other in table:
            if other != player:
                mine[other] = mine.get(other, 0) + count


def _joining(met: Mapping[int, Mapping[int, int]], player: int, table: Sequence[int]) -> int:
    """The repeats `player` adds by joining `table`: one per player met before."""
    mine = met.get(player, {})
    return sum(1 for other in table if mine.get(other, 0) >= 1)


def _leaving(met: Mapping[int, Mapping[int, int]], player: int, table: Sequence[int]) -> int:
    """The repeats `player` takes away by leaving `table`: one per player met again there."""
    mine = met.get(player, {})
    return sum(1 for other in table if mine.get(other, 0) >= 2)


def _repeats(met: Mapping[int, Mapping[int, int]]) -> int:
    return sum(count - 1 for mine in met.values() for count in mine.values() if count > 1) // 2


def _repeats_of(rounds: Sequence[Sequence[Sequence[int]]]) -> int:
    met: dict[int, dict[int, int]] = {}
    for tables in rounds:
        for table in tables:
            _meet(met, table, 1)
    return _repeats(met)
