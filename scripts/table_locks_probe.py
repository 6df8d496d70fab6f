"""A small probe of moves and hall rolls on PostgreSQL (issue 24), for a before and after.

`companion serve` (gevent) on a throwaway PostgreSQL (tests/pg_server.py), TABLES hall-mode
tables (default 50) with one phone each changing its dice setting every 0.1 s, and three hall
rolls meanwhile; prints each roll's request time and the move acks' count, p50 and max.
MQ=redis://... serves with a message queue. The checkout measured is the one on PYTHONPATH:

    PYTHONPATH=$PWD TABLES=50 python scripts/table_locks_probe.py
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import socketio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import pg_server  # noqa: E402 - from the tests' folder

DICE = {"kind": "dice_count", "count": 1}


def serve(dsn: str) -> tuple[subprocess.Popen[bytes], str, str]:
    port = pg_server.free_port()
    queue = ["--message-queue", os.environ["MQ"]] if os.environ.get("MQ") else []
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1",
                             "--port", str(port), "--db", dsn, *queue],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    key = None
    while key is None:
        found = re.search(r"organizer: \S+key=(\S+)", proc.stdout.readline().decode())
        key = found.group(1) if found else None
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(url + "/healthz", timeout=2).read()
            break
        except OSError:
            time.sleep(0.1)
    return proc, url, key


def call(url: str, key: str, path: str, body: Any = None) -> tuple[Any, float]:
    request = urllib.request.Request(url + path, method="POST", data=json.dumps(body or {}).encode(),
                                     headers={"Authorization": f"Bearer {key}",
                                              "Content-Type": "application/json"})
    started = time.monotonic()
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read()), round((time.monotonic() - started) * 1000, 1)


def phone(url: str, token: str, name: str, stop: threading.Event, acks: list[float],
          fails: list[str]) -> None:
    client = socketio.Client()
    client.connect(url, auth={"token": token}, transports=["websocket"])
    n = 0
    while not stop.is_set():
        n += 1
        started = time.monotonic()
        try:
            answer = client.call("move", {"request_id": f"{name}-{n}", "move": DICE}, timeout=10)
            acks.append((time.monotonic() - started) * 1000)
            if not answer.get("ok"):
                fails.append(answer.get("code"))
        except Exception as error:  # noqa: BLE001 - counted and shown
            fails.append(repr(error))
        time.sleep(0.1)
    client.disconnect()


def main() -> None:
    server = pg_server.PgServer(pg_server.require_binaries())
    server.start()
    proc = None
    try:
        proc, url, key = serve(server.create_store())
        event, _ = call(url, key, "/api/events", {"name": "Probe"})
        tokens = []
        for n in range(int(os.environ.get("TABLES", "50"))):
            table, _ = call(url, key, f"/api/events/{event['id']}/tables",
                            {"name": f"T{n}", "players": ["a", "b"]})
            call(url, key, f"/api/tables/{table['id']}/start")
            tokens.append(table["seats"][0]["token"])
        stop, acks, fails = threading.Event(), [], []
        phones = [threading.Thread(target=phone, args=(url, token, str(i), stop, acks, fails))
                  for i, token in enumerate(tokens)]
        for thread in phones:
            thread.start()
        time.sleep(2)
        for _ in range(3):
            print("roll", call(url, key, f"/api/events/{event['id']}/roll")[1], "ms", flush=True)
            time.sleep(1)
        stop.set()
        for thread in phones:
            thread.join(30)
        acks.sort()
        print("acks", len(acks), "p50", round(acks[len(acks) // 2], 1), "max",
              round(acks[-1], 1), "refused or failed", len(fails), fails[:3])
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait()
        server.stop()


if __name__ == "__main__":
    main()
