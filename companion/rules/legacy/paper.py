"""What a Legacy game's paper says: the setup sheet (the game's number and start player, each
player's landmarks by letter and their town-square cards, the community landmark, the supply in
activation order, the bank) and the score sheet's columns (landmarks built, the contribution,
coins). Pure functions; `printing/` lays them out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.paper import competition_ranks
from companion.rules.legacy.catalog import engine_catalog
from companion.rules.legacy.setup import Setup, parse_setup
from companion.rules.legacy.state import LegacyState
from companion.rules.machi_koro import paper as base
from companion.rules.paper import (
    PLAIN,
    SMALL,
    STRONG,
    Column,
    Name,
    Part,
    SeatName,
    SetupSection,
    line,
)
from companion.rules.ruleset import Json, Result

SCORE_COLUMNS = (Column("landmarks", 0.14), Column("contributed", 0.14), Column("coins", 0.12))


def score_columns() -> tuple[Column, ...]:
    """Landmarks built, the contribution (1 or 0), then coins: the order that ranks the players
    after the winner."""
    return SCORE_COLUMNS


def places(state: LegacyState) -> tuple[int, ...]:
    """Each seat's place were the game over now: the winner first, then by landmarks built,
    the contribution, then coins; equal players share a place (ours: the book ranks no one but
    the winner)."""
    table = state.table
    return tuple(competition_ranks([
        (seat == table.winner, len(player.landmarks), state.has_contributed(seat), player.coins)
        for seat, player in enumerate(table.players)]))


def standings_rows(names: Sequence[str], state: LegacyState | None,
                   result: Result | None) -> list[Json]:
    """One row per seat for the standings and the score sheets (`score_columns`), with its
    outcome once there is a result and its place as the game stands (None before the start)."""
    if state is None:
        return [{"seat": seat, "name": name, "landmarks": 0, "contributed": 0, "coins": None,
                 "outcome": None, "place": None} for seat, name in enumerate(names)]
    ranked = places(state)
    return [{"seat": seat, "name": player.name, "landmarks": len(player.landmarks),
             "contributed": int(state.has_contributed(seat)), "coins": player.coins,
             "outcome": result.outcomes[seat] if result else None, "place": ranked[seat]}
            for seat, player in enumerate(state.table.players)]


def setup_section(options: Mapping[str, Any], seats: int) -> SetupSection:
    """A Legacy table's setup sheet, from its options (the set-up the campaign made)."""
    setup = parse_setup(dict(options))
    catalog = setup.catalog
    rules = engine_catalog(catalog)
    seating = (line("legacy_game_n", PLAIN, n=setup.game),
               line("legacy_first_player", PLAIN, player=SeatName(setup.first)))
    each = [line("coins_n", n=catalog.starting_coins),
            line("legacy_landmarks_face_down", n=len(setup.landmarks[0]))]
    return SetupSection((Part("each_player_takes", tuple(each)), seats_part(setup),
                         community_part(setup), base.supply_part(rules),
                         base.box_part([], catalog.bank_coins - seats * catalog.starting_coins)),
                        seating=seating)


def seats_part(setup: Setup) -> Part:
    """Per player: the landmarks left to right with letter and cost, then the town-square
    cards they chose."""
    catalog = setup.catalog
    lines = []
    for seat, own in enumerate(setup.landmarks):
        lines.append(line("legacy_seat", STRONG, player=SeatName(seat)))
        for landmark in own:
            entry = catalog.landmark(landmark)
            lines.append(line("legacy_landmark", SMALL, letter=entry.letter,
                              card=Name(entry.names), cost=setup.landmark_cost(seat, landmark)))
        lines += [line("n_of", SMALL, n=1, card=Name(catalog.establishment(card).names))
                  for card in setup.town_square[seat]]
    return Part("legacy_cities", tuple(lines))


def community_part(setup: Setup) -> Part:
    """The community landmark, face up beside the supply: its cost and bonus."""
    card = setup.catalog.community_landmark(setup.community)
    bonus = card.bonus
    lines = [line("legacy_community", card=Name(card.names), cost=card.cost)]
    if bonus.kind == "coins":
        lines.append(line("legacy_bonus_coins", SMALL, n=bonus.amount))
    elif bonus.kind == "manual":
        lines.append(line("legacy_bonus_text", SMALL, text=Name(bonus.text)))
    return Part("legacy_community_heading", tuple(lines))
