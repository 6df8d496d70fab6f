"""The morning after (issue 26): a one-page report of the night, from the real HallService on a
real SQLite journal after a demo-like evening (tests/night_builders.py), read back from the PDF
with pypdf in en, he and nl and looked at through poppler. The dice in it are the journal's."""

from __future__ import annotations

import re
import shutil
from datetime import datetime
from pathlib import Path

import pytest
from bidi.algorithm import get_display
from night_builders import Clock, evening, journal_totals
from PIL import Image
from test_printing import page_texts, rasterise, save_artifact

from companion.hall.night import dice_counts
from companion.hall.printables import PrintOptions, event_report, printed_at, render
from companion.hall.service import HallService
from companion.journal import interface
from companion.printing import model as drawn
from companion.printing.report import FAIR_COLOUR, fair_counts, night_report

STAMP = "2026-11-28 08:30"
TITLES = {"en": "The morning after", "he": "הבוקר שאחרי", "nl": "De ochtend erna"}
GAME = {"en": "Machi Koro", "he": "מאצ'י קורו", "nl": "Machi Koro"}


@pytest.fixture
def night(hall: HallService, monkeypatch: pytest.MonkeyPatch):
    """The evening played on a journal whose clock moves a minute per hall roll."""
    clock = Clock()
    monkeypatch.setattr(interface, "utc_now", clock)
    event, tables = evening(hall, clock)
    return hall, event, tables


def report_of(hall: HallService, event, lang: str = "en") -> drawn.NightReport:
    with hall.lock:
        values = event_report(hall, event, lang, STAMP)
    return values()  # the journal read without the hall's lock, as the download does


def chart_counts(text: str) -> list[int]:
    """The chart's bar labels as pypdf reads them: after the count axis, per bar its count then
    its total (2 to 12)."""
    lines = text.splitlines()
    end = max(i for i, line in enumerate(lines) if line.strip() == "12")
    pairs = lines[end - 21:end + 1]
    assert [int(v) for v in pairs[1::2]] == list(range(2, 13))
    return [int(v) for v in pairs[0::2]]


def test_report_dice_are_the_journals_the_roll_taken_back_left_out(night) -> None:
    hall, event, _ = night
    report = report_of(hall, event)
    totals = journal_totals(hall, event)
    assert report.dice == tuple(totals[t] for t in range(2, 13))
    assert sum(report.dice) == len(event.rolls) == 15  # the [6, 6] taken back is not counted
    assert report.doubles == sum(1 for d1, d2 in event.rolls if d1 == d2)
    assert report.undone_rolls == 1


def test_report_winners_lengths_corrections_and_undos(night) -> None:
    hall, event, tables = night
    report = report_of(hall, event)
    lines = {t.table_name: (t.outcome, t.winners) for t in report.tables}
    assert lines == {"Table 1 (hall roll)": ("won", ("Avi",)),
                     "Table 2 (own roll)": ("playing", ()),
                     "Table 3": ("playing", ()),
                     "Table 4": ("won", ("Eli",))}
    # Table 1 started at minute 0 and was won later than Table 4's five minutes' head start
    # made up for: each length is the journal's, from the start to the winning move.
    longest, shortest = report.lengths
    assert [longest.table_name, shortest.table_name] == ["Table 4", "Table 1 (hall roll)"]
    for game in report.lengths:
        table = next(t for t in tables.values() if t.name == game.table_name)
        records = hall.journal.read(table.stream)
        start = next(r for r in records if r.kind == "status").at
        won = records[-1]  # the winning build: the table left the hall roll then
        assert won.author not in ("organizer", "hall")
        seconds = (datetime.fromisoformat(won.at) - datetime.fromisoformat(start)).total_seconds()
        assert game.minutes == round(seconds / 60)
    assert longest.minutes > shortest.minutes > 0
    assert report.corrections == 2  # the rich starts at tables 1 and 4
    assert report.undone_moves == 1  # Sam's roll; the hall roll's own reversals not again
    assert report.standing.rows[0].player_name in ("Avi", "Eli")


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_report_pdf_text_one_page_in_every_language(night, lang: str) -> None:
    hall, event, _ = night
    pdf = render(hall, event.id, PrintOptions("report", lang=lang))
    pages = page_texts(pdf)
    assert len(pages) == 1
    text = pages[0]
    for words in (TITLES[lang], GAME[lang], "Demo night", "Avi", "Eli", "Table 4", "יעל"):
        assert words in text, words
    if lang == "he":
        for words in ("מנצחים", "טבלת הדירוג", "עדיין משחקים"):
            assert words in text and get_display(words) not in text
    totals = journal_totals(hall, event)
    assert chart_counts(text) == [totals[t] for t in range(2, 13)]
    # Hebrew lines come back with their digits in visual places: there, the words and the number
    rolls = {"en": "Hall rolls: 15,", "he": "הטלות של האולם", "nl": "Worpen voor de zaal: 15,"}
    assert rolls[lang] in text and "15" in text
    report = report_of(hall, event, lang)
    for game in (report.lengths[0], report.lengths[-1]):
        if lang == "he":
            assert re.search(rf"דקות\s*{game.minutes}\b", text)
        else:
            assert f"{game.minutes} min" in text


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler-utils")
@pytest.mark.parametrize("lang", ["en", "he"])
def test_report_chart_draws_bars_and_the_fair_marks(night, lang: str, tmp_path: Path) -> None:
    """The chart is on the page as drawn: the fair dice's red marks and the bars' blue, seen in
    the rendered image (kept in artifacts/printables to look at)."""
    hall, event, _ = night
    pdf = render(hall, event.id, PrintOptions("report", lang=lang))
    image: Image.Image = rasterise(pdf, tmp_path, f"report-{lang}")[0].convert("RGB")
    save_artifact(image, f"report-{lang}")
    red = tuple(round(c * 255) for c in (FAIR_COLOUR.red, FAIR_COLOUR.green, FAIR_COLOUR.blue))
    colours = image.getcolors(maxcolors=1 << 20) or []
    near = sum(n for n, rgb in colours if all(abs(a - b) < 30 for a, b in zip(rgb, red, strict=True)))
    assert near > 200


