"""Malformed traffic at a real `companion serve`: bad websocket frames, raw Engine.IO/Socket.IO
packets no client library would send, reserved event names, huge numbers, an HTTP request with
thousands of headers. Each one gets a refusal or a closed connection for that client only, and
at most one line in the server's log, never a traceback; the phones of the hall keep being
served meanwhile (issue 17)."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import socketio
from conftest import run_companion
from serverproc import ServerProcess
from socket_phone import Phone

from companion.server import WEBSOCKETS
from companion.web import guard
from companion.web.wire import BadPacket, JsonFirstPacket

pytestmark = pytest.mark.slow

FLOOD = 20  # each bad frame is sent this many times on one connection: one log line at most
SETTLE_SECONDS = 1.0  # how long a connection that stays open is watched before the log is read
CLOSE_SECONDS = 15.0  # how long the server may take to close one (a busy machine is slow)
TEXT, BINARY, CLOSE = 0x1, 0x2, 0x8
BIG_INT = "9" * 101  # engine.io's JSON takes integers of up to 100 digits


# ---------------------------------------------------------------- a websocket spoken by hand


def masked_frame(opcode: int, payload: bytes) -> bytes:
    """One final websocket frame from a client (RFC 6455 5.2: a client masks its payload)."""
    mask = os.urandom(4)
    size = len(payload)
    if size < 126:
        head = bytes([0x80 | opcode, 0x80 | size])
    elif size < 1 << 16:
        head = bytes([0x80 | opcode, 0x80 | 126]) + size.to_bytes(2, "big")
    else:
        head = bytes([0x80 | opcode, 0x80 | 127]) + size.to_bytes(8, "big")
    return head + mask + bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))


class RawSocket:
    """A Socket.IO connection over a plain socket, so that a test can send any frame at all,
    joined as a seat (`token`) or only opened at the Engine.IO level (None)."""

    def __init__(self, port: int, token: str | None) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.buffer = b""
        try:
            self._open(port, token)
        except BaseException:
            self.sock.close()
            raise

    def _open(self, port: int, token: str | None) -> None:
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (f"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
             "Upgrade: websocket\r\nConnection: Upgrade\r\n"
             f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = self._read_until(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head
        opened = self.receive()
        assert opened is not None and opened.startswith("0{"), opened  # Engine.IO OPEN
        if token is not None:
            self.send_text("40" + json.dumps({"token": token}))
            # the Socket.IO CONNECT and the seat's view, in either order
            answers = [self.receive() or "", self.receive() or ""]
            assert sorted(answer[:3] for answer in answers) == ["40{", "42["], answers

    def send(self, opcode: int, payload: bytes) -> None:
        self.sock.sendall(masked_frame(opcode, payload))

    def send_text(self, text: str) -> None:
        self.send(TEXT, text.encode("utf-8", "surrogatepass"))

    def receive(self) -> str | None:
        """The next text message, None when the server closed the connection."""
        while True:
            frame = self._frame()
            if frame is None:
                return None
            opcode, payload = frame
            if opcode == CLOSE:
                return None
            if payload == b"2":  # the server's ping
                self.send(TEXT, b"3")
                continue
            return payload.decode("utf-8", "replace")

    def closed_within(self, seconds: float) -> bool:
        """Whether the server closes the connection within `seconds` (answers are read)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            self.sock.settimeout(left)
            try:
                if self.receive() is None:
                    return True
            except TimeoutError:
                return False
            except OSError:  # reset by the server
                return True
        return False

    def close(self) -> None:
        self.sock.close()

    def _frame(self) -> tuple[int, bytes] | None:
        head = self._read(2)
        if head is None:
            return None
        size = head[1] & 0x7F
        if size >= 126:
            extended = self._read(2 if size == 126 else 8)
            if extended is None:
                return None
            size = int.from_bytes(extended, "big")
        payload = self._read(size)
        return None if payload is None else (head[0] & 0x0F, payload)

    def _read(self, count: int) -> bytes | None:
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def _read_until(self, end: bytes) -> bytes:
        while end not in self.buffer:
            chunk = self.sock.recv(65536)
            assert chunk, f"the server closed before {end!r}: {self.buffer!r}"
            self.buffer += chunk
        head, self.buffer = self.buffer.split(end, 1)
        return head


