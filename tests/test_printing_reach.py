"""Issue 16, item 10 (paper): an address no phone can open (loopback, link-local, unspecified)
never ends up on paper without a word. `companion print` and the organizer's download refuse
join cards and posters that would carry one, saying what to do; sheets without an address
still print. Through the real command, the real app and a real `companion serve --host
127.0.0.1`."""

from __future__ import annotations

import html
import io
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from conftest import api, run_companion
from pypdf import PdfReader
from serverproc import ServerProcess, http_json
from test_print_cli import journal_rows, make_demo
from test_printing import decode, rasterise

from companion import cli
from companion.hall.demo import create_demo
from companion.hall.printables import PrintOptions, phones_cannot_open, render
from companion.web import hall_service

UNREACHABLE = ["http://127.0.0.1:5000", "http://127.0.1.1:5000/", "http://localhost:5000",
               "http://LOCALHOST.:8080", "http://hall.localhost:5000", "http://[::1]:5000",
               "http://169.254.10.20:5000", "http://[fe80::1]:5000", "http://0.0.0.0:5000",
               "http://[::ffff:127.0.0.1]:5000", "https://127.0.0.1/hall"]
REACHABLE = ["http://192.168.1.20:5000", "http://10.0.0.5", "http://hall.local:5000",
             "https://hall.example.org/", "http://[2001:db8::20]:5000", "http://172.16.0.9:80",
             "http://localhost-laptop:5000"]


@pytest.mark.parametrize("url", UNREACHABLE)
def test_printing_reach_loopback_and_link_local_are_no_phones_address(url: str) -> None:
    assert phones_cannot_open(url)


@pytest.mark.parametrize("url", REACHABLE)
def test_printing_reach_lan_addresses_and_names_are_printed(url: str) -> None:
    assert not phones_cannot_open(url)


# ---------------------------------------------------------------- the command


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return make_demo(tmp_path_factory.mktemp("reach"))


@pytest.mark.parametrize(("kind", "url"), [
    ("join-cards", "http://127.0.0.1:5000"), ("poster", "http://localhost:5000/"),
    ("join-cards", "http://169.254.7.7:5000"), ("poster", "http://[::1]:5000"),
])
def test_printing_reach_command_refuses_an_address_no_phone_can_open(
        demo: dict[str, Any], tmp_path: Path, kind: str, url: str) -> None:
    before = journal_rows(demo["db"])
    out = tmp_path / "out.pdf"
    done = run_companion("print", kind, "--db", str(demo["db"]), "--event", "1",
                         "--base-url", url, "-o", str(out))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        f"print: phones cannot open {url.rstrip('/')}: it is this laptop's own address "
        "(loopback) or a link-local one; pass --base-url with the address phones use, the "
        "'phones:' line companion serve prints (like http://192.168.1.20:5000)\n")
    assert not out.exists() and journal_rows(demo["db"]) == before


@pytest.mark.parametrize("kind", ["setup-sheets", "score-sheets", "standings"])
def test_printing_reach_sheets_without_an_address_still_print(
        demo: dict[str, Any], tmp_path: Path, kind: str) -> None:
    out = tmp_path / "out.pdf"
    done = run_companion("print", kind, "--db", str(demo["db"]), "--event", "1",
                         "--base-url", "http://127.0.0.1:5000", "-o", str(out))
    assert done.returncode == 0 and out.read_bytes().startswith(b"%PDF")
    assert "warning" not in done.stderr


