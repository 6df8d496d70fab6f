"""A Machi Koro table as an immutable value; moves and facts make new ones."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Literal

from companion.rules.frozen import Twin
from companion.rules.machi_koro.catalog import Catalog

BANK: Literal["bank"] = "bank"
Account = int | Literal["bank"]
"""A seat index, or the bank."""


class Phase(StrEnum):
    """Where a turn stands: what the active seat may do next."""

    ROLL = "roll"
    REROLL = "reroll"  # a Radio Tower owner decides to keep or reroll
    HARBOR = "harbor"  # a Harbor owner decides whether to add 2 to a total of 10 or more
    CHOOSE = "choose"  # a purple card waits for the roller's answer
    BUILD = "build"
    FINISHED = "finished"


class Choice(StrEnum):
    """A purple card's question to the roller."""

    TV_STATION = "tv_station"
    BUSINESS_CENTER = "business_center"


def frozen_counts(counts: Mapping[str, int]) -> Mapping[str, int]:
    """A read-only copy of card counts without zero entries."""
    return MappingProxyType({card: n for card, n in counts.items() if n})


@dataclass(frozen=True, slots=True)
class Player:
    """One seat's city: coins, establishments, built landmarks and the dice it rolls."""

    name: str
    coins: int
    cards: Mapping[str, int]
    landmarks: frozenset[str]
    dice_count: int = 1
    place: int | None = None  # play on after a win (RULES.md 14): the place this seat took

    def owns(self, card_id: str) -> int:
        return self.cards.get(card_id, 0)


@dataclass(frozen=True, slots=True)
class TableState:
    """Everything the referee knows about one table between two facts."""

    ruleset: str
    players: tuple[Player, ...]
    bank: int
    supply: Mapping[str, int]
    active: int = 0
    phase: Phase = Phase.ROLL
    turn: int = 1
    dice: tuple[int, ...] = ()
    added: int = 0  # what a Harbor added to this turn's dice total (docs/rules.md 31)
    table_roll: tuple[int, ...] = ()  # this turn's roll for the Tuna Boats (docs/rules.md 32)
    rerolled: bool = False  # the Radio Tower was used (or declined) this turn
    built: bool = False  # this turn's one build is done
    extra_turn: bool = False  # doubles with an Amusement Park earned another turn
    bonus_turn: bool = False  # this turn is that extra turn: doubles give no more
    pending: tuple[Choice, ...] = ()
    winner: int | None = None
    bank_pays_players: bool = False  # co-op: the bank pays what players would pay each other
    play_on: bool = False  # RULES.md 14: a finished player takes a place, the others play on
    variable_supply: bool = False  # RULES.md 13: `supply` is the face-up piles
    draw_pile: tuple[str, ...] = ()  # variable supply: the face-down cards, top first

    @property
    def roller(self) -> Player:
        return self.players[self.active]

    @property
    def total(self) -> int:
        """The dice total that counts this turn: the dice and what a Harbor added."""
        return sum(self.dice) + self.added

    def playing(self, seat: int) -> bool:
        """Whether `seat` still plays: always, unless it finished in play on (RULES.md 14)."""
        return self.players[seat].place is None

    def still_playing(self) -> tuple[int, ...]:
        """The seats still in the play, in seat order."""
        return tuple(seat for seat, player in enumerate(self.players) if player.place is None)

    def total_coins(self) -> int:
        """Coins of all players plus the bank: constant for a table."""
        return self.bank + sum(player.coins for player in self.players)


STATE_TWIN = Twin(TableState)
"""Writable drafts of a TableState, for `evolve_all`."""
with_coins = Twin(Player).replacer("coins")
"""with_coins(player, coins): replace(player, coins=coins) at a fifth of the cost."""


def new_table(
    catalog: Catalog, names: tuple[str, ...], *, ruleset: str = "machi-koro",
    play_on: bool = False, variable_supply: bool = False,
) -> TableState:
    """A table at set-up: starting cards and coins dealt, landmarks that start built built,
    the supply stacked, the bank formed. With the variable supply (RULES.md 13) nothing is
    face up yet: the deal shuffles the draw pile and turns cards up."""
    starting = {card.id: card.starting for card in catalog.establishments.values() if card.starting}
    built = frozenset(lm.id for lm in catalog.landmarks.values() if lm.starts_built)
    players = tuple(
        Player(name, catalog.starting_coins, frozen_counts(starting), built) for name in names
    )
    supply = frozen_counts({card.id: card.copies for card in catalog.establishments.values()})
    return TableState(
        ruleset=ruleset,
        players=players,
        bank=catalog.bank_coins - catalog.starting_coins * len(names),
        supply=frozen_counts({}) if variable_supply else supply,
        active=0,  # the first seat starts, as at every table the hall starts
        play_on=play_on,
        variable_supply=variable_supply,
    )
