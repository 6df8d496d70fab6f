"""`evolve` applies one event to a table, `evolve_all` a batch; `replay` folds a journal.

Never fails: the events were checked when `decide` (engine.py) made them. Apart from `decide`
because the two share only the state and event types.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any, Protocol

from companion.rules.events import (
    ChoiceAnswered,
    CoinsAdjusted,
    CoinsTransferred,
    DiceCountChosen,
    DiceRolled,
    EstablishmentBought,
    EstablishmentsSwapped,
    Event,
    GameWon,
    LandmarkBuilt,
    RerollOffered,
    RollResolved,
    TurnEnded,
)
from companion.rules.state import (
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


def evolve(state: TableState, event: Event) -> TableState:
    """The state after `event`. Never fails: events were checked when they were decided."""
    return evolve_all(state, (event,))


def evolve_all(state: TableState, events: Iterable[Event]) -> TableState:
    """The state after every event in turn: the same as folding `evolve`, but the new state
    is built once (a roll makes several events, and building a state is the costly part):
    the events edit a writable draft that is then frozen in place."""
    thawed = STATE_TWIN.thaw(state)
    thawed.players = list(state.players)
    draft: _Draft = thawed
    for event in events:
        _APPLY[type(event)](draft, event)
    thawed.players = tuple(draft.players)
    return STATE_TWIN.freeze(thawed)


def replay(start: TableState, events: Iterable[Event]) -> TableState:
    """The table after a journal's events, from the state they started on."""
    return evolve_all(start, events)


class _Draft(Protocol):
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


def _change_player(draft: _Draft, seat: int, **changes: Any) -> None:
    draft.players[seat] = replace(draft.players[seat], **changes)


def _move_coins(draft: _Draft, account: Account, amount: int) -> None:
    if isinstance(account, int):  # a seat; the only other account is the bank
        player = draft.players[account]
        draft.players[account] = with_coins(player, player.coins + amount)
    else:
        draft.bank += amount


def _add_card(player: Player, card: str, count: int) -> dict[str, int]:
    cards = dict(player.cards)
    cards[card] = cards.get(card, 0) + count
    return cards


def _dice_count_chosen(draft: _Draft, event: DiceCountChosen) -> None:
    _change_player(draft, event.seat, dice_count=event.count)


def _dice_rolled(draft: _Draft, event: DiceRolled) -> None:
    draft.dice = event.dice
    draft.rerolled = draft.rerolled or event.reroll


def _reroll_offered(draft: _Draft, event: RerollOffered) -> None:
    draft.phase = Phase.REROLL


def _coins_transferred(draft: _Draft, event: CoinsTransferred) -> None:
    _move_coins(draft, event.source, -event.amount)
    _move_coins(draft, event.target, event.amount)


def _coins_adjusted(draft: _Draft, event: CoinsAdjusted) -> None:
    _move_coins(draft, BANK, -event.amount)
    _move_coins(draft, event.seat, event.amount)


def _roll_resolved(draft: _Draft, event: RollResolved) -> None:
    draft.phase = Phase.CHOOSE if event.pending else Phase.BUILD
    draft.pending = event.pending
    draft.extra_turn = event.extra_turn
    draft.rerolled = True


def _choice_answered(draft: _Draft, event: ChoiceAnswered) -> None:
    draft.pending = draft.pending[1:]
    draft.phase = Phase.CHOOSE if draft.pending else Phase.BUILD


def _swapped(draft: _Draft, event: EstablishmentsSwapped) -> None:
    roller, other = draft.players[event.seat], draft.players[event.other]
    roller_cards = _add_card(roller, event.give, -1)
    roller_cards[event.take] = roller_cards.get(event.take, 0) + 1
    other_cards = _add_card(other, event.take, -1)
    other_cards[event.give] = other_cards.get(event.give, 0) + 1
    _change_player(draft, event.seat, cards=frozen_counts(roller_cards))
    _change_player(draft, event.other, cards=frozen_counts(other_cards))


def _bought(draft: _Draft, event: EstablishmentBought) -> None:
    cards = _add_card(draft.players[event.seat], event.card, 1)
    _change_player(draft, event.seat, cards=frozen_counts(cards))
    supply = dict(draft.supply)
    supply[event.card] -= 1
    draft.supply = frozen_counts(supply)
    draft.built = True


def _landmark_built(draft: _Draft, event: LandmarkBuilt) -> None:
    landmarks = draft.players[event.seat].landmarks | {event.landmark}
    _change_player(draft, event.seat, landmarks=landmarks)
    draft.built = True


def _game_won(draft: _Draft, event: GameWon) -> None:
    draft.phase = Phase.FINISHED
    draft.winner = event.seat


def _turn_ended(draft: _Draft, event: TurnEnded) -> None:
    draft.active = event.next_active
    draft.phase = Phase.ROLL
    draft.turn += 1
    draft.dice = ()
    draft.rerolled = draft.built = draft.extra_turn = False
    draft.bonus_turn = event.bonus_turn
    draft.pending = ()


_APPLY: dict[type, Callable[[_Draft, Any], None]] = {
    DiceCountChosen: _dice_count_chosen,
    DiceRolled: _dice_rolled,
    RerollOffered: _reroll_offered,
    CoinsTransferred: _coins_transferred,
    CoinsAdjusted: _coins_adjusted,
    RollResolved: _roll_resolved,
    ChoiceAnswered: _choice_answered,
    EstablishmentsSwapped: _swapped,
    EstablishmentBought: _bought,
    LandmarkBuilt: _landmark_built,
    GameWon: _game_won,
    TurnEnded: _turn_ended,
}
