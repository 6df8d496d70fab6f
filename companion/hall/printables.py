"""The printouts of one event, built from the hall service's tables, seats and states.

The one bridge between the hall and the drawing code: `companion print` calls `render`, the
organizer's downloads `prepare` (then draw off the server's event loop). The hall's lock is held
only while the values are copied out, never while drawing (1,100 join cards take seconds).

The printing knows no game: what a setup sheet says of a table's game, the score sheets'
columns and each seat's figures and place come from the table's ruleset (its `paper.py`,
through the registry) and are copied here into the printing's plain model."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial
from typing import Any
from urllib.parse import urlsplit

from companion.hall import clock, night
from companion.hall import series as hall_series
from companion.hall.checks import N_, Detail
from companion.hall.model import HallEvent, Table
from companion.hall.state import HallState
from companion.paper import competition_ranks
from companion.printing import join_cards, poster, score_sheets, setup_sheets, standings
from companion.printing import model as drawn  # what the printing draws
from companion.printing.i18n import STRINGS, add_words, text
from companion.printing.layouts import card_papers, page_papers
from companion.printing.model import NOT_STARTED, PLAYING, RESULT, Column, TableSheet, Wifi
from companion.printing.report import night_report
from companion.printing.series_sheets import series_sheets
from companion.rules import paper as said  # what a ruleset says of its paper
from companion.rules.errors import RuleError
from companion.rules.registry import AnyRuleset, names, ruleset
from companion.rules.ruleset import Series, SharedTurn

for _name in names():  # each game's own words on paper: printing knows no game
    add_words(ruleset(_name).paper_words())

KINDS = ("join-cards", "setup-sheets", "score-sheets", "standings", "poster", "series-sheets",
         "report")
WITH_ADDRESS = ("join-cards", "poster")  # the kinds that print the base URL, as text and QR
LANGS = tuple(STRINGS)
JOIN_PATH = "/"  # the general join page: a joined phone goes back to its seat, others learn how to join


@dataclass(frozen=True)
class PrintOptions:
    """What the organizer asked for, checked by `check` before anything is read or drawn."""

    kind: str
    paper: str = "a4"
    lang: str = "en"
    base_url: str = ""
    wifi: Wifi | None = None


def hall_wifi(ssid: str, password: str) -> Wifi | None:
    """The hall's Wi-Fi as the organizer typed it: WPA with a password, open without, none
    without a network name. A password without a name is a ValueError (each caller names its
    own fields)."""
    if password and not ssid:
        raise ValueError("a Wi-Fi password needs the network's name")
    return Wifi(ssid, password, "WPA" if password else "nopass") if ssid else None


def problem(options: PrintOptions) -> Detail | None:
    """The kind, paper, language or base URL we cannot print, naming the value, in words each
    caller says in its own language (the command in English, a download in the page's); None
    when all can be printed."""
    if options.kind not in KINDS:
        return Detail(N_("unknown kind {kind}; expected one of {kinds}"),
                      {"kind": repr(options.kind), "kinds": ", ".join(KINDS)})
    papers = card_papers() if options.kind == "join-cards" else page_papers()
    if options.paper not in papers:
        return Detail(N_("{kind} print on {papers}, not {paper}"),
                      {"kind": options.kind, "papers": ", ".join(papers), "paper": repr(options.paper)})
    if options.lang not in LANGS:
        return Detail(N_("unknown language {lang}; expected one of {langs}"),
                      {"lang": repr(options.lang), "langs": ", ".join(LANGS)})
    if options.kind in WITH_ADDRESS and not is_base_url(options.base_url):
        return Detail(N_("the base URL must start with http:// or https:// and name the server, "
                         "like {example}, not {url}"),
                      {"example": "http://192.168.1.20:5000", "url": repr(options.base_url)})
    return None


def check(options: PrintOptions) -> None:
    """Refuse, in English, what `problem` finds, and an address no phone can open (ValueError).
    The command and the download look for that one first, to say what to do in their words."""
    found = problem(options) or unreachable(options)
    if found is not None:
        raise ValueError(found.say())


def unreachable(options: PrintOptions) -> Detail | None:
    """The words for a printout that would carry an address no phone can open (served with
    --host 127.0.0.1, or on a laptop with no LAN address), else None. Said by the download;
    the command says what to do with its own options."""
    if options.kind not in WITH_ADDRESS or not is_base_url(options.base_url):
        return None  # no address on paper, or one `problem` refuses
    if not phones_cannot_open(options.base_url):
        return None
    return Detail(N_("phones cannot open {url}: it is this laptop's own address (loopback) or "
                     "a link-local one. Connect the laptop to the hall's network and serve "
                     "there (companion serve, without --host 127.0.0.1), or start companion "
                     "serve with --base-url and the address phones use"),
                  {"url": options.base_url.rstrip("/")})


def phones_cannot_open(url: str) -> bool:
    """True when the URL's host is one no phone in the hall reaches: loopback (127.0.0.0/8,
    ::1, localhost and names under .localhost), link-local (169.254.0.0/16, fe80::/10: a
    cable without DHCP) or unspecified (0.0.0.0, ::). A name may be the hall's: it passes."""
    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])  # without an IPv6 zone (%eth0)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback or ip.is_link_local or ip.is_unspecified


