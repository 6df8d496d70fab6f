"""The setup sheet of a co-op Tax Assessor table (RULES.md 16): the seating with the assessor
after the second player, each player's cards, the assessor's 17 cards and coins, the market
deck, and what stays in the box and the bank. Registered for `machi-koro-coop`."""

from __future__ import annotations

from collections import Counter

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from companion.printing.flow import heading, para, table
from companion.printing.i18n import is_rtl, text
from companion.printing.model import TableSheet
from companion.printing.setup_sheets import player_section, register, roll_range, seats_section
from companion.printing.textfit import embed
from companion.rules.assessor import ASSESSOR_COINS, ASSESSOR_DECK
from companion.rules.catalog import Establishment, load_catalog
from companion.rules.coop_state import RULESET, market_cards

STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "title": "The Tax Assessor (co-op)",
        "seating": "Play order: {first}, then {second}, then the Tax Assessor. {first} starts.",
        "deck": "The assessor's deck: the {n} cards of the Assessor column, shuffled, face down",
        "coins": "{n} coins from the bank beside the assessor",
        "market_deck": "The market deck: the {n} cards of the Market column, shuffled, face "
                       "down; four face up in a row",
        "assessor": "Assessor",
        "market": "Market",
        "market_note": "No supply piles: players buy only from the row. A turn without a "
                       "purchase discards the rightmost card; the row refills to four.",
    },
    "he": {
        "title": "גובה המסים (משחק שיתופי)",
        "seating": "סדר התורות: {first}, אחריו {second}, ואחריהם גובה המסים. "
                   "התור הראשון: {first}.",
        "deck": "החפיסה של גובה המסים: {n} הקלפים שבעמודה 'גובה המסים', מעורבבים, "
                "עם הפנים למטה",
        "coins": "{n} מטבעות מהבנק ליד גובה המסים",
        "market_deck": "חפיסת השוק: {n} הקלפים שבעמודה 'שוק', מעורבבים, עם הפנים למטה; "
                       "ארבעה גלויים בשורה",
        "assessor": "גובה המסים",
        "market": "שוק",
        "market_note": "אין ערימות אספקה: קונים רק מהשורה. בתור בלי קנייה הקלף הימני ביותר "
                       "יוצא מהשורה; השורה מתמלאת שוב לארבעה.",
    },
    "nl": {
        "title": "De belastinginspecteur (coöperatief)",
        "seating": "Speelvolgorde: {first}, dan {second}, dan de belastinginspecteur. "
                   "{first} begint.",
        "deck": "De stapel van de inspecteur: de {n} kaarten van de kolom Inspecteur, "
                "geschud, gedekt",
        "coins": "{n} munten uit de bank naast de inspecteur",
        "market_deck": "De marktstapel: de {n} kaarten van de kolom Markt, geschud, gedekt; "
                       "vier open op een rij",
        "assessor": "Inspecteur",
        "market": "Markt",
        "market_note": "Geen voorraadstapels: spelers kopen alleen uit de rij. Een beurt "
                       "zonder aankoop legt de meest rechtse kaart af; de rij wordt weer "
                       "aangevuld tot vier.",
    },
}


def coop_text(lang: str, key: str, **values: object) -> str:
    """The co-op sheet's string `key` in `lang` (checked by the sheet's header before)."""
    return STRINGS[lang][key].format(**values)


def assessor_coins(sheet: TableSheet) -> int:
    """The organizer's setting for this table, or the variant's 13."""
    return int(dict(sheet.options).get("assessor_coins", ASSESSOR_COINS))


def _cards(ids: Counter[str]) -> list[Establishment]:
    return [card for card in load_catalog().establishments.values() if ids[card.id]]


def seating_section(sheet: TableSheet, lang: str, width: float) -> list[Flowable]:
    """The seats, and the assessor sitting after the second player (RULES.md 16)."""
    first, second = (embed(name) for name in (*sheet.seats, "?", "?")[:2])
    return [*seats_section(sheet, lang, width)[:-1],
            para(coop_text(lang, "seating", first=first, second=second), is_rtl(lang)),
            Spacer(1, 5 * mm)]


def decks_section(sheet: TableSheet, lang: str, width: float) -> list[Flowable]:
    """One table of the cards left after the starting hands: how many form the assessor's
    deck (17) and how many the market deck (the rest plus the unused starting Wheat Fields
    and Bakeries), with the assessor's values and the costs; then the assessor's coins."""
    rtl = is_rtl(lang)
    deck = Counter(ASSESSOR_DECK)
    market = Counter(market_cards(load_catalog()))
    rows = [[roll_range(c), c.names[lang], str(c.cost), str(deck[c.id] or "–"), str(market[c.id])]
            for c in _cards(deck + market)]
    header = [text(lang, "roll"), text(lang, "card"), text(lang, "cost"),
              coop_text(lang, "assessor"), coop_text(lang, "market")]
    widths = [0.12 * width, 0.44 * width, 0.12 * width, 0.16 * width, 0.16 * width]
    return [
        heading(coop_text(lang, "title"), rtl, 12),
        para(f"• {coop_text(lang, 'deck', n=sum(deck.values()))}", rtl, after=1),
        para(f"• {coop_text(lang, 'coins', n=assessor_coins(sheet))}", rtl, bold=True, after=1),
        para(f"• {coop_text(lang, 'market_deck', n=sum(market.values()))}", rtl, after=1),
        para(coop_text(lang, "market_note"), rtl, size=9, after=3),
        table(header, rows, widths, rtl, size=9),
        Spacer(1, 5 * mm),
    ]


def box_section(sheet: TableSheet, lang: str, width: float) -> list[Flowable]:
    """The two unused landmark sets go back; the bank keeps the rest of the coins."""
    rtl, catalog = is_rtl(lang), load_catalog()
    empty = catalog.players_max - 2
    bank = catalog.bank_coins - 2 * catalog.starting_coins - assessor_coins(sheet)
    return [
        heading(text(lang, "back_in_box"), rtl, 12),
        para(f"• {text(lang, 'landmark_sets_n', n=empty)}", rtl, after=1),
        Spacer(1, 3 * mm),
        para(f"{text(lang, 'bank')}: {text(lang, 'bank_coins', n=bank)}", rtl),
    ]


register(RULESET, seating_section, player_section, decks_section, box_section)
