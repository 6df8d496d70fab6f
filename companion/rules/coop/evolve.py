"""`evolve_all` for the co-op table: base events are applied as the base game's `evolve`
applies them, co-op events change the assessor, the decks and the row. Never fails: events
were checked when decided."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import fields
from typing import Any

from companion.rules.coop import events as ev
from companion.rules.coop.state import ASSESSOR, CoopAccount, CoopState
from companion.rules.machi_koro import evolve as base
from companion.rules.machi_koro.events import EstablishmentBought, Event, TurnEnded
from companion.rules.machi_koro.state import Phase

_COOP_FIELDS = tuple(f.name for f in fields(CoopState) if f.name != "table")


def evolve_all(state: CoopState, events: Iterable[ev.AnyEvent]) -> CoopState:
    """The state after every event in turn. Base events and co-op ones edit one draft of the
    base table (evolve.thaw), which is frozen once at the end."""
    draft = _Draft(base.thaw(state.table), {name: getattr(state, name) for name in _COOP_FIELDS})
    for event in events:
        apply = _APPLY.get(type(event))
        if apply is None:
            _base_event(draft, event)  # type: ignore[arg-type]  # not a co-op event: a base one
        else:
            apply(draft, event)
    return CoopState(table=base.freeze(draft.table), **draft.values)


class _Draft:
    """A co-op state while events are applied: the base table's draft and the co-op fields."""

    __slots__ = ("table", "values")

    def __init__(self, table: base.Draft, values: dict[str, Any]) -> None:
        self.table = table
        self.values = values


def _base_event(draft: _Draft, event: Event) -> None:
    """A base event, applied to the table as in the base game, and its co-op side: a purchase
    takes its card out of the row; a new turn has bought nothing yet."""
    base.apply(draft.table, event)
    if isinstance(event, EstablishmentBought):
        row: tuple[str, ...] = draft.values["market_row"]
        at = len(row) - 1 - row[::-1].index(event.card)  # the rightmost copy (ours)
        draft.values.update(market_row=row[:at] + row[at + 1:], bought=True)
    elif isinstance(event, TurnEnded):
        draft.values["bought"] = False


def _move_coins(draft: _Draft, account: CoopAccount, amount: int) -> None:
    if account == ASSESSOR:
        draft.values["assessor_coins"] += amount
    else:
        base.move_coins(draft.table, account, amount)


def _transferred(draft: _Draft, event: ev.AssessorCoinsTransferred) -> None:
    _move_coins(draft, event.source, -event.amount)
    _move_coins(draft, event.target, event.amount)


def _decks_shuffled(draft: _Draft, event: ev.DecksShuffled) -> None:
    draft.values.update(market_deck=event.market, assessor_deck=event.assessor, dealt=True)


def _revealed(draft: _Draft, event: ev.MarketCardRevealed) -> None:
    draft.values.update(market_deck=draft.values["market_deck"][1:],
                        market_row=(event.card, *draft.values["market_row"]))
    base.change_supply(draft.table, event.card, 1)


def _discarded(draft: _Draft, event: ev.MarketCardDiscarded) -> None:
    draft.values.update(market_row=draft.values["market_row"][:-1],
                        market_discards=(*draft.values["market_discards"], event.card))
    base.change_supply(draft.table, event.card, -1)


def _drawn(draft: _Draft, event: ev.AssessorCardDrawn) -> None:
    if event.result == "unpaid":
        return  # the card stays face up on the deck: the game is lost
    draft.values["assessor_deck"] = draft.values["assessor_deck"][1:]
    pile = "assessed" if event.result == "tax" else "assessor_discards"
    draft.values[pile] = (*draft.values[pile], event.card)


def _deck_shuffled(draft: _Draft, event: ev.AssessorDeckShuffled) -> None:
    draft.values.update(assessor_deck=event.order, assessor_discards=())


def _final_round(draft: _Draft, event: ev.FinalRoundBegan) -> None:
    draft.values["final_round"] = True


def _ended(draft: _Draft, event: ev.CoopGameEnded) -> None:
    draft.values.update(outcome=event.outcome, reason=event.reason)
    draft.table.phase = Phase.FINISHED


_APPLY: dict[type, Callable[[_Draft, Any], None]] = {
    ev.AssessorCoinsTransferred: _transferred,
    ev.DecksShuffled: _decks_shuffled,
    ev.MarketCardRevealed: _revealed,
    ev.MarketCardDiscarded: _discarded,
    ev.AssessorCardDrawn: _drawn,
    ev.AssessorDeckShuffled: _deck_shuffled,
    ev.FinalRoundBegan: _final_round,
    ev.CoopGameEnded: _ended,
}
