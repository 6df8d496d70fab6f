"""The first players of all the planned rounds at once (RULES.md 25: nobody is first player
twice while that can be avoided).

Chosen round by round, an early round can take as first player the only player of a later
table who has not been first yet. Over all rounds the choice is a bipartite matching: tables
on one side, on the other each player's next first seats, the k-th costing the player's
first seats so far plus k. Adding the seats level by level and growing the matching along
augmenting paths (a matched table stays matched) gives at every level the most tables that
level allows, hence the fewest second first seats and the fewest players far above the rest.
A table keeps its first player when the matching allows it (its current first is tried
first), so a seating that was already best is left as it was.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import permutations


def choose_firsts(tables: Sequence[Sequence[int]], before: Mapping[int, int]) -> list[int]:
    """A first player for each of `tables` (all planned rounds, each table listing its first
    player first), given how often each player was first `before`."""
    holder: dict[tuple[int, int], int] = {}  # (player, k-th first seat from now) -> table
    chosen: list[tuple[int, int] | None] = [None] * len(tables)
    players = {player for table in tables for player in table}
    deepest = max((before.get(p, 0) for p in players), default=0) + len(tables)

    def slots(index: int, level: int) -> Iterator[tuple[int, int]]:
        for player in tables[index]:
            for k in range(level - before.get(player, 0) + 1):
                yield player, k

    def augment(start: int, level: int) -> None:
        """Find a free slot for table `start` along an augmenting path (iteratively: the
        paths of a 1,100-player hall can be longer than Python's recursion allows)."""
        seen: set[tuple[int, int]] = set()
        path: list[tuple[int, tuple[int, int]]] = []  # (table, the slot it takes)
        stack = [(start, slots(start, level))]
        while stack:
            index, candidates = stack[-1]
            for slot in candidates:
                if slot in seen:
                    continue
                seen.add(slot)
                path.append((index, slot))
                if slot not in holder:
                    for table, taken in path:
                        holder[taken] = table
                        chosen[table] = taken
                    return
                stack.append((holder[slot], slots(holder[slot], level)))
                break
            else:
                stack.pop()
                if path:
                    path.pop()

    level = 0
    while any(slot is None for slot in chosen) and level <= deepest:
        for index, slot in enumerate(chosen):
            if slot is None:
                augment(index, level)
        level += 1
    return [slot[0] if slot else table[0] for slot, table in zip(chosen, tables, strict=True)]


def order_table(table: Sequence[int], first: int,
                seats: Mapping[int, Sequence[int]]) -> tuple[int, ...]:
    """The table in start order with `first` first and the others where they sat least
    before (`seats[player][position]` counts); ties keep the table's own order."""
    rest = [player for player in table if player != first]

    def taken(order: tuple[int, ...]) -> int:
        return sum(_count(seats, player, position)
                   for position, player in enumerate(order, start=1))

    return (first, *min(permutations(rest), key=taken))


def _count(seats: Mapping[int, Sequence[int]], player: int, position: int) -> int:
    counts = seats.get(player, ())
    return counts[position] if position < len(counts) else 0
