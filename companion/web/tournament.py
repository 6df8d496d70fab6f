"""A tournament's web side (docs/api.md, Tournaments): the organizer's API under
`/api/events/ID/tournament/...`, the public standings and "where do I sit?" JSON, the player
token's link `/t/TOKEN` (it sends a phone to the seat of its player's table this round, through
the seat's own join link: the play protocol is untouched), the phone page searchable by name,
the projector page, and the tournament's printouts."""

from __future__ import annotations

import io
from typing import Any

from flask import Blueprint, redirect, render_template, request, send_file, session, url_for
from flask_babel import gettext as _

from companion.hall import HallError
from companion.hall import tournament as tour
from companion.hall.tournament_prints import KINDS, TournamentPrint, prepare_print
from companion.web.api import body
from companion.web.auth import organizer_required, service
from companion.web.errors import message_page, opened_in_browser
from companion.web.pages import phone_base_url
from companion.web.prints import off_the_event_loop

bp = Blueprint("tournament", __name__)
BASE = "/api/events/<event_id>/tournament"


def organizer_json(t: tour.Tournament, status: int = 200) -> Any:
    return tour.organizer_view(service(), t, phone_base_url()), status


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
    return organizer_json(tour.tournament_of(service(), event_id))


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


@bp.post(f"{BASE}/rounds/start")
@organizer_required
def start_round(event_id: str) -> Any:
    tour.start_round(service(), event_id, tour.PRELIMINARY)
    return organizer_json(tour.tournament_of(service(), event_id))


@bp.post(f"{BASE}/rounds/close")
@organizer_required
def close_round(event_id: str) -> Any:
    tour.close_round(service(), event_id)
    return organizer_json(tour.tournament_of(service(), event_id))


@bp.post(f"{BASE}/final")
@organizer_required
def final(event_id: str) -> Any:
    """Start the semi-finals (29 players or more) or the final, whichever comes next."""
    tour.start_round(service(), event_id, tour.FINAL)
    return organizer_json(tour.tournament_of(service(), event_id))


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


# ------------------------------------------------------------ public: phones and the projector


@bp.get(f"{BASE}/public")
def public(event_id: str) -> Any:
    hall = service()
    return tour.public_view(hall, tour.tournament_of(hall, event_id))


@bp.get(f"{BASE}/where")
def where(event_id: str) -> Any:
    """?name=PART: the seats of this round (or the next) whose player's name holds PART."""
    hall = service()
    t = tour.tournament_of(hall, event_id)
    query = request.args.get("name", "")[:80]
    return {"query": query, "seats": tour.where(hall, t, query)}


@bp.get("/t/<token>")
def player_link(token: str) -> Any:
    """A player's one link for the whole tournament: the seat of their table this round
    (through the seat's join link), else the tournament's phone page with their name."""
    hall = service()
    try:
        t, player, seat_token = tour.current_seat(hall, token)
    except HallError:
        return message_page(_("Tournament"), _(
            "This tournament link is not (or no longer) valid. Ask the organizer for your card."),
            404)
    session["player_token"] = token
    if seat_token is not None:
        return redirect(url_for("pages.join", token=seat_token))
    return redirect(url_for("tournament.phone", event_id=t.event_id, name=player.name))


@bp.get("/t/<token>/seat")
def player_seat(token: str) -> Any:
    """Where the player's link leads now, for the play page's script to follow between
    rounds: `{"seat_token": ...}` (null between rounds)."""
    hall = service()
    _t, _player, seat_token = tour.current_seat(hall, token)
    return {"seat_token": seat_token}


def page_data(event_id: str) -> tuple[tour.Tournament, dict[str, Any]]:
    hall = service()
    t = tour.tournament_of(hall, event_id)
    return t, tour.public_view(hall, t)


@bp.get("/tournament/<event_id>")
def phone(event_id: str) -> Any:
    """The phones' "where do I sit?" page, searchable by name."""
    try:
        _t, data = page_data(event_id)
    except HallError:
        return message_page(_("Tournament"), _("This event has no tournament."), 404)
    return render_template("tournament/phone.html", data=data,
                           name=request.args.get("name", "")[:80])


@bp.get("/tournament/<event_id>/screen")
def screen(event_id: str) -> Any:
    """The projector between rounds: the standings and the next round's seating, paged."""
    try:
        _t, data = page_data(event_id)
    except HallError:
        return message_page(_("Tournament"), _("This event has no tournament."), 404)
    return render_template("tournament/screen.html", data=data,
                           where_url=f"{phone_base_url()}/tournament/{data['event']['id']}")
