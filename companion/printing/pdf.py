"""Canvases and documents set up the same way everywhere: fonts registered, output repeatable."""

from __future__ import annotations

import io
from collections.abc import Callable

from reportlab.pdfgen.canvas import Canvas

from companion.printing.fonts import register_fonts


def render(pagesize: tuple[float, float], title: str, draw: Callable[[Canvas], None]) -> bytes:
    """Run `draw` on a fresh canvas; invariant=1 makes equal input give equal bytes."""
    register_fonts()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=pagesize, invariant=1, pageCompression=1)
    canvas.setTitle(title)
    canvas.setCreator("companion")
    draw(canvas)
    canvas.save()
    return buffer.getvalue()
