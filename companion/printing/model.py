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


@dataclass(frozen=True)
class TableResult:
    """One table's result sheet, signed by every player (blank places while the game runs)."""

    table_name: str
    rows: tuple[ResultRow, ...]
    event_name: str = ""


@dataclass(frozen=True)
class StandingRow:
    """One player's line in the event standings."""

    rank: int
    player_name: str
    table_name: str
    wins: int
    landmarks_built: int
    coins: int


@dataclass(frozen=True)
class Standing:
    """The event standings, already ranked (`from_hall.event_standing`)."""

    event_name: str
    rows: tuple[StandingRow, ...]
    title: str = ""
