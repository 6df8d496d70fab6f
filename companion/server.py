"""`companion serve`: the app on every interface, the addresses phones can use, the
organizer's link, and the timer that applies defaults to choices left waiting."""

from __future__ import annotations

import binascii
import gc
import http.client
import logging
import os
import socket
from pathlib import Path
from typing import Any

from flask import Flask

from companion import __version__, logs

# The addresses' helpers, which the CLI and the tests reach here too.
from companion.addresses import EVERY_INTERFACE as EVERY_INTERFACE
from companion.addresses import base_url as base_url
from companion.addresses import http_url as http_url
from companion.addresses import lan_addresses as lan_addresses
from companion.addresses import phone_hosts as phone_hosts
from companion.addresses import reachable_from_lan as reachable_from_lan
from companion.addresses import routed_address as routed_address
from companion.hall.demo import create_demo
from companion.hall.printables import phones_cannot_open
from companion.journal import is_postgres_url
from companion.web import SERVED_ASYNC_MODE, create_app, guard, hall_service, socketio
from companion.web.websocket import UPGRADED, use_simple_websocket

log = logging.getLogger("companion")
# How often a served hall's screens get the hall view at most (see web.sockets.subscribe).
HALL_PUBLISH_SECONDS = 0.25


def choice_timer(app: Flask, lease: TimerLease | None = None) -> None:
    """Every second, apply the defaults to choices that waited too long (RULES.md 11). With a
    shared journal only the process holding the `lease` does, on tables caught up from the
    journal (deadlines count from the records' times): one timer worker at a time."""
    while True:
        socketio.sleep(1)
        try:
            hall = hall_service(app)
            if lease is not None:
                if not lease.held():
                    continue
                hall.sweep()
            hall.expire_choices()
        except Exception:  # the timer must outlive any one failure; it is logged
            app.logger.exception("choice timer")


class TimerLease:
    """The right to run the choice timer among processes sharing one PostgreSQL journal: a
    session advisory lock (`pg_try_advisory_lock`) on a connection of its own. Whoever holds it
    keeps it while its connection lives; a process that dies (even SIGKILL) loses its session,
    so the lock, and the next process to try takes over within a second."""

    KEY = (0x54494D52, 0)  # "TIMR": apart from the journal's own lock classes

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self.conn: Any = None
        self.holding = False

    def held(self) -> bool:
        import psycopg

        try:
            if self.conn is None or self.conn.broken or self.conn.closed:
                self.holding = False
                self.conn = psycopg.connect(self.dsn, autocommit=True, connect_timeout=5,
                                            application_name="companion timer")
            if self.holding:
                self.conn.execute("SELECT 1")  # the session (and its lock) is still there
            else:
                row = self.conn.execute("SELECT pg_try_advisory_lock(%s, %s)", self.KEY).fetchone()
                self.holding = bool(row and row[0])
        except psycopg.Error:
            self.holding = False
            if self.conn is not None:
                self.conn.close()
            self.conn = None
        return self.holding

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        self.holding = False


def serve(host: str, port: int, db: str, *, demo: bool = False,
          public_url: str | None = None, message_queue: str | None = None,
          access_log: bool = False) -> int:
    """Serve until interrupted (Ctrl-C, SIGTERM), then close the journal: a SQLite file is
    checkpointed, so the file alone holds the whole night. gevent's monkey-patching must already
    have run (cli does it). `public_url` is where phones reach this server when its own
    addresses are not (a router's forwarded port, a name on the hall's network); join links,
    cards and QR codes use it. `message_queue` (redis://...) joins this process's Socket.IO
    rooms to those of the other processes on the same queue (docs/scaling.md). The port is
    taken first: a port in use is an OSError before anything is printed or opened."""
    websocket = websocket_path()
    listener = listen(host, port)
    try:
        # create_app makes MESSAGE_QUEUE's Socket.IO manager and keeps the guess limits there.
        app = create_app({"DATABASE": db, "ASYNC_MODE": SERVED_ASYNC_MODE,
                          "HALL_PUBLISH_SECONDS": HALL_PUBLISH_SECONDS, "BASE_URL": public_url,
                          "LISTEN_HOST": host, "MESSAGE_QUEUE": message_queue})
    except BaseException:
        listener.close()
        raise
    hall = hall_service(app)
    timer = None
    try:
        guard.close_on_bad_packets(socketio.server)
        if websocket == "simple-websocket":
            use_simple_websocket(socketio.server.eio)
        base = announce(hall, host, port, db, public_url, demo)
        log.info("started companion %s on %s:%d, database %s, phones at %s%s", __version__, host,
                 port, shown_database(db), base,
                 "" if websocket == WEBSOCKETS[0] else f", websockets by {websocket}")
        quiet_collector()
        lease = TimerLease(db) if is_postgres_url(db) else None
        timer = socketio.start_background_task(choice_timer, app, lease)
        wsgi_server(guard.checked(app, socketio.server), listener, access_log,
                    websocket).serve_forever()
    finally:  # serve_forever has stopped the server (its requests had a second to end)
        listener.close()
        if timer is not None:
            timer.kill()  # no default applied to a closed journal
        hall.journal.close()
        log.info("stopped; the journal is closed (%s)", shown_database(db))
    return 0


