"""Platypus pieces that know about right-to-left: a bidi paragraph, mirrored tables, documents."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import TypeAlias, TypeVar

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    Flowable,
    KeepInFrame,
    PageBreak,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from companion.printing import i18n
from companion.printing.fonts import BOLD, REGULAR, register_fonts
from companion.printing.layouts import page_spec
from companion.printing.model import Column
from companion.printing.pdf import report
from companion.printing.textfit import base_direction, draw_line, embed, wrap

Cell: TypeAlias = str | Flowable | list[Flowable]  # a list: flowables stacked in one cell
FRAME_PADDING = 6  # points: what SimpleDocTemplate's frame keeps free inside its margins


class BidiParagraph(Flowable):  # type: ignore[misc]  # reportlab has no type stubs
    """Text wrapped in logical order, then each line reordered with bidi and aligned.

    reportlab's Paragraph cannot reorder Hebrew without rlbidi, so we do it ourselves.
    """

    def __init__(
        self, text: str, font: str = REGULAR, size: float = 10, rtl: bool = False,
        align: str = "start", space_after: float = 0, base: str | None = None,
    ) -> None:
        super().__init__()
        self.text, self.font, self.size, self.rtl, self.align = text, font, size, rtl, align
        self.base = base  # the paragraph's direction, L or R; None: its first strong character's
        self.leading = size * 1.25
        self.spaceAfter = space_after
        self.lines: list[str] = []

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        """Break the text for this width; Platypus calls it before drawing."""
        self.width = availWidth
        self.lines = wrap(self.text, self.font, self.size, availWidth) or [""]
        self.height = len(self.lines) * self.leading
        return availWidth, self.height

    def draw(self) -> None:
        """Draw the lines top down, in visual order."""
        self.canv.setFont(self.font, self.size)
        base = self.base or base_direction(self.text)
        for i, line in enumerate(self.lines):
            y = self.height - (i + 1) * self.leading + (self.leading - self.size) / 2 + 1
            draw_line(self.canv, line, (0, self.width, y), self.rtl, self.align, base)


def para(text: str, rtl: bool, size: float = 10, bold: bool = False, after: float = 0,
         base: str | None = None) -> Flowable:
    """A paragraph in the page's direction; `base`: its text's direction (L or R) when its
    first strong character would say otherwise (a line that starts with a name)."""
    return BidiParagraph(text, BOLD if bold else REGULAR, size, rtl, space_after=after, base=base)


def heading(text: str, rtl: bool, size: float = 14) -> Flowable:
    """A bold heading with a little room below."""
    return BidiParagraph(text, BOLD, size, rtl, space_after=size * 0.4)


def sheet_top(event_name: str, lang: str, title: str, name: str) -> list[Flowable]:
    """A sheet's top: the event's name (when there is one), then the sheet's kind (`title`, a
    key of the printed texts) and the name of what it is for (a table, a series), large."""
    rtl = i18n.is_rtl(lang)
    top = [para(event_name, rtl)] if event_name else []
    return [*top, heading(f"{i18n.text(lang, title)}: {embed(name)}", rtl, 18)]


PADDING = 6  # points: reportlab's padding on each side of a cell's text
NARROW_PADDING = 3  # in a narrow column (a figure of many)
NARROW = 15 * mm
SMALLEST_HEAD = 6.5  # a header shrinks to this size at most for its longest word to fit


def head_size(text: str, size: float, room: float) -> float:
    """The size at which a header's longest word fits `room` in bold (down to SMALLEST_HEAD;
    below it the word breaks), so "Settlements" over a narrow column is not cut in two."""
    register_fonts()  # measured before the document registers them
    widest = max((stringWidth(word, BOLD, size) for word in text.split()), default=0.0)
    return size if widest <= room else max(SMALLEST_HEAD, 0.95 * size * room / widest)


def table(
    header: Sequence[Cell], rows: Sequence[Sequence[Cell]], widths: Sequence[float], rtl: bool,
    row_height: float | Sequence[float | None] | None = None, size: float = 10,
) -> Table:
    """A ruled table with a bold header; in right-to-left pages the columns run right to left.
    `row_height`: every row's, or each row's (None: as its text needs). Narrow columns keep
    less padding, and a header whose word is too wide for its column sets the header smaller."""
    widths = list(widths)
    pads = [NARROW_PADDING if width < NARROW else PADDING for width in widths]

    def cell(value: Cell, font: str = REGULAR, shown: float = size) -> Flowable | list[Flowable]:
        if not isinstance(value, str):
            return value
        return BidiParagraph(value, font, shown, rtl)

    heads = min((head_size(v, size, w - 2 * pad) for v, w, pad in zip(header, widths, pads,
                                                                      strict=True)
                 if isinstance(v, str)), default=size)  # one size across the header
    data = [[cell(v, BOLD, heads) for v in header], *[[cell(v) for v in row] for row in rows]]
    if rtl:
        data = [list(reversed(row)) for row in data]
        widths.reverse()
        pads.reverse()
    heights = [None, *(row_height if isinstance(row_height, Sequence)
                       else [row_height] * len(rows))]
    grid = Table(data, colWidths=widths, rowHeights=heights, repeatRows=1,
                 hAlign="RIGHT" if rtl else "LEFT")  # at the start edge, also on a shrunk page
    grid.setStyle(TableStyle([
        ("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
        ("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.9, 0.9, 0.9)),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        *[(side, (n, 0), (n, -1), pad) for n, pad in enumerate(pads) if pad != PADDING
          for side in ("LEFTPADDING", "RIGHTPADDING")],
    ]))
    return grid


def shares(columns: Sequence[Column], width: float) -> list[float]:
    """Columns' widths: their shares of a row, scaled to fill `width`."""
    total = sum(column.width for column in columns) or 1.0
    return [column.width / total * width for column in columns]


