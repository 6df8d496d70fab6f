"""Issue 12, the big Catan event's paper: a setup sheet and a score sheet per board, a join card
per seat and the event's standings, for events made through the hall service on a real SQLite
journal and printed as `companion print` and the organizer's downloads print them
(`hall/printables.render`). Every page read back with pypdf, in English, Hebrew and Dutch, on
A4 and Letter; every page rasterised by poppler and its QR codes decoded by zxing-cpp."""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from bidi.algorithm import get_display
from test_printing import decode, page_texts, rasterise, save_artifact
from test_printing_progress import says

from companion.hall import HallService
from companion.hall.printables import (
    PrintOptions,
    render,
    staff_check,
    table_results,
    table_sheet,
    turn_times,
    unverified,
)
from companion.journal import SqliteJournal
from companion.paper import Column
from companion.printing import model as drawn
from companion.printing import score_sheets, setup_sheets
from companion.printing.flow import SMALLEST_HEAD, head_size
from companion.printing.i18n import role_word, text
from companion.rules.catan_big import paper as catan_paper
from companion.rules.registry import ruleset

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler-utils")

BASE = "http://192.168.178.20:5000"
NOW = datetime(2026, 11, 21, 21, 34, 56)
STAMP = "2026-11-21 21:34"
LANGS = ["en", "he", "nl"]
PAPERS = ["a4", "letter"]
PLAYERS = ["4, Avi", "2, דני כהן", "7, Cy", "1, Dana", "3, Eli", "9, Fay"]
BOARD = {"letter": "B", "sun_colour": "white", "moon_colour": "orange"}
SCHEDULE = [[1, 60], [11, 90], [21, 120]]
WIN = {"settlements": 5, "cities": 8, "foreign_start_settlements": 2, "vp_cards": 0,
       "largest_army": False, "longest_road": False}  # 25 points
HAND = {"grain": 0, "ore": 0, "brick": 0, "wood": 0, "wool": 0}
BOARDS = ("Board 1", "Board 2", "Board 3")
SEATS = {"Board 1": ("Avi", "דני כהן"), "Board 2": ("Cy", "Dana"), "Board 3": ("Eli", "Fay")}


# ---------------------------------------------------------------- events through the hall


def new_event(db: Path, schedule: list[list[int]] | None = SCHEDULE) -> tuple[HallService, str]:
    """Three started boards of two seated from a list with registration numbers (a chain:
    Board 1, 2, 3), with the turn schedule."""
    hall = HallService(SqliteJournal(db))
    event = hall.create_event("Catan night")
    tables = hall.seat_players(event.id, PLAYERS, ruleset="catan-big", name_prefix="Board",
                               options=BOARD)
    for table in tables:
        hall.set_status(table.id, "start")
    if schedule:
        hall.set_clock(event.id, schedule, False)
    return hall, event.id


def token(hall: HallService, board: str, seat: int) -> str:
    return next(t for t in hall.tables.values() if t.name == board).seats[seat].token


def table_id(hall: HallService, board: str) -> str:
    return next(t.id for t in hall.tables.values() if t.name == board)


