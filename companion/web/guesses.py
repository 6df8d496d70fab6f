"""Wrong guesses at a secret typed into a page (the organizer's PIN, a seat's join code),
limited per address and for the whole hall."""

from __future__ import annotations

import math
import threading


class GuessGuard:
    """Wrong tries, per address and for the whole hall: `tries` wrong ones in a row lock
    an address for `seconds`; `hall_tries` wrong ones from all addresses together within
    `seconds` lock every address, so many addresses cannot guess faster than one."""

    def __init__(self, tries: int = 5, seconds: float = 60.0, hall_tries: int = 20) -> None:
        self.tries, self.seconds, self.hall_tries = tries, seconds, hall_tries
        self.failures: dict[str, list[float]] = {}
        self.locked_until: dict[str, float] = {}
        self.guard = threading.Lock()

    def wait_left(self, address: str, now: float) -> int:
        """Whole seconds, rounded up, until `address` may try again (0 when it may now)."""
        with self.guard:
            until = max(self.locked_until.get(address, 0.0), self.locked_until.get("*", 0.0))
            return max(0, math.ceil(until - now))

    def failed(self, address: str, now: float) -> None:
        with self.guard:
            for who, limit in ((address, self.tries), ("*", self.hall_tries)):
                recent = [t for t in self.failures.get(who, []) if now - t < self.seconds]
                recent.append(now)
                if len(recent) >= limit:
                    self.locked_until[who] = now + self.seconds
                    recent = []
                self.failures[who] = recent
            if len(self.failures) > 10_000:  # a flood of addresses must not grow memory for good
                self.failures = {"*": self.failures["*"]}

    def succeeded(self, address: str) -> None:
        with self.guard:
            self.failures.pop(address, None)
