"""One seat's phone as a real python-socketio client of a served hall (`ServerProcess`): it
keeps the newest view the server sent and sends moves as the phone page does (the view of its
own move comes in the move's ack, not pushed again: docs/api.md, one view per move).

`ViewKeeper` is what every test's phone does with the server's messages, as the phone page
does (static/js/play.js): a `view` is kept whole, a `table` message is applied to the view kept
(hall/frames.py `apply_table_message`, the page's algorithm), and a gap asks `sync`."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import socketio

from companion.hall.frames import apply_table_message


class ViewKeeper:
    """The seat view a phone keeps, from `view` messages, `table` messages and `sync` answers.
    `views`: every view it came to hold, in order (a `table` message applied makes one)."""

    def __init__(self) -> None:
        self.view: dict[str, Any] | None = None
        self.views: list[dict[str, Any]] = []
        self.syncs = 0  # the full views asked for after a gap

    def take(self, name: str, message: dict[str, Any],
             sync: Callable[[], Any]) -> dict[str, Any] | None:
        """The view after message `name` ("view" or "table"), or None when nothing changed;
        `sync()` asks for the full view after a gap (its answer comes back by `take_sync`, or
        is returned by it)."""
        if name == "view":
            return self._keep(message)
        if self.view is None:
            return None
        after = apply_table_message(self.view, message)
        if after is None:
            self.syncs += 1
            answer = sync()
            return self.take_sync(answer) if answer is not None else None
        return None if after is self.view else self._keep(after)

    def take_sync(self, answer: Any) -> dict[str, Any] | None:
        if isinstance(answer, dict) and answer.get("ok"):
            return self._keep(answer["view"])
        return None

    def take_ack(self, answer: Any) -> dict[str, Any] | None:
        """The view in a move's ack (an accepted move's, or `move/stale`'s), as the page keeps it."""
        if isinstance(answer, dict) and isinstance(answer.get("view"), dict):
            return self._keep(answer["view"])
        return None

    def _keep(self, view: dict[str, Any]) -> dict[str, Any] | None:
        if self.view is not None and view["seq"] < self.view["seq"]:
            return None  # an older view overtaken by a newer one
        self.view = view
        self.views.append(view)
        return view


def follow_views(client: Any, keep: Callable[[dict[str, Any]], Any],
                 keeper: ViewKeeper | None = None) -> ViewKeeper:
    """Make a python-socketio `client` keep its seat view as the phone page does: `keep(view)`
    for every view it comes to hold (whole, a `table` message applied, a `sync` answer)."""
    keeper = keeper or ViewKeeper()
    guard = threading.Lock()

    def answered(answer: Any) -> None:
        with guard:
            view = keeper.take_sync(answer)
        if view is not None:
            keep(view)

    def on(name: str) -> Callable[[dict[str, Any]], None]:
        def handle(message: dict[str, Any]) -> None:
            with guard:  # the sync's answer comes later, through `answered`
                view = keeper.take(name, message, lambda: client.emit("sync", callback=answered))
            if view is not None:
                keep(view)
        return handle

    client.on("view", on("view"))
    client.on("table", on("table"))
    return keeper


def keep_test_views(client: Any) -> Any:
    """A Flask-SocketIO test client whose `get_received()` also applies the `table` messages
    to the view it keeps (`client.keeper`, its `views` those of the last call), as the phone
    page does; a gap asks `sync` at once."""
    keeper = ViewKeeper()
    raw = client.get_received

    def get_received(namespace: Any = None) -> list[dict[str, Any]]:
        messages = raw(namespace)
        keeper.views = []
        for message in messages:
            if message["name"] in ("view", "table"):
                keeper.take(message["name"], message["args"][0],
                            lambda: client.emit("sync", callback=True))
        return messages

    client.get_received = get_received
    client.keeper = keeper
    return client


class Phone:
    """One seat's python-socketio client, keeping the latest view the server pushed."""

    def __init__(self, url: str, token: str) -> None:
        self.view: dict | None = None
        self.changed = threading.Condition()
        self.client = socketio.Client(reconnection=False)
        self.keeper = follow_views(self.client, self._on_view)
        self.client.connect(url, auth={"token": token}, transports=["websocket"], wait_timeout=10)

    def _on_view(self, view: dict) -> None:
        with self.changed:
            if self.view is None or view["seq"] >= self.view["seq"]:  # a late push is older
                self.view = view
            self.changed.notify_all()

    def wait_for(self, seq: int, timeout: float = 10.0) -> dict:
        """The first view at or after journal position `seq`."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while self.view is None or self.view["seq"] < seq:
                left = deadline - time.monotonic()
                assert left > 0, f"no view with seq >= {seq}; last: {self.view and self.view['seq']}"
                self.changed.wait(left)
            return self.view

    def move(self, request_id: str, move: dict) -> dict:
        """Send `move` (its wire form, with `kind`) and answer the view of the accepted ack,
        kept as the newest view as the phone page keeps it."""
        ack = self.client.call("move", {"request_id": request_id, "move": move}, timeout=10)
        assert ack["ok"], (move, ack)
        self.keeper.take_ack(ack)
        self._on_view(ack["view"])
        return ack["view"]