def is_base_url(url: str) -> bool:
    """An address every join URL can start with: a scheme and a host, an optional port and path,
    no spaces, query or fragment (a QR of http:///j/TOKEN takes no phone anywhere)."""
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018  (reading it checks it)
    except ValueError:
        return False
    return (parts.scheme in ("http", "https") and bool(parts.hostname) and not parts.query
            and not parts.fragment and not any(ch.isspace() for ch in url))


def render(hall: HallState, event_id: str, options: PrintOptions,
           now: datetime | None = None) -> bytes:
    """The PDF of one kind of printout for the event. Unknown event: HallError (404)."""
    return prepare(hall, event_id, options, now)()


def prepare(hall: HallState, event_id: str, options: PrintOptions,
            now: datetime | None = None) -> Callable[[], bytes]:
    """Copy the event's values out under the hall's lock (the night's report then reads its
    journal records, after the lock); the function returned draws them and touches nothing of
    the hall, so it may run in another thread. `now` is the time a sheet printed before the end
    shows (default: the laptop's clock as the values are read)."""
    check(options)
    with hall.lock:
        event = hall.event(event_id)
        stamp = printed_at(now or datetime.now())
        if options.kind == "series-sheets":
            return partial(series_sheets, event_series_sheets(hall, event), options.lang,
                           options.paper, event.name)
        if options.kind != "report":
            return _drawing(event, hall.tables_of(event), options, stamp)
        read = event_report(hall, event, options.lang, stamp)
    # The night's records are read here, after the hall's lock, on the caller's thread as every
    # journal read (the drawing may run in a native thread; the journal's connection stays out).
    return partial(night_report, read(), options.lang, options.paper)


def printed_at(now: datetime) -> str:
    """The time on a sheet printed before the end, to the minute, in the laptop's local time:
    read here, by the printing side (the rules never read a clock)."""
    return now.strftime("%Y-%m-%d %H:%M")


def _drawing(event: HallEvent, tables: Sequence[Table], o: PrintOptions,
             stamp: str) -> Callable[[], bytes]:
    """The values copied out of the hall now, bound to the function that draws them later."""
    base = o.base_url.rstrip("/")
    if o.kind == "join-cards":
        return partial(join_cards, seat_cards(event, tables, base), o.paper, o.lang, o.wifi)
    if o.kind == "setup-sheets":
        return partial(setup_sheets, table_sheets(event, tables), o.lang, o.paper)
    if o.kind == "score-sheets":
        return partial(score_sheets, table_results(event, tables, stamp), o.lang, o.paper)
    if o.kind == "standings":
        return partial(standings, event_standing(event, tables, o.lang, stamp), o.lang, o.paper)
    return partial(poster, hall_poster(event, base), o.paper, o.lang, o.wifi)