@pytest.fixture(scope="module")
def over(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The game over in turn 1: Avi's and Cy's claims of 25 verified in the same turn, Cy's
    hand the bigger (Cy wins on cards in hand); the next roll asked ends it. דני כהן enters
    a final breakdown of 7 the staff never verify."""
    db = tmp_path_factory.mktemp("over") / "hall.db"
    hall, event_id = new_event(db)
    hall.hall_roll(event_id, (2, 4))  # turn 1: the Sun team's
    for board in ("Board 1", "Board 2"):
        assert hall.move(token(hall, board, 0), f"claim {board}", {"kind": "claim",
                                                                   "breakdown": WIN})["ok"]
    hall.staff_move(table_id(hall, "Board 1"), {"kind": "verify", "seat": 0,
                                                "resources": {**HAND, "ore": 2}})
    hall.staff_move(table_id(hall, "Board 2"), {"kind": "verify", "seat": 0,
                                                "resources": {**HAND, "grain": 3}})
    with pytest.raises(Exception, match="over"):
        hall.hall_roll(event_id, (1, 2))
    final = {**HAND, "wool": 1}
    assert hall.move(token(hall, "Board 1", 1), "final", {
        "kind": "final", "breakdown": {**WIN, "settlements": 3, "cities": 2,
                                       "foreign_start_settlements": 0}, "resources": final})["ok"]
    hall.journal.close()
    return db


@pytest.fixture(scope="module")
def playing(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Mid-game after two turns, no claim: Avi tracks 19 points with one settlement, Dana 5
    with five settlements (so a ranking by settlements would put Dana first)."""
    db = tmp_path_factory.mktemp("playing") / "hall.db"
    hall, event_id = new_event(db)
    hall.hall_roll(event_id, (3, 3))
    avi = {**WIN, "settlements": 1, "cities": 9, "foreign_start_settlements": 0}  # 19
    dana = {**WIN, "settlements": 5, "cities": 0, "foreign_start_settlements": 0}  # 5
    assert hall.move(token(hall, "Board 1", 0), "t1", {"kind": "track", "breakdown": avi})["ok"]
    assert hall.move(token(hall, "Board 2", 1), "t2", {"kind": "track", "breakdown": dana})["ok"]
    hall.hall_roll(event_id, (5, 4))
    hall.journal.close()
    return db


@pytest.fixture
def tie_break_columns(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Column, ...]]:
    """The catan-big score columns with the tie-breaks marked (the breakdown not ranking, the
    cards in hand and the five resources as tie-break columns): the ruleset's own once they
    mark them, else marked here as `rules/catan_big/paper.py` is asked to."""
    found = catan_paper.SCORE_COLUMNS
    if not any(column.tie_break for column in found):
        found = (*(Column(c.key, c.width, ranks=False) for c in found if c.key != "points"),
                 Column("points", 0.085), Column("hand", 0.1, tie_break=True),
                 *(Column(key, 0.085, tie_break=True)
                   for key in ("grain", "ore", "brick", "wood", "wool")))
        monkeypatch.setattr(catan_paper, "SCORE_COLUMNS", found)
    yield found


def rendered(db: Path, kind: str, lang: str = "en", paper: str = "a4") -> bytes:
    """The printout as `companion print` renders it, with the clock at NOW."""
    with SqliteJournal(db) as journal:
        return render(HallService(journal), "1", PrintOptions(kind, paper, lang, BASE), now=NOW)


def words(page: str) -> str:
    return " ".join(page.split())


def table_rows(page: str, last_header: str, width: int) -> list[list[str]]:
    """The rows of a ruled table as pypdf reads them back, a cell a line, after its header."""
    lines = page.splitlines()
    body = lines[lines.index(last_header) + 1:]
    return [body[i:i + width] for i in range(0, len(body) - width + 1, width)]


# ---------------------------------------------------------------- setup sheets


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
def test_catan_big_paper_setup_sheet_per_board(over: Path, lang: str, paper: str,
                                               tmp_path: Path) -> None:
    pdf = rendered(over, "setup-sheets", lang, paper)
    pages = page_texts(pdf)
    assert len(pages) == 3  # one page per board, the longest language on Letter too
    beside = {"Board 1": ("", "Board 2"), "Board 2": ("Board 1", "Board 3"),
              "Board 3": ("Board 2", "")}
    for board, page in zip(BOARDS, pages, strict=True):
        sun, moon = SEATS[board]
        assert board in page and "Catan night" in page and sun in page and moon in page
        for colour in ("white", "orange"):  # the board's colours, in the sheet's language
            assert catan_paper.COLOUR_NAMES[colour][lang] in page
        left, right = beside[board]
        for key, name in (("neighbour_left", left), ("neighbour_right", right)):
            assert says(page, text(lang, key, name=name or text(lang, "chain_end"))), (board, key)
        for key in ("turn_times", "catan_start_areas", "catan_robber_rule", "catan_scoring",
                    "catan_no_monopoly", "catan_tie_breaks"):
            assert says(page, text(lang, key)), (lang, key)
        for name in catan_paper.SCORING:  # the scoring table, every row
            assert name[0][lang] in words(page)
    if lang == "en":
        text_of = words(pages[0])
        assert "Printed board B" in text_of
        assert "Sun: Avi, playing white" in text_of and "playing orange" in text_of
        assert "Left neighbour: none (end of the row) · Right neighbour: Board 2" in text_of
        assert "Turn times: turns 1–10: 60 s; turns 11–20: 90 s; from turn 21: 120 s" in text_of
        assert "Turns 1–15: a 7 is a discard check only" in text_of
        assert "From turn 16: a 7 is the discard check" in text_of
        assert "Left neighbour: Board 2 · Right neighbour: none (end of the row)" in words(
            pages[2])
    images = rasterise(pdf, tmp_path, "setup")
    assert len(images) == 3 and all(decode(image) == [] for image in images)  # no QR on it
    save_artifact(images[0], f"catan-big-setup-sheet-{paper}-{lang}")