# ---------------------------------------------------------------- the server and its phones


@dataclass
class Served:
    server: ServerProcess
    seats: list[dict[str, Any]]
    phones: dict[int, Phone]  # table 2's seats (it rolls on its own), kept connected throughout
    moves: int = 0

    def log_size(self) -> int:
        assert self.server.log_path is not None
        return self.server.log_path.stat().st_size

    def log_since(self, size: int) -> str:
        assert self.server.log_path is not None
        with self.server.log_path.open("rb") as log:
            log.seek(size)
            return log.read().decode("utf-8", "replace")

    def play(self) -> None:
        """The active seat of table 2 rolls or ends its turn, and it is accepted: phones that
        were connected all along are still served."""
        view = next(iter(self.phones.values())).wait_for(0)
        self.moves += 1
        kind = "roll" if view["phase"] == "roll" else "end_turn"
        after = self.phones[view["active"]].move(f"steady-{self.moves}", {"kind": kind})
        for phone in self.phones.values():
            phone.wait_for(after["seq"])

    def join(self) -> None:
        """A phone that connects now is served too, as a browser connects: polling first, then
        the upgrade to a websocket."""
        views: list[dict[str, Any]] = []
        client = socketio.Client(reconnection=False)
        client.on("view", views.append)
        client.connect(self.server.url, auth={"token": self.seats[0]["token"]}, wait_timeout=10)
        try:
            ack = client.call("move", {"request_id": "join", "move": {"kind": "end_turn"}}, timeout=10)
            assert ack["code"] == "rule/wrong_phase", ack  # table 1 waits for the hall's roll
            assert views and client.transport() == "websocket", (views, client.transport())
        finally:
            client.disconnect()


@pytest.fixture(scope="module", params=WEBSOCKETS)
def served(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Served]:
    """The hall served with each library `serve` can serve websockets with (COMPANION_WEBSOCKET)."""
    folder: Path = tmp_path_factory.mktemp("fuzz")
    done = run_companion("demo", "--db", str(folder / "hall.db"))
    assert done.returncode == 0, done.stderr
    seats = json.loads(done.stdout)["seats"]
    own = [seat for seat in seats if seat["table"] == seats[-1]["table"]]
    env = {**os.environ, "COMPANION_WEBSOCKET": request.param}
    with ServerProcess(folder / "hall.db", log_path=folder / "server.log", env=env) as server:
        server.start()
        phones = {int(seat["seat"]): Phone(server.url, seat["token"]) for seat in own}
        try:
            yield Served(server, seats, phones)
        finally:
            for phone in phones.values():
                phone.client.disconnect()
        log = server.log_tail(100_000)
    assert "Traceback" not in log, log


def assert_quiet(served: Served, before: int, what: str) -> None:
    """At most one line in the log since `before`, and no traceback; the phones are served."""
    served.play()
    served.join()
    time.sleep(0.1)  # a line written while the phones were answered
    written = served.log_since(before)
    assert "Traceback" not in written, f"{what}:\n{written}"
    assert len(written.splitlines()) <= 1, f"{what}: more than one line:\n{written}"


# ---------------------------------------------------------------- the checks themselves


@pytest.mark.parametrize(("encoded", "problem"), [
    ('2["move",{}]', None), ('21["move",{}]', None), ("0", None), ('0{"token":"x"}', None), ("1", None),
    ('3/hall,4["ok"]', None),
    (b"2[]", "binary data"), ('51-["x",{"_placeholder":true,"num":0}]', "binary attachments"),
    ('21-["move",{}]', "binary attachments"), ("4", "type 4"), ("7", "type 7"), ("x", "does not decode"),
    ("2[", "does not decode"), ("2" + "[" * 60_000, "does not decode"), (f"2[{BIG_INT}]", "does not decode"),
    ("2" + "9" * 120 + "[]", "does not decode"), ("2", "without a name"), ("2[]", "without a name"),
    ("2[1]", "without a name"), ('2{"a":1}', "without a name"), ('2["connect"]', "'connect'"),
    ('2["disconnect",1]', "'disconnect'"), ("3", "without arguments"), ('3"x"', "without arguments"),
])
def test_the_packet_refuses_what_no_client_sends(encoded: str | bytes, problem: str | None) -> None:
    if problem is None:
        JsonFirstPacket(encoded_packet=encoded)
    else:
        with pytest.raises(BadPacket, match=problem):
            JsonFirstPacket(encoded_packet=encoded)


