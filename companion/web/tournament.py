"""A tournament's web side (docs/api.md, Tournaments): the organizer's API under
`/api/events/ID/tournament/...`, the public standings and "where do I sit?" JSON, the player
token's link `/t/TOKEN` (it sends a phone to the seat of its player's table this round, through
the seat's own join link: the play protocol is untouched), the phone page searchable by name,
the projector page, and the tournament's printouts."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, redirect, render_template, request, send_file, url_for
from flask_babel import gettext as _

from companion.hall import HallError
from companion.hall import tournament as tour
from companion.hall import tournament_views as views
from companion.hall.checks import invalid
from companion.hall.tournament_journal import known
from companion.hall.tournament_prints import KINDS, TournamentPrint, prepare_print
from companion.hall.tournament_results import CSV_COLUMNS, csv_rows, results
from companion.web import socketio
from companion.web.api import body, spreadsheet_text
from companion.web.auth import organizer_required, service
from companion.web.errors import message_page, opened_in_browser
from companion.web.pages import phone_base_url
from companion.web.prints import off_the_event_loop

bp = Blueprint("tournament", __name__)
BASE = "/api/events/<event_id>/tournament"


def organizer_json(t: tour.Tournament, status: int = 200) -> Any:
    return views.organizer_view(service(), t, phone_base_url()), status


# ------------------------------------------------------------ the organizer's API


@bp.post(BASE)
@organizer_required
def create(event_id: str) -> Any:
    """Register: `players` (the pasted list), `keep_apart`, `rounds`, `ruleset`, `options`,
    `roll_mode`, `round_minutes`, `absent` (registered, not checked in yet)."""
    return organizer_json(tour.create(service(), event_id, body()), 201)


@bp.get(BASE)
@organizer_required
def show(event_id: str) -> Any:
    """`?optional=1` (the console, for any event it shows): 204 when the event has none."""
    hall = service()
    if request.args.get("optional") and known(hall, hall.event(event_id).id) is None:
        return "", 204  # (an unknown event stays a refusal, event/unknown)
    return organizer_json(tour.tournament_of(hall, event_id))


@bp.post(f"{BASE}/players/<int:player_id>/check_in")
@organizer_required
def check_in(event_id: str, player_id: int) -> Any:
    return organizer_json(tour.check_in(service(), event_id, player_id,
                                        body().get("present", True)))


@bp.post(f"{BASE}/players/<int:player_id>/drop")
@organizer_required
def drop(event_id: str, player_id: int) -> Any:
    return organizer_json(tour.drop(service(), event_id, player_id))


@bp.post(f"{BASE}/late")
@organizer_required
def late(event_id: str) -> Any:
    return organizer_json(tour.arrive(service(), event_id, body().get("name")))


@bp.post(f"{BASE}/start")
@organizer_required
def start(event_id: str) -> Any:
    return organizer_json(tour.start(service(), event_id))


def move_phones(t: tour.Tournament, started: tour.Round) -> None:
    """Send the phones of the last round's seats on to this round's (docs/api.md, `moved`):
    after the hall has committed the round, never under its lock; each seat's room gets its
    own player's link only; and each player's phone waiting between seats (`player:TOKEN`,
    the "where do I sit?" page opened by the player's link) gets its link too."""
    rooms = [(f"token:{seat_token}", link)
             for seat_token, link in views.moves(service(), t, started)]
    rooms += [(f"player:{token}", link) for token, link in views.seated(service(), t, started)]
    for sent, (room, link) in enumerate(rooms, start=1):
        socketio.emit("moved", {"join": link, "round": started.number}, to=room)
        if sent % 25 == 0:
            socketio.sleep(0)  # a hall of hundreds: let the sending start meanwhile


def start_and_move(event_id: str, stage: str) -> Any:
    """Start the tournament's next round of `stage`, then move the phones to their new seats."""
    started = tour.start_round(service(), event_id, stage)
    t = tour.tournament_of(service(), event_id)
    move_phones(t, started)
    return organizer_json(t)


@bp.post(f"{BASE}/rounds/start")
@organizer_required
def start_round(event_id: str) -> Any:
    return start_and_move(event_id, tour.PRELIMINARY)


@bp.post(f"{BASE}/rounds/close")
@organizer_required
def close_round(event_id: str) -> Any:
    tour.close_round(service(), event_id)
    return organizer_json(tour.tournament_of(service(), event_id))


@bp.post(f"{BASE}/final")
@organizer_required
def final(event_id: str) -> Any:
    """Start the semi-finals (29 players or more) or the final, whichever comes next."""
    return start_and_move(event_id, tour.FINAL)


@bp.get("/tournament/<event_id>/prints/<kind>.pdf")
@opened_in_browser
@organizer_required
def download(event_id: str, kind: str) -> Any:
    """?paper=a4|letter&lang=en|he|nl[&round=N]: seating, score-sheets, standings, cards."""
    args = request.args
    number = args.get("round", "")
    chosen = TournamentPrint(kind, args.get("paper", "a4"), args.get("lang", "en"),
                             int(number) if number.isascii() and number.isdigit() else None,
                             phone_base_url())
    draw = prepare_print(service(), event_id, chosen)
    pdf = off_the_event_loop(draw)
    response = send_file(io.BytesIO(pdf), mimetype="application/pdf", as_attachment=True,
                         download_name=f"event-{event_id}-tournament-{kind}-{chosen.paper}"
                                       f"-{chosen.lang}.pdf" if kind in KINDS else "x.pdf")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get(f"{BASE}/results")
@opened_in_browser  # the console opens it as a link
@organizer_required
def results_download(event_id: str) -> Any:
    """?format=csv|json: the standings, every round's tables and places, and the ranking."""
    form = request.args.get("format", "json")
    if form not in ("json", "csv"):
        raise invalid("format is json or csv")
    hall = service()
    t = tour.tournament_of(hall, event_id)
    data = results(hall, t)
    if form == "json":
        return data
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS)
    writer.writeheader()
    writer.writerows({column: spreadsheet_text(value) for column, value in row.items()}
                     for row in csv_rows(data))
    # The byte order mark tells Excel the file is UTF-8; without it Hebrew names are garbled.
    return Response("\ufeff" + out.getvalue(), mimetype="text/csv", headers={
        "Content-Disposition": f"attachment; filename=event-{t.event_id}-tournament.csv",
        "Cache-Control": "no-store"})


