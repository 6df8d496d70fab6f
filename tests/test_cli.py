"""The `companion` command's refusals: exit status 2 and one line on standard error, never a
traceback, for every subcommand (the print refusals are in test_print_cli.py)."""

from __future__ import annotations

import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from contextlib import closing
from pathlib import Path

import pytest
from conftest import REPO, assert_one_line_refusal, run_companion

from companion import __version__

USAGE_MISTAKES = [
    ((), "the following arguments are required: command"),
    (("bogus",), "invalid choice: 'bogus'"),
    (("resolve",), "required: scenario"),
    (("serve", "--port", "abc"), "--port: 'abc': a number from 1 to 65535 is required"),
    (("serve", "--port", "99999"), "--port: '99999': a number from 1 to 65535"),
    (("serve", "--port", "0"), "--port: '0'"),
    (("demo",), "required: --db"),
    (("print",),
     "required: {join-cards|setup-sheets|score-sheets|standings|poster|series-sheets|report}, --db"),
    (("print", "poster", "--db", "x.db", "--event", "1", "-o", "x.pdf", "--paper"),
     "--paper: expected one argument"),
    (("bench",), "required: what"),
    (("bench", "hall", "--phones", "0"), "--phones: '0': a number of at least 1 is required"),
    (("bench", "hall", "--tables", "-3"), "--tables: '-3'"),
    (("bench", "hall", "--rolls", "x"), "--rolls: 'x'"),
    (("bench", "rules", "--seconds", "-1"), "--seconds: '-1': a number of at least 0.1"),
    (("bench", "rules", "--seconds", "nan"), "--seconds: 'nan'"),
    (("bench", "rules", "--seconds", "inf"), "--seconds: 'inf'"),
    (("bench", "rules", "--seed", "x"), "--seed: invalid int value: 'x'"),
]


@pytest.mark.parametrize(("args", "message"), USAGE_MISTAKES)
def test_cli_usage_mistake_is_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    done = run_companion(*args)
    assert_one_line_refusal(done, message)
    assert done.stderr.endswith("--help)\n")


@pytest.mark.parametrize("db", ["missing-folder/hall.db", "junk.db", "."])
def test_cli_demo_refuses_a_database_it_cannot_use(tmp_path: Path, db: str) -> None:
    (tmp_path / "junk.db").write_bytes(b"not a database, only text" * 100)
    path = tmp_path / db
    done = run_companion("demo", "--db", str(path))
    assert done.returncode == 2
    assert done.stderr == f"demo: cannot use the database {str(path)!r}: " \
        f"{'file is not a database' if db == 'junk.db' else 'unable to open database file'}\n"
    assert not (tmp_path / "missing-folder").exists()


def test_cli_demo_and_serve_refuse_a_journal_of_another_schema_version(tmp_path: Path) -> None:
    """A newer companion's database (its journal's schema version is not ours) is refused with
    one line, not a traceback, and nothing is added to it."""
    path = tmp_path / "newer.db"
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA user_version=7")
    demo = run_companion("demo", "--db", str(path))
    serve = run_companion("serve", "--host", "127.0.0.1", "--port", "1", "--db", str(path))
    reason = "journal schema version 7, expected 1"
    assert demo.returncode == serve.returncode == 2
    assert demo.stderr == f"demo: cannot use the database {str(path)!r}: {reason}\n"
    assert serve.stderr == f"serve: cannot use the database {str(path)!r}: {reason}\n"
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (7,)
        assert conn.execute("SELECT name FROM sqlite_master").fetchall() == []


def test_cli_module_imports_no_threading_before_serve_patches_it() -> None:
    """`companion serve` monkey-patches with gevent first thing; the command's module itself must
    not import threading (or what imports it, as the journal does) before that."""
    probe = "import sys, companion.cli; print('threading' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO,
                          timeout=60)
    assert (done.returncode, done.stdout) == (0, "False\n"), done.stderr


def test_cli_serve_refuses_a_port_in_use_and_a_file_that_is_no_database(tmp_path: Path) -> None:
    """A taken port is found before the organizer's link is printed or the database made
    (issue 26, item 8): one line, exit 2, nothing on standard output."""
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database, only text" * 100)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        busy = run_companion("serve", "--host", "127.0.0.1", "--port", port,
                             "--db", str(tmp_path / "hall.db"))
    wrong = run_companion("serve", "--host", "127.0.0.1", "--port", port, "--db", str(junk))
    assert busy.returncode == 2 and busy.stderr.count("\n") == 1, busy.stderr
    assert busy.stdout == "" and not (tmp_path / "hall.db").exists()
    assert busy.stderr == (f"serve: cannot listen on 127.0.0.1:{port}: Address already in use; "
                           "is another server running there? Stop it, or choose another port "
                           "with --port\n")
    assert wrong.returncode == 2
    assert wrong.stderr == f"serve: cannot use the database {str(junk)!r}: file is not a database\n"


@pytest.mark.slow
def test_cli_serve_stops_on_ctrl_c_without_a_traceback(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", str(tmp_path / "hall.db")],
        cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as answer:
                    assert answer.status == 200
                    break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "serve did not start"
                time.sleep(0.1)
        server.send_signal(signal.SIGINT)  # just after a request: it once landed in its handler
        out, err = server.communicate(timeout=20)
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate()
    assert server.returncode == 130
    # the log: one line at the start and one at the stop, each with its time and level
    stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d INFO companion: "
    database = re.escape(str(tmp_path / "hall.db"))
    started, stopped = err.splitlines()
    assert re.fullmatch(rf"{stamp}started companion {re.escape(__version__)} on 127\.0\.0\.1:"
                        rf"{port}, database {database}, phones at http://127\.0\.0\.1:{port}",
                        started), err
    assert re.fullmatch(rf"{stamp}stopped; the journal is closed \({database}\)", stopped), err
    assert out.splitlines()[0] == f"companion {__version__}: serving on 127.0.0.1:{port}"
    assert "organizer: " in out
