"""The morning after: the night on one page. Who won at each table, the standings' top, the
hall's dice against fair dice as a chart (vector, drawn here with reportlab's graphics), the
longest and shortest games, and the corrections and undos made."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, KeepInFrame, Spacer

from companion.printing.flow import FRAME_PADDING, heading, para, render_story, shares, table
from companion.printing.fonts import BOLD, REGULAR
from companion.printing.i18n import is_rtl, text
from companion.printing.layouts import page_spec
from companion.printing.model import Column, GameLength, NightReport, TableOutcome
from companion.printing.textfit import embed, visual

TOTALS = tuple(range(2, 13))  # the two dice's totals, the chart's bars
WAYS = tuple(6 - abs(total - 7) for total in TOTALS)  # of the 36 pairs, how many make each total
PAIRS = 36  # two dice fall in 36 ways, each as likely
STANDINGS_SHOWN = 10  # the top of the standings; the standings sheet lists everyone
BAR_TINT = colors.Color(0.55, 0.68, 0.85)  # prints as a mid grey in black and white
FAIR_COLOUR = colors.Color(0.75, 0.1, 0.1)
CHART_HEIGHT = 62 * mm


def fair_counts(rolls: int) -> list[float]:
    """What fair dice would give in `rolls` rolls, per total: rolls x ways / 36."""
    return [rolls * ways / PAIRS for ways in WAYS]


def night_report(report: NightReport, lang: str = "en", paper: str = "a4") -> bytes:
    """The report on one page: a night with many tables or players is set smaller to fit."""
    spec = page_spec(paper)
    width = spec.page[0] - 2 * spec.margin
    height = spec.page[1] - 2 * spec.margin - 2 * FRAME_PADDING
    story = page(report, lang, width)
    title = text(lang, "report_title")
    return render_story(paper, f"{report.event_name}: {title}",
                        [KeepInFrame(width, height, story, mode="shrink")])


def page(report: NightReport, lang: str, width: float) -> list[Flowable]:
    rtl = is_rtl(lang)
    done = sum(1 for t in report.tables if t.outcome not in ("playing", "ended"))
    story: list[Flowable] = [para(report.event_name, rtl),
                             heading(text(lang, "report_title"), rtl, 18)]
    line = text(lang, "report_tables", done=done, total=len(report.tables))
    if report.printed_at:
        line += " · " + text(lang, "report_printed", time=embed(report.printed_at))
    story += [para(line, rtl, size=9), Spacer(1, 3 * mm)]
    story += winners(report, lang, width)
    story += dice(report, lang, width)
    story += lengths_and_fixes(report, lang)
    story += standings_top(report, lang, width)
    return story


def section(title_key: str, lang: str) -> Flowable:
    return heading(text(lang, title_key), is_rtl(lang), 13)


def winners(report: NightReport, lang: str, width: float) -> list[Flowable]:
    """Table, game and who won (or what became of the game), one line per table: side by side
    in two or three runs on a night of many tables; the game named once in the heading when
    every table played the same."""
    rtl = is_rtl(lang)
    if not report.tables:
        return [section("report_winners", lang), para(text(lang, "report_no_tables"), rtl)]
    games = {t.game for t in report.tables}
    title = text(lang, "report_winners")
    if len(games) == 1:
        title = f"{title} · {embed(games.pop())}"
        columns: tuple[Column, ...] = (Column("table", 0.45), Column("report_winner", 0.55))
    else:
        columns = (Column("table", 0.3), Column("report_game", 0.3), Column("report_winner", 0.4))
    cells = [[t.table_name, *([t.game] if len(columns) == 3 else []), who(t, lang)]
             for t in report.tables]
    runs = 1 if len(cells) <= 12 else 2 if len(cells) <= 32 or len(columns) == 3 else 3
    length = -(-len(cells) // runs)
    blank = [""] * len(columns)
    rows = [[value for run in range(runs)
             for value in (cells[run * length + i] if run * length + i < len(cells) else blank)]
            for i in range(length)]
    header = [text(lang, c.key) for c in columns] * runs
    grid = table(header, rows, shares(columns * runs, width), rtl, size=9 if runs == 1 else 8)
    return [heading(title, rtl, 13), grid, Spacer(1, 4 * mm)]


def who(line: TableOutcome, lang: str) -> str:
    """The winners' names, or what became of the game; a table the organizer ended says so."""
    names = ", ".join(line.winners)
    if line.outcome == "ended" and names:
        return text(lang, "report_ended_first", names=embed(names))
    return names or text(lang, f"report_{line.outcome}")


