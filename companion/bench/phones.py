"""The phones of `companion bench hall`: one client process's Socket.IO clients (python-socketio
AsyncClient over websocket), driven by the bench through a pipe.

Messages in: ("moves", on), ("expect", roll number), ("report", starts, dice), ("quit",).
Out: the connect summary, ("done", roll number) once every phone has that roll, the report.

A phone's client (`client`): python-socketio's AsyncClient ("socketio", as before), or
`LightClient` ("light"), the same Socket.IO protocol over aiohttp's websocket with the least
work per message: python-socketio's client starts an asyncio task for every message it reads
(a `wait_for` round the read, and the handler in a task of its own), about 0.1 ms of CPU a
message, 4-5 times the server's cost of sending it; on this 2-core machine, where the phones'
processes share the cores with the server, their time then outweighs the server's.

A Machi Koro phone has roll N when its N-th view with a new turn or dice comes; a phone of the
big Catan event (`ruleset` "catan-big") when the event's `turn` message of number N comes, and
it moves by keeping its points tracker up (`track`).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import random
import time
from multiprocessing.connection import Connection
from typing import Any, NamedTuple

from companion.bench.catan import RULESET as CATAN
from companion.bench.catan import track_move
from companion.bench.floor import compact
from companion.hall.frames import apply_table_message

CONNECT_CONCURRENCY = 50
CLIENTS = ("socketio", "light")


class LightClient:
    """A Socket.IO (v5, Engine.IO v4) client on the websocket transport, the subset the bench
    uses: connect with auth, handlers of events, `call` with an ack, Engine.IO's pings
    answered; every message is read and handled in the one reader task."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.handlers: dict[str, Any] = {}
        self.acks: dict[int, asyncio.Future[Any]] = {}
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.last_id = 0

    def on(self, event: str, handler: Any) -> None:
        self.handlers[event] = handler

    async def connect(self, url: str, auth: dict[str, Any], transports: Any = None,
                      wait_timeout: float = 60) -> None:
        endpoint = "ws" + url.removeprefix("http") + "/socket.io/?EIO=4&transport=websocket"
        self.ws = await asyncio.wait_for(self.session.ws_connect(endpoint), wait_timeout)
        opened = await asyncio.wait_for(self.ws.receive_str(), wait_timeout)
        if not opened.startswith("0"):
            raise ConnectionError(f"no Engine.IO open packet: {opened[:80]!r}")
        await self.ws.send_str("40" + json.dumps(auth, separators=(",", ":")))
        while True:  # up to the namespace's CONNECT (or its refusal)
            message = await asyncio.wait_for(self.ws.receive_str(), wait_timeout)
            if message.startswith("40"):
                break
            if message.startswith("44"):
                raise ConnectionError(f"refused: {message[2:200]}")
            await self.handle(message)
        self.reader = asyncio.get_running_loop().create_task(self.read())

    async def read(self) -> None:
        from aiohttp import WSMsgType

        async for message in self.ws:
            if message.type != WSMsgType.TEXT:
                break
            await self.handle(message.data)
        for future in self.acks.values():
            if not future.done():
                future.set_exception(ConnectionError("disconnected"))

    async def handle(self, message: str) -> None:
        if message == "2":  # Engine.IO's ping
            await self.ws.send_str("3")
        elif message.startswith("42"):  # an event (the server asks no ack)
            event, *args = json.loads(message[2:])
            handler = self.handlers.get(event)
            if handler is not None:
                handler(*args)
        elif message.startswith("43"):  # an ack: 43<id>[args]
            start = end = 2
            while message[end].isdigit():
                end += 1
            args = json.loads(message[end:])
            future = self.acks.pop(int(message[start:end]), None)
            if future is not None and not future.done():
                future.set_result(args[0] if len(args) == 1 else tuple(args))

    async def call(self, event: str, data: Any, timeout: float = 60) -> Any:
        self.last_id += 1
        number = self.last_id
        future = asyncio.get_running_loop().create_future()
        self.acks[number] = future
        try:
            await self.ws.send_str(f"42{number}" + json.dumps([event, data],
                                                               separators=(",", ":")))
            return await asyncio.wait_for(future, timeout)
        finally:
            self.acks.pop(number, None)

    async def disconnect(self) -> None:
        if self.ws is not None and not self.ws.closed:
            with contextlib.suppress(Exception):
                await self.ws.send_str("41")
            await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)


class Ack(NamedTuple):
    """A move as its phone saw it: when it was sent, the ms its ack took (None: none came),
    whether it was accepted, and its kind (build or dice_count)."""

    sent: float
    ms: float | None
    ok: bool
    kind: str


