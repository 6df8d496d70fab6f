"""`companion bench rules`: table-rolls resolved per second by the pure engine, one core,
reached through the door (companion/rules/ruleset.py) as the hall reaches it."""

from __future__ import annotations

import random
import time
from typing import Any

from companion.bench.simulate import random_game
from companion.rules.registry import ruleset
from companion.rules.ruleset import SeatRolls


def bench_rules(seconds: float = 5.0, seed: int = 1) -> dict[str, Any]:
    """Two figures: random whole games (every move, each chosen from its seat's view), and
    roll resolution alone on the positions those games reach (decide a roll and evolve its
    facts)."""
    rules = ruleset("machi-koro")
    assert isinstance(rules, SeatRolls)
    setup = rules.table_setup(rules.check_options({}))  # the base cards, the games' set-up
    positions: list[tuple[Any, int, Any]] = []  # state, seat, the roll
    moves = rolls = games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds / 2:
        for step in random_game(2 + games % 3, seed + games):
            moves += 1
            if rules.hall_rolls(step.wire):  # a roll (not a Radio Tower's reroll)
                rolls += 1
                if len(positions) < 20_000:
                    positions.append((step.before, step.seat, step.move))
        games += 1
    game_time = time.perf_counter() - started

    # The positions in a random order, drawn before the clock starts: drawing it inside the
    # timed loop (as a sample per 1,000 rolls) cost 0.2 us a roll that is not a table-roll.
    order = random.Random(seed).sample(positions, len(positions))
    decide, evolve = rules.decide, rules.evolve
    resolved = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    while time.perf_counter() - started < seconds / 2:
        for state, seat, move in order:
            evolve(state, decide(state, seat, move, setup, None))
        resolved += len(order)
    roll_time = time.perf_counter() - started
    roll_cpu = time.process_time() - cpu_started
    return {
        "games": games,
        "moves_per_second": round(moves / game_time),
        "rolls_in_games_per_second": round(rolls / game_time),
        "table_rolls_resolved_per_second": round(resolved / roll_time),
        # On a shared machine: below about 0.95 the process waited for the core, and the
        # figure above is low by that much.
        "cpu_share_while_resolving": round(roll_cpu / roll_time, 2),
        "positions": len(order),
        "method": "one process, one core, through the ruleset (registry.ruleset('machi-koro')); "
                  "roll resolution = Ruleset.decide of a roll + Ruleset.evolve of its facts "
                  "on positions reached by random legal games of 2-4 seats, in a random order "
                  "drawn before timing; the games' moves each chosen from its seat's view "
                  "(seat_view's choices, the common view's active seat), so moves per second "
                  "include building those views",
    }
