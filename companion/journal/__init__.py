"""The journal: an append-only, crash-safe record of every accepted move, per table.

A stream is one table's history. A table's state is rebuilt by replaying its stream, so the
journal is the only thing that must survive a crash. Writers name the sequence number they
expect to extend (so two phones racing for one turn cannot both win) and may name a request id
(so a repeated request is answered with the first answer and applied once).
"""

from companion.journal.interface import (
    AppendRequest,
    AppendResult,
    Event,
    Journal,
    JournalError,
    Record,
    StaleSequence,
)
from companion.journal.sqlite import SqliteJournal

__all__ = [
    "AppendRequest",
    "AppendResult",
    "Event",
    "Journal",
    "JournalError",
    "Record",
    "SqliteJournal",
    "StaleSequence",
]
