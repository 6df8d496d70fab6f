"""`evolve_all` for the co-op table: base events go to the base game's `evolve_all`, co-op
events change the assessor, the decks and the row. Never fails: events were checked when
decided."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import fields, replace
from typing import Any

from companion.rules import evolve as base
from companion.rules.coop_events import (
    AnyEvent,
    AssessorCardDrawn,
    AssessorCoinsTransferred,
    AssessorDeckShuffled,
    CoopGameEnded,
    DecksShuffled,
    FinalRoundBegan,
    MarketCardDiscarded,
    MarketCardRevealed,
)
from companion.rules.coop_state import ASSESSOR, CoopAccount, CoopState
from companion.rules.events import EstablishmentBought, Event, TurnEnded
from companion.rules.state import BANK, Phase, TableState, frozen_counts

_COOP_FIELDS = tuple(f.name for f in fields(CoopState) if f.name != "table")


def evolve_all(state: CoopState, events: Iterable[AnyEvent]) -> CoopState:
    """The state after every event in turn; runs of base events are applied in one batch."""
    draft = _Draft(state)
    for event in events:
        apply = _APPLY.get(type(event))
        if apply is None:
            draft.base_event(event)  # type: ignore[arg-type]  # not a co-op event: a base one
        else:
            draft.flush()
            apply(draft, event)
    draft.flush()
    return draft.build()


class _Draft:
    """A private, mutable copy of a co-op state while events are applied to it."""

    __slots__ = ("values", "table", "pending")

    def __init__(self, state: CoopState) -> None:
        self.values: dict[str, Any] = {name: getattr(state, name) for name in _COOP_FIELDS}
        self.table: TableState = state.table
        self.pending: list[Event] = []

    def base_event(self, event: Event) -> None:
        """Queue a base event; its co-op side (the row, this turn's purchase) applies now."""
        self.pending.append(event)
        if isinstance(event, EstablishmentBought):
            row: tuple[str, ...] = self.values["market_row"]
            at = len(row) - 1 - row[::-1].index(event.card)  # the rightmost copy (ours)
            self.values.update(market_row=row[:at] + row[at + 1:], bought=True)
        elif isinstance(event, TurnEnded):
            self.values["bought"] = False

    def flush(self) -> None:
        if self.pending:
            self.table = base.evolve_all(self.table, self.pending)
            self.pending = []

    def move_coins(self, account: CoopAccount, amount: int) -> None:
        if account == ASSESSOR:
            self.values["assessor_coins"] += amount
        elif account == BANK:
            self.table = replace(self.table, bank=self.table.bank + amount)
        else:
            players = list(self.table.players)
            players[account] = replace(players[account], coins=players[account].coins + amount)
            self.table = replace(self.table, players=tuple(players))

    def change_supply(self, card: str, change: int) -> None:
        supply = dict(self.table.supply)
        supply[card] = supply.get(card, 0) + change
        self.table = replace(self.table, supply=frozen_counts(supply))

    def build(self) -> CoopState:
        return CoopState(table=self.table, **self.values)


def _transferred(draft: _Draft, event: AssessorCoinsTransferred) -> None:
    draft.move_coins(event.source, -event.amount)
    draft.move_coins(event.target, event.amount)


def _decks_shuffled(draft: _Draft, event: DecksShuffled) -> None:
    draft.values.update(market_deck=event.market, assessor_deck=event.assessor, dealt=True)


def _revealed(draft: _Draft, event: MarketCardRevealed) -> None:
    draft.values.update(market_deck=draft.values["market_deck"][1:],
                        market_row=(event.card, *draft.values["market_row"]))
    draft.change_supply(event.card, 1)


def _discarded(draft: _Draft, event: MarketCardDiscarded) -> None:
    draft.values.update(market_row=draft.values["market_row"][:-1],
                        market_discards=(*draft.values["market_discards"], event.card))
    draft.change_supply(event.card, -1)


def _drawn(draft: _Draft, event: AssessorCardDrawn) -> None:
    if event.result == "unpaid":
        return  # the card stays face up on the deck: the game is lost
    draft.values["assessor_deck"] = draft.values["assessor_deck"][1:]
    pile = "assessed" if event.result == "tax" else "assessor_discards"
    draft.values[pile] = (*draft.values[pile], event.card)


def _deck_shuffled(draft: _Draft, event: AssessorDeckShuffled) -> None:
    draft.values.update(assessor_deck=event.order, assessor_discards=())


def _final_round(draft: _Draft, event: FinalRoundBegan) -> None:
    draft.values["final_round"] = True


def _ended(draft: _Draft, event: CoopGameEnded) -> None:
    draft.values.update(outcome=event.outcome, reason=event.reason)
    draft.table = replace(draft.table, phase=Phase.FINISHED)


_APPLY: dict[type, Callable[[_Draft, Any], None]] = {
    AssessorCoinsTransferred: _transferred,
    DecksShuffled: _decks_shuffled,
    MarketCardRevealed: _revealed,
    MarketCardDiscarded: _discarded,
    AssessorCardDrawn: _drawn,
    AssessorDeckShuffled: _deck_shuffled,
    FinalRoundBegan: _final_round,
    CoopGameEnded: _ended,
}
