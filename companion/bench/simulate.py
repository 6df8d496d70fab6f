"""Random legal games, for the rules benchmark and the property tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from companion.rules.engine_parts import (
    AddTwo,
    Build,
    Catalog,
    EndTurn,
    Fact,
    Move,
    Phase,
    Reroll,
    Roll,
    TableState,
    deal_supply,
    decide,
    evolve,
    legal_moves,
    load_catalog,
    new_table,
)


@dataclass(frozen=True)
class Step:
    """One accepted move and the states around it."""

    before: TableState
    seat: int
    move: Move
    facts: tuple[Fact, ...]
    after: TableState


def random_move(state: TableState, rng: random.Random, catalog: Catalog) -> tuple[int, Move]:
    """A legal move for the active seat (sometimes a dice-count change by anyone).

    Builds are favoured over ending the turn so that games finish."""
    seat = state.active
    if rng.random() < 0.05:
        seat = rng.randrange(len(state.players))
    moves = legal_moves(state, seat, catalog)
    if seat != state.active or state.phase is not Phase.BUILD or rng.random() < 0.1:
        move = rng.choice(moves)
    else:
        builds = [m for m in moves if isinstance(m, Build)]
        move = rng.choice(builds) if builds and rng.random() < 0.8 else EndTurn()
    if isinstance(move, Roll):
        move = Roll(_dice(rng, state.players[seat].dice_count))
    elif isinstance(move, Reroll):
        move = Reroll(_dice(rng, len(state.dice)))
    elif isinstance(move, AddTwo):
        move = AddTwo(rng.random() < 0.5)
    return seat, move


def _dice(rng: random.Random, count: int) -> tuple[int, ...]:
    return tuple(rng.randint(1, 6) for _ in range(count))


def random_game(
    seats: int, seed: int, *, max_turns: int = 300, catalog: Catalog | None = None,
) -> Iterator[Step]:
    """Play one random legal game of `seats` players, step by step. A set that always plays the
    variable supply (Harbor) has its draw pile dealt first (not a step); the dealer's shuffles
    (a Tuna Boat roll too) come from the game's seeded random."""
    catalog = catalog or load_catalog()
    rng = random.Random(seed)
    state = new_table(catalog, tuple(f"P{i}" for i in range(seats)), first=rng.randrange(seats),
                      variable_supply=catalog.variable_supply)

    def shuffle(cards: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(rng.sample(cards, len(cards)))

    if state.variable_supply:
        for fact in deal_supply(state, catalog, shuffle):
            state = evolve(state, fact)
    while state.phase is not Phase.FINISHED and state.turn <= max_turns:
        seat, move = random_move(state, rng, catalog)
        facts = tuple(decide(state, seat, move, catalog, shuffle))
        after = state
        for fact in facts:
            after = evolve(after, fact)
        yield Step(state, seat, move, facts, after)
        state = after