def filename(event_id: str, options: PrintOptions) -> str:
    """A download's name, ASCII only: event-1-join-cards-a4-en.pdf."""
    safe_id = "".join(ch for ch in event_id if ch.isascii() and ch.isalnum()) or "event"
    return f"event-{safe_id}-{options.kind}-{options.paper}-{options.lang}.pdf"


def event_report(hall: HallState, event: HallEvent, lang: str,
                 stamp: str) -> Callable[[], drawn.NightReport]:
    """The morning after's values (`hall/night.py`): the hall's copied now, under its lock; the
    journal's read by the function returned, after it. Its standings are those of the standings
    sheet; printed while a table still plays, it carries `stamp`."""
    tables = hall.tables_of(event)
    standing = event_standing(event, tables, lang, stamp)
    joint = {table_id for table_id, _ in event_places(event, tables)}
    return night.night_report(hall, event, tables, standing, lang, standing.printed_at, joint)


# ------------------------------------------------------------ join cards and the poster


def seat_cards(event: HallEvent, tables: Sequence[Table], base: str) -> list[drawn.SeatCard]:
    """A card per seat, tables in the event's order: the QR of the seat's join URL
    `BASE/j/TOKEN`, and the short URL to type `HOST/j/CODE` (the seat's join code)."""
    host = base.split("://", 1)[-1]
    return [
        drawn.SeatCard(event.name, table.name, number, seat.name or None,
                       base + seat.join_path, host + seat.code_path, role)
        for table in tables
        for number, (seat, role) in enumerate(zip(table.seats, seat_roles(table), strict=True),
                                              start=1)
    ]


def seat_roles(table: Table) -> list[str]:
    """Each seat's role at the table when its ruleset names roles (Catan's "sun", "moon"),
    else "" for every seat."""
    roles = table.rules.seats(table.setup, table.options).roles
    return [roles[n] if n < len(roles) else "" for n in range(len(table.seats))]


def hall_poster(event: HallEvent, base: str) -> drawn.Poster:
    return drawn.Poster(event.name, f"{base}{JOIN_PATH}", f"{base}/hall/{event.id}")


# ------------------------------------------------------------ setup sheets


def table_sheets(event: HallEvent, tables: Sequence[Table]) -> list[TableSheet]:
    """A setup sheet per table, with what its ruleset lays out for it from the table's own
    card sets, the tables beside it in a chain and the event's turn times."""
    schedule = turn_times(event)
    return [table_sheet(event.name, t.name, t.ruleset, [s.name for s in t.seats], t.options,
                        setup_of(t), neighbours=t.neighbours, schedule=schedule)
            for t in tables]


def setup_of(table: Table) -> Any:
    """The table's set-up; None for a ruleset this build does not know (its sheet says so)."""
    try:
        return table.setup
    except RuleError:
        return None


def turn_times(event: HallEvent) -> tuple[tuple[int, int], ...]:
    """The event's schedule of turn times as (first turn, seconds) steps; () without one."""
    steps = getattr(event, "schedule", None) or ()
    return tuple((int(first), int(seconds)) for first, seconds in steps)


def table_sheet(event_name: str, table_name: str, ruleset_name: str, seats: Sequence[str],
                options: Mapping[str, Any], setup: Any, *,
                neighbours: Sequence[str] = (),
                schedule: Sequence[tuple[int, int]] = ()) -> TableSheet:
    """One table's setup sheet: its seats, then its ruleset's setup section as plain values
    (none for a ruleset the registry does not know: the sheet says so); the `neighbours`, the
    tables to its left and right, when its ruleset is chained; the event's turn `schedule`."""
    try:
        rules: AnyRuleset | None = ruleset(ruleset_name)
    except RuleError:
        rules = None
    game = (None if rules is None
            else game_setup(rules.setup_section(setup, options, len(seats)), seats))
    beside = tuple(neighbours) if rules is not None and rules.chained else ()
    return TableSheet(event_name, table_name, ruleset_name, tuple(seats),
                      tuple(sorted(options.items())), game, beside, tuple(schedule))


