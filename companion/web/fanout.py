"""The fan-out of a change: one `table` message per table that changed, its JSON made once, to
the table's room (`table:ID`); with several processes the messages of one change go through
Redis as one publish, and each process sends only to its own phones. A change of many tables (a
hall roll) goes as a notice naming them (`publish_tables_changed`): each process makes the
messages of the tables whose phones it serves (web/sockets.py `tables_changed`).

`Frames` keeps, per table, the last frame this process sent or heard from another process
(hall/frames.py): the base of the table's next message. Its lock orders a table's messages as
they are sent here: a message is made from the frame before it and sent before the next one is
made. Frames are built outside the lock (the costly part); a frame older than the one sent
already is not sent (a hall roll's copies taken before a move at one of its tables).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import islice
from typing import Any

import socketio as python_socketio

from companion.hall.frames import Frame, apply_patch, frame_of, table_message
from companion.hall.model import Table
from companion.hall.views import EncodedView, compact_json

log = logging.getLogger("companion")
YIELD_EVERY = 25  # tables between yields in a fan-out: moves are answered during a hall roll's
REDIS_RETRY_SECONDS = 0.5  # a lost Redis is looked for this often (the library doubles to 60 s)

# (event, message with its JSON text, room, the sid not to send it to)
Item = tuple[str, EncodedView, str, Any]


def encoded(message: dict[str, Any]) -> EncodedView:
    view = EncodedView(message)
    view.json_text = compact_json(message)
    return view


class Frames:
    """The last frame of each table this process sent or heard (the base of its next message)."""

    def __init__(self, pause: Callable[[], None] | None = None) -> None:
        self.frames: dict[str, Frame] = {}
        self.lock = threading.Lock()
        self.pause = pause or _yield  # between a fan-out's parts (a test records it)

    def messages(self, built: Iterable[tuple[Table, Frame]], skip: Any,
                 send: Callable[[list[Item]], None], full: bool = False,
                 acked: Mapping[str, int] | None = None) -> tuple[list[Item], list[Table]]:
        """The `table` messages from the frames sent before to `built`, sent with `send` while
        the lock holds (so a table's next message is made after this one left), returned for
        the other processes; and the tables whose seats changed in number (a player added or
        removed before the start: their seats' views go whole, by token). `full`: messages
        from nothing, whatever was sent before (the phones may have missed anything).

        `built` is taken YIELD_EVERY tables at a time (`build_frames` makes them as they are
        taken), and each part is sent before the next is made, yielding between: the first
        tables of a hall roll are on the air while the last ones' frames are being made, and a
        move's own message does not wait for all of a hall roll's."""
        items: list[Item] = []
        reseated: list[Table] = []
        frames, parts = iter(built), 0
        while (first := next(frames, None)) is not None:
            if parts:
                self.pause()  # the writers put the last part on the air; moves are answered
            parts += 1
            part = [first, *islice(frames, YIELD_EVERY - 1)]
            with self.lock:
                made = self._made(part, skip, full, reseated, acked or {})
                if made:
                    send(made)
            items += made
        return items, reseated

    def _made(self, built: list[tuple[Table, Frame]], mover: Any, full: bool,
              reseated: list[Table], acked: Mapping[str, int]) -> list[Item]:
        items: list[Item] = []
        for table, frame in built:
            skip = mover if acked.get(table.id) == frame.seq else None
            old = self.frames.get(table.id)
            if old is not None and old.seq > frame.seq:
                continue  # a newer frame went out already (also when sending whole frames)
            if full:
                old = None
            if old is not None and len(old.seats) != len(frame.seats):
                reseated.append(table)
                self.frames[table.id] = frame
                continue
            message = table_message(table.id, old, frame)
            if old is not None and old.seq == frame.seq and not changed(message):
                continue
            self.frames[table.id] = frame
            if table.rules.private_seats:
                items += by_seat(table, message, skip)
            else:
                items.append(("table", encoded(message), f"table:{table.id}", skip))
        return items

    def forget(self, table_ids: Iterable[str]) -> None:
        """Tables whose frames another process sent and this one did not hear (a hall roll's
        tables whose phones it does not serve): their next message from here goes whole."""
        with self.lock:
            for table_id in table_ids:
                self.frames.pop(table_id, None)

    def heard(self, text: str) -> None:
        """A `table` message another process sent: the frame it makes becomes this process's
        base for the table, when this process had the frame it was made from."""
        message = json.loads(text)
        table_id, base, seq = message["table"], message["base"], message["seq"]
        with self.lock:
            old = self.frames.get(table_id)
            if None in message["seats"]:  # one seat's part only (`by_seat`): no whole frame
                self.frames.pop(table_id, None)
                return
            if old is not None and (old.seq > seq or (old.seq == seq and base is not None)):
                return  # older than the frame this process has
            if base is None:
                common: dict[str, Any] = {}
                seats: list[dict[str, Any]] = [{} for _ in message["seats"]]
            elif old is not None and old.seq == base and len(old.seats) == len(message["seats"]):
                common, seats = dict(old.common), [dict(own) for own in old.seats]
            else:
                self.frames.pop(table_id, None)  # its next message here goes whole
                return
            # the old frame is not changed: what the message leaves alone stays shared with it
            apply_patch(common, message["common"], shared=True)
            for own, patch in zip(seats, message["seats"], strict=True):
                apply_patch(own, patch, shared=True)
            self.frames[table_id] = Frame(seq, common, tuple(seats))


def by_seat(table: Table, message: dict[str, Any], skip: Any) -> list[Item]:
    """A table's message for each of its seats' devices (room `token:TOKEN`) with that seat's
    own part alone (the others' null): a ruleset whose seats keep something from each other
    (`Ruleset.private_seats`). Its JSON is made once per seat."""
    items: list[Item] = []
    for seat, own in enumerate(message["seats"]):
        mine = [own if other == seat else None for other in range(len(message["seats"]))]
        items.append(("table", encoded({**message, "seats": mine}),
                      f"token:{table.seats[seat].token}", skip))
    return items


def changed(message: dict[str, Any]) -> bool:
    """Whether a message changes more than the clock's fields (a republish of the same seq)."""
    return any(message["seats"]) or any(key not in ("waited", "choice_seconds", "seq")
                                        for key in message["common"])


def build_frames(copies: list[tuple[Table, int]]) -> Iterator[tuple[Table, Frame]]:
    """Each table's frame, made when it is taken (`Frames.messages` takes them a part at a
    time and yields between the parts). A table whose frame fails (a bug) is logged and left
    out: the other tables' messages still go, here and to the other processes, and its
    phones get its next change."""
    for table, seconds in copies:
        try:
            frame = frame_of(table, seconds)
        except Exception:
            log.exception("the frame of table %s failed: its phones wait for its next change",
                          table.id)
            continue
        yield table, frame


def _yield() -> None:
    from companion.web import socketio

    socketio.sleep(0)


def send_local(items: list[Item]) -> None:
    """Send each message to this process's phones in its room."""
    from companion.web import socketio

    manager = socketio.server.manager
    if isinstance(manager, BatchRedisManager):
        manager.dispatch(items)
        return
    for event, data, room, skip in items:
        socketio.emit(event, data, to=room, skip_sid=skip)


def publish_tables_changed(table_ids: list[str]) -> None:
    """Tell the other processes which tables changed (a hall roll): each sends those whose
    phones it serves (web/sockets.py `tables_changed`)."""
    from companion.web import socketio

    manager = socketio.server.manager
    if isinstance(manager, BatchRedisManager):
        manager.publish_tables_changed(table_ids)


def publish_others(items: list[Item]) -> None:
    """Send the messages to the other processes' phones: one Redis publish for all of them."""
    from companion.web import socketio

    manager = socketio.server.manager
    if isinstance(manager, BatchRedisManager) and items:
        manager.publish_batch(items)


class BatchRedisManager(python_socketio.RedisManager):  # type: ignore[misc]
    """python-socketio's Redis manager, keeping the encode-once fan-out (web/wire.py) and
    sending a change's messages as one publish.

    A message that carries its JSON text (`json_text`, hall/views.py) is not walked for binary
    parts, goes through Redis as that text (one string escape, not an encoding of the view),
    and is sent by every process as the same text. `publish_batch` sends many such messages in
    one Redis message (`batch`: event, text, room, skip_sid each); a process sends each to its
    own phones in the room, if it has any. Anything else (hall views, refusals, callbacks)
    takes the library's own path. `heard` (the `table` messages of other processes) and
    `on_return` (Redis is back after an outage) are set by the publisher."""

    heard: Callable[[str], None] | None = None
    on_return: Callable[[], None] | None = None
    halls_changed: Callable[[list[str]], None] | None = None  # another process's `halls` notice
    tables_changed: Callable[[list[str]], None] | None = None  # its `tables` notice

    def emit(self, event: str, data: Any, namespace: str | None = None, room: Any = None,
             skip_sid: Any = None, callback: Any = None, to: Any = None, **kwargs: Any) -> Any:
        text = getattr(data, "json_text", None)
        if text is None or callback is not None or kwargs.get("ignore_queue"):
            return super().emit(event, data, namespace=namespace, room=room, skip_sid=skip_sid,
                                callback=callback, to=to, **kwargs)
        message = {"method": "emit", "event": event, "json_text": text, "binary": False,
                   "namespace": namespace or "/", "room": to or room, "skip_sid": skip_sid,
                   "callback": None, "host_id": self.host_id}
        self._handle_emit({**message, "data": [data]})  # this process's devices: the view itself
        self._publish(message)  # the other processes': the text
        return None

    def dispatch(self, items: list[Item]) -> None:
        for event, data, room, skip in items:
            super()._handle_emit({"method": "emit", "event": event, "data": [data],
                                  "namespace": "/", "room": room, "skip_sid": skip,
                                  "callback": None, "host_id": self.host_id})

    def publish_batch(self, items: list[Item]) -> None:
        self._publish({"method": "emit", "host_id": self.host_id,
                       "batch": [[event, data.json_text, room, skip]
                                 for event, data, room, skip in items]})

    def publish_tables_changed(self, table_ids: list[str]) -> None:
        self._publish({"method": "emit", "host_id": self.host_id, "tables": table_ids})

    def publish_halls_changed(self, events: list[str]) -> None:
        """Tell the other processes which events changed here: each builds their hall views
        for its own screens (web/sockets.py `flush_halls`)."""
        self._publish({"method": "emit", "host_id": self.host_id, "halls": events})

    def _handle_emit(self, message: dict[str, Any]) -> Any:
        if "batch" in message:
            return self._handle_batch(message["batch"])
        if "tables" in message:
            if self.tables_changed is not None and isinstance(message["tables"], list):
                self.tables_changed([str(table_id) for table_id in message["tables"]])
            return None
        if "halls" in message:
            if self.halls_changed is not None and isinstance(message["halls"], list):
                self.halls_changed([str(event) for event in message["halls"]])
            return None
        if message.get("event") == "revoked" and isinstance(message.get("room"), str):
            self._leave_shared_rooms(message["room"])
        if "json_text" in message and "data" not in message:
            view = EncodedView()
            view.json_text = message["json_text"]
            message = {**message, "data": [view]}
        return super()._handle_emit(message)

    def _leave_shared_rooms(self, room: str) -> None:
        """A seat token revoked on another process: its devices here leave their table's and
        event's rooms (web/sockets.py `revoke` does so on the revoking process), so they hear
        no more of a seat that is no longer theirs."""
        for sid, _ in list(self.get_participants("/", room)):
            for joined in list(self.get_rooms(sid, "/") or ()):
                if isinstance(joined, str) and joined.startswith(("event:", "table:")):
                    self.basic_leave_room(sid, "/", joined)

    def _handle_batch(self, batch: list[list[Any]]) -> None:
        rooms = self.rooms.get("/", {})
        for event, text, room, skip in batch:
            if event == "table" and self.heard is not None:
                try:
                    self.heard(text)
                except Exception:  # a bad frame here costs a whole message later, no more
                    log.exception("a table message from another process did not apply")
            if not rooms.get(room):
                continue  # none of this process's phones is in the room
            view = EncodedView()
            view.json_text = text
            super()._handle_emit({"method": "emit", "event": event, "data": [view],
                                  "namespace": "/", "room": room, "skip_sid": skip,
                                  "callback": None, "host_id": self.host_id})

    def _publish(self, data: Any) -> Any:  # pragma: no cover - needs Redis
        """The library's publish, said once per outage in the log (it logs each failed call
        twice, a hall roll's every message), not retried: what the other processes missed,
        they send their phones when they hear Redis again (`on_return`)."""
        try:
            if not self.connected:
                self._redis_connect()
            return self.redis.publish(self.channel, self.json.dumps(data))
        except Exception as error:
            self.connected = False
            if not self.publish_failed:
                log.warning("cannot publish to Redis (%s): other processes' phones catch up "
                            "when it is back", error)
            self.publish_failed = True
            return None

    publish_failed = False

    def _redis_listen_with_retries(self) -> Iterator[Any]:  # pragma: no cover - needs Redis
        """The library's, looking for a lost Redis every REDIS_RETRY_SECONDS (it doubles its
        wait up to a minute: phones would stay behind that long after Redis is back), and
        telling the publisher when it is back (`on_return`: what this process missed meanwhile
        is sent to its phones)."""
        lost = False
        while True:
            try:
                self._redis_connect()
                self.pubsub.subscribe(self.channel)
                if lost:
                    self.publish_failed = False
                    log.warning("Redis is back: the phones here get their tables again")
                    if self.on_return is not None:
                        self.server.start_background_task(self.on_return)
                lost = False
                yield from self.pubsub.listen()
            except Exception as error:
                if not lost:
                    log.warning("Redis is away (%s): retrying every %s s", error,
                                REDIS_RETRY_SECONDS)
                lost = True
                time.sleep(REDIS_RETRY_SECONDS)
