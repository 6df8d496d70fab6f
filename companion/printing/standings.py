"""The event standings sheet: every player's rank, table, wins, landmarks and coins."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from companion.printing.flow import heading, para, render_story, table
from companion.printing.i18n import is_rtl, text
from companion.printing.layouts import page_spec
from companion.printing.model import Standing


def standings(standing: Standing, lang: str = "en", paper: str = "a4") -> bytes:
    """The standings as ranked by the hall; long lists run on with the header repeated."""
    rtl = is_rtl(lang)
    spec = page_spec(paper)
    width = spec.page[0] - 2 * spec.margin
    keys = ("rank", "player", "table", "wins", "landmarks_built", "coins")
    header = [text(lang, k) for k in keys]
    rows = [
        [str(r.rank), r.player_name, r.table_name, str(r.wins), str(r.landmarks_built),
         str(r.coins)]
        for r in standing.rows
    ]
    widths = [f * width for f in (0.09, 0.29, 0.2, 0.14, 0.16, 0.12)]  # room for ניצחונות
    story: list[Flowable] = [
        para(standing.event_name, rtl),
        heading(standing.title or text(lang, "standings_title"), rtl, 18),
        Spacer(1, 4 * mm),
        table(header, rows, widths, rtl, size=10),
    ]
    return render_story(paper, standing.event_name or text(lang, "standings_title"), story)
