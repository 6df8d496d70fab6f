"""The printouts of one event, built from the hall service's tables, seats and states.

The one bridge between the hall and the drawing code: `companion print` calls `render`, the
organizer's downloads `prepare` (then draw off the server's event loop). The hall's lock is held
only while the values are copied out, never while drawing (1,100 join cards take seconds)."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial
from urllib.parse import urlsplit

from companion.hall.checks import N_, Detail
from companion.hall.model import HallEvent, Table
from companion.hall.service import HallService
from companion.hall.views import result_json
from companion.printing import (
    Poster,
    ResultRow,
    SeatCard,
    Standing,
    StandingRow,
    TableResult,
    TableSheet,
    Wifi,
    join_cards,
    poster,
    score_sheets,
    setup_sheets,
    standings,
)
from companion.printing.i18n import STRINGS, text
from companion.printing.layouts import card_papers, page_papers
from companion.printing.model import NOT_STARTED, PLAYING, RESULT
from companion.rules.coop.state import RULESET as COOP_RULESET

KINDS = ("join-cards", "setup-sheets", "score-sheets", "standings", "poster")
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


def render(hall: HallService, event_id: str, options: PrintOptions,
           now: datetime | None = None) -> bytes:
    """The PDF of one kind of printout for the event. Unknown event: HallError (404)."""
    return prepare(hall, event_id, options, now)()


def prepare(hall: HallService, event_id: str, options: PrintOptions,
            now: datetime | None = None) -> Callable[[], bytes]:
    """Copy the event's values out under the hall's lock; the function returned draws them
    and touches nothing of the hall, so it may run in another thread. `now` is the time a
    sheet printed before the end shows (default: the laptop's clock as the values are read)."""
    check(options)
    with hall.lock:
        event = hall.event(event_id)
        stamp = printed_at(now or datetime.now())
        return _drawing(event, hall.tables_of(event), options, stamp)


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


# ------------------------------------------------------------ the values drawn


def seat_cards(event: HallEvent, tables: Sequence[Table], base: str) -> list[SeatCard]:
    """A card per seat, tables in the event's order: the QR of the seat's join URL
    `BASE/j/TOKEN`, and the short URL to type `HOST/j/CODE` (the seat's join code)."""
    host = base.split("://", 1)[-1]
    return [
        SeatCard(event.name, table.name, number, seat.name or None,
                 base + seat.join_path, host + seat.code_path)
        for table in tables
        for number, seat in enumerate(table.seats, start=1)
    ]


def table_sheets(event: HallEvent, tables: Sequence[Table]) -> list[TableSheet]:
    return [TableSheet(event.name, t.name, t.ruleset, tuple(s.name for s in t.seats),
                       tuple(sorted(t.options.items())))
            for t in tables]


def hall_poster(event: HallEvent, base: str) -> Poster:
    return Poster(event.name, f"{base}{JOIN_PATH}", f"{base}/hall/{event.id}")


def is_final(table: Table) -> bool:
    """A result is recorded: the game is won (or a co-op game lost), or the organizer ended a
    started table."""
    state = table.state
    return state is not None and (result_json(table) is not None or table.status == "ended")


def places(table: Table) -> list[int]:
    """Each seat's place: the winner first, then by landmarks built, then coins; equal
    players share a place (1, 2, 2, 4). A co-op pair shares one place (docs/rules.md): 1st
    when they won together, else 2nd, behind the assessor."""
    assert table.state is not None
    players = table.state.players
    result = result_json(table)  # who won, as the screens and the export say it
    won = [outcome == "won" for outcome in result["outcomes"]] if result else [False] * len(players)
    if table.ruleset == COOP_RULESET:
        return [1 if won[0] else 2] * len(players)
    return competition_ranks(
        [(w, len(p.landmarks), p.coins) for w, p in zip(won, players, strict=True)])


def competition_ranks(keys: Sequence[tuple[int | bool, int, int]]) -> list[int]:
    """Rank 1 for the greatest key; equal keys share a rank and the next rank skips."""
    first: dict[tuple[int | bool, int, int], int] = {}
    for position, key in enumerate(sorted(keys, reverse=True), start=1):
        first.setdefault(key, position)
    return [first[key] for key in keys]


def table_results(event: HallEvent, tables: Sequence[Table],
                  stamp: str | None = None) -> list[TableResult]:
    """A result sheet per table: places, landmarks and coins once the game is over, the
    figures as they stand while it runs, empty boxes before it starts; the last two say so,
    with `stamp`, the time they were printed (default: now)."""
    stamp = stamp or printed_at(datetime.now())
    return [TableResult(t.name, result_rows(t), event.name, result_status(t), stamp)
            for t in tables]


def result_status(table: Table) -> str:
    """RESULT once the game is over, PLAYING while it runs, NOT_STARTED before it starts."""
    if table.state is None:
        return NOT_STARTED
    return RESULT if is_final(table) else PLAYING


def result_rows(table: Table) -> tuple[ResultRow, ...]:
    state = table.state
    if state is None:
        return tuple(ResultRow(None, seat.name, None, None) for seat in table.seats)
    rows = [ResultRow(None, p.name, len(p.landmarks), p.coins) for p in state.players]
    if not is_final(table):
        return tuple(rows)
    ranked = zip(places(table), rows, strict=True)
    return tuple(ResultRow(place, r.player_name, r.landmarks_built, r.coins)
                 for place, r in sorted(ranked, key=lambda pair: pair[0]))


def event_standing(event: HallEvent, tables: Sequence[Table], lang: str,
                   stamp: str | None = None) -> Standing:
    """Every player of a started table, ranked by wins, landmarks, coins. A table's win is
    its first place; a table still playing has none yet, and its players are ranked by their
    figures as they stand, marked playing. The title says how many tables finished; while
    some still play the sheet carries `stamp`, the time it was printed (default: now)."""
    final = [t for t in tables if is_final(t)]
    counted = [t for t in tables if t.state is not None or t.status != "ended"]
    entries = [entry for table in tables for entry in standing_entries(table)]
    ranks = competition_ranks([(e.wins, e.landmarks_built, e.coins) for e in entries])
    rows = tuple(sorted((replace(e, rank=rank) for e, rank in zip(entries, ranks, strict=True)),
                        key=lambda row: row.rank))
    if len(final) == len(counted):
        return Standing(event.name, rows)
    title = text(lang, "standings_partial", done=len(final), total=len(counted))
    return Standing(event.name, rows, title, stamp or printed_at(datetime.now()))


def standing_entries(table: Table) -> list[StandingRow]:
    """A table's players, not ranked yet: one win for a first place once the game is over;
    while it runs no wins, the figures as they stand, marked playing. None before the start."""
    state = table.state
    if state is None:
        return []
    done = is_final(table)
    wins = [int(place == 1) for place in places(table)] if done else [0] * len(state.players)
    return [StandingRow(0, p.name, table.name, won, len(p.landmarks), p.coins, not done)
            for won, p in zip(wins, state.players, strict=True)]
