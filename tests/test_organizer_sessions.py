"""The organizer's PIN and console sessions live in the journal, not in one process's memory
(issue 24, 5): a PIN set, changed or cleared on one process is the PIN on every other; a new
or cleared PIN ends the console sessions the old one opened; "Sign out every other device"
ends every other console session, on every process.

Two apps on one real PostgreSQL journal (tests/pg_server.py), each with its own hall service,
as two server processes have; and the same on a SQLite file for the single-process session end.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.web import create_app, hall_service

PIN, NEW_PIN = "482913", "905172"


def set_pin(client, key: str, pin: str | None) -> dict:
    return client.post("/api/organizer/pin", json={"pin": pin},
                       headers={"Authorization": f"Bearer {key}"}).get_json()


def is_console(client) -> bool:
    return 'id="console-data"' in client.get("/organizer").get_data(as_text=True)


def pin_sign_in(client, pin: str, address: str = "10.0.0.1") -> int:
    return client.post("/organizer/pin", data={"pin": pin},
                       environ_base={"REMOTE_ADDR": address}).status_code


@pytest.fixture
def two_apps(postgres_server) -> Iterator[tuple]:
    dsn = postgres_server.create_store()
    first = create_app({"TESTING": True, "DATABASE": dsn})
    second = create_app({"TESTING": True, "DATABASE": dsn})
    try:
        yield first, second
    finally:
        hall_service(first).journal.close()
        hall_service(second).journal.close()


def test_organizer_sessions_a_pin_set_on_one_process_signs_in_on_the_other(two_apps):
    first, second = two_apps
    key = hall_service(first).organizer_key
    assert hall_service(second).organizer_key == key
    assert set_pin(first.test_client(), key, PIN) == {"pin_set": True}

    door = second.test_client()  # a phone at the door, served by the other process
    assert pin_sign_in(door, PIN) == 303 and is_console(door)

    assert set_pin(first.test_client(), key, NEW_PIN) == {"pin_set": True}  # changed on one
    assert not is_console(door)  # the old PIN's session ended on the other
    assert pin_sign_in(door, PIN, "10.0.0.2") == 403
    assert pin_sign_in(door, NEW_PIN, "10.0.0.3") == 303 and is_console(door)

    assert set_pin(first.test_client(), key, None) == {"pin_set": False}  # cleared on one
    assert not is_console(door)
    assert pin_sign_in(door, NEW_PIN, "10.0.0.4") == 409  # "No PIN is set", on the other too
    assert not hall_service(second).organizer_pin_set


def test_organizer_sessions_sign_out_every_other_device_on_every_process(two_apps):
    first, second = two_apps
    key = hall_service(first).organizer_key
    laptop, borrowed, other_process = (first.test_client(), first.test_client(),
                                       second.test_client())
    for client in (laptop, borrowed, other_process):
        assert client.get(f"/organizer?key={key}").status_code == 303 and is_console(client)

    answer = laptop.post("/organizer/signout-others")

    assert answer.status_code == 303 and answer.headers["Location"] == "/organizer"
    assert is_console(laptop)  # the console that asked stays signed in
    assert not is_console(borrowed) and not is_console(other_process)
    assert borrowed.get("/api/events").status_code == 401
    assert other_process.get(f"/organizer?key={key}").status_code == 303  # the key still works
    assert is_console(other_process)


def test_organizer_sessions_a_new_pin_ends_only_the_sessions_the_pin_opened(app, http, key):
    set_pin(http, key, PIN)
    door = app.test_client()
    assert pin_sign_in(door, PIN) == 303 and is_console(door)
    laptop = app.test_client()
    assert laptop.get(f"/organizer?key={key}").status_code == 303

    set_pin(http, key, NEW_PIN)

    assert not is_console(door) and door.get("/api/events").status_code == 401
    assert is_console(laptop)  # opened by the printed link, not by the PIN


def test_organizer_sessions_signout_others_needs_a_signed_in_console(app, http, key):
    stranger = app.test_client()
    assert stranger.post("/organizer/signout-others").status_code == 401
    assert hall_service(app).signout_epoch == 0
