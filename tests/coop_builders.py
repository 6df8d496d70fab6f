"""Test builders for the co-op Tax Assessor table: one line per table, decks written out.

    coop("A 3 cafe | B 0", row="ranch mine forest cafe", deck="ranch", assessor="wheat_field")
"""

from __future__ import annotations

from dataclasses import replace

from builders import CATALOG, table

from companion.rules.coop import engine as coop_rules
from companion.rules.coop.evolve import evolve_all
from companion.rules.coop.state import RULESET, CoopState
from companion.rules.machi_koro.state import frozen_counts


def cards(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def coop(notation: str, *, row: str = "", deck: str = "", assessor: str = "",
         discards: str = "", assessed: str = "", coins: int = 13, **fields: object) -> CoopState:
    """A dealt co-op table: `notation` as builders.table (two seats), the market row left to
    right, decks top first. Base-table fields (active, phase, ...) go in `fields`."""
    base_fields = {k: v for k, v in fields.items() if k not in CoopState.__slots__}
    coop_fields = {k: v for k, v in fields.items() if k in CoopState.__slots__}
    base = table(notation, **base_fields)
    base = replace(base, ruleset=RULESET, bank_pays_players=True,
                   supply=frozen_counts(_counts(cards(row))))
    return CoopState(
        base, dealt=True, assessor_coins=coins, assessor_deck=cards(assessor),
        assessor_discards=cards(discards), assessed=cards(assessed),
        market_row=cards(row), market_deck=cards(deck), **coop_fields,
    )


def _counts(row: tuple[str, ...]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for card in row:
        counts[card] = counts.get(card, 0) + 1
    return counts


class Recorder:
    """A shuffle that keeps what it was asked to shuffle and returns it in a set order
    (reversed unless told otherwise, so a test can tell it happened)."""

    def __init__(self, order=lambda cards: tuple(reversed(cards))) -> None:
        self.asked: list[tuple[str, ...]] = []
        self.order = order

    def __call__(self, cards: tuple[str, ...]) -> tuple[str, ...]:
        self.asked.append(cards)
        return self.order(cards)


def play(state: CoopState, seat: int, move: object, shuffle: object = None):
    """Decide and apply one co-op move; coins are conserved (bank and assessor counted) and
    nobody goes below zero after every event."""
    events = coop_rules.decide(state, seat, move, CATALOG, shuffle)
    after = state
    for event in events:
        after = evolve_all(after, [event])
        assert after.total_coins() == state.total_coins(), event
        assert after.assessor_coins >= 0 and all(p.coins >= 0 for p in after.table.players), event
    assert evolve_all(state, events) == after, "a batch evolves like one event at a time"
    return after, events


def random_move(state: CoopState, rng) -> tuple[int, object]:
    """A legal move for the active seat that tends to finish games: builds (landmarks first)
    over ending the turn, and now and then a gift to the assessor."""
    from companion.rules.coop.facts import GiveAssessor
    from companion.rules.machi_koro.moves import Build, EndTurn, Reroll, Roll
    from companion.rules.machi_koro.state import Phase

    base = state.table
    seat = base.active
    moves = coop_rules.legal_moves(state, seat, CATALOG)
    gifts = [m for m in moves if isinstance(m, GiveAssessor)]
    builds = [m for m in moves if isinstance(m, Build)]
    landmarks = [m for m in builds if m.card in CATALOG.landmarks]
    short = max(0, 2 * state.sought - state.assessor_coins)  # a careful pair keeps it solvent
    if gifts and short and rng.random() < 0.8:
        move = gifts[min(short, len(gifts)) - 1]
    elif gifts and rng.random() < 0.03:
        move = rng.choice(gifts[:4])
    elif base.phase is Phase.BUILD and landmarks and rng.random() < 0.95:
        move = rng.choice(landmarks)
    elif base.phase is Phase.BUILD and builds and rng.random() < 0.8:
        move = rng.choice(builds)
    elif base.phase is Phase.BUILD:
        move = EndTurn()
    else:
        move = rng.choice([m for m in moves if not isinstance(m, GiveAssessor)])
    if isinstance(move, Roll):
        move = Roll(tuple(rng.randint(1, 6) for _ in range(base.players[seat].dice_count)))
    elif isinstance(move, Reroll):
        move = Reroll(tuple(rng.randint(1, 6) for _ in range(len(base.dice))))
    return seat, move
