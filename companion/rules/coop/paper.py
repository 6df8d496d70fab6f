"""What the co-op Tax Assessor's paper says (RULES.md 16): the setup sheet's seating with the
assessor after the second player, each player's cards, the assessor's 17 cards and coins, the
market deck, and what stays in the box and the bank; the score sheet's columns are the base
game's, and the pair shares one place. Pure functions; `printing/` lays them out."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from companion.rules.coop.assessor import ASSESSOR_COINS, ASSESSOR_DECK
from companion.rules.coop.state import SEATS, CoopState, Outcome, market_cards
from companion.rules.machi_koro import paper as base
from companion.rules.machi_koro.catalog import Catalog
from companion.rules.paper import (
    NOTE,
    PLAIN,
    STRONG,
    Column,
    Grid,
    Name,
    Part,
    SeatName,
    SetupSection,
    line,
)
from companion.rules.ruleset import Json, Result


def places(state: CoopState) -> tuple[int, ...]:
    """The pair shares one place (docs/rules.md): 1st when they won together, else 2nd,
    behind the assessor."""
    return (1 if state.outcome is Outcome.WON else 2,) * len(state.table.players)


def standings_rows(names: Sequence[str], state: CoopState | None,
                   result: Result | None, catalog: Catalog) -> list[Json]:
    """The base game's rows (`machi_koro.paper.standings_rows`), with the pair's shared place
    and outcome."""
    if state is None:
        return base.standings_rows(names, None, result, catalog)
    return base.standings_rows(names, state.table, result, catalog, places(state))


def setup_section(catalog: Catalog, options: Mapping[str, Any], seats: int) -> SetupSection:
    """A co-op table: the play order, what each player takes, the assessor's and the market's
    decks, the two unused landmark sets and the bank (less the assessor's coins)."""
    coins = int(options.get("assessor_coins", ASSESSOR_COINS))
    seating = line("coop_seating", PLAIN, first=SeatName(0), second=SeatName(1))
    sets = line("landmark_sets_n", n=catalog.players_max - SEATS)
    bank = catalog.bank_coins - SEATS * catalog.starting_coins - coins
    return SetupSection((base.player_part(catalog), decks_part(catalog, coins),
                         base.box_part([sets], bank)), seating=(seating,))


def decks_part(catalog: Catalog, coins: int) -> Part:
    """One table of the cards left after the starting hands: how many form the assessor's
    deck (17) and how many the market deck (the rest plus the unused starting Wheat Fields
    and Bakeries), with the assessor's values and the costs; then the assessor's coins."""
    deck = Counter(ASSESSOR_DECK)
    market = Counter(market_cards(catalog))
    cards = [card for card in catalog.establishments.values() if deck[card.id] or market[card.id]]
    columns = (Column("roll", 0.12), Column("card", 0.44), Column("cost", 0.12),
               Column("coop_assessor", 0.16), Column("coop_market", 0.16))
    rows = tuple((base.roll_range(c), Name.of(c.names), c.cost, deck[c.id] or "–", market[c.id])
                 for c in cards)
    lines = (line("coop_deck", n=sum(deck.values())),
             line("coop_coins", STRONG, n=coins),
             line("coop_market_deck", n=sum(market.values())),
             line("coop_market_note", NOTE))
    return Part("coop_title", lines, Grid(columns, rows, size=9))
