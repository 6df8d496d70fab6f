"""A Legacy game as an immutable value: the Machi Koro table inside (coins, cities, turn), and
what Legacy adds around it: the set-up it started from and who has contributed."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.rules.legacy.catalog import engine_catalog
from companion.rules.legacy.errors import BadSetup
from companion.rules.legacy.setup import Setup
from companion.rules.machi_koro.catalog import Catalog
from companion.rules.machi_koro.state import Player, TableState, frozen_counts

RULESET = "legacy"


@dataclass(frozen=True, slots=True)
class LegacyState:
    """Everything the referee knows about a Legacy game between two facts. The base table's
    `landmarks` per player are the landmarks built; `setup.landmarks` the three each may build."""

    table: TableState
    setup: Setup
    rules: Catalog = field(compare=False, repr=False)  # the engine's, made from setup.catalog
    contributed: tuple[int, ...] = ()  # the seats that contributed, in order

    def has_contributed(self, seat: int) -> bool:
        return seat in self.contributed

    def has_won(self, seat: int, built: frozenset[str], contributed: bool) -> bool:
        """Whether `seat` with these landmarks built has every one of its own and contributed
        (RULES.md 15)."""
        return contributed and set(self.setup.landmarks[seat]) <= built

    def total_coins(self) -> int:
        return self.table.total_coins()


def new_game(setup: Setup, names: tuple[str, ...]) -> LegacyState:
    """A Legacy game at set-up: each player's town-square cards and coins, nothing built, the
    supply in activation order, the start player on turn."""
    if len(names) != setup.seats:
        raise BadSetup(f"landmarks: the set-up is for {setup.seats} players, the table seats "
                       f"{len(names)}")
    catalog = setup.catalog
    rules = engine_catalog(catalog)
    players = tuple(Player(name, catalog.starting_coins, frozen_counts({card: 1 for card in own}),
                           frozenset())
                    for name, own in zip(names, setup.town_square, strict=True))
    supply = frozen_counts({card.id: card.copies for card in catalog.supply()})
    table = TableState(ruleset=RULESET, players=players,
                       bank=catalog.bank_coins - catalog.starting_coins * len(names),
                       supply=supply, active=setup.first)
    return LegacyState(table, setup, rules)
