"""What happened at a table. Only events are stored; state is a fold over them."""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.frozen import quick_constructor
from companion.rules.state import Account, Choice


@dataclass(frozen=True, slots=True)
class DiceCountChosen:
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class DiceRolled:
    seat: int
    dice: tuple[int, ...]
    reroll: bool = False


make_dice_rolled = quick_constructor(DiceRolled)
"""DiceRolled(seat, dice, reroll) for the engine's hot path, nothing checked."""


@dataclass(frozen=True, slots=True)
class RerollOffered:
    """The roller owns a Radio Tower: keep or reroll before any income."""


@dataclass(frozen=True, slots=True)
class CoinsTransferred:
    """One ledger entry. `amount` moved; `forgiven` was owed but could not be paid."""

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

    seat: int
    amount: int
    reason: str


@dataclass(frozen=True, slots=True)
class RollResolved:
    """Income is done; the purple questions still open, and whether doubles earned a turn."""

    pending: tuple[Choice, ...]
    extra_turn: bool


make_roll_resolved = quick_constructor(RollResolved)
"""RollResolved(pending, extra_turn) for the engine's hot path, nothing checked."""


@dataclass(frozen=True, slots=True)
class ChoiceAnswered:
    choice: Choice


@dataclass(frozen=True, slots=True)
class EstablishmentsSwapped:
    seat: int
    other: int
    give: str
    take: str


@dataclass(frozen=True, slots=True)
class EstablishmentBought:
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class LandmarkBuilt:
    seat: int
    landmark: str


@dataclass(frozen=True, slots=True)
class GameWon:
    seat: int


@dataclass(frozen=True, slots=True)
class TurnEnded:
    next_active: int
    bonus_turn: bool


Event = (
    DiceCountChosen | DiceRolled | RerollOffered | CoinsTransferred | RollResolved
    | ChoiceAnswered | EstablishmentsSwapped | EstablishmentBought | LandmarkBuilt | GameWon
    | TurnEnded | CoinsAdjusted
)
