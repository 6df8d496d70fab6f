"""The served hall's log: one line per thing an organizer may need to read afterwards (start,
stop, a refused guesser, a closed bad client, a server fault, a journal outage), each with its
time and level, on standard error and, with `--log-file`, in a file too.

Modules log to `companion` or a logger below it (`logging.getLogger("companion")`, Flask's
`app.logger` is `companion.web`); `companion.access` carries one line per HTTP request when
`--access-log` asks for it. Configured by `companion serve` only, after gevent has patched the
standard library (logging imports threading).
"""

from __future__ import annotations

import logging
import sys
from typing import Any

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
ACCESS = "companion.access"
# The Socket.IO libraries add a bare handler of their own to these when their level is unset:
# a level of our choosing keeps their lines in our format, once.
LIBRARY_LOGGERS = ("engineio.server", "socketio.server", "engineio.client", "socketio.client")


def configure(log_file: str | None = None, access_log: bool = False) -> None:
    """Our lines (INFO and up) and other libraries' warnings, on standard error and in
    `log_file`; the access log only when asked (it is one line per request). Raises OSError
    when the file cannot be opened for appending."""
    formatter = logging.Formatter(FORMAT, DATE_FORMAT)
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if log_file:
        handlers.append(logging.FileHandler(log_file, encoding="utf-8"))
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    for handler in handlers:
        handler.setFormatter(formatter)
        root.addHandler(handler)
    root.setLevel(logging.WARNING)
    logging.getLogger("companion").setLevel(logging.INFO)
    logging.getLogger(ACCESS).setLevel(logging.INFO if access_log else logging.WARNING)
    for name in LIBRARY_LOGGERS:
        logging.getLogger(name).setLevel(logging.ERROR)
    logging.captureWarnings(True)  # a Python warning is a line with time and level too


def access_log(enabled: bool) -> Any:
    """What gevent's WSGI server writes its access lines to: the access logger, or nothing."""
    return logging.getLogger(ACCESS) if enabled else None


def http_error_log() -> Any:
    """Where gevent's WSGI server reports a request it could not read (a client's mistake,
    one line at WARNING), with our format instead of bare text on standard error."""
    from gevent.pywsgi import LoggingLogAdapter

    return LoggingLogAdapter(logging.getLogger("companion.http"), logging.WARNING)
