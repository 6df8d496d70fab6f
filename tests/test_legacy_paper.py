"""Issue 14, a Legacy campaign's paper: the campaign's register sheet (the group with colours and
cities, a line per game: number, date, winner, city) and a game's setup sheet (each player's
three landmarks by letter, their town-square cards, the community landmark, the supply, the
bank), for campaigns run through the hall service on a real SQLite journal and printed as
`companion print` and the organizer's downloads print them (`hall/printables.render`). Every
page read back with pypdf in English, Hebrew and Dutch, on A4 and Letter, and rasterised by
poppler (kept under artifacts/printables to look at)."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path
from typing import Any

import pytest
from bidi.algorithm import get_display
from conftest import api
from test_legacy_builders import ABC, catalog_raw, finish_checklist, new_campaign, run
from test_printing import page_texts, rasterise, save_artifact
from test_printing_progress import says

from companion.hall import HallService
from companion.hall import series as hall_series
from companion.hall.printables import KINDS, PrintOptions, game_setup, render, series_sheet
from companion.journal import SqliteJournal
from companion.printing import model as drawn
from companion.printing import series_sheets
from companion.printing.i18n import text
from companion.rules.legacy import paper
from companion.rules.legacy.campaign_commands import RecordGame, RollForStart, StartGame, WithdrawGame
from companion.rules.legacy.ruleset import LEGACY
from companion.rules.legacy.setup import GAMES
from companion.rules.paper import NOTE, Name
from companion.web import hall_service

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler-utils")

LANGS = ["en", "he", "nl"]
PAPERS = ["a4", "letter"]
HEBREW = {"smithy": "נפחייה", "florist": "חנות פרחים", "fountain": "מזרקה", "radio_tower": "מגדל רדיו",
          "statue": "פסל", "wheat_field": "שדה חיטה", "bakery": "מאפייה"}
MAYORS = [{"name": "Joke", "colour": "red", "city": "Zonnedal"},
          {"name": "דני כהן", "colour": "white", "city": "חיפה"},
          {"name": "Toon", "colour": "black", "city": "Bergen op Zoom"}]


def hebrew_catalog() -> dict[str, Any]:
    """The test catalog with real Hebrew names for the cards a first game shows."""
    raw = catalog_raw()
    for kind in raw.values():
        for entry in kind:
            if entry["id"] in HEBREW:
                entry["names"]["he"] = HEBREW[entry["id"]]
    return raw


def campaign_event(db: Path) -> tuple[HallService, str, str]:
    """A hall with a Legacy campaign of three whose first game is started: (hall, event id,
    series id)."""
    hall = HallService(SqliteJournal(db))
    event = hall.create_event("Legacy night")
    series = hall_series.create(hall, event.id, {"ruleset": "legacy", "name": "Our island",
                                                 "mayors": copy.deepcopy(MAYORS),
                                                 "catalog": hebrew_catalog()})
    hall_series.command(hall, series.id, {"command": "roll_for_start",
                                          "dice": [[2, 3], [6, 5], [1, 1]]})
    hall_series.next_game(hall, series.id, {
        "landmarks": [ABC, ABC, ["smithy", "florist", "radio_tower"]], "community": "statue",
        "town_square": [["wheat_field", "bakery"], ["bakery", "wheat_field"], ["wheat_field", "bakery"]]})
    return hall, event.id, series.id


def named(lang: str, card: str) -> str:
    """A card's name in `lang`, as the test catalog has it."""
    raw = hebrew_catalog()
    return next(entry["names"][lang] for kind in raw.values() for entry in kind
                if entry["id"] == card)


# ---------------------------------------------------------------- the setup sheet


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("paper_size", PAPERS)
def test_legacy_paper_setup_sheet_lays_out_the_game(lang: str, paper_size: str,
                                                    tmp_path: Path) -> None:
    hall, event_id, _ = campaign_event(tmp_path / "hall.db")
    pdf = render(hall, event_id, PrintOptions("setup-sheets", paper_size, lang))
    pages = page_texts(pdf)
    assert len(pages) == 1, "a game's setup sheet fits one page"
    page = pages[0]
    for name in ("Joke", "דני כהן", "Toon"):
        assert name in page
    assert says(page, text(lang, "legacy_game_n", n=1))
    assert says(page, text(lang, "legacy_first_player", player="דני כהן"))  # rolled 11
    for key in ("legacy_cities", "legacy_community_heading", "supply", "legacy_win",
                "each_player_takes"):
        assert says(page, text(lang, key)), key
    letters = [("A", "smithy", 4), ("B", "florist", 8), ("C", "fountain", 10), ("D", "radio_tower", 16)]
    for letter, card, cost in letters:
        line = text(lang, "legacy_landmark", letter=letter, card=named(lang, card), cost=cost)
        assert says(page, line), line
    assert page.count(named(lang, "smithy")) >= 3  # every city's landmark A
    both = f"{named(lang, 'bakery')}, {named(lang, 'wheat_field')}"  # דני כהן's, as chosen
    assert says(page, text(lang, "legacy_town_square", cards=both))
    assert says(page, text(lang, "legacy_community", card=named(lang, "statue"), cost=5))
    assert says(page, text(lang, "legacy_bonus_coins", n=2))
    assert says(page, text(lang, "bank_left", n=210 - 3 * 3))
    if lang == "he":
        for word in ("דני כהן", HEBREW["florist"], "ציוני"):
            assert word in page and get_display(word) not in page, word
    image = rasterise(pdf, tmp_path, "setup")[0]
    assert image.getbbox() is not None
    save_artifact(image, f"legacy-setup-{paper_size}-{lang}")


