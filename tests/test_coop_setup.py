"""The co-op Tax Assessor's setup sheet (RULES.md 16), read back from the PDF with pypdf."""

from collections import Counter

import pytest
from test_printing import page_texts

from companion.hall.model import HallEvent, Seat, Table
from companion.hall.printables import table_sheet, table_sheets
from companion.printing import TableSheet, setup_sheets
from companion.rules.coop.assessor import ASSESSOR_DECK
from companion.rules.coop.state import market_cards
from companion.rules.machi_koro.catalog import load_catalog

CATALOG = load_catalog()


def sheet(**options: int) -> TableSheet:
    """The sheet as the hall builds it, from the co-op ruleset's setup section."""
    return table_sheet("Co-op night", "Pair", "machi-koro-coop", ("Ana", "Ben"), options, CATALOG)


def test_rule16_coop_setup_sheet_is_registered():
    """The co-op ruleset (through the registry) lays out its own sheet, not the seats alone."""
    assert sheet().game is not None and sheet().game.parts


def test_rule16_coop_setup_sheet_lists_the_assessor_cards_coins_market_and_seating():
    (page,) = page_texts(setup_sheets([sheet(assessor_coins=9)]))
    assert "Play order: Ana, then Ben, then the Tax Assessor. Ana starts." in page
    assert "the 17 cards of the Assessor column" in page
    assert "9 coins from the bank beside the assessor" in page
    assert "the 71 cards of the Market column" in page
    assert "rightmost card" in page
    assert f"{CATALOG.bank_coins - 6 - 9} coins stay in the bank" in page
    assert "2 × set of landmarks" in page
    cells = page.splitlines()  # pypdf reads the table a cell per line
    market = Counter(market_cards(CATALOG))
    for card in CATALOG.establishments.values():
        at = cells.index(card.names["en"])
        assessor = str(ASSESSOR_DECK.get(card.id, "–"))
        assert cells[at + 1:at + 4] == [str(card.cost), assessor, str(market[card.id])], card.id
    assert sum(market.values()) == 71 and sum(ASSESSOR_DECK.values()) == 17


def test_rule16_coop_setup_sheet_default_coins_are_13():
    (page,) = page_texts(setup_sheets([sheet()]))
    assert "13 coins from the bank beside the assessor" in page
    assert f"{CATALOG.bank_coins - 6 - 13} coins stay in the bank" in page


@pytest.mark.parametrize(("lang", "phrase"), [
    ("nl", "Speelvolgorde: Ana, dan Ben, dan de belastinginspecteur."),
    ("he", "גובה המסים"),
])
def test_rule16_coop_setup_sheet_in_dutch_and_hebrew_fits_one_page(lang, phrase):
    texts = page_texts(setup_sheets([sheet(assessor_coins=11)], lang=lang))
    assert len(texts) == 1
    assert phrase in texts[0]
    assert "11" in texts[0]


def test_rule16_hall_tables_print_with_their_assessor_coins():
    table = Table("1", "1", "Pair", "machi-koro-coop", "own", [Seat("Ana", "t1"), Seat("Ben", "t2")],
                  options={"assessor_coins": 15})
    (printed,) = table_sheets(HallEvent("1", "Night"), [table])
    assert dict(printed.options) == {"assessor_coins": 15}
    assert "15 coins from the bank beside the assessor" in page_texts(setup_sheets([printed]))[0]
