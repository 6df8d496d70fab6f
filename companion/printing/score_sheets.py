"""Result sheets: a Machi Koro table's places, landmarks and coins, signed by every player.

A sheet printed before the end says so: mid-game it is titled "Scores so far" and carries a
boxed "in progress" notice with the time it was printed; before the start it is the form to
fill in by hand, with a line saying when it was printed."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from companion.printing.flow import banner, heading, one_page_each, para, table
from companion.printing.i18n import is_rtl, text
from companion.printing.model import NOT_STARTED, PLAYING, TableResult
from companion.printing.textfit import embed

SIGNATURE_ROW = 13 * mm  # room to sign by hand


def _blank(value: int | None) -> str:
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


def _result_page(result: TableResult, lang: str, width: float) -> list[Flowable]:
    """One table's result: a header and the ruled table with a signature box per player."""
    rtl = is_rtl(lang)
    keys = ("place", "player", "landmarks_built", "coins", "signature")
    header = [text(lang, k) for k in keys]
    rows = [
        [_blank(r.place), r.player_name, _blank(r.landmarks_built), _blank(r.coins), ""]
        for r in result.rows
    ]
    widths = [f * width for f in (0.1, 0.3, 0.16, 0.12, 0.32)]
    title = "results_in_play_title" if result.status == PLAYING else "results_title"
    story: list[Flowable] = []
    if result.event_name:
        story.append(para(result.event_name, rtl))
    story += [
        heading(f"{text(lang, title)}: {embed(result.table_name)}", rtl, 18),
        *_status_part(result, lang, width),
        table(header, rows, widths, rtl, row_height=SIGNATURE_ROW, size=10),
    ]
    return story


def score_sheets(results: Sequence[TableResult], lang: str = "en", paper: str = "a4") -> bytes:
    """A result sheet for every table, one page each."""
    title = results[0].event_name if results else ""
    return one_page_each(results, _result_page, lang, paper, title or text(lang, "results_title"))