def game_setup(section: said.SetupSection, seats: Sequence[str]) -> drawn.GameSetup:
    """A ruleset's setup section in the printing's model, the seats' names filled in."""
    def value(v: said.Value) -> int | str | drawn.Name:
        if isinstance(v, said.Name):
            return drawn.Name(v.by_lang)
        if isinstance(v, said.SeatName):
            return seats[v.seat] if 0 <= v.seat < len(seats) else "?"
        return v

    def lines(found: Sequence[said.Line]) -> tuple[drawn.Line, ...]:
        return tuple(drawn.Line(v.key, tuple((name, value(x)) for name, x in v.values), v.style)
                     for v in found)

    def grid(v: said.Grid | None) -> drawn.Grid | None:
        if v is None:
            return None
        rows = tuple(tuple(value(x) for x in row) for row in v.rows)
        return drawn.Grid(columns(v.columns), rows, v.tints, v.size)

    parts = tuple(drawn.Part(p.heading, lines(p.lines), grid(p.grid)) for p in section.parts)
    return drawn.GameSetup(parts, lines(section.seating))


def columns(found: Sequence[said.Column]) -> tuple[Column, ...]:
    """A ruleset's score or grid columns in the printing's model (the same plain values)."""
    return tuple(Column(c.key, c.width, c.ranks, c.tie_break) for c in found)


def staff_check(rules: AnyRuleset) -> bool:
    """Whether the ruleset's staff make moves at its tables (Catan's verified claims): its
    score sheets get the staff's box to sign."""
    return isinstance(rules, SharedTurn)


# ------------------------------------------------------------ series sheets


def event_series_sheets(hall: HallState, event: HallEvent) -> list[drawn.SeriesSheet]:
    """A sheet per series of the event (a Legacy campaign's register), oldest first."""
    return [series_sheet(event.name, series.ruleset, series.state)
            for series in hall_series.of_event(hall, event.id)]


def series_sheet(event_name: str, ruleset_name: str, state: Any) -> drawn.SeriesSheet:
    """One series' sheet: its name (its view's) and what its ruleset lays out for its state
    (`Series.series_sheet`, a setup section's parts) in the printing's model; no parts for a
    ruleset the registry does not know, without series, or that lays out none (the page says
    so)."""
    try:
        rules: AnyRuleset | None = ruleset(ruleset_name)
    except RuleError:
        rules = None
    if not isinstance(rules, Series) or state is None:
        return drawn.SeriesSheet(event_name, "", ruleset_name)
    name = str(rules.series_view(state).get("name") or "")
    section = rules.series_sheet(state)
    return drawn.SeriesSheet(event_name, name, ruleset_name,
                             None if section is None else game_setup(section, ()))


# ------------------------------------------------------------ score sheets and standings


def is_final(table: Table) -> bool:
    """A result is recorded: the game is won (or a co-op game lost), or the organizer ended a
    started table."""
    state = table.state
    return state is not None and (table.rules.result(state) is not None
                                  or table.status == "ended")


def figures(table: Table) -> list[dict[str, Any]]:
    """One row per seat from the table's ruleset: the player's `name`, the seat's `place` as
    the game stands and its figures in the ruleset's score columns, by their keys."""
    return table.rules.standings_rows(table.story())


def table_results(event: HallEvent, tables: Sequence[Table],
                  stamp: str | None = None) -> list[drawn.TableResult]:
    """A result sheet per table: places and the ruleset's figures once the game is over, the
    figures as they stand while it runs, empty boxes before it starts; the last two say so,
    with `stamp`, the time they were printed (default: now)."""
    stamp = stamp or printed_at(datetime.now())
    return [drawn.TableResult(t.name, result_rows(t), event.name, result_status(t), stamp,
                              columns(t.rules.score_columns()), staff_check(t.rules))
            for t in tables]


def result_status(table: Table) -> str:
    """RESULT once the game is over, PLAYING while it runs, NOT_STARTED before it starts."""
    if table.state is None:
        return NOT_STARTED
    return RESULT if is_final(table) else PLAYING


