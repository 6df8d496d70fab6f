"""Joining by a seat's join code (issue 5: the short URL to type), through the real app on a
real SQLite file: the card's short URL `/j/CODE` and the join page's form sit a phone down
with the seat's real token in its cookie (never the code); a wrong code gets a clear page in
the phone's language and sets nothing; wrong codes are limited per address and for the hall."""

from __future__ import annotations

import pytest
from conftest import api
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.hall import registry as hall_registry
from companion.hall.join_codes import join_code, printed
from companion.web import hall_service

CLASHING = ("G6CBeIaKVI_QRG7s_BV7fg", "y5xVECv2VWsocjoLI0FWoQ")  # one code (test_join_codes.py)


@pytest.fixture
def app_config():
    return {"JOIN_CODE_TRIES": 3, "JOIN_CODE_LOCK_SECONDS": 60.0, "JOIN_CODE_HALL_TRIES": 6}


@pytest.fixture
def seats(http, key):
    """A table of three; its seats as the organizer API lists them."""
    event = api(http, key, "post", "/api/events", {"name": "Night"}).get_json()
    table = api(http, key, "post", f"/api/events/{event['id']}/tables",
                {"name": "T1", "players": ["Ann", "Bo", "Cy"]}).get_json()
    return table["seats"]


def seat_token(client) -> str | None:
    with client.session_transaction() as session:
        return session.get("seat_token")


def wrong_code(seats) -> str:
    """A well-formed code no seat has."""
    taken = {seat["join_code"] for seat in seats}
    return next(c for c in ("0000-0000", "1111-1111", "2222-2222") if c not in taken)


def test_join_code_is_in_the_organizer_api_beside_the_join_path(seats):
    for seat in seats:
        assert seat["join_code"] == printed(join_code(seat["token"]))
        assert seat["join_path"] == f"/j/{seat['token']}"


@pytest.mark.parametrize("form", ["printed", "lower", "bare"])
def test_join_code_short_url_sets_the_cookie_with_the_real_token(app, seats, form):
    code = seats[1]["join_code"]
    typed = {"printed": code, "lower": code.lower(), "bare": code.replace("-", "")}[form]
    phone = app.test_client()
    response = phone.get(f"/j/{typed}")
    assert response.status_code == 302 and response.headers["Location"].endswith("/play")
    assert seat_token(phone) == seats[1]["token"]
    assert "Bo" in phone.get("/play").get_data(as_text=True)


def test_join_code_typed_on_the_join_page_sits_the_phone_down(app, seats):
    phone = app.test_client()
    page = phone.get("/").get_data(as_text=True)
    assert 'name="code"' in page and "Type the code on your card" in page
    response = phone.post("/", data={"code": " " + seats[2]["join_code"].lower().replace("-", " ")})
    assert response.status_code == 302 and response.headers["Location"].endswith("/play")
    assert seat_token(phone) == seats[2]["token"]
    assert phone.get("/").status_code == 302  # the join page now sends it back to its seat


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "A join code has 8 letters and digits"),
    ("he", "קוד הצטרפות מורכב מ-8 אותיות וספרות"),
    ("nl", "Een deelnamecode heeft 8 letters en cijfers"),
])
def test_join_code_that_is_no_code_is_a_400_in_the_phones_language(app, seats, lang, words):
    phone = app.test_client()
    response = phone.post(f"/?lang={lang}", data={"code": "K7M3-QX9"})
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and words in page
    assert 'aria-invalid="true"' in page and 'value="K7M3-QX9"' in page  # kept to correct
    assert seat_token(phone) is None


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "No seat has this code"), ("he", "אין מושב עם הקוד הזה"),
    ("nl", "Er is geen plaats met deze code"),
])
def test_join_code_no_seat_has_is_a_404_with_a_clear_message(app, seats, lang, words):
    phone = app.test_client()
    typed = phone.post(f"/?lang={lang}", data={"code": wrong_code(seats)})
    assert typed.status_code == 404 and words in typed.get_data(as_text=True)
    link = phone.get(f"/j/{wrong_code(seats)}?lang={lang}")
    assert link.status_code == 404 and words in link.get_data(as_text=True)
    assert seat_token(phone) is None


def test_join_code_of_a_reassigned_seat_stops_with_its_old_token(app, http, key, seats):
    table = hall_service(app).tokens[seats[0]["token"]][0]
    again = api(http, key, "post", f"/api/tables/{table}/reassign", {"seat": 0}).get_json()
    assert again["seats"][0]["join_code"] != seats[0]["join_code"]
    phone = app.test_client()
    assert phone.get(f"/j/{seats[0]['join_code']}").status_code == 404
    assert phone.get(f"/j/{again['seats'][0]['join_code']}").status_code == 302
    assert seat_token(phone) == again["seats"][0]["token"]