def test_report_of_an_empty_night_says_so() -> None:
    standing = drawn.Standing("Quiet night", ())
    report = drawn.NightReport("Quiet night", (), standing, dice_counts([]), 0, (), 0, 0, 0)
    text = page_texts(night_report(report, "nl"))[0]
    for words in ("Vanavond speelde geen tafel.", "Vanavond geen worp voor de zaal",
                  "Geen spel is uitgespeeld.", "Er heeft nog niemand gespeeld."):
        assert words in text


def test_report_a_long_night_stays_on_one_page() -> None:
    """Sixty tables and 240 players still print on one page: the standings show their top ten
    and say how many more there are."""
    tables = tuple(drawn.TableOutcome(f"Table {n}", "Machi Koro", "won", (f"P{n}",))
                   for n in range(60))
    rows = tuple(drawn.StandingRow(n + 1, f"Player {n}", f"Table {n // 4}", int(n % 4 == 0),
                                   (4, 20)) for n in range(240))
    standing = drawn.Standing("Big night", rows)
    lengths = (drawn.GameLength("Table 3", "Machi Koro", 95), drawn.GameLength("Table 9",
                                                                           "Machi Koro", 31))
    report = drawn.NightReport("Big night", tables, standing, dice_counts([[3, 4]] * 500), 0,
                               lengths, 3, 2, 1, STAMP)
    pages = page_texts(night_report(report, "he", "letter"))
    assert len(pages) == 1
    assert "שע׳" in pages[0] and re.search(r"\b35\b", pages[0])  # 1 h 35 min
    assert "230" in pages[0] and "ועוד" in pages[0]  # 240 players, the top ten shown


def test_report_fair_counts_are_the_36_pairs() -> None:
    assert fair_counts(36) == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]


def test_report_printed_while_playing_carries_the_time(night) -> None:
    hall, event, _ = night
    assert report_of(hall, event).printed_at == STAMP  # tables 2 and 3 still play
    assert printed_at(datetime(2026, 11, 28, 8, 30)) == STAMP


def test_report_a_coop_game_won_together_and_one_lost(app, http, key) -> None:
    """Through the ruleset door: a co-op table won together names both players; a lost one
    says nobody won (its ruleset's result: every seat lost), in the game's own name."""
    from test_coop_results import lose_by_waiting, win_together

    from companion.web import hall_service

    won_event, _, won_pair, _ = win_together(app, http, key)
    lost_event, _, lost_pair, _ = lose_by_waiting(app, http, key)
    hall = hall_service(app)
    for event_id, outcome, winners in ((won_event["id"], "won", ("Ana", "Ben")),
                                       (lost_event["id"], "lost", ())):
        report = report_of(hall, hall.event(event_id), "nl")
        (line,) = report.tables
        assert (line.outcome, line.winners) == (outcome, winners)
        assert line.game == "Machi Koro coöperatief (belastinginspecteur)"  # the console's word
        text = page_texts(render(hall, event_id, PrintOptions("report", lang="nl")))[0]
        assert ("Ana, Ben" if winners else "niemand won: het spel is verloren") in text
    for client in (*won_pair, *lost_pair):
        client.disconnect()


def test_report_catan_event_names_its_winner_once_at_the_winners_board(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """A game the tables play together (the big Catan event, RULES.md 23-24): the winner the
    event view places first (Cy, on cards in hand) at their board, the other boards "over:
    the winner played at another table"; the staff's two verifications are corrections."""
    from test_catan_big_paper import over

    from companion.journal import SqliteJournal

    db = over.__wrapped__(tmp_path_factory)
    with SqliteJournal(db) as journal:
        hall = HallService(journal)
        report = report_of(hall, hall.event("1"))
        pdf = render(hall, "1", PrintOptions("report", lang="he"))
    lines = {t.table_name: (t.outcome, t.winners) for t in report.tables}
    assert lines == {"Board 1": ("placed", ()), "Board 2": ("won", ("Cy",)),
                     "Board 3": ("placed", ())}
    assert report.corrections == 2 and sum(report.dice) == 1
    text = page_texts(pdf)[0]
    assert "הסתיים: המנצח/ת שיחק/ה בשולחן אחר" in text and "Cy" in text
