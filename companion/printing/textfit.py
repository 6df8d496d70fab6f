"""Lines of text that fit a width, in logical order, then drawn in visual (bidi) order.

Hebrew is wrapped while still in logical order and only then reordered line by line with
python-bidi, so a line break never splits a reordered run.
"""

from __future__ import annotations

import unicodedata

from bidi.algorithm import get_display
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

ELLIPSIS = "…"


def base_direction(text: str) -> str:
    """The paragraph direction of `text`: that of its first strong character, else L."""
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in ("R", "AL"):
            return "R"
        if kind == "L":
            return "L"
    return "L"


def embed(name: str) -> str:
    """A name set inside a label, kept in its own direction (LRE or RLE ... PDF): without it the
    closing bracket of "Table 1 (hall roll)" in a Hebrew label is drawn at the far left."""
    opening = "\u202b" if base_direction(name) == "R" else "\u202a"
    return f"{opening}{name}\u202c"  # zero width in DejaVu; get_display drops them


def visual(line: str, base: str) -> str:
    """One logical line in the order its glyphs are drawn left to right; base is R or L."""
    return str(get_display(line, base_dir=base))


def _split_word(word: str, font: str, size: float, width: float) -> list[str]:
    """Break a word wider than `width` into pieces that fit (long URLs, long names)."""
    pieces, piece = [], ""
    for char in word:
        if piece and stringWidth(piece + char, font, size) > width:
            pieces.append(piece)
            piece = char
        else:
            piece += char
    return [*pieces, piece] if piece else pieces


def _words_fit(text: str, font: str, size: float, width: float) -> bool:
    """True when no single word is wider than `width`."""
    return all(stringWidth(word, font, size) <= width for word in text.split())


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap of logical text; words that are too long are broken."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if stringWidth(candidate, font, size) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        pieces = _split_word(word, font, size, width)
        lines.extend(pieces[:-1])
        line = pieces[-1] if pieces else ""
    return [*lines, line] if line else lines


def _truncate(line: str, font: str, size: float, width: float) -> str:
    """Shorten a line with an ellipsis until it fits `width`."""
    while line and stringWidth(line + ELLIPSIS, font, size) > width:
        line = line[:-1]
    return line.rstrip() + ELLIPSIS


def fit(
    text: str, font: str, size: float, width: float, max_lines: int = 1, min_size: float = 6
) -> tuple[float, list[str]]:
    """The largest size (down to `min_size`) at which `text` fits in `max_lines` lines."""
    current = size
    while True:
        lines = wrap(text, font, current, width)
        whole_words = _words_fit(text, font, current, width) or current <= min_size
        if len(lines) <= max_lines and whole_words:
            return current, lines
        if current <= min_size:
            kept = lines[:max_lines]
            kept[-1] = _truncate(" ".join(lines[max_lines - 1 :]), font, current, width)
            return current, kept
        current = max(min_size, current - 0.5)


def draw_line(
    c: Canvas, line: str, span: tuple[float, float, float], rtl: bool, align: str, base: str
) -> None:
    """Draw one logical line on span (x0, x1, y): at the start edge, the end edge or centred."""
    x0, x1, y = span
    shown = visual(line, base)
    at_right = (align == "start") == rtl
    if align == "center":
        c.drawCentredString((x0 + x1) / 2, y, shown)
    elif at_right:
        c.drawRightString(x1, y, shown)
    else:
        c.drawString(x0, y, shown)


def draw_block(
    c: Canvas,
    text: str,
    box: tuple[float, float, float],
    style: tuple[str, float, int],
    rtl: bool,
    align: str = "start",
    base: str | None = None,
) -> float:
    """Fit `text` into box (x0, x1, top) with style (font, size, max_lines); returns new top.

    `rtl` mirrors the alignment (the page's direction); `base` is the text's own direction,
    taken from its first strong character unless given (URLs are always L).
    """
    x0, x1, top = box
    font, size, max_lines = style
    size, lines = fit(text, font, size, x1 - x0, max_lines, min_size=min(size, 6))
    c.setFont(font, size)
    leading = size * 1.18
    direction = base or base_direction(text)
    for line in lines:
        top -= size
        draw_line(c, line, (x0, x1, top), rtl, align, direction)
        top -= leading - size
    return top
