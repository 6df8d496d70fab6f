"""A tournament's paper (RULES.md 25-29): the seating of a round by table and by name (an
alphabetical list to pin on the wall), the standings after a round, and a join card per player
(their player link's QR, on the join cards' business-card sheets). Its score sheets are
the result sheets of `score_sheets.py` with the players in start order and a points column."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, PageBreak, Spacer

from companion.printing import qr
from companion.printing.cutmarks import draw_cut_marks
from companion.printing.flow import heading, para, render_story, shares, table
from companion.printing.fonts import BOLD, REGULAR
from companion.printing.i18n import is_rtl, text
from companion.printing.join_cards import (
    HINT_Y,
    NAME_SIZE,
    PAD,
    SMALL_SIZE,
    _draw_short_url,
    fitting_lines,
    qr_box,
    text_column,
)
from companion.printing.layouts import Rect, card_grid, page_spec
from companion.printing.model import Column
from companion.printing.pdf import render
from companion.printing.textfit import draw_block


@dataclass(frozen=True)
class SeatedTable:
    """One table of a round: its name and its players in start order (the first starts)."""

    name: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class RoundSeating:
    """A round's seating: `round` is the round's label in the sheet's language."""

    event_name: str
    round: str
    tables: tuple[SeatedTable, ...]


@dataclass(frozen=True)
class TournamentLine:
    rank: int
    player_name: str
    wins: int
    points: str
    landmarks: int
    coins: int
    tables: int
    stage: str = ""  # after the final: the round the player reached (its words)


@dataclass(frozen=True)
class TournamentStanding:
    event_name: str
    title: str
    rows: tuple[TournamentLine, ...]
    note: str = ""  # under the title: the final's winner


def _width(paper: str) -> float:
    spec = page_spec(paper)
    return float(spec.page[0] - 2 * spec.margin)


def seating_sheets(seatings: tuple[RoundSeating, ...], lang: str = "en", paper: str = "a4") -> bytes:
    """For each round: the tables with their players in start order, then every player by
    name with their table and start position, each on pages of its own."""
    rtl, width = is_rtl(lang), _width(paper)
    story: list[Flowable] = []
    for seating in seatings:
        if story:
            story.append(PageBreak())
        most = max((len(t.players) for t in seating.tables), default=4)
        columns = (Column("table", 0.16), *[Column("player", 0.21)] * most)
        header = [text(lang, "table"), *[f"{n}" for n in range(1, most + 1)]]
        rows = [[t.name, *t.players, *[""] * (most - len(t.players))] for t in seating.tables]
        story += [para(seating.event_name, rtl),
                  heading(text(lang, "seating_by_table", round=seating.round), rtl, 18),
                  Spacer(1, 3 * mm),
                  table(header, rows, shares(columns, width), rtl, row_height=9 * mm, size=11),
                  PageBreak()]
        by_name = sorted(((name, t.name, position) for t in seating.tables
                          for position, name in enumerate(t.players, start=1)),
                         key=lambda entry: (entry[0].casefold(), entry[0]))
        columns = (Column("player", 0.55), Column("table", 0.25), Column("start_position", 0.2))
        story += [para(seating.event_name, rtl),
                  heading(text(lang, "seating_by_name", round=seating.round), rtl, 18),
                  Spacer(1, 3 * mm),
                  table([text(lang, c.key) for c in columns],
                        [[name, table_name, str(position)] for name, table_name, position in by_name],
                        shares(columns, width), rtl, size=11)]
    title = seatings[0].event_name if seatings else ""
    return render_story(paper, title or "seating", story or [Spacer(1, 1)])


STANDING_COLUMNS = (Column("rank", 0.09), Column("player", 0.33), Column("wins", 0.11),
                    Column("points", 0.11), Column("landmarks", 0.16), Column("coins", 0.1),
                    Column("played_tables", 0.1))
STAGED_COLUMNS = (*STANDING_COLUMNS[:2], Column("stage", 0.21), *STANDING_COLUMNS[2:])


def tournament_standings(standing: TournamentStanding, lang: str = "en", paper: str = "a4") -> bytes:
    """The standings: rank, player, wins, points, landmarks and coins over the rounds; after
    the final also the stage each player reached, and a note naming the winner."""
    rtl, width = is_rtl(lang), _width(paper)
    staged = any(r.stage for r in standing.rows)
    columns = STAGED_COLUMNS if staged else STANDING_COLUMNS
    header = [text(lang, c.key) for c in columns]
    rows = [[str(r.rank), r.player_name, *([r.stage] if staged else []), str(r.wins), r.points,
             str(r.landmarks), str(r.coins), str(r.tables)] for r in standing.rows]
    story: list[Flowable] = [para(standing.event_name, rtl), heading(standing.title, rtl, 18)]
    if standing.note:
        story.append(para(standing.note, rtl))
    story += [Spacer(1, 3 * mm), table(header, rows, shares(columns, width), rtl, size=10)]
    return render_story(paper, standing.event_name or standing.title, story)


@dataclass(frozen=True)
class PlayerCard:
    """A player's card for the whole tournament: the QR of their player link (`/t/TOKEN`,
    their seat every round) and, to type, the address of the "where do I sit?" page."""

    event_name: str
    player_name: str
    join_url: str
    short_url: str


def draw_player_card(c: Canvas, card: Rect, player: PlayerCard, lang: str) -> None:
    """The player's name big, what the card does, the event small; the QR at the top corner at
    the end of the reading direction, the address to type across the bottom (join_cards.py)."""
    rtl = is_rtl(lang)
    box = qr_box(card, rtl)
    qr.draw(c, player.join_url, box.x, box.y, box.w)
    x0, x1 = text_column(card, rtl)
    c.setFillColorRGB(0, 0, 0)
    top = draw_block(c, player.player_name, (x0, x1, card.y + card.h - PAD), (BOLD, NAME_SIZE, 2),
                     rtl)
    top = draw_block(c, text(lang, "player_card"), (x0, x1, top - 1.5 * mm), (BOLD, 9, 1), rtl)
    floor = card.y + HINT_Y + 1 * mm
    lines = fitting_lines(top - 1 * mm - floor, SMALL_SIZE, 3)
    top = draw_block(c, text(lang, "player_card_hint"), (x0, x1, top - 1 * mm),
                     (REGULAR, SMALL_SIZE, lines), rtl)
    c.setFillColorRGB(0.3, 0.3, 0.3)
    lines = fitting_lines(top - 0.6 * mm - floor, SMALL_SIZE, 2)
    if lines and top - 0.6 * mm - SMALL_SIZE > floor:
        draw_block(c, player.event_name, (x0, x1, top - 0.6 * mm), (REGULAR, SMALL_SIZE, lines),
                   rtl)
    c.setFillColorRGB(0, 0, 0)
    _draw_short_url(c, card, player.short_url, lang)


def player_cards(cards: Sequence[PlayerCard], paper: str = "a4", lang: str = "en") -> bytes:
    """A card per player on business-card sheets with cut marks (A4: Avery C32011, Letter:
    5371), in the order given."""
    grid = card_grid(paper)
    text(lang, "player_card")  # refuse an unknown language before drawing anything
    title = cards[0].event_name if cards else text(lang, "player_card")

    def draw(c: Canvas) -> None:
        per_page = grid.per_page
        sheets = [list(cards[i:i + per_page]) for i in range(0, len(cards), per_page)] or [[]]
        for sheet in sheets:
            draw_cut_marks(c, grid)
            for player, slot in zip(sheet, grid.cards, strict=False):
                draw_player_card(c, slot, player, lang)
            c.showPage()

    return render(grid.page, title, draw)
