"""What a seat may do now: the moves `decide` would accept, for phones and random players.

Roll and Reroll are listed with empty dice: the service draws the values.
"""

from __future__ import annotations

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
    """Cards the active seat may build now: in stock, affordable, not owned twice."""
    if state.phase is not Phase.BUILD or state.built:
        return []
    player = state.roller
    cards = [
        card.id for card in catalog.establishments.values()
        if state.supply.get(card.id, 0) > 0 and card.cost <= player.coins
        and not (card.is_purple and player.owns(card.id))
    ]
    cards += [
        lm.id for lm in catalog.landmarks.values()
        if lm.id not in player.landmarks and lm.cost <= player.coins
    ]
    return cards
