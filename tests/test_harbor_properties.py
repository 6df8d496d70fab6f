"""Invariants over random legal games of the base game with the Harbor card set, 2 to 5 seats
(docs/rules.md 30-35; hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.bench.simulate import random_game
from companion.rules.machi_koro.catalog import load_catalog
from companion.rules.machi_koro.evolve import replay
from companion.rules.machi_koro.facts import CoinsTransferred, HarborOffered, TunaRolled
from companion.rules.machi_koro.state import Phase

HARBOR = load_catalog("base", "harbor")


@settings(max_examples=300)
@given(seats=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_property_harbor_games_keep_the_invariants(seats, seed):
    steps = list(random_game(seats, seed, max_turns=150, card_sets=("base", "harbor")))
    start = steps[0].before
    total = start.total_coins()
    for step in steps:
        after = step.after
        assert all(p.coins >= 0 for p in after.players), "coins never below zero"
        assert after.total_coins() == total, "players' coins plus the bank are constant"
        assert all("city_hall" in p.landmarks for p in after.players), "City Hall from the start"
        for card in HARBOR.establishments.values():
            owned = sum(p.owns(card.id) for p in after.players)
            assert owned + after.supply.get(card.id, 0) + after.draw_pile.count(card.id) <= (
                HARBOR.in_box(card.id)), "no card made"
            if card.is_purple:
                assert all(p.owns(card.id) <= 1 for p in after.players)
        for fact in step.facts:
            if isinstance(fact, TunaRolled):  # ruling 32: only when a boat with a Harbor pays
                assert after.total in (12, 13, 14) and len(fact.dice) == 2
            if isinstance(fact, HarborOffered):  # ruling 31
                assert sum(after.dice) >= 10 and "harbor" in after.roller.landmarks
            if isinstance(fact, CoinsTransferred) and fact.card == "city_hall":
                assert after.roller.coins == 1 and after.phase is Phase.BUILD
    assert replay(start, [f for step in steps for f in step.facts]) == steps[-1].after
    final = steps[-1].after
    if final.phase is Phase.FINISHED:
        assert HARBOR.landmarks_to_win <= final.players[final.winner].landmarks
