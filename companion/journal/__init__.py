"""The journal: an append-only, crash-safe record of every accepted move, per table.

A stream is one table's history. A table's state is rebuilt by replaying its stream, so the
journal is the only thing that must survive a crash. Writers name the sequence number they
expect to extend (so two phones racing for one turn cannot both win) and may name a request id
(so a repeated request is answered with the first answer and applied once).

`open_journal` picks the backend from where the journal lives: a `postgresql://` (or
`postgres://`) URL is PostgreSQL, anything else a SQLite file. psycopg is imported only then,
so the default SQLite path never needs it.
"""

from __future__ import annotations

from collections.abc import Callable
from os import PathLike
from typing import TypeVar

from companion.journal.backup import POSTGRES_SCHEMES
from companion.journal.interface import (
    AppendRequest,
    AppendResult,
    Journal,
    JournalError,
    JournalUnavailable,
    NewRecord,
    Record,
    StaleSequence,
)
from companion.journal.sqlite import SqliteJournal

T = TypeVar("T")


def is_postgres_url(target: str | PathLike[str]) -> bool:
    """Whether `target` names a PostgreSQL database rather than a SQLite file."""
    return isinstance(target, str) and target.lower().startswith(POSTGRES_SCHEMES)


def open_journal(target: str | PathLike[str]) -> Journal:
    """The journal at `target`: PostgreSQL for a postgresql:// URL, else the SQLite file."""
    if isinstance(target, str) and is_postgres_url(target):
        from companion.journal.postgres import PostgresJournal

        scheme, rest = target.split("://", 1)
        return PostgresJournal(f"{scheme.lower()}://{rest}")  # libpq knows lower case only
    return SqliteJournal(target)


def rebuild_streams(journal: Journal, prefix: str,
                    rebuild: Callable[[list[Record]], T | None]) -> list[T]:
    """What `rebuild` makes of each stream whose name starts with `prefix` (`series:`,
    `tournament:`), at a hall's start; a stream it makes nothing of is passed over."""
    found = (rebuild(journal.read(stream)) for stream in journal.streams()
             if stream.startswith(prefix))
    return [item for item in found if item is not None]


__all__ = [
    "AppendRequest",
    "AppendResult",
    "NewRecord",
    "Journal",
    "JournalError",
    "JournalUnavailable",
    "POSTGRES_SCHEMES",
    "Record",
    "SqliteJournal",
    "StaleSequence",
    "is_postgres_url",
    "open_journal",
    "rebuild_streams",
]
