"""Engine.IO's websocket served on gevent through simple-websocket (wsproto), the maintained
path (gevent-websocket has had no release since 2017), with what the gevent-websocket path
gives (issues 17, 26): bad handshakes refused with 400 before engine.io opens a session, each
message checked by the guard (`guard.CheckedWebSocket`), no traceback for a client's mistake or
a dropped connection, no compression (the hall's LAN does not need it, and deflating every view
for every phone would cost the server's CPU), whole frames written (`sendall`), and a silent
phone's socket given up after engine.io's ping interval and timeout."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterable
from typing import Any

import gevent.event
import gevent.selectors
import simple_websocket
from engineio.async_drivers._websocket_wsgi import SimpleWebSocketWSGI
from engineio.async_drivers.gevent import Thread
from wsproto.events import Message, TextMessage
from wsproto.utilities import RemoteProtocolError

from companion.web.guard import CheckedWebSocket

http_log = logging.getLogger("companion.http")
# In the environ: a list the server's handler puts there, which gets an item once the 101 is sent
UPGRADED = "companion.websocket_upgraded"


class Connection(simple_websocket.Server):  # type: ignore[misc]
    """simple-websocket's server side, made safe for a hall: a refused handshake closes its
    socket; a message is written whole (gevent's send may write part of it); closing a
    connection the phone already dropped is no error."""

    def handshake(self) -> None:
        try:
            super().handshake()
        except RemoteProtocolError:  # the caller gets simple-websocket's ConnectionError
            self.connected = False
            self.sock.close()

    def send(self, data: str | bytes) -> None:
        if not self.connected:
            raise simple_websocket.ConnectionClosed(self.close_reason, self.close_message)
        event = Message(data=data) if isinstance(data, bytes) else TextMessage(data=str(data))
        self.sock.sendall(self.ws.send(event))

    def close(self, reason: int | None = None, message: str | None = None) -> None:
        if self.connected:
            with contextlib.suppress(OSError):
                super().close(reason, message)


class SimpleWebSocket(SimpleWebSocketWSGI):  # type: ignore[misc]
    """What engine.io calls with a websocket request (its `_async["websocket"]`): the handshake
    answered by simple-websocket on the request's socket, gevent's thread, event and selector
    (as engineio.async_drivers.gevent passes them), and the guard on every message."""

    def __init__(self, handler: Callable[[Any], Any], server: Any) -> None:
        super().__init__(handler, server, thread_class=Thread, event_class=gevent.event.Event,
                         selector_class=gevent.selectors.DefaultSelector)

    def __call__(self, environ: dict[str, Any],
                 start_response: Callable[..., Any]) -> Iterable[bytes]:
        environ.pop("HTTP_SEC_WEBSOCKET_EXTENSIONS", None)  # no permessage-deflate
        try:
            connection = Connection(environ, **self.server_args)
        except simple_websocket.ConnectionError:
            http_log.warning("refused a bad request: a websocket handshake from %s",
                             environ.get("REMOTE_ADDR", "?"))
            start_response("400 Bad Request", [("Content-Type", "text/plain")])
            return [b"bad websocket handshake"]
        environ.get(UPGRADED, []).append(True)
        self.ws = CheckedWebSocket(connection, environ)
        return self.app(self)  # type: ignore[no-any-return]

    @property
    def _sock(self) -> Any:
        """The connection's socket: engine.io sets its timeout to the ping interval and
        timeout, so a phone gone silent does not keep simple-websocket's reader waiting."""
        return self.ws.sock


def use_simple_websocket(eio: Any) -> None:
    """Serve `eio`'s (an engineio.Server's) websockets through `SimpleWebSocket`. engine.io
    keeps its async driver's classes in `_async`; its gevent driver takes gevent-websocket
    whenever that is installed."""
    eio._async = {**eio._async, "websocket": SimpleWebSocket}
