"""Income for one roll: red, then blue and green, then purple (RULES.md 2-5).

Works on a scratch list of balances so each payment sees what earlier ones left.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from companion.rules.machi_koro.catalog import Catalog, Establishment, Landmark, PerCount
from companion.rules.machi_koro.facts import CoinsTransferred, make_transfer
from companion.rules.machi_koro.state import BANK, Choice, Player, TableState


@cache
def seats_after(seats: int, active: int) -> tuple[int, ...]:
    """The other seats from the roller's right: active-1, active-2, ... (RULES.md 1); cached
    for the income of every roll."""
    return tuple((active - step) % seats for step in range(1, seats))


def counter_clockwise(state: TableState) -> tuple[int, ...]:
    """`seats_after` for this table's roller: the other players still playing (finished ones
    neither pay nor receive, RULES.md 14)."""
    others = seats_after(len(state.players), state.active)
    if state.play_on:
        return tuple(seat for seat in others if state.players[seat].place is None)
    return others


@dataclass(frozen=True, slots=True)
class RollCards:
    """The cards one roll number activates, split by colour in catalog order."""

    red: tuple[Establishment, ...] = ()
    blue: tuple[Establishment, ...] = ()
    blue_green: tuple[Establishment, ...] = ()  # the roller's: blue and green interleaved
    purple: tuple[Establishment, ...] = ()


@dataclass(frozen=True, slots=True)
class ActivationTable:
    """A catalog's cards by roll number, and its Shopping Mall-like landmarks, worked out once
    per catalog instead of on every roll."""

    by_roll: tuple[RollCards, ...]
    malls: tuple[tuple[str, frozenset[str], int], ...]  # (landmark, bonus icons, amount)
    landmarks_by_effect: Mapping[str, frozenset[str]]

    def cards(self, total: int) -> RollCards:
        return self.by_roll[total] if 0 < total < len(self.by_roll) else _NOTHING

    def has_effect(self, player: Player, effect: str) -> bool:
        """Whether one of the player's built landmarks has `effect` (Train Station: two_dice)."""
        return bool(player.landmarks) and not player.landmarks.isdisjoint(
            self.landmarks_by_effect.get(effect, ()),
        )


_NOTHING = RollCards()
_TABLES: dict[int, tuple[Catalog, ActivationTable]] = {}


def activation_table(catalog: Catalog) -> ActivationTable:
    """The catalog's table, built on first use. Kept with its catalog so that the id it is
    filed under cannot be reused by another catalog."""
    entry = _TABLES.get(id(catalog))
    if entry is None:
        entry = _TABLES[id(catalog)] = (catalog, _build_table(catalog))
    return entry[1]


def has_effect(catalog: Catalog, player: Player, effect: str) -> bool:
    """Whether one of the player's built landmarks has `effect` (Train Station: two_dice)."""
    return activation_table(catalog).has_effect(player, effect)


def built_with(catalog: Catalog, player: Player, effect: str) -> Landmark | None:
    """The player's built landmark with `effect` (Harbor: add_to_total), if any."""
    if not has_effect(catalog, player, effect):
        return None
    return next(lm for lm in catalog.landmarks.values()
                if lm.effect == effect and lm.id in player.landmarks)


def needs_table_roll(state: TableState, catalog: Catalog, total: int) -> bool:
    """Whether `total` activates a Tuna Boat (a card paid by the table's own roll) of a player
    it pays (its owner has the Harbor): only then is that roll drawn (docs/rules.md 32)."""
    cards = [card for card in activation_table(catalog).cards(total).blue
             if card.effect == "income_per_table_roll"]
    if not cards:
        return False
    seats = (state.active, *counter_clockwise(state))
    return any(state.players[seat].owns(card.id) and pays(state.players[seat], card)
               for seat in seats for card in cards)


def _build_table(catalog: Catalog) -> ActivationTable:
    def split(cards: tuple[Establishment, ...]) -> RollCards:
        return RollCards(
            red=tuple(card for card in cards if card.colour == "red"),
            blue=tuple(card for card in cards if card.colour == "blue"),
            blue_green=tuple(card for card in cards if card.colour in ("blue", "green")),
            purple=tuple(card for card in cards if card.colour == "purple"),
        )

    malls = tuple(
        (lm.id, lm.bonus_icons, lm.amount)
        for lm in catalog.landmarks.values() if lm.effect == "mall_bonus"
    )
    by_effect: dict[str, frozenset[str]] = {}
    for lm in catalog.landmarks.values():
        by_effect[lm.effect] = by_effect.get(lm.effect, frozenset()) | {lm.id}
    return ActivationTable(
        tuple(split(cards) for cards in catalog.by_roll), malls, MappingProxyType(by_effect),
    )


def mall_bonus(table: ActivationTable, player: Player, card: Establishment) -> int:
    """The Shopping Mall's extra coins per copy for a card with a bread or cup icon."""
    if player.landmarks:
        for landmark, icons, amount in table.malls:
            if card.icon in icons and landmark in player.landmarks:
                return amount
    return 0


