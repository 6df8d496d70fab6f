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
from companion.printing.setup_sheets import (
    box_part,
    player_section,
    register,
    roll_range,
    seats_section,
)
from companion.printing.textfit import embed
from companion.rules.coop.assessor import ASSESSOR_COINS, ASSESSOR_DECK
from companion.rules.coop.state import RULESET, market_cards
from companion.rules.machi_koro.catalog import Establishment, load_catalog


def assessor_coins(sheet: TableSheet) -> int:
    """The organizer's setting for this table, or the variant's 13."""
    return int(dict(sheet.options).get("assessor_coins", ASSESSOR_COINS))


def _cards(ids: Counter[str]) -> list[Establishment]:
    return [card for card in load_catalog().establishments.values() if ids[card.id]]


def seating_section(sheet: TableSheet, lang: str, width: float) -> list[Flowable]:
    """The seats, and the assessor sitting after the second player (RULES.md 16)."""
    first, second = (embed(name) for name in (*sheet.seats, "?", "?")[:2])
    return [*seats_section(sheet, lang, width)[:-1],
            para(text(lang, "coop_seating", first=first, second=second), is_rtl(lang)),
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
              text(lang, "coop_assessor"), text(lang, "coop_market")]
    widths = [0.12 * width, 0.44 * width, 0.12 * width, 0.16 * width, 0.16 * width]
    return [
        heading(text(lang, "coop_title"), rtl, 12),
        para(f"• {text(lang, 'coop_deck', n=sum(deck.values()))}", rtl, after=1),
        para(f"• {text(lang, 'coop_coins', n=assessor_coins(sheet))}", rtl, bold=True, after=1),
        para(f"• {text(lang, 'coop_market_deck', n=sum(market.values()))}", rtl, after=1),
        para(text(lang, "coop_market_note"), rtl, size=9, after=3),
        table(header, rows, widths, rtl, size=9),
        Spacer(1, 5 * mm),
    ]


def box_section(sheet: TableSheet, lang: str, width: float) -> list[Flowable]:
    """The two unused landmark sets go back; the bank keeps the rest of the coins."""
    catalog = load_catalog()
    sets = text(lang, "landmark_sets_n", n=catalog.players_max - 2)
    return box_part(lang, [sets],
                    catalog.bank_coins - 2 * catalog.starting_coins - assessor_coins(sheet))


register(RULESET, seating_section, player_section, decks_section, box_section)
