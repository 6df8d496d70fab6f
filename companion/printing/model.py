"""What the printing code draws: small frozen plain values the hall builds (`hall/printables.py`);
no game's rules: a ruleset's words, columns and figures arrive here as values."""

from __future__ import annotations

from dataclasses import dataclass

from companion import paper as shared
from companion.paper import Column as Column


@dataclass(frozen=True)
class SeatCard:
    """One join card: the seat's QR (its join URL with the token) and a short URL to type
    (`HOST/j/CODE`, the seat's join code: the card prints the part after the last slash big)."""

    event_name: str
    table_name: str
    seat_number: int
    player_name: str | None
    join_url: str
    short_url: str
    role: str = ""  # the seat's part when its ruleset names one (Catan's "sun", "moon")


@dataclass(frozen=True)
class Wifi:
    """The hall's own access point, printed as a Wi-Fi QR so phones join it in one scan."""

    ssid: str
    password: str
    security: str = "WPA"


@dataclass(frozen=True)
class Poster:
    """The wall poster: the general join page and the hall screen."""

    event_name: str
    join_url: str
    hall_url: str


@dataclass(frozen=True)
class Name:
    """A card's name in every language, `(lang, name)` pairs; a sheet says it in its own."""

    by_lang: tuple[tuple[str, str], ...]

    def said(self, lang: str) -> str:
        names = dict(self.by_lang)
        return names.get(lang) or names.get("en", "")


Value = int | str | Name
"""A value in a sheet's words or a grid's cell: a number, a card's name, or a string said as it
is (in a line, a player's name, kept in its own direction)."""


Line = shared.Line[Value]
"""A line of a setup sheet: a key of `i18n.py`, the values of its `{name}` fields, and its
style: "bullet", "strong" (bold bullet), "small", "note" (small, before a grid), "plain"
or "apart" (plain, a little below the lines above)."""
Grid = shared.Grid[Value]
Part = shared.Part[Value]
GameSetup = shared.Setup[Value]
"""What a table's rules lay out below its seats: lines under the seats' table (who plays
when), then the parts in order."""


@dataclass(frozen=True)
class TableSheet:
    """One table's setup sheet: its seats, then what its ruleset lays out (`game`; None when
    the ruleset has no setup sheet: the page says so)."""

    event_name: str
    table_name: str
    ruleset: str
    seats: tuple[str, ...]
    options: tuple[tuple[str, int], ...] = ()  # the ruleset's set-up options, e.g. assessor_coins
    game: GameSetup | None = None
    # The tables beside it in the event's chain, (left, right), "" at an end; () when its
    # ruleset stands in no chain (`Ruleset.chained`).
    neighbours: tuple[str, ...] = ()
    # The event's turn times, (first turn, seconds) steps; () when the event has no schedule.
    schedule: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class ResultRow:
    """One player's line on a result sheet: the place, the name and the figures in the sheet's
    columns; None leaves a box blank to fill in by hand."""

    place: int | None
    player_name: str
    scores: tuple[int | str | None, ...] = ()  # str: a tournament's points (3.33)
    role: str = ""  # the seat's part when its ruleset names one (Catan's "sun", "moon")
    unverified: bool = False  # figures the staff have not checked (the player's own count)


RESULT = "result"  # the game is over: the sheet is its result, to sign
PLAYING = "playing"  # printed mid-game: the figures as they stood, marked in progress
NOT_STARTED = "not-started"  # printed before the start: a form to fill in by hand


@dataclass(frozen=True)
class TableResult:
    """One table's result sheet, signed by every player (blank places while the game runs).
    `status` is RESULT, PLAYING or NOT_STARTED; `printed_at` the time a sheet printed before
    the end shows (the caller reads the clock: the drawing code never does)."""

    table_name: str
    rows: tuple[ResultRow, ...]
    event_name: str = ""
    status: str = RESULT
    printed_at: str = ""
    columns: tuple[Column, ...] = ()  # the ruleset's, between the player and the signature
    staff_signature: bool = False  # the staff check the result too (a ruleset with staff moves)


@dataclass(frozen=True)
class StandingRow:
    """One player's line in the event standings: the figures in the standings' columns."""

    rank: int
    player_name: str
    table_name: str
    wins: int
    scores: tuple[int, ...] = ()
    playing: bool = False  # the player's table is still playing: figures as they stood
    unverified: bool = False  # figures the staff have not checked (the player's own count)


@dataclass(frozen=True)
class Standing:
    """The event standings, already ranked (`hall/printables.py`). `printed_at` is set
    when some table was still playing: the sheet is then marked in progress, with that time."""

    event_name: str
    rows: tuple[StandingRow, ...]
    title: str = ""
    printed_at: str = ""
    columns: tuple[Column, ...] = ()  # the rulesets', after the wins


@dataclass(frozen=True)
class SeriesSheet:
    """A series' register sheet (a Legacy campaign's: the group and the city register): its
    name, then what its ruleset lays out (`sheet`: lines under the title, then parts; None when
    the ruleset has no such sheet: the page says so)."""

    event_name: str
    name: str
    ruleset: str
    sheet: GameSetup | None = None


@dataclass(frozen=True)
class TableOutcome:
    """How one table's game went, for the night's report: its winners' names (none when nobody
    won), or the state it was left in: `outcome` is "won", "lost" (nobody won: a co-op game
    lost), "ended" (ended by the organizer before a result: `winners` then the first place
    the standings count as its win), "placed" (the event's winner sat elsewhere) or "playing"."""

    table_name: str
    game: str  # the game's name in the report's language
    outcome: str
    winners: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameLength:
    """How long one finished game took: from its start to its deciding move."""

    table_name: str
    game: str
    minutes: int


@dataclass(frozen=True)
class NightReport:
    """The morning after: the night on one page (`hall/night.py` builds it from the journal).
    `dice` counts the hall's two-dice totals 2..12 (index 0 is a total of 2), the rolls taken
    back left out; `undone_moves` the moves the organizer took back at tables,
    `undone_rolls` the hall rolls taken back, `corrections` the organizer's and staff's own
    moves at tables (a coin correction, a verified claim)."""

    event_name: str
    tables: tuple[TableOutcome, ...]
    standing: Standing
    dice: tuple[int, ...]
    doubles: int
    lengths: tuple[GameLength, ...]  # longest first
    corrections: int
    undone_moves: int
    undone_rolls: int
    printed_at: str = ""
