"""Printing pieces checked without rasterising: geometry from the layouts, QR sizes, bidi."""

from __future__ import annotations

import io
import string

import pytest
from bidi.algorithm import get_display
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader
from reportlab.lib.units import inch, mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import PDFTextObject

from companion.hall.printables import table_sheet
from companion.printing import join_cards, poster, score_sheets, setup_sheets, standings
from companion.printing.bench import bench_join_cards
from companion.printing.cutmarks import draw_cut_marks
from companion.printing.fonts import BOLD, MONO_BOLD, REGULAR, register_fonts
from companion.printing.i18n import STRINGS, text
from companion.printing.join_cards import CODE_SIZE, HEAD_SIZE, QR_BOX, qr_box, text_column, url_sizes
from companion.printing.layouts import Rect, card_grid, card_papers, page_papers, page_spec
from companion.printing.model import (
    Column,
    GameSetup,
    Grid,
    Line,
    Name,
    Part,
    Poster,
    SeatCard,
    Standing,
    TableSheet,
    Wifi,
)
from companion.printing.qr import MIN_SYMBOL, QUIET_ZONE, matrix, symbol_size, wifi_payload
from companion.printing.textfit import fit
from companion.rules.machi_koro.catalog import load_catalog

TOKEN_URL = "http://192.168.178.20:5000/j/kq7LmP2vR9sT4wY8zAbC3d"
LONG_URL = "http://companion-hall-server.local:5000/join/" + "x" * 43  # a 128-bit token, hex


def approx(a: float, b: float) -> bool:
    """Equal to a hundredth of a point."""
    return abs(a - b) < 0.01


def test_printing_a4_grid_is_avery_c32011() -> None:
    grid = card_grid("a4")
    assert grid.per_page == 10 and approx(grid.page[0], 210 * mm)
    first, second, third = grid.cards[:3]
    assert approx(first.x, 15 * mm) and approx(grid.page[1] - first.y - first.h, 13.5 * mm)
    assert approx(first.w, 85 * mm) and approx(first.h, 54 * mm)
    assert approx(second.x - first.x, 95 * mm) and approx(first.y - third.y, 54 * mm)


def test_printing_letter_grid_is_avery_5371() -> None:
    grid = card_grid("letter")
    first, second, third = grid.cards[:3]
    assert approx(first.x, 0.75 * inch) and approx(grid.page[1] - first.y - first.h, 0.5 * inch)
    assert approx(first.w, 3.5 * inch) and approx(first.h, 2 * inch)
    assert approx(second.x, first.x + first.w) and approx(third.y + third.h, first.y)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_printing_cards_lie_on_the_page_apart(paper: str) -> None:
    grid = card_grid(paper)
    for i, a in enumerate(grid.cards):
        assert a.x >= 0 and a.y >= 0 and a.x + a.w <= grid.page[0] and a.y + a.h <= grid.page[1]
        for b in grid.cards[i + 1:]:
            overlap_x = min(a.x + a.w, b.x + b.w) - max(a.x, b.x)
            overlap_y = min(a.y + a.h, b.y + b.h) - max(a.y, b.y)
            assert overlap_x <= 0.01 or overlap_y <= 0.01


@pytest.mark.parametrize("url", [TOKEN_URL, LONG_URL])
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("rtl", [False, True])
def test_printing_card_qr_is_big_enough_and_on_the_card(url: str, paper: str, rtl: bool) -> None:
    for card in card_grid(paper).cards:
        box = qr_box(card, rtl)
        assert card.x <= box.x and box.x + box.w <= card.x + card.w
        assert card.y <= box.y and box.y + box.h <= card.y + card.h
        x0, x1 = text_column(card, rtl)
        assert x1 <= box.x or x0 >= box.x + box.w  # text never runs under the QR
    modules = len(matrix(url)) - 2 * QUIET_ZONE
    assert symbol_size(url, QR_BOX) >= MIN_SYMBOL == 22 * mm
    assert QR_BOX / (modules + 2 * QUIET_ZONE) >= 0.5 * mm  # a module a phone camera resolves


