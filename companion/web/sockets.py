"""Socket.IO: phones, hall screens and the organizer connect; phones send `move`.

Rooms: `token:TOKEN` (one seat's devices; a reassigned seat's old token gets nothing more),
`table:TABLE` (the phones of one table's seats: its `table` messages, web/fanout.py),
`event:EVENT` (the phones of one event's seats: its `turn` message), `hall:EVENT` (screens of
one event), `organizer`, `player:TOKEN` (a tournament player's phone between seats: `moved`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Mapping
from contextvars import ContextVar
from typing import Any

import socketio as python_socketio
from flask import request, session
from flask_socketio import ConnectionRefusedError, emit, join_room

from companion.hall import HallError, HallService
from companion.hall.checks import refusal, unicode_only
from companion.hall.model import Change
from companion.hall.tournament_views import current_seat
from companion.journal import JournalUnavailable
from companion.web import fanout, socketio
from companion.web.auth import is_organizer_key, is_signed_in_organizer, service
from companion.web.fanout import BatchRedisManager as EncodedOnceRedisManager  # noqa: F401

log = logging.getLogger("companion")
# The refusal of a move while the journal is away (docs/api.md): retryable, nothing changed.
UNAVAILABLE = "server/unavailable"
UNAVAILABLE_MESSAGE = ("the server cannot save moves right now (its journal is unavailable); "
                       "nothing changed: try again in a moment")
# sid -> ("seat", token) | ("hall", id) | ("organizer", "") | ("player", token)
connections: dict[str, tuple[str, str]] = {}
# The connection whose move is being answered: its ack carries its view, so the publishing of
# that move skips it (one view per move for the mover; its seat's other devices get theirs).
mover: ContextVar[str | None] = ContextVar("mover", default=None)


def reply(event: str, data: Any) -> None:
    """Send to the connection being handled, which is on this process: not through the
    message queue (a publish and every other process's dispatch for one addressee)."""
    emit(event, data, ignore_queue=True)


@socketio.on("connect")
def connect(auth: Any = None) -> None:
    auth = auth if isinstance(auth, dict) else {}
    try:
        unicode_only(auth)  # JSON may carry a lone surrogate; the key's comparison would fail on it
    except HallError as error:
        raise ConnectionRefusedError(error.message) from None
    hall = service()
    if "organizer" in auth:
        # The key, or `true` from a browser signed in to the console (its session cookie).
        if not (is_organizer_key(auth["organizer"]) or
                (auth["organizer"] is True and is_signed_in_organizer())):
            raise ConnectionRefusedError("the organizer key is not valid")
        connections[request.sid] = ("organizer", "")
        join_room("organizer")
        hall.discover()  # events other processes created
        hall.catch_up_all(list(hall.tables.values()), list(hall.events.values()))  # and changed
        with hall.memory:  # a short hold: not the organizer's lock, which a hall roll holds long
            views = [hall.hall_view(event) for event in hall.events.values()]
        for view in views:
            reply("hall", view)
        return
    if "hall" in auth:
        try:
            event = hall.event(auth["hall"])
        except HallError as error:
            raise ConnectionRefusedError(error.message) from None
        connections[request.sid] = ("hall", event.id)
        join_room(f"hall:{event.id}")
        reply("hall", fresh_hall_view(hall, event.id))
        return
    if "player" in auth:
        player_connect(hall, auth["player"])
        return
    token = auth.get("token") or session.get("seat_token")
    try:
        table, seat = hall.seat_for(token)
    except HallError as error:
        raise ConnectionRefusedError(error.message) from None
    except JournalUnavailable:  # several processes: the token is looked up in the journal
        raise ConnectionRefusedError(UNAVAILABLE_MESSAGE) from None
    connections[request.sid] = ("seat", token)
    join_room(f"token:{token}")
    join_room(f"table:{table.id}")
    join_room(f"event:{table.event_id}")
    reply("view", hall.seat_view(table, seat))
    turn = hall.turn_message(table.event_id)
    if turn is not None:
        reply("turn", turn)


def player_connect(hall: HallService, token: Any) -> None:
    """A tournament player's phone on the "where do I sit?" page (its player token): it waits
    in the player's room for the next round's `moved`; in a round it is sent on to its seat at
    once (it opened the page, or reconnected, after the round's `moved` went out)."""
    try:
        current_seat(hall, token)  # a valid token, before it joins anything
    except HallError as error:
        raise ConnectionRefusedError(error.message) from None
    connections[request.sid] = ("player", token)
    join_room(f"player:{token}")
    t, player, seat = current_seat(hall, token)  # again, now in the room: no start is missed
    current = t.open_round
    if seat is not None and current is not None:
        reply("moved", {"join": player.join_path, "round": current.number})


@socketio.on("disconnect")
def disconnect(*_: Any) -> None:
    connections.pop(request.sid, None)


@socketio.on("sync")
def sync(*_: Any) -> dict[str, Any]:
    """A phone that missed a `table` message (a gap in the seq) asks for its full view: the
    ack `{"ok": true, "view": ...}` (docs/api.md). Several processes: the table as its journal
    has it (`seat_for` catches it up)."""
    kind, token = connections.get(request.sid, ("", ""))
    if kind != "seat":
        return refusal("auth/not_a_seat", "only a seat's phone has a view")
    hall = service()
    try:
        table, seat = hall.seat_for(token)
        return {"ok": True, "view": hall.seat_view(table, seat)}
    except HallError as error:
        return refusal(error.code, error.message)
    except JournalUnavailable:  # several processes: the table is read from the journal
        return refusal(UNAVAILABLE, UNAVAILABLE_MESSAGE)


@socketio.on("move")
def move(payload: Any = None, *extra: Any) -> dict[str, Any]:
    """The ack: `{"ok": true, "view": ...}` or `{"ok": false, "code", "message"}`, and the
    fresh view also with `move/stale`. The mover's connection gets its view in the ack only
    (`mover`): one view per move. (`extra`: a client may send more arguments; without it the
    call would fail with a traceback.)"""
    kind, token = connections.get(request.sid, ("", ""))
    if kind != "seat":
        return refusal("auth/not_a_seat", "only a seat's phone can make moves")
    if extra or not isinstance(payload, dict):
        return refusal("request/malformed", "a move is {\"request_id\": ..., \"move\": {...}}")
    hall = service()
    moving = mover.set(request.sid)
    try:
        unicode_only(payload)
        # The view comes with the answer, built from the table and seat the move was decided
        # on: a second look-up of the token here would refuse an accepted move whose seat was
        # reassigned (on another process) since the commit.
        return dict(hall.move(token, payload.get("request_id"), payload.get("move"),
                              payload.get("seq"), view=True))
    except HallError as error:
        return refusal(error.code, error.message)
    except JournalUnavailable:  # said once per outage by the journal: no traceback per move
        return refusal(UNAVAILABLE, UNAVAILABLE_MESSAGE)
    except Exception:
        log.exception("move failed")
        return refusal("server/error", "something went wrong on the server; try again")
    finally:
        mover.reset(moving)


def subscribe(hall: HallService, hall_seconds: float = 0.0) -> None:
    """Publish every committed change: one `table` message per table to its room, summaries to
    halls (web/fanout.py).

    With `hall_seconds` > 0 (served halls) the hall view, which holds every table of the event,
    is built at most that often and only while a hall screen or the organizer listens: a hall
    roll changes hundreds of tables at once, and phones must not wait behind it. A change of
    many tables (a hall roll) is then published by a background task: the organizer's answer
    does not wait for its fan-out (the change is committed before it is published)."""
    dirty: set[str] = set()  # events changed here since the last hall views
    heard: set[str] = set()  # events another process said it changed (a queue's `halls` notice)
    guard = threading.Lock()
    frames = fanout.Frames()

    def publish(change: Change) -> None:
        if hall_seconds > 0 and len(change.tables) > 1:
            socketio.start_background_task(publish_in_background, change, mover.get())
        else:
            publish_now(change, mover.get())

    results_sent: dict[str, Any] = {}  # event id -> the `results` its phones last got

    def send_turn(event_id: str, only_new_results: bool = False) -> None:
        """The event's `turn` to its phones, once for all of them; with `only_new_results`,
        only when its results (the winner, each seat's place) differ from the last sent."""
        turn = hall.turn_message(event_id)
        if turn is None:
            return
        results = turn.get("results")
        if only_new_results and (results is None or results == results_sent.get(event_id)):
            return
        results_sent[event_id] = results
        socketio.emit("turn", turn, to=f"event:{event_id}")

    def over_events(change: Change) -> list[str]:
        """The events of the change's tables that are over (their `turn` carries results), other
        than those whose turn the change sends anyway: a table's final points can move a player
        of another table to another place (issue 27)."""
        if not change.tables:
            return []
        with hall.memory:
            events = [hall.events.get(event_id) for event_id in change.events
                      if event_id not in change.turns]
        return [event.id for event in events if event is not None and (event.over or event.ended)]

    def publish_in_background(change: Change, skip: str | None) -> None:
        """`publish_now` in its own task: nothing catches there (the hall's publish did), so a
        failure is logged here, and the next change sends its tables again (review)."""
        try:
            publish_now(change, skip)
        except Exception:
            log.exception("publishing a change failed")

    def publish_now(change: Change, skip: str | None) -> None:
        # The frames are built without the hall's lock: copies of the tables are taken in one
        # short hold of it (`view_copies`). A hall roll changes hundreds of tables, and a move
        # must not wait for all of their frames (issue 15). A table moved on meanwhile sends its
        # newer frame with its own change; an older frame is not sent after it (Frames).
        for event_id in change.turns:  # the event's turn: one message, its JSON made once
            send_turn(event_id)
        for event_id in over_events(change):  # a board's result moved the event's places
            send_turn(event_id, only_new_results=True)
        if change.tables and change.hall_roll and queued():
            # Several processes, a hall roll: each process makes the messages of the tables
            # whose phones it serves, and the others make theirs meanwhile: told first, they
            # catch those tables up from the journal (as their next move there would) and do
            # not wait for this process's frames of every table, nor decode them.
            fanout.publish_tables_changed(change.tables)
            send_tables_here(change.tables, skip, change.acked)
        elif change.tables:
            items = send_tables(change.tables, skip, change.acked)
            fanout.publish_others(items)  # one publish for all of the change's tables
        for token in change.revoked:
            revoke(f"token:{token}")
        if change.series and listening("organizer"):
            publish_series(hall, change.series)
        if hall_seconds > 0:
            with guard:
                dirty.update(change.events)
        else:
            publish_halls(hall, change.events)

    def send_tables(table_ids: Iterable[str], skip: str | None = None,
                    acked: Mapping[str, int] | None = None,
                    full: bool = False) -> list[fanout.Item]:
        """The `table` messages of the tables to this process's phones, their frames made
        outside the hall's lock, a part at a time, each part sent when made; returned for the
        other processes. A table whose seats changed in number sends each seat's view."""
        built = fanout.build_frames(hall.view_copies(table_ids))
        items, reseated = frames.messages(built, skip, fanout.send_local, full=full,
                                          acked=acked)
        for table in reseated:  # seats added or removed: each seat's view, by its token
            for seat in range(len(table.seats)):
                socketio.emit("view", hall.seat_view(table, seat),
                              to=f"token:{table.seats[seat].token}", skip_sid=skip)
        return items

    def send_tables_here(table_ids: list[str], skip: str | None = None,
                         acked: Mapping[str, int] | None = None) -> None:
        """The tables of a hall roll whose phones this process serves, to them; the frames of
        the others are forgotten (another process sent them: no base here any more)."""
        ours = [table_id for table_id in table_ids if listening_here(f"table:{table_id}")]
        frames.forget(set(table_ids) - set(ours))
        send_tables(ours, skip, acked)

    waiting_tables: set[str] = set()  # notices not sent yet here (the journal was away)
    sending = [False]  # a task sends them: the notices that come meanwhile join its next round

    def tables_changed(table_ids: list[str]) -> None:
        """Another process rolled these tables (`publish_tables_changed`): the ones whose
        phones this process serves, caught up from the journal and sent to them. While the
        journal is away they wait, and are tried again every second until it is back."""
        with guard:
            waiting_tables.update(table_ids)
            if sending[0]:
                return
            sending[0] = True
        while True:
            with guard:
                if not waiting_tables:
                    sending[0] = False
                    return
                table_ids = sorted(waiting_tables)
                waiting_tables.clear()
            try:
                with hall.memory:
                    tables = [hall.tables[table_id] for table_id in table_ids
                              if table_id in hall.tables]
                hall.catch_up_all([t for t in tables if listening_here(f"table:{t.id}")])
                send_tables_here([table.id for table in tables])
            except JournalUnavailable:  # said once per outage by the journal
                with guard:
                    waiting_tables.update(table_ids)
                socketio.sleep(1.0)
            except Exception:
                log.exception("sending tables another process rolled failed")

    def flush_halls() -> None:
        """Every `hall_seconds`, the hall views of the events changed meanwhile, to this
        process's screens and consoles. With a message queue each process builds them for its
        own listeners from the journal, and tells the others in one small notice which events
        it changed: a view through the queue was built and published by every process that
        changed anything, whether anyone listened or not (issue 24)."""
        manager = socketio.server.manager
        while True:
            socketio.sleep(hall_seconds)
            with guard:
                mine, events = sorted(dirty), sorted(dirty | heard)
                dirty.clear()
                heard.clear()
            try:
                publish_halls(hall, events, here_only=queued())
            except JournalUnavailable:  # said once per outage by the journal
                halls_changed(events)  # built again at the next round
            except Exception:  # the publisher must outlive any one failure; it is logged
                halls_changed(events)
                log.exception("hall publish failed")
            if mine and isinstance(manager, fanout.BatchRedisManager):
                manager.publish_halls_changed(mine)  # after this process's own screens

    def halls_changed(events: list[str]) -> None:
        with guard:
            heard.update(events)

    def heal() -> None:
        """Redis is back after an outage: every table, as the journal has it, whole to this
        process's phones (they may have missed anything another process sent meanwhile)."""
        try:
            with hall.memory:
                tables = list(hall.tables.values())
            hall.catch_up_all(tables, list(hall.events.values()))
            ours = [table.id for table in tables if listening_here(f"table:{table.id}")]
            send_tables(ours, full=True)
            # the screens here may have missed other processes' notices meanwhile
            with hall.memory:
                events = [event for event in hall.events
                          if listening_here(f"hall:{event}") or listening_here("organizer")]
            halls_changed(events)
        except Exception:
            log.exception("sending the tables again after Redis came back failed")

    manager = getattr(getattr(socketio, "server", None), "manager", None)
    if isinstance(manager, fanout.BatchRedisManager):
        manager.heard = frames.heard
        manager.on_return = heal
        manager.tables_changed = lambda ids: socketio.start_background_task(tables_changed, ids)
        manager.halls_changed = halls_changed
    if hall_seconds > 0:
        socketio.start_background_task(flush_halls)
    hall.listeners[:] = [publish]


def publish_halls(hall: HallService, events: Iterable[str], here_only: bool = False) -> None:
    """Send the hall view of each event to its screens and to the organizer, if anyone listens
    (with a message queue, anyone on any process: the queue carries it; `here_only`: this
    process's listeners, the view built here from the journal)."""
    for event_id in events:
        rooms = [room for room in (f"hall:{event_id}", "organizer")
                 if (listening_here(room) if here_only else listening(room))]
        if not rooms:
            continue
        view = fresh_hall_view(hall, event_id)
        for room in rooms:
            socketio.emit("hall", view, to=room, ignore_queue=here_only)


def publish_series(hall: HallService, series_ids: Iterable[str]) -> None:
    """Send the organizer the view of each series that changed (`series`: docs/api.md,
    "Series"), as the console shows a campaign."""
    from companion.hall import series as hall_series
    for series_id in series_ids:
        socketio.emit("series", hall_series.view(hall, hall_series.series_of(hall, series_id)),
                      to="organizer")


def fresh_hall_view(hall: HallService, event_id: str) -> dict[str, Any]:
    """An event's hall view; several processes: of its tables as their journals have them (a
    table moved on another process would show its old state here, and two processes' views
    of one hall would take turns on its screens)."""
    event = hall.event(event_id)
    hall.catch_up_all(hall.tables_of(event), [event])  # several processes: one query
    return hall.hall_view(event)


def revoke(room: str) -> None:
    """Tell the devices of a seat token that stopped working (the organizer gave the seat a new
    card) and stop serving them as that seat: their page says the link is no longer valid and
    closes the connection itself, instead of showing "Connected" and a view that no longer
    changes. (Closing it from here raced the page's next poll, which then got a 400.) The
    message goes to the token's room, so a message queue carries it to the seat's devices on
    every process, and the room is closed on every process; a device on another process that
    still sends a move is refused there (its token no longer opens the seat it caught up)."""
    for sid, _ in list(socketio.server.manager.get_participants("/", room)):
        connections.pop(sid, None)
        for joined in socketio.server.rooms(sid):  # its table's and event's messages stop too
            if joined.startswith(("event:", "table:")):
                socketio.server.leave_room(sid, joined)
    socketio.emit("revoked", refusal("seat/unknown_token", "this seat has a new card"), to=room)
    socketio.close_room(room)


def listening(room: str) -> bool:
    """Whether anyone may be in the room, on any process."""
    if queued():
        return True  # listeners on other processes are not known here
    return listening_here(room)


def listening_here(room: str) -> bool:
    """Whether a connection of this process is in the room."""
    return bool(socketio.server.manager.rooms.get("/", {}).get(room))


def queued() -> bool:
    """Whether a message queue joins this process's Socket.IO rooms to other processes'."""
    server = getattr(socketio, "server", None)
    return isinstance(getattr(server, "manager", None), python_socketio.PubSubManager)