def listen(host: str, port: int) -> Any:
    """The server's listening socket on HOST:PORT (OSError when the port is taken)."""
    from gevent import pywsgi

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return pywsgi.WSGIServer.get_listener((host, port), family=family)


def shown_database(db: str) -> str:
    """The database as the log and the terminal show it: a file's absolute path; a PostgreSQL
    URL without its password."""
    if is_postgres_url(db):
        scheme, rest = db.split("://", 1)
        credentials, at, place = rest.rpartition("@")
        user = credentials.split(":", 1)[0]
        return f"{scheme}://{user}{at}{place}" if at else db
    return str(Path(db).resolve())


def announce(hall: Any, host: str, port: int, db: str, public_url: str | None,
             demo: bool) -> str:
    """Print what the organizer needs on standard output (the version first, the database,
    where phones go, the organizer's link; with `demo`, the demo's join links) and answer the
    address phones use."""
    hosts = phone_hosts(host)
    base = public_url.rstrip("/") if public_url else base_url(hosts, port)
    print(f"companion {__version__}: serving on {host}:{port}", flush=True)
    print(f"database: {shown_database(db)}", flush=True)
    if public_url:
        print(f"phones: {base}/", flush=True)
    for address in [] if public_url else hosts:
        print(f"phones: {http_url(address, port)}/", flush=True)
    if not hosts and not public_url:
        print("companion: warning: no LAN address found; phones cannot reach this laptop until "
              "it joins the hall's network (or pass --base-url)", flush=True)
    elif phones_cannot_open(base):
        print(f"companion: warning: {base} is this laptop's own address: no phone can open it, "
              "and join cards and posters are refused; serve with --host 0.0.0.0 on the hall's "
              "network (or pass --base-url)", flush=True)
    print(f"organizer: {base}/organizer?key={hall.organizer_key}", flush=True)
    if demo:
        made = create_demo(hall)
        print(f"hall screen: {base}/hall/{made['event']}", flush=True)
        for seat in made["seats"]:
            print(f"join: {base}{seat['join_path']}  (table {seat['table']}, {seat['name']}, "
                  f"code {seat['join_code']})", flush=True)
    return base


def quiet_collector() -> None:
    """Fewer pauses of the cyclic garbage collector. A hall roll builds tens of thousands of
    short-lived dicts; at the default threshold (700) the collector runs dozens of times per
    roll, and its older generations walk every socket and greenlet of a full hall. Objects made
    at start-up are frozen out of its reach. Measured by companion bench hall (README)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


WEBSOCKETS = ("gevent-websocket", "simple-websocket")  # the default first


def websocket_path() -> str:
    """Which library serves the phones' websockets: COMPANION_WEBSOCKET, for the hall
    benchmark's comparison (issue 26), else gevent-websocket."""
    chosen = os.environ.get("COMPANION_WEBSOCKET") or WEBSOCKETS[0]
    if chosen not in WEBSOCKETS:
        raise ValueError(f"COMPANION_WEBSOCKET is one of {', '.join(WEBSOCKETS)}, not {chosen!r}")
    return chosen


