"""`evolve_all` for a Legacy game: base facts change the table inside as in the base game,
Legacy's own facts the contributions. Never fails: facts were checked when decided."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from companion.rules.legacy.facts import Contributed, LegacyFact, ManualCardsActivated
from companion.rules.legacy.state import LegacyState
from companion.rules.machi_koro import evolve as base


def evolve_all(state: LegacyState, facts: Iterable[LegacyFact]) -> LegacyState:
    """The state after every fact in turn; the base table's draft is frozen once at the end."""
    draft = base.thaw(state.table)
    contributed = state.contributed
    for fact in facts:
        if isinstance(fact, Contributed):
            contributed += (fact.seat,)
            draft.built = True  # the turn's one action
        elif not isinstance(fact, ManualCardsActivated):  # a note: nothing changes
            base.apply(draft, fact)
    return replace(state, table=base.freeze(draft), contributed=contributed)
