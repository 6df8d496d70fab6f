"""Whether a seat's move at a co-op table, made from a view the table has moved on from, could
turn out otherwise now (docs/api.md, `move/stale`): the base game's call on the table inside,
and the co-op fields besides."""

from __future__ import annotations

from dataclasses import replace

from companion.rules.coop.state import CoopState
from companion.rules.machi_koro import staleness as base


def stale(seen: CoopState, now: CoopState, seat: int, wire: object) -> bool:
    """Whether `seat`'s move `wire`, made from a view of `seen`, could have another outcome at
    `now`: whenever the base game says so of the table inside (another seat's dice setting
    never matters), and at any change of the co-op fields (the assessor's coins and deck, the
    market, the final round, the outcome). A choice of dice is judged by the base game, and
    of the co-op fields only the deal and the end of the game change it."""
    if seen is now:
        return False
    if base.stale(seen.table, now.table, seat, wire):
        return True
    if base.move_kind(wire) == "dice_count":
        return (seen.dealt, seen.outcome) != (now.dealt, now.outcome)
    return replace(seen, table=now.table) != now