def test_printing_reach_command_without_a_lan_address_refuses(
        demo: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """No --base-url and no LAN address: the cards would carry loopback (they once did, with a
    warning printed after the PDF was written). Now nothing is written."""
    import companion.server

    monkeypatch.setattr(companion.server, "lan_addresses", lambda: [])
    out = tmp_path / "cards.pdf"
    status = cli.main(["print", "join-cards", "--db", str(demo["db"]), "--event", "1",
                       "-o", str(out)])
    err = capsys.readouterr().err
    assert status == 2 and not out.exists()
    assert err == ("print: this laptop has no LAN address, so the join-cards would carry "
                   "http://127.0.0.1:5000, which no phone can open; join the hall's network, "
                   "or pass --base-url with the address phones use\n")


def test_printing_reach_render_itself_refuses(demo: dict[str, Any]) -> None:
    """The last guard, for any caller of the printing bridge: a ValueError, in English."""
    from companion.hall import HallService
    from companion.journal import SqliteJournal

    with SqliteJournal(demo["db"]) as journal, pytest.raises(ValueError, match="phones cannot"):
        render(HallService(journal), "1", PrintOptions("poster", base_url="http://127.0.0.1:5000"))


# ---------------------------------------------------------------- the organizer's download


@pytest.fixture
def app_config() -> dict[str, Any]:
    return {"LISTEN_HOST": "127.0.0.1"}  # `companion serve --host 127.0.0.1`


@pytest.mark.parametrize("kind", ["join-cards", "poster"])
def test_printing_reach_download_refused_on_loopback(app: Any, kind: str) -> None:
    made = create_demo(hall_service(app))
    answer = api(app.test_client(), made["organizer_key"], "get",
                 f"/prints/{kind}.pdf?event=1", base_url="http://127.0.0.1:5000")
    assert answer.status_code == 409 and b"%PDF" not in answer.data
    body = answer.get_json()
    assert body["code"] == "print/unreachable"
    assert body["message"].startswith("phones cannot open http://127.0.0.1:5000: it is this "
                                      "laptop's own address (loopback) or a link-local one")
    assert "companion serve" in body["message"] and "--base-url" in body["message"]


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "phones cannot open http://127.0.0.1:5000"),
    ("nl", "telefoons kunnen http://127.0.0.1:5000 niet openen"),
    ("he", "טלפונים לא יכולים לפתוח את http://127.0.0.1:5000"),
])
def test_printing_reach_console_link_gets_a_page_in_its_language(
        app: Any, lang: str, words: str) -> None:
    """The console opens prints as plain links: the refusal is a page saying what to do."""
    made = create_demo(hall_service(app))
    browser = app.test_client()
    browser.get(f"/organizer?key={made['organizer_key']}", base_url="http://127.0.0.1:5000")
    answer = browser.get(f"/prints/join-cards.pdf?event=1&lang={lang}",
                         base_url="http://127.0.0.1:5000",
                         headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert answer.status_code == 409 and answer.mimetype == "text/html"
    assert words in html.unescape(answer.get_data(as_text=True))


def test_printing_reach_download_with_a_public_base_url_prints(app: Any, tmp_path: Path) -> None:
    """Served on loopback behind --base-url (a name on the hall's network): cards print."""
    app.config["BASE_URL"] = "http://hall.example:5000"
    made = create_demo(hall_service(app))
    answer = api(app.test_client(), made["organizer_key"], "get",
                 "/prints/join-cards.pdf?event=1", base_url="http://127.0.0.1:5000")
    assert answer.status_code == 200
    urls = {r.text for r in decode(rasterise(answer.data, tmp_path, "cards")[0])}
    assert urls == {f"http://hall.example:5000/j/{s['token']}" for s in made["seats"]}


@pytest.mark.slow
def test_printing_reach_served_on_loopback_refuses_cards_and_prints_sheets(
        tmp_path: Path) -> None:
    """A real `companion serve --host 127.0.0.1`: the cards' download is refused, the score
    sheets' is not."""
    made = run_companion("demo", "--db", str(tmp_path / "hall.db"))
    assert made.returncode == 0, made.stderr
    key = json.loads(made.stdout)["organizer_key"]
    with ServerProcess(tmp_path / "hall.db", log_path=tmp_path / "server.log") as server:
        server.start()
        status, body = http_json(f"{server.url}/prints/join-cards.pdf?event=1", key=key)
        assert status == 409 and body["code"] == "print/unreachable"
        assert f"phones cannot open {server.url}" in body["message"]
        request = urllib.request.Request(f"{server.url}/prints/score-sheets.pdf?event=1",
                                         headers={"Authorization": f"Bearer {key}"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            assert len(PdfReader(io.BytesIO(answer.read())).pages) == 2
