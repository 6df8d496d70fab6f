"""The shapes of a sheet's words, shared by what a ruleset says (`rules/paper.py`) and what the
printing draws (`printing/model.py`): plain frozen values, generic in the value a line or a
cell holds (the rules' may name a seat; the hall fills the names in before printing). This
module imports nothing of the companion: the rules and the printing both stand on it.

Each side names its own kind: `rules.paper.Grid` is `Grid[rules.paper.Value]`, and so on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

V = TypeVar("V")


@dataclass(frozen=True)
class Column:
    """A column of a score sheet, the standings or a grid: its key (a word the printing
    translates, `printing/i18n.py`) and its width as a share of the row (a score sheet's own
    columns take the rest).

    Of a ruleset's score columns (`Ruleset.score_columns`), those that `rank` order the players
    of the event's standings, in their order, after the wins (Machi Koro: landmarks, then coins);
    the others are shown on the score sheets only (Catan's breakdown, ranked by its total). A
    `tie_break` column breaks equal ranks and is set apart on the score sheet under the
    tie-breaks (Catan's cards in hand, then grain, ore, brick, wood, wool)."""

    key: str
    width: float = 1.0
    ranks: bool = True
    tie_break: bool = False


@dataclass(frozen=True)
class Line(Generic[V]):
    """A line of a setup sheet: a key of the printouts' strings, the values of its `{name}`
    fields, and its style (`rules/paper.py`'s STYLES)."""

    key: str
    values: tuple[tuple[str, V], ...] = ()
    style: str = "bullet"


@dataclass(frozen=True)
class Grid(Generic[V]):
    """A ruled table: its columns (header keys and widths), rows of cells, the colour name of
    each row's first cell ("blue", "green", "red", "purple"; "" for none) and the text size."""

    columns: tuple[Column, ...]
    rows: tuple[tuple[V, ...], ...]
    tints: tuple[str, ...] = ()
    size: float = 10


@dataclass(frozen=True)
class Part(Generic[V]):
    """A part of a setup sheet: a heading (a key; "" for none), lines, then a grid."""

    heading: str = ""
    lines: tuple[Line[V], ...] = ()
    grid: Grid[V] | None = None


@dataclass(frozen=True)
class Setup(Generic[V]):
    """What a table's setup sheet says about its game, below the seats: `seating` lines under
    the seats' table (who plays when), then the parts in order (what each player takes, the
    supply, the decks, what goes back in the box)."""

    parts: tuple[Part[V], ...] = ()
    seating: tuple[Line[V], ...] = ()


def competition_ranks(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """Rank 1 for the greatest key; equal keys share a rank and the next rank skips
    (1, 2, 2, 4)."""
    first: dict[tuple[int, ...], int] = {}
    for position, key in enumerate(sorted(keys, reverse=True), start=1):
        first.setdefault(key, position)
    return [first[key] for key in keys]