class IncomeRun:
    """Collects the transfers of one roll while keeping scratch balances."""

    __slots__ = ("state", "catalog", "table", "coins", "transfers", "others", "table_roll")

    def __init__(self, state: TableState, catalog: Catalog, table_roll: int = 0) -> None:
        self.state = state
        self.catalog = catalog
        self.table = activation_table(catalog)
        self.coins = [player.coins for player in state.players]
        self.transfers: list[CoinsTransferred] = []
        self.others = counter_clockwise(state)
        self.table_roll = table_roll  # the Tuna Boats' roll, when this total needs it

    def from_bank(self, seat: int, amount: int, card: str, copies: int, bonus: int) -> None:
        if amount:
            self.coins[seat] += amount
            self.transfers.append(make_transfer(BANK, seat, amount, card, copies, bonus, 0))

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
            self.transfers.append(make_transfer(payer, payee, paid, card, copies, bonus, due - paid))


def resolve_income(
    state: TableState, catalog: Catalog, total: int, table_roll: int = 0,
) -> tuple[list[CoinsTransferred], tuple[Choice, ...]]:
    """The transfers a roll of `total` causes, and the purple questions left for the roller.
    `table_roll`: the total of the table's own roll for its Tuna Boats (`needs_table_roll`)."""
    run = IncomeRun(state, catalog, table_roll)
    cards = run.table.cards(total)
    if cards.red:
        _pay_red(run, cards.red)
    if cards.blue_green:
        _pay_blue_green(run, cards)
    pending = _pay_purple(run, cards.purple) if cards.purple else ()
    return run.transfers, pending


def _pay_red(run: IncomeRun, cards: tuple[Establishment, ...]) -> None:
    """Creditors counter-clockwise from the roller; each is paid for all of their red cards
    before the next creditor gets anything."""
    roller = run.state.active
    for creditor in run.others:
        player = run.state.players[creditor]
        for card in cards:
            copies = player.cards.get(card.id, 0)
            if copies and (card.requires_landmark is None or card.requires_landmark in player.landmarks):
                bonus = mall_bonus(run.table, player, card)
                due = copies * (card.amount + bonus)
                run.from_player(roller, creditor, due, card.id, copies, bonus)


def _pay_blue_green(run: IncomeRun, cards: RollCards) -> None:
    """The roller's blue and green cards, then the other seats' blue ones (green pays only
    the roller). The bank pays, so the order changes no balance; cards without an owner
    cost one lookup."""
    players = run.state.players
    roller = run.state.active
    for card in cards.blue_green:
        copies = players[roller].cards.get(card.id, 0)
        if copies:
            _earn(run, roller, card, copies)
    if cards.blue:
        for seat in reversed(run.others):
            for card in cards.blue:
                copies = players[seat].cards.get(card.id, 0)
                if copies:
                    _earn(run, seat, card, copies)


def _earn(run: IncomeRun, seat: int, card: Establishment, copies: int) -> None:
    """What `copies` of a blue or green card pay their owner from the bank."""
    player = run.state.players[seat]
    if card.requires_landmark is not None and card.requires_landmark not in player.landmarks:
        return  # see `pays`
    bonus = mall_bonus(run.table, player, card)
    each = card.amount + bonus
    if card.per is not None:
        each = card.amount * cards_counted(run.catalog, player, card.per) + bonus
    elif card.effect == "income_per_table_roll":
        each = card.amount * run.table_roll + bonus
    if each:
        run.coins[seat] += copies * each
        run.transfers.append(make_transfer(BANK, seat, copies * each, card.id, copies, bonus, 0))


def pays(player: Player, card: Establishment) -> bool:
    """Whether the owner's card works: one that requires a landmark pays only once its owner
    has built it."""
    return card.requires_landmark is None or card.requires_landmark in player.landmarks


def cards_counted(catalog: Catalog, player: Player, per: PerCount) -> int:
    """How many of the player's establishments a per-card effect counts: copies, or kinds
    when `per.unique` (Cheese Factory: every cow card)."""
    establishments = catalog.establishments
    counted = [count for card_id, count in player.cards.items() if per.counts(establishments[card_id])]
    return len(counted) if per.unique else sum(counted)


def _pay_purple(run: IncomeRun, cards: tuple[Establishment, ...]) -> tuple[Choice, ...]:
    """The roller's purple cards in catalog order; TV Station and Business Center may ask."""
    state, roller = run.state, run.state.active
    pending: list[Choice] = []
    for card in cards:
        if not state.roller.owns(card.id) or not pays(state.roller, card):
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
        elif card.effect == "take_per_card_from_each" and card.per is not None:  # Publisher
            for seat in run.others:
                due = card.amount * cards_counted(run.catalog, state.players[seat], card.per)
                run.from_player(seat, roller, due, card.id, 1, 0)
        elif card.effect == "take_half_from_rich":  # Tax Office: from `amount` coins up
            for seat in run.others:
                if run.coins[seat] >= card.amount:
                    run.from_player(seat, roller, run.coins[seat] // 2, card.id, 1, 0)
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
