"""What every journal backend offers: the records, the errors and the `Journal` protocol."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Protocol, Self

log = logging.getLogger("companion")

NewRecord = tuple[str, Mapping[str, Any]]  # (kind, data): a record before the journal numbers it


class JournalError(Exception):
    """Something the journal refused or could not do."""


class JournalUnavailable(JournalError):
    """The journal cannot be reached or written now (PostgreSQL stopped or restarting, the
    SQLite file locked by another program or gone): an expected condition that passes, not
    a bug. Nothing was written; the same call may be tried again later (`server/unavailable`)."""


class Outage:
    """Says in the log once that a journal is away, and once that it is back: an outage of
    ten seconds during a hall's evening fails thousands of calls, and one line says it all
    (each call's own exception is dropped from the log: `QuietOutage`)."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.away = False
        self._guard = threading.Lock()

    def failed(self, error: BaseException) -> JournalUnavailable:
        """The call's error as JournalUnavailable, said in the log if the outage is new."""
        with self._guard:
            new, self.away = not self.away, True
        if new:
            log.warning("the journal (%s) is unavailable: %s; moves are refused with "
                        "server/unavailable until it is back", self.what, first_line(error))
        return JournalUnavailable(f"{self.what} is unavailable: {first_line(error)}")

    def worked(self) -> None:
        """An append committed: the end of the outage, if there was one, is said once."""
        if self.away:
            with self._guard:
                back, self.away = self.away, False
            if back:
                log.warning("the journal (%s) is back", self.what)


class QuietOutage(logging.Filter):
    """Drops the log records of calls that failed only because the journal is away (their
    `log.exception`): the outage is said once (`Outage`), not with a traceback per call."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], JournalUnavailable))


log.addFilter(QuietOutage())  # the hall's logger: its callers' `log.exception` of an outage


def first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


class StaleSequence(JournalError):
    """The stream moved on since the writer read it; nothing was written."""

    def __init__(self, stream: str, expected: int, actual: int) -> None:
        super().__init__(f"stream {stream!r}: expected last seq {expected}, but it is {actual}")
        self.stream = stream
        self.expected = expected
        self.actual = actual


@dataclass(frozen=True)
class Record:
    """One stored event: its place in its stream, what happened, who asked and when."""

    stream: str
    seq: int
    kind: str
    data: dict[str, Any]
    request_id: str | None
    author: str
    at: str


@dataclass(frozen=True)
class AppendRequest:
    """Events to add to one stream right after `expected_seq`, as one unit of `append_many`."""

    stream: str
    expected_seq: int
    records: Sequence[NewRecord]
    request_id: str | None = None
    author: str = ""
    answer: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class AppendResult:
    """What an append did: the seqs it wrote (or wrote first time) and the answer to give.

    `duplicate` is true when the request id had been seen: nothing was written and `answer`,
    `first_seq` and `last_seq` are those of the first time.
    """

    duplicate: bool
    answer: dict[str, Any]
    first_seq: int
    last_seq: int


class Journal(Protocol):
    """The journal every backend offers; one contract test suite checks them all.

    A backend subclasses it and inherits `append` (one request of `append_many`) and the
    context manager that closes it."""

    def append(
        self,
        stream: str,
        expected_seq: int,
        records: Sequence[NewRecord],
        *,
        request_id: str | None = None,
        author: str = "",
        answer: Mapping[str, Any] | None = None,
    ) -> AppendResult:
        """Write `records` to `stream` as seqs expected_seq+1.. in one transaction."""
        request = AppendRequest(stream, expected_seq, records, request_id, author, answer)
        return self.append_many([request])[0]

    def append_many(self, batch: Sequence[AppendRequest]) -> list[AppendResult]: ...

    def read(self, stream: str, after_seq: int = 0) -> list[Record]: ...

    @contextmanager
    def holding(self, streams: Iterable[str]) -> Iterator[None]:
        """Keep other writers off `streams` until the block ends, so that what the block reads
        of them stays true until its own `append_many` (on a shared journal: PostgreSQL). A
        journal only this process writes needs nothing: here, nothing is held."""
        yield

    def read_after(self, after: Mapping[str, int]) -> dict[str, list[Record]]:
        """Each stream's records after its seq (`after`: stream -> seq), in seq order: one
        `read` each here; a backend where each is a round trip reads them in one query."""
        return {stream: self.read(stream, seq) for stream, seq in after.items()}

    def last_seq(self, stream: str) -> int: ...

    def last_seqs(self, streams: Iterable[str]) -> dict[str, int]: ...

    def streams(self) -> list[str]: ...

    def answer_for(self, stream: str, request_id: str) -> dict[str, Any] | None: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


# Shared by every backend, so that all of them stamp and serialize alike.


def utc_now() -> str:
    """The current time as ISO-8601 UTC; the journal owns the clock, the rules never see it."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def to_json(value: Mapping[str, Any]) -> str:
    """Serialize a payload strictly (no NaN), keeping non-ASCII text readable in the file."""
    return json.dumps(dict(value), ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def stamp(batch: Sequence[AppendRequest]) -> str:
    """The time to stamp a batch's records with (`utc_now`), once every request in it makes
    sense: an append that never could is refused before any transaction starts."""
    for request in batch:
        if not request.records:
            raise ValueError(f"stream {request.stream!r}: an append needs at least one event")
    return utc_now()


def record(row: Sequence[Any]) -> Record:
    """A record from an `events` row: (stream, seq, kind, data as JSON text, request id,
    author, at)."""
    stream, seq, kind, data, request_id, author, at = row
    return Record(stream, seq, kind, json.loads(data), request_id, author, at)
