"""A tournament's results as data for the organizer's spreadsheet (docs/api.md, Tournaments:
`.../tournament/results?format=csv|json`): the standings of the preliminaries (RULES.md 27),
every round's tables with each player's seat as printed on the cards (1-4: the start order),
place and points (RULES.md 26-27), and the ranking once the final is played (RULES.md 28).
The CSV is one sheet: a row per line, its `kind` saying which part it belongs to."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.hall.tournament_model import Tournament
from companion.hall.tournament_views import cut_view, final_ranking, points_text
from companion.tournament.scoring import place

if TYPE_CHECKING:
    from companion.hall.state import HallState

CSV_COLUMNS = ("kind", "round", "stage", "table", "seat", "player", "rank", "place", "points",
               "wins", "landmarks", "coins", "won", "dropped")
"""kind `standing` (rank, player, wins, points, landmarks, coins, dropped), `ranking` (rank,
player, stage: where they left the tournament), `seat` (round, stage, table, seat, player,
place, points, landmarks, coins, won; place and the rest empty while the round is open)."""


def results(hall: HallState, t: Tournament) -> dict[str, Any]:
    """The tournament's results as JSON (names, no tokens)."""
    with hall.lock:
        event = hall.event(t.event_id)
        names = [p.name for p in t.players]
        standings = [{"rank": s.rank, "player": names[s.player], "wins": s.wins,
                      "points": points_text(s.points), "landmarks": s.landmarks,
                      "coins": s.coins, "tables": s.tables, "dropped": t.players[s.player].dropped}
                     for s in t.standing()]
        rounds = []
        for played in t.played:
            tables = []
            for index, (table_id, seating) in enumerate(zip(played.tables, played.seating,
                                                            strict=True)):
                placings = ({p.player: p for p in place(played.results[index])}
                            if played.results is not None else {})
                seats = []
                for seat, player in enumerate(seating, start=1):
                    placing = placings.get(player)
                    seats.append({"seat": seat, "player": names[player],
                                  "place": placing.place if placing else None,
                                  "points": points_text(placing.points) if placing else None,
                                  "landmarks": placing.landmarks if placing else None,
                                  "coins": placing.coins if placing else None,
                                  "won": placing.won if placing else None})
                tables.append({"table": index + 1, "name": hall.table(table_id).name,
                               "seats": seats})
            rounds.append({"round": played.number, "stage": played.stage,
                           "closed": not played.open, "tables": tables})
        ranking = ([{"rank": r["rank"], "player": r["name"], "stage": r["stage"]}
                    for r in final_ranking(t)] if t.stage() == "done" else None)
        return {"event": {"id": event.id, "name": event.name}, "stage": t.stage(),
                "standings": standings, "ranking": ranking, "cut": cut_view(t), "rounds": rounds}


def csv_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows of the CSV from `results`: the standings, the ranking, then every seat."""
    rows: list[dict[str, Any]] = [
        {"kind": "standing", "rank": s["rank"], "player": s["player"], "wins": s["wins"],
         "points": s["points"], "landmarks": s["landmarks"], "coins": s["coins"],
         "dropped": "yes" if s["dropped"] else ""} for s in data["standings"]]
    rows += [{"kind": "ranking", "rank": r["rank"], "player": r["player"], "stage": r["stage"]}
             for r in data["ranking"] or ()]
    for played in data["rounds"]:
        for table in played["tables"]:
            for seat in table["seats"]:
                won = seat["won"]
                rows.append({"kind": "seat", "round": played["round"], "stage": played["stage"],
                             "table": table["name"], "seat": seat["seat"],
                             "player": seat["player"], "place": seat["place"],
                             "points": seat["points"], "landmarks": seat["landmarks"],
                             "coins": seat["coins"], "won": "" if won is None else
                             ("yes" if won else "no")})
    return rows