def test_catan_big_paper_setup_sheet_hebrew_reads_right_to_left(over: Path) -> None:
    """The PDF holds each Hebrew line in visual order: pypdf gives Hebrew words back in logical
    order (test_printing_hebrew_words_found_in_logical_order), never reversed; a range of turns
    keeps its order (1-15, not 15-1)."""
    page = page_texts(rendered(over, "setup-sheets", "he"))[0]
    for word in ("שטחי ההתחלה", "השודדים, לפי התור", "דני כהן", "השכן משמאל", "זמני התורות",
                 "יישוב בשטח ההתחלה של יריב"):
        assert word in page and get_display(word) not in page, word
    assert "1-15" in page and "15-1" not in page and "1-10" in page


def test_catan_big_paper_setup_sheet_without_schedule_has_no_turn_times(
        tmp_path: Path) -> None:
    hall, _ = new_event(tmp_path / "hall.db", schedule=None)
    hall.journal.close()
    page = page_texts(rendered(tmp_path / "hall.db", "setup-sheets"))[0]
    assert "Turn times" not in page and "Right neighbour: Board 2" in words(page)


def test_catan_big_paper_neighbours_only_for_a_chained_ruleset() -> None:
    """The hall's neighbours reach the sheet when its ruleset is chained; a Machi Koro table
    given some prints none (its tables stand in no chain)."""
    catan = table_sheet("E", "Board 2", "catan-big", ("A", "B"), {},
                        ruleset("catan-big").table_setup({}),
                        neighbours=("Board 1", "Board 3"), schedule=((1, 60), (2, 90)))
    machi = table_sheet("E", "Table 2", "machi-koro", ("A", "B"), {},
                        ruleset("machi-koro").table_setup({}),
                        neighbours=("Table 1", "Table 3"))
    assert catan.neighbours == ("Board 1", "Board 3") and machi.neighbours == ()
    catan_page, machi_page = (words(p) for p in page_texts(setup_sheets([catan, machi])))
    assert "Left neighbour: Board 1 · Right neighbour: Board 3" in catan_page
    assert "Turn times: turn 1: 60 s; from turn 2: 90 s" in catan_page
    assert "neighbour" not in machi_page and "Turn times" not in machi_page


def test_catan_big_paper_turn_times_read_the_events_schedule() -> None:
    class Event:  # an event from before the clock: no schedule field at all
        pass

    assert turn_times(Event()) == ()  # type: ignore[arg-type]
    event = Event()
    event.schedule = [[1, 60], [11, 90]]  # type: ignore[attr-defined]
    assert turn_times(event) == ((1, 60), (11, 90))  # type: ignore[arg-type]


# ---------------------------------------------------------------- score sheets


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
def test_catan_big_paper_score_sheet_per_board(over: Path, lang: str, paper: str,
                                               tie_break_columns: tuple[Column, ...],
                                               tmp_path: Path) -> None:
    """Each board's result: the breakdown, the points and the tie-breaks down the page, a
    column per player with their role, the places, a signature box per player and the staff's
    box; the figures the staff never verified marked †."""
    pdf = rendered(over, "score-sheets", lang, paper)
    pages = page_texts(pdf)
    assert len(pages) == 3
    for board, page in zip(BOARDS, pages, strict=True):
        assert board in page and all(name in page for name in SEATS[board])
        assert text(lang, "results_title") in page and STAMP not in page
        for column in tie_break_columns:
            assert says(page, text(lang, column.key)), (lang, column.key)
        for key in ("tie_breaks", "staff_check", "staff_name", "signature", "place"):
            assert says(page, text(lang, key)), (lang, key)
        assert role_word(lang, "sun") in page and role_word(lang, "moon") in page
    first = pages[0]
    assert "25" in first and says(first, text(lang, "unverified_note"))  # דני כהן's own final
    if lang == "en":
        # Avi: 1st with 25 points and two ore; דני כהן 2nd with her final of 7, marked
        assert "Avi\nSun\n" in first and "Moon †" in first
        assert "Points\n25\n7\n" in first and "Ore\n2\n0\n" in first and "Wool\n0\n1\n" in first
        assert "Place\n1\n2\n" in first
        assert first.index("Points") < first.index("Tie-breaks") < first.index("Cards in hand")
    images = rasterise(pdf, tmp_path, "score")
    assert len(images) == 3 and all(decode(image) == [] for image in images)
    save_artifact(images[0], f"catan-big-score-sheet-{paper}-{lang}")


