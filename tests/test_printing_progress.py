"""Issue 16, item 12: paper that tells the truth. A join card leads with the player's name and
table; a score sheet or the standings printed before the end say so, with the time they were
printed, and show the figures as they stand. Real PDFs read back with pypdf, pages rendered by
poppler and QR codes decoded by zxing-cpp."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from test_print_cli import make_demo, play_until_won, print_pdf
from test_printing import (
    COLUMNS,
    EVENT,
    WIFI,
    decode,
    page_texts,
    rasterise,
    save_artifact,
    seat_cards,
)

from companion.hall import HallService
from companion.hall.printables import PrintOptions, render
from companion.journal import SqliteJournal
from companion.printing import ResultRow, SeatCard, TableResult, join_cards, score_sheets
from companion.printing.i18n import text
from companion.printing.layouts import card_grid

NOW = datetime(2026, 11, 21, 21, 34, 56)
STAMP = "2026-11-21 21:34"


class Run:
    """One run of text as pypdf reads it: the text, its font size and where it starts."""

    def __init__(self, text: str, size: float, x: float, y: float) -> None:
        self.text, self.size, self.x, self.y = text, size, x, y

    def __repr__(self) -> str:
        return f"Run({self.text!r}, {self.size:g}, y={self.y:.0f})"


def page_runs(pdf: bytes, page: int = 0) -> list[Run]:
    """Every run of text drawn on a page, with its size (the text matrix scales none here)."""
    runs: list[Run] = []

    def visit(text: str, cm: Any, tm: Any, font: Any, size: float) -> None:
        if text.strip():
            runs.append(Run(text.strip(), size * tm[3], tm[4] + cm[4], tm[5] + cm[5]))

    PdfReader(io.BytesIO(pdf)).pages[page].extract_text(visitor_text=visit)
    return runs


def says(page: str, phrase: str) -> bool:
    """Every word of `phrase` is on the page: Hebrew comes back from pypdf word by word in
    logical order, with neutral characters (· : *) where they were drawn."""
    words = [w.strip("·:*.,;()") for w in phrase.split()]
    return all(w in page for w in words if len(w) > 1)


def run_of(runs: list[Run], text: str) -> Run:
    """The run of `text` highest on the page (on the first card that has it)."""
    found = [r for r in runs if r.text == text]
    assert found, (text, runs)
    return max(found, key=lambda r: r.y)


# ---------------------------------------------------------------- join cards


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_printing_join_card_leads_with_the_name_and_the_table(lang: str, tmp_path: Path) -> None:
    """The player's name is the biggest text on the card, the table next; the seat number and
    the event are small print below them (the seat number used to be the biggest)."""
    cards = seat_cards(9)  # one sheet: Alice, דני כהן, a long name, a blank seat, Zoë, ...
    pdf = join_cards(cards, lang=lang, wifi=WIFI)
    runs = page_runs(pdf)
    seat_word = text(lang, "seat")
    for card in (cards[0], cards[4]):  # Alice at Table 1 seat 1, Zoë at Table 2 seat 1
        assert card.player_name is not None
        name = run_of(runs, card.player_name)
        beside = [r for r in runs if abs(r.x - name.x) < 100 and name.y - 90 < r.y < name.y]
        seat = [r for r in beside if r.text in (f"{seat_word} 1", seat_word)]  # he: 2 runs
        assert len(seat) == 1, runs
        table = [r for r in beside if r.text == card.table_name and r.y > seat[0].y]
        assert len(table) == 1, runs
        assert name.size >= 14 and name.size > table[0].size > seat[0].size
        assert name.y > table[0].y > seat[0].y  # read in that order, top down
        event = [r for r in beside if r.text == EVENT and r.y < seat[0].y]
        assert len(event) == 1 and event[0].size < table[0].size
    pages = rasterise(pdf, tmp_path, "cards")
    assert len(decode(pages[0])) == 10  # nine seats and the Wi-Fi card still scan
    save_artifact(pages[0], f"join-cards-name-first-{lang}")


def test_printing_join_card_of_a_blank_seat_leads_with_the_table() -> None:
    """A seat without a player: a line to write the name on, then the table, big."""
    cards = seat_cards(4)
    runs = page_runs(join_cards(cards, lang="en"))
    blank = [r for r in runs if r.text.startswith("Name:")]
    assert len(blank) == 1
    table = [r for r in runs if r.text == "Table 1" and r.y < blank[0].y]
    seat = run_of(runs, "Seat 4")
    assert any(t.y > seat.y and t.size > seat.size for t in table)


LONG = SeatCard("Machi Koro Night at the Community Hall, Spring Edition, second floor",
                "Table 12 (hall roll, by the stage, left of the bar)", 4,
                "Maria Magdalena Johanna Wilhelmina van den Berg-Hoogendoorn",
                "http://192.168.178.20:5000/j/0000kq7LmP2vR9sT4wY8zA", "192.168.178.20:5000/j/K7M3-QX9A")


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_printing_join_card_text_stays_clear_of_the_hint(lang: str, paper: str) -> None:
    """The longest name, table and event still end above "Scan to join" on every card: the
    table and the event take two lines only when there is room for them."""
    hebrew = replace(LONG, player_name="אברהם בן דוד מירושלים הבירה העתיקה",
                     table_name="שולחן 12 ליד הבמה")
    tall = replace(LONG, player_name="Jan Willem Jansen", table_name="Table 1 (hall roll)",
                   event_name="Machi Koro Night at the Community Hall")
    cards = [LONG, hebrew, replace(LONG, player_name=None), replace(LONG, player_name="Li"), tall]
    runs = page_runs(join_cards(cards, paper=paper, lang=lang))
    hint_words = text(lang, "scan_to_join")
    for card in card_grid(paper).cards[:len(cards)]:
        inside = [r for r in runs
                  if card.x <= r.x <= card.x + card.w and card.y <= r.y <= card.y + card.h]
        (hint,) = [r for r in inside if r.text == hint_words]
        above = [r for r in inside if r.y > hint.y]
        assert len(above) >= 4
        for run in above:
            assert run.y - 0.24 * run.size >= hint.y + 0.76 * hint.size, (run, hint)
            assert run.y + 0.76 * run.size <= card.y + card.h, run


# ---------------------------------------------------------------- sheets from a real hall


@pytest.fixture(scope="module")
def half_played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The demo mid-event: table 1 (hall roll) still playing after three hall rolls, table 2
    won by יעל, and a third table set up but not started."""
    made = make_demo(tmp_path_factory.mktemp("half"))
    with SqliteJournal(made["db"]) as journal:
        hall = HallService(journal)
        for dice in ((3, 4), (1, 1), (5, 6)):
            hall.hall_roll(made["event"], dice)
        hall.adjust("2", 2, 100, "test: enough to build every landmark")
        play_until_won(hall, "2", seat=2)
        hall.create_table(made["event"], "Table 3 (later)", ["Kim", "Lev"], "machi-koro", "own")
        made["players"] = {p.name: (p.coins, len(p.landmarks), table.name)
                           for table in hall.tables.values() if table.state
                           for p in table.state.players}
    return made


