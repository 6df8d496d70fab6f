"""The setup sheet of a table with seed 001's variants (RULES.md 13-14) says so, read back
from the PDF with pypdf, in English and Hebrew: which variants, and the purple copies the
variable supply takes out of the game before its shuffle."""

import pytest
from test_printing import page_texts

from companion.hall.printables import table_sheet
from companion.printing import TableSheet, setup_sheets
from companion.rules.machi_koro.catalog import load_catalog

CATALOG = load_catalog()
PURPLE = [card for card in CATALOG.establishments.values() if card.is_purple]


def sheet(names: tuple[str, ...], **options: bool) -> TableSheet:
    """The sheet as the hall builds it, from the machi-koro ruleset's setup section."""
    return table_sheet("Variant night", "Table 1", "machi-koro", names, options, CATALOG)


def test_a_variant_tables_setup_sheet_names_its_variants_in_english():
    (page,) = page_texts(setup_sheets([sheet(("Ana", "Ben"), play_on=True, variable_supply=True)]))
    text = " ".join(page.split())
    assert "Variants" in text
    assert "Play on after a win" in text and "Variable supply: ten kinds face up" in text
    for card in PURPLE:  # two players: two of each purple card leave the game
        assert f"Out of the game before the shuffle: 2 × {card.names['en']}" in text, card.id
    assert "Supply, in activation order" in text  # the rest of the sheet is still there


def test_only_the_chosen_variants_and_no_removal_with_four_players():
    (page,) = page_texts(setup_sheets([sheet(("A", "B", "C", "D"), variable_supply=True)]))
    assert "Variable supply" in page and "Play on" not in page
    assert "Out of the game" not in page  # four players could buy every purple copy
    (page,) = page_texts(setup_sheets([sheet(("A", "B", "C"), play_on=True)]))
    assert "Play on after a win" in page and "Variable supply" not in page


def test_a_plain_tables_setup_sheet_has_no_variants():
    (page,) = page_texts(setup_sheets([sheet(("Ana", "Ben"))]))
    assert "Variants" not in page and "Play on" not in page


@pytest.mark.parametrize("lang", ["en", "he", "nl"])
@pytest.mark.parametrize("names", [("Ana", "Ben"), ("A", "B", "C"), ("A", "B", "C", "D")])
def test_a_variant_tables_setup_sheet_fits_one_a4_page(lang, names):
    texts = page_texts(setup_sheets([sheet(names, play_on=True, variable_supply=True)], lang=lang))
    assert len(texts) == 1, texts[1:]


@pytest.mark.parametrize("lang", ["he", "nl"])
def test_a_variant_tables_setup_sheet_in_hebrew_and_dutch_fits_one_page(lang):
    texts = page_texts(setup_sheets([sheet(("ענת", "Ben", "Dana"), play_on=True,
                                           variable_supply=True)], lang=lang))
    assert len(texts) == 1
    text = " ".join(texts[0].split())
    words = {"he": ("וריאנטים", "ממשיכים אחרי ניצחון", "היצע משתנה", "מחוץ למשחק לפני הערבוב"),
             "nl": ("Varianten", "Doorspelen na een zege", "Wisselende voorraad",
                    "Uit het spel voor het schudden")}[lang]
    for phrase in words:
        assert phrase in text, (phrase, text)
    for card in PURPLE:  # three players: one of each
        assert card.names[lang] in text
