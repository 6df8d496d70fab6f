"""What happened at a table. Only facts are stored; state is a fold over them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.rules.frozen import quick_constructor
from companion.rules.machi_koro.state import Account, Choice


@dataclass(frozen=True, slots=True)
class DiceCountChosen:
    KIND: ClassVar[str] = "DiceCountChosen"  # its name in every journal: never change it
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class DiceRolled:
    KIND: ClassVar[str] = "DiceRolled"  # its name in every journal: never change it
    seat: int
    dice: tuple[int, ...]
    reroll: bool = False


make_dice_rolled = quick_constructor(DiceRolled)
"""DiceRolled(seat, dice, reroll) for the engine's hot path, nothing checked."""


@dataclass(frozen=True, slots=True)
class RerollOffered:
    """The roller owns a Radio Tower: keep or reroll before any income."""

    KIND: ClassVar[str] = "RerollOffered"  # its name in every journal: never change it


@dataclass(frozen=True, slots=True)
class CoinsTransferred:
    """One ledger entry. `amount` moved; `forgiven` was owed but could not be paid."""

    KIND: ClassVar[str] = "CoinsTransferred"  # its name in every journal: never change it

    source: Account
    target: Account
    amount: int
    card: str
    copies: int = 1
    mall_bonus: int = 0
    forgiven: int = 0


make_transfer = quick_constructor(CoinsTransferred)
"""CoinsTransferred(...) for income: all seven fields positionally, nothing checked."""


@dataclass(frozen=True, slots=True)
class CoinsAdjusted:
    """The organizer's correction: `amount` from the bank to the seat (negative: back)."""

    KIND: ClassVar[str] = "CoinsAdjusted"  # its name in every journal: never change it

    seat: int
    amount: int
    reason: str


@dataclass(frozen=True, slots=True)
class RollResolved:
    """Income is done; the purple questions still open, and whether doubles earned a turn."""

    KIND: ClassVar[str] = "RollResolved"  # its name in every journal: never change it

    pending: tuple[Choice, ...]
    extra_turn: bool


make_roll_resolved = quick_constructor(RollResolved)
"""RollResolved(pending, extra_turn) for the engine's hot path, nothing checked."""


@dataclass(frozen=True, slots=True)
class ChoiceAnswered:
    KIND: ClassVar[str] = "ChoiceAnswered"  # its name in every journal: never change it
    choice: Choice


@dataclass(frozen=True, slots=True)
class EstablishmentsSwapped:
    KIND: ClassVar[str] = "EstablishmentsSwapped"  # its name in every journal: never change it
    seat: int
    other: int
    give: str
    take: str


@dataclass(frozen=True, slots=True)
class EstablishmentBought:
    KIND: ClassVar[str] = "EstablishmentBought"  # its name in every journal: never change it
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class LandmarkBuilt:
    KIND: ClassVar[str] = "LandmarkBuilt"  # its name in every journal: never change it
    seat: int
    landmark: str


@dataclass(frozen=True, slots=True)
class GameWon:
    KIND: ClassVar[str] = "GameWon"  # its name in every journal: never change it
    seat: int


@dataclass(frozen=True, slots=True)
class PlaceTaken:
    """Play on after a win (RULES.md 14): `seat` takes `place` and leaves the play (the last
    player still playing takes the last place when the one before them finishes)."""

    KIND: ClassVar[str] = "PlaceTaken"  # its name in every journal: never change it
    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class SupplyDealt:
    """Variable supply (RULES.md 13): the dealer's shuffle. `removed`: the purple copies no
    player could buy, out of the game; `pile`: the draw pile, top first (the journal keeps the
    order, so a replay deals the same cards)."""

    KIND: ClassVar[str] = "SupplyDealt"  # its name in every journal: never change it
    removed: tuple[str, ...]
    pile: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SupplyDrawn:
    """Variable supply: `cards` come off the top of the draw pile, in order, each onto its
    kind's face-up pile (until 10 kinds show, or the draw pile is empty)."""

    KIND: ClassVar[str] = "SupplyDrawn"  # its name in every journal: never change it
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TurnEnded:
    KIND: ClassVar[str] = "TurnEnded"  # its name in every journal: never change it
    next_active: int
    bonus_turn: bool


Fact = (
    DiceCountChosen | DiceRolled | RerollOffered | CoinsTransferred | RollResolved
    | ChoiceAnswered | EstablishmentsSwapped | EstablishmentBought | LandmarkBuilt | GameWon
    | TurnEnded | CoinsAdjusted | PlaceTaken | SupplyDealt | SupplyDrawn
)