def test_legacy_paper_setup_sheet_lists_only_the_supplys_piles() -> None:
    """A card in the reserve or a town-square card with no copies has no pile in the supply."""
    raw = catalog_raw()
    for entry in raw["establishments"]:
        if entry["id"] == "mine":
            entry["status"] = "reserve"
    options = {"catalog": raw, "game": 1, "first": 0, "landmarks": [ABC, ABC],
               "community": "statue", "town_square": [["wheat_field"], ["bakery"]],
               "slot_costs": None}
    section = paper.setup_section(LEGACY.table_setup(options), 2)
    supply = next(part for part in section.parts if part.heading == "supply")
    assert supply.grid is not None
    shown = [row[1].by_lang[0][1] for row in supply.grid.rows if isinstance(row[1], Name)]
    assert "Mine" not in shown and "Wheat Field" in shown and len(shown) == len(supply.grid.rows)
    rolls = [row[0] for row in supply.grid.rows]
    assert rolls[0] == "1" and rolls[-1] == "10"  # activation order


# ---------------------------------------------------------------- the register sheet


def recorded_campaign() -> Any:
    """The test group's campaign: game 1 won by Ben on 2026-11-20, game 2 started."""
    campaign, facts = new_campaign()
    campaign, facts = run(campaign, facts, RollForStart([[6, 6], [1, 2], [3, 3]]), StartGame(),
                          RecordGame(1, 1, "2026-11-20"))
    campaign, facts = finish_checklist(campaign, facts, 1)
    campaign, _ = run(campaign, facts, StartGame())
    return campaign


def test_legacy_paper_register_sheet_has_a_line_per_game() -> None:
    campaign = recorded_campaign()
    section = paper.register_sheet(campaign)
    assert [line.key for line in section.seating] == ["legacy_games_played"]
    assert dict(section.seating[0].values) == {"done": 1, "total": GAMES}
    group, register = section.parts
    assert group.heading == "legacy_group" and group.grid is not None
    assert [c.key for c in group.grid.columns] == ["player", "colour", "legacy_city"]
    assert group.grid.rows == (("Joke", "red", "Zonnedal"), ("Ben", "blue", "Havenstad"),
                               ("Toon", "green", "Bergen"))
    assert register.heading == "legacy_register" and register.grid is not None
    assert [line.style for line in register.lines] == [NOTE]
    rows = register.grid.rows
    assert len(rows) == GAMES and [row[0] for row in rows] == list(range(1, GAMES + 1))
    assert rows[0] == (1, "2026-11-20", "Ben", "Havenstad")
    assert rows[1] == (2, "", "", "")  # started, not recorded: blank to fill in


def test_legacy_paper_register_sheet_leaves_a_withdrawn_line_blank() -> None:
    """The undo of a game's winning move withdraws its line: the sheet prints no winner for it
    (the players cross it out on theirs), and the line written when it is won again."""
    campaign, facts = new_campaign()
    campaign, facts = run(campaign, facts, RollForStart([[6, 6], [1, 2], [3, 3]]), StartGame(),
                          RecordGame(1, 1, "2026-11-20"), WithdrawGame(1))
    section = paper.register_sheet(campaign)
    assert dict(section.seating[0].values)["done"] == 0
    assert section.parts[1].grid.rows[0] == (1, "", "", "")  # type: ignore[union-attr]
    campaign, _ = run(campaign, facts, RecordGame(1, 2, "2026-11-21"))
    assert paper.register_sheet(campaign).parts[1].grid.rows[0] == (  # type: ignore[union-attr]
        1, "2026-11-21", "Toon", "Bergen")


def test_legacy_paper_register_sheet_of_a_new_campaign_is_blank() -> None:
    campaign, _ = new_campaign()
    section = paper.register_sheet(campaign)
    assert dict(section.seating[0].values)["done"] == 0
    assert all(row[1:] == ("", "", "") for row in section.parts[1].grid.rows)  # type: ignore[union-attr]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("paper_size", PAPERS)
