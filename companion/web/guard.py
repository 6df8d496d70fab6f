"""What malformed Socket.IO traffic from one client gets: its connection closed and one line in
the log, without a traceback; the hall's other clients never notice (issue 17).

The libraries raise on such traffic deep inside (engine.io on a frame that is no packet,
python-socketio on a packet that is no Socket.IO packet) and log a traceback for every frame,
so a client could flood the log. Each layer is checked where it is read:

- Engine.IO: a websocket message (`CheckedWebSocket`) or a polling body (`checked`) that holds
  no packet a Socket.IO client sends;
- Socket.IO: a packet the app's packet class refuses (wire.BadPacket), caught around
  python-socketio's message handler (`close_on_bad_packets`).

A refused client's connection is closed, so the rest of what it sent costs nothing more.
"""

from __future__ import annotations

import base64
import binascii
import io
import logging
import re
import urllib.parse
from collections.abc import Callable, Iterable
from typing import Any

import engineio
import socketio

from companion.web.wire import BadPacket

log = logging.getLogger("companion")
http_log = logging.getLogger("companion.http")
WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
SOCKET_PATH = "/socket.io/"
# An Engine.IO packet from a Socket.IO client: a message (4) carrying a Socket.IO packet (0-6),
# a ping or pong (maybe "probe"), or a close, upgrade or noop. engine.io fails on some others.
CLIENT_PACKET = re.compile(r"4[0-6]|[23](?:probe)?\Z|[156]\Z")
MAX_PACKETS = 16  # in one polling body, as engine.io takes (Payload.max_decode_packets)


def engineio_problem(message: str | bytes) -> str | None:
    """What is wrong with one Engine.IO packet from a client, or None."""
    if not isinstance(message, str):
        return "binary data"  # the app takes none
    return None if CLIENT_PACKET.match(message) else "something that is not an Engine.IO packet"


def payload_problem(body: bytes) -> str | None:
    """What is wrong with a polling request's body (packets separated by U+001E), or None."""
    if not body:
        return None  # engine.io takes it for no packets
    try:
        packets = body.decode("utf-8").split("\x1e")
    except UnicodeDecodeError:
        return "invalid UTF-8"
    if len(packets) > MAX_PACKETS:
        return "too many packets"
    return next(filter(None, map(engineio_problem, packets)), None)


def refused(environ: dict[str, Any], problem: str) -> None:
    log.warning("client %s sent %s: connection closed", environ.get("REMOTE_ADDR", "?"), problem)


def close_session(server: engineio.Server, sid: str, environ: dict[str, Any], problem: str) -> None:
    """Close a client's Engine.IO session with one line in the log. A session that is closed
    already (the rest of what a refused client sent) is dropped without a word."""
    session = server.sockets.get(sid)
    if session is None or session.closing or session.closed:
        return
    refused(environ, problem)
    session.close(wait=False)  # not waiting: a polling client may never fetch the CLOSE packet


def close_on_bad_packets(server: socketio.Server) -> None:
    """A packet the app refuses closes its client's session; python-socketio would log the
    error with a traceback and read on."""
    handle = server.eio.handlers["message"]

    def on_message(eio_sid: str, data: Any) -> None:
        try:
            handle(eio_sid, data)
        except BadPacket as error:
            close_session(server.eio, eio_sid, server.environ.get(eio_sid, {}), str(error))

    server.eio.on("message", on_message)


class CheckedWebSocket:
    """The websocket engine.io reads from: a message that is no Engine.IO packet from a client
    closes it, and engine.io sees a closed connection (None) instead of failing on it."""

    def __init__(self, websocket: Any, environ: dict[str, Any]) -> None:
        self._websocket = websocket
        self._environ = environ

    def __getattr__(self, name: str) -> Any:
        return getattr(self._websocket, name)

    def receive(self) -> str | bytes | None:
        message = self._websocket.receive()
        problem = None if message is None else engineio_problem(message)
        if problem is None:
            return message
        refused(self._environ, problem)
        self._websocket.close(1002)  # protocol error
        return None


def handshake_problem(environ: dict[str, Any]) -> str | None:
    """What is wrong with a websocket handshake (RFC 6455 4.2.1), or None."""
    if environ.get("SERVER_PROTOCOL") != "HTTP/1.1":
        return "a websocket over " + str(environ.get("SERVER_PROTOCOL"))
    if "upgrade" not in environ.get("HTTP_CONNECTION", "").lower():
        return "a websocket without Connection: Upgrade"
    if environ.get("HTTP_SEC_WEBSOCKET_VERSION") != "13":
        return "a websocket version other than 13"
    try:
        key = base64.b64decode(environ.get("HTTP_SEC_WEBSOCKET_KEY", ""), validate=True)
    except binascii.Error:
        key = b""
    return None if len(key) == 16 else "a websocket key that is not 16 bytes in base64"


def checked(app: WSGIApp, server: socketio.Server) -> WSGIApp:
    """`app` with its Socket.IO traffic checked at the Engine.IO level: websocket messages as
    they are read, polling bodies before engine.io decodes them."""

    def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("PATH_INFO", "").startswith(SOCKET_PATH):
            if environ.get("wsgi.websocket") is not None:
                environ["wsgi.websocket"] = CheckedWebSocket(environ["wsgi.websocket"], environ)
            elif environ.get("HTTP_UPGRADE", "").lower() == "websocket" and (
                    problem := handshake_problem(environ)):
                # gevent-websocket refuses a bad handshake before the app; simple-websocket
                # would only after engine.io opened a session for it
                http_log.warning("refused a bad request from %s: %s",
                                 environ.get("REMOTE_ADDR", "?"), problem)
                start_response("400 Bad Request", [("Content-Type", "text/plain")])
                return [b"bad websocket handshake"]
            if environ.get("REQUEST_METHOD") == "POST" and not polling_accepted(environ, server.eio):
                start_response("400 BAD REQUEST", [("Content-Type", "text/plain")])
                return [b"refused"]
        return app(environ, start_response)

    return application


def polling_accepted(environ: dict[str, Any], server: engineio.Server) -> bool:
    """Whether a polling request's body may go on to engine.io. Its session must not be closed
    (engine.io fails on one it has not forgotten yet) and the body must hold Engine.IO packets
    (else the session is closed, with one line in the log)."""
    sid = urllib.parse.parse_qs(environ.get("QUERY_STRING", "")).get("sid", [""])[0]
    session = server.sockets.get(sid)
    if session is not None and session.closed:
        return False
    problem = body_problem(environ, server.max_http_buffer_size)
    if problem:
        close_session(server, sid, environ, problem)
    return problem is None


def body_problem(environ: dict[str, Any], limit: int) -> str | None:
    """What is wrong with a polling body, or None; the body is read and put back for engine.io.
    A body over `limit` is left to engine.io, which refuses it cleanly."""
    length = int(environ.get("CONTENT_LENGTH") or 0)
    if length > limit:
        return None
    body = environ["wsgi.input"].read(length)
    environ["wsgi.input"] = io.BytesIO(body)
    return payload_problem(body)
