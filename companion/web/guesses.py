"""Guesses at a secret typed into a page (the organizer's PIN, a seat's join code), limited so
that nobody guesses one in an evening and nobody can lock anyone else out.

- A try is counted before it is checked (`try_now`), so requests sent at the same moment
  cannot all pass the limit before the first of them is found wrong; a right one is taken back.
- A source (an IPv4 address, or an IPv6 /64: one device may hold a whole /64) has at most
  `tries` wrong tries in any `seconds`.
- The hall has a budget of `hall_tries` wrong tries in any `seconds` from every source
  together. While it is spent, a source is still checked as long as it has fewer than `grace`
  wrong tries in the last `memory` seconds: a guesser with many addresses gets a couple of
  tries from each, while a player or the organizer who was not guessing is never refused
  because of somebody else (the old hall-wide lock let a guest keep the PIN and the join codes
  closed for everyone).
"""

from __future__ import annotations

import ipaddress
import math
import threading
from collections import deque
from collections.abc import Mapping
from typing import Any

SOURCES_KEPT = 10_000  # a flood of addresses must not grow memory for good


def source_of(address: str) -> str:
    """Whose tries these are: the address, or its /64 for IPv6 (not an IPv4-mapped one)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip.ipv4_mapped or ip) if isinstance(ip, ipaddress.IPv6Address) else str(ip)


class GuessGuard:
    """Wrong tries per source and for the whole hall (the module's docstring)."""

    def __init__(self, tries: int = 5, seconds: float = 60.0, hall_tries: int = 20,
                 grace: int = 2, memory: float = 3600.0) -> None:
        self.tries, self.seconds, self.hall_tries = tries, seconds, hall_tries
        self.grace, self.memory = grace, max(memory, seconds)
        self.by_source: dict[str, deque[float]] = {}  # wrong tries within `memory`, oldest first
        self.hall: deque[float] = deque()  # every source's wrong tries within `seconds`
        self.guard = threading.Lock()

    def try_now(self, address: str, now: float) -> int:
        """0 when `address` may try now (the try is counted as wrong until `right` takes it
        back), else the whole seconds, rounded up, until it may."""
        with self.guard:
            mine = self._tries_of(source_of(address), now)
            while self.hall and now - self.hall[0] >= self.seconds:
                self.hall.popleft()
            wait = 0.0
            recent = [t for t in mine if now - t < self.seconds]
            if len(recent) >= self.tries:
                wait = recent[-self.tries] + self.seconds - now
            elif len(self.hall) >= self.hall_tries and len(mine) >= self.grace:
                wait = self.hall[-self.hall_tries] + self.seconds - now
            if wait > 0:
                return max(1, math.ceil(wait))
            mine.append(now)
            self.hall.append(now)
            return 0

    def right(self, address: str, at: float, *, forget: bool = False) -> None:
        """The try made `at` was right: it does not count. With `forget` the source's earlier
        wrong tries are forgotten too (the organizer's PIN: a typo before it is no threat)."""
        with self.guard:
            mine = self.by_source.get(source_of(address), deque())
            if at in mine:
                mine.remove(at)
            if at in self.hall:
                self.hall.remove(at)
            if forget:
                mine.clear()

    def _tries_of(self, source: str, now: float) -> deque[float]:
        mine = self.by_source.setdefault(source, deque())
        while mine and now - mine[0] >= self.memory:
            mine.popleft()
        if len(self.by_source) > SOURCES_KEPT:  # forget the sources quiet the longest
            newest = sorted(self.by_source.items(), key=lambda item: item[1][-1] if item[1] else 0.0)
            self.by_source = dict(newest[-SOURCES_KEPT // 2:])
            self.by_source[source] = mine
        return mine


def guard_from_config(config: Mapping[str, Any], prefix: str, tries: int,
                      hall_tries: int) -> GuessGuard:
    """A guard with the app's settings PREFIX_TRIES, PREFIX_LOCK_SECONDS (the window) and
    PREFIX_HALL_TRIES, else these defaults."""
    return GuessGuard(config.get(f"{prefix}_TRIES", tries),
                      config.get(f"{prefix}_LOCK_SECONDS", 60.0),
                      config.get(f"{prefix}_HALL_TRIES", hall_tries))