def test_legacy_paper_register_sheet_prints(lang: str, paper_size: str, tmp_path: Path) -> None:
    sheet = drawn.SeriesSheet("Legacy night", "Our island", "legacy",
                              game_setup(paper.register_sheet(recorded_campaign()), ()))
    pdf = series_sheets([sheet], lang, paper_size)
    pages = page_texts(pdf)
    assert len(pages) == 1
    page = pages[0]
    assert "Our island" in page and "Legacy night" in page
    for key in ("series_title", "legacy_group", "legacy_register", "legacy_game", "legacy_date",
                "legacy_winner", "legacy_city", "colour", "colour_red", "colour_blue",
                "colour_green", "legacy_register_note"):
        assert says(page, text(lang, key)), key
    assert says(page, text(lang, "legacy_games_played", done=1, total=GAMES))
    for word in ("Joke", "Havenstad", "Zonnedal", "Bergen", "2026-11-20"):
        assert word in page, word
    assert "10" in page
    if lang == "he":
        for word in ("פנקס העיר", "אדום", "כחול"):
            assert word in page and get_display(word) not in page, word
    image = rasterise(pdf, tmp_path, "register")[0]
    assert image.getbbox() is not None
    save_artifact(image, f"legacy-register-{paper_size}-{lang}")


def test_legacy_paper_no_series_says_so() -> None:
    for lang in LANGS:
        page = page_texts(series_sheets([], lang, event_name="Demo night"))[0]
        assert says(page, text(lang, "no_series")) and "Demo night" in page
    unknown = drawn.SeriesSheet("Night", "X", "chess")
    assert says(page_texts(series_sheets([unknown], "en"))[0],
                text("en", "unknown_series", name="chess"))
    assert series_sheet("Night", "chess", object()).sheet is None


def test_legacy_paper_register_sheet_through_the_hall(tmp_path: Path) -> None:
    """`companion print series-sheets`: one page per campaign of the event, the register as
    the hall recorded it."""
    hall, event_id, series_id = campaign_event(tmp_path / "hall.db")
    table = hall_series.series_of(hall, series_id).tables[1]
    hall_series.command(hall, series_id, {"command": "record_game", "number": 1, "winner": 1,
                                          "date": "2026-11-24"})
    assert table
    second = hall_series.create(hall, event_id, {"ruleset": "legacy", "name": "Second island",
                                                 "mayors": copy.deepcopy(MAYORS[:2])})
    assert second.id != series_id
    assert "series-sheets" in KINDS
    for lang in LANGS:
        pages = page_texts(render(hall, event_id, PrintOptions("series-sheets", "a4", lang)))
        assert len(pages) == 2
        assert "Our island" in pages[0] and "Second island" in pages[1]
        assert "2026-11-24" in pages[0] and "חיפה" in pages[0] and "דני כהן" in pages[0]
        assert says(pages[0], text(lang, "legacy_games_played", done=1, total=GAMES))
        assert says(pages[1], text(lang, "legacy_games_played", done=0, total=GAMES))


def test_legacy_paper_organizer_downloads_the_register(app: Any, tmp_path: Path) -> None:
    hall = hall_service(app)
    event = hall.create_event("Legacy night")
    hall_series.create(hall, event.id, {"ruleset": "legacy", "name": "Our island",
                                        "mayors": copy.deepcopy(MAYORS)})
    answer = api(app.test_client(), hall.organizer_key, "get",
                 f"/prints/series-sheets.pdf?event={event.id}&paper=letter&lang=he")
    assert answer.status_code == 200 and answer.data.startswith(b"%PDF")
    assert answer.headers["Content-Disposition"] == (
        f"attachment; filename=event-{event.id}-series-sheets-letter-he.pdf")
    page = page_texts(answer.data)[0]
    assert "Our island" in page and "Bergen op Zoom" in page


def test_legacy_paper_every_key_has_words_in_every_language() -> None:
    """Every key a Legacy sheet names (lines, headings, columns, score columns) is a printing
    string in en, he and nl, with the same fields."""
    from companion.printing.i18n import STRINGS
    from companion.printing.setup_sheets import CHIPS
    from companion.rules.legacy.campaign import MAYOR_COLOURS

    assert set(MAYOR_COLOURS) <= set(CHIPS)  # every mayor's colour has its chip
    options = LEGACY.check_options({"catalog": catalog_raw(), "game": 1, "first": 0,
                                    "landmarks": [ABC, ABC], "community": "lighthouse",
                                    "town_square": [["bakery"], []], "slot_costs": None})
    keys = {column.key for column in LEGACY.score_columns()}
    setup = LEGACY.table_setup(options)
    for section in (paper.setup_section(setup, 2), paper.register_sheet(recorded_campaign())):
        keys |= {line.key for line in section.seating}
        for part in section.parts:
            keys |= {part.heading} | {line.key for line in part.lines}
            keys |= {column.key for column in part.grid.columns} if part.grid else set()
    keys |= {f"colour_{colour}" for colour in MAYOR_COLOURS}
    for lang in LANGS:
        assert keys - {""} <= set(STRINGS[lang]), (lang, sorted(keys - set(STRINGS[lang])))


def test_legacy_paper_event_without_a_campaign_downloads_a_page_saying_so(app: Any) -> None:
    from companion.hall.demo import create_demo

    demo = create_demo(hall_service(app))
    answer = api(app.test_client(), demo["organizer_key"], "get",
                 "/prints/series-sheets.pdf?event=1&paper=a4&lang=nl")
    assert answer.status_code == 200
    page = page_texts(answer.data)[0]
    assert "Demo night" in page and says(page, text("nl", "no_series"))
