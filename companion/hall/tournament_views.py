"""What a tournament shows (docs/api.md, Tournaments): where a player's link leads now, the
phones to move when a round starts, the public view of the projector and the phones (no
tokens), the "where do I sit?" search, and the organizer's view with the players' links.
Values are copied under the hall's lock."""

from __future__ import annotations

import time
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from companion.hall.checks import HallError
from companion.hall.tournament_journal import find_player
from companion.hall.tournament_model import FINAL, PRELIMINARY, SEMI_FINAL, Player, Round, Tournament
from companion.hall.tournament_registration import name_key
from companion.tournament.scoring import Ranked, cut_count, cut_line, tournament_ranking

if TYPE_CHECKING:
    from companion.hall.state import HallState


def current_seat(hall: HallState, token: Any) -> tuple[Tournament, Player, str | None]:
    """The player of a player token, and the seat token of their table in the open round
    (None between rounds or when they do not play this round)."""
    found = find_player(hall, token)
    if found is None:
        raise HallError("tournament/unknown_player_token",
                        "this tournament link is not (or no longer) valid")
    t, player = found
    with hall.lock:
        current = t.open_round
        if current is None:
            return t, player, None
        for table_id, seating in zip(current.tables, current.seating, strict=True):
            if player.id in seating:
                table = hall.catch_up(hall.table(table_id))
                return t, player, table.seats[seating.index(player.id)].token
    return t, player, None


def moves(hall: HallState, t: Tournament, started: Round) -> list[tuple[str, str]]:
    """When `started` has just begun: for each seat of the round before it, the seat's token
    (its phone's room) and the link its player goes to now, the player link `/t/TOKEN` (it
    leads to the new seat, or between seats to the phone page with the player's name), so no
    seat token travels to another seat's devices."""
    with hall.lock:
        index = next((i for i, r in enumerate(t.played) if r is started), 0)
        if index == 0:
            return []
        before = t.played[index - 1]
        found = []
        for table_id, seating in zip(before.tables, before.seating, strict=True):
            table = hall.table(table_id)
            for seat, player in zip(table.seats, seating, strict=False):
                found.append((seat.token, t.players[player].join_path))
        return found


def seated(hall: HallState, t: Tournament, started: Round) -> list[tuple[str, str]]:
    """When `started` has just begun: each of its players' token (the room of their phone
    waiting between seats) and their player link, which now leads to their seat."""
    with hall.lock:
        return [(t.players[p].token, t.players[p].join_path)
                for seating in started.seating for p in seating]


def points_text(points: Fraction) -> str:
    """Points as people read them: 5, 3.33, 2.5."""
    if points.denominator == 1:
        return str(points.numerator)
    return f"{float(points):.2f}".rstrip("0").rstrip(".")


def shown_round(t: Tournament) -> tuple[int, str, tuple[tuple[int, ...], ...], bool] | None:
    """The round players look for: the open one, else the next preliminary round planned;
    (number, stage, seating, open)."""
    current = t.open_round
    if current is not None:
        return current.number, current.stage, current.seating, True
    if t.started and t.plan and t.next_stage() == PRELIMINARY:
        return len(t.played) + 1, PRELIMINARY, t.plan[0], False
    return None


