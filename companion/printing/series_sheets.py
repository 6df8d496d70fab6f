"""Series sheets: one page per series of the event (a Legacy campaign's register: the group,
then a line per game, blank lines to fill in by hand).

The printing knows no game: a sheet (built by the hall from the series' ruleset,
`hall/printables.py`) is plain lines and parts, drawn as a setup sheet's are, its grids' rows
tall enough to write in."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from companion.printing.flow import one_page_each, para, render_story, sheet_top
from companion.printing.i18n import is_rtl, text
from companion.printing.model import SeriesSheet
from companion.printing.setup_sheets import GAP, line_part, part

ROW_HEIGHT = 9 * mm  # a register's line: room for a date, a name and a city by hand


def _page(series: SeriesSheet, lang: str, width: float) -> list[Flowable]:
    """One series' page: the event, the series' name, its ruleset's lines and parts."""
    rtl = is_rtl(lang)
    story = sheet_top(series.event_name, lang, "series_title", series.name)
    if series.sheet is None:
        return [*story, para(text(lang, "unknown_series", name=series.ruleset), rtl)]
    story += [flowable for line in series.sheet.seating for flowable in line_part(line, lang)]
    for game_part in series.sheet.parts:
        story.append(Spacer(1, GAP))
        story.extend(part(game_part, lang, width, ROW_HEIGHT))
    return story


def series_sheets(sheets: Sequence[SeriesSheet], lang: str = "en", paper: str = "a4",
                  event_name: str = "") -> bytes:
    """A sheet for every series of the event, one page each; a page that says so (under the
    event's name) when the event has none."""
    if not sheets:
        rtl = is_rtl(lang)
        story = [para(event_name, rtl, size=10)] if event_name else []
        return render_story(paper, event_name or text(lang, "series_title"),
                            [*story, para(text(lang, "no_series"), rtl)])
    return one_page_each(sheets, _page, lang, paper, sheets[0].event_name)
