"""The co-op Tax Assessor table (seed 004, RULES.md 16-19): the base table plus the assessor's
coins and deck, the array of assessed taxes, the market deck and its row of four.

The base `TableState` inside (`table`) is played by the base engine; its `supply` is kept equal
to the cards in the market row, so the base engine's build checks and options are the market's.
The base game's fields (players, active, phase, ...) are read from `table`: a co-op table is a
base table plus the assessor, not a copy of one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Literal

from companion.rules.coop.assessor import ASSESSOR_COINS, ASSESSOR_DECK
from companion.rules.errors import RuleError, is_whole_number
from companion.rules.machi_koro.catalog import Catalog
from companion.rules.machi_koro.state import TableState, frozen_counts, new_table

RULESET = "machi-koro-coop"
ASSESSOR: Literal["assessor"] = "assessor"
CoopAccount = int | Literal["bank", "assessor"]
"""A seat, the bank or the assessor: the three kinds of party a co-op coin moves between."""

SEATS = 2
ROW_SIZE = 4
ASSESSOR_COINS_RANGE = (8, 20)  # the organizer's difficulty setting (seed 004)


class Outcome(StrEnum):
    WON = "won"
    LOST = "lost"


class EndReason(StrEnum):
    """Why a co-op game ended (RULES.md 19)."""

    CITIES_COMPLETE = "cities_complete"  # both players completed all landmarks: won
    TAX_UNPAID = "tax_unpaid"  # the assessor could not pay a tax in full: lost
    FINAL_ROUND_OVER = "final_round_over"  # the last value was assessed, one turn each passed


class BadAssessorCoins(RuleError):
    code = "rule/assessor_coins"


class BadDeckOrder(RuleError):
    """A deck order that is not a shuffle of the cards asked for (a bug in the dealer)."""

    code = "rule/bad_deck_order"


def check_assessor_coins(coins: object) -> int:
    low, high = ASSESSOR_COINS_RANGE
    if not is_whole_number(coins) or not low <= coins <= high:
        raise BadAssessorCoins(f"the assessor starts with {low} to {high} coins, not {coins!r}")
    return coins


def assessor_cards() -> tuple[str, ...]:
    """The 17 assessor cards in a fixed order, before any shuffle."""
    return tuple(card for card, copies in ASSESSOR_DECK.items() for _ in range(copies))


def market_cards(catalog: Catalog) -> tuple[str, ...]:
    """The market deck before any shuffle (RULES.md 16): the supply less the assessor's cards,
    plus the starting cards of the seats nobody takes (the 3rd and 4th Wheat Fields and
    Bakeries)."""
    cards: list[str] = []
    for card in catalog.establishments.values():
        unused_starting = card.starting * (catalog.players_max - SEATS)
        copies = card.copies - ASSESSOR_DECK.get(card.id, 0) + unused_starting
        cards += [card.id] * copies
    return tuple(cards)


@dataclass(frozen=True, slots=True)
class CoopState:
    """Everything the referee knows about a co-op table between two facts. Decks list their
    top card first; the row lists its cards left to right (new cards come in on the left)."""

    table: TableState
    stake: int = ASSESSOR_COINS  # the assessor's coins at set-up (the organizer's setting)
    dealt: bool = False
    assessor_coins: int = 0
    assessor_deck: tuple[str, ...] = ()
    assessor_discards: tuple[str, ...] = ()
    assessed: tuple[str, ...] = ()
    market_deck: tuple[str, ...] = ()
    market_row: tuple[str, ...] = ()
    market_discards: tuple[str, ...] = ()
    bought: bool = False  # an establishment was bought this turn: the row loses nothing
    final_round: bool = False  # the last value was assessed: one more turn each
    outcome: Outcome | None = None
    reason: EndReason | None = None

    @property
    def sought(self) -> int:
        """The value the assessor looks for next (RULES.md 18)."""
        return len(self.assessed) + 1

    def total_coins(self) -> int:
        """Coins of the players, the bank and the assessor: constant for a table."""
        return self.table.total_coins() + self.assessor_coins


def new_coop_table(
    catalog: Catalog, names: tuple[str, ...], *, stake: int = ASSESSOR_COINS,
) -> CoopState:
    """A co-op table before the deal: starting cards and coins given, decks not yet shuffled,
    the row empty (so the base supply is empty too)."""
    if len(names) != SEATS:
        raise RuleError(f"the co-op game seats {SEATS} players, not {len(names)}")
    table = new_table(catalog, names, ruleset=RULESET)
    table = replace(table, supply=frozen_counts({}), bank_pays_players=True)
    return CoopState(table, stake=check_assessor_coins(stake))
