"""One seat's phone as a real python-socketio client of a served hall (`ServerProcess`): it
keeps the newest view the server sent and sends moves as the phone page does (the view of its
own move comes in the move's ack, not pushed again: docs/api.md, one view per move)."""

from __future__ import annotations

import threading
import time

import socketio


class Phone:
    """One seat's python-socketio client, keeping the latest view the server pushed."""

    def __init__(self, url: str, token: str) -> None:
        self.view: dict | None = None
        self.changed = threading.Condition()
        self.client = socketio.Client(reconnection=False)
        self.client.on("view", self._on_view)
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
        self._on_view(ack["view"])
        return ack["view"]
