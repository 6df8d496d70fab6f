"""What a ruleset's paper says, in plain values: the words a setup sheet lays out for its game
and the columns of its score sheets and standings. A ruleset computes them (its `paper.py`);
the hall copies them into the printing's model (`hall/printables.py`) and the printing lays
them out, knowing no game. Nothing here draws.

A sheet's words are `Line`s: a key of the printouts' strings (`printing/i18n.py`) and the
values of its `{name}` fields. A value is a number, a card's `Name` in every language (the
sheet says it in its own) or a `SeatName`, the name of the player in a seat (the hall knows
it; the rules know only how many seats there are)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion import paper as shared
from companion.paper import Column as Column
from companion.paper import competition_ranks as competition_ranks


@dataclass(frozen=True)
class Name:
    """A card's name in every language, as the catalog has it: `(lang, name)` pairs."""

    by_lang: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, names: Mapping[str, str]) -> Name:
        return cls(tuple(names.items()))


@dataclass(frozen=True)
class SeatName:
    """The name of the player in seat `seat` (0 is the first), filled in by the hall."""

    seat: int


Value = int | str | Name | SeatName

BULLET, STRONG, SMALL, NOTE, PLAIN, APART = "bullet", "strong", "small", "note", "plain", "apart"
STYLES = (BULLET, STRONG, SMALL, NOTE, PLAIN, APART)
"""How a line is set: a bullet, a bold bullet, small print, a small note before a grid, a
plain line, a plain line set a little apart from the lines above it."""


Line = shared.Line[Value]
"""One line of a setup sheet: a key of the printouts' strings, its values and its style."""
Grid = shared.Grid[Value]
"""A ruled table; its cells a number, a card's name, a string printed as it is or a seat's name."""
Part = shared.Part[Value]
SetupSection = shared.Setup[Value]
"""What a table's setup sheet says about its game, below the seats (`companion/paper.py`)."""


def line(key: str, style: str = BULLET, **values: Value) -> Line:
    """A line with its values named: `line("coins_n", n=3)`."""
    return Line(key, tuple(values.items()), style)
