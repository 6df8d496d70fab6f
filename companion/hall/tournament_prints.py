"""A tournament's printouts, built from its state into the printing's plain model (as
`printables.py` does for an event): the seating of each round by table and by name, a score
sheet per table of a round (players in start order; place, landmarks, coins, points and a
signature line each), the standings after a round. Values are copied under the hall's lock;
the function returned draws them and touches nothing of the hall. And a join card per player
(not dropped), in the order of their names, to cut and hand out at check-in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING

from companion.hall import tournament as tour
from companion.hall.printables import LANGS, printed_at
from companion.hall.tournament_model import refuse
from companion.hall.tournament_views import points_text, ranking
from companion.printing import model as drawn
from companion.printing.i18n import text
from companion.printing.layouts import page_papers
from companion.printing.score_sheets import score_sheets
from companion.printing.tournament import (
    PlayerCard,
    RoundSeating,
    SeatedTable,
    TournamentLine,
    TournamentStanding,
    player_cards,
    seating_sheets,
    tournament_standings,
)
from companion.tournament.scoring import place, standings

if TYPE_CHECKING:
    from companion.hall.state import HallState

KINDS = ("seating", "score-sheets", "standings", "cards")
SHEET_COLUMNS = (drawn.Column("landmarks", 0.16), drawn.Column("coins", 0.1),
                 drawn.Column("points", 0.13))


@dataclass(frozen=True)
class TournamentPrint:
    kind: str
    paper: str = "a4"
    lang: str = "en"
    round: int | None = None  # None: every preliminary round (seating), the latest (others)
    base_url: str = ""


def check(options: TournamentPrint) -> None:
    if options.kind not in KINDS:
        raise refuse("invalid", f"unknown kind {options.kind!r}; expected one of "
                          + ", ".join(KINDS))
    if options.paper not in page_papers():
        raise refuse("invalid", f"paper is one of {', '.join(page_papers())}, not "
                          f"{options.paper!r}")
    if options.lang not in LANGS:
        raise refuse("invalid", f"lang is one of {', '.join(LANGS)}, not {options.lang!r}")


def round_label(lang: str, number: int, stage: str) -> str:
    if stage == tour.SEMI_FINAL:
        return text(lang, "semi_final")
    if stage == tour.FINAL:
        return text(lang, "final")
    return text(lang, "round_n", n=number)


def rounds_of(t: tour.Tournament) -> list[tuple[int, str, tuple[tuple[int, ...], ...],
                                             tour.Round | None]]:
    """Every round played or planned: (number, stage, seating, the round once started)."""
    found: list[tuple[int, str, tuple[tuple[int, ...], ...], tour.Round | None]] = [
        (r.number, r.stage, r.seating, r) for r in t.played]
    first = len(t.played) + 1
    if not t.plan or t.next_stage() not in (tour.PRELIMINARY, None) or (
            t.open_round is None and t.next_stage() is None):
        return found
    found += [(first + i, tour.PRELIMINARY, seating, None) for i, seating in enumerate(t.plan)]
    return found


def prepare_print(hall: HallState, event_id: str, options: TournamentPrint,
                  now: datetime | None = None) -> Callable[[], bytes]:
    check(options)
    lang, paper = options.lang, options.paper
    with hall.lock:
        t = tour.tournament_of(hall, event_id)
        event = hall.event(t.event_id)
        names = [p.name for p in t.players]
        rounds = rounds_of(t)
        if options.round is not None:
            rounds = [r for r in rounds if r[0] == options.round]
            if not rounds:
                raise refuse("invalid", f"round {options.round} is neither played nor "
                                  "seated yet")
        if options.kind == "cards":
            host = options.base_url.split("://", 1)[-1]  # typed: no scheme, as the seats' cards
            short = f"{host}/tournament/{t.event_id}"
            cards = tuple(PlayerCard(event.name, p.name, options.base_url + p.join_path, short)
                          for p in sorted(t.players, key=lambda p: (p.name.casefold(), p.name))
                          if not p.dropped)
            return partial(player_cards, cards, paper, lang)
        if options.kind == "seating":
            seatings = tuple(RoundSeating(event.name, round_label(lang, number, stage), tuple(
                SeatedTable(table_name(hall, played, number, i), tuple(names[p] for p in table))
                for i, table in enumerate(seating, start=1)))
                for number, stage, seating, played in rounds)
            return partial(seating_sheets, seatings, lang, paper)
        if options.kind == "score-sheets":
            started = [r for r in rounds if r[3] is not None] if options.round is None else rounds
            chosen = started[-1:] if options.round is None else rounds
            if options.round is None and not chosen:
                chosen = rounds[:1]
            stamp = printed_at(now or datetime.now())
            sheets = [sheet for number, stage, seating, played in chosen
                      for sheet in score_sheet_model(hall, event.name, names, lang, number, stage,
                                                     seating, played, stamp)]
            return partial(score_sheets, sheets, lang, paper)
        if t.stage() == "done" and (options.round is None or options.round >= t.played[-1].number):
            return partial(tournament_standings, final_standing(t, event.name, lang), lang, paper)
        closed = [r for r in t.preliminaries() if r.results is not None]
        if options.round is not None:
            closed = [r for r in closed if r.number <= options.round]
        title = (text(lang, "standings_after", round=round_label(lang, closed[-1].number,
                                                                  closed[-1].stage))
                 if closed else text(lang, "standings_before"))
        results = [result for r in closed if r.results for result in r.results]
        seated = {p for r in t.played for table in r.seating for p in table}
        players = [p.id for p in t.players if p.id in seated or (p.checked_in and not p.dropped)]
        rows = tuple(TournamentLine(s.rank, names[s.player], s.wins, points_text(s.points),
                                    s.landmarks, s.coins, s.tables)
                     for s in standings(results, players))
        return partial(tournament_standings, TournamentStanding(event.name, title, rows), lang,
                       paper)


STAGE_WORDS = {"final": "final", "semi-final": "semi_final", "preliminaries": "preliminaries"}


def final_standing(t: tour.Tournament, event_name: str, lang: str) -> TournamentStanding:
    """After the final (RULES.md 28): the tournament's ranking, the final's places first, each
    with the stage the player reached and their figures over the preliminaries."""
    lines = {s.player: s for s in t.standing()}
    ranked = ranking(t)
    rows = tuple(TournamentLine(r.rank, t.players[r.player].name, lines[r.player].wins,
                                points_text(lines[r.player].points), lines[r.player].landmarks,
                                lines[r.player].coins, lines[r.player].tables,
                                text(lang, STAGE_WORDS[r.stage]))
                 for r in ranked if r.player in lines)
    winners = ", ".join(t.players[r.player].name for r in ranked if r.rank == 1)
    return TournamentStanding(event_name, text(lang, "standings_final"), rows,
                              text(lang, "final_winner", name=winners))


def table_name(hall: HallState, played: tour.Round | None, number: int, index: int) -> str:
    if played is not None:
        return hall.table(played.tables[index - 1]).name
    return f"R{number} T{index}"


def score_sheet_model(hall: HallState, event_name: str, names: list[str], lang: str,
                      number: int, stage: str, seating: tuple[tuple[int, ...], ...],
                      played: tour.Round | None, stamp: str) -> list[drawn.TableResult]:
    """A sheet per table, players in start order: the recorded places and points once the
    round is closed, blank boxes to fill in by hand before."""
    sheets = []
    label = round_label(lang, number, stage)
    for index, players in enumerate(seating, start=1):
        name = f"{label} · {table_name(hall, played, number, index)}"
        if played is not None and played.results is not None:
            placings = {p.player: p for p in place(played.results[index - 1])}
            rows = tuple(drawn.ResultRow(placings[p].place, names[p], (
                placings[p].landmarks, placings[p].coins, points_text(placings[p].points)))
                for p in players)
            sheets.append(drawn.TableResult(name, rows, event_name, drawn.RESULT, stamp,
                                            SHEET_COLUMNS))
        else:
            rows = tuple(drawn.ResultRow(None, names[p]) for p in players)
            sheets.append(drawn.TableResult(name, rows, event_name, drawn.NOT_STARTED, stamp,
                                            SHEET_COLUMNS))
    return sheets
