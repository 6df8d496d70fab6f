"""Result sheets: a table's places and its ruleset's figures (landmarks and coins in Machi Koro),
signed by every player.

A sheet printed before the end says so: mid-game it is titled "Scores so far" and carries a
boxed "in progress" notice with the time it was printed; before the start it is the form to
fill in by hand, with a line saying when it was printed."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from companion.printing.flow import banner, heading, one_page_each, para, shares, table
from companion.printing.i18n import is_rtl, text
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


def _scores(row: ResultRow, count: int) -> list[str]:
    """A row's figures in the sheet's `count` columns, blank where it has none."""
    return [_blank(value) for value in (*row.scores, *[None] * count)[:count]]


def _result_page(result: TableResult, lang: str, width: float) -> list[Flowable]:
    """One table's result: a header and the ruled table with a signature box per player, the
    ruleset's columns between the player and the signature."""
    rtl = is_rtl(lang)
    columns = (PLACE, PLAYER, *result.columns, SIGNATURE)
    header = [text(lang, column.key) for column in columns]
    rows = [[_blank(r.place), r.player_name, *_scores(r, len(result.columns)), ""]
            for r in result.rows]
    title = "results_in_play_title" if result.status == PLAYING else "results_title"
    story: list[Flowable] = []
    if result.event_name:
        story.append(para(result.event_name, rtl))
    story += [
        heading(f"{text(lang, title)}: {embed(result.table_name)}", rtl, 18),
        *_status_part(result, lang, width),
        table(header, rows, shares(columns, width), rtl, row_height=SIGNATURE_ROW, size=10),
    ]
    return story


def score_sheets(results: Sequence[TableResult], lang: str = "en", paper: str = "a4") -> bytes:
    """A result sheet for every table, one page each."""
    title = results[0].event_name if results else ""
    return one_page_each(results, _result_page, lang, paper, title or text(lang, "results_title"))
