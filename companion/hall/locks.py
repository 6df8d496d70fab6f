"""Per-stream locks: moves at different tables never wait for each other (DESIGN.md, one move,
6; issue 24). A table's writers (its phones' moves, the organizer's corrections, the timer's
defaults, a hall roll) hold its stream's lock from the decision to the memory's update, so
they commit one after the other and never make each other's appends stale; writers of other
tables go on meanwhile, their journal round trips overlapping.

The service's three locks, always taken in this order (never an earlier one while holding a
later one), so no two holders can wait for each other:
1. `HallState.lock`, the organizer's: the registry's rare changes (new events and tables,
   ids, series, tournaments) and the hall roll; a move never takes it once it holds a table;
2. the stream locks here, several at once only through one `hold` (in sorted order);
3. `HallState.memory`, innermost and short: the tables' and indexes' memory is changed and
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
        """Hold the locks of `streams` until the block ends; a holder may hold a stream again.
        A holder of several (a hall roll) joins every stream's line in one step, under the
        guard: it takes the free ones at once and waits for the rest together, so a move that
        comes later at any of its tables waits behind it. (Taking them one by one, a roll of
        275 tables waited for a move at one table while later moves took the next ones.) The
        lines are joined in one global order, so no two holders can wait for each other."""
        names = sorted(set(streams))
        me = threading.get_ident()
        waits: list[tuple[str, _Turn, threading.Event]] = []
        with self._guard:
            for name in names:
                turn = self._turns.get(name)
                if turn is None:
                    self._turns[name] = _Turn(me)
                elif turn.owner == me:
                    turn.depth += 1
                else:
                    ready = threading.Event()
                    turn.waiting.append((me, ready))
                    waits.append((name, turn, ready))
        try:
            for _, _, ready in waits:
                ready.wait()  # a holder's release makes this one the owner, then sets it
        except BaseException:  # killed while waiting (a greenlet's timeout): leave the lines
            left = set()
            with self._guard:
                for name, turn, ready in waits:
                    if turn.owner != me:  # not handed over yet
                        turn.waiting.remove((me, ready))
                        left.add(name)
            for name in reversed(names):
                if name not in left:
                    self._release(name)
            raise
        try:
            yield
        finally:
            for name in reversed(names):
                self._release(name)

    def held(self) -> int:
        """How many streams are held (or waited for) now: 0 when the hall is idle."""
        with self._guard:
            return len(self._turns)

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
