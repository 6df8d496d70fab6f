"""Setup sheets: one page per table, its seats and then what its ruleset lays out.

The printing knows no game: a sheet's `game` (built by the hall from the table's ruleset,
`hall/printables.py`) is plain parts of lines and grids, drawn here in the page's language and
direction. A ruleset without a setup sheet gets its seats and a note saying so."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from companion.printing.flow import Cell, heading, one_page_each, para, sheet_top, table
from companion.printing.fonts import REGULAR
from companion.printing.i18n import is_rtl, text
from companion.printing.model import Grid, Line, Name, Part, TableSheet, Value
from companion.printing.textfit import base_direction, draw_line, embed

TINTS = {"blue": "#dbe8fb", "green": "#dcf2dc", "red": "#fadcdc", "purple": "#eadcf5"}
CHIPS = {"red": "#d62728", "blue": "#1f77b4", "green": "#2ca02c", "yellow": "#f2d50f",
         "orange": "#ff7f0e", "purple": "#9467bd", "white": "#ffffff", "black": "#000000"}
"""A player's colour as a chip beside its word (a Legacy mayor's): full colours, outlined."""
GAP = 5 * mm  # below the seats and between the parts


class ColourChip(Flowable):  # type: ignore[misc]  # reportlab has no type stubs
    """A square chip of a colour, outlined so white shows, then the colour's word; the chip at
    the start edge (the right in a right-to-left page)."""

    def __init__(self, colour: str, word: str, size: float, rtl: bool) -> None:
        super().__init__()
        self.colour, self.word, self.size, self.rtl = colour, word, size, rtl

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        self.width = availWidth
        self.height = self.size * 1.25
        return availWidth, self.height

    def draw(self) -> None:
        side, canvas = self.size, self.canv
        x = self.width - side if self.rtl else 0
        canvas.setStrokeColor(colors.black)
        canvas.setLineWidth(0.6)
        canvas.setFillColor(colors.HexColor(self.colour))
        canvas.rect(x, (self.height - side) / 2, side, side, stroke=1, fill=1)
        canvas.setFillColor(colors.black)
        gap = side * 0.5
        start = (0, self.width - side - gap) if self.rtl else (side + gap, self.width)
        y = (self.height - self.size) / 2 + 1.5
        canvas.setFont(REGULAR, self.size)
        draw_line(canvas, self.word, (*start, y), self.rtl, "start", base_direction(self.word))


def said(value: Value, lang: str) -> str | int:
    """A line's value in `lang`: a card's name in it, a name, each in its own direction (a card
    with no name in `lang` is said in English: "(2)" stays with it on a Hebrew page)."""
    if isinstance(value, Name):
        return embed(value.said(lang))
    return embed(value) if isinstance(value, str) else value


def cell(value: Value, lang: str) -> str:
    """A grid's cell in `lang`: a number, a card's name, or a string as it is."""
    return value.said(lang) if isinstance(value, Name) else str(value)


def line_part(line: Line, lang: str) -> list[Flowable]:
    """One line in its style, in the page's direction even when it starts with a name ("• דני
    כהן" on an English page keeps its bullet on the left)."""
    rtl = is_rtl(lang)
    base = "R" if rtl else "L"
    words = text(lang, line.key, **{name: said(value, lang) for name, value in line.values})
    if line.style in ("bullet", "strong"):
        return [para(f"• {words}", rtl, bold=line.style == "strong", after=1, base=base)]
    if line.style in ("small", "note"):
        return [para(words, rtl, size=9, after=3 if line.style == "note" else 0, base=base)]
    if line.style == "apart":
        return [Spacer(1, 3 * mm), para(words, rtl, base=base)]
    return [para(words, rtl, base=base)]


def grid_part(grid: Grid, lang: str, width: float, row_height: float | None = None) -> Flowable:
    """A ruled table; a row's first cell tinted in its colour; a cell of a `colour` column (a
    player's colour: "red") said in `lang` beside a chip of that colour. `row_height`: every
    row's, room to write by hand (a register's lines); None: as the text needs."""
    rtl = is_rtl(lang)
    header = [text(lang, column.key) for column in grid.columns]
    rows = [[colour_cell(value, lang, grid.size) if column.key == "colour" else cell(value, lang)
             for column, value in zip(grid.columns, row, strict=False)] for row in grid.rows]
    drawn = table(header, rows, [column.width * width for column in grid.columns], rtl,
                  row_height=row_height, size=grid.size)
    first = len(header) - 1 if rtl else 0
    drawn.setStyle([("BACKGROUND", (first, row), (first, row), colors.HexColor(TINTS[tint]))
                    for row, tint in enumerate(grid.tints, start=1) if tint in TINTS])
    return drawn


def colour_cell(value: Value, lang: str, size: float) -> Cell:
    """A player's colour: a chip in it and its word in `lang` (a colour the printing does not
    know, or not a colour's name: the value as it is)."""
    if not isinstance(value, str) or value not in CHIPS:
        return cell(value, lang)
    return ColourChip(CHIPS[value], text(lang, f"colour_{value}"), size, is_rtl(lang))


def part(game_part: Part, lang: str, width: float,
         row_height: float | None = None) -> list[Flowable]:
    """A heading, lines, then a grid (its rows `row_height` high when given)."""
    story: list[Flowable] = []
    if game_part.heading:
        story.append(heading(text(lang, game_part.heading), is_rtl(lang), 12))
    for line in game_part.lines:
        story.extend(line_part(line, lang))
    if game_part.grid is not None:
        story.append(grid_part(game_part.grid, lang, width, row_height))
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
        *sheet_top(sheet.event_name, lang, "setup_title", sheet.table_name),
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