def test_an_empty_packet_is_refused() -> None:
    with pytest.raises(BadPacket, match="empty"):
        JsonFirstPacket(encoded_packet="")


@pytest.mark.parametrize(("message", "accepted"), [
    ("40", True), ('42["move",{}]', True), ("2", True), ("3", True), ("2probe", True), ("3probe", True),
    ("5", True), ("6", True), ("1", True), ("", False), ("4", False), ("47", False), ("4x", False),
    ("0", False), ("9", False), ("bAAAA", False), ("3[", False), ("1probe", False), (b"40", False),
])
def test_engineio_packets_from_clients(message: str | bytes, accepted: bool) -> None:
    assert (guard.engineio_problem(message) is None) == accepted


@pytest.mark.parametrize(("body", "accepted"), [
    (b"", True), (b"40", True), (b'42["move",{}]\x1e3', True), (b"\xff", False), (b"42\x1e", False),
    (b"3\x1e" * 16 + b"3", False), ('42["\ud800"]'.encode("utf-8", "surrogatepass"), False),
])
def test_polling_bodies_from_clients(body: bytes, accepted: bool) -> None:
    assert (guard.payload_problem(body) is None) == accepted


KEY = "dGhlIHNhbXBsZSBub25jZQ=="  # RFC 6455's example: 16 bytes in base64
HANDSHAKE = {"SERVER_PROTOCOL": "HTTP/1.1", "HTTP_CONNECTION": "keep-alive, Upgrade",
             "HTTP_SEC_WEBSOCKET_VERSION": "13", "HTTP_SEC_WEBSOCKET_KEY": KEY}


@pytest.mark.parametrize(("changed", "problem"), [
    ({}, None), ({"SERVER_PROTOCOL": "HTTP/1.0"}, "HTTP/1.0"), ({"HTTP_CONNECTION": "close"}, "Upgrade"),
    ({"HTTP_SEC_WEBSOCKET_VERSION": "12"}, "version"), ({"HTTP_SEC_WEBSOCKET_VERSION": None}, "version"),
    ({"HTTP_SEC_WEBSOCKET_KEY": "a"}, "key"), ({"HTTP_SEC_WEBSOCKET_KEY": "!!"}, "key"),
    ({"HTTP_SEC_WEBSOCKET_KEY": "YWJj"}, "key"), ({"HTTP_SEC_WEBSOCKET_KEY": None}, "key"),
])
def test_websocket_handshakes_from_clients(changed: dict[str, str | None], problem: str | None) -> None:
    """What simple-websocket would refuse only after engine.io opened a session for it."""
    environ = {name: value for name, value in {**HANDSHAKE, **changed}.items() if value is not None}
    found = guard.handshake_problem(environ)
    assert found is None if problem is None else problem in (found or ""), found


# ---------------------------------------------------------------- websocket frames

BIG = "9" * 400
HUGE = "9" * 5000  # over Python's 4,300-digit limit for int <-> str
CLOSES, STAYS = True, False  # whether the server closes the connection of the sender


def move(payload: str) -> bytes:
    """A `move` event with ack id 1, its payload written as raw JSON text."""
    return f'421["move",{payload}]'.encode()


def build(card: str) -> bytes:
    """A move that builds `card` (raw JSON text)."""
    return move(f'{{"request_id":"b","move":{{"kind":"build","card":{card}}}}}')


