"""Canvases and documents set up the same way everywhere: fonts registered, output repeatable."""

from __future__ import annotations

import io
from collections.abc import Callable
from contextvars import ContextVar

from reportlab.pdfgen.canvas import Canvas

from companion.printing.fonts import register_fonts

# Who hears how far a printout has come: (what, done, total or None), set by `companion print`
# (a thousand join cards take about a minute on a loaded laptop). Unset: nobody.
PROGRESS: ContextVar[Callable[[str, int, int | None], None] | None] = ContextVar(
    "companion_print_progress", default=None)


def report(what: str, done: int, total: int | None = None) -> None:
    """Tell PROGRESS's listener, if any, that `done` of `total` `what` are laid out."""
    listener = PROGRESS.get()
    if listener is not None:
        listener(what, done, total)


def render(pagesize: tuple[float, float], title: str, draw: Callable[[Canvas], None],
           count_pages: bool = True) -> bytes:
    """Run `draw` on a fresh canvas; invariant=1 makes equal input give equal bytes. Each page
    finished is reported (`report`) unless `count_pages` is off (the drawer counts its own)."""
    register_fonts()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=pagesize, invariant=1, pageCompression=1)
    if count_pages and PROGRESS.get() is not None:
        show_page = canvas.showPage

        def show_and_report() -> None:
            show_page()
            report("pages", canvas.getPageNumber() - 1)

        canvas.showPage = show_and_report  # type: ignore[method-assign]
    canvas.setTitle(title)
    canvas.setCreator("companion")
    draw(canvas)
    canvas.save()
    return buffer.getvalue()
