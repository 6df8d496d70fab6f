"""Printouts rendered for real: pages rasterised by poppler, QR codes decoded by zxing-cpp,
text read back with pypdf."""

from __future__ import annotations

import io
import math
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
import zxingcpp
from bidi.algorithm import get_display
from PIL import Image
from pypdf import PdfReader

from companion.hall.join_codes import join_code, printed
from companion.hall.printables import columns, table_sheet
from companion.printing import join_cards, poster, score_sheets, setup_sheets, standings
from companion.printing import model as drawn
from companion.printing.qr import wifi_payload
from companion.rules.machi_koro.catalog import load_catalog
from companion.rules.registry import ruleset

DPI = 200
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "printables"
EVENT = "Machi Koro Night"
NAMES = ("Alice", "דני כהן", "Bartholomew-Maximilian van der Steenhoven", None, "Zoë")
WIFI = drawn.Wifi("Hall;Net", 'p:a"ss,word')

COLUMNS = columns(ruleset("machi-koro").score_columns())  # landmarks built, coins

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler-utils")


def hall_sheet(table: str, rules: str, seats: tuple[str, ...]) -> drawn.TableSheet:
    """A table's setup sheet as the hall builds it, with its ruleset's section."""
    return table_sheet(EVENT, table, rules, seats, {}, load_catalog())


def seat_cards(count: int = 13) -> list[drawn.SeatCard]:
    """`count` seats at four-player tables, with realistic 22-character tokens and the short
    URLs of their join codes."""
    tokens = [f"{n:04d}kq7LmP2vR9sT4wY8zA" for n in range(count)]
    return [
        drawn.SeatCard(EVENT, f"Table {n // 4 + 1}", n % 4 + 1, NAMES[n % len(NAMES)],
                 f"http://192.168.178.20:5000/j/{token}",
                 f"192.168.178.20:5000/j/{printed(join_code(token))}")
        for n, token in enumerate(tokens)
    ]


