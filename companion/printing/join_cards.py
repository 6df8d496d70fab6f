"""Join cards: one business card per seat with its QR, on Avery card sheets with cut marks."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from companion.printing import qr
from companion.printing.cutmarks import draw_cut_marks
from companion.printing.fonts import BOLD, MONO_BOLD, REGULAR
from companion.printing.i18n import is_rtl, role_word, text
from companion.printing.layouts import CardGrid, Rect, card_grid
from companion.printing.model import SeatCard, Wifi
from companion.printing.pdf import render, report
from companion.printing.textfit import draw_block

PAD = 3.5 * mm  # inner margin of the text
QR_INSET = 2 * mm  # from the card's top and side edges to the QR's quiet zone
QR_BOX = 36 * mm  # the QR with its quiet zone; the symbol alone is at least 22 mm
HINT_Y = 13.5 * mm
LABEL_Y = 9.6 * mm
URL_Y = 3.8 * mm
NAME_SIZE = 18  # the player's name leads the card
TABLE_SIZE = 13  # then the table, where the player goes
TABLE_ONE_LINE = 9  # a table's name fits one line at this size or more: it is kept whole
SMALL_SIZE = 7.5  # the seat number and the event
LEADING = 1.18  # a line's height per point of type (textfit.draw_block)
HEAD_SIZE = 9  # the short URL's address
CODE_SIZE = 15  # its join code: capitals about 4 mm high, typed one by one
CODE_TAIL = 12  # the longest tail after the last slash drawn as a code (K7M3-QX9A is 9)


def qr_box(card: Rect, rtl: bool) -> Rect:
    """Where the QR goes on a card: the top corner at the end of the reading direction."""
    x = card.x + QR_INSET if rtl else card.x + card.w - QR_INSET - QR_BOX
    return Rect(x, card.y + card.h - QR_INSET - QR_BOX, QR_BOX, QR_BOX)


def text_column(card: Rect, rtl: bool) -> tuple[float, float]:
    """Left and right x of the text beside the QR."""
    if rtl:
        return card.x + QR_INSET + QR_BOX + 1 * mm, card.x + card.w - PAD
    return card.x + PAD, card.x + card.w - QR_INSET - QR_BOX - 1 * mm


def draw_seat_card(c: Canvas, card: Rect, seat: SeatCard, lang: str) -> None:
    """One seat's card: the player's name and the table lead, big; the seat number and the
    event below them, small; the QR and the short URL to type."""
    rtl = is_rtl(lang)
    box = qr_box(card, rtl)
    qr.draw(c, seat.join_url, box.x, box.y, box.w)
    x0, x1 = text_column(card, rtl)
    c.setFillColorRGB(0, 0, 0)
    top = card.y + card.h - PAD
    if seat.player_name:
        top = draw_block(c, seat.player_name, (x0, x1, top), (BOLD, NAME_SIZE, 2), rtl)
    else:  # room to write the name in by hand above the line
        blank = f"{text(lang, 'name_blank')} ____________"
        top = draw_block(c, blank, (x0, x1, top - 4 * mm), (REGULAR, 9, 1), rtl)
    floor = card.y + HINT_Y + 6.5 + 1 * mm  # the lowest the text may reach, above the hint
    small = 2 * SMALL_SIZE * LEADING + 1.6 * mm  # the seat's line and the event's first
    lines = 1 if stringWidth(seat.table_name, BOLD, TABLE_ONE_LINE) <= x1 - x0 else (
        fitting_lines(top - 1.5 * mm - small - floor, TABLE_SIZE, 2))
    top = draw_block(c, seat.table_name, (x0, x1, top - 1.5 * mm), (BOLD, TABLE_SIZE, lines), rtl)
    seat_line = f"{text(lang, 'seat')} {seat.seat_number}"
    if seat.role:  # the seat's part: Catan's team, which the hall screen calls every turn
        seat_line = f"{seat_line} · {role_word(lang, seat.role)}"
    top = draw_block(c, seat_line, (x0, x1, top - 1.2 * mm), (REGULAR, SMALL_SIZE, 1), rtl)
    c.setFillColorRGB(0.3, 0.3, 0.3)
    lines = fitting_lines(top - 0.4 * mm - floor, SMALL_SIZE, 2)
    draw_block(c, seat.event_name, (x0, x1, top - 0.4 * mm), (REGULAR, SMALL_SIZE, lines), rtl)
    c.setFillColorRGB(0, 0, 0)
    hint = text(lang, "scan_to_join")
    draw_block(c, hint, (x0, x1, card.y + HINT_Y + 6.5), (REGULAR, 6.5, 1), rtl)
    _draw_short_url(c, card, seat.short_url, lang)


def fitting_lines(room: float, size: float, most: int) -> int:
    """How many lines of `size` fit in `room` points of height, from 1 to `most`."""
    return max(1, min(most, int(room // (size * LEADING))))


def _draw_short_url(c: Canvas, card: Rect, url: str, lang: str) -> None:
    """The short URL across the bottom of the card, for phones that cannot scan: the address
    in small type, then the join code after its last slash big, in even mono cells."""
    rtl = is_rtl(lang)
    x0, x1 = card.x + PAD, card.x + card.w - PAD
    c.setFillColorRGB(0.3, 0.3, 0.3)
    draw_block(c, text(lang, "or_type"), (x0, x1, card.y + LABEL_Y + 6.5), (REGULAR, 6.5, 1), rtl)
    c.setFillColorRGB(0, 0, 0)
    head, slash, code = url.rpartition("/")
    sizes = url_sizes(head + slash, code, x1 - x0)
    if sizes is None:  # no short code after the slash: the whole URL, as small as it must be
        draw_block(c, url, (x0, x1, card.y + URL_Y + 9), (BOLD, 9, 1), rtl, base="L")
        return
    head_size, code_size = sizes
    width = stringWidth(head + slash, REGULAR, head_size) + stringWidth(code, MONO_BOLD, code_size)
    line = c.beginText(x1 - width if rtl else x0, card.y + URL_Y)  # one run: pypdf reads it whole
    line.setFont(REGULAR, head_size)
    line.textOut(head + slash)
    line.setFont(MONO_BOLD, code_size)
    line.textOut(code)
    c.drawText(line)


def url_sizes(head: str, code: str, width: float) -> tuple[float, float] | None:
    """Type sizes of a short URL's address and code that fit `width` (both scaled down
    together), or None when the tail is no code (empty or long) or the address would come
    out smaller than 6 pt."""
    if not code or len(code) > CODE_TAIL:
        return None
    full = stringWidth(head, REGULAR, HEAD_SIZE) + stringWidth(code, MONO_BOLD, CODE_SIZE)
    scale = min(1.0, width / full)
    if HEAD_SIZE * scale < 6:
        return None
    return HEAD_SIZE * scale, CODE_SIZE * scale


def draw_wifi_card(c: Canvas, card: Rect, wifi: Wifi, lang: str) -> None:
    """The sheet's Wi-Fi card: a QR that joins the hall network, with name and password."""
    rtl = is_rtl(lang)
    box = qr_box(card, rtl)
    qr.draw(c, qr.wifi_payload(wifi), box.x, box.y, box.w, level="M")
    x0, x1 = text_column(card, rtl)
    c.setFillColorRGB(0, 0, 0)
    top = draw_block(c, text(lang, "wifi"), (x0, x1, card.y + card.h - PAD), (BOLD, 18, 1), rtl)
    top = draw_block(c, text(lang, "wifi_hint"), (x0, x1, top - 1 * mm), (REGULAR, 7, 2), rtl)
    for key, value in (("network", wifi.ssid), ("password", wifi.password)):
        top = draw_block(c, text(lang, key), (x0, x1, top - 1.5 * mm), (REGULAR, 7, 1), rtl)
        top = draw_block(c, value, (x0, x1, top), (BOLD, 10, 2), rtl, base="L")


