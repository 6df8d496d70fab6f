"""What the hall derives from its tables and keeps beside them, never journalled: the index of
seat tokens and join codes, and the neighbours of chained tables. Under the memory's lock
(hall/locks.py); apart from registry.py so the hall's state rebuilds them without a worker."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from companion.hall.join_codes import join_code
from companion.hall.model import Table


def index_tokens(tokens: dict[str, tuple[str, int]], codes: dict[str, set[str]],
                 table: Table) -> None:
    """Point the table's seat tokens at its seats, and their join codes at the tokens (two
    tokens may share a code); forget the ones the table no longer has."""
    for token in [t for t, (tid, _) in tokens.items() if tid == table.id]:
        del tokens[token]
        code = join_code(token)
        codes[code].discard(token)
        if not codes[code]:
            del codes[code]
    for seat, entry in enumerate(table.seats):
        tokens[entry.token] = (table.id, seat)
        codes.setdefault(join_code(entry.token), set()).add(entry.token)


def chain(tables: Iterable[Table]) -> list[str]:
    """Set each table's neighbours (`Table.neighbours`: the names of the tables before and after
    it, "" at an end) where its ruleset is chained: an event's tables of that ruleset stand in a
    line in the event's table order (`tables`); a table ended before it started is not in it.
    The ids of the tables whose neighbours changed (their views show them)."""
    changed = []
    lines: dict[str, list[Table]] = {}
    for table in tables:
        if in_line(table):
            lines.setdefault(table.ruleset, []).append(table)
        elif table.neighbours:
            table.neighbours = ()
            changed.append(table.id)
    for line in lines.values():
        names = ["", *(table.name for table in line), ""]
        for i, table in enumerate(line):
            beside = (names[i], names[i + 2])
            if table.neighbours != beside:
                table.neighbours = beside
                changed.append(table.id)
    return changed


class Derived(NamedTuple):
    """What the indexes read of a table: while it is the same, they need no new look."""

    tokens: tuple[str, ...]
    in_line: tuple[str, bool]  # its name, and whether it stands in its ruleset's line


def derived_from(table: Table) -> Derived:
    return Derived(tuple(entry.token for entry in table.seats), (table.name, in_line(table)))


def in_line(table: Table) -> bool:
    """Whether the table stands in its ruleset's line (a chained ruleset's table not ended
    before it started)."""
    return table.rules.chained and not (table.status == "ended" and table.state is None)
