"""The event standings sheet: every player's rank, table, wins and the rulesets' figures that
rank them (landmarks and coins in Machi Koro; Catan's points and tie-breaks), the players whose
figures the staff have not verified marked †.

Printed while some table still plays, the sheet says so in a boxed notice with the time it was
printed, and those tables' players are ranked by their figures as they stood, marked * beside
their table and shaded."""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from companion.printing.flow import banner, heading, para, render_story, shares, table
from companion.printing.i18n import is_rtl, text
from companion.printing.layouts import page_spec
from companion.printing.model import Column, Standing, StandingRow
from companion.printing.textfit import embed

COLUMNS = (Column("rank", 0.09), Column("player", 0.27), Column("table", 0.24),
           Column("wins", 0.12))  # room for ניצחונות; the rulesets' columns follow
PLAYING_MARK = " *"
UNVERIFIED_MARK = " †"
PLAYING_TINT = colors.Color(0.93, 0.93, 0.93)


def _table_cell(row: StandingRow) -> str:
    return f"{embed(row.table_name)}{PLAYING_MARK}" if row.playing else row.table_name


def standings(standing: Standing, lang: str = "en", paper: str = "a4") -> bytes:
    """The standings as ranked by the hall; long lists run on with the header repeated."""
    rtl = is_rtl(lang)
    spec = page_spec(paper)
    width = spec.page[0] - 2 * spec.margin
    columns = (*COLUMNS, *standing.columns)
    header = [text(lang, column.key) for column in columns]
    count = len(standing.columns)
    rows = [
        [str(r.rank), f"{r.player_name}{UNVERIFIED_MARK}" if r.unverified else r.player_name,
         _table_cell(r), str(r.wins),
         *[str(value) for value in r.scores[:count]], *[""] * (count - len(r.scores))]
        for r in standing.rows
    ]
    grid = table(header, rows, shares(columns, width), rtl, size=10)
    grid.setStyle([("BACKGROUND", (0, i), (-1, i), PLAYING_TINT)
                   for i, row in enumerate(standing.rows, start=1) if row.playing])
    story: list[Flowable] = [
        para(standing.event_name, rtl),
        heading(standing.title or text(lang, "standings_title"), rtl, 18),
    ]
    if standing.printed_at:
        lines = [(text(lang, "standings_in_progress", time=embed(standing.printed_at)), True),
                 (text(lang, "standings_in_play_note"), False)]
        story += [Spacer(1, 2 * mm), banner(lines, rtl, width)]
    if any(row.unverified for row in standing.rows):  # before the list: it may run on
        story += [Spacer(1, 2 * mm), para(text(lang, "unverified_note"), rtl, size=9)]
    story += [Spacer(1, 4 * mm), grid]
    return render_story(paper, standing.event_name or text(lang, "standings_title"), story)