def rendered(db: Path, kind: str, lang: str = "en") -> bytes:
    """The printout as `companion print` renders it, with the clock at NOW."""
    with SqliteJournal(db) as journal:
        return render(HallService(journal), "1", PrintOptions(kind, lang=lang), now=NOW)


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_printing_score_sheet_mid_game_says_in_progress_and_when(
        half_played: dict[str, Any], lang: str, tmp_path: Path) -> None:
    pdf = rendered(half_played["db"], "score-sheets", lang)
    playing, won, later = page_texts(pdf)
    assert text(lang, "results_in_play_title") in playing
    assert text(lang, "results_title") not in playing
    assert STAMP in playing and says(playing, text(lang, "in_progress", time=STAMP))
    assert says(playing, text(lang, "results_in_play_note"))
    if lang == "en":
        assert "In progress · printed 2026-11-21 21:34 · not the final result" in playing
    for name in ("Avi", "Dana", "Noa"):  # the figures as they stand
        coins, landmarks, _ = half_played["players"][name]
        assert name in playing and str(coins) in playing
    # The won table's sheet is the result, with no mark; the unstarted one a form to fill in.
    assert text(lang, "results_title") in won and STAMP not in won
    assert text(lang, "results_in_play_title") not in won
    assert text(lang, "results_title") in later and STAMP in later
    assert says(later, text(lang, "results_not_started_note", time=STAMP))
    if lang != "he":
        save_artifact(rasterise(pdf, tmp_path, "score")[0], f"score-sheet-in-progress-{lang}")