def rasterise(pdf: bytes, tmp_path: Path, name: str) -> list[Image.Image]:
    """Every page as a PIL image at 200 dpi, through the real pdftoppm."""
    source = tmp_path / f"{name}.pdf"
    source.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", str(source), str(tmp_path / name)],
                   check=True, capture_output=True)
    files = sorted(tmp_path.glob(f"{name}-*.png"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
    images = []
    for file in files:
        with Image.open(file) as image:
            images.append(image.copy())  # loaded, so no file stays open
    return images


def save_artifact(image: Image.Image, name: str) -> None:
    """Keep one page of each kind for people to look at (artifacts/ is git-ignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    image.save(ARTIFACTS / f"{name}.png")


def decode(image: Image.Image) -> list[zxingcpp.Barcode]:
    """Every QR code zxing-cpp finds on a page."""
    return [r for r in zxingcpp.read_barcodes(image) if r.format == zxingcpp.BarcodeFormat.QRCode]


def symbol_mm(result: zxingcpp.Barcode) -> float:
    """Printed width of a decoded symbol, from its corners on the 200 dpi page."""
    p = result.position
    return math.dist((p.top_left.x, p.top_left.y), (p.top_right.x, p.top_right.y)) / DPI * 25.4


def page_texts(pdf: bytes) -> list[str]:
    """The text of every page, as pypdf extracts it."""
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_printing_join_cards_every_seat_url_once(paper: str, lang: str, tmp_path: Path) -> None:
    cards = seat_cards(13)
    pages = rasterise(join_cards(cards, paper=paper, lang=lang, wifi=WIFI), tmp_path, "cards")
    assert len(pages) == 2  # nine seats and the Wi-Fi card per sheet
    found = [decode(page) for page in pages]
    seat_urls = Counter(r.text for page in found for r in page if r.text.startswith("http"))
    assert seat_urls == Counter(card.join_url for card in cards)
    for page in found:
        assert [r.text for r in page if r.text.startswith("WIFI:")] == [wifi_payload(WIFI)]
        assert all(symbol_mm(r) >= 22 for r in page)
    save_artifact(pages[0], f"join-cards-{paper}-{lang}")


def test_printing_join_cards_without_wifi_fill_whole_sheets(tmp_path: Path) -> None:
    pages = rasterise(join_cards(seat_cards(10), paper="a4"), tmp_path, "ten")
    assert len(pages) == 1
    assert len(decode(pages[0])) == 10
    assert len(PdfReader(io.BytesIO(join_cards(seat_cards(11)))).pages) == 2


def test_printing_join_cards_text_names_every_seat() -> None:
    cards = seat_cards(13)
    text = "\n".join(page_texts(join_cards(cards, lang="en")))
    assert EVENT in text
    for card in cards:
        assert card.table_name in text and card.short_url in text
        assert card.player_name is None or card.player_name.split()[0] in text
    assert "Seat 4" in text and "Name:" in text  # the card of a seat without a player


def code_runs(pdf: bytes) -> list[tuple[str, float]]:
    """Every run of text drawn in the join code's font, with its size in points."""
    runs: list[tuple[str, float]] = []

    def visit(text: str, _cm: object, _tm: object, font: dict | None, size: float) -> None:
        if text.strip() and font and str(font.get("/BaseFont", "")).endswith("+DejaVuSansMono-Bold"):
            runs.append((text, size))

    for page in PdfReader(io.BytesIO(pdf)).pages:
        page.extract_text(visitor_text=visit)
    return runs


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_printing_join_cards_short_url_carries_each_seats_code(lang: str) -> None:
    """Issue 5's short URL to type: `HOST/j/K7M3-QX9A` with the seat's join code, read back as
    one run in every language, the code alone in mono bold at 12 pt or more; the token is not
    printed as text (the QR keeps it: test_printing_join_cards_every_seat_url_once)."""
    cards = seat_cards(13)
    pdf = join_cards(cards, lang=lang, wifi=WIFI)
    text = "\n".join(page_texts(pdf))
    codes = [printed(join_code(card.join_url.rsplit("/", 1)[1])) for card in cards]
    for card, code in zip(cards, codes, strict=True):
        assert card.short_url == f"192.168.178.20:5000/j/{code}" and card.short_url in text
        assert card.join_url.rsplit("/", 1)[1] not in text
    runs = code_runs(pdf)
    assert [run for run, _ in runs] == codes
    assert all(size >= 12 for _, size in runs)


def test_printing_hebrew_words_found_in_logical_order() -> None:
    """The PDF holds each Hebrew line in visual order (get_display of the logical line).

    pypdf, reading it back, turns every run of Hebrew glyphs around again, so whole Hebrew
    words come out in logical order; neutral characters (digits, colons) keep their visual
    place, which is why we look for words, not whole lines. Had we drawn the logical string
    without reordering, pypdf would hand back get_display(word), so we check that too.
    """
    pdf = join_cards(seat_cards(5), lang="he")
    text = page_texts(pdf)[0]
    for word in ("כיסא", "דני כהן", "סרקו כדי לתפוס את המקום"):
        assert word in text
        assert get_display(word) not in text
    result = drawn.TableResult("Table 1", (drawn.ResultRow(1, "נועה לוי", (4, 20)),), EVENT, columns=COLUMNS)
    text = page_texts(score_sheets([result], lang="he"))[0]
    for word in ("נועה לוי", "חתימה", "מטבעות", "מקום"):
        assert word in text and get_display(word) not in text


def test_printing_same_input_gives_same_bytes() -> None:
    sheets = [hall_sheet("Table 1", "machi-koro", ("Alice", "דני כהן"))]
    results = [drawn.TableResult("Table 1", (drawn.ResultRow(1, "Alice", (4, 3)),), EVENT, columns=COLUMNS)]
    ranking = drawn.Standing(EVENT, (drawn.StandingRow(1, "Alice", "Table 1", 1, (4, 3)),), columns=COLUMNS)
    hall = drawn.Poster(EVENT, "http://h/join", "http://h/hall")
    for render in (
        lambda: join_cards(seat_cards(13), lang="he", wifi=WIFI),
        lambda: setup_sheets(sheets, "nl", "letter"),
        lambda: score_sheets(results, "he", "a4"),
        lambda: standings(ranking, "en", "letter"),
        lambda: poster(hall, "a3", "he", WIFI),
    ):
        assert render() == render()


@pytest.mark.parametrize("paper", ["a4", "a3", "letter"])
def test_printing_poster_join_and_hall_qr(paper: str, tmp_path: Path) -> None:
    hall = drawn.Poster(EVENT, "http://192.168.178.20:5000/join", "http://192.168.178.20:5000/hall")
    pages = rasterise(poster(hall, paper=paper, lang="he", wifi=WIFI), tmp_path, "poster")
    assert len(pages) == 1
    assert sorted(r.text for r in decode(pages[0])) == sorted(
        [hall.join_url, hall.hall_url, wifi_payload(WIFI)]
    )
    assert EVENT in page_texts(poster(hall, paper=paper))[0]
    save_artifact(pages[0], f"poster-{paper}")


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_printing_setup_sheets_one_page_per_table(paper: str, lang: str, tmp_path: Path) -> None:
    sheets = [
        hall_sheet("Table 1", "machi-koro", ("Alice", "דני כהן", "Bob")),
        hall_sheet("Table 2", "machi-koro", ("Ann", "Ben", "Cas", "Dirk")),
        hall_sheet("Table 3", "catan", ("Eve", "Fay")),
    ]
    pdf = setup_sheets(sheets, lang=lang, paper=paper)
    texts = page_texts(pdf)
    assert len(texts) == 3
    for sheet, text in zip(sheets, texts, strict=True):
        assert sheet.table_name in text and EVENT in text
        assert all(name in text for name in sheet.seats)
    if lang == "en":
        assert "1 × Wheat Field" in texts[0] and "1 × set of landmarks" in texts[0]
        assert "Nothing: every seat plays." in texts[1]
        assert "No setup sheet for ruleset catan." in texts[2]
    save_artifact(rasterise(pdf, tmp_path, "setup")[0], f"setup-sheet-{paper}-{lang}")


def test_printing_setup_sheet_supply_in_activation_order() -> None:
    text = page_texts(setup_sheets([hall_sheet("T", "machi-koro", ("A", "B"))]))[0]
    order = ["Wheat Field", "Ranch", "Bakery", "Cafe", "Convenience Store", "Forest",
             "Stadium", "Cheese Factory", "Furniture Factory", "Mine", "Family Restaurant",
             "Apple Orchard", "Fruit and Vegetable Market"]
    supply = text[text.index("Supply"):]
    positions = [supply.index(name) for name in order]
    assert positions == sorted(positions)
    assert "2 × Wheat Field" in text and "2 × set of landmarks" in text  # two seats unused


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["en", "he"])
def test_printing_score_sheets_sign_every_player(paper: str, lang: str, tmp_path: Path) -> None:
    results = [
        drawn.TableResult("Table 1", (drawn.ResultRow(1, "Alice", (4, 12)),
                                      drawn.ResultRow(2, "דני כהן", (3, 30)),
                                      drawn.ResultRow(3, "Bob", (2, 5))), EVENT, columns=COLUMNS),
        drawn.TableResult("Table 2", (drawn.ResultRow(None, "Ann", (None, None)),), EVENT, columns=COLUMNS),
    ]
    pdf = score_sheets(results, lang=lang, paper=paper)
    texts = page_texts(pdf)
    assert len(texts) == 2
    assert "Alice" in texts[0] and "דני כהן" in texts[0] and "Table 1" in texts[0]
    assert "Ann" in texts[1] and "Table 2" in texts[1]
    if lang == "en":
        assert "Signature" in texts[0] and "Landmarks" in texts[0]
    save_artifact(rasterise(pdf, tmp_path, "score")[0], f"score-sheet-{paper}-{lang}")


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_printing_standings_run_on_with_header(paper: str, tmp_path: Path) -> None:
    rows = tuple(drawn.StandingRow(i + 1, f"Player {i + 1}", f"Table {i // 4 + 1}", 1, (4, 40 - i % 40))
                 for i in range(80))
    pdf = standings(drawn.Standing(EVENT, rows, columns=COLUMNS), lang="en", paper=paper)
    texts = page_texts(pdf)
    assert len(texts) >= 2
    assert all("Rank" in text for text in texts)  # the header repeats on every page
    joined = "\n".join(texts)
    assert all(f"Player {i + 1}\n" in joined or f"Player {i + 1} " in joined for i in range(80))
    save_artifact(rasterise(pdf, tmp_path, "standings")[0], f"standings-{paper}")
