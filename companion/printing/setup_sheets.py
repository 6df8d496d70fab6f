"""Setup sheets: one page per table, with the sections its ruleset registers.

`SECTIONS` is the extension point: a ruleset adds its list of section functions
(sheet, lang, width) -> flowables with `register`, as coop_setup.py does for the co-op game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from companion.printing.flow import heading, one_page_each, para, table
from companion.printing.i18n import is_rtl, text
from companion.printing.model import TableSheet
from companion.printing.textfit import embed
from companion.rules.machi_koro.catalog import Establishment, load_catalog

Section = Callable[[TableSheet, str, float], list[Flowable]]
"""A part of a setup sheet: (sheet, lang, frame width) -> flowables."""

SECTIONS: dict[str, list[Section]] = {}

TINTS = {"blue": "#dbe8fb", "green": "#dcf2dc", "red": "#fadcdc", "purple": "#eadcf5"}


def register(ruleset: str, *sections: Section) -> None:
    """Make `ruleset`'s setup sheet the given sections, in order."""
    SECTIONS[ruleset] = list(sections)


def seats_section(sheet: TableSheet, lang: str, width: float) -> list[Flowable]:
    """Who sits where."""
    rtl = is_rtl(lang)
    rows = [[str(n), name] for n, name in enumerate(sheet.seats, start=1)]
    widths = [0.15 * width, 0.85 * width]
    return [
        heading(text(lang, "seats"), rtl, 12),
        table([text(lang, "seat"), text(lang, "player")], rows, widths, rtl),
        Spacer(1, 5 * mm),
    ]


def roll_range(card: Establishment) -> str:
    """Activation numbers as a range: 2–3, 9–10."""
    low, high = min(card.activation), max(card.activation)
    return str(low) if low == high else f"{low}–{high}"


def player_section(sheet: TableSheet, lang: str, width: float) -> list[Flowable]:
    """What each player takes: the starting cards, the coins, the landmarks face down."""
    rtl, catalog = is_rtl(lang), load_catalog()
    lines = [f"{c.starting} × {c.names[lang]}" for c in catalog.establishments.values()
             if c.starting]
    lines.append(text(lang, "coins_n", n=catalog.starting_coins))
    lines.append(text(lang, "landmarks_face_down", n=len(catalog.landmarks)))
    landmarks = [f"◦ {m.names[lang]} ({m.cost})" for m in catalog.landmarks.values()]
    return [
        heading(text(lang, "each_player_takes"), rtl, 12),
        *[para(f"• {line}", rtl, after=1) for line in lines],
        *[para(line, rtl, size=9) for line in landmarks],
        Spacer(1, 5 * mm),
    ]


def supply_section(sheet: TableSheet, lang: str, width: float) -> list[Flowable]:
    """The supply stacks in activation order, with how many cards each holds."""
    rtl, catalog = is_rtl(lang), load_catalog()
    cards = list(catalog.establishments.values())  # the catalog keeps them in activation order
    header = [text(lang, k) for k in ("roll", "card", "cost", "count")]
    rows = [[roll_range(c), c.names[lang], str(c.cost), str(c.copies)] for c in cards]
    grid = table(header, rows, [0.14 * width, 0.58 * width, 0.14 * width, 0.14 * width], rtl,
                 size=9.5)
    column = len(header) - 1 if rtl else 0
    tints = [(i + 1, colors.HexColor(TINTS[c.colour])) for i, c in enumerate(cards)
             if c.colour in TINTS]
    grid.setStyle([("BACKGROUND", (column, row), (column, row), tint) for row, tint in tints])
    return [heading(text(lang, "supply"), rtl, 12), grid, Spacer(1, 5 * mm)]


def box_section(sheet: TableSheet, lang: str, width: float) -> list[Flowable]:
    """What goes back in the box when fewer than all seats play, and what stays in the bank."""
    catalog = load_catalog()
    players = len(sheet.seats)
    empty = max(0, catalog.players_max - players)
    lines = [f"{c.starting * empty} × {c.names[lang]}" for c in catalog.establishments.values()
             if c.starting and empty]
    if empty:
        lines.append(text(lang, "landmark_sets_n", n=empty))
    return box_part(lang, lines, catalog.bank_coins - players * catalog.starting_coins)


def box_part(lang: str, lines: list[str], bank: int) -> list[Flowable]:
    """The "back in the box" part of a sheet: `lines` (or "nothing"), then the bank's coins."""
    rtl = is_rtl(lang)
    return [
        heading(text(lang, "back_in_box"), rtl, 12),
        *[para(f"• {line}", rtl, after=1) for line in lines or [text(lang, "nothing_back")]],
        Spacer(1, 3 * mm),
        para(f"{text(lang, 'bank')}: {text(lang, 'bank_coins', n=bank)}", rtl),
    ]


def unknown_section(sheet: TableSheet, lang: str, width: float) -> list[Flowable]:
    """A note for rulesets that have no sections yet, so the rest of the event still prints."""
    return [para(text(lang, "unknown_ruleset", name=sheet.ruleset), is_rtl(lang))]


register("machi-koro", seats_section, player_section, supply_section, box_section)


def _page(sheet: TableSheet, lang: str, width: float) -> list[Flowable]:
    """One table's page: the header, then its ruleset's sections."""
    rtl = is_rtl(lang)
    sections = SECTIONS.get(sheet.ruleset, [seats_section, unknown_section])
    story: list[Flowable] = [
        para(sheet.event_name, rtl, size=10),
        heading(f"{text(lang, 'setup_title')}: {embed(sheet.table_name)}", rtl, 18),
    ]
    for section in sections:
        story.extend(section(sheet, lang, width))
    return story


def setup_sheets(tables: Sequence[TableSheet], lang: str = "en", paper: str = "a4") -> bytes:
    """Setup sheets for every table, one page each, drawn by the table's ruleset."""
    title = tables[0].event_name if tables else text(lang, "setup_title")
    return one_page_each(tables, _page, lang, paper, title)
