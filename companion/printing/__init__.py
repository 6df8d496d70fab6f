"""Printouts for the evening: plain data in, PDF bytes out (no Flask, no database)."""

from companion.printing import coop_setup  # noqa: F401  (registers the co-op setup sheet)
from companion.printing.join_cards import join_cards
from companion.printing.model import (
    Poster,
    ResultRow,
    SeatCard,
    Standing,
    StandingRow,
    TableResult,
    TableSheet,
    Wifi,
)
from companion.printing.poster import poster
from companion.printing.score_sheets import score_sheets
from companion.printing.setup_sheets import SECTIONS, register, setup_sheets
from companion.printing.standings import standings

__all__ = [
    "SECTIONS",
    "Poster",
    "ResultRow",
    "SeatCard",
    "Standing",
    "StandingRow",
    "TableResult",
    "TableSheet",
    "Wifi",
    "join_cards",
    "poster",
    "register",
    "score_sheets",
    "setup_sheets",
    "standings",
]
