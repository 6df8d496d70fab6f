"""A series of games as its journal stream `series:ID` holds it (hall/series.py has the
organizer's commands and a won table's report): its shape, its replay, and the index of its
games' tables. Apart from series.py so the hall's state (hall/state.py) keeps the series
without importing a worker."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from companion.hall.checks import HallError
from companion.journal import Journal, Record, rebuild_streams
from companion.rules.registry import ruleset
from companion.rules.ruleset import Series as SeriesRules

CREATED, TABLE = "series_created", "series_table"


@dataclass
class Series:
    id: str
    event_id: str
    ruleset: str
    state: Any = None  # the ruleset's own
    tables: dict[int, str] = field(default_factory=dict)  # game number -> table id
    seq: int = 0

    @property
    def stream(self) -> str:
        return f"series:{self.id}"

    @property
    def rules(self) -> SeriesRules:
        return series_rules(self.ruleset)

    @property
    def name(self) -> str:
        """The series' name as its ruleset says (a campaign's)."""
        return self.rules.series_name(self.state)


def series_rules(name: str) -> SeriesRules:
    """The rules of a series' games (`companion.rules.ruleset.Series`), by its ruleset's name."""
    rules = ruleset(name)
    if not isinstance(rules, SeriesRules):
        raise HallError("series/no_series", f"ruleset {name!r} has no series of games")
    return rules


# ------------------------------------------------------------ the replay


def apply(series: Series, kind: str, data: dict[str, Any]) -> None:
    """Apply one record of a series' stream after `series_created` (a commit, a replay)."""
    if kind == TABLE:
        series.tables[int(data["game"])] = str(data["table"])
    else:
        rules = series.rules
        series.state = rules.series_evolve(series.state, [rules.series_decode(kind, data)])


def rebuild(records: Iterable[Record]) -> Series | None:
    series: Series | None = None
    for record in records:
        if record.kind == CREATED:
            series = Series(record.data["id"], record.data["event_id"], record.data["ruleset"])
        elif series is not None:
            apply(series, record.kind, record.data)
        if series is not None:
            series.seq = record.seq
    return series


def load(journal: Journal) -> dict[str, Series]:
    """Every series of the journal (at the hall's start)."""
    return {series.id: series for series in rebuild_streams(journal, "series:", rebuild)}


def table_index(all_series: Iterable[Series]) -> dict[str, tuple[str, int]]:
    """Table id -> (series id, game number)."""
    return {table: (s.id, game) for s in all_series for game, table in s.tables.items()}