def pages(cards: Sequence[SeatCard], grid: CardGrid, wifi: Wifi | None) -> list[list[SeatCard]]:
    """Seats split into sheets; a Wi-Fi card takes the last place of every sheet."""
    per_page = grid.per_page - (1 if wifi else 0)
    return [list(cards[i : i + per_page]) for i in range(0, len(cards), per_page)]


def join_cards(
    cards: Sequence[SeatCard], paper: str = "a4", lang: str = "en", wifi: Wifi | None = None
) -> bytes:
    """Join cards for every seat on business-card sheets (A4: Avery C32011, Letter: 5371)."""
    grid = card_grid(paper)
    text(lang, "seat")  # refuse an unknown language before drawing anything
    title = cards[0].event_name if cards else text(lang, "join_cards_title")

    def draw(c: Canvas) -> None:
        done = 0
        for sheet in pages(cards, grid, wifi) or [[]]:
            draw_cut_marks(c, grid)
            for seat, slot in zip(sheet, grid.cards, strict=False):
                draw_seat_card(c, slot, seat, lang)
            if wifi:
                draw_wifi_card(c, grid.cards[-1], wifi, lang)
            c.showPage()
            done += len(sheet)
            report("join cards", done, len(cards))

    return render(grid.page, title, draw, count_pages=False)
