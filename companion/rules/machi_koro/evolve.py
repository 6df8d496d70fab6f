"""`evolve` applies one fact to a table, `evolve_all` a batch; `replay` folds a journal.

Never fails: the facts were checked when `decide` (engine.py) made them. Apart from `decide`
because the two share only the state and fact types.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any, Protocol

from companion.rules.machi_koro import facts as ev
from companion.rules.machi_koro.state import (
    BANK,
    STATE_TWIN,
    Account,
    Choice,
    Phase,
    Player,
    TableState,
    frozen_counts,
    with_coins,
)


def evolve(state: TableState, fact: ev.Fact) -> TableState:
    """The state after `fact`. Never fails: facts were checked when they were decided."""
    return evolve_all(state, (fact,))


def evolve_all(state: TableState, facts: Iterable[ev.Fact]) -> TableState:
    """The state after every fact in turn: the same as folding `evolve`, but the new state
    is built once (a roll makes several facts, and building a state is the costly part):
    the facts edit a writable draft that is then frozen in place."""
    thawed = STATE_TWIN.thaw(state)  # thaw and freeze written out: the two calls cost 1.4%
    thawed.players = list(state.players)  # of a table-roll (callgrind)
    draft: Draft = thawed
    for fact in facts:
        _APPLY[type(fact)](draft, fact)
    thawed.players = tuple(draft.players)
    return STATE_TWIN.freeze(thawed)


def replay(start: TableState, facts: Iterable[ev.Fact]) -> TableState:
    """The table after a journal's facts, from the state they started on."""
    return evolve_all(start, facts)


class Draft(Protocol):
    """A TableState being edited by `evolve_all` (a `Twin` draft): the fields facts change,
    writable, with the players in a list until the draft is frozen."""

    players: list[Player]
    bank: int
    supply: Mapping[str, int]
    active: int
    phase: Phase
    turn: int
    dice: tuple[int, ...]
    added: int
    table_roll: tuple[int, ...]
    rerolled: bool
    built: bool
    extra_turn: bool
    bonus_turn: bool
    pending: tuple[Choice, ...]
    winner: int | None
    draw_pile: tuple[str, ...]


def thaw(state: TableState) -> Draft:
    """A writable copy of `state` for facts to edit; `freeze` makes it a state again. Also
    how the co-op rules apply base facts and their own to the table inside (coop_evolve)."""
    thawed = STATE_TWIN.thaw(state)
    thawed.players = list(state.players)
    draft: Draft = thawed
    return draft


def freeze(draft: Draft) -> TableState:
    """The draft, turned in place into a frozen TableState; it must not be edited again."""
    thawed: Any = draft
    thawed.players = tuple(draft.players)
    return STATE_TWIN.freeze(thawed)


def apply(draft: Draft, fact: ev.Fact) -> None:
    """One fact's change, made on a draft."""
    _APPLY[type(fact)](draft, fact)


def move_coins(draft: Draft, account: Account, amount: int) -> None:
    """`amount` coins into a seat's or the bank's account (negative: out of it)."""
    if isinstance(account, int):  # a seat; the only other account is the bank
        player = draft.players[account]
        draft.players[account] = with_coins(player, player.coins + amount)
    else:
        draft.bank += amount


def change_supply(draft: Draft, card: str, change: int) -> None:
    supply = dict(draft.supply)
    supply[card] = supply.get(card, 0) + change
    draft.supply = frozen_counts(supply)


def _change_player(draft: Draft, seat: int, **changes: Any) -> None:
    draft.players[seat] = replace(draft.players[seat], **changes)


def _add_card(player: Player, card: str, count: int) -> dict[str, int]:
    cards = dict(player.cards)
    cards[card] = cards.get(card, 0) + count
    return cards


def _dice_count_chosen(draft: Draft, fact: ev.DiceCountChosen) -> None:
    _change_player(draft, fact.seat, dice_count=fact.count)


def _dice_rolled(draft: Draft, fact: ev.DiceRolled) -> None:
    draft.dice = fact.dice
    draft.rerolled = draft.rerolled or fact.reroll


def _reroll_offered(draft: Draft, fact: ev.RerollOffered) -> None:
    draft.phase = Phase.REROLL


def _harbor_offered(draft: Draft, fact: ev.HarborOffered) -> None:
    draft.phase = Phase.HARBOR


def _harbor_answered(draft: Draft, fact: ev.HarborAnswered) -> None:
    draft.added = fact.added


