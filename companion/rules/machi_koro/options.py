"""What a seat may do now: the moves `decide` would accept, for phones and random players,
and the build list with the reason each closed card is closed.

Roll and Reroll are listed with empty dice: the service draws the values. Whether a card may
be built is decided here once (`build_refusal`): the engine refuses with it, the legal moves
and the phone's build list (`build_options`) are made from it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion.rules.machi_koro.activation import counter_clockwise, has_effect, swappable
from companion.rules.machi_koro.catalog import Catalog
from companion.rules.machi_koro.moves import (
    Build,
    ChooseDice,
    DeclineSwap,
    EndTurn,
    KeepRoll,
    Move,
    Reroll,
    Roll,
    SwapEstablishments,
    TargetTvStation,
)
from companion.rules.machi_koro.state import Choice, Phase, TableState


def legal_moves(state: TableState, seat: int, catalog: Catalog) -> list[Move]:
    """Every move `seat` may make now (dice moves with empty dice)."""
    if state.phase is Phase.FINISHED:
        return []
    player = state.players[seat]
    moves: list[Move] = [ChooseDice(1)]
    if has_effect(catalog, player, "two_dice"):
        moves.append(ChooseDice(2))
    if seat != state.active:
        return moves
    if state.phase is Phase.ROLL:
        moves.append(Roll(()))
    elif state.phase is Phase.REROLL:
        moves += [KeepRoll(), Reroll(())]
    elif state.phase is Phase.CHOOSE and state.pending[0] is Choice.TV_STATION:
        moves += [TargetTvStation(other) for other in counter_clockwise(state)]
    elif state.phase is Phase.CHOOSE:
        moves.append(DeclineSwap())
        for other in counter_clockwise(state):
            moves += [
                SwapEstablishments(other, give, take)
                for give in swappable(catalog, player)
                for take in swappable(catalog, state.players[other])
            ]
    else:
        moves += [Build(card) for card in affordable(state, catalog)]
        moves.append(EndTurn())
    return moves


def affordable(state: TableState, catalog: Catalog) -> list[str]:
    """Cards the active seat may build now, establishments then landmarks."""
    return [card for card in (*catalog.establishments, *catalog.landmarks)
            if build_refusal(state, state.active, card, catalog) is None]


# ---------------------------------------------------------------- building


class Why(StrEnum):
    """Why a card cannot be built now: the stable codes of the build list (docs/api.md)."""

    NOT_RUNNING = "not_running"  # the table is not running (set-up, paused or ended)
    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    NOT_BUILD_PHASE = "not_build_phase"  # before the roll's income is done (or before the deal)
    BUILT_THIS_TURN = "built_this_turn"  # one build per turn (RULES.md 7)
    UNKNOWN = "unknown"  # no such card in the catalog
    BUILT = "built"  # a landmark this seat has built
    SOLD_OUT = "sold_out"
    NOT_SHOWN = "not_shown"  # a variant's market does not show it (the co-op row)
    OWN_ONE = "own_one"  # a purple card: one each (RULES.md 5)
    COINS = "coins"  # `short` coins more are needed


@dataclass(frozen=True, slots=True)
class Closed:
    """A build the rules refuse now: why, and for `Why.COINS` how many coins are missing."""

    why: Why
    short: int = 0


def build_refusal(state: TableState, seat: int, card_id: str, catalog: Catalog) -> Closed | None:
    """Why `seat` may not build `card_id` now (RULES.md 5, 7), or None when it may: the one
    source of build legality."""
    if state.phase is Phase.FINISHED:
        return Closed(Why.GAME_OVER)
    if seat != state.active:
        return Closed(Why.NOT_YOUR_TURN)
    if state.phase is not Phase.BUILD:
        return Closed(Why.NOT_BUILD_PHASE)
    if state.built:
        return Closed(Why.BUILT_THIS_TURN)
    player = state.players[seat]
    landmark = catalog.landmarks.get(card_id)
    if landmark is not None:
        if card_id in player.landmarks:
            return Closed(Why.BUILT)
        return _coins(player.coins, landmark.cost)
    card = catalog.establishments.get(card_id)
    if card is None:
        return Closed(Why.UNKNOWN)
    if state.supply.get(card_id, 0) <= 0:
        return Closed(Why.SOLD_OUT)
    if card.is_purple and player.owns(card_id):
        return Closed(Why.OWN_ONE)
    return _coins(player.coins, card.cost)


def _coins(coins: int, cost: int) -> Closed | None:
    return Closed(Why.COINS, cost - coins) if coins < cost else None


NOT_RUNNING = Closed(Why.NOT_RUNNING)


def build_options(
    state: TableState, seat: int, catalog: Catalog, *, running: bool,
) -> list[dict[str, Any]]:
    """The build list of `seat`: every card of the market, open or closed with the reason
    (a game that is over says so even when its table no longer runs)."""
    if running or state.phase is Phase.FINISHED:
        return market_options(catalog, lambda card: build_refusal(state, seat, card, catalog))
    return not_running_options(catalog)


def not_running_options(catalog: Catalog) -> list[dict[str, Any]]:
    """The build list of a table that does not run (not started, paused, ended): every card
    closed `not_running`."""
    return market_options(catalog, lambda card: NOT_RUNNING)


def market_options(
    catalog: Catalog, refusal: Callable[[str], Closed | None],
) -> list[dict[str, Any]]:
    """Every card of `catalog` in its order, establishments then landmarks, open or closed by
    `refusal`, in the seat view's slim form (docs/api.md): `{"card"}` when open, `{"card",
    "why"}` when closed, and `"short"` too when coins are missing. The phone has each card's
    kind, cost and name from its page."""
    found = []
    for card_id in (*catalog.establishments, *catalog.landmarks):
        closed = refusal(card_id)
        option: dict[str, Any] = {"card": card_id}
        if closed is not None:
            option["why"] = closed.why.value
            if closed.why is Why.COINS:
                option["short"] = closed.short
        found.append(option)
    return found