def public_view(hall: HallState, t: Tournament) -> dict[str, Any]:
    """What the projector and the phones show: no tokens."""
    with hall.lock:
        event = hall.event(t.event_id)
        names = [p.name for p in t.players]
        standing = [{"rank": s.rank, "name": names[s.player], "wins": s.wins,
                     "points": points_text(s.points), "landmarks": s.landmarks,
                     "coins": s.coins, "tables": s.tables,
                     "dropped": t.players[s.player].dropped}
                    for s in t.standing()]
        shown = shown_round(t)
        seating = None
        if shown is not None:
            number, stage, tables, is_open = shown
            current = t.open_round
            table_names = ([hall.table(i).name for i in current.tables] if current is not None
                           else [f"R{number} T{i}" for i in range(1, len(tables) + 1)])
            seating = {"round": number, "stage": stage, "open": is_open, "tables": [
                {"table": i, "name": table_names[i - 1],
                 "players": [names[p] for p in table]}
                for i, table in enumerate(tables, start=1)]}
        current = t.current
        round_info = None
        if current is not None:
            ends = (current.started_at + 60 * t.round_minutes
                    if t.round_minutes and current.open else None)
            round_info = {"round": current.number, "stage": current.stage,
                          "open": current.open, "started_at": current.started_at,
                          "ends_at": ends}
        ranking = None
        if t.stage() == "done":
            ranking = final_ranking(t)
        return {"event": {"id": event.id, "name": event.name}, "stage": t.stage(),
                "rounds": t.rounds, "played": len(t.preliminaries()),
                "round_minutes": t.round_minutes, "current": round_info,
                "seating": seating, "standings": standing, "ranking": ranking,
                "cut": cut_view(t),
                "next": t.next_stage(), "now": time.time()}


def ranking(t: Tournament) -> tuple[Ranked, ...]:
    """The tournament's ranking once its final is closed (RULES.md 28)."""
    final = t.played[-1]
    assert final.results is not None
    return tournament_ranking(t.standing(), final.results[0], t.semi_results(), t.absent(),
                              t.drawn())


def final_ranking(t: Tournament) -> list[dict[str, Any]]:
    return [{"rank": r.rank, "name": t.players[r.player].name, "stage": r.stage}
            for r in ranking(t)]


def cut_view(t: Tournament) -> dict[str, Any] | None:
    """The players equal at the cut (RULES.md 28), by name: once drawn, with the names the
    draw gave the seats left (`drawn`, in the draw's order); before, while the round the cut
    seats is next, with `drawn` None; None when the ranks alone decide."""
    names = [p.name for p in t.players]
    if t.draw is not None:
        draw = t.draw
        return {"count": draw.count, "seats": draw.seats, "sure": [names[p] for p in draw.sure],
                "tied": [names[p] for p in draw.tied],
                "drawn": [names[p] for p in draw.order[:draw.seats]]}
    if t.next_stage() not in (SEMI_FINAL, FINAL) or t.semi_results():
        return None
    standing = t.standing()
    cut = cut_line(standing, cut_count(standing), t.absent())
    if cut is None:
        return None
    return {"count": cut.count, "seats": cut.seats, "sure": [names[p] for p in cut.sure],
            "tied": [names[p] for p in cut.tied], "drawn": None}


def where(hall: HallState, t: Tournament, query: str) -> list[dict[str, Any]]:
    """The seats of the shown round whose player's name holds `query` (any case)."""
    view = public_view(hall, t)
    wanted = name_key(" ".join(query.split()))
    seating = view["seating"]
    if seating is None:
        return []
    return [{"name": name, "round": seating["round"], "table": table["table"],
             "table_name": table["name"], "position": position}
            for table in seating["tables"]
            for position, name in enumerate(table["players"], start=1)
            if wanted and wanted in name_key(name)]


def organizer_view(hall: HallState, t: Tournament, base: str) -> dict[str, Any]:
    """The public view with the players' tokens and join links, for the organizer."""
    view = public_view(hall, t)
    with hall.lock:
        view["players"] = [{"id": p.id, "name": p.name, "token": p.token,
                            "join_path": p.join_path, "join_url": base + p.join_path,
                            "checked_in": p.checked_in, "dropped": p.dropped, "late": p.late}
                           for p in t.players]
        view["keep_apart"] = [[t.players[p].name for p in g] for g in t.keep_apart]
        view["ruleset"], view["options"] = t.ruleset, t.options
        view["roll_mode"] = t.roll_mode
        view["plan"] = [[[t.players[p].name for p in table] for table in tables]
                        for tables in t.plan]
        view["played_rounds"] = [{"round": r.number, "stage": r.stage, "tables": r.tables,
                                  "open": r.open, "seating": [[t.players[p].name for p in table]
                                                              for table in r.seating]}
                                 for r in t.played]
    return view