def test_join_code_guesses_lock_the_address_but_not_its_qr(app, seats):
    guesser = app.test_client()
    for typed in ("0000-0000", "1111-1111", "2222-2222"):
        assert guesser.post("/", data={"code": typed}).status_code == 404
    locked = guesser.post("/", data={"code": seats[0]["join_code"]})  # even the right one waits
    page = locked.get_data(as_text=True)
    assert locked.status_code == 429 and 50 <= int(locked.headers["Retry-After"]) <= 61
    assert "Too many wrong codes" in page and seat_token(guesser) is None
    assert guesser.get(f"/j/{seats[0]['join_code']}").status_code == 429  # the short URL too
    assert guesser.get(f"/j/{seats[0]['token']}").status_code == 302  # the QR's token is no guess
    other = app.test_client()
    assert other.post("/", data={"code": seats[1]["join_code"]},
                      environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 302


def test_join_code_the_right_code_does_not_reset_the_count(app, seats):
    """A player holding one real code must not be able to guess on between two wrong ones."""
    guesser = app.test_client()
    for typed in ("0000-0000", seats[0]["join_code"], "1111-1111"):
        guesser.post("/", data={"code": typed})
    assert guesser.post("/", data={"code": "2222-2222"}).status_code == 404
    assert guesser.post("/", data={"code": seats[0]["join_code"]}).status_code == 429


def test_join_code_guesses_from_many_addresses_do_not_lock_the_hall(app, seats):
    """Issue 17 F2: a hundred wrong codes locked join-by-code for the whole hall. Now, once the
    hall's budget (JOIN_CODE_HALL_TRIES) is spent, addresses that guessed get a couple of tries
    each (the grace) and then wait, while a player who was not guessing still sits down."""
    for n in range(3):  # two wrong codes each from three addresses: the budget of six is spent
        for _ in range(2):
            wrong = app.test_client().post("/", data={"code": "0000-0000"},
                                           environ_base={"REMOTE_ADDR": f"10.0.1.{n}"})
            assert wrong.status_code == 404
    guesser = app.test_client().post("/", data={"code": "0000-0000"},
                                     environ_base={"REMOTE_ADDR": "10.0.1.0"})
    assert guesser.status_code == 429
    late = app.test_client().post("/", data={"code": seats[0]["join_code"]},
                                  environ_base={"REMOTE_ADDR": "10.0.2.1"})
    assert late.status_code == 302


def test_join_code_that_is_no_code_costs_no_guess(app, seats):
    phone = app.test_client()
    for _ in range(5):
        assert phone.post("/", data={"code": "no code at all"}).status_code == 400
    assert phone.post("/", data={}).status_code == 400
    assert phone.post("/", data={"code": seats[0]["join_code"]}).status_code == 302


def test_join_code_two_seats_share_opens_neither_page(app, http, key, monkeypatch):
    fresh = hall_registry.new_token
    handed = iter(CLASHING)
    monkeypatch.setattr(hall_registry, "new_token", lambda: next(handed, None) or fresh())
    event = api(http, key, "post", "/api/events", {"name": "Night"}).get_json()
    table = api(http, key, "post", f"/api/events/{event['id']}/tables",
                {"name": "T1", "players": ["Ann", "Bo"]}).get_json()
    shared = table["seats"][0]["join_code"]
    assert table["seats"][1]["join_code"] == shared
    phone = app.test_client()
    for response in (phone.post("/", data={"code": shared}), phone.get(f"/j/{shared}")):
        assert response.status_code == 409
        assert "This code belongs to two seats" in response.get_data(as_text=True)
    assert seat_token(phone) is None
    assert phone.get(f"/j/{CLASHING[1]}").status_code == 302 and seat_token(phone) == CLASHING[1]


@pytest.mark.parametrize("app_config", [{"JOIN_CODE_TRIES": 10_000, "JOIN_CODE_HALL_TRIES": 10_000}])
@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(typed=st.text(max_size=30))
def test_join_code_any_text_typed_never_fails_and_opens_only_its_seat(app, seats, typed):
    phone = app.test_client()
    response = phone.post("/", data={"code": typed})
    opened = seat_token(phone)
    assert response.status_code in (302, 400, 404)
    assert (response.status_code == 302) == (opened is not None)
    assert opened is None or printed(join_code(opened)) in {s["join_code"] for s in seats}


def test_join_code_a_phone_whose_card_was_replaced_gets_the_code_form(app, http, key):
    """Issue 16, item 6: after the organizer's "New link" the old phone's page was a dead end
    (after a reload: no code field, no way back). /play without a valid seat is the join page,
    with the form for the code on the card."""
    event = api(http, key, "post", "/api/events", {"name": "Night"}).get_json()
    table = api(http, key, "post", f"/api/events/{event['id']}/tables",
                {"name": "T1", "players": ["Ann", "Bo"]}).get_json()
    phone = app.test_client()
    assert phone.post("/", data={"code": table["seats"][0]["join_code"]}).status_code == 302
    assert phone.get("/play").status_code == 200
    assert api(http, key, "post", f"/api/tables/{table['id']}/reassign", {"seat": 0}).status_code == 200
    page = phone.get("/play")
    assert page.status_code == 403
    text = page.get_data(as_text=True)
    assert 'name="code"' in text and "Scan the QR code on your seat's card" in text
