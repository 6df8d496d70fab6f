"""Splitting a pasted list of players into tables: as few tables as the largest size allows,
with sizes that differ by at most one, players seated in the order they were listed; and the
registration numbers a list may give in a first column."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, TypeVar

from companion.hall.checks import invalid

T = TypeVar("T")


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


def split_players(names: Sequence[T], sizes: Sequence[int]) -> list[list[T]]:
    """The names cut into consecutive groups of the given sizes."""
    groups: list[list[T]] = []
    start = 0
    for size in sizes:
        groups.append(list(names[start:start + size]))
        start += size
    return groups


# A line of a pasted list that starts with the player's registration number: "12, Avi" or
# "12<TAB>Avi" (a spreadsheet's two columns pasted).
REGISTERED_LINE = re.compile(r"\s*([0-9]{1,9})\s*[,\t]\s*(.*)\Z", re.DOTALL)


def registration_column(lines: Sequence[Any]) -> tuple[list[Any], list[int] | None]:
    """The names of a pasted list and each line's registration number, when its lines start
    with one ("12, Avi" or "12<TAB>Avi"); None when no line does (then the list's order is
    the registration's). Refused, naming the line: a line without a number in a list with
    numbers, and a number on two lines. Lines that are not text are left to the name check."""
    found = [REGISTERED_LINE.match(line) if isinstance(line, str) else None for line in lines]
    if not any(found):
        return list(lines), None
    first = next(i for i, match in enumerate(found) if match)
    numbers: list[int] = []
    seen: dict[int, int] = {}
    for i, match in enumerate(found):
        if match is None:
            raise invalid("line {line}: a registration number is required, as on line {first}",
                          line=i + 1, first=first + 1)
        number = int(match[1])
        if number in seen:
            raise invalid("line {line}: the registration number {number} is on line {first} "
                          "too", line=i + 1, number=number, first=seen[number] + 1)
        seen[number] = i
        numbers.append(number)
    return [match[2] for match in found if match], numbers
