"""`companion serve`: the app on every interface, the addresses phones can use, the
organizer's link, and the timer that applies defaults to choices left waiting."""

from __future__ import annotations

import socket
import time

from flask import Flask
from werkzeug.serving import WSGIRequestHandler

from companion.hall.demo import create_demo
from companion.web import create_app, hall_service, socketio


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, found without sending anything."""
    found: set[str] = set()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(info[4][0]))
    except OSError:
        pass
    return sorted(address for address in found if not address.startswith("127."))


def choice_timer(app: Flask) -> None:
    """Every second, apply the defaults to choices that waited too long (RULES.md 11)."""
    while True:
        time.sleep(1)
        try:
            hall_service(app).expire_choices()
        except Exception:  # the timer must outlive any one failure; it is logged
            app.logger.exception("choice timer")


def serve(host: str, port: int, db: str | None, *, demo: bool = False) -> int:
    app = create_app({"DATABASE": db} if db else None)
    hall = hall_service(app)
    hosts = lan_addresses() if host in ("0.0.0.0", "") else [host]
    base = f"http://{(hosts or ['127.0.0.1'])[0]}:{port}"
    print(f"companion: serving on {host}:{port}", flush=True)
    for address in hosts:
        print(f"phones: http://{address}:{port}/", flush=True)
    print(f"organizer: {base}/organizer?key={hall.organizer_key}", flush=True)
    if demo:
        made = create_demo(hall)
        print(f"hall screen: {base}/hall/{made['event']}", flush=True)
        for seat in made["seats"]:
            print(f"join: {base}{seat['join_path']}  (table {seat['table']}, {seat['name']})",
                  flush=True)
    # Without TCP_NODELAY a move's view and its ack, two small writes on one socket, wait for
    # the phone's delayed ACK: about 40 ms per ack (measured by companion bench hall).
    WSGIRequestHandler.disable_nagle_algorithm = True
    socketio.start_background_task(choice_timer, app)
    socketio.run(app, host=host, port=port, allow_unsafe_werkzeug=True, log_output=False,
                 use_reloader=False)
    return 0

