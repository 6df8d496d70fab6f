"""A copy of a hall's SQLite file that misses nothing, also while the hall is served: SQLite's
online backup API reads one consistent snapshot (the main file and its write-ahead log
together), so the copy holds every record committed when it began. Copying the file with the
file manager instead misses what is still in `hall.db-wal`.

`companion backup` and the console's "Download a backup" both use `backup_file`. A PostgreSQL
journal is copied with pg_dump, PostgreSQL's own tool.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

POSTGRES_SCHEMES = ("postgresql://", "postgres://")  # as companion.journal names them


class BackupRefused(ValueError):
    """Why no copy was made, as a sentence for the organizer."""


def is_postgres_target(target: str) -> bool:
    return target.lower().startswith(POSTGRES_SCHEMES)


def is_hall_journal(db: Path) -> bool:
    """Read-only look: the journal's table with the hall's own stream (so opening the
    journal creates nothing and appends no organizer key)."""
    try:
        conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT 1 FROM events WHERE stream = 'hall' LIMIT 1").fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return False
    return row is not None


def backup_file(source: Path, target: Path) -> int:
    """Copy the hall database `source` to the new file `target` and answer its size in bytes.
    The copy is one file (no write-ahead log beside it) and passes SQLite's quick check; it
    appears under its name only when whole. BackupRefused says why nothing was written."""
    if not source.is_file():
        raise BackupRefused(f"there is no database file {str(source)!r}")
    if not is_hall_journal(source):
        raise BackupRefused(f"{str(source)!r} is not a companion hall database")
    if not target.parent.is_dir():
        raise BackupRefused(f"there is no folder {str(target.parent)!r} to write "
                            f"{target.name!r} in")
    if target.exists():
        raise BackupRefused(f"{str(target)!r} exists already: give the copy a new name")
    part = target.with_name(target.name + ".part")
    try:
        copy_database(source, part)
        os.replace(part, target)
    except (sqlite3.Error, OSError) as exc:
        part.unlink(missing_ok=True)
        raise BackupRefused(f"cannot copy {str(source)!r} to {str(target)!r}: {exc}") from None
    return target.stat().st_size


def copy_database(source: Path, target: Path) -> None:
    """SQLite's online backup of `source` into the new file `target`, then the copy switched
    from WAL to a rollback journal (one file to carry) and checked."""
    src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")
            verdict = dst.execute("PRAGMA quick_check").fetchone()[0]
            if verdict != "ok":
                raise sqlite3.DatabaseError(f"the copy failed SQLite's check: {verdict}")
        finally:
            dst.close()
    finally:
        src.close()
