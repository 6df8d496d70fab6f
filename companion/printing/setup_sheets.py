"""Setup sheets: one page per table, its seats and then what its ruleset lays out.

The printing knows no game: a sheet's `game` (built by the hall from the table's ruleset,
`hall/printables.py`) is plain parts of lines and grids, drawn here in the page's language and
direction. A ruleset without a setup sheet gets its seats and a note saying so."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from companion.printing.flow import heading, one_page_each, para, table
from companion.printing.i18n import is_rtl, text
from companion.printing.model import Grid, Line, Name, Part, TableSheet, Value
from companion.printing.textfit import embed

TINTS = {"blue": "#dbe8fb", "green": "#dcf2dc", "red": "#fadcdc", "purple": "#eadcf5"}
GAP = 5 * mm  # below the seats and between the parts


def said(value: Value, lang: str) -> str | int:
    """A line's value in `lang`: a card's name in it, a name in its own direction."""
    if isinstance(value, Name):
        return value.said(lang)
    return embed(value) if isinstance(value, str) else value


def cell(value: Value, lang: str) -> str:
    """A grid's cell in `lang`: a number, a card's name, or a string as it is."""
    return value.said(lang) if isinstance(value, Name) else str(value)


def line_part(line: Line, lang: str) -> list[Flowable]:
    """One line in its style."""
    rtl = is_rtl(lang)
    words = text(lang, line.key, **{name: said(value, lang) for name, value in line.values})
    if line.style in ("bullet", "strong"):
        return [para(f"• {words}", rtl, bold=line.style == "strong", after=1)]
    if line.style in ("small", "note"):
        return [para(words, rtl, size=9, after=3 if line.style == "note" else 0)]
    if line.style == "apart":
        return [Spacer(1, 3 * mm), para(words, rtl)]
    return [para(words, rtl)]


def grid_part(grid: Grid, lang: str, width: float) -> Flowable:
    """A ruled table; a row's first cell tinted in its colour."""
    rtl = is_rtl(lang)
    header = [text(lang, column.key) for column in grid.columns]
    rows = [[cell(value, lang) for value in row] for row in grid.rows]
    drawn = table(header, rows, [column.width * width for column in grid.columns], rtl,
                  size=grid.size)
    first = len(header) - 1 if rtl else 0
    drawn.setStyle([("BACKGROUND", (first, row), (first, row), colors.HexColor(TINTS[tint]))
                    for row, tint in enumerate(grid.tints, start=1) if tint in TINTS])
    return drawn


def part(game_part: Part, lang: str, width: float) -> list[Flowable]:
    """A heading, lines, then a grid."""
    story: list[Flowable] = []
    if game_part.heading:
        story.append(heading(text(lang, game_part.heading), is_rtl(lang), 12))
    for line in game_part.lines:
        story.extend(line_part(line, lang))
    if game_part.grid is not None:
        story.append(grid_part(game_part.grid, lang, width))
    return story


def seats_part(sheet: TableSheet, lang: str, width: float) -> list[Flowable]:
    """Who sits where, and what the rules say under it (who plays when); the tables beside it
    when it stands in a chain."""
    rtl = is_rtl(lang)
    rows = [[str(n), name] for n, name in enumerate(sheet.seats, start=1)]
    seating = sheet.game.seating if sheet.game else ()
    return [
        heading(text(lang, "seats"), rtl, 12),
        table([text(lang, "seat"), text(lang, "player")], rows, [0.15 * width, 0.85 * width], rtl),
        *[flowable for line in seating for flowable in line_part(line, lang)],
        *neighbours_part(sheet.neighbours, lang),
        Spacer(1, GAP),
    ]


def neighbours_part(neighbours: Sequence[str], lang: str) -> list[Flowable]:
    """The tables to the left and the right in the event's chain, on one bold line a little
    apart; none when the table stands in no chain."""
    if not neighbours:
        return []
    sides = [text(lang, key, name=embed(name) if name else text(lang, "chain_end"))
             for key, name in zip(("neighbour_left", "neighbour_right"), neighbours, strict=False)]
    return [Spacer(1, 2 * mm), para(" · ".join(sides), is_rtl(lang), bold=True, after=1)]


def schedule_part(schedule: Sequence[tuple[int, int]], lang: str) -> list[Flowable]:
    """The event's turn times on one line, a step of the schedule each: "Turn times: turns
    1–10: 60 s; turns 11–20: 90 s; from turn 21: 120 s"; none without a schedule."""
    if not schedule:
        return []
    steps = []
    for (first, seconds), after in zip(schedule, [*schedule[1:], None], strict=True):
        last = None if after is None else after[0] - 1
        key = "turns_from" if last is None else "turn_single" if last == first else "turns_range"
        steps.append(text(lang, key, first=first, last=last, seconds=seconds))
    line = f"{text(lang, 'turn_times')}: {'; '.join(steps)}"
    return [para(line, is_rtl(lang), bold=True), Spacer(1, GAP)]


def _page(sheet: TableSheet, lang: str, width: float) -> list[Flowable]:
    """One table's page: the header, the seats, then its ruleset's parts."""
    rtl = is_rtl(lang)
    story: list[Flowable] = [
        para(sheet.event_name, rtl, size=10),
        heading(f"{text(lang, 'setup_title')}: {embed(sheet.table_name)}", rtl, 18),
        *seats_part(sheet, lang, width),
        *schedule_part(sheet.schedule, lang),
    ]
    if sheet.game is None:
        return [*story, para(text(lang, "unknown_ruleset", name=sheet.ruleset), rtl)]
    for n, game_part in enumerate(sheet.game.parts):
        if n:
            story.append(Spacer(1, GAP))
        story.extend(part(game_part, lang, width))
    return story


def setup_sheets(tables: Sequence[TableSheet], lang: str = "en", paper: str = "a4") -> bytes:
    """Setup sheets for every table, one page each."""
    title = tables[0].event_name if tables else text(lang, "setup_title")
    return one_page_each(tables, _page, lang, paper, title)