def result_rows(table: Table) -> tuple[drawn.ResultRow, ...]:
    """The players in seat order while the game runs (no places), by place once it is over."""
    roles = seat_roles(table)
    if table.state is None:
        return tuple(drawn.ResultRow(None, seat.name, role=role)
                     for seat, role in zip(table.seats, roles, strict=True))
    keys = [c.key for c in table.rules.score_columns()]
    found = figures(table)
    rows = [drawn.ResultRow(None, row["name"], tuple(row.get(key) for key in keys), role,
                            unverified(row))
            for row, role in zip(found, roles, strict=True)]
    if not is_final(table):
        return tuple(rows)
    ranked = sorted(zip((row["place"] for row in found), rows, strict=True),
                    key=lambda pair: pair[0])
    return tuple(replace(r, place=place) for place, r in ranked)


def event_standing(event: HallEvent, tables: Sequence[Table], lang: str,
                   stamp: str | None = None) -> drawn.Standing:
    """Every player of a started table, ranked by wins, then by the figures of the score
    columns that rank, in order (landmarks, coins; Catan's points, then its tie-breaks); or,
    once a game the event's tables play together is over, as its ruleset's event view ranks
    them (`event_places`). A table's win is its first place; a table still playing has none
    yet, and its players are ranked by their figures as they stand, marked playing. The title
    says how many tables finished; while some still play the sheet carries `stamp`, the time
    it was printed (default: now). The columns are the first table's that rank."""
    shown = tuple(c for c in columns(tables[0].rules.score_columns()) if c.ranks) if tables else ()
    final = [t for t in tables if is_final(t)]
    counted = [t for t in tables if t.state is not None or t.status != "ended"]
    entries = [entry for table in tables for entry in standing_entries(table, shown)]
    decided = event_places(event, tables)
    if entries and all(key in decided for key, _ in entries):
        placed = [replace(row, rank=decided[key][0], wins=int(decided[key][1]))
                  for key, row in entries]
    else:
        ranks = competition_ranks([(row.wins, *row.scores) for _, row in entries])
        placed = [replace(row, rank=rank) for (_, row), rank in zip(entries, ranks, strict=True)]
    rows = tuple(sorted(placed, key=lambda row: row.rank))
    if len(final) == len(counted):
        return drawn.Standing(event.name, rows, columns=shown)
    title = text(lang, "standings_partial", done=len(final), total=len(counted))
    return drawn.Standing(event.name, rows, title, stamp or printed_at(datetime.now()), shown)


Seat = tuple[str, int]  # a table's id and a seat's number there


def standing_entries(table: Table, shown: Sequence[Column]) -> list[tuple[Seat, drawn.StandingRow]]:
    """A table's players, not ranked yet, each with its seat: one win for a first place once
    the game is over; while it runs no wins, the figures as they stand, marked playing. None
    before the start. A figure the table's ruleset does not have counts 0."""
    if table.state is None:
        return []
    done = is_final(table)
    return [((table.id, int(row.get("seat", seat))),
             drawn.StandingRow(0, row["name"], table.name, int(done and row["place"] == 1),
                               tuple(int(row.get(c.key) or 0) for c in shown), not done,
                               unverified(row)))
            for seat, row in enumerate(figures(table))]


def event_places(event: HallEvent, tables: Sequence[Table]) -> dict[Seat, tuple[int, bool]]:
    """Each seat's place in the event, and whether it won, where a ruleset whose tables play
    one game together ranks them over the whole event (its event view's `standings` and
    `winner`, once that game is over: Catan's, RULES.md 24); {} when none does."""
    found: dict[Seat, tuple[int, bool]] = {}
    for view in clock.games_json(event, list(tables)).values():
        winner = view.get("winner") or {}
        won = (str(winner.get("table")), winner.get("seat"))
        for row in view.get("standings") or ():
            seat = (str(row["table"]), int(row["seat"]))
            found[seat] = (int(row["place"]), seat == won)
    return found


def unverified(row: Mapping[str, Any]) -> bool:
    """Whether a seat's figures are the player's own, not verified by the staff: a ruleset
    whose staff verify figures says `"verified": false` (RULES.md 24); others say nothing."""
    return row.get("verified") is False
