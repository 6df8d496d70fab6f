"""Whether a seat's move, made from a view the table has moved on from, could turn out
otherwise now: the rules' call behind the hall's `move/stale` (docs/api.md). A pure function
of the state the view showed, the state now, the moving seat and its wire move."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from companion.rules.machi_koro.state import Phase, Player, TableState


def stale(seen: TableState, now: TableState, seat: int, wire: object) -> bool:
    """Whether `seat`'s move `wire` (its wire form), made from a view of `seen`, could have
    another outcome at `now`.

    - Another seat's dice setting never changes a move (the mover's own does: it rolls them).
      Any other change may: coins, cards, the supply, the turn, its phase, the dice.
    - A choice of dice (`dice_count`, any seat, any time) depends only on the seat's own city
      (two dice need a Train Station), the seats at the table and whether the game is over:
      another seat's roll or build does not make it stale.
    """
    if seen is now:
        return False
    if len(seen.players) != len(now.players) or not 0 <= seat < len(now.players):
        return True
    if move_kind(wire) == "dice_count":
        return city(seen.players[seat]) != city(now.players[seat]) or over(seen) != over(now)
    return with_dice_settings_of(seen, now, seat) != seen


def move_kind(wire: object) -> object:
    """The `kind` of a wire move; None for anything that is not a move object."""
    return wire.get("kind") if isinstance(wire, Mapping) else None


def city(player: Player) -> tuple[Mapping[str, int], frozenset[str]]:
    """What a seat's own choices depend on: its cards and built landmarks."""
    return player.cards, player.landmarks


def over(state: TableState) -> bool:
    return state.phase is Phase.FINISHED


def with_dice_settings_of(seen: TableState, now: TableState, seat: int) -> TableState:
    """`now` with every seat but `seat` rolling as many dice as in `seen` (same seats)."""
    players = tuple(
        player if index == seat or player.dice_count == old.dice_count
        else replace(player, dice_count=old.dice_count)
        for index, (player, old) in enumerate(zip(now.players, seen.players, strict=True)))
    return replace(now, players=players)
