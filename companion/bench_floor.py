"""Servers for `companion bench hall` (not part of the app).

`python -m companion.bench_floor floor --port P --payload-bytes B [--async-mode M]`: the floor, a
bare python-socketio server in the app's async mode. A phone connects with `{"token": T}` and
joins the room `token:T`; `POST /roll` emits one view-sized `view` to every such room from the
request, as the app's hall roll does; `move` is acked at once with a view.

`python -m companion.bench_floor app --port P --db PATH --async-mode gevent --tweak gc`:
`companion serve` on 127.0.0.1 with an experiment applied (see apply_tweaks); the app itself is
not changed.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import sys
from typing import Any


def floor_view(turn: int, dice: list[int], size: int) -> dict[str, Any]:
    """A phone's view in the app's shape, padded with ledger entries to about `size` bytes."""
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
    step = len(json.dumps(entry)) + 2
    while len(json.dumps(view)) + step <= size:
        view["entries"].append(dict(entry))
    return view


def run_floor(port: int, payload_bytes: int, async_mode: str, tweaks: list[str]) -> None:
    if async_mode == "gevent":
        from gevent import monkey

        monkey.patch_all()
    apply_tweaks(tweaks)
    set_nodelay()
    import socketio

    sio = socketio.Server(async_mode=async_mode, ping_interval=10, ping_timeout=20)
    rooms: set[str] = set()
    state = {"turn": 0}

    @sio.event
    def connect(sid: str, environ: dict[str, Any], auth: Any = None) -> None:
        token = auth.get("token") if isinstance(auth, dict) else None
        if not isinstance(token, str):
            raise socketio.exceptions.ConnectionRefusedError("a token is required")
        sio.enter_room(sid, f"token:{token}")
        rooms.add(f"token:{token}")
        sio.emit("view", floor_view(state["turn"], [], payload_bytes), to=sid)

    @sio.on("move")
    def move(sid: str, payload: Any = None) -> dict[str, Any]:
        return {"ok": True, "view": floor_view(state["turn"], [], payload_bytes)}

    def http(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        path, method = environ.get("PATH_INFO"), environ.get("REQUEST_METHOD")
        if path == "/roll" and method == "POST":
            state["turn"] += 1
            dice = [random.randint(1, 6), random.randint(1, 6)]
            for room in sorted(rooms):
                sio.emit("view", floor_view(state["turn"], dice[:1], payload_bytes), to=room)
            body = {"dice": dice, "roll": state["turn"]}
        elif path == "/healthz":
            body = {"ok": True}
        else:
            start_response("404 Not Found", [("Content-Type", "application/json")])
            return [b"{}"]
        start_response("200 OK", [("Content-Type", "application/json")])
        return [json.dumps(body).encode()]

    app = socketio.WSGIApp(sio, http)
    print(f"floor: serving on 127.0.0.1:{port} ({async_mode})", flush=True)
    if async_mode == "gevent":
        from gevent import pywsgi

        try:
            from geventwebsocket.handler import WebSocketHandler

            handler: Any = WebSocketHandler
        except ImportError:  # simple-websocket serves the websockets on gevent too
            handler = pywsgi.WSGIHandler
        pywsgi.WSGIServer(("127.0.0.1", port), app, handler_class=handler, log=None).serve_forever()
    else:  # threading: Werkzeug's threaded server, as Flask-SocketIO's socketio.run() uses it
        import logging

        from werkzeug.serving import run_simple

        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        run_simple("127.0.0.1", port, app, threaded=True)


def apply_tweaks(tweaks: list[str]) -> None:
    """Experiments on the server, made here so that no app file changes:
    `gc`: the cyclic collector runs after 50,000 allocations instead of 700 (fewer pauses).
    (The earlier experiments, TCP_NODELAY, a coalesced hall view, seat views built once per table
    and yielding during a fan-out, are now what `companion serve` does.)"""
    for tweak in tweaks:
        if tweak == "gc":
            import gc

            gc.set_threshold(50_000, 20, 100)
        else:
            raise SystemExit(f"unknown tweak {tweak!r}")


def set_nodelay() -> None:
    """TCP_NODELAY on every accepted connection, as `companion serve` does, so the floor is fair."""
    from werkzeug.serving import WSGIRequestHandler

    WSGIRequestHandler.disable_nagle_algorithm = True  # socketserver sets TCP_NODELAY
    try:
        from gevent import pywsgi
    except ImportError:
        return
    handle = pywsgi.WSGIServer.handle

    def handle_nodelay(self: Any, sock: Any, address: Any, handle: Any = handle) -> None:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        handle(self, sock, address)

    pywsgi.WSGIServer.handle = handle_nodelay  # type: ignore[method-assign]


def run_app(port: int, db: str, async_mode: str, tweaks: list[str]) -> int:
    if async_mode == "gevent":
        from gevent import monkey

        monkey.patch_all()
    apply_tweaks(tweaks)
    import companion.web

    companion.web.SERVED_ASYNC_MODE = async_mode  # serve() reads it when it is imported
    from companion.server import serve

    return serve("127.0.0.1", port, db)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.bench_floor")
    parser.add_argument("what", choices=["floor", "app"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--payload-bytes", type=int, default=1500)
    parser.add_argument("--db")
    parser.add_argument("--async-mode", default="gevent")
    parser.add_argument("--tweak", action="append", default=[],
                        choices=["gc"])
    args = parser.parse_args(argv)
    if args.what == "floor":
        run_floor(args.port, args.payload_bytes, args.async_mode, args.tweak)
        return 0
    return run_app(args.port, args.db, args.async_mode, args.tweak)


if __name__ == "__main__":
    sys.exit(main())