class Recorder:
    """Stands in for a canvas and keeps the lines drawn."""

    def __init__(self) -> None:
        self.lines: list[tuple[float, float, float, float]] = []

    def line(self, x0: float, y0: float, x1: float, y1: float) -> None:
        self.lines.append((x0, y0, x1, y1))

    def __getattr__(self, name: str) -> object:
        return lambda *args: None


def inside(card: Rect, x: float, y: float) -> bool:
    """True when (x, y) lies strictly inside the card."""
    return card.x < x < card.x + card.w and card.y < y < card.y + card.h


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_printing_cut_marks_stay_off_the_cards(paper: str) -> None:
    grid, recorder = card_grid(paper), Recorder()
    draw_cut_marks(recorder, grid)  # type: ignore[arg-type]
    assert len(recorder.lines) >= 4 * 2
    for x0, y0, x1, y1 in recorder.lines:
        for t in (0, 0.5, 1):
            x, y = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
            assert not any(inside(card, x, y) for card in grid.cards)
            assert 0 <= x <= grid.page[0] and 0 <= y <= grid.page[1]


def test_printing_wifi_payload_escapes_reserved_characters() -> None:
    wifi = Wifi('a;b,c:d\\e"f', 'p;w:"')
    assert wifi_payload(wifi) == 'WIFI:T:WPA;S:a\\;b\\,c\\:d\\\\e\\"f;P:p\\;w\\:\\";;'
    assert wifi_payload(Wifi("Open", "", "nopass")) == "WIFI:T:nopass;S:Open;;"


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="abc דניכהן XYZ-/:0123456789", min_size=1, max_size=120),
       st.integers(min_value=1, max_value=3))
def test_printing_fitted_lines_never_overflow(text: str, max_lines: int) -> None:
    register_fonts()
    width = 40 * mm
    size, lines = fit(text, BOLD, 11, width, max_lines=max_lines, min_size=6)
    assert 6 <= size <= 11 and len(lines) <= max_lines
    assert all(stringWidth(line, BOLD, size) <= width + 0.01 for line in lines)


