"""What every journal backend offers: the records, the errors and the `Journal` protocol."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Protocol, Self

Event = tuple[str, Mapping[str, Any]]


class JournalError(Exception):
    """Something the journal refused or could not do."""


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
    events: Sequence[Event]
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
    """The journal every backend offers; one contract test suite checks them all."""

    def append(
        self,
        stream: str,
        expected_seq: int,
        events: Sequence[Event],
        *,
        request_id: str | None = None,
        author: str = "",
        answer: Mapping[str, Any] | None = None,
    ) -> AppendResult: ...

    def append_many(self, batch: Sequence[AppendRequest]) -> list[AppendResult]: ...

    def read(self, stream: str, after_seq: int = 0) -> list[Record]: ...

    def last_seq(self, stream: str) -> int: ...

    def streams(self) -> list[str]: ...

    def answer_for(self, stream: str, request_id: str) -> dict[str, Any] | None: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


# Shared by every backend, so that all of them stamp and serialize alike.


def utc_now() -> str:
    """The current time as ISO-8601 UTC; the journal owns the clock, the rules never see it."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def to_json(value: Mapping[str, Any]) -> str:
    """Serialize a payload strictly (no NaN), keeping non-ASCII text readable in the file."""
    return json.dumps(dict(value), ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def check_request(request: AppendRequest) -> None:
    """Refuse an append that could never make sense, before any transaction starts."""
    if not request.events:
        raise ValueError(f"stream {request.stream!r}: an append needs at least one event")