def wsgi_server(app: Any, listener: Any, access_log: bool = False,
                websocket: str = WEBSOCKETS[0]) -> Any:
    """gevent's WSGI server with WebSocket support, as Flask-SocketIO's run() builds it, plus
    TCP_NODELAY: without it a move's view and its ack, two small writes on one socket, wait for
    the phone's delayed ACK, about 40 ms per ack (measured by companion bench hall).
    `websocket`: gevent-websocket's handler, or gevent's own with engine.io's websockets served
    by simple-websocket (web.websocket, set up by `serve`)."""
    from gevent import pywsgi

    class NoDelayServer(pywsgi.WSGIServer):  # type: ignore[misc]
        # gevent-websocket's handler logs here (its own logger would print bare lines)
        logger = logging.getLogger("companion.http")

        def handle(self, sock: Any, address: Any) -> None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            super().handle(sock, address)

    class Handler(pywsgi.WSGIHandler):  # type: ignore[misc]
        """Bad requests refused without a traceback in the log (issue 17)."""

        def log_error(self, msg: str, *args: Any) -> None:
            # gevent's own puts the socket's repr first; one readable line is enough
            text = msg % args if args else msg
            self.server.error_log.write(f"refused a bad request: {text!s}"[:500] + "\n")

        def read_request(self, raw_requestline: str) -> bool:
            # gevent answers a ValueError with 400 and one line; the standard library's parser
            # raises HTTPException on over 100 headers, which gevent logs with a traceback.
            try:
                return bool(super().read_request(raw_requestline))
            except http.client.HTTPException as error:
                raise ValueError(str(error) or type(error).__name__) from None

        def run_application(self) -> None:
            # a list, filled by the websocket: middlewares pass on a copy of the environ
            upgraded = self.environ[UPGRADED] = []
            super().run_application()
            if upgraded:
                # simple-websocket answered the 101 on the socket itself and the connection has
                # ended: the access log's line (written now, at the disconnect) says 101, and
                # the socket is not read for another request
                self._orig_status = "101 Switching Protocols"
                self.close_connection = True

    if websocket == "simple-websocket":
        return NoDelayServer(listener, app, handler_class=Handler, log=logs.access_log(access_log),
                             error_log=logs.http_error_log())

    from geventwebsocket.handler import WebSocketHandler

    class WebSocketsHandler(Handler, WebSocketHandler):  # type: ignore[misc]
        # The access log (`--access-log`), one line per request, as gevent's own handler writes
        # it: gevent-websocket's would write to its logger at INFO instead.
        log_request = pywsgi.WSGIHandler.log_request

        def upgrade_websocket(self) -> Any:
            # gevent-websocket refuses a bad handshake with text where WSGI wants bytes, and
            # fails on a Sec-WebSocket-Key that is not base64.
            try:
                refusal = super().upgrade_websocket()
            except binascii.Error:
                self.start_response("400 Bad Request", [])
                refusal = ["Invalid key"]
            return refusal and [part.encode() if isinstance(part, str) else part for part in refusal]

    return NoDelayServer(listener, app, handler_class=WebSocketsHandler,
                         log=logs.access_log(access_log), error_log=logs.http_error_log())


def serve_workers(workers: int, argv: list[str], port: int) -> int:
    """`serve --workers N`: N server processes (each `companion serve` with the same options)
    on ports PORT to PORT+N-1, behind a proxy with sticky sessions (docs/scaling.md). Runs
    until interrupted or until one of them ends; then ends the others."""
    import signal
    import subprocess
    import sys
    import time

    procs = []
    for i in range(workers):
        command = [sys.executable, "-m", "companion", "serve", *argv, "--port", str(port + i)]
        procs.append(subprocess.Popen(command))
    print(f"companion: {workers} server processes on ports {port} to {port + workers - 1}",
          flush=True)

    def stop(*_: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    code = 0
    try:
        while all(proc.poll() is None for proc in procs):
            time.sleep(0.5)
        code = next(proc.returncode for proc in procs if proc.poll() is not None) or 1
    except KeyboardInterrupt:
        pass
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    return code