# (name, opcode, payload, whether the connection is closed): each sent FLOOD times on one
# connection of a seat's phone
FRAMES: list[tuple[str, int, bytes, bool]] = [
    ("binary frame", BINARY, b"\x00\xff" * 10, CLOSES),
    ("binary socket.io event", BINARY, b'451-["move",{"_placeholder":true,"num":0}]', CLOSES),
    ("binary event as text", TEXT, b'451-["move",{"_placeholder":true,"num":0}]', CLOSES),
    ("attachments on an event", TEXT, b'421-["move",{}]', CLOSES),
    ("empty text", TEXT, b"", CLOSES),
    ("not a packet", TEXT, b"x", CLOSES),
    ("engine.io ping", TEXT, b"2", STAYS),
    ("engine.io upgrade", TEXT, b"5", STAYS),
    ("engine.io noop", TEXT, b"6", STAYS),
    ("engine.io open", TEXT, b"0", CLOSES),
    ("engine.io unknown type", TEXT, b"9", CLOSES),
    ("engine.io base64", TEXT, b"bAAAA", CLOSES),
    ("engine.io bad base64", TEXT, b"b!!!", CLOSES),
    ("engine.io pong nested", TEXT, b"3" + b"[" * 60_000, CLOSES),
    ("engine.io message nested", TEXT, b"4" + b"[" * 60_000, CLOSES),
    ("empty message", TEXT, b"4", CLOSES),
    ("event without data", TEXT, b"42", CLOSES),
    ("connect error from a client", TEXT, b"44", CLOSES),
    ("unknown socket.io type", TEXT, b"47", CLOSES),
    ("not a socket.io type", TEXT, b"4x", CLOSES),
    ("truncated json", TEXT, b"42[", CLOSES),
    ("event as object", TEXT, b'42{"move":1}', CLOSES),
    ("event as string", TEXT, b'42"move"', CLOSES),
    ("empty event", TEXT, b"42[]", CLOSES),
    ("event name not text", TEXT, b"42[1,2]", CLOSES),
    ("event name null", TEXT, b"42[null]", CLOSES),
    ("connect event", TEXT, b'42["connect"]', CLOSES),
    ("connect event with auth", TEXT, b'42["connect",{"token":"x"},{"organizer":"x"}]', CLOSES),
    ("connect event with ack", TEXT, b'427["connect"]', CLOSES),
    ("disconnect event", TEXT, b'42["disconnect"]', CLOSES),
    ("ack without arguments", TEXT, b"431", CLOSES),
    ("ack from client", TEXT, b'431["x"]', STAYS),
    ("unknown event", TEXT, b'42["nothing",1]', STAYS),
    ("move without payload", TEXT, b'421["move"]', STAYS),
    ("move with more arguments", TEXT, b'421["move",{},{},3]', STAYS),
    ("unknown namespace", TEXT, b'42/nowhere,["move",{}]', STAYS),
    ("connect again", TEXT, b'40{"token":"TOKEN"}', STAYS),
    ("connect to another namespace", TEXT, b"40/nowhere,", STAYS),
    ("ack id too long", TEXT, b"42" + b"9" * 120 + b'["move"]', CLOSES),
    ("deep nesting", TEXT, b"42" + b"[" * 60_000, CLOSES),
    ("too large", TEXT, b'42["move","' + b"x" * 70_000 + b'"]', CLOSES),
    ("json lone surrogate", TEXT, move('{"request_id":"\\ud800","move":{"kind":"roll"}}'), STAYS),
    ("json lone surrogate as event", TEXT, b'421["\\udc00",{}]', STAYS),
    ("raw lone surrogate", TEXT, '421["move",{"request_id":"\ud800"}]'.encode("utf-8", "surrogatepass"),
     CLOSES),
    ("invalid utf-8", TEXT, b'421["move",{"request_id":"\xff\xfe"}]', CLOSES),
    ("truncated utf-8", TEXT, b'421["move","\xe2\x82"]', CLOSES),
    ("100-digit card", TEXT, build(BIG[:100]), STAYS),
    ("400-digit card", TEXT, build(BIG), CLOSES),
    ("400-digit request id", TEXT, move(f'{{"request_id":{BIG},"move":{{"kind":"roll"}}}}'), CLOSES),
    ("400-digit move kind", TEXT, move(f'{{"request_id":"k","move":{{"kind":{BIG}}}}}'), CLOSES),
    ("400-digit move", TEXT, move(f'{{"request_id":"m","move":{BIG}}}'), CLOSES),
    ("400-digit payload", TEXT, move(BIG), CLOSES),
    ("400-digit ack id", TEXT, f"42{BIG}[\"move\"]".encode(), CLOSES),
    ("5000-digit card", TEXT, build(HUGE), CLOSES),
    ("5000-digit request id", TEXT, move(f'{{"request_id":{HUGE}}}'), CLOSES),
    ("huge float", TEXT, build("1e999"), STAYS),
    ("NaN", TEXT, build("NaN"), STAYS),
]


