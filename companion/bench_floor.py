"""Servers for `companion bench hall` (not part of the app).

`python -m companion.bench_floor floor --port P --payload-bytes B [--async-mode M]`: the floor, a
bare python-socketio server in the app's async mode. A phone connects with `{"token": T}` and
joins the room `token:T`; `POST /roll` emits one view-sized `view` to every such room from the
request, as the app's hall roll does; `move` is acked at once with a view.

`python -m companion.bench_floor app --port P --db PATH --async-mode M`: `companion serve` on
127.0.0.1 in another async mode (gevent: monkey-patched first), for experiments; the app itself
is not changed.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import sys
from typing import Any

TWEAKS: set[str] = set()


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
    `nodelay`: TCP_NODELAY on every accepted connection (Werkzeug's handler; gevent's pywsgi);
    `hall_coalesce`: seat views at once, but the hall view (every table of the event) built and
    sent at most once a second and only when a hall screen or organizer is connected;
    with it, `views_once`: the part of the seat view common to a table built once per table, and
    `fanout_yield`: the publisher yields (socketio.sleep(0)) after every 100 emits, so sending
    starts while the rest are encoded and moves are answered in between;
    `gc`: the cyclic collector runs after 50,000 allocations instead of 700 (fewer pauses)."""
    for tweak in tweaks:
        if tweak == "hall_coalesce":
            import companion.web.sockets

            companion.web.sockets.subscribe = subscribe_coalesced
        elif tweak == "gc":
            import gc

            gc.set_threshold(50_000, 20, 100)
        elif tweak in ("views_once", "fanout_yield"):
            TWEAKS.add(tweak)
        elif tweak == "nodelay":
            from werkzeug.serving import WSGIRequestHandler

            WSGIRequestHandler.disable_nagle_algorithm = True  # socketserver sets TCP_NODELAY
            try:
                from gevent import pywsgi
            except ImportError:
                continue
            handle = pywsgi.WSGIServer.handle

            def handle_nodelay(self: Any, sock: Any, address: Any, handle: Any = handle) -> None:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                handle(self, sock, address)

            pywsgi.WSGIServer.handle = handle_nodelay  # type: ignore[method-assign]
        else:
            raise SystemExit(f"unknown tweak {tweak!r}")


def subscribe_coalesced(hall: Any) -> None:
    """companion.web.sockets.subscribe with the hall view coalesced (the `hall_coalesce` tweak)."""
    import threading

    from companion.hall.views import choices_json, game_json, hall_view, players_json, seat_view, table_header
    from companion.web import socketio

    dirty: set[str] = set()
    guard = threading.Lock()

    def listening(room: str) -> bool:
        return bool(socketio.server.manager.rooms.get("/", {}).get(room))

    def views(table: Any) -> list[tuple[str, dict[str, Any]]]:
        if "views_once" not in TWEAKS:
            return [(f"token:{s.token}", seat_view(table, i, hall.catalog))
                    for i, s in enumerate(table.seats)]
        common = {"table": table_header(table), "players": players_json(table), **game_json(table)}
        return [(f"token:{s.token}", {**common, "seat": i,
                                      "choices": choices_json(table, i, hall.catalog)})
                for i, s in enumerate(table.seats)]

    def publish(change: Any) -> None:
        with hall.lock:
            seat_views = [pair for t in change.tables for pair in views(hall.tables[t])]
        for number, (room, view) in enumerate(seat_views, 1):
            socketio.emit("view", view, to=room)
            if number % 100 == 0 and "fanout_yield" in TWEAKS:
                socketio.sleep(0)
        with guard:
            dirty.update(change.events)

    def flush_halls() -> None:
        while True:
            socketio.sleep(1.0)
            with guard:
                events = sorted(dirty)
                dirty.clear()
            for event_id in events:
                rooms = [r for r in (f"hall:{event_id}", "organizer") if listening(r)]
                if not rooms:
                    continue
                with hall.lock:
                    event = hall.events[event_id]
                    view = hall_view(event, [hall.tables[t] for t in event.tables])
                for room in rooms:
                    socketio.emit("hall", view, to=room)

    socketio.start_background_task(flush_halls)
    hall.listeners[:] = [publish]


def run_app(port: int, db: str, async_mode: str, tweaks: list[str]) -> int:
    if async_mode == "gevent":
        from gevent import monkey

        monkey.patch_all()
    apply_tweaks(tweaks)
    import companion.web

    companion.web.ASYNC_MODE = async_mode  # create_app reads it when it runs
    from companion.server import serve

    return serve("127.0.0.1", port, db)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.bench_floor")
    parser.add_argument("what", choices=["floor", "app"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--payload-bytes", type=int, default=1500)
    parser.add_argument("--db")
    parser.add_argument("--async-mode", default="threading")
    parser.add_argument("--tweak", action="append", default=[],
                        choices=["nodelay", "hall_coalesce", "views_once", "fanout_yield", "gc"])
    args = parser.parse_args(argv)
    if args.what == "floor":
        run_floor(args.port, args.payload_bytes, args.async_mode, args.tweak)
        return 0
    return run_app(args.port, args.db, args.async_mode, args.tweak)


if __name__ == "__main__":
    sys.exit(main())
