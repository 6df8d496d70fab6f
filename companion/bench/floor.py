"""The floor for `companion bench hall` (not part of the app).

`python -m companion.bench.floor --port P --payload-bytes B`: a bare python-socketio server on
127.0.0.1, served as `companion serve` serves the app (gevent, the same WSGI server with
TCP_NODELAY). A phone connects with `{"token": T}` and joins the room `token:T`; `POST /roll`
emits one view of about B bytes to every phone with one broadcast `emit` from the request (the
library encodes it once: issue 24, the strongest python server, beside the Node.js reference of
`companion.bench.reference`); `move` is acked at once with a view.

`--ruleset catan-big`: the big Catan event's turns (`companion.bench.catan`). `POST /roll` makes
the event's `turn` JSON as the app does and emits it once to every phone, as the app sends it
once to the event's room (until issue 24 it was one emit per phone, which made the app look
faster than the library); a phone also gets the latest turn on connect.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

HOST = "127.0.0.1"


def floor_view(turn: int, dice: list[int], size: int) -> dict[str, Any]:
    """A phone's view in the app's shape, padded with ledger entries to about `size` bytes as
    sent."""
    players = [{"seat": i, "name": f"Player {i + 1}", "coins": 3 + i, "cards": {"wheat_field": 1,
                "bakery": 1}, "landmarks": [], "dice_count": 1} for i in range(4)]
    view: dict[str, Any] = {
        "table": {"id": "1", "name": "Table 1", "ruleset": "machi-koro", "roll_mode": "hall",
                  "status": "running"},
        "seat": 0, "players": players, "active": turn % 4, "phase": "build", "turn": turn,
        "dice": dice, "pending": [], "extra_turn": False, "winner": None, "entries": [],
        "seq": turn, "choices": [{"kind": "dice_count", "count": 1}],
    }
    entry = {"from": "bank", "to": "Player 1", "from_seat": "bank", "to_seat": 0, "amount": 1,
             "card": "wheat_field", "copies": 1, "mall_bonus": 0, "forgiven": 0}
    step = len(compact(entry)) + 1
    while len(compact(view)) + step <= size:
        view["entries"].append(dict(entry))
    # the rest to the byte: an entry is ~9% of a view, and a tiny hall's view is compared with
    # the app's within 5% (the references' views were up to one entry short of the app's)
    missing = size - len(compact(view)) - len(',"pad":""')
    if missing > 0:
        view["pad"] = "x" * missing
    return view


def compact(value: Any) -> str:
    """JSON as Socket.IO sends it (and as the bench's phones measure a view's size)."""
    return json.dumps(value, separators=(",", ":"))


def run_floor(port: int, payload_bytes: int, ruleset: str = "machi-koro") -> None:
    from gevent import monkey

    monkey.patch_all()
    import socketio

    from companion.bench import catan as catan_rules
    from companion.server import listen, wsgi_server

    sio = socketio.Server(async_mode="gevent", ping_interval=10, ping_timeout=20)
    state: dict[str, Any] = {"turn": 0, "message": None}
    catan = ruleset == "catan-big"

    @sio.event
    def connect(sid: str, environ: dict[str, Any], auth: Any = None) -> None:
        token = auth.get("token") if isinstance(auth, dict) else None
        if not isinstance(token, str):
            raise socketio.exceptions.ConnectionRefusedError("a token is required")
        sio.enter_room(sid, f"token:{token}")
        sio.emit("view", floor_view(state["turn"], [], payload_bytes), to=sid)
        if catan and state["message"] is not None:
            sio.emit("turn", state["message"], to=sid)

    @sio.on("move")
    def move(sid: str, payload: Any = None) -> dict[str, Any]:
        return {"ok": True, "view": floor_view(state["turn"], [], payload_bytes)}

    def http(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        path, method = environ.get("PATH_INFO"), environ.get("REQUEST_METHOD")
        if path == "/roll" and method == "POST":
            state["turn"] += 1
            dice = [random.randint(1, 6), random.randint(1, 6)]
            if catan:
                body = roll_turn(state, dice)
            else:
                sio.emit("view", floor_view(state["turn"], dice[:1], payload_bytes))
                body = {"dice": dice, "roll": state["turn"]}
        elif path == "/healthz":
            body = {"ok": True}
        else:
            start_response("404 Not Found", [("Content-Type", "application/json")])
            return [b"{}"]
        start_response("200 OK", [("Content-Type", "application/json")])
        return [json.dumps(body).encode()]

    def roll_turn(state: dict[str, Any], dice: list[int]) -> dict[str, Any]:
        """The event's turn to every phone, one emit."""
        count = catan_rules.follow_up_count(state["turn"], dice)
        follow_up = [random.randint(1, 6) for _ in range(count)]
        state["message"] = catan_rules.floor_turn(state["turn"], dice, follow_up)
        sio.emit("turn", state["message"])
        return {"dice": dice, "follow_up": follow_up, "roll": state["turn"]}

    print(f"floor: serving on {HOST}:{port}", flush=True)
    wsgi_server(socketio.WSGIApp(sio, http), listen(HOST, port)).serve_forever()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.bench.floor")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--payload-bytes", type=int, default=1500)
    parser.add_argument("--ruleset", choices=["machi-koro", "catan-big"], default="machi-koro")
    args = parser.parse_args(argv)
    run_floor(args.port, args.payload_bytes, args.ruleset)
    return 0


if __name__ == "__main__":
    sys.exit(main())
