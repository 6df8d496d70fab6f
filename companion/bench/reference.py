"""The Node.js socket.io reference server of `companion bench hall` (issue 24, item 7).

`companion/bench/node/server.js` with socket.io 4.8 from the npm registry, installed by the
bench itself into a cache folder of its own (`$COMPANION_BENCH_NODE`, else
`$XDG_CACHE_HOME/companion/bench-node`, else `~/.cache/companion/bench-node`): never into the
repository's tracked files. `install()` copies the server and its package.json there and runs
`npm install` when the installed socket.io is missing or not 4.8; a lock file keeps two benches
from installing at once.

A roll to the reference is one `io.emit` of a message the bench makes before the roll's clock
starts (`roll_body`): for Machi Koro a view of the app's size (`floor.floor_view`), for the big
Catan event the event's `turn` JSON (`catan.floor_turn`), the same bytes the python floor sends.
"""

from __future__ import annotations

import fcntl
import json
import os
import random
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

SOURCE = Path(__file__).with_name("node")
FILES = ("package.json", "server.js")
SOCKET_IO = "4.8."  # the version line the reference is measured with
INSTALL_SECONDS = 300


class NodeMissing(RuntimeError):
    """node or npm is not installed: the reference cannot run."""


def folder() -> Path:
    """Where the reference and its node_modules live: outside the repository."""
    if os.environ.get("COMPANION_BENCH_NODE"):
        return Path(os.environ["COMPANION_BENCH_NODE"])
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "companion" / "bench-node"


def installed_version(where: Path) -> str | None:
    manifest = where / "node_modules" / "socket.io" / "package.json"
    try:
        return str(json.loads(manifest.read_text())["version"])
    except (OSError, ValueError, KeyError):
        return None


def install() -> tuple[Path, str]:
    """The reference's server.js, ready to run (socket.io installed beside it), and socket.io's
    version. Raises NodeMissing without node or npm, RuntimeError if npm fails."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        raise NodeMissing("the Node.js reference needs node and npm (Debian: apt-get install "
                          "npm), or leave it out with --no-node")
    where = folder()
    where.mkdir(parents=True, exist_ok=True)
    with open(where / ".install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        changed = False
        for name in FILES:
            text = (SOURCE / name).read_text()
            target = where / name
            if not target.exists() or target.read_text() != text:
                target.write_text(text)
                changed = changed or name == "package.json"
        version = installed_version(where)
        if changed or version is None or not version.startswith(SOCKET_IO):
            done = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--loglevel=error"],
                                  cwd=where, capture_output=True, text=True,
                                  timeout=INSTALL_SECONDS, check=False)
            version = installed_version(where)
            if done.returncode != 0 or version is None or not version.startswith(SOCKET_IO):
                raise RuntimeError(f"npm install of socket.io {SOCKET_IO}x in {where} failed: "
                                   f"{(done.stderr or done.stdout)[-800:]}")
    return where / "server.js", version


def command(server_js: Path, port: int, view_file: Path) -> list[str]:
    node = shutil.which("node")
    if node is None:
        raise NodeMissing("node is not installed")
    return [node, str(server_js), "--port", str(port), "--view-file", str(view_file)]


def machi_koro_roll(size: int, seed: int = 24) -> Callable[[int], dict[str, Any]]:
    """The body of roll `number` to the reference: a view of about `size` bytes with the roll's
    first die (what a Machi Koro phone detects a roll by), and the dice as the answer."""
    from companion.bench.floor import floor_view

    rng = random.Random(seed)

    def body(number: int) -> dict[str, Any]:
        dice = [rng.randint(1, 6), rng.randint(1, 6)]
        return {"event": "view", "message": floor_view(number, dice[:1], size),
                "answer": {"dice": dice, "roll": number}}

    return body


def catan_roll(seed: int = 24) -> Callable[[int], dict[str, Any]]:
    """The body of roll `number` to the reference: the event's turn JSON, as the python floor
    makes it (`catan.floor_turn`), its follow-up dice as the rules ask."""
    from companion.bench.catan import floor_turn, follow_up_count

    rng = random.Random(seed)

    def body(number: int) -> dict[str, Any]:
        dice = [rng.randint(1, 6), rng.randint(1, 6)]
        follow_up = [rng.randint(1, 6) for _ in range(follow_up_count(number, dice))]
        return {"event": "turn", "message": floor_turn(number, dice, follow_up),
                "answer": {"dice": dice, "follow_up": follow_up, "roll": number}}

    return body


def write_view(path: Path, view: dict[str, Any]) -> Path:
    """The view a phone gets on connect and in its move acks, for server.js to read."""
    path.write_text(json.dumps(view, separators=(",", ":")))
    return path
