"""This laptop's addresses as a phone in the hall reaches it, found without sending anything:
the server prints them, the pages put them in join links and QR codes (no Flask here, so the
web layer needs no import of the server that imports it)."""

from __future__ import annotations

import ipaddress
import socket


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses a phone in the hall can reach, found without sending
    anything: the address of the route out first, then the host name's other addresses,
    private ones before public ones. The host name alone is not enough: Debian maps it to
    127.0.1.1, and a laptop with Docker has a bridge address no phone reaches."""
    routed = routed_address()
    found = {routed} if routed else set()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(info[4][0]))
    except OSError:
        pass
    usable = [address for address in found if reachable_from_lan(address)]
    return sorted(usable, key=lambda address: (
        address != routed, not ipaddress.ip_address(address).is_private, address))


def routed_address() -> str | None:
    """The address this machine would send from to another network: connecting a UDP socket
    picks it from the routing table and sends no packet. None without a route. The address
    asked for is one reserved for documentation (RFC 5737), so it takes the ordinary route out,
    not a VPN's route for a private range."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("198.51.100.1", 9))
            return str(probe.getsockname()[0])
        except OSError:
            return None


def reachable_from_lan(address: str) -> bool:
    """Not loopback, link-local (a cable without DHCP) or unspecified."""
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


EVERY_INTERFACE = ("", "0.0.0.0", "::")  # `--host` values that listen on the LAN too


def phone_hosts(host: str) -> list[str]:
    """The addresses to give phones for `serve --host HOST`: the LAN addresses when it listens
    on every interface, else the one address it listens on."""
    return lan_addresses() if host in EVERY_INTERFACE else [host]


def base_url(hosts: list[str], port: int) -> str:
    """The address `serve` prints for the organizer (and print uses for join cards): the first of
    `hosts`, or loopback when this machine has no LAN address."""
    return http_url((hosts or ["127.0.0.1"])[0], port)


def http_url(address: str, port: int) -> str:
    """`http://ADDRESS:PORT`, an IPv6 address in brackets."""
    return f"http://[{address}]:{port}" if ":" in address else f"http://{address}:{port}"
