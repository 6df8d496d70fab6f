"""The wall poster: a big QR of the general join page and a smaller one of the hall screen."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from companion.printing import qr
from companion.printing.fonts import BOLD, REGULAR
from companion.printing.i18n import is_rtl, text
from companion.printing.layouts import PageSpec, page_spec
from companion.printing.model import Poster, Wifi
from companion.printing.pdf import render
from companion.printing.textfit import draw_block

A4_WIDTH = 210 * mm  # sizes below are for A4 and scale with the page width
JOIN_BOX = 110 * mm
SMALL_BOX = 55 * mm


def _labelled_qr(
    c: Canvas, data: str, at: tuple[float, float, float], labels: tuple[str, str], rtl: bool,
    level: str = "Q",
) -> None:
    """A QR box at (centre x, top, box) with a label above it and its text below."""
    centre, top, box = at
    scale = box / SMALL_BOX
    x0, x1 = centre - box / 2, centre + box / 2
    top = draw_block(c, labels[0], (x0, x1, top), (BOLD, 14 * scale, 2), rtl, "center")
    qr.draw(c, data, x0, top - box, box, level)
    draw_block(c, labels[1], (x0, x1, top - box), (REGULAR, 12 * scale, 2), rtl, "center", "L")


def _draw(c: Canvas, poster: Poster, spec: PageSpec, lang: str, wifi: Wifi | None) -> None:
    """Title, the join QR with its URL, then the hall screen (and Wi-Fi) QR below."""
    rtl = is_rtl(lang)
    width, height = spec.page
    s = width / A4_WIDTH
    x0, x1 = spec.margin, width - spec.margin
    top = draw_block(c, poster.event_name, (x0, x1, height - spec.margin), (BOLD, 30 * s, 2),
                     rtl, "center")
    top = draw_block(c, text(lang, "poster_join"), (x0, x1, top - 4 * s * mm),
                     (BOLD, 22 * s, 1), rtl, "center")
    box = JOIN_BOX * s
    qr.draw(c, poster.join_url, (width - box) / 2, top - box, box)
    draw_block(c, poster.join_url, (x0, x1, top - box), (BOLD, 16 * s, 2), rtl, "center", "L")
    small = SMALL_BOX * s
    bottom_top = spec.margin + small + 30 * s * mm
    hall = (text(lang, "poster_hall"), poster.hall_url)
    if wifi is None:
        _labelled_qr(c, poster.hall_url, (width / 2, bottom_top, small), hall, rtl)
        return
    first, second = (width * 0.7, width * 0.3) if rtl else (width * 0.3, width * 0.7)
    _labelled_qr(c, poster.hall_url, (first, bottom_top, small), hall, rtl)
    wifi_labels = (text(lang, "wifi"), wifi.ssid)
    _labelled_qr(c, qr.wifi_payload(wifi), (second, bottom_top, small), wifi_labels, rtl, "M")


def poster(poster: Poster, paper: str = "a4", lang: str = "en", wifi: Wifi | None = None) -> bytes:
    """A one-page poster for the hall wall (a4, a3 or letter)."""
    spec = page_spec(paper)
    text(lang, "poster_join")  # refuse an unknown language before drawing anything
    return render(spec.page, poster.event_name, lambda c: _draw(c, poster, spec, lang, wifi))
