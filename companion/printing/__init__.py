"""Printouts for the evening: plain data in, PDF bytes out (no Flask, no database, no game's
rules: the hall builds the model, `companion/hall/printables.py`)."""

from companion.printing.join_cards import join_cards
from companion.printing.model import (
    Poster,
    ResultRow,
    SeatCard,
    SeriesSheet,
    Standing,
    StandingRow,
    TableResult,
    TableSheet,
    Wifi,
)
from companion.printing.poster import poster
from companion.printing.score_sheets import score_sheets
from companion.printing.series_sheets import series_sheets
from companion.printing.setup_sheets import setup_sheets
from companion.printing.standings import standings

__all__ = [
    "Poster",
    "ResultRow",
    "SeatCard",
    "SeriesSheet",
    "Standing",
    "StandingRow",
    "TableResult",
    "TableSheet",
    "Wifi",
    "join_cards",
    "poster",
    "score_sheets",
    "series_sheets",
    "setup_sheets",
    "standings",
]