def test_printing_score_sheet_keeps_the_places_blank_until_the_end(
        half_played: dict[str, Any]) -> None:
    playing = page_texts(rendered(half_played["db"], "score-sheets"))[0]
    coins, landmarks, _ = half_played["players"]["Avi"]
    assert f"Signature\nAvi\n{landmarks}\n{coins}\n" in playing  # no place before the end


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_printing_standings_mid_event_show_everyone_and_say_so(
        half_played: dict[str, Any], lang: str, tmp_path: Path) -> None:
    pdf = rendered(half_played["db"], "standings", lang)
    page = page_texts(pdf)[0]
    assert says(page, text(lang, "standings_partial", done=1, total=3))
    assert STAMP in page and says(page, text(lang, "standings_in_progress", time=STAMP))
    assert says(page, text(lang, "standings_in_play_note"))
    for name, (coins, _, _) in half_played["players"].items():
        assert name in page and str(coins) in page
    assert "Kim" not in page  # a table not started yet has no figures
    if lang == "en":
        # יעל won: rank 1 with one win; the players still playing are marked * by their table
        assert "Standings: 1 of 3 tables finished" in page
        coins, _, table = half_played["players"]["יעל"]
        assert f"1\nיעל\n{table}\n1\n4\n{coins}\n" in page
        assert page.count("Table 1 (hall roll) *") == 3
        assert "Table 2 (own roll) *" not in page
        save_artifact(rasterise(pdf, tmp_path, "standings")[0], "standings-in-progress-en")
    if lang == "he":
        save_artifact(rasterise(pdf, tmp_path, "standings")[0], "standings-in-progress-he")


def test_printing_final_standings_carry_no_mark(tmp_path: Path) -> None:
    made = make_demo(tmp_path)
    with SqliteJournal(made["db"]) as journal:
        hall = HallService(journal)
        hall.hall_roll(made["event"], (2, 3))
        hall.set_status("1", "end")
        hall.set_status("2", "end")
    page = page_texts(rendered(made["db"], "standings"))[0]
    assert "Standings\n" in page and "In progress" not in page and STAMP not in page
    assert "*" not in page and "Avi" in page


def test_printing_print_time_is_the_clock_now(half_played: dict[str, Any],
                                              tmp_path: Path) -> None:
    """Without a fixed clock, `companion print` stamps the laptop's local time to the minute."""
    before = datetime.now()
    page = page_texts(print_pdf(half_played["db"], "standings", tmp_path / "s.pdf"))[0]
    after = datetime.now()
    stamps = re.findall(r"\d{4}-\d\d-\d\d \d\d:\d\d", page)
    assert len(stamps) == 1
    printed = datetime.strptime(stamps[0], "%Y-%m-%d %H:%M")
    assert before - timedelta(minutes=1) < printed <= after


def test_printing_score_sheet_model_defaults_to_a_result() -> None:
    """A TableResult without a status is a result, as before (the golden tests' input)."""
    result = TableResult("Table 1", (ResultRow(1, "Alice", (4, 12)),), EVENT, columns=COLUMNS)
    page = page_texts(score_sheets([result]))[0]
    assert "Table result: Table 1" in page and "In progress" not in page
