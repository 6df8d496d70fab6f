"""The morning after: what the night's report says, read from the hall and its journal.

Who won comes through the ruleset door (`Ruleset.result`, `standings_rows`, the event view's
places for a game the tables play together); how long a game took, the corrections and the undos
from the journal's records and their times; the hall's dice from the event's rolls, the rolls
taken back left out. No game's rules here."""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

from companion.hall.model import HallEvent, Table
from companion.hall.state import HallState
from companion.journal import Record
from companion.printing import model as drawn
from companion.rules.registry import AnyRuleset

TRANSLATIONS = Path(__file__).resolve().parents[1] / "translations"
TOTALS = range(2, 13)


@dataclass(frozen=True)
class Played:
    """What the journal is asked of one started table, copied out of the hall under its lock."""

    name: str
    game: str
    stream: str
    fact_kinds: frozenset[str]
    decided: bool  # its ruleset gives its game a result


def night_report(hall: HallState, event: HallEvent, tables: Sequence[Table],
                 standing: drawn.Standing, lang: str, stamp: str = "",
                 joint: Collection[str] = ()) -> Callable[[], drawn.NightReport]:
    """The report's values: the hall's copied now (the caller holds the hall's lock); the
    function returned reads the journal's records and makes the report, touching nothing else
    of the hall, so it is called after the lock is let go (24,562 records take 0.2 s to read).
    It lets other work in between two tables' streams: under gevent, `time.sleep(0)` yields to
    the phones. `joint`: the ids of the tables whose game the event decides over them all (its
    standings place them: Catan's event), not each table by itself."""
    started = [t for t in tables if t.state is not None]
    places = decided_places(standing, started)
    lines = tuple(outcome(t, places, lang, t.id in joint) for t in started)
    played = [Played(t.name, game_title(t.rules, lang), t.stream, t.rules.fact_kinds,
                     t.rules.result(t.state) is not None) for t in started]
    dice = dice_counts(event.rolls)
    doubles = sum(1 for d1, d2 in event.rolls if d1 == d2)
    journal, stream, undone_rolls = hall.journal, event.stream, event.undone_rolls

    def read() -> drawn.NightReport:
        records = {}
        for p in played:
            records[p.stream] = journal.read(p.stream)
            time.sleep(0)  # a turn for the phones between two tables' streams
        # A table's records written with the event's (a hall roll taken back, the end of a game
        # the tables play together) share its record's time: a transaction is stamped once.
        with_event = {r.at for r in journal.read(stream)}
        lengths = sorted((length for p in played
                          if (length := game_length(p, records[p.stream])) is not None),
                         key=lambda g: -g.minutes)
        return drawn.NightReport(
            event.name, lines, standing, dice, doubles, tuple(lengths),
            sum(corrections(p, records[p.stream], with_event) for p in played),
            sum(1 for p in played for r in records[p.stream]
                if r.kind == "reverted" and r.at not in with_event),
            undone_rolls, stamp)

    return read


def dice_counts(rolls: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """How many hall rolls made each total 2..12."""
    totals = [sum(pair) for pair in rolls]
    return tuple(totals.count(total) for total in TOTALS)


def decided_places(standing: drawn.Standing,
                   tables: Sequence[Table]) -> dict[str, list[str]]:
    """Each table's winners as the standings ranked them (a win is a table's first place, or
    the event's winner for a game its tables play together), by the table's name."""
    won: dict[str, list[str]] = {t.name: [] for t in tables}
    for row in standing.rows:
        if row.wins and not row.playing and row.table_name in won:
            won[row.table_name].append(row.player_name)
    return won


def outcome(table: Table, winners: dict[str, list[str]], lang: str,
            joint: bool = False) -> drawn.TableOutcome:
    """A table's line. A game the event's tables play together (`joint`, once it is over): the
    winner as the event's standings place them, or "placed" when the winner sat at another
    table. Else the seats its ruleset's result says won, "lost" when it says every seat lost
    (a co-op game); without a result "ended" (the organizer ended it; with the first place the
    standings count as its win, if any) or "playing"."""
    game = game_title(table.rules, lang)
    names = tuple(winners.get(table.name, ()))
    if joint:
        return drawn.TableOutcome(table.name, game, "won" if names else "placed", names)
    result = table.rules.result(table.state)
    if result is not None:
        won = tuple(name for name, said in zip(seat_names(table), result.outcomes, strict=False)
                    if said == "won")
        return drawn.TableOutcome(table.name, game, "won" if won else "lost", won)
    if table.status == "ended":  # first on the figures, as the standings count it a win
        return drawn.TableOutcome(table.name, game, "ended", names)
    return drawn.TableOutcome(table.name, game, "playing")


def seat_names(table: Table) -> list[str]:
    return [str(row["name"]) for row in table.rules.standings_rows(table.story())]


def game_length(table: Played, records: Sequence[Record]) -> drawn.GameLength | None:
    """From the table's start to the move that decided its game (its last move), for a game
    its ruleset gives a result; None for any other."""
    if not table.decided:
        return None
    start = next((r.at for r in records if r.kind == "status"
                  and r.data.get("status") == "running"), None)
    end = next((r.at for r in reversed(records) if r.kind in table.fact_kinds), None)
    if start is None or end is None:
        return None
    seconds = (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()
    return drawn.GameLength(table.name, table.game, round(max(0, seconds) / 60))


def corrections(table: Played, records: Sequence[Record], with_event: Collection[str]) -> int:
    """The organizer's (and the staff's) own moves at a table: a coin correction, a verified or
    corrected claim; each move once, whatever its facts. Not the moves the organizer's action on
    the event wrote at every table with it (`with_event`: the times of the event's records)."""
    moves = {r.data.get("move") for r in records
             if r.author == "organizer" and r.kind in table.fact_kinds and r.at not in with_event}
    return len(moves)


def game_title(rules: AnyRuleset, lang: str) -> str:
    """The ruleset's title in `lang`, as the console's catalogs translate it."""
    return titles(lang).get(rules.title, rules.title)


@cache
def titles(lang: str) -> dict[str, str]:
    """Every translated message of `lang`'s catalogs (the pages' .po files), by its English."""
    found: dict[str, str] = {}
    for path in sorted((TRANSLATIONS / lang).glob("*.po")):
        with path.open("rb") as source:
            for message in read_po(source, locale=lang):
                if isinstance(message.id, str) and message.string and not message.fuzzy:
                    found.setdefault(message.id, str(message.string))
    return found
