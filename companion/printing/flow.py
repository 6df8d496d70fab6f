"""Platypus pieces that know about right-to-left: a bidi paragraph, mirrored tables, documents."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import TypeAlias, TypeVar

from reportlab.lib import colors
from reportlab.platypus import Flowable, PageBreak, SimpleDocTemplate, Spacer, Table, TableStyle

from companion.printing.fonts import BOLD, REGULAR, register_fonts
from companion.printing.layouts import page_spec
from companion.printing.model import Column
from companion.printing.textfit import base_direction, draw_line, wrap

Cell: TypeAlias = str | Flowable


class BidiParagraph(Flowable):  # type: ignore[misc]  # reportlab has no type stubs
    """Text wrapped in logical order, then each line reordered with bidi and aligned.

    reportlab's Paragraph cannot reorder Hebrew without rlbidi, so we do it ourselves.
    """

    def __init__(
        self, text: str, font: str = REGULAR, size: float = 10, rtl: bool = False,
        align: str = "start", space_after: float = 0,
    ) -> None:
        super().__init__()
        self.text, self.font, self.size, self.rtl, self.align = text, font, size, rtl, align
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
        base = base_direction(self.text)
        for i, line in enumerate(self.lines):
            y = self.height - (i + 1) * self.leading + (self.leading - self.size) / 2 + 1
            draw_line(self.canv, line, (0, self.width, y), self.rtl, self.align, base)


def para(text: str, rtl: bool, size: float = 10, bold: bool = False, after: float = 0) -> Flowable:
    """A paragraph in the page's direction."""
    return BidiParagraph(text, BOLD if bold else REGULAR, size, rtl, space_after=after)


def heading(text: str, rtl: bool, size: float = 14) -> Flowable:
    """A bold heading with a little room below."""
    return BidiParagraph(text, BOLD, size, rtl, space_after=size * 0.4)


def table(
    header: Sequence[str], rows: Sequence[Sequence[Cell]], widths: Sequence[float], rtl: bool,
    row_height: float | None = None, size: float = 10,
) -> Table:
    """A ruled table with a bold header; in right-to-left pages the columns run right to left."""
    def cell(value: Cell, bold: bool = False) -> Flowable:
        if isinstance(value, Flowable):
            return value
        return BidiParagraph(value, BOLD if bold else REGULAR, size, rtl)

    data = [[cell(v, bold=True) for v in header], *[[cell(v) for v in row] for row in rows]]
    widths = list(widths)
    if rtl:
        data = [list(reversed(row)) for row in data]
        widths.reverse()
    heights = [None, *([row_height] * len(rows))]
    grid = Table(data, colWidths=widths, rowHeights=heights, repeatRows=1)
    grid.setStyle(TableStyle([
        ("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
        ("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.9, 0.9, 0.9)),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
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
    doc.build(story)
    return buffer.getvalue()


Item = TypeVar("Item")


def one_page_each(
    items: Sequence[Item], draw_page: Callable[[Item, str, float], list[Flowable]],
    lang: str, paper: str, title: str,
) -> bytes:
    """A document with one page per item (a table's setup or result sheet)."""
    spec = page_spec(paper)
    width = spec.page[0] - 2 * spec.margin
    story: list[Flowable] = []
    for i, item in enumerate(items):
        if i:
            story.append(PageBreak())
        story.extend(draw_page(item, lang, width))
    return render_story(paper, title, story or [Spacer(1, 1)])
