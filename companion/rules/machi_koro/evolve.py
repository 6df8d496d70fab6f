"""`evolve` applies one event to a table, `evolve_all` a batch; `replay` folds a journal.

Never fails: the events were checked when `decide` (engine.py) made them. Apart from `decide`
because the two share only the state and event types.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any, Protocol

from companion.rules.machi_koro import events as ev
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


def evolve(state: TableState, event: ev.Event) -> TableState:
    """The state after `event`. Never fails: events were checked when they were decided."""
    return evolve_all(state, (event,))


def evolve_all(state: TableState, events: Iterable[ev.Event]) -> TableState:
    """The state after every event in turn: the same as folding `evolve`, but the new state
    is built once (a roll makes several events, and building a state is the costly part):
    the events edit a writable draft that is then frozen in place."""
    thawed = STATE_TWIN.thaw(state)  # thaw and freeze written out: the two calls cost 1.4%
    thawed.players = list(state.players)  # of a table-roll (callgrind)
    draft: Draft = thawed
    for event in events:
        _APPLY[type(event)](draft, event)
    thawed.players = tuple(draft.players)
    return STATE_TWIN.freeze(thawed)


def replay(start: TableState, events: Iterable[ev.Event]) -> TableState:
    """The table after a journal's events, from the state they started on."""
    return evolve_all(start, events)


class Draft(Protocol):
    """A TableState being edited by `evolve_all` (a `Twin` draft): the fields events change,
    writable, with the players in a list until the draft is frozen."""

    players: list[Player]
    bank: int
    supply: Mapping[str, int]
    active: int
    phase: Phase
    turn: int
    dice: tuple[int, ...]
    rerolled: bool
    built: bool
    extra_turn: bool
    bonus_turn: bool
    pending: tuple[Choice, ...]
    winner: int | None
    draw_pile: tuple[str, ...]


def thaw(state: TableState) -> Draft:
    """A writable copy of `state` for events to edit; `freeze` makes it a state again. Also
    how the co-op rules apply base events and their own to the table inside (coop_evolve)."""
    thawed = STATE_TWIN.thaw(state)
    thawed.players = list(state.players)
    draft: Draft = thawed
    return draft


def freeze(draft: Draft) -> TableState:
    """The draft, turned in place into a frozen TableState; it must not be edited again."""
    thawed: Any = draft
    thawed.players = tuple(draft.players)
    return STATE_TWIN.freeze(thawed)


def apply(draft: Draft, event: ev.Event) -> None:
    """One event's change, made on a draft."""
    _APPLY[type(event)](draft, event)


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


def _dice_count_chosen(draft: Draft, event: ev.DiceCountChosen) -> None:
    _change_player(draft, event.seat, dice_count=event.count)


def _dice_rolled(draft: Draft, event: ev.DiceRolled) -> None:
    draft.dice = event.dice
    draft.rerolled = draft.rerolled or event.reroll


def _reroll_offered(draft: Draft, event: ev.RerollOffered) -> None:
    draft.phase = Phase.REROLL


def _coins_transferred(draft: Draft, event: ev.CoinsTransferred) -> None:
    move_coins(draft, event.source, -event.amount)
    move_coins(draft, event.target, event.amount)


def _coins_adjusted(draft: Draft, event: ev.CoinsAdjusted) -> None:
    move_coins(draft, BANK, -event.amount)
    move_coins(draft, event.seat, event.amount)


def _roll_resolved(draft: Draft, event: ev.RollResolved) -> None:
    draft.phase = Phase.CHOOSE if event.pending else Phase.BUILD
    draft.pending = event.pending
    draft.extra_turn = event.extra_turn
    draft.rerolled = True


def _choice_answered(draft: Draft, event: ev.ChoiceAnswered) -> None:
    draft.pending = draft.pending[1:]
    draft.phase = Phase.CHOOSE if draft.pending else Phase.BUILD


def _swapped(draft: Draft, event: ev.EstablishmentsSwapped) -> None:
    roller, other = draft.players[event.seat], draft.players[event.other]
    roller_cards = _add_card(roller, event.give, -1)
    roller_cards[event.take] = roller_cards.get(event.take, 0) + 1
    other_cards = _add_card(other, event.take, -1)
    other_cards[event.give] = other_cards.get(event.give, 0) + 1
    _change_player(draft, event.seat, cards=frozen_counts(roller_cards))
    _change_player(draft, event.other, cards=frozen_counts(other_cards))


def _bought(draft: Draft, event: ev.EstablishmentBought) -> None:
    cards = _add_card(draft.players[event.seat], event.card, 1)
    _change_player(draft, event.seat, cards=frozen_counts(cards))
    change_supply(draft, event.card, -1)
    draft.built = True


def _landmark_built(draft: Draft, event: ev.LandmarkBuilt) -> None:
    landmarks = draft.players[event.seat].landmarks | {event.landmark}
    _change_player(draft, event.seat, landmarks=landmarks)
    draft.built = True


def _game_won(draft: Draft, event: ev.GameWon) -> None:
    draft.phase = Phase.FINISHED
    draft.winner = event.seat


def _place_taken(draft: Draft, event: ev.PlaceTaken) -> None:
    _change_player(draft, event.seat, place=event.place)


def _supply_dealt(draft: Draft, event: ev.SupplyDealt) -> None:
    draft.supply = frozen_counts({})
    draft.draw_pile = event.pile


def _supply_drawn(draft: Draft, event: ev.SupplyDrawn) -> None:
    supply = dict(draft.supply)
    for card in event.cards:
        supply[card] = supply.get(card, 0) + 1
    draft.supply = frozen_counts(supply)
    draft.draw_pile = draft.draw_pile[len(event.cards):]


def _turn_ended(draft: Draft, event: ev.TurnEnded) -> None:
    draft.active = event.next_active
    draft.phase = Phase.ROLL
    draft.turn += 1
    draft.dice = ()
    draft.rerolled = draft.built = draft.extra_turn = False
    draft.bonus_turn = event.bonus_turn
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
}