class _Phone:
    """One phone: its client, the last view, and when its turn or dice changed (Machi Koro)
    or each turn's message first came (`turns`, by number: the big Catan event)."""

    __slots__ = ("token", "client", "view", "key", "changes", "turns", "worker")

    def __init__(self, token: str, worker: _Worker) -> None:
        self.token, self.worker = token, worker
        self.client: Any = None
        self.view: dict[str, Any] | None = None
        self.key: tuple[Any, ...] = ()
        self.changes: list[tuple[float, list[int]]] = []
        self.turns: dict[int, tuple[float, list[int]]] = {}

    def on_view(self, view: dict[str, Any]) -> None:
        now = time.monotonic()
        key = (view.get("turn"), tuple(view.get("dice") or ()))
        first = self.view is None
        self.view = view
        if first:
            self.key = key
            self.worker.first_views += 1
            self.worker.sample(view)
        elif self.worker.catan:
            return  # a board's view: its roll comes in the event's turn message
        elif key != self.key:
            self.key = key
            self.changes.append((now, list(key[1])))
            self.worker.changed(len(self.changes), view)

    def on_table(self, message: dict[str, Any]) -> None:
        """A table's change (docs/api.md, `table`), applied to the view as the phone page does;
        after a gap the phone asks for its view (`sync`)."""
        if self.view is None:
            return
        view = apply_table_message(self.view, message, in_place=True)
        if view is None:
            self.worker.keep(asyncio.get_running_loop().create_task(self.worker.sync(self)))
        else:
            self.on_view(view)  # the same dict, changed in place: its turn and dice say what

    def on_turn(self, turn: dict[str, Any]) -> None:
        now = time.monotonic()
        number = turn.get("number")
        if isinstance(number, int) and number not in self.turns:
            self.turns[number] = (now, list(turn.get("dice") or ()))
            self.worker.turned(number, turn)


