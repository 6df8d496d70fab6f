"""The organizer's laptop (issue 26, items 2, 3 and 8): where the evening's file lives and how
`serve` says so, a `--db` in a folder that does not exist, the version, and the log a table's
"my phone shows an error" can be read in afterwards. Each as a user meets it: the command in a
subprocess, a real served hall, real HTTP and Engine.IO requests."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import websocket
from conftest import REPO, assert_one_line_refusal, run_companion
from serverproc import ServerProcess, free_port, http_json

from companion import __version__
from companion.server import WEBSOCKETS

LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (INFO|WARNING|ERROR|CRITICAL) [\w.]+: .+")


def test_version_is_one_line_on_standard_output() -> None:
    done = run_companion("--version")
    assert (done.returncode, done.stdout, done.stderr) == (0, f"companion {__version__}\n", "")


def test_serve_help_says_where_the_database_is_by_default() -> None:
    done = run_companion("serve", "--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert "default: companion.db in the current folder" in text
    assert "--log-file PATH" in text and "--access-log" in text
    assert "instance" not in text


def test_serve_refuses_a_database_in_a_folder_that_does_not_exist(tmp_path: Path) -> None:
    db = tmp_path / "evening" / "2026" / "hall.db"
    done = run_companion("serve", "--host", "127.0.0.1", "--port", str(free_port()),
                         "--db", str(db))
    assert_one_line_refusal(done, f"serve: there is no folder {str(db.parent)!r} for the "
                                  f"database {str(db)!r}; create it first")
    assert not (tmp_path / "evening").exists(), "no folder is made for a mistyped path"


def wait_for_health(url: str, proc: subprocess.Popen[str]) -> dict:
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1) as answer:
                return json.loads(answer.read())
        except OSError:
            assert proc.poll() is None and time.monotonic() < deadline, "serve did not start"
            time.sleep(0.1)


@pytest.mark.slow
def test_serve_keeps_the_evening_in_the_folder_it_starts_in_and_prints_its_path(
        tmp_path: Path) -> None:
    """Without --db the evening is ./companion.db where the organizer started it (never inside
    the installation), its full path printed; /healthz and the first line name the version."""
    port = free_port()
    instance = REPO / "instance" / "companion.db"  # Flask's instance folder, where it once was
    there_before = instance.exists()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    server = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    try:
        health = wait_for_health(f"http://127.0.0.1:{port}", server)
        server.send_signal(signal.SIGTERM)
        out, err = server.communicate(timeout=20)
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate()
    assert server.returncode == 0, err
    assert health["ok"] is True and health["version"] == __version__
    lines = out.splitlines()
    assert lines[0] == f"companion {__version__}: serving on 127.0.0.1:{port}"
    assert lines[1] == f"database: {tmp_path.resolve() / 'companion.db'}"
    assert (tmp_path / "companion.db").is_file()
    assert instance.exists() == there_before
    assert all(LOG_LINE.fullmatch(line) for line in err.splitlines()), err


def test_serve_phones_line_is_the_base_url_when_given(tmp_path: Path) -> None:
    public = "http://hall.example:8080"
    with ServerProcess(tmp_path / "hall.db", log_path=tmp_path / "serve.log",
                       extra_args=("--base-url", public)) as server:
        server.start()
        log = server.log_tail()
    phones = [line for line in log.splitlines() if line.startswith("phones: ")]
    assert phones == [f"phones: {public}/"]


def engineio_session(url: str) -> str:
    with urllib.request.urlopen(f"{url}/socket.io/?EIO=4&transport=polling", timeout=5) as answer:
        return str(json.loads(answer.read().decode()[1:])["sid"])


@pytest.mark.slow
def test_serve_logs_start_stop_guesser_bad_client_and_requests_with_time_and_level(
        tmp_path: Path) -> None:
    """One line each, with time and level, on standard error and in --log-file; with
    --access-log one line per HTTP request; no traceback for any client's mistake."""
    log_file = tmp_path / "night.log"
    with ServerProcess(tmp_path / "hall.db", log_path=tmp_path / "serve.log",
                       extra_args=("--log-file", str(log_file), "--access-log")) as server:
        server.start()
        assert http_json(f"{server.url}/api/nowhere")[0] == 404
        codes = []
        for _ in range(14):  # a join-code guesser: refused after ten wrong codes (429)
            request = urllib.request.Request(f"{server.url}/", data=b"code=AAAA-BBBB")
            try:
                with urllib.request.urlopen(request, timeout=5) as answer:
                    codes.append(answer.status)
            except urllib.error.HTTPError as error:
                with error:
                    codes.append(error.code)
        assert 429 in codes
        sid = engineio_session(server.url)  # a client that sends what is no Engine.IO packet
        bad = urllib.request.Request(f"{server.url}/socket.io/?EIO=4&transport=polling&sid={sid}",
                                     data=b"9bogus", method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(bad, timeout=5)
        refused.value.close()
        with socket.create_connection(("127.0.0.1", server.port)) as raw:  # not HTTP at all
            raw.sendall(b"GARBAGE\r\n\r\n")
            raw.recv(100)
        server.terminate()
        console = server.log_tail()
    written = log_file.read_text(encoding="utf-8")
    lines = written.splitlines()
    assert all(LOG_LINE.fullmatch(line) for line in lines), written
    assert "Traceback" not in written and "Traceback" not in console
    assert [line for line in console.splitlines() if LOG_LINE.fullmatch(line)] == lines
    said = [line.split(" ", 3)[2:] for line in lines]  # [level, "logger: message"]
    assert said[0][0] == "INFO" and said[0][1].startswith(f"companion: started companion {__version__}")
    assert said[-1][0] == "INFO" and said[-1][1].startswith("companion: stopped; the journal is closed")
    guessers = [text for level, text in said if "refused a guesser" in text]
    assert guessers == ["companion: refused a guesser at 127.0.0.1: too many wrong tries on /; "
                        "locked out for 60 s"], "one line per guesser, not one per refusal"
    assert ["WARNING", "companion: client 127.0.0.1 sent something that is not an Engine.IO "
            "packet: connection closed"] in said
    assert any(level == "WARNING" and text.startswith("companion.http: refused a bad request")
               for level, text in said)
    access = [text for level, text in said if text.startswith("companion.access: ")]
    assert any('"GET /healthz HTTP/1.1" 200' in text for text in access)
    assert any('"GET /api/nowhere HTTP/1.1" 404' in text for text in access)
    assert sum('"POST / HTTP/1.1"' in text for text in access) == 14


@pytest.mark.slow
@pytest.mark.parametrize("library", WEBSOCKETS)
def test_a_phones_websocket_is_one_access_line_when_it_ends(tmp_path: Path, library: str) -> None:
    """With --access-log, a phone's websocket is one line, 101, written when the phone leaves
    (with either library serve can serve websockets with, issue 26); a phone that drops its
    connection without a word costs no line and no traceback."""
    env = {**os.environ, "COMPANION_WEBSOCKET": library}
    with ServerProcess(tmp_path / "hall.db", log_path=tmp_path / "serve.log", env=env,
                       extra_args=("--access-log",)) as server:
        server.start()
        url = server.url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket"
        phone = websocket.create_connection(url, timeout=5)
        assert phone.recv().startswith("0{")  # the Engine.IO session is open
        time.sleep(0.3)
        websocket_lines = 'GET /socket.io/?EIO=4&transport=websocket HTTP/1.1" 101 '
        assert websocket_lines not in server.log_tail(), "written before the phone left"
        phone.close()
        dropped = websocket.create_connection(url, timeout=5)
        assert dropped.recv().startswith("0{")
        dropped.sock.shutdown(socket.SHUT_RDWR)  # the Wi-Fi gone: no closing handshake
        dropped.sock.close()
        deadline = time.monotonic() + 10
        while server.log_tail().count(websocket_lines) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        server.terminate()
        console = server.log_tail()
    logged = [line for line in console.splitlines() if LOG_LINE.fullmatch(line)]
    # the default goes unsaid (the start line as it was); the other is named
    assert ("websockets by simple-websocket" in logged[0]) == (library == "simple-websocket")
    assert sum(websocket_lines in line for line in logged) == 2, console
    assert "Traceback" not in console, console
    assert [line for line in logged if "WARNING" in line or "ERROR" in line] == [], console


def test_serve_refuses_a_log_file_it_cannot_write(tmp_path: Path) -> None:
    log_file = tmp_path / "no-such-folder" / "night.log"
    done = run_companion("serve", "--host", "127.0.0.1", "--port", str(free_port()),
                         "--db", str(tmp_path / "hall.db"), "--log-file", str(log_file))
    assert_one_line_refusal(done, f"serve: cannot write the log file {str(log_file)!r}: "
                                  "No such file or directory")
    assert not (tmp_path / "hall.db").exists() and not log_file.parent.exists()
