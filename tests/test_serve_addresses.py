"""Where `companion serve` tells phones to go: a LAN address, never loopback (Debian maps the
host name to 127.0.1.1), the routed one first; or the organizer's `--base-url`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import run_companion
from serverproc import ServerProcess, http_json, organizer_key

from companion.server import base_url, lan_addresses, phone_hosts, reachable_from_lan, routed_address


@pytest.mark.parametrize(("address", "reachable"), [
    ("127.0.0.1", False), ("127.0.1.1", False),  # loopback, also Debian's host-name address
    ("169.254.10.3", False),  # link-local: a cable without DHCP
    ("0.0.0.0", False),
    ("192.168.1.20", True), ("10.0.0.7", True), ("172.20.1.2", True), ("192.0.2.2", True),
])
def test_only_addresses_a_phone_can_reach_are_offered(address: str, reachable: bool) -> None:
    assert reachable_from_lan(address) is reachable


def test_this_machines_addresses_lead_with_the_routed_one() -> None:
    found = lan_addresses()
    assert all(reachable_from_lan(address) for address in found)
    assert len(found) == len(set(found))
    routed = routed_address()
    if routed and reachable_from_lan(routed):
        assert found[0] == routed


def test_serve_uses_the_base_url_for_join_links(tmp_path: Path) -> None:
    public = "http://hall.example:8080"
    with ServerProcess(tmp_path / "hall.db", log_path=tmp_path / "serve.log",
                       extra_args=("--demo", "--base-url", public)) as server:
        server.start()
        log = server.log_tail()
        joins = [line for line in log.splitlines() if line.startswith("join: ")]
        assert len(joins) == 6 and all(line.startswith(f"join: {public}/j/") for line in joins)
        assert all(re.search(r", code [0-9A-Z]{4}-[0-9A-Z]{4}\)$", line) for line in joins)
        assert f"organizer: {public}/organizer?key=" in log
        status, event = http_json(f"{server.url}/api/events/1", key=organizer_key(server))
        assert status == 200
        urls = [seat["join_url"] for table in event["table_seats"] for seat in table["seats"]]
        assert urls and all(url.startswith(f"{public}/j/") for url in urls)


@pytest.mark.parametrize("url", ["hall.example:8080", "ftp://hall.example", "http://"])
def test_serve_refuses_a_base_url_no_phone_can_open(tmp_path: Path, url: str) -> None:
    done = run_companion("serve", "--port", "1", "--db", str(tmp_path / "hall.db"),
                         "--base-url", url)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("serve: --base-url must start with http:// or https:// and name the "
                           f"server, like http://192.168.1.20:5000, not {url!r}\n")
    assert not (tmp_path / "hall.db").exists()


def test_serve_on_one_address_links_phones_to_that_address(tmp_path: Path) -> None:
    """--host 127.0.0.1 keeps the hall on this laptop: its links must not send phones to a LAN
    address it does not listen on."""
    with ServerProcess(tmp_path / "hall.db", log_path=tmp_path / "serve.log",
                       extra_args=("--demo",)) as server:
        server.start()
        status, event = http_json(f"{server.url}/api/events/1", key=organizer_key(server))
        assert status == 200
        urls = [seat["join_url"] for table in event["table_seats"] for seat in table["seats"]]
        assert urls and all(url.startswith(f"{server.url}/j/") for url in urls)
        # ... and the terminal says that no phone can open that address (issue 16, item 10)
        assert f"warning: {server.url} is this laptop's own address" in server.log_tail()


@pytest.mark.parametrize("every_interface", ["0.0.0.0", "", "::"])
def test_serve_on_every_interface_offers_the_lan_addresses(every_interface: str) -> None:
    """--host :: listens on every interface too (IPv6 and IPv4): its links had read
    http://:::5000/j/TOKEN, an address no phone can open."""
    assert phone_hosts(every_interface) == lan_addresses()


def test_serve_on_one_address_offers_that_address_in_a_url_a_phone_can_open() -> None:
    assert phone_hosts("192.168.1.20") == ["192.168.1.20"]
    assert base_url(phone_hosts("192.168.1.20"), 5000) == "http://192.168.1.20:5000"
    assert base_url(["fd00::20"], 5000) == "http://[fd00::20]:5000"  # IPv6 in brackets
    assert base_url([], 5000) == "http://127.0.0.1:5000"
