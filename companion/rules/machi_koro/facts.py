"""What happened at a table. Only facts are stored; state is a fold over them."""

from __future__ import annotations

from companion.rules.frozen import journal_fact, quick_constructor
from companion.rules.machi_koro.state import Account, Choice


@journal_fact("DiceCountChosen")
class DiceCountChosen:
    seat: int
    count: int


@journal_fact("DiceRolled")
class DiceRolled:
    seat: int
    dice: tuple[int, ...]
    reroll: bool = False


make_dice_rolled = quick_constructor(DiceRolled)
"""DiceRolled(seat, dice, reroll) for the engine's hot path, nothing checked."""


@journal_fact("RerollOffered")
class RerollOffered:
    """The roller owns a Radio Tower: keep or reroll before any income."""



@journal_fact("HarborOffered")
class HarborOffered:
    """The roller owns a Harbor and the total is 10 or more: add 2 or not, before any income
    (docs/rules.md 31)."""


@journal_fact("HarborAnswered")
class HarborAnswered:
    """What the roller added to the total: the Harbor's 2, or 0."""

    added: int


@journal_fact("TunaRolled")
class TunaRolled:
    """The table's own roll for its Tuna Boats (docs/rules.md 32), drawn by the service."""

    dice: tuple[int, ...]


@journal_fact("CoinsTransferred")
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


@journal_fact("CoinsAdjusted")
class CoinsAdjusted:
    """The organizer's correction: `amount` from the bank to the seat (negative: back)."""

    seat: int
    amount: int
    reason: str


@journal_fact("RollResolved")
class RollResolved:
    """Income is done; the purple questions still open, and whether doubles earned a turn."""

    pending: tuple[Choice, ...]
    extra_turn: bool


make_roll_resolved = quick_constructor(RollResolved)
"""RollResolved(pending, extra_turn) for the engine's hot path, nothing checked."""


@journal_fact("ChoiceAnswered")
class ChoiceAnswered:
    choice: Choice


@journal_fact("EstablishmentsSwapped")
class EstablishmentsSwapped:
    seat: int
    other: int
    give: str
    take: str


@journal_fact("EstablishmentBought")
class EstablishmentBought:
    seat: int
    card: str


@journal_fact("LandmarkBuilt")
class LandmarkBuilt:
    seat: int
    landmark: str


@journal_fact("GameWon")
class GameWon:
    seat: int


@journal_fact("PlaceTaken")
class PlaceTaken:
    """Play on after a win (RULES.md 14): `seat` takes `place` and leaves the play (the last
    player still playing takes the last place when the one before them finishes)."""

    seat: int
    place: int


@journal_fact("SupplyDealt")
class SupplyDealt:
    """Variable supply (RULES.md 13): the dealer's shuffle. `removed`: the purple copies no
    player could buy, out of the game; `pile`: the draw pile, top first (the journal keeps the
    order, so a replay deals the same cards)."""

    removed: tuple[str, ...]
    pile: tuple[str, ...]


@journal_fact("SupplyDrawn")
class SupplyDrawn:
    """Variable supply: `cards` come off the top of the draw pile, in order, each onto its
    kind's face-up pile (until 10 kinds show, or the draw pile is empty)."""

    cards: tuple[str, ...]


@journal_fact("TurnEnded")
class TurnEnded:
    next_active: int
    bonus_turn: bool


Fact = (
    DiceCountChosen | DiceRolled | RerollOffered | CoinsTransferred | RollResolved
    | ChoiceAnswered | EstablishmentsSwapped | EstablishmentBought | LandmarkBuilt | GameWon
    | TurnEnded | CoinsAdjusted | PlaceTaken | SupplyDealt | SupplyDrawn | HarborOffered
    | HarborAnswered | TunaRolled
)
