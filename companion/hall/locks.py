"""Per-stream locks: moves at different tables never wait for each other (DESIGN.md, one move,
6; issue 24). A table's writers (its phones' moves, the organizer's corrections, the timer's
defaults, a hall roll) hold its stream's lock from the decision to the memory's update, so
they commit one after the other and never make each other's appends stale; writers of other
tables go on meanwhile, their journal round trips overlapping.

The service's three locks, always taken in this order (never an earlier one while holding a
later one), so no two holders can wait for each other:
1. `HallService.lock`, the organizer's: the registry's rare changes (new events and tables,
   ids, series, tournaments) and the hall roll; a move never takes it once it holds a table;
2. the stream locks here, several at once only through one `hold` (in sorted order);
3. `HallService.memory`, innermost and short: the tables' and indexes' memory is changed and
   copied under it, never across a journal round trip.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager


class StreamLocks:
    """A reentrant lock per stream name, made on first use and dropped when nobody holds or
    waits for it (a hall of 300 tables keeps no 300 idle locks, and a table that ended keeps
    none). Under gevent the threading locks are gevent's: waiters are served in turn, so a
    hall roll waiting for a table gets it after the move in flight, not after a stream of
    them."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[str, tuple[threading.RLock, list[int]]] = {}

    @contextmanager
    def hold(self, streams: Iterable[str]) -> Iterator[None]:
        """Hold the locks of `streams` (in sorted order: two holders of overlapping sets cannot
        wait for each other) until the block ends. A holder may hold a stream again."""
        taken: list[str] = []
        try:
            for name in sorted(set(streams)):
                lock = self._use(name)
                try:
                    lock.acquire()
                except BaseException:
                    self._done(name)
                    raise
                taken.append(name)
            yield
        finally:
            for name in reversed(taken):
                self._locks[name][0].release()
                self._done(name)

    def held(self) -> int:
        """How many streams have a lock now (held or waited for): 0 when the hall is idle."""
        with self._guard:
            return len(self._locks)

    def _use(self, name: str) -> threading.RLock:
        with self._guard:
            lock, users = self._locks.setdefault(name, (threading.RLock(), [0]))
            users[0] += 1
            return lock

    def _done(self, name: str) -> None:
        with self._guard:
            _, users = self._locks[name]
            users[0] -= 1
            if not users[0]:
                del self._locks[name]
