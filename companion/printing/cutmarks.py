"""Cut marks around a card grid, drawn only where no card is, so none shows on a card."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from companion.printing.layouts import CardGrid

OFFSET = 1 * mm  # gap between a card's edge and its mark
LENGTH = 4 * mm


def _free(spans: list[tuple[float, float]], end: float) -> list[tuple[float, float]]:
    """The stretches of [0, end] that no span covers."""
    free, at = [], 0.0
    for a, b in sorted(spans):
        if a > at + 0.01:
            free.append((at, a))
        at = max(at, b)
    if end > at + 0.01:
        free.append((at, end))
    return free


def _ticks(free: list[tuple[float, float]], edges: set[float]) -> list[tuple[float, float]]:
    """Short ticks inside each free stretch, pointing away from the card edges beside it."""
    ticks = []
    for a, b in free:
        room = min(LENGTH, (b - a) / 2 - 1.5 * OFFSET)
        if room < 1 * mm:
            continue
        if any(abs(a - e) < 0.01 for e in edges):
            ticks.append((a + OFFSET, a + OFFSET + room))
        if any(abs(b - e) < 0.01 for e in edges):
            ticks.append((b - OFFSET - room, b - OFFSET))
    return ticks


def draw_cut_marks(c: Canvas, grid: CardGrid) -> None:
    """Grey hairlines on every card edge line, in the margins and gaps between cards."""
    page_w, page_h = grid.page
    xs = {v for r in grid.cards for v in (r.x, r.x + r.w)}
    ys = {v for r in grid.cards for v in (r.y, r.y + r.h)}
    free_x = _free([(r.x, r.x + r.w) for r in grid.cards], page_w)
    free_y = _free([(r.y, r.y + r.h) for r in grid.cards], page_h)
    c.saveState()
    c.setStrokeColorRGB(0.45, 0.45, 0.45)
    c.setLineWidth(0.3)
    for y in sorted(ys):
        for x0, x1 in _ticks(free_x, xs):
            c.line(x0, y, x1, y)
    for x in sorted(xs):
        for y0, y1 in _ticks(free_y, ys):
            c.line(x, y0, x, y1)
    c.restoreState()
