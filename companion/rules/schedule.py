"""A turn-time schedule: `[first turn, seconds]` steps the organizer sets for an event's timed
hall turns (RULES.md 21; the hall's clock and Catan's announcement read the same steps).

Neutral like `errors`: no game's rules, so the hall may read it (tests/test_purity.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.rules.coop.scenario import show
from companion.rules.errors import RuleError, is_whole_number

SECONDS_MIN, SECONDS_MAX = 10, 900  # a turn's time, as the organizer may set it (issue 12)
PRODUCTION_SECONDS = 20  # a turn's opening (Catan's production, RULES.md 21) unless a step says


class BadSchedule(RuleError):
    code = "rule/bad_schedule"


@dataclass(frozen=True)
class Step:
    """From `first_turn` on (until the next step), a turn lasts `seconds`, of which the first
    `production` are its opening (Catan's production: no trading yet, RULES.md 21); None: the
    default, PRODUCTION_SECONDS (at most the turn's time)."""

    first_turn: int
    seconds: int
    production: int | None = None

    @property
    def production_seconds(self) -> int:
        return min(self.seconds, PRODUCTION_SECONDS if self.production is None else self.production)


Schedule = tuple[Step, ...]


def read_schedule(value: Any, name: str = "schedule",
                  error: type[RuleError] = BadSchedule) -> Schedule:
    """The organizer's `[first turn, seconds]` steps, checked: the first from turn 1 (every turn
    needs a time), first turns strictly increasing, 10 to 900 seconds each. `error` (naming the
    field) for anything else."""
    if not isinstance(value, list):
        raise error(f"{name}: a list is required, not {show(value)}")
    if not value:
        raise error(f"{name}: at least one [first turn, seconds] step is required")
    steps = tuple(_read_step(item, f"{name}[{i}]", error) for i, item in enumerate(value))
    if steps[0].first_turn != 1:
        raise error(f"{name}[0][0]: the first step starts at turn 1, not {show(steps[0].first_turn)}")
    for i in range(1, len(steps)):
        if steps[i].first_turn <= steps[i - 1].first_turn:
            raise error(
                f"{name}[{i}][0]: the steps' first turns must increase: turn "
                f"{show(steps[i].first_turn)} does not come after turn {show(steps[i - 1].first_turn)}"
            )
    return steps


def _read_step(value: Any, name: str, error: type[RuleError]) -> Step:
    if not isinstance(value, list) or len(value) not in (2, 3):
        raise error(f"{name}: a step is [first turn, seconds] or [first turn, seconds, "
                    f"production seconds], not {show(value)}")
    first_turn, seconds = value[:2]
    if not is_whole_number(first_turn) or first_turn < 1:
        raise error(f"{name}[0]: a whole number >= 1 is required, not {show(first_turn)}")
    if not is_whole_number(seconds) or not SECONDS_MIN <= seconds <= SECONDS_MAX:
        raise error(f"{name}[1]: a whole number of seconds from {SECONDS_MIN} to {SECONDS_MAX} "
                    f"is required, not {show(seconds)}")
    if len(value) == 2:
        return Step(first_turn, seconds)
    production = value[2]
    if not is_whole_number(production) or not 0 <= production <= seconds:
        raise error(f"{name}[2]: the production's seconds are a whole number from 0 to the "
                    f"turn's {seconds}, not {show(production)}")
    return Step(first_turn, seconds, production)


def step_for(schedule: Schedule, turn: int) -> Step:
    """The last step that starts at or before `turn` (every schedule read here starts at turn
    1); BadSchedule for a turn before every step."""
    covering = [step for step in schedule if step.first_turn <= turn]
    if not covering:
        raise BadSchedule(f"schedule: no step covers turn {show(turn)}")
    return covering[-1]


def seconds_for(schedule: Schedule, turn: int) -> int:
    """The time of `turn`: its step's seconds."""
    return step_for(schedule, turn).seconds


def production_for(schedule: Schedule, turn: int) -> int:
    """The seconds of `turn`'s opening production (its step's, 20 by default)."""
    return step_for(schedule, turn).production_seconds


def schedule_json(schedule: Schedule) -> list[list[int]]:
    """The steps as the organizer gave them: a production's seconds only where one was set."""
    return [[step.first_turn, step.seconds]
            + ([] if step.production is None else [step.production]) for step in schedule]
