"""What a Legacy game's paper says: the setup sheet (the game's number and start player, each
player's landmarks by letter and their town-square cards, the community landmark, the supply in
activation order, the bank), the score sheet's columns (landmarks built, the contribution,
coins), and the campaign's register sheet (the group, every game's register line). Pure
functions; `printing/` lays them out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.paper import competition_ranks
from companion.rules.legacy.campaign import Campaign
from companion.rules.legacy.catalog import engine_catalog
from companion.rules.legacy.setup import GAMES, Setup
from companion.rules.legacy.state import LegacyState
from companion.rules.machi_koro import paper as base
from companion.rules.paper import (
    APART,
    NOTE,
    PLAIN,
    SMALL,
    STRONG,
    Column,
    Grid,
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


def setup_section(setup: Setup, seats: int) -> SetupSection:
    """A Legacy table's setup sheet, from its set-up (the one the campaign made): under the
    seats the game's number and the start player; what each player takes, the cities (each
    player's landmarks by letter and town-square cards, and how to win), the community landmark,
    the supply in activation order, the bank."""
    catalog = setup.catalog
    seating = (line("legacy_game_n", PLAIN, n=setup.game),
               line("legacy_first_player", PLAIN, player=SeatName(setup.first)))
    each = [line("coins_n", n=catalog.starting_coins),
            line("legacy_landmarks_face_down", n=len(setup.landmarks[0])),
            line("legacy_town_square_note")]
    return SetupSection((Part("each_player_takes", tuple(each)), seats_part(setup),
                         community_part(setup), supply_part(setup),
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
        if setup.town_square[seat]:
            names = [dict(catalog.establishment(card).names) for card in setup.town_square[seat]]
            lines.append(line("legacy_town_square", SMALL, cards=listed(names)))
    lines.append(line("legacy_win", APART))
    return Part("legacy_cities", tuple(lines))


def listed(names: Sequence[Mapping[str, str]]) -> Name:
    """Cards' names as one list in every language they have ("Wheat Field, Bakery"; a card
    without a name in a language is listed by its English one): a city's town-square cards on
    one line, so four cities of many cards still fit the page."""
    langs = sorted({lang for card in names for lang in card})
    return Name(tuple((lang, ", ".join(card.get(lang) or card.get("en", "") for card in names))
                      for lang in langs))


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


def supply_part(setup: Setup) -> Part:
    """The supply's piles in activation order: the establishments in play (a card in the
    reserve or a town-square card has no pile), the roll's cell in the card's colour."""
    cards = [card for card in engine_catalog(setup.catalog).establishments.values() if card.copies]
    columns = (Column("roll", 0.14), Column("card", 0.58), Column("cost", 0.14),
               Column("count", 0.14))
    rows = tuple((base.roll_range(c), Name.of(c.names), c.cost, c.copies) for c in cards)
    tints = tuple(c.colour if c.colour in base.TINTED else "" for c in cards)
    return Part("supply", grid=Grid(columns, rows, tints, size=9 if len(cards) > 18 else 9.5))


# ------------------------------------------------------------ the campaign's register sheet

REGISTER_COLUMNS = (Column("legacy_game", 0.12), Column("legacy_date", 0.2),
                    Column("legacy_winner", 0.34), Column("legacy_city", 0.34))
GROUP_COLUMNS = (Column("player", 0.4), Column("colour", 0.2), Column("legacy_city", 0.4))


def register_sheet(campaign: Campaign) -> SetupSection:
    """The campaign's register sheet (seed 002's last page): how many games are recorded, the
    group (each mayor's colour and city), then the city register, a line per game of the
    campaign: its number, and once recorded its date, winner and the winner's city (blank
    lines for the games to come, to fill in by hand)."""
    recorded = {game.number: game for game in campaign.games if game.recorded}
    group = Part("legacy_group", grid=Grid(
        GROUP_COLUMNS, tuple((m.name, m.colour, m.city) for m in campaign.mayors), size=11))
    rows = []
    for number in range(1, GAMES + 1):
        game = recorded.get(number)
        if game is None or game.line is None:
            rows.append((number, "", "", ""))
        else:
            written = game.line
            rows.append((number, written.date, campaign.mayors[written.winner].name, written.city))
    register = Part("legacy_register", (line("legacy_register_note", NOTE),),
                    Grid(REGISTER_COLUMNS, tuple(rows), size=11))
    seating = (line("legacy_games_played", PLAIN, done=len(recorded), total=GAMES),)
    return SetupSection((group, register), seating=seating)
