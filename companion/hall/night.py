"""The morning after: what the night's report says, read from the hall and its journal.

Who won comes through the ruleset door (`Ruleset.result`, `standings_rows`, the event view's
places for a game the tables play together); how long a game took, the corrections and the undos
from the journal's records and their times; the hall's dice from the event's rolls, the rolls
taken back left out. No game's rules here."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

from companion.hall.model import HallEvent, Table
from companion.hall.service import HallService
from companion.journal import Record
from companion.printing import model as drawn
from companion.rules.registry import AnyRuleset

TRANSLATIONS = Path(__file__).resolve().parents[1] / "translations"
TOTALS = range(2, 13)


def night_report(hall: HallService, event: HallEvent, tables: Sequence[Table],
                 standing: drawn.Standing, lang: str, stamp: str = "") -> drawn.NightReport:
    """The report's values, read now (under the hall's lock: the journal's records of every
    started table are read once)."""
    started = [t for t in tables if t.state is not None]
    records = {t.id: hall.journal.read(t.stream) for t in started}
    places = decided_places(standing, started)
    lengths = sorted((length for t in started
                      if (length := game_length(t, records[t.id], lang)) is not None),
                     key=lambda g: -g.minutes)
    return drawn.NightReport(
        event.name, tuple(outcome(t, places, lang, event.over) for t in started), standing,
        dice_counts(event.rolls), sum(1 for d1, d2 in event.rolls if d1 == d2), tuple(lengths),
        sum(corrections(t, records[t.id]) for t in started),
        undone_moves(hall, event, [r for t in started for r in records[t.id]]),
        event.undone_rolls, stamp)


def undone_moves(hall: HallService, event: HallEvent, records: Sequence[Record]) -> int:
    """The moves the organizer took back at tables, one by one: not those a hall roll taken
    back reversed with it (written in its transaction, so stamped with its time)."""
    with_rolls = {r.at for r in hall.journal.read(event.stream) if r.kind == "roll_undone"}
    return sum(1 for r in records if r.kind == "reverted" and r.at not in with_rolls)


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
            over: bool = False) -> drawn.TableOutcome:
    """A table's line: the seats its ruleset's result says won, "lost" when it says every seat
    lost (a co-op game); for a game the event's tables play together (`over` once it is), the
    winner as the standings place them, or "placed" when the winner sat at another table;
    else "ended" (the organizer ended it before a result; with the first place the standings
    count as its win, if any) or "playing"."""
    game = game_title(table.rules, lang)
    result = table.rules.result(table.state)
    if result is not None:
        won = tuple(name for name, said in zip(seat_names(table), result.outcomes, strict=False)
                    if said == "won")
        return drawn.TableOutcome(table.name, game, "won" if won else "lost", won)
    if over:
        names = tuple(winners.get(table.name, ()))
        return drawn.TableOutcome(table.name, game, "won" if names else "placed", names)
    if table.status == "ended":  # first on the figures, as the standings count it a win
        return drawn.TableOutcome(table.name, game, "ended", tuple(winners.get(table.name, ())))
    return drawn.TableOutcome(table.name, game, "playing")


def seat_names(table: Table) -> list[str]:
    return [str(row["name"]) for row in table.rules.standings_rows(table.story())]


def game_length(table: Table, records: Sequence[Record], lang: str) -> drawn.GameLength | None:
    """From the table's start to the move that decided its game (its last move), for a game
    its ruleset gives a result; None for any other."""
    if table.rules.result(table.state) is None:
        return None
    start = next((r.at for r in records if r.kind == "status"
                  and r.data.get("status") == "running"), None)
    end = next((r.at for r in reversed(records) if r.kind in table.rules.fact_kinds), None)
    if start is None or end is None:
        return None
    seconds = (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()
    return drawn.GameLength(table.name, game_title(table.rules, lang), round(max(0, seconds) / 60))


def corrections(table: Table, records: Sequence[Record]) -> int:
    """The organizer's (and the staff's) own moves at a table: a coin correction, a verified or
    corrected claim; each move once, whatever its facts."""
    moves = {r.data.get("move") for r in records
             if r.author == "organizer" and r.kind in table.rules.fact_kinds}
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
