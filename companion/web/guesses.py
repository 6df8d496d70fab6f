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

Several server processes (docs/scaling.md) keep these counts in their Redis, the one they share
as the message queue (`SharedGuessGuard`): otherwise a guesser spread over N processes by the
proxy would get N times the tries. One process keeps them in memory (`GuessGuard`).
"""

from __future__ import annotations

import ipaddress
import logging
import math
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Mapping
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


# One atomic step of SharedGuessGuard.try_now, GuessGuard.try_now's rules on two sorted sets
# (a source's wrong tries within `memory`, the hall's within `seconds`; score = the try's time).
TRY_NOW = """
local mine, hall = KEYS[1], KEYS[2]
local now, tries, seconds = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local hall_tries, grace, memory = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
redis.call('ZREMRANGEBYSCORE', mine, '-inf', now - memory)
redis.call('ZREMRANGEBYSCORE', hall, '-inf', now - seconds)
local wait = 0
local recent = redis.call('ZRANGEBYSCORE', mine, '(' .. (now - seconds), '+inf', 'WITHSCORES')
local n = #recent / 2
if n >= tries then
  wait = tonumber(recent[2 * (n - tries + 1)]) + seconds - now
else
  local spent = redis.call('ZCARD', hall)
  if spent >= hall_tries and redis.call('ZCARD', mine) >= grace then
    local oldest = redis.call('ZRANGE', hall, spent - hall_tries, spent - hall_tries, 'WITHSCORES')
    wait = tonumber(oldest[2]) + seconds - now
  end
end
if wait > 0 then return tostring(wait) end
redis.call('ZADD', mine, now, ARGV[7])
redis.call('ZADD', hall, now, ARGV[7])
redis.call('PEXPIRE', mine, math.ceil(memory * 1000))
redis.call('PEXPIRE', hall, math.ceil(seconds * 1000))
return '0'
"""

log = logging.getLogger(__name__)


class SharedGuessGuard:
    """GuessGuard's limits kept in Redis, where every server process counts the same tries:
    one sorted set per source and one for the hall under `namespace`, changed by one Lua script
    per try (counted before the check, atomically, as in memory). Times are wall-clock seconds
    (`clock`, the servers' clocks agree to well under the windows' length), not the callers'
    monotonic `now`, which is only the try's name for `right`. Keys expire with their window:
    nothing grows. If Redis does not answer, this process's own GuessGuard decides meanwhile
    (a guesser gains at most one window's tries per process), and says so in the log."""

    PENDING_KEPT = 10_000  # tries not yet answered right or wrong, by their caller's name

    def __init__(self, url: str, namespace: str, tries: int = 5, seconds: float = 60.0,
                 hall_tries: int = 20, grace: int = 2, memory: float = 3600.0,
                 clock: Callable[[], float] = time.time) -> None:
        import redis

        self.tries, self.seconds, self.hall_tries = tries, seconds, hall_tries
        self.grace, self.memory = grace, max(memory, seconds)
        self.namespace, self.clock = namespace, clock
        self.redis = redis.Redis.from_url(url, socket_timeout=2.0, socket_connect_timeout=2.0)
        self.script = self.redis.register_script(TRY_NOW)
        self.local = GuessGuard(tries, seconds, hall_tries, grace, memory)
        self.pending: dict[tuple[str, float], str | None] = {}  # None: counted by `local`
        self.guard = threading.Lock()
        self.failing = False

    def try_now(self, address: str, now: float) -> int:
        """As GuessGuard.try_now, counted where every process sees it."""
        import redis

        source, member = source_of(address), uuid.uuid4().hex
        try:
            wait = float(self.script(keys=[self._key(source), self._key("hall")], args=[
                repr(self.clock()), self.tries, repr(float(self.seconds)), self.hall_tries,
                self.grace, repr(float(self.memory)), member]))
        except redis.RedisError as error:
            self._failed(error)
            wait = self.local.try_now(address, now)
            if not wait:
                self._pending(source, now, None)
            return wait
        self.failing = False
        if wait > 0:
            return max(1, math.ceil(wait))
        self._pending(source, now, member)
        return 0

    def right(self, address: str, at: float, *, forget: bool = False) -> None:
        """As GuessGuard.right: the try `try_now` answered 0 `at` does not count."""
        import redis

        source = source_of(address)
        with self.guard:
            member = self.pending.pop((source, at), None)
        if member is None:
            self.local.right(address, at, forget=forget)
            if not forget:
                return
        try:
            with self.redis.pipeline() as pipe:
                if member is not None:
                    pipe.zrem(self._key(source), member)
                    pipe.zrem(self._key("hall"), member)
                if forget:
                    pipe.delete(self._key(source))
                pipe.execute()
        except redis.RedisError as error:
            self._failed(error)

    def close(self) -> None:
        self.redis.close()

    def _key(self, source: str) -> str:
        return f"{self.namespace}:{source}"

    def _pending(self, source: str, at: float, member: str | None) -> None:
        with self.guard:
            if len(self.pending) >= self.PENDING_KEPT:  # requests that ended before an answer
                for key in list(self.pending)[: self.PENDING_KEPT // 2]:
                    del self.pending[key]
            self.pending[(source, at)] = member

    def _failed(self, error: Exception) -> None:
        if not self.failing:
            log.warning("guess limits: Redis did not answer (%s); this process counts alone "
                        "until it does", error)
        self.failing = True


Guard = GuessGuard | SharedGuessGuard


def guard_from_config(config: Mapping[str, Any], prefix: str, tries: int,
                      hall_tries: int) -> Guard:
    """A guard with the app's settings PREFIX_TRIES, PREFIX_LOCK_SECONDS (the window) and
    PREFIX_HALL_TRIES, else these defaults. With a MESSAGE_QUEUE (redis://..., several server
    processes) its counts live there, under GUESS_NAMESPACE (one hall's journal: create_app);
    else in this process."""
    settings = (config.get(f"{prefix}_TRIES", tries), config.get(f"{prefix}_LOCK_SECONDS", 60.0),
                config.get(f"{prefix}_HALL_TRIES", hall_tries))
    queue = config.get("MESSAGE_QUEUE")
    if queue:
        namespace = f"companion:guesses:{config.get('GUESS_NAMESPACE', '')}:{prefix}"
        return SharedGuessGuard(queue, namespace, *settings)
    return GuessGuard(*settings)
