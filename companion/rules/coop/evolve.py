"""`evolve_all` for the co-op table: base facts are applied as the base game's `evolve`
applies them, co-op facts change the assessor, the decks and the row. Never fails: facts
were checked when decided."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import fields
from typing import Any

from companion.rules.coop import facts as ev
from companion.rules.coop.state import ASSESSOR, CoopAccount, CoopState
from companion.rules.machi_koro import evolve as base
from companion.rules.machi_koro.facts import EstablishmentBought, Fact, TurnEnded
from companion.rules.machi_koro.state import Phase

_COOP_FIELDS = tuple(f.name for f in fields(CoopState) if f.name != "table")


def evolve_all(state: CoopState, facts: Iterable[ev.AnyFact]) -> CoopState:
    """The state after every fact in turn. Base facts and co-op ones edit one draft of the
    base table (evolve.thaw), which is frozen once at the end."""
    draft = _Draft(base.thaw(state.table), {name: getattr(state, name) for name in _COOP_FIELDS})
    for fact in facts:
        apply = _APPLY.get(type(fact))
        if apply is None:
            _base_fact(draft, fact)  # type: ignore[arg-type]  # not a co-op fact: a base one
        else:
            apply(draft, fact)
    return CoopState(table=base.freeze(draft.table), **draft.values)


class _Draft:
    """A co-op state while facts are applied: the base table's draft and the co-op fields."""

    __slots__ = ("table", "values")

    def __init__(self, table: base.Draft, values: dict[str, Any]) -> None:
        self.table = table
        self.values = values


def _base_fact(draft: _Draft, fact: Fact) -> None:
    """A base fact, applied to the table as in the base game, and its co-op side: a purchase
    takes its card out of the row; a new turn has bought nothing yet."""
    base.apply(draft.table, fact)
    if isinstance(fact, EstablishmentBought):
        row: tuple[str, ...] = draft.values["market_row"]
        at = len(row) - 1 - row[::-1].index(fact.card)  # the rightmost copy (ours)
        draft.values.update(market_row=row[:at] + row[at + 1:], bought=True)
    elif isinstance(fact, TurnEnded):
        draft.values["bought"] = False


def _move_coins(draft: _Draft, account: CoopAccount, amount: int) -> None:
    if account == ASSESSOR:
        draft.values["assessor_coins"] += amount
    else:
        base.move_coins(draft.table, account, amount)


def _transferred(draft: _Draft, fact: ev.AssessorCoinsTransferred) -> None:
    _move_coins(draft, fact.source, -fact.amount)
    _move_coins(draft, fact.target, fact.amount)


def _decks_shuffled(draft: _Draft, fact: ev.DecksShuffled) -> None:
    draft.values.update(market_deck=fact.market, assessor_deck=fact.assessor, dealt=True)


def _revealed(draft: _Draft, fact: ev.MarketCardRevealed) -> None:
    draft.values.update(market_deck=draft.values["market_deck"][1:],
                        market_row=(fact.card, *draft.values["market_row"]))
    base.change_supply(draft.table, fact.card, 1)


def _discarded(draft: _Draft, fact: ev.MarketCardDiscarded) -> None:
    draft.values.update(market_row=draft.values["market_row"][:-1],
                        market_discards=(*draft.values["market_discards"], fact.card))
    base.change_supply(draft.table, fact.card, -1)


def _drawn(draft: _Draft, fact: ev.AssessorCardDrawn) -> None:
    if fact.result == "unpaid":
        return  # the card stays face up on the deck: the game is lost
    draft.values["assessor_deck"] = draft.values["assessor_deck"][1:]
    pile = "assessed" if fact.result == "tax" else "assessor_discards"
    draft.values[pile] = (*draft.values[pile], fact.card)


def _deck_shuffled(draft: _Draft, fact: ev.AssessorDeckShuffled) -> None:
    draft.values.update(assessor_deck=fact.order, assessor_discards=())


def _final_round(draft: _Draft, fact: ev.FinalRoundBegan) -> None:
    draft.values["final_round"] = True


def _ended(draft: _Draft, fact: ev.CoopGameEnded) -> None:
    draft.values.update(outcome=fact.outcome, reason=fact.reason)
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
