"""Invariants of the co-op Tax Assessor game over seeded random games (hypothesis):
RULES.md 16-19 checked after every event and every move."""

import random
from collections import Counter

from builders import CATALOG
from coop_builders import random_move
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import check_build_refusal

from companion.rules.coop import engine as coop
from companion.rules.coop.assessor import card_values
from companion.rules.coop.codec import decode_fact
from companion.rules.coop.evolve import evolve_all
from companion.rules.coop.facts import AssessorCardDrawn, FinalRoundBegan
from companion.rules.coop.state import (
    EndReason,
    Outcome,
    assessor_cards,
    market_cards,
    new_coop_table,
)
from companion.rules.machi_koro.codec import encode_fact
from companion.rules.machi_koro.options import TURN_WIDE, Why

GAMES = settings(max_examples=200)  # deadline and too_slow: the profile in conftest
MAX_MOVES = 4000
STARTING = Counter({card.id: card.starting for card in CATALOG.establishments.values()})


def play_game(seed, stake):
    """A whole random game: (start, every event in order, the final state, per-move states)."""
    rng = random.Random(seed)

    def shuffle(cards):
        return tuple(rng.sample(cards, len(cards)))

    start = new_coop_table(CATALOG, ("A", "B"), stake=stake)
    events = coop.deal(start, CATALOG, shuffle)
    state = evolve_all(start, events)
    states, moves = [state], 0
    while state.outcome is None and moves < MAX_MOVES:
        seat, move = random_move(state, rng)
        decided = coop.decide(state, seat, move, CATALOG, shuffle)
        for event in decided:
            state = check_event(state, event, start.total_coins())
        events += decided
        states.append(state)
        moves += 1
    return start, events, state, states


def check_event(state, event, total):
    """Apply one event and check what must hold after any event."""
    if isinstance(event, AssessorCardDrawn):
        unpaid = event.result == "unpaid"
        assert unpaid == (event.result != "miss" and event.amount > state.assessor_coins), \
            "lost exactly when a tax cannot be paid"
        if event.result == "tax":
            assert event.sought == state.sought and event.sought in card_values(CATALOG, event.card)
    after = evolve_all(state, [event])
    assert after.assessor_coins >= 0, "the assessor's coins never go below zero"
    assert all(p.coins >= 0 for p in after.table.players)
    assert after.total_coins() == total, "coins conserved, the bank and the assessor counted"
    return after


def check_move(state):
    """What must hold between moves."""
    for i, card in enumerate(state.assessed):
        assert i + 1 in card_values(CATALOG, card), "the array is 1, 2, 3 ... in order"
    assessor = Counter(state.assessor_deck) + Counter(state.assessor_discards)
    assert assessor + Counter(state.assessed) == Counter(assessor_cards()), "17 cards, always"
    if state.market_deck:
        assert len(state.market_row) == 4, "the row shows four while the deck lasts"
    assert Counter(state.table.supply) == Counter(state.market_row), "only the row can be bought"
    owned = sum((Counter(p.cards) for p in state.table.players), Counter()) - STARTING - STARTING
    market = Counter(state.market_deck) + Counter(state.market_row) + Counter(state.market_discards)
    assert market + owned == Counter(market_cards(CATALOG)), "no market card made or lost"


@GAMES
@given(seed=st.integers(0, 2**32), stake=st.integers(8, 20))
def test_property_coop_games_keep_the_invariants(seed, stake):
    start, events, final, states = play_game(seed, stake)
    for state in states:
        check_move(state)
    assert final.outcome is not None, "every game ends"
    drawn = [e for e in events if isinstance(e, AssessorCardDrawn)]
    unpaid = [e for e in drawn if e.result == "unpaid"]
    if final.reason is EndReason.TAX_UNPAID:
        assert final.outcome is Outcome.LOST and unpaid == [drawn[-1]]
    else:
        assert unpaid == []
    if final.reason is EndReason.FINAL_ROUND_OVER:
        assert final.outcome is Outcome.LOST and any(isinstance(e, FinalRoundBegan) for e in events)
    if final.outcome is Outcome.WON:
        assert all(len(p.landmarks) == len(CATALOG.landmarks) for p in final.table.players)
    else:
        assert not all(len(p.landmarks) == len(CATALOG.landmarks) for p in final.table.players)
    assert evolve_all(start, events) == final, "replaying the events gives the same state"
    journal = [encode_fact(e) for e in events]
    assert [decode_fact(kind, data) for kind, data in journal] == events, "journal round trip"


def test_random_games_reach_every_ending():
    """The generator plays games that are won, lost to a tax and lost after the final round,
    so the property test above sees all three."""
    endings = Counter(play_game(seed, 20)[2].reason for seed in range(60))
    assert set(endings) == set(EndReason), endings


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32), stake=st.integers(8, 20))
def test_property_coop_build_options_open_exactly_when_decide_builds(seed, stake):
    """The co-op build list agrees with the co-op engine on every position of a random game,
    for both seats and one that is not at the table: a card is open (no turn's `why` and no
    `why` of its own) exactly when `decide` accepts the build, and a closed one's reason is
    the refusal's code, the turn's when there is one; under it a card says only `built`."""
    for state in play_game(seed, stake)[3]:
        for seat in range(3):
            options = coop.build_options(state, seat, CATALOG, running=True)
            turn = options["why"]
            assert turn is None or Why(turn) in TURN_WIDE
            for option in options["cards"]:
                check_build_refusal(coop.decide, state, seat, option, turn)
                if turn is not None:
                    assert option.get("why", "built") == "built" and "short" not in option, option
