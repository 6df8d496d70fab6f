"""Splitting a pasted list of players into tables: as few tables as the largest size allows,
with sizes that differ by at most one, players seated in the order they were listed."""

from __future__ import annotations

from collections.abc import Sequence


def table_sizes(players: int, largest: int, smallest: int) -> list[int] | None:
    """The sizes of the tables for `players`, larger ones first, or None when they cannot be
    seated (too few players, or an odd split such as 5 players at tables of 2)."""
    if players < smallest or largest < smallest:
        return None
    count = -(-players // largest)
    base, extra = divmod(players, count)
    if base < smallest:
        return None
    return [base + 1] * extra + [base] * (count - extra)


def split_players(names: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    """The names cut into consecutive groups of the given sizes."""
    groups, start = [], 0
    for size in sizes:
        groups.append(list(names[start:start + size]))
        start += size
    return groups
