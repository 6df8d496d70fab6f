"""A Harbor table's setup sheet is laid out from its own card sets (docs/rules.md 30-31)."""

from __future__ import annotations

import pytest
from test_printing import page_texts

from companion.hall.model import HallEvent, Seat, Table
from companion.hall.printables import table_sheets
from companion.printing.setup_sheets import setup_sheets


def harbor_table(seats: int) -> Table:
    return Table("1", "1", "Harbor 1", "machi-koro", "own",
                 [Seat(name, f"t{n}") for n, name in enumerate("ABCDE"[:seats])],
                 card_sets=("base", "harbor"))


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ("Tuna Boat", "City Hall", "Airport", "Variable supply")),
    ("nl", ("Tonijnboot", "Stadhuis", "Luchthaven")),
    ("he", ("טונה",)),
])
def test_ruling_30_a_harbor_tables_setup_sheet_shows_its_cards(lang, words):
    (sheet,) = table_sheets(HallEvent("1", "Night"), [harbor_table(5)])
    text = "\n".join(page_texts(setup_sheets([sheet], lang=lang)))
    for word in words:
        assert word in text, word


def test_ruling_31_city_hall_is_laid_out_face_up_not_among_the_landmarks_to_build():
    (sheet,) = table_sheets(HallEvent("1", "Night"), [harbor_table(3)])
    text = "\n".join(page_texts(setup_sheets([sheet])))
    assert "the 6 landmarks, face down:" in text
    assert "City Hall, face up: built from the start" in text