@pytest.mark.parametrize(("name", "opcode", "payload", "closes"), FRAMES, ids=[f[0] for f in FRAMES])
def test_a_bad_frame_costs_at_most_one_line(served: Served, name: str, opcode: int, payload: bytes,
                                            closes: bool) -> None:
    token = served.seats[0]["token"]
    before = served.log_size()
    raw = RawSocket(served.server.port, token)
    try:
        for _ in range(FLOOD):
            try:
                raw.send(opcode, payload.replace(b"TOKEN", token.encode()))
            except OSError:  # closed by the server after the first: as good as a refusal
                break
        closed = raw.closed_within(CLOSE_SECONDS if closes else SETTLE_SECONDS)
        assert closed == closes, f"{name}: closed is not {closes}"
    finally:
        raw.close()
    assert_quiet(served, before, name)


@pytest.mark.parametrize("frame", [
    '42["move",{}]', "41", '42["connect"]', "44", "42[", '40"x"', "40[1]", "40{", "40" + "[" * 60_000,
    '40{"token":"nope"}', '40{"token":[1]}', '40{"token":{"a":1}}', f'40{{"token":{BIG[:100]}}}',
    '40{"hall":[1]}', '40{"hall":{"a":1}}', '40{"hall":null}', '40{"hall":"' + "x" * 60_000 + '"}',
    '40{"organizer":{}}', '40{"organizer":true}', '40{"organizer":[1]}', '40{"organizer":"\\ud800"}',
], ids=lambda frame: frame[:30])
def test_a_bad_frame_before_joining_costs_at_most_one_line(served: Served, frame: str) -> None:
    """The same at the Engine.IO level only, before the Socket.IO connection is made."""
    before = served.log_size()
    raw = RawSocket(served.server.port, None)
    try:
        for _ in range(FLOOD):
            try:
                raw.send_text(frame)
            except OSError:
                break
        raw.closed_within(SETTLE_SECONDS)
    finally:
        raw.close()
    assert_quiet(served, before, frame[:40])


def test_moves_with_bad_contents_are_answered(served: Served) -> None:
    """A well-formed packet with bad contents is answered, not dropped: the seat's phone gets a
    refusal it can show, and its connection stays open."""
    before = served.log_size()
    raw = RawSocket(served.server.port, served.seats[0]["token"])
    try:
        for number, payload in enumerate([
                '{"request_id":"\\ud800","move":{"kind":"roll"}}',
                '{"request_id":"\\udc00x","move":{"kind":"\\ud800"}}',
                f'{{"request_id":"c","move":{{"kind":"build","card":{BIG[:100]}}}}}',
                f'{{"request_id":{BIG[:100]},"move":{{"kind":"roll"}}}}',
                f'{{"request_id":"{"x" * 60_000}","move":{{"kind":"roll"}}}}']):
            raw.send_text(f'42{number}["move",{payload}]')
            answer = raw.receive()
            assert answer is not None and answer.startswith(f"43{number}["), answer
            ack = json.loads(answer[len(f"43{number}"):])[0]
            assert ack["ok"] is False and ack["code"] != "server/error", ack
    finally:
        raw.close()
    assert served.log_since(before) == ""