def test_catan_big_paper_score_sheet_hebrew_reads_right_to_left(over: Path) -> None:
    page = page_texts(rendered(over, "score-sheets", "he"))[0]
    for word in ("דני כהן", "תוצאות השולחן", "נבדק על ידי הצוות", "יישובים", "חתימה", "ירח"):
        assert word in page and get_display(word) not in page, word


@pytest.mark.parametrize("lang", LANGS)
def test_catan_big_paper_score_sheet_mid_game_says_so(playing: Path, lang: str) -> None:
    pages = page_texts(rendered(playing, "score-sheets", lang))
    assert len(pages) == 3
    for page in pages:
        assert text(lang, "results_in_play_title") in page and STAMP in page
        assert says(page, text(lang, "results_in_play_note"))
    assert "19" in pages[0] and says(pages[0], text(lang, "unverified_note"))


def test_catan_big_paper_score_sheet_before_the_start_is_a_form(tmp_path: Path) -> None:
    """Printed before the boards start: names and roles, every figure blank to fill in."""
    hall = HallService(SqliteJournal(tmp_path / "hall.db"))
    event = hall.create_event("Catan night")
    hall.seat_players(event.id, PLAYERS[:2], ruleset="catan-big", name_prefix="Board")
    (result,) = table_results(event, hall.tables_of(event), STAMP)
    hall.journal.close()
    assert result.status == drawn.NOT_STARTED and result.staff_signature
    assert [(row.player_name, row.role, row.scores) for row in result.rows] == [
        ("Avi", "sun", ()), ("דני כהן", "moon", ())]
    page = page_texts(score_sheets([result]))[0]
    assert "Avi\nSun\n" in page and "Settlements\nCities\n" in page  # no figure in between


def test_catan_big_paper_machi_koro_score_sheet_keeps_its_row_per_player() -> None:
    """A ruleset of few figures keeps a row per player and no staff's box: Machi Koro's
    staff make no moves at its tables."""
    assert staff_check(ruleset("catan-big")) and not staff_check(ruleset("machi-koro"))
    columns = tuple(ruleset("machi-koro").score_columns())
    result = drawn.TableResult("Table 1", (drawn.ResultRow(1, "Alice", (4, 12)),), "E",
                               columns=columns)
    page = page_texts(score_sheets([result]))[0]
    assert "Signature\n1\nAlice\n4\n12\n" in page and "staff" not in page


# ---------------------------------------------------------------- standings


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
def test_catan_big_paper_standings_over_from_the_event_view(
        over: Path, lang: str, paper: str, tie_break_columns: tuple[Column, ...],
        tmp_path: Path) -> None:
    """Once the game is over the standings are the ruleset's (RULES.md 24): Cy, who won on the
    cards in hand, first with the one win; Avi second with none (his board's own result calls
    him its winner); the players whose figures nobody verified marked †; the columns those
    that rank: the points, then the tie-breaks."""
    pdf = rendered(over, "standings", lang, paper)
    (page,) = page_texts(pdf)
    assert text(lang, "standings_title") in page and STAMP not in page
    assert says(page, text(lang, "unverified_note"))
    for key in ("points", "hand", "grain", "wool"):
        assert says(page, text(lang, key))
    assert text(lang, "settlements") not in page  # the breakdown is the score sheets'
    if lang == "en":  # rank, player, table, wins, points, cards in hand, the five resources
        rows = [" ".join(row) for row in table_rows(page, "Wool", 11)]
        assert rows == ["1 Cy Board 2 1 25 3 3 0 0 0 0", "2 Avi Board 1 0 25 2 0 2 0 0 0",
                        "3 † דני כהן Board 1 0 7 1 0 0 0 0 1", "4 Dana † Board 2 0 4 0 0 0 0 0 0",
                        "5 Eli † Board 3 0 4 0 0 0 0 0 0", "6 Fay † Board 3 0 4 0 0 0 0 0 0"]
        # Dana, Eli and Fay never touched their trackers: 4 points each (RULES.md 24)
    images = rasterise(pdf, tmp_path, "standings")
    assert decode(images[0]) == []
    save_artifact(images[0], f"catan-big-standings-{paper}-{lang}")