def _tuna_rolled(draft: Draft, fact: ev.TunaRolled) -> None:
    draft.table_roll = fact.dice


def _coins_transferred(draft: Draft, fact: ev.CoinsTransferred) -> None:
    move_coins(draft, fact.source, -fact.amount)
    move_coins(draft, fact.target, fact.amount)


def _coins_adjusted(draft: Draft, fact: ev.CoinsAdjusted) -> None:
    move_coins(draft, BANK, -fact.amount)
    move_coins(draft, fact.seat, fact.amount)


def _roll_resolved(draft: Draft, fact: ev.RollResolved) -> None:
    draft.phase = Phase.CHOOSE if fact.pending else Phase.BUILD
    draft.pending = fact.pending
    draft.extra_turn = fact.extra_turn
    draft.rerolled = True


def _choice_answered(draft: Draft, fact: ev.ChoiceAnswered) -> None:
    draft.pending = draft.pending[1:]
    draft.phase = Phase.CHOOSE if draft.pending else Phase.BUILD


def _swapped(draft: Draft, fact: ev.EstablishmentsSwapped) -> None:
    roller, other = draft.players[fact.seat], draft.players[fact.other]
    roller_cards = _add_card(roller, fact.give, -1)
    roller_cards[fact.take] = roller_cards.get(fact.take, 0) + 1
    other_cards = _add_card(other, fact.take, -1)
    other_cards[fact.give] = other_cards.get(fact.give, 0) + 1
    _change_player(draft, fact.seat, cards=frozen_counts(roller_cards))
    _change_player(draft, fact.other, cards=frozen_counts(other_cards))


def _bought(draft: Draft, fact: ev.EstablishmentBought) -> None:
    cards = _add_card(draft.players[fact.seat], fact.card, 1)
    _change_player(draft, fact.seat, cards=frozen_counts(cards))
    change_supply(draft, fact.card, -1)
    draft.built = True


def _landmark_built(draft: Draft, fact: ev.LandmarkBuilt) -> None:
    landmarks = draft.players[fact.seat].landmarks | {fact.landmark}
    _change_player(draft, fact.seat, landmarks=landmarks)
    draft.built = True


def _game_won(draft: Draft, fact: ev.GameWon) -> None:
    draft.phase = Phase.FINISHED
    draft.winner = fact.seat


def _place_taken(draft: Draft, fact: ev.PlaceTaken) -> None:
    _change_player(draft, fact.seat, place=fact.place)


def _supply_dealt(draft: Draft, fact: ev.SupplyDealt) -> None:
    draft.supply = frozen_counts({})
    draft.draw_pile = fact.pile


def _supply_drawn(draft: Draft, fact: ev.SupplyDrawn) -> None:
    supply = dict(draft.supply)
    for card in fact.cards:
        supply[card] = supply.get(card, 0) + 1
    draft.supply = frozen_counts(supply)
    draft.draw_pile = draft.draw_pile[len(fact.cards):]


def _turn_ended(draft: Draft, fact: ev.TurnEnded) -> None:
    draft.active = fact.next_active
    draft.phase = Phase.ROLL
    draft.turn += 1
    draft.dice = draft.table_roll = ()
    draft.added = 0
    draft.rerolled = draft.built = draft.extra_turn = False
    draft.bonus_turn = fact.bonus_turn
    draft.pending = ()


_APPLY: dict[type, Callable[[Draft, Any], None]] = {
    ev.DiceCountChosen: _dice_count_chosen,
    ev.DiceRolled: _dice_rolled,
    ev.RerollOffered: _reroll_offered,
    ev.CoinsTransferred: _coins_transferred,
    ev.CoinsAdjusted: _coins_adjusted,
    ev.RollResolved: _roll_resolved,
    ev.ChoiceAnswered: _choice_answered,
    ev.EstablishmentsSwapped: _swapped,
    ev.EstablishmentBought: _bought,
    ev.LandmarkBuilt: _landmark_built,
    ev.GameWon: _game_won,
    ev.TurnEnded: _turn_ended,
    ev.PlaceTaken: _place_taken,
    ev.SupplyDealt: _supply_dealt,
    ev.SupplyDrawn: _supply_drawn,
    ev.HarborOffered: _harbor_offered,
    ev.HarborAnswered: _harbor_answered,
    ev.TunaRolled: _tuna_rolled,
}
