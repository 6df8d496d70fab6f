"""What Machi Koro's paper says: the setup sheet's parts (what each player takes, the supply in
activation order, what goes back in the box) and the score sheet's columns and rows (landmarks
built, coins). Pure functions of the catalog, the options and a state; `printing/` lays them
out (`companion/rules/paper.py`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.rules.machi_koro.catalog import Catalog, Establishment
from companion.rules.machi_koro.engine import supply_cards
from companion.rules.machi_koro.state import TableState
from companion.rules.paper import (
    APART,
    SMALL,
    STRONG,
    Column,
    Grid,
    Line,
    Name,
    Part,
    SetupSection,
    competition_ranks,
    line,
)
from companion.rules.ruleset import Json, Result

SCORE_COLUMNS = (Column("landmarks", 0.16), Column("coins", 0.12))


def score_columns() -> tuple[Column, ...]:
    """The score sheet's and the standings' columns: landmarks built, then coins (the order
    that ranks players after a win)."""
    return SCORE_COLUMNS


def standings_row(state: TableState, seat: int, catalog: Catalog) -> dict[str, int]:
    """A seat's figures in the columns of `score_columns`, as they stand, and the total cost of
    its built landmarks (RULES.md 26's tie-break after the landmarks' count)."""
    player = state.players[seat]
    return {"landmarks": len(player.landmarks), "coins": player.coins,
            "landmark_cost": landmark_cost(player.landmarks, catalog)}


def landmark_cost(built: frozenset[str], catalog: Catalog) -> int:
    return sum(catalog.landmarks[lm].cost for lm in built if lm in catalog.landmarks)


def places(state: TableState, catalog: Catalog) -> tuple[int, ...]:
    """Each seat's place were the game over now (RULES.md 26): the winner first, then by
    landmarks built, then their total cost, then coins; equal players share a place (1, 2, 2,
    4). In play on (RULES.md 14) the places taken come first, in their order; the players still
    playing follow."""
    if state.play_on:
        return tuple(competition_ranks([
            (-player.place, 0, 0) if player.place is not None
            else (-len(state.players) - 1, len(player.landmarks),
                  landmark_cost(player.landmarks, catalog), player.coins)
            for player in state.players]))
    return tuple(competition_ranks([
        (seat == state.winner, len(player.landmarks), landmark_cost(player.landmarks, catalog),
         player.coins)
        for seat, player in enumerate(state.players)]))


def standings_rows(names: Sequence[str], state: TableState | None, result: Result | None,
                   catalog: Catalog, shared: Sequence[int] | None = None) -> list[Json]:
    """One row per seat for the standings, the score sheets and the export: its `seat`, the
    player's `name`, its figures in the columns of `score_columns` (before the start: no coins,
    no landmarks), its `outcome` once there is a result, and its `place` as the game stands
    (None before the start): the paper prints it once the game is over, a result or a table
    the organizer ended. `shared`: the places a variant decides instead (`coop/paper.py`)."""
    if state is None:
        return [{"seat": seat, "name": name, "landmarks": 0, "coins": None, "landmark_cost": 0,
                 "outcome": None, "place": None} for seat, name in enumerate(names)]
    ranked = places(state, catalog) if shared is None else shared
    return [{"seat": seat, "name": player.name, **standings_row(state, seat, catalog),
             "outcome": result.outcomes[seat] if result else None, "place": place}
            for seat, (player, place) in enumerate(zip(state.players, ranked, strict=True))]


# ------------------------------------------------------------ the setup sheet


def setup_section(catalog: Catalog, options: Mapping[str, Any], seats: int) -> SetupSection:
    """A base-game table of `seats` players: what each takes, the supply, the box and the
    bank; under the seats, its variants when it has any (RULES.md 13-14)."""
    variants = variant_lines(catalog, options, seats)
    supply = supply_part(catalog, size=VARIANT_GRID_SIZE if variants else 9.5)
    return SetupSection((player_part(catalog), supply,
                         box_part(unused_seats(catalog, seats),
                                  catalog.bank_coins - seats * catalog.starting_coins)),
                        seating=variants)


VARIANT_GRID_SIZE = 7.5  # with the variants' lines the supply's grid is set smaller: one page


def variant_lines(catalog: Catalog, options: Mapping[str, Any], seats: int) -> tuple[Line, ...]:
    """The table's variants (the ruleset's options) under a "Variants" line, or none: play on
    after a win, and the variable supply with the purple copies that leave the game before
    its shuffle (in small print)."""
    lines = []
    if options.get("play_on"):
        lines.append(line("variant_play_on", STRONG))
    if options.get("variable_supply") or catalog.variable_supply:  # Harbor: always
        lines.append(line("variant_variable_supply", STRONG))
        _, removed = supply_cards(catalog, seats)
        lines += [line("variable_supply_removed", SMALL, n=removed.count(card.id), card=Name.of(card.names))
                  for card in catalog.establishments.values() if card.id in removed]
    return (line("variants", APART), *lines) if lines else ()


def roll_range(card: Establishment) -> str:
    """Activation numbers as a range: 2–3, 9–10."""
    low, high = min(card.activation), max(card.activation)
    return str(low) if low == high else f"{low}–{high}"


def player_part(catalog: Catalog) -> Part:
    """What each player takes: the starting cards, the coins, the landmarks face down."""
    lines = [line("n_of", n=c.starting, card=Name.of(c.names))
             for c in catalog.establishments.values() if c.starting]
    lines.append(line("coins_n", n=catalog.starting_coins))
    face_down = [m for m in catalog.landmarks.values() if not m.starts_built]
    lines.append(line("landmarks_face_down", n=len(face_down)))
    lines += [line("card_cost", SMALL, card=Name.of(m.names), cost=m.cost) for m in face_down]
    lines += [line("landmark_built_at_start", card=Name.of(m.names))  # Harbor's City Hall
              for m in catalog.landmarks.values() if m.starts_built]
    return Part("each_player_takes", tuple(lines))


TINTED = frozenset({"blue", "green", "red", "purple"})


def supply_part(catalog: Catalog, size: float = 9.5) -> Part:
    """The supply stacks in activation order (the catalog's), with how many cards each holds;
    the roll's cell in the card's colour."""
    cards = list(catalog.establishments.values())
    columns = (Column("roll", 0.14), Column("card", 0.58), Column("cost", 0.14),
               Column("count", 0.14))
    rows = tuple((roll_range(c), Name.of(c.names), c.cost, c.copies) for c in cards)
    tints = tuple(c.colour if c.colour in TINTED else "" for c in cards)
    return Part("supply", grid=Grid(columns, rows, tints, size=size))


def unused_seats(catalog: Catalog, seats: int) -> list[Line]:
    """The starting cards and landmark sets of the seats nobody takes; "nothing" when every
    seat plays."""
    empty = max(0, catalog.players_max - seats)
    if not empty:
        return [line("nothing_back")]
    lines = [line("n_of", n=c.starting * empty, card=Name.of(c.names))
             for c in catalog.establishments.values() if c.starting]
    return [*lines, line("landmark_sets_n", n=empty)]


def box_part(lines: Sequence[Line], bank: int) -> Part:
    """What goes back in the box, then the coins the bank keeps."""
    return Part("back_in_box", (*lines, line("bank_left", APART, n=bank)))