def test_catan_big_paper_standings_mid_game_ranked_by_points(
        playing: Path, tie_break_columns: tuple[Column, ...]) -> None:
    """While the game runs, every player by the figures that rank as they stand: Avi's 19
    points before Dana's 5 (though Dana built more settlements), everyone marked playing."""
    (page,) = page_texts(rendered(playing, "standings"))
    rows = table_rows(page, "Wool", 11)
    assert "Standings: 0 of 3 tables finished" in page and STAMP in page
    assert rows[0][:5] == ["1", "Avi †", "Board 1 *", "0", "19"]
    assert rows[1][:5] == ["2", "Dana †", "Board 2 *", "0", "5"]
    assert len(rows) == 6 and all(row[2].endswith("*") for row in rows)  # all still playing


# ---------------------------------------------------------------- join cards


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
def test_catan_big_paper_join_cards_every_seat(over: Path, lang: str, paper: str,
                                               tmp_path: Path) -> None:
    """A card per seat with its QR, the board, the seat and its team (Sun or Moon)."""
    pdf = rendered(over, "join-cards", lang, paper)
    with SqliteJournal(over) as journal:
        hall = HallService(journal)
        urls = [BASE + seat.join_path for table in hall.tables.values() for seat in table.seats]
        codes = [seat.code_path for table in hall.tables.values() for seat in table.seats]
    (page,) = page_texts(pdf)
    for board in BOARDS:
        assert board in page and all(name in page for name in SEATS[board])
    assert all(code in page for code in codes)
    for seat, role in ((1, "sun"), (2, "moon")):
        assert says(page, f"{text(lang, 'seat')} {seat} · {role_word(lang, role)}")
    (image,) = rasterise(pdf, tmp_path, "cards")
    assert Counter(found.text for found in decode(image)) == Counter(urls)
    if paper == "a4":
        save_artifact(image, f"catan-big-join-cards-{lang}")


# ---------------------------------------------------------------- the generic parts


def test_catan_big_paper_unverified_only_where_a_ruleset_says_so() -> None:
    assert unverified({"verified": False}) and not unverified({"verified": True})
    assert not unverified({"name": "Alice", "landmarks": 2})  # Machi Koro says nothing


def test_catan_big_paper_a_header_shrinks_to_keep_its_words_whole() -> None:
    assert head_size("Cards in hand", 10, 200) == 10
    narrow = head_size("Settlements", 10, 40)
    assert SMALLEST_HEAD <= narrow < 10
    assert head_size("Overwinningspuntkaarten", 10, 10) == SMALLEST_HEAD


def test_catan_big_paper_role_words() -> None:
    assert [role_word(lang, "moon") for lang in LANGS] == ["Moon", "ירח", "Maan"]
    assert role_word("en", "") == "" and role_word("en", "judge") == "judge"


def test_catan_big_paper_one_player_down_the_page() -> None:
    """The tie-breaks' heading spans the row with any number of players (one here)."""
    columns = (Column("settlements", 0.1), Column("cities", 0.1), Column("vp_cards", 0.1),
               Column("points", 0.1), Column("hand", 0.1, tie_break=True))
    result = drawn.TableResult("Board 1", (drawn.ResultRow(1, "Avi", (5, 8, 0, 21, 4), "sun"),),
                               columns=columns)
    page = page_texts(score_sheets([result]))[0]
    assert "Points\n21\nTie-breaks\nCards in hand\n4\n" in page
