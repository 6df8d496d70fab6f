"""Result sheets: a table's places and its ruleset's figures (landmarks and coins in Machi Koro),
signed by every player. A ruleset of many figures (Catan's breakdown, its total and its
tie-breaks) gets them down the page, a column per player, as a score pad; a ruleset whose staff
check results (`TableResult.staff_signature`) gets the staff's box to sign; figures the staff
have not verified are marked †.

A sheet printed before the end says so: mid-game it is titled "Scores so far" and carries a
boxed "in progress" notice with the time it was printed; before the start it is the form to
fill in by hand, with a line saying when it was printed."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from companion.printing.flow import Cell, banner, heading, one_page_each, para, shares, sheet_top, table
from companion.printing.i18n import is_rtl, role_word, text
from companion.printing.model import NOT_STARTED, PLAYING, Column, ResultRow, TableResult
from companion.printing.textfit import embed

SIGNATURE_ROW = 13 * mm  # room to sign by hand


def _blank(value: int | str | None) -> str:
    """A number, or nothing so the box can be filled in by hand."""
    return "" if value is None else str(value)


def _status_part(result: TableResult, lang: str, width: float) -> list[Flowable]:
    """What a sheet printed before the end says about itself: nothing for a result."""
    rtl, time = is_rtl(lang), embed(result.printed_at)
    if result.status == PLAYING:
        lines = [(text(lang, "in_progress", time=time), True),
                 (text(lang, "results_in_play_note"), False)]
        return [banner(lines, rtl, width), Spacer(1, 4 * mm)]
    if result.status == NOT_STARTED:
        return [para(text(lang, "results_not_started_note", time=time), rtl, after=4 * mm)]
    return [Spacer(1, 4 * mm)]


PLACE, PLAYER, SIGNATURE = Column("place", 0.1), Column("player", 0.3), Column("signature", 0.32)
ACROSS_MOST = 4  # a sheet with more of its ruleset's columns lists them down the page
LABEL_SHARE = 0.4  # down the page: the share of the row the figures' names take
FIGURE_PADDING = 6  # points above and below a figure down the page: room to write it by hand
UNVERIFIED_MARK = " †"
SECTION_TINT = colors.Color(0.93, 0.93, 0.93)


def _scores(row: ResultRow, count: int) -> list[str]:
    """A row's figures in the sheet's `count` columns, blank where it has none."""
    return [_blank(value) for value in (*row.scores, *[None] * count)[:count]]


def _player(row: ResultRow) -> str:
    """The player's name, marked † when the staff have not verified the figures."""
    return f"{row.player_name}{UNVERIFIED_MARK}" if row.unverified else row.player_name


def _player_head(row: ResultRow, lang: str) -> list[Flowable]:
    """A player's column head down the page: the name in bold, the seat's role under it when
    it has one (Sun), the last line marked † when the staff have not verified the figures."""
    rtl = is_rtl(lang)
    lines = [row.player_name, role_word(lang, row.role)] if row.role else [row.player_name]
    if row.unverified:
        lines[-1] += UNVERIFIED_MARK
    return [para(line, rtl, bold=n == 0) for n, line in enumerate(lines)]


def _across(result: TableResult, lang: str, width: float) -> Flowable:
    """A row per player: the place, the player, the ruleset's columns, the signature."""
    columns = (PLACE, PLAYER, *result.columns, SIGNATURE)
    header = [text(lang, column.key) for column in columns]
    rows = [[_blank(r.place), _player(r), *_scores(r, len(result.columns)), ""]
            for r in result.rows]
    return table(header, rows, shares(columns, width), is_rtl(lang), row_height=SIGNATURE_ROW,
                 size=10)


def _down(result: TableResult, lang: str, width: float) -> Flowable:
    """A column per player and a row per figure, as a score pad: the place, the ruleset's
    columns, then its tie-break columns under their own heading, then the signatures."""
    rtl, count = is_rtl(lang), len(result.columns)
    figures = [_scores(r, count) for r in result.rows]
    rows: list[list[str]] = [[text(lang, "place"), *[_blank(r.place) for r in result.rows]]]
    heights: list[float | None] = [None]
    section = None
    for n, column in enumerate(result.columns):
        if column.tie_break and section is None:
            section = len(rows) + 1  # the table's row, after its header
            cells = [""] * (1 + len(result.rows))
            cells[0] = cells[-1] = text(lang, "tie_breaks")  # the span shows its first cell:
            rows.append(cells)  # at both ends, for a mirrored (RTL) row too
            heights.append(None)
        rows.append([text(lang, column.key), *[values[n] for values in figures]])
        heights.append(None)
    rows.append([text(lang, "signature"), *[""] * len(result.rows)])
    heights.append(SIGNATURE_ROW)
    each = (1 - LABEL_SHARE) * width / max(1, len(result.rows))
    header: list[Cell] = ["", *[_player_head(r, lang) for r in result.rows]]
    grid = table(header, rows, [LABEL_SHARE * width, *[each] * len(result.rows)], rtl,
                 row_height=heights, size=10)
    grid.setStyle([(side, (0, 1), (-1, -2), FIGURE_PADDING)
                   for side in ("TOPPADDING", "BOTTOMPADDING")])
    if section is not None:
        grid.setStyle([("SPAN", (0, section), (-1, section)),
                       ("BACKGROUND", (0, section), (-1, section), SECTION_TINT),
                       ("TOPPADDING", (0, section), (-1, section), 3),
                       ("BOTTOMPADDING", (0, section), (-1, section), 3)])
    return grid


def _staff_part(result: TableResult, lang: str, width: float) -> list[Flowable]:
    """The staff's box to sign, for a ruleset whose staff check results at the tables."""
    if not result.staff_signature:
        return []
    rtl = is_rtl(lang)
    columns = (Column("staff_name", 0.45), Column("signature", 0.55))
    return [Spacer(1, 5 * mm), heading(text(lang, "staff_check"), rtl, 12),
            table([text(lang, c.key) for c in columns], [["", ""]], shares(columns, width), rtl,
                  row_height=SIGNATURE_ROW)]


def _result_page(result: TableResult, lang: str, width: float) -> list[Flowable]:
    """One table's result: a header and the ruled table with a signature box per player, the
    ruleset's columns between the player and the signature (down the page when they are many),
    then the staff's box when the staff check it."""
    rtl = is_rtl(lang)
    title = "results_in_play_title" if result.status == PLAYING else "results_title"
    layout = _down if len(result.columns) > ACROSS_MOST else _across
    story = [
        *sheet_top(result.event_name, lang, title, result.table_name),
        *_status_part(result, lang, width),
        layout(result, lang, width),
    ]
    if any(row.unverified for row in result.rows):
        story.append(para(text(lang, "unverified_note"), rtl, size=9, after=0))
    return [*story, *_staff_part(result, lang, width)]


def score_sheets(results: Sequence[TableResult], lang: str = "en", paper: str = "a4") -> bytes:
    """A result sheet for every table, one page each."""
    title = results[0].event_name if results else ""
    return one_page_each(results, _result_page, lang, paper, title or text(lang, "results_title"))