def dice(report: NightReport, lang: str, width: float) -> list[Flowable]:
    """The chart of the hall's totals against fair dice, and a line that reads it."""
    rtl = is_rtl(lang)
    rolls = sum(report.dice)
    story: list[Flowable] = [section("report_dice", lang)]
    if not rolls:
        return [*story, para(text(lang, "report_no_rolls"), rtl), Spacer(1, 4 * mm)]
    line = text(lang, "report_dice_line", rolls=rolls, doubles=report.doubles,
                fair_doubles=f"{rolls / 6:.1f}")
    if rolls >= PAIRS:  # below 36 rolls any total "above fair" is chance talking
        fair = fair_counts(rolls)
        most = max(range(len(TOTALS)), key=lambda i: (report.dice[i] - fair[i], -i))
        line += " " + text(lang, "report_dice_most", total=TOTALS[most], count=report.dice[most],
                           fair=f"{fair[most]:.1f}")
    return [*story, chart(report.dice, lang, width), para(line, rtl, size=9), Spacer(1, 4 * mm)]


def chart(counts: Sequence[int], lang: str, width: float) -> Drawing:
    """Bars: how often the hall rolled each total; a red mark on each: what fair dice would
    give in as many rolls. Totals run left to right in every language, as on the dice."""
    rtl = is_rtl(lang)
    fair = fair_counts(sum(counts))
    drawing = Drawing(width, CHART_HEIGHT)
    drawing.hAlign = "RIGHT" if rtl else "LEFT"  # with the text, when a long night is shrunk
    left, bottom, top = 10 * mm, 9 * mm, CHART_HEIGHT - 9 * mm
    plot = width - left - 2 * mm
    highest = max(max(counts), max(fair), 1.0)
    step = grid_step(highest)
    scale = (top - bottom) / (step * -(-highest // step))
    for value in range(0, int(step * -(-highest // step)) + 1, step):
        y = bottom + value * scale
        drawing.add(Line(left, y, left + plot, y, strokeColor=colors.Color(0.85, 0.85, 0.85),
                         strokeWidth=0.4))
        drawing.add(String(left - 2, y - 3, str(value), fontName=REGULAR, fontSize=7,
                           textAnchor="end"))
    slot = plot / len(TOTALS)
    for i, (total, count) in enumerate(zip(TOTALS, counts, strict=True)):
        x = left + i * slot
        drawing.add(Rect(x + slot * 0.18, bottom, slot * 0.64, count * scale, fillColor=BAR_TINT,
                         strokeColor=colors.Color(0.3, 0.4, 0.55), strokeWidth=0.5))
        y = bottom + fair[i] * scale  # the count above the bar and the mark, whichever is higher
        drawing.add(String(x + slot / 2, bottom + max(count * scale, fair[i] * scale + 1) + 2,
                           str(count), fontName=BOLD, fontSize=7, textAnchor="middle"))
        drawing.add(Line(x + slot * 0.08, y, x + slot * 0.92, y, strokeColor=FAIR_COLOUR,
                         strokeWidth=1.6, strokeDashArray=[3, 1.5]))
        drawing.add(String(x + slot / 2, bottom - 9, str(total), fontName=BOLD, fontSize=8,
                           textAnchor="middle"))
    legend(drawing, lang, rtl, width, CHART_HEIGHT - 5)
    return drawing


def grid_step(highest: float) -> int:
    """A round step for the count axis: about four lines over the tallest bar."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if highest / step <= 5:
            return step
    return int(highest // 4) or 1


def legend(drawing: Drawing, lang: str, rtl: bool, width: float, y: float) -> None:
    """The two keys above the chart, at the page's start edge (the right one in Hebrew)."""
    keys = [(text(lang, "report_legend_hall"), "bar"), (text(lang, "report_legend_fair"), "mark")]
    x = width if rtl else 10 * mm
    for words, mark in keys:
        shown = visual(words, "R" if rtl else "L")
        box = 9.0
        if rtl:
            x -= box
        if mark == "bar":
            drawing.add(Rect(x, y - 1, box, 6, fillColor=BAR_TINT, strokeWidth=0.5,
                             strokeColor=colors.Color(0.3, 0.4, 0.55)))
        else:
            drawing.add(Line(x, y + 2, x + box, y + 2, strokeColor=FAIR_COLOUR, strokeWidth=1.6,
                             strokeDashArray=[3, 1.5]))
        if rtl:
            drawing.add(String(x - 3, y, shown, fontName=REGULAR, fontSize=8, textAnchor="end"))
            x -= 3 + drawing_width(shown) + 14
        else:
            drawing.add(String(x + box + 3, y, shown, fontName=REGULAR, fontSize=8))
            x += box + 3 + drawing_width(shown) + 14


def drawing_width(words: str) -> float:
    return float(stringWidth(words, REGULAR, 8))


def length_line(lang: str, key: str, game: GameLength) -> str:
    return text(lang, key, table=embed(game.table_name), game=embed(game.game),
                time=duration(lang, game.minutes))


def duration(lang: str, minutes: int) -> str:
    """Minutes as hours and minutes: 1 h 05 min, 42 min."""
    if minutes < 60:
        return text(lang, "report_minutes", m=minutes)
    return text(lang, "report_hours", h=minutes // 60, m=f"{minutes % 60:02d}")


def lengths_and_fixes(report: NightReport, lang: str) -> list[Flowable]:
    """The longest and the shortest finished game, and what the organizer set right."""
    rtl = is_rtl(lang)
    story: list[Flowable] = [section("report_games", lang)]
    if report.lengths:
        story.append(para(length_line(lang, "report_longest", report.lengths[0]), rtl))
        if len(report.lengths) > 1:
            story.append(para(length_line(lang, "report_shortest", report.lengths[-1]), rtl))
    else:
        story.append(para(text(lang, "report_no_lengths"), rtl))
    story.append(para(text(lang, "report_corrections", n=report.corrections), rtl))
    story.append(para(text(lang, "report_undos", moves=report.undone_moves,
                           rolls=report.undone_rolls), rtl))
    return [*story, Spacer(1, 4 * mm)]


def standings_top(report: NightReport, lang: str, width: float) -> list[Flowable]:
    """The standings' first rows, in the standings sheet's columns."""
    rtl = is_rtl(lang)
    standing = report.standing
    story: list[Flowable] = [section("standings_title", lang)]
    if not standing.rows:
        return [*story, para(text(lang, "report_no_standings"), rtl)]
    columns = (Column("rank", 0.07), Column("player", 0.22), Column("table", 0.17),
               Column("wins", 0.09), *standing.columns)  # room for Bezienswaardigheden
    count = len(standing.columns)
    rows = [[str(r.rank), r.player_name, f"{embed(r.table_name)} *" if r.playing else r.table_name,
             str(r.wins), *[str(v) for v in r.scores[:count]], *[""] * (count - len(r.scores))]
            for r in standing.rows[:STANDINGS_SHOWN]]
    story.append(table([text(lang, c.key) for c in columns], rows, shares(columns, width), rtl,
                       size=9))
    more = len(standing.rows) - STANDINGS_SHOWN
    if more > 0:
        story.append(para(text(lang, "report_more_players", n=more), rtl, size=9))
    if any(r.playing for r in standing.rows[:STANDINGS_SHOWN]):
        story.append(para(text(lang, "standings_in_play_note"), rtl, size=9))
    return story
