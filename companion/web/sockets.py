"""Socket.IO: phones, hall screens and the organizer connect; phones send `move`.

Rooms: `token:TOKEN` (one seat's devices; a reassigned seat's old token gets nothing more),
`hall:EVENT` (screens of one event), `organizer`.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import request, session
from flask_socketio import ConnectionRefusedError, emit, join_room

from companion.hall import HallError, HallService
from companion.hall.service import Change, refusal
from companion.hall.views import hall_view, seat_view
from companion.web import socketio
from companion.web.auth import is_organizer_key, service

log = logging.getLogger("companion")
connections: dict[str, tuple[str, str]] = {}  # sid -> ("seat", token) | ("hall", id) | ("organizer", "")


@socketio.on("connect")
def connect(auth: Any = None) -> None:
    auth = auth if isinstance(auth, dict) else {}
    hall = service()
    if "organizer" in auth:
        if not is_organizer_key(auth["organizer"]):
            raise ConnectionRefusedError("the organizer key is not valid")
        connections[request.sid] = ("organizer", "")
        join_room("organizer")
        with hall.lock:
            views = [hall_view(e, [hall.tables[t] for t in e.tables]) for e in hall.events.values()]
        for view in views:
            emit("hall", view)
        return
    if "hall" in auth:
        try:
            event = hall.event(auth["hall"])
        except HallError as error:
            raise ConnectionRefusedError(error.message) from None
        connections[request.sid] = ("hall", event.id)
        join_room(f"hall:{event.id}")
        with hall.lock:
            view = hall_view(event, [hall.tables[t] for t in event.tables])
        emit("hall", view)
        return
    token = auth.get("token") or session.get("seat_token")
    try:
        table, seat = hall.seat_for(token)
    except HallError as error:
        raise ConnectionRefusedError(error.message) from None
    connections[request.sid] = ("seat", token)
    join_room(f"token:{token}")
    with hall.lock:
        view = seat_view(table, seat, hall.catalog)
    emit("view", view)


@socketio.on("disconnect")
def disconnect(*_: Any) -> None:
    connections.pop(request.sid, None)


@socketio.on("move")
def move(payload: Any = None) -> dict[str, Any]:
    """The ack: `{"ok": true, "view": ...}` or `{"ok": false, "code", "message"}`."""
    kind, token = connections.get(request.sid, ("", ""))
    if kind != "seat":
        return refusal("auth/not_a_seat", "only a seat's phone can make moves")
    if not isinstance(payload, dict):
        return refusal("request/malformed", "a move is {\"request_id\": ..., \"move\": {...}}")
    hall = service()
    try:
        answer = dict(hall.move(token, payload.get("request_id"), payload.get("move")))
        if answer.get("ok"):
            table, seat = hall.seat_for(token)
            with hall.lock:
                answer["view"] = seat_view(table, seat, hall.catalog)
        return answer
    except HallError as error:
        return refusal(error.code, error.message)
    except Exception:
        log.exception("move failed")
        return refusal("server/error", "something went wrong on the server; try again")


def subscribe(hall: HallService) -> None:
    """Publish every committed change: each seat's view to its devices, summaries to halls."""

    def publish(change: Change) -> None:
        with hall.lock:
            seat_views = [
                (f"token:{s.token}", seat_view(hall.tables[t], i, hall.catalog))
                for t in change.tables for i, s in enumerate(hall.tables[t].seats)
            ]
            hall_views = [
                (hall.events[e].id, hall_view(hall.events[e],
                                              [hall.tables[t] for t in hall.events[e].tables]))
                for e in change.events
            ]
        for room, view in seat_views:
            socketio.emit("view", view, to=room)
        for event_id, view in hall_views:
            socketio.emit("hall", view, to=f"hall:{event_id}")
            socketio.emit("hall", view, to="organizer")

    hall.listeners[:] = [publish]