class _Worker:
    def __init__(self, pipe: Connection, url: str, tokens: list[str], rate: float, index: int,
                 ruleset: str = "machi-koro", client: str = "socketio") -> None:
        self.pipe, self.url, self.rate, self.index = pipe, url, rate, index
        self.client = client
        self.catan = ruleset == CATAN
        self.turn_sizes: list[int] = []
        self.phones = [_Phone(token, self) for token in tokens]
        self.connected: list[_Phone] = []
        self.counts: dict[int, int] = {}
        self.expected = 0
        self.first_views = 0
        self.sizes: list[int] = []
        self.acks: list[Ack] = []
        self.moving = False
        self.random = random.Random(index)
        self.inbox: asyncio.Queue[Any] = asyncio.Queue()
        self.tasks: set[asyncio.Task[Any]] = set()

    def sample(self, view: dict[str, Any]) -> None:
        if len(self.sizes) < 200:
            self.sizes.append(len(compact(view)))

    def changed(self, number: int, view: dict[str, Any]) -> None:
        self.counts[number] = self.counts.get(number, 0) + 1
        self.sample(view)
        self._check(number)

    def turned(self, number: int, turn: dict[str, Any]) -> None:
        self.counts[number] = self.counts.get(number, 0) + 1
        if len(self.turn_sizes) < 200:
            self.turn_sizes.append(len(compact(turn)))
        self._check(number)

    def _check(self, number: int) -> None:
        if number == self.expected and self.counts.get(number, 0) >= len(self.connected):
            self.pipe.send(("done", number))
            self.expected = 0

    async def run(self) -> None:
        import socketio

        loop = asyncio.get_running_loop()
        loop.add_reader(self.pipe.fileno(), lambda: self.inbox.put_nowait(self.pipe.recv()))
        gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
        errors: list[str] = []

        session = None
        if self.client == "light":
            import aiohttp

            session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))

        async def connect(phone: _Phone) -> None:
            client = (LightClient(session) if session is not None else
                      socketio.AsyncClient(reconnection=False, handle_sigint=False))
            client.on("view", phone.on_view)
            client.on("table", phone.on_table)
            if self.catan:
                client.on("turn", phone.on_turn)
            async with gate:
                try:
                    await client.connect(self.url, auth={"token": phone.token},
                                         transports=["websocket"], wait_timeout=60)
                except Exception as error:  # counted and reported, not fatal
                    errors.append(f"{type(error).__name__}: {error}")
                    return
            phone.client = client
            self.connected.append(phone)

        await asyncio.gather(*(connect(phone) for phone in self.phones))
        gc.collect()
        gc.freeze()  # the phones' long-lived objects leave the collector's scans (fewer pauses)
        deadline = time.monotonic() + 30
        while self.first_views < len(self.connected) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        self.pipe.send({"connected": len(self.connected), "failed": len(errors),
                        "errors": errors[:5]})
        mover = loop.create_task(self.move_stream())
        try:
            while True:
                message = await self.inbox.get()
                if message[0] == "moves":
                    self.moving = message[1]
                elif message[0] == "expect":
                    self.expected = message[1]
                    self._check(message[1])
                elif message[0] == "report":
                    self.pipe.send(self.report(message[1], message[2]))
                elif message[0] == "quit":
                    break
        finally:
            mover.cancel()
            for task in list(self.tasks):
                task.cancel()
            await asyncio.gather(mover, *self.tasks, return_exceptions=True)
            await asyncio.gather(*(p.client.disconnect() for p in self.connected),
                                 return_exceptions=True)
            if session is not None:
                await session.close()
            loop.remove_reader(self.pipe.fileno())

    async def move_stream(self) -> None:
        if self.rate <= 0 or not self.connected:
            return
        number = 0
        due = time.monotonic()
        while True:
            if not self.moving:
                await asyncio.sleep(0.05)
                due = time.monotonic()
                continue
            due += 1 / self.rate
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            phone = self.random.choice(self.connected)
            number += 1
            task = asyncio.get_running_loop().create_task(
                self.send(phone, f"bench-{self.index}-{number}", self.next_move(phone)))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    def next_move(self, phone: _Phone) -> dict[str, Any]:
        """A Machi Koro phone builds when its view offers a build, else sets its dice; a
        Catan phone keeps its points tracker up."""
        if self.catan:
            return track_move(self.random)
        builds = [c for c in (phone.view or {}).get("choices", ()) if c.get("kind") == "build"]
        return self.random.choice(builds) if builds else {"kind": "dice_count", "count": 1}

    def keep(self, task: asyncio.Task[Any]) -> None:
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def sync(self, phone: _Phone) -> None:
        """A phone's full view after a gap in its table's messages."""
        with contextlib.suppress(Exception):  # no answer: the next message tries again
            answer = await phone.client.call("sync", {}, timeout=10)
            if isinstance(answer, dict) and isinstance(answer.get("view"), dict):
                phone.on_view(answer["view"])

    async def send(self, phone: _Phone, request_id: str, move: dict[str, Any]) -> None:
        started = time.monotonic()
        try:
            answer = await phone.client.call("move", {"request_id": request_id, "move": move},
                                             timeout=10)
        except Exception:  # a timeout or a dropped connection: counted
            self.acks.append(Ack(started, None, False, move["kind"]))
            return
        ok = isinstance(answer, dict) and bool(answer.get("ok"))
        self.acks.append(Ack(started, (time.monotonic() - started) * 1000, ok, move["kind"]))
        view = answer.get("view") if isinstance(answer, dict) else None
        if isinstance(view, dict) and phone.view is not None and view["seq"] > phone.view["seq"]:
            phone.on_view(view)  # the mover's view comes in its ack, not the broadcast

    def report(self, starts: list[float], dice: list[list[int]]) -> dict[str, Any]:
        by_roll: list[list[float]] = [[] for _ in starts]
        missed = wrong = 0
        for phone in self.connected:
            for number, start in enumerate(starts):
                got = phone.turns.get(number + 1) if self.catan else (
                    phone.changes[number] if number < len(phone.changes) else None)
                if got is None:
                    missed += 1
                    continue
                at, seen = got
                # a Machi Koro view shows the first die (the floor's) or both; a turn both
                if not seen or seen != dice[number][:len(seen)] or (self.catan and len(seen) != 2):
                    wrong += 1
                by_roll[number].append((at - start) * 1000)
        missed += (len(self.phones) - len(self.connected)) * len(starts)
        return {"by_roll": by_roll, "missed": missed, "wrong_dice": wrong,
                "acks": self.acks, "view_bytes": self.sizes, "turn_bytes": self.turn_sizes}


def run_worker(pipe: Connection, url: str, tokens: list[str], rate: float, index: int,
               ruleset: str = "machi-koro", client: str = "socketio") -> None:
    """A client process: a phone per token on the server at `url`, `rate` moves per second,
    each phone a `client` ("socketio" or "light")."""
    try:
        asyncio.run(_Worker(pipe, url, tokens, rate, index, ruleset, client).run())
    finally:
        pipe.close()
