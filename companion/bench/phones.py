"""The phones of `companion bench hall`: one client process's Socket.IO clients (python-socketio
AsyncClient over websocket), driven by the bench through a pipe.

Messages in: ("moves", on), ("expect", roll number), ("report", starts, dice), ("quit",).
Out: the connect summary, ("done", roll number) once every phone has that roll, the report.
"""

from __future__ import annotations

import asyncio
import gc
import random
import time
from multiprocessing.connection import Connection
from typing import Any, NamedTuple

from companion.bench.floor import compact

CONNECT_CONCURRENCY = 50


class Ack(NamedTuple):
    """A move as its phone saw it: when it was sent, the ms its ack took (None: none came),
    whether it was accepted, and its kind (build or dice_count)."""

    sent: float
    ms: float | None
    ok: bool
    kind: str


class _Phone:
    """One phone: its client, the last view, and when its turn or dice changed."""

    __slots__ = ("token", "client", "view", "key", "changes", "worker")

    def __init__(self, token: str, worker: _Worker) -> None:
        self.token, self.worker = token, worker
        self.client: Any = None
        self.view: dict[str, Any] | None = None
        self.key: tuple[Any, ...] = ()
        self.changes: list[tuple[float, list[int]]] = []

    def on_view(self, view: dict[str, Any]) -> None:
        now = time.monotonic()
        key = (view.get("turn"), tuple(view.get("dice") or ()))
        first = self.view is None
        self.view = view
        if first:
            self.key = key
            self.worker.first_views += 1
            self.worker.sample(view)
        elif key != self.key:
            self.key = key
            self.changes.append((now, list(key[1])))
            self.worker.changed(len(self.changes), view)


class _Worker:
    def __init__(self, pipe: Connection, url: str, tokens: list[str], rate: float, index: int) -> None:
        self.pipe, self.url, self.rate, self.index = pipe, url, rate, index
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

        async def connect(phone: _Phone) -> None:
            client = socketio.AsyncClient(reconnection=False, handle_sigint=False)
            client.on("view", phone.on_view)
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
            builds = [c for c in (phone.view or {}).get("choices", ()) if c.get("kind") == "build"]
            move = self.random.choice(builds) if builds else {"kind": "dice_count", "count": 1}
            number += 1
            task = asyncio.get_running_loop().create_task(
                self.send(phone, f"bench-{self.index}-{number}", move))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

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
                if number >= len(phone.changes):
                    missed += 1
                    continue
                at, seen = phone.changes[number]
                if not seen or seen[0] != dice[number][0]:
                    wrong += 1
                by_roll[number].append((at - start) * 1000)
        missed += (len(self.phones) - len(self.connected)) * len(starts)
        return {"by_roll": by_roll, "missed": missed, "wrong_dice": wrong,
                "acks": self.acks, "view_bytes": self.sizes}


def run_worker(pipe: Connection, url: str, tokens: list[str], rate: float, index: int) -> None:
    """A client process: a phone per token on the server at `url`, `rate` moves per second."""
    try:
        asyncio.run(_Worker(pipe, url, tokens, rate, index).run())
    finally:
        pipe.close()
