"""What the big Catan event's paper says: a board's setup sheet (the letter, Sun's and Moon's
seats and colours, the start areas, the robber rule by turn, the scoring table of RULES.md 23
with its caps) and the score sheet's columns (the breakdown, then the points). Plain values:
`printing/` lays them out and says each key in the sheet's language (`printing/i18n.py`)."""

from __future__ import annotations

from companion.rules.catan_big.claims import CAPS, RESOURCES, SPECIAL_POINTS, WINNING_POINTS
from companion.rules.catan_big.state import COLOURS, BoardSetup
from companion.rules.catan_big.turns import DISCARD_FROM, ROBBERS_MOVE_FROM
from companion.rules.paper import (
    APART,
    BULLET,
    SMALL,
    STRONG,
    Column,
    Grid,
    Line,
    Name,
    Part,
    SeatName,
    SetupSection,
    line,
)

SCORE_COLUMNS = (
    # The breakdown is shown, its total ranks; the cards in hand break ties (RULES.md 23-24).
    Column("settlements", 0.085, ranks=False), Column("cities", 0.085, ranks=False),
    Column("foreign_start_settlements", 0.1, ranks=False), Column("vp_cards", 0.085, ranks=False),
    Column("largest_army", 0.085, ranks=False), Column("longest_road", 0.085, ranks=False),
    Column("points", 0.085),
    Column("hand", 0.1, tie_break=True),
    *(Column(resource, 0.085, tie_break=True) for resource in RESOURCES),
)
"""The breakdown of RULES.md 23 (counts; the largest army and the longest road as their points),
then the points: the keys of `standings_rows`."""

COLOUR_NAMES: dict[str, dict[str, str]] = {
    "red": {"en": "red", "he": "אדום", "nl": "rood"},
    "blue": {"en": "blue", "he": "כחול", "nl": "blauw"},
    "white": {"en": "white", "he": "לבן", "nl": "wit"},
    "orange": {"en": "orange", "he": "כתום", "nl": "oranje"},
    "green": {"en": "green", "he": "ירוק", "nl": "groen"},
    "brown": {"en": "brown", "he": "חום", "nl": "bruin"},
}
assert set(COLOUR_NAMES) == set(COLOURS)

SCORING: tuple[tuple[dict[str, str], str | int, int, int], ...] = (
    # what scores (en, he, nl), points each, at most (count), at most (points)
    ({"en": "Settlement", "he": "יישוב", "nl": "Dorp"}, 1, CAPS["settlements"],
     CAPS["settlements"]),
    ({"en": "City", "he": "עיר", "nl": "Stad"}, 2, CAPS["cities"], 2 * CAPS["cities"]),
    ({"en": "Settlement in another player's start area", "he": "יישוב בשטח ההתחלה של יריב",
      "nl": "Dorp in het startgebied van een ander"}, "+2", CAPS["foreign_start_settlements"],
     2 * CAPS["foreign_start_settlements"]),
    ({"en": "Victory point card", "he": "קלף נקודת ניצחון", "nl": "Overwinningspuntkaart"}, 1,
     CAPS["vp_cards"], CAPS["vp_cards"]),
    ({"en": "Largest army", "he": "הצבא הגדול ביותר", "nl": "Grootste riddermacht"},
     SPECIAL_POINTS, 1, SPECIAL_POINTS),
    ({"en": "Longest road", "he": "הדרך הארוכה ביותר", "nl": "Langste handelsroute"},
     SPECIAL_POINTS, 1, SPECIAL_POINTS),
)


def score_columns() -> tuple[Column, ...]:
    return SCORE_COLUMNS


def colour_name(colour: str) -> Name:
    return Name.of(COLOUR_NAMES.get(colour, {"en": colour}))


def setup_section(setup: BoardSetup) -> SetupSection:
    """A board's setup sheet below its seats: the board and the two seats with their colours
    (the neighbours, the event's chain, and the turn times, the event's schedule, are the
    hall's to print), then the start areas, the robber rule by turn and the scoring table."""
    sun, moon = setup.colours
    seating = (
        line("catan_board", STRONG, board=setup.letter),
        line("catan_sun_seat", BULLET, player=SeatName(0), colour=colour_name(sun)),
        line("catan_moon_seat", BULLET, player=SeatName(1), colour=colour_name(moon)),
        line("catan_teams", SMALL),
    )
    return SetupSection((start_part(), robber_part(), scoring_part(), winning_part()),
                        seating=seating)


def start_part() -> Part:
    """Seed 003 section 2 and 9.1: the start areas, the first settlements, the robbers."""
    return Part("catan_start_areas", (
        line("catan_start_area"),
        line("catan_start_settlements", n=3),
        line("catan_start_resources"),
        line("catan_robbers_start", n=2),
        line("catan_no_monopoly"),
    ))


def robber_part() -> Part:
    """RULES.md 22: the robber rule switches at turn 16."""
    last_quiet = ROBBERS_MOVE_FROM - 1
    return Part("catan_robber_rule", (
        line("catan_robber_early", STRONG, first=1, last=last_quiet, cards=DISCARD_FROM),
        line("catan_robber_late", STRONG, first=ROBBERS_MOVE_FROM),
        line("catan_robber_numbers", BULLET),
        line("catan_robber_lone", BULLET, low=2, high=12),
        line("catan_robber_home", BULLET),
        line("catan_no_steal", SMALL),
    ))


def scoring_part() -> Part:
    """RULES.md 23: what scores, with its caps (a count, and the points it makes at most)."""
    columns = (Column("catan_scores", 0.52), Column("catan_each", 0.16),
               Column("catan_at_most", 0.16), Column("catan_most_points", 0.16))
    rows = tuple((Name.of(names), each, most, points) for names, each, most, points in SCORING)
    return Part("catan_scoring", (line("catan_foreign_bonus", SMALL),), Grid(columns, rows, size=9))


def winning_part() -> Part:
    """RULES.md 23: who wins, when the game ends, how ties are broken."""
    lines: tuple[Line, ...] = (
        line("catan_win", APART, n=WINNING_POINTS),
        line("catan_game_ends"),
        line("catan_tie_breaks"),
    )
    return Part("", lines)
