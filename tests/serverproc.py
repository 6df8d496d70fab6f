"""A real `companion serve` in a subprocess, for tests that need a server they can kill.

    with ServerProcess(db_path, log_path=tmp_path / "server.log") as server:
        server.start()           # a free port, waits until GET /healthz answers
        ... server.url ...
        server.kill()            # SIGKILL, reaped
        server.start()           # the same port and database again

Everything it opens (the process, its log file) is closed by `stop()` or the `with` block, so
the tests stay clean under `filterwarnings = error` (no ResourceWarning).
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Self

REPO = Path(__file__).resolve().parents[1]


def free_port(host: str = "127.0.0.1") -> int:
    """A port nothing listens on right now (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def http_json(url: str, *, method: str = "GET", body: Any = None, key: str | None = None,
              timeout: float = 5.0) -> tuple[int, Any]:
    """One HTTP request with an optional JSON body and organizer key: (status, decoded JSON).

    A 4xx/5xx answer is returned, not raised; a connection failure raises OSError."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if key is not None:
        request.add_header("Authorization", f"Bearer {key}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.loads(error.read() or b"null")


def organizer_key(server: ServerProcess) -> str:
    """The organizer's key, from the sign-in link the server logs when it starts."""
    match = re.search(r"organizer: \S+key=(\S+)", server.log_tail())
    assert match, server.log_tail()
    return match.group(1)


class ServerProcess:
    """`python -m companion serve` on 127.0.0.1 with one SQLite file, started and stopped at will."""

    def __init__(self, db: str | Path, *, port: int | None = None, host: str = "127.0.0.1",
                 log_path: str | Path | None = None, extra_args: tuple[str, ...] = (),
                 program: tuple[str, ...] = (sys.executable, "-m", "companion"),
                 cwd: str | Path = REPO, env: dict[str, str] | None = None) -> None:
        """`program` is the command that is `companion` (an installed one: its script's path),
        run in `cwd` with `env` (None: this process's)."""
        self.db = Path(db)
        self.host = host
        self.port = port
        self.log_path = None if log_path is None else Path(log_path)
        self.extra_args = extra_args
        self.program, self.cwd, self.env = program, Path(cwd), env
        self.proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self, timeout: float = 20.0) -> Self:
        """Start the server (first time on a free port, later on the same one) and wait until
        /healthz answers; raise RuntimeError with the log's tail if it does not come up."""
        if self.running:
            raise RuntimeError("the server is already running")
        self._reap()
        if self.port is None:
            self.port = free_port(self.host)
        if self.log_path is not None and self._log is None:
            self._log = open(self.log_path, "ab")  # noqa: SIM115 - closed in stop()
        output: IO[bytes] | int = self._log if self._log is not None else subprocess.DEVNULL
        command = [*self.program, "serve", "--host", self.host,
                   "--port", str(self.port), "--db", str(self.db), *self.extra_args]
        self.proc = subprocess.Popen(command, cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL,
                                     stdout=output, stderr=subprocess.STDOUT)
        self.starts += 1
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                status, answer = http_json(f"{self.url}/healthz", timeout=1.0)
            except OSError:
                time.sleep(0.05)
                continue
            if status == 200 and isinstance(answer, dict) and answer.get("ok"):
                return self
            time.sleep(0.05)
        code = self.proc.poll()
        self.stop()
        raise RuntimeError(f"the server did not come up (exit code {code}):\n{self.log_tail()}")

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind in the server, as in a power cut of the process."""
        if self.proc is not None:
            self.proc.kill()
            self._reap()

    def terminate(self, timeout: float = 5.0) -> None:
        """SIGTERM, and SIGKILL if it has not ended after `timeout` seconds."""
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            self._reap()

    def stop(self) -> None:
        """End the process (if any) and close the log; harmless twice."""
        self.terminate()
        if self._log is not None:
            self._log.close()
            self._log = None

    def log_tail(self, chars: int = 4000) -> str:
        if self.log_path is None or not self.log_path.exists():
            return "(no log)"
        if self._log is not None:
            self._log.flush()
        return self.log_path.read_text(encoding="utf-8", errors="replace")[-chars:]

    def _reap(self) -> None:
        if self.proc is not None:
            self.proc.wait()
            self.proc = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
