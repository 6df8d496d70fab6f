"""The bench's servers and the machine's figures: a server subprocess (the app or the floor)
started, its organizer key read, its /proc figures, stopped; CPU time and steal from /proc."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"


class ServerProcess:
    """A server subprocess: started, its organizer key read, its /proc figures, stopped."""

    def __init__(self, command: list[str], log: Path, key_prefix: str | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.command, self.log_path, self.key_prefix = command, log, key_prefix
        self.env = env or {}
        self.key = ""

    def __enter__(self) -> ServerProcess:
        self.log = open(self.log_path, "wb")  # noqa: SIM115 (closed in __exit__)
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=self.log,
                                        stdin=subprocess.DEVNULL, env=env)
        try:
            self._wait_ready()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _wait_ready(self) -> None:
        assert self.process.stdout is not None
        deadline = time.monotonic() + 60
        lines: list[str] = []
        while self.key_prefix and not self.key:
            line = self.process.stdout.readline().decode(errors="replace")
            if not line:
                raise RuntimeError(f"server exited: {''.join(lines)}{self._log_tail()}")
            lines.append(line)
            if line.startswith(self.key_prefix):
                self.key = line.rsplit("key=", 1)[1].strip()
        self._drain = threading.Thread(target=self._read_rest, daemon=True)
        self._drain.start()
        port = self.command[self.command.index("--port") + 1]
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://{HOST}:{port}/healthz", timeout=2) as answer:
                    answer.read()
                return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"server exited: {self._log_tail()}") from None
                time.sleep(0.1)
        raise RuntimeError(f"server did not answer: {self._log_tail()}")

    def _read_rest(self) -> None:
        assert self.process.stdout is not None
        for _ in self.process.stdout:
            pass

    def _log_tail(self) -> str:
        self.log.flush()
        return self.log_path.read_bytes()[-2000:].decode(errors="replace")

    def status(self, field: str) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
        return 0

    def cpu_seconds(self) -> float:
        return process_cpu_seconds(self.process.pid)

    def __exit__(self, *_: Any) -> None:
        stop_process(self.process)
        if hasattr(self, "_drain"):
            self._drain.join(5)
        if self.process.stdout is not None:
            self.process.stdout.close()
        self.log.close()


def stop_process(process: subprocess.Popen[Any], sig: int = signal.SIGTERM,
                 grace: float = 10) -> None:
    """Send `process` the signal (SIGTERM: end cleanly), wait up to `grace` seconds for it to
    go, then kill it."""
    process.send_signal(sig)
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def machine_ticks() -> list[int]:
    """The machine's CPU time by kind (/proc/stat's first line: user ... steal)."""
    return [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]


def steal_percent(before: list[int], after: list[int]) -> float:
    """The share of the machine's CPU time its hypervisor gave to other machines meanwhile: a
    virtual machine's figures mean little while it is high (runs here have seen 0-70%)."""
    spent = [b - a for a, b in zip(before, after, strict=True)]
    return round(100 * spent[7] / sum(spent), 1) if sum(spent) else 0.0


def process_cpu_seconds(*pids: int | None) -> float:
    """User and system CPU time of processes so far, from /proc."""
    ticks = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def served_app(folder: Path, websocket: str | None = None) -> Iterator[tuple[ServerProcess, str]]:
    """`companion serve` as shipped, on a free port of this machine with a database and its log
    in `folder`: the server (its organizer key read) and its base URL. `websocket`: the library
    that serves its websockets (COMPANION_WEBSOCKET, server.websocket_path), if not the default."""
    port = free_port()
    command = [sys.executable, "-m", "companion", "serve", "--host", HOST, "--port", str(port),
               "--db", str(folder / "hall.db")]
    env = {"COMPANION_WEBSOCKET": websocket} if websocket else None
    with ServerProcess(command, folder / "app.log", key_prefix="organizer: ", env=env) as server:
        yield server, f"http://{HOST}:{port}"


def load_average() -> list[float]:
    """The machine's 1, 5 and 15 minute load averages (/proc/loadavg, as `uptime` shows)."""
    return [float(n) for n in Path("/proc/loadavg").read_text().split()[:3]]


HOG = "while True: pass"


@contextlib.contextmanager
def hogs(count: int) -> Iterator[list[int]]:
    """`count` busy processes (a core each, at the server's priority) while the block runs, as
    a projector's browser and a console share a laptop with the server (`bench hall --hog N`):
    their pids."""
    processes = [subprocess.Popen([sys.executable, "-c", HOG], stdin=subprocess.DEVNULL)
                 for _ in range(count)]
    try:
        yield [p.pid for p in processes]
    finally:
        for process in processes:
            stop_process(process, signal.SIGKILL, grace=5)
