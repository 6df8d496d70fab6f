"""`companion print` as a user runs it: a real subprocess on a real SQLite file made by
`companion demo`; pages rasterised by poppler, QR codes decoded by zxing-cpp, text read by pypdf."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections import Counter
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from bidi.algorithm import get_display
from conftest import run_companion
from hypothesis import given
from hypothesis import strategies as st
from test_printing import decode, page_texts, rasterise, save_artifact

from companion.hall import HallService
from companion.hall.join_codes import join_code, printed
from companion.hall.printables import competition_ranks
from companion.journal import SqliteJournal
from companion.printing.model import Wifi
from companion.printing.qr import wifi_payload
from companion.rules.machi_koro.state import Phase

BASE = "http://192.168.178.20:5000"
LANDMARKS = ("train_station", "shopping_mall", "amusement_park", "radio_tower")

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler-utils")


def make_demo(folder: Path) -> dict[str, Any]:
    """The demo event through the real command: its seats, tokens and the database path."""
    db = folder / "hall.db"
    made = run_companion("demo", "--db", str(db))
    assert made.returncode == 0, made.stderr
    return {**json.loads(made.stdout), "db": db}


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Two running tables, no result yet (the demo as it is created)."""
    return make_demo(tmp_path_factory.mktemp("demo"))


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The demo played out: table 1 ended by the organizer after three hall rolls, table 2
    won by its third seat (יעל), who builds every landmark with 100 coins from the bank."""
    made = make_demo(tmp_path_factory.mktemp("finished"))
    with SqliteJournal(made["db"]) as journal:
        hall = HallService(journal)
        for dice in ((3, 4), (1, 1), (5, 6)):
            hall.hall_roll(made["event"], dice)
        hall.set_status("1", "end")
        hall.adjust("2", 2, 100, "test: enough to build every landmark")
        play_until_won(hall, "2", seat=2)
        made["players"] = {p.name: (p.coins, len(p.landmarks), table.name)
                           for table in hall.tables.values() if table.state
                           for p in table.state.players}
    return made


def play_until_won(hall: HallService, table_id: str, seat: int) -> None:
    """Every seat rolls and ends its turn; `seat` builds the next landmark on each of its turns."""
    table = hall.table(table_id)
    for n in range(200):
        state = table.state
        assert state is not None
        if state.winner is not None:
            return
        if state.phase is Phase.ROLL:
            move = {"kind": "roll"}
        elif state.phase is Phase.BUILD and state.active == seat and not state.built:
            built = state.players[seat].landmarks
            move = {"kind": "build", "card": next(m for m in LANDMARKS if m not in built)}
        elif state.phase is Phase.BUILD:
            move = {"kind": "end_turn"}
        else:
            move = {"kind": "keep"}
        answer = hall.move(table.seats[state.active].token, f"test-{n}", move)
        assert answer["ok"], answer
    raise AssertionError("no winner after 200 moves")


def print_pdf(db: Path, kind: str, out: Path, *extra: str) -> bytes:
    """Run `companion print` and return the PDF it wrote."""
    done = run_companion("print", kind, "--db", str(db), "--event", "1", "-o", str(out), *extra)
    assert done.returncode == 0, done.stderr
    assert f"wrote {out}" in done.stderr
    return out.read_bytes()


def journal_rows(db: Path) -> int:
    """How many records the journal holds, read without changing the file."""
    with closing(sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])


# ---------------------------------------------------------------- every kind renders


@pytest.mark.parametrize("lang", ["en", "he"])
def test_print_join_cards_qr_are_exactly_the_seat_urls(demo: dict[str, Any], lang: str,
                                                       tmp_path: Path) -> None:
    wifi = ("--wifi-ssid", "Hall;Net", "--wifi-password", "pa:ss")
    pdf = print_pdf(demo["db"], "join-cards", tmp_path / "cards.pdf", "--base-url", BASE,
                    "--lang", lang, *wifi)
    pages = rasterise(pdf, tmp_path, "cards")
    found = [r.text for page in pages for r in decode(page)]
    seats = Counter(url for url in found if url.startswith("http"))
    assert seats == Counter(f"{BASE}/j/{seat['token']}" for seat in demo["seats"])
    assert found.count(wifi_payload(Wifi("Hall;Net", "pa:ss"))) == len(pages)
    text = "\n".join(page_texts(pdf))
    assert "Demo night" in text and "Table 1 (hall roll)" in text and "Table 2 (own roll)" in text
    assert all(seat["name"] in text for seat in demo["seats"])
    for seat in demo["seats"]:  # the short URL to type has the seat's join code, not its token
        assert seat["join_code"] == printed(join_code(seat["token"]))
        assert f"192.168.178.20:5000/j/{seat['join_code']}" in text and seat["token"] not in text
    if lang == "he":
        assert "כיסא" in text and get_display("כיסא") not in text
    save_artifact(pages[0], f"cli-join-cards-{lang}")


def test_print_join_cards_default_base_url_is_the_served_lan_address(
        demo: dict[str, Any], tmp_path: Path) -> None:
    from companion.server import lan_addresses

    if not lan_addresses():  # issue 16 (10): then it refuses (tests/test_printing_reach.py)
        pytest.skip("this machine has no LAN address")
    pdf = print_pdf(demo["db"], "join-cards", tmp_path / "cards.pdf")
    address = (lan_addresses() or ["127.0.0.1"])[0]
    urls = {r.text for page in rasterise(pdf, tmp_path, "cards") for r in decode(page)}
    assert urls == {f"http://{address}:5000/j/{seat['token']}" for seat in demo["seats"]}


def test_print_poster_has_the_join_page_and_the_hall_screen(demo: dict[str, Any],
                                                            tmp_path: Path) -> None:
    pdf = print_pdf(demo["db"], "poster", tmp_path / "poster.pdf", "--base-url", BASE + "/",
                    "--paper", "a3")
    pages = rasterise(pdf, tmp_path, "poster")
    assert len(pages) == 1
    assert sorted(r.text for r in decode(pages[0])) == [f"{BASE}/", f"{BASE}/hall/1"]
    assert "Demo night" in page_texts(pdf)[0]
    save_artifact(pages[0], "cli-poster")


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_print_setup_sheets_one_page_per_table(demo: dict[str, Any], lang: str,
                                               tmp_path: Path) -> None:
    pdf = print_pdf(demo["db"], "setup-sheets", tmp_path / "setup.pdf", "--lang", lang,
                    "--paper", "letter")
    texts = page_texts(pdf)
    assert len(texts) == 2
    for text, table in zip(texts, ("Table 1 (hall roll)", "Table 2 (own roll)"), strict=True):
        assert "Demo night" in text and table in text
    assert all(name in texts[0] for name in ("Avi", "Dana", "Noa"))
    assert all(name in texts[1] for name in ("Sam", "Lotte", "יעל"))
    if lang == "en":
        assert "3 coins" in texts[0] and "1 × Wheat Field" in texts[0]
    if lang == "he":
        assert "הכנת השולחן" in texts[0]
    save_artifact(rasterise(pdf, tmp_path, "setup")[0], f"cli-setup-sheets-{lang}")


def test_print_score_sheets_places_landmarks_coins_from_the_tables(
        finished: dict[str, Any], tmp_path: Path) -> None:
    pdf = print_pdf(finished["db"], "score-sheets", tmp_path / "score.pdf", "--lang", "he")
    texts = page_texts(pdf)
    assert len(texts) == 2
    assert "Table 1 (hall roll)" in texts[0] and "Table 2 (own roll)" in texts[1]
    assert "חתימה" in texts[0] and get_display("חתימה") not in texts[0]
    players = finished["players"]
    assert players["יעל"][1] == 4
    # Right to left, a row reads coins, landmarks, player, place; the winner comes first.
    assert f"מקום\n{players['יעל'][0]}\n4\nיעל\n1\n" in texts[1]
    for text, names in ((texts[0], ("Avi", "Dana", "Noa")), (texts[1], ("Sam", "Lotte"))):
        def key(name: str) -> tuple[int, int]:  # landmarks built, then coins
            return players[name][1], players[name][0]

        for name in names:
            coins, landmarks, _ = players[name]
            place = 1 + sum(key(other) > key(name) for other in names) + (text is texts[1])
            assert f"\n{coins}\n{landmarks}\n{name}\n{place}\n" in text  # (+1: the winner)
    save_artifact(rasterise(pdf, tmp_path, "score")[1], "cli-score-sheets-he")


def test_print_score_sheets_in_play_leave_the_places_blank(demo: dict[str, Any],
                                                           tmp_path: Path) -> None:
    text = page_texts(print_pdf(demo["db"], "score-sheets", tmp_path / "score.pdf"))[0]
    assert "Signature\nAvi\n0\n3\n" in text  # no place yet; landmarks and coins as they stand


def test_print_standings_rank_the_finished_tables(finished: dict[str, Any],
                                                  tmp_path: Path) -> None:
    pdf = print_pdf(finished["db"], "standings", tmp_path / "standings.pdf")
    text = page_texts(pdf)[0]
    assert "Demo night" in text and "Standings\n" in text and "tables finished" not in text
    coins, _, table = finished["players"]["יעל"]
    assert f"Coins\n1\nיעל\n{table}\n1\n4\n{coins}\n" in text  # rank 1, one win, 4 landmarks
    assert all(name in text for name in finished["players"])
    save_artifact(rasterise(pdf, tmp_path, "standings")[0], "cli-standings")


def test_print_standings_say_how_many_tables_finished(demo: dict[str, Any],
                                                      tmp_path: Path) -> None:
    text = page_texts(print_pdf(demo["db"], "standings", tmp_path / "standings.pdf"))[0]
    assert "Standings: 0 of 2 tables finished" in text
    # Issue 16 (12): a game still in play shows its figures as they stand, marked playing
    # (before, mid-event standings were empty: "Avi" was not on them).
    assert "In progress · printed" in text and "Table 1 (hall roll) *" in text and "Avi" in text


# ---------------------------------------------------------------- refusals


REFUSALS = [
    (("bogus",), "unknown kind 'bogus'"),
    (("poster", "--paper", "a5"), "not 'a5'"),
    (("join-cards", "--paper", "a3"), "join-cards print on a4, letter"),
    (("poster", "--lang", "fr"), "unknown language 'fr'"),
    (("poster", "--base-url", "192.168.1.2:5000"), "must start with http://"),
    (("join-cards", "--base-url", "http://"), "and name the server"),
    (("join-cards", "--base-url", "http://192.168.1.2 :5000"), "not 'http://192.168.1.2 :5000'"),
    (("poster", "--base-url", "http://hall.local:port"), "and name the server"),
    (("poster", "--base-url", "http://hall.local/?x=1"), "and name the server"),
    (("poster", "--wifi-password", "secret"), "--wifi-password needs --wifi-ssid"),
    (("poster", "--event", "99"), "there is no event '99'"),
]


@pytest.mark.parametrize(("args", "message"), REFUSALS)
def test_print_refusal_exits_2_with_one_line_and_writes_nothing(
        demo: dict[str, Any], tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    before = journal_rows(demo["db"])
    out = tmp_path / "out.pdf"
    kind, *rest = args
    event = [] if "--event" in rest else ["--event", "1"]
    done = run_companion("print", kind, "--db", str(demo["db"]), *event, *rest, "-o", str(out))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr
    assert not out.exists()
    assert journal_rows(demo["db"]) == before


def test_print_refuses_a_missing_database_without_creating_it(tmp_path: Path) -> None:
    db, out = tmp_path / "missing.db", tmp_path / "out.pdf"
    done = run_companion("print", "poster", "--db", str(db), "--event", "1", "-o", str(out))
    assert done.returncode == 2 and done.stderr == f"print: no database file {str(db)!r}\n"
    assert list(tmp_path.iterdir()) == []


def test_print_refuses_a_file_that_is_no_hall_database(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with closing(sqlite3.connect(other)) as conn:
        conn.execute("CREATE TABLE notes (line TEXT)")
    size = other.stat().st_size
    out = tmp_path / "out.pdf"
    done = run_companion("print", "standings", "--db", str(other), "--event", "1", "-o", str(out))
    assert done.returncode == 2 and "is not a companion hall database" in done.stderr
    assert not out.exists() and other.stat().st_size == size
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]


def test_print_refuses_an_output_folder_that_does_not_exist(demo: dict[str, Any],
                                                            tmp_path: Path) -> None:
    out = tmp_path / "nowhere" / "out.pdf"
    done = run_companion("print", "poster", "--db", str(demo["db"]), "--event", "1",
                         "-o", str(out))
    assert done.returncode == 2 and "no folder" in done.stderr and done.stderr.count("\n") == 1
    assert not out.parent.exists()


# ---------------------------------------------------------------- ranking, pure


@given(st.lists(st.tuples(st.booleans(), st.integers(0, 4), st.integers(0, 60)), max_size=12))
def test_print_competition_ranks_share_ties_and_skip(keys: list[tuple[bool, int, int]]) -> None:
    ranks = competition_ranks(keys)
    for key, rank in zip(keys, ranks, strict=True):
        assert rank == 1 + sum(other > key for other in keys)
    assert sorted(ranks)[:1] == ([1] if keys else [])


def test_print_reports_progress_on_stderr_while_it_lays_out(tmp_path: Path) -> None:
    """Issue 26, item 8: a thousand join cards take about a minute on a loaded laptop; the
    command says how far it is as it goes (the first sheet at once, then at most every second,
    and the last card), then where it wrote the PDF."""
    from companion.hall import HallService
    from companion.journal import SqliteJournal

    db = tmp_path / "hall.db"
    with SqliteJournal(db) as journal:
        hall = HallService(journal)
        event = hall.create_event("Big night")
        for i in range(30):
            hall.create_table(event.id, f"T{i + 1}", [f"P{i}-{s}" for s in range(4)])
    out = tmp_path / "cards.pdf"
    done = run_companion("print", "join-cards", "--db", str(db), "--event", event.id, "-o",
                         str(out), "--base-url", "http://192.168.1.20:5000")
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert lines[0] == "print: join cards: 10/120"  # the first A4 sheet of ten, at once
    assert lines[-2:] == ["print: join cards: 120/120", f"companion: wrote {out} "
                          f"({out.stat().st_size:,} bytes)"]
    counts = [int(line.split(": ")[2].split("/")[0]) for line in lines[:-1]]
    assert counts == sorted(counts) and len(set(counts)) == len(counts)
    score = run_companion("print", "score-sheets", "--db", str(db), "--event", event.id, "-o",
                          str(tmp_path / "scores.pdf"))
    assert score.returncode == 0 and score.stderr.splitlines()[0] == "print: score-sheets: page 1"


@pytest.mark.parametrize("lang", ["en", "he"])
def test_print_report_the_morning_after_from_the_nights_file(finished: dict[str, Any], lang: str,
                                                             tmp_path: Path) -> None:
    """`companion print report` on the played demo's file: יעל won table 2, table 1 was ended
    before a result, the hall rolled 3+4, 1+1 and 5+6 (the chart's bars for 7, 2 and 11), one
    correction; the file is only read."""
    rows = journal_rows(finished["db"])
    pdf = print_pdf(finished["db"], "report", tmp_path / "report.pdf", "--lang", lang)
    texts = page_texts(pdf)
    assert len(texts) == 1
    text = texts[0]
    # the standings count Avi's first place at the ended table 1 as a win: the report says how
    ended = {"en": "(first when the organizer ended the game)",
             "he": "במקום הראשון כשהמארגן סיים את המשחק"}[lang]
    for words in ("Demo night", "Table 1 (hall roll)", "Table 2 (own roll)", "יעל", "Avi", ended):
        assert words in text, words
    lines = text.splitlines()
    twelve = max(i for i, line in enumerate(lines) if line.strip() == "12")
    bars = lines[twelve - 21:twelve + 1]
    assert [int(v) for v in bars[0::2]] == [1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0]
    if lang == "en":
        assert "Hall rolls: 3, doubles among them: 1" in text
        assert "Corrections by the organizer and the staff: 1" in text
    assert journal_rows(finished["db"]) == rows
    save_artifact(rasterise(pdf, tmp_path, "report")[0], f"cli-report-{lang}")