def banner(lines: Sequence[tuple[str, bool]], rtl: bool, width: float) -> Table:
    """A boxed notice across the frame, (text, bold) lines in it: a thick dark border and a light
    tint that print plainly in black and white (a sheet printed before the end says so)."""
    cells = [BidiParagraph(line, BOLD if bold else REGULAR, 12 if bold else 10, rtl,
                           space_after=2) for line, bold in lines]
    box = Table([[cells]], colWidths=[width])
    box.setStyle(TableStyle([
        ("BOX", (0, 0), (-1, -1), 2, colors.black),
        ("BACKGROUND", (0, 0), (-1, -1), colors.Color(0.88, 0.88, 0.88)),
        ("TOPPADDING", (0, 0), (-1, -1), 6),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 6),
        ("LEFTPADDING", (0, 0), (-1, -1), 8),
        ("RIGHTPADDING", (0, 0), (-1, -1), 8),
    ]))
    return box


def render_story(paper: str, title: str, story: list[Flowable]) -> bytes:
    """Lay out `story` on `paper` pages; invariant=1 makes equal input give equal bytes."""
    register_fonts()
    spec = page_spec(paper)
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer, pagesize=spec.page, leftMargin=spec.margin, rightMargin=spec.margin,
        topMargin=spec.margin, bottomMargin=spec.margin, title=title, creator="companion",
        invariant=1,
    )
    doc.afterPage = lambda: report("pages", doc.page)  # `companion print` shows how far it is
    doc.build(story)
    return buffer.getvalue()


Item = TypeVar("Item")


def one_page_each(
    items: Sequence[Item], draw_page: Callable[[Item, str, float], list[Flowable]],
    lang: str, paper: str, title: str,
) -> bytes:
    """A document with one page per item (a table's setup or result sheet): a page that would
    run over is set a little smaller to fit (a long ruleset's sheet on Letter, in Dutch)."""
    spec = page_spec(paper)
    width = spec.page[0] - 2 * spec.margin
    height = spec.page[1] - 2 * spec.margin - 2 * FRAME_PADDING
    story: list[Flowable] = []
    for i, item in enumerate(items):
        if i:
            story.append(PageBreak())
        story.append(KeepInFrame(width, height, draw_page(item, lang, width), mode="shrink"))
    return render_story(paper, title, story or [Spacer(1, 1)])
