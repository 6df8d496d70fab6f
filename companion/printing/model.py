"""What the printing code draws: small frozen values the hall server builds from its database."""

from __future__ import annotations

from dataclasses import dataclass


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
class TableSheet:
    """One table's setup sheet; `ruleset` picks the sections drawn for it."""

    event_name: str
    table_name: str
    ruleset: str
    seats: tuple[str, ...]
    options: tuple[tuple[str, int], ...] = ()  # the ruleset's set-up options, e.g. assessor_coins


@dataclass(frozen=True)
class ResultRow:
    """One player's line on a result sheet; None leaves the box blank to fill in by hand."""

    place: int | None
    player_name: str
    landmarks_built: int | None
    coins: int | None


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


@dataclass(frozen=True)
class StandingRow:
    """One player's line in the event standings."""

    rank: int
    player_name: str
    table_name: str
    wins: int
    landmarks_built: int
    coins: int
    playing: bool = False  # the player's table is still playing: figures as they stood


@dataclass(frozen=True)
class Standing:
    """The event standings, already ranked (`from_hall.event_standing`). `printed_at` is set
    when some table was still playing: the sheet is then marked in progress, with that time."""

    event_name: str
    rows: tuple[StandingRow, ...]
    title: str = ""
    printed_at: str = ""