def test_printing_hebrew_is_wrapped_before_it_is_reordered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each drawn line is get_display of a logical line, and the first words come first."""
    drawn: list[str] = []
    for method in ("drawString", "drawRightString", "drawCentredString"):
        monkeypatch.setattr(Canvas, method, lambda self, x, y, s, *a, **k: drawn.append(s))
    monkeypatch.setattr(PDFTextObject, "textOut", lambda self, s: drawn.append(s))  # the short URL
    name = "אברהם בן דוד מירושלים הבירה"  # wraps onto two lines on a card
    join_cards([SeatCard("ערב מאצ'י קורו", "שולחן 1", 2, name, TOKEN_URL, "h/j/K7M3-QX9A")], lang="he")
    lines = [get_display(line) for line in drawn if "םהרבא" in line or "הריבה" in line]
    assert len(lines) == 2  # back in logical order: the name took two lines
    assert lines[0].startswith("אברהם") and lines[1].endswith("הבירה")
    assert get_display("כיסא 2") in drawn and "h/j/" in drawn and "K7M3-QX9A" in drawn


def test_printing_setup_registry_takes_new_rulesets() -> None:
    """A new ruleset's setup sheet is plain values (its parts of lines and grids): the printing
    lays it out without knowing the game."""
    game = GameSetup((Part("supply", (Line("coins_n", (("n", 7),)),),
                           Grid((Column("card", 0.5), Column("count", 0.5)),
                                ((Name((("en", "Event deck"),)), 12),))),))
    pdf = setup_sheets([TableSheet("E", "T", "test-ruleset", ("A",), game=game)])
    assert b"%PDF" in pdf[:8]
    page = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert "• 7 coins" in page and "Event deck" in page and "No setup sheet" not in page


def test_printing_refuses_unknown_language_and_paper() -> None:
    with pytest.raises(ValueError, match="'fr'"):
        join_cards([], lang="fr")
    with pytest.raises(ValueError, match="'a5'"):
        poster(Poster("E", "http://j", "http://h"), paper="a5")
    with pytest.raises(ValueError, match="'cards-a3'"):
        join_cards([], paper="a3")


@pytest.mark.parametrize("lang", ["he", "nl"])
def test_printing_setup_sheet_names_every_card_in_its_language(lang: str) -> None:
    """The sheet takes the card names from the rules' catalog, which has every language (an
    English name on a Hebrew or Dutch sheet would be a defect)."""
    catalog = load_catalog()
    pdf = setup_sheets([table_sheet("E", "T", "machi-koro", ("A", "B"), {}, catalog)], lang)
    text = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    for card in (*catalog.establishments.values(), *catalog.landmarks.values()):
        assert card.names[lang] in text, card.id
        assert card.names["en"] not in text, card.id


def test_printing_page_specs_exist_for_every_paper() -> None:
    for paper in ("a4", "letter", "a3"):
        spec = page_spec(paper)
        assert spec.margin > 0 and spec.page[0] < spec.page[1]


def test_printing_papers_are_the_layout_files() -> None:
    """What the print check accepts is read from printables/layouts, in that order."""
    assert page_papers() == ("a4", "letter", "a3")
    assert card_papers() == ("a4", "letter")
    assert all(card_grid(paper).per_page == 10 for paper in card_papers())


def test_printing_short_url_scales_down_to_fit_and_keeps_a_long_tail_whole() -> None:
    """The card's short URL: the code at full size when it fits, address and code scaled down
    together for a long address, and a tail too long to be a code drawn as one small URL."""
    register_fonts()
    width = 78 * mm
    assert url_sizes("192.168.178.20:5000/j/", "K7M3-QX9A", width) == (HEAD_SIZE, CODE_SIZE)
    head, code = "hall-laptop.machi-koro-night.example:5000/j/", "K7M3-QX9A"
    small = url_sizes(head, code, width)
    assert small is not None and small[1] < CODE_SIZE and small[1] / small[0] == CODE_SIZE / HEAD_SIZE
    drawn = stringWidth(head, REGULAR, small[0]) + stringWidth(code, MONO_BOLD, small[1])
    assert drawn <= width + 1e-6
    assert url_sizes("192.168.178.20:5000/j/", "kq7LmP2vR9sT4wY8zAbC3d", width) is None
    assert url_sizes("192.168.178.20:5000/j/", "", width) is None
    assert url_sizes("x" * 200 + "/j/", "K7M3-QX9A", width) is None  # the address under 6 pt


def test_printing_bench_reports_time_and_size() -> None:
    result = bench_join_cards(seats=20)
    assert result["seats"] == 20 and result["pages"] == 3
    assert result["seconds"] > 0 and result["bytes"] > 10_000


def test_printing_strings_exist_in_every_language_with_the_same_fields() -> None:
    """Every printout's strings, the co-op setup sheet's (`coop_*`) among them."""
    def fields(value: str) -> list[str]:
        return sorted(name for _, name, _, _ in string.Formatter().parse(value) if name)

    assert set(STRINGS) == {"en", "he", "nl"}
    assert {"coop_title", "coop_seating", "coop_market_note"} <= set(STRINGS["en"])
    for lang, table in STRINGS.items():
        assert set(table) == set(STRINGS["en"]), lang
        for key, value in table.items():
            assert value.strip() and fields(value) == fields(STRINGS["en"][key]), (lang, key)


@pytest.mark.parametrize("lang", ["he", "nl"])
def test_printing_empty_printouts_have_a_title_in_their_language(lang: str) -> None:
    for pdf, key in ((join_cards([], lang=lang), "join_cards_title"),
                     (setup_sheets([], lang), "setup_title"),
                     (score_sheets([], lang), "results_title"),
                     (standings(Standing("", ()), lang), "standings_title")):
        metadata = PdfReader(io.BytesIO(pdf)).metadata
        assert metadata is not None and metadata.title == text(lang, key)