# ------------------------------------------------------------ public: phones and the projector


@bp.get(f"{BASE}/public")
def public(event_id: str) -> Any:
    hall = service()
    return views.public_view(hall, tour.tournament_of(hall, event_id))


@bp.get(f"{BASE}/where")
def where(event_id: str) -> Any:
    """?name=PART: the seats of this round (or the next) whose player's name holds PART."""
    hall = service()
    t = tour.tournament_of(hall, event_id)
    query = request.args.get("name", "")[:80]
    return {"query": query, "seats": views.where(hall, t, query)}


@bp.get("/t/<token>")
def player_link(token: str) -> Any:
    """A player's one link for the whole tournament: the seat of their table this round
    (through the seat's join link), else the tournament's phone page with their name."""
    hall = service()
    try:
        t, player, seat_token = views.current_seat(hall, token)
    except HallError:
        return message_page(_("Tournament"), _(
            "This tournament link is not (or no longer) valid. Ask the organizer for your card."),
            404)
    if seat_token is not None:
        return redirect(url_for("pages.join", token=seat_token))
    # the player's token goes along: the page waits for the next round's start and moves on
    return redirect(url_for("tournament.phone", event_id=t.event_id, name=player.name,
                            player=token))


def tournament_page(event_id: str, template: str,
                    context: Callable[[dict[str, Any]], dict[str, Any]]) -> Any:
    """`template` with the tournament's public view as `data` and `context(data)`; a 404 page
    where the event has no tournament."""
    hall = service()
    try:
        data = views.public_view(hall, tour.tournament_of(hall, event_id))
    except HallError:
        return message_page(_("Tournament"), _("This event has no tournament."), 404)
    return render_template(template, data=data, **context(data))


@bp.get("/tournament/<event_id>")
def phone(event_id: str) -> Any:
    """The phones' "where do I sit?" page, searchable by name."""
    return tournament_page(event_id, "tournament/phone.html",
                           lambda data: {"name": request.args.get("name", "")[:80],
                                         "player": request.args.get("player", "")[:80]})


@bp.get("/tournament/<event_id>/screen")
def screen(event_id: str) -> Any:
    """The projector between rounds: the standings and the next round's seating, paged."""
    return tournament_page(event_id, "tournament/screen.html", lambda data: {
        "where_url": f"{phone_base_url()}/tournament/{data['event']['id']}"})
