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
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager


class _Turn:
    """Who holds a stream now (a thread's or greenlet's ident), how often, and who waits."""

    __slots__ = ("owner", "depth", "waiting")

    def __init__(self, owner: int) -> None:
        self.owner = owner
        self.depth = 1
        self.waiting: deque[tuple[int, threading.Event]] = deque()


class StreamLocks:
    """A reentrant lock per stream name, made on first use and dropped when nobody holds or
    waits for it (a hall of 300 tables keeps no 300 idle locks, and a table that ended keeps
    none). Strictly first come, first served: a release hands the stream to the longest
    waiter, so a hall roll waiting for a table gets it after the move in flight, never after
    a stream of moves that came later (a plain lock lets a newcomer take it between the
    release and the waiter's wake-up)."""

    def __init__(self) -> None:
        self._guard = threading.Lock()  # never held while waiting for a stream
        self._turns: dict[str, _Turn] = {}

    @contextmanager
    def hold(self, streams: Iterable[str]) -> Iterator[None]:
        """Hold the locks of `streams` (in sorted order: two holders of overlapping sets cannot
        wait for each other) until the block ends. A holder may hold a stream again."""
        taken: list[str] = []
        try:
            for name in sorted(set(streams)):
                self._acquire(name)
                taken.append(name)
            yield
        finally:
            for name in reversed(taken):
                self._release(name)

    def held(self) -> int:
        """How many streams are held (or waited for) now: 0 when the hall is idle."""
        with self._guard:
            return len(self._turns)

    def _acquire(self, name: str) -> None:
        me = threading.get_ident()
        with self._guard:
            turn = self._turns.get(name)
            if turn is None:
                self._turns[name] = _Turn(me)
                return
            if turn.owner == me:
                turn.depth += 1
                return
            ready = threading.Event()
            turn.waiting.append((me, ready))
        try:
            ready.wait()  # the holder's release makes this one the owner, then sets it
        except BaseException:  # killed while waiting (a greenlet's timeout): leave the line
            with self._guard:
                handed = turn.owner == me
                if not handed:
                    turn.waiting.remove((me, ready))
            if handed:
                self._release(name)
            raise

    def _release(self, name: str) -> None:
        with self._guard:
            turn = self._turns[name]
            turn.depth -= 1
            if turn.depth:
                return
            if turn.waiting:
                turn.owner, ready = turn.waiting.popleft()
                turn.depth = 1
                ready.set()
            else:
                del self._turns[name]