# ---------------------------------------------------------------- polling


class Polling:
    """An Engine.IO polling session, joined as a seat, spoken with plain HTTP requests."""

    def __init__(self, url: str, token: str) -> None:
        self.base = f"{url}/socket.io/?EIO=4&transport=polling"
        status, opened = self.request()
        assert status == 200 and opened.startswith(b"0{"), opened
        self.base += "&sid=" + json.loads(opened[1:])["sid"]
        assert self.request(("40" + json.dumps({"token": token})).encode()) == (200, b"OK")

    def request(self, body: bytes | None = None) -> tuple[int, bytes]:
        """GET (no body) or POST: the status and the answer."""
        request = urllib.request.Request(self.base, data=body, method="GET" if body is None else "POST")
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            with error:
                return error.code, error.read()


@pytest.mark.parametrize("body", [
    b"x", b"\xff\xfe", b"4", b"4" + b"[" * 60_000, b"3" + b"[" * 60_000, b"b!!!", b"bAAAA", b"42[",
    b"\x1e" * 20, b"d=42", b"4\x1e4", b"42\x1e", b'42["connect"]', b"44", b"42", move(BIG),
    b'42["move",{"request_id":"\xed\xa0\x80"}]',
], ids=repr)
def test_a_bad_polling_body_costs_at_most_one_line(served: Served, body: bytes) -> None:
    before = served.log_size()
    session = Polling(served.server.url, served.seats[0]["token"])
    for _ in range(FLOOD):
        status, _answer = session.request(body)
        assert status in (200, 400), status
    time.sleep(0.2)  # engine.io handles a polling body's messages in the background
    assert_quiet(served, before, repr(body[:40]))


# ---------------------------------------------------------------- HTTP


def http_exchange(port: int, request: bytes) -> bytes:
    """Send `request` and read its answer, maybe none: until the server closes the connection,
    5 s pass without an answer, or half a second passes after one (a kept-alive connection)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        with contextlib.suppress(OSError):  # the server may close while we still send
            sock.sendall(request)
        answer = b""
        with contextlib.suppress(OSError):
            while chunk := sock.recv(65536):
                answer += chunk
                sock.settimeout(0.5)
    return answer


def many_headers(count: int) -> bytes:
    return b"".join(b"X-Fuzz-%d: %d\r\n" % (i, i) for i in range(count))


def upgrade(headers: bytes, version: bytes = b"HTTP/1.1") -> bytes:
    """A websocket handshake for /socket.io/ with these Sec-WebSocket-* headers."""
    return (b"GET /socket.io/?EIO=4&transport=websocket " + version + b"\r\nHost: x\r\n"
            b"Upgrade: websocket\r\nConnection: Upgrade\r\n" + headers + b"\r\n")


@pytest.mark.parametrize("request_bytes", [
    b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + many_headers(5000) + b"\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 100_000 + b"\r\n\r\n",
    b"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: x\r\n" + many_headers(5000)
    + b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
    + b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
    upgrade(b"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: !!\r\n"),
    upgrade(b"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: a\r\n"),
    upgrade(b"Sec-WebSocket-Version: 13\r\n"),
    upgrade(b"Sec-WebSocket-Version: 12\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"),
    upgrade(b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"),
    upgrade(b"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n",
            version=b"HTTP/1.0"),
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(256)) + b"\r\n\r\n",  # TLS
], ids=["5000 headers", "100 kB header", "5000 headers on upgrade", "websocket key of 1 byte",
        "websocket key not base64", "websocket key missing", "websocket version 12",
        "websocket version missing", "websocket over HTTP/1.0", "tls hello"])
def test_bad_http_is_refused(served: Served, request_bytes: bytes) -> None:
    before = served.log_size()
    answer = http_exchange(served.server.port, request_bytes)
    assert answer == b"" or answer.startswith((b"HTTP/1.1 4", b"HTTP/1.0 4")), answer[:200]
    assert_quiet(served, before, repr(request_bytes[:40]))
