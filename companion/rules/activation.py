"""Income for one roll: red, then blue and green, then purple (RULES.md 2-5).

Works on a scratch list of balances so each payment sees what earlier ones left.
"""

from __future__ import annotations

from companion.rules.catalog import Catalog, Establishment
from companion.rules.events import CoinsTransferred
from companion.rules.state import BANK, Choice, Player, TableState


def counter_clockwise(state: TableState) -> list[int]:
    """The other seats from the roller's right: active-1, active-2, ... (RULES.md 1)."""
    n = len(state.players)
    return [(state.active - step) % n for step in range(1, n)]


def mall_bonus(catalog: Catalog, player: Player, card: Establishment) -> int:
    """The Shopping Mall's extra coins per copy for a card with a bread or cup icon."""
    if not player.landmarks:
        return 0
    for landmark in player.landmarks:
        mall = catalog.landmarks[landmark]
        if mall.effect == "mall_bonus" and card.icon in mall.bonus_icons:
            return mall.amount
    return 0


class IncomeRun:
    """Collects the transfers of one roll while keeping scratch balances."""

    def __init__(self, state: TableState, catalog: Catalog) -> None:
        self.state = state
        self.catalog = catalog
        self.coins = [player.coins for player in state.players]
        self.transfers: list[CoinsTransferred] = []
        self.others = counter_clockwise(state)

    def from_bank(self, seat: int, amount: int, card: str, copies: int, bonus: int) -> None:
        if amount:
            self.coins[seat] += amount
            self.transfers.append(CoinsTransferred(BANK, seat, amount, card, copies, bonus))

    def from_player(
        self, payer: int, payee: int, due: int, card: str, copies: int, bonus: int,
    ) -> None:
        """The payer pays what they have; the rest is forgiven (RULES.md 2). In co-op the bank
        pays in full instead (RULES.md 17)."""
        if self.state.bank_pays_players:
            self.from_bank(payee, due, card, copies, bonus)
            return
        paid = min(due, self.coins[payer])
        self.coins[payer] -= paid
        self.coins[payee] += paid
        if due:
            self.transfers.append(
                CoinsTransferred(payer, payee, paid, card, copies, bonus, forgiven=due - paid)
            )


def resolve_income(
    state: TableState, catalog: Catalog, total: int,
) -> tuple[list[CoinsTransferred], tuple[Choice, ...]]:
    """The transfers a roll of `total` causes, and the purple questions left for the roller."""
    run = IncomeRun(state, catalog)
    cards = catalog.by_roll[total] if 0 < total < len(catalog.by_roll) else ()
    red = [card for card in cards if card.colour == "red"]
    if red:
        for seat in run.others:
            _pay_red(run, seat, red)
    income = [card for card in cards if card.colour in ("blue", "green")]
    if income:
        for seat in (state.active, *reversed(run.others)):
            _pay_blue_green(run, seat, income)
    pending = _pay_purple(run, cards) if state.roller.cards.keys() & catalog.purple else ()
    return run.transfers, pending


def _pay_red(run: IncomeRun, creditor: int, cards: list[Establishment]) -> None:
    """One creditor's red cards, all paid before the next creditor gets anything."""
    player = run.state.players[creditor]
    for card in cards:
        copies = player.cards.get(card.id, 0)
        if copies:
            bonus = mall_bonus(run.catalog, player, card)
            due = copies * (card.amount + bonus)
            run.from_player(run.state.active, creditor, due, card.id, copies, bonus)


def _pay_blue_green(run: IncomeRun, seat: int, cards: list[Establishment]) -> None:
    """Blue pays every owner; green pays only the roller. Both come from the bank."""
    player = run.state.players[seat]
    for card in cards:
        copies = player.cards.get(card.id, 0)
        if not copies:
            continue
        if card.colour == "green" and seat != run.state.active:
            continue
        bonus = mall_bonus(run.catalog, player, card)
        each = card.amount + bonus
        if card.effect == "income_per_icon":
            each = card.amount * _icons_owned(run.catalog, player, card.per_icon) + bonus
        run.from_bank(seat, copies * each, card.id, copies, bonus)


def _icons_owned(catalog: Catalog, player: Player, icon: str | None) -> int:
    return sum(
        count for card_id, count in player.cards.items()
        if catalog.establishments[card_id].icon == icon
    )


def _pay_purple(run: IncomeRun, cards: tuple[Establishment, ...]) -> tuple[Choice, ...]:
    """The roller's purple cards in catalog order; TV Station and Business Center may ask."""
    state, roller = run.state, run.state.active
    pending: list[Choice] = []
    for card in cards:
        if card.colour != "purple" or not state.roller.owns(card.id):
            continue
        if card.effect == "take_from_each":
            for seat in run.others:
                run.from_player(seat, roller, card.amount, card.id, 1, 0)
        elif card.effect == "take_from_one":
            if state.bank_pays_players:
                run.from_bank(roller, card.amount, card.id, 1, 0)
                continue
            with_coins = [seat for seat in run.others if run.coins[seat] > 0]
            if len(with_coins) == 1:
                run.from_player(with_coins[0], roller, card.amount, card.id, 1, 0)
            elif with_coins:
                pending.append(Choice.TV_STATION)
        elif card.effect == "swap" and can_swap(state, run.catalog):
            pending.append(Choice.BUSINESS_CENTER)
    return tuple(pending)


def swappable(catalog: Catalog, player: Player) -> list[str]:
    """A player's establishments that a Business Center may trade: all but purple ones."""
    return [card for card in player.cards if not catalog.establishments[card].is_purple]


def can_swap(state: TableState, catalog: Catalog) -> bool:
    """Whether a Business Center swap is possible: both sides have a non-purple card."""
    if not swappable(catalog, state.roller):
        return False
    return any(swappable(catalog, state.players[seat]) for seat in counter_clockwise(state))


def richest_other(state: TableState) -> int:
    """The default TV Station target: most coins, ties by counter-clockwise order
    (RULES.md 11)."""
    others = counter_clockwise(state)
    return max(others, key=lambda seat: (state.players[seat].coins, -others.index(seat)))
