"""The organizer console's server side, through the real HTTP API, pages and Socket.IO handlers
on a real SQLite file: seating a pasted list, event settings, table names and players, seat
reassignment, the PIN (stored hashed, guesses limited) and the console's sign-in. Every
refusal answers with its status and code and leaves the journal as it was."""

from __future__ import annotations

import json
import re
import threading
import time

import pytest
from conftest import api

from companion.hall import HallService
from companion.hall.pin import hash_pin, pin_matches
from companion.hall.seating import split_players, table_sizes
from companion.journal import SqliteJournal, StaleSequence
from companion.web import hall_service, socketio
from companion.web.guesses import GuessGuard

PIN = "482913"


@pytest.fixture
def app_config():
    return {"ORGANIZER_PIN_LOCK_SECONDS": 60.0}


def journal_records(app):
    journal = hall_service(app).journal
    return [(r.stream, r.seq, r.kind, r.data) for s in journal.streams() for r in journal.read(s)]


def refused(app, response, status, code=None):
    """The response is a JSON refusal with this status (and code)."""
    assert response.status_code == status, response.get_data(as_text=True)
    answer = response.get_json()
    assert answer["ok"] is False and answer["message"]
    if code:
        assert answer["code"] == code
    return answer


@pytest.fixture
def event(http, key):
    return api(http, key, "post", "/api/events", {"name": "Night"}).get_json()


@pytest.fixture
def table(http, key, event):
    """A table of three in setup."""
    return api(http, key, "post", f"/api/events/{event['id']}/tables",
               {"name": "T1", "players": ["Ann", "Ben", "Cy"]}).get_json()


def start(http, key, table):
    assert api(http, key, "post", f"/api/tables/{table['id']}/start").status_code == 200


# ---------------------------------------------------------------- seating a pasted list


@pytest.mark.parametrize("players, largest, sizes", [
    (2, 4, [2]), (4, 4, [4]), (5, 4, [3, 2]), (9, 4, [3, 3, 3]), (10, 4, [4, 3, 3]),
    (13, 4, [4, 3, 3, 3]), (7, 3, [3, 2, 2]), (6, 2, [2, 2, 2]),
    (1, 4, None), (0, 4, None), (5, 2, None), (3, 2, None),
])
def test_seating_table_sizes(players, largest, sizes):
    assert table_sizes(players, largest, 2) == sizes
    if sizes:
        assert sum(sizes) == players and max(sizes) - min(sizes) <= 1 and max(sizes) <= largest


def test_seating_split_keeps_the_pasted_order():
    assert split_players(list("ABCDE"), [3, 2]) == [["A", "B", "C"], ["D", "E"]]


def test_organizer_seating_splits_the_list_into_named_tables(app, http, key, event, table):
    names = [f"P{i}" for i in range(1, 11)]
    answer = api(http, key, "post", f"/api/events/{event['id']}/seating",
                 {"players": names, "table_size": 4, "name_prefix": "Tafel", "roll_mode": "own"})
    assert answer.status_code == 201
    tables = answer.get_json()["tables"]
    assert [t["name"] for t in tables] == ["Tafel 2", "Tafel 3", "Tafel 4"]  # T1 exists
    assert [[s["name"] for s in t["seats"]] for t in tables] == [names[:4], names[4:7], names[7:]]
    assert {t["roll_mode"] for t in tables} == {"own"} and {t["status"] for t in tables} == {"setup"}
    tokens = [s["token"] for t in tables for s in t["seats"]]
    assert len(set(tokens)) == 10 and all(s["join_url"].endswith(s["join_path"])
                                          for t in tables for s in t["seats"])
    view = api(http, key, "get", f"/api/events/{event['id']}").get_json()
    assert [t["name"] for t in view["tables"]] == ["T1", "Tafel 2", "Tafel 3", "Tafel 4"]
    # The largest table the rules allow is the default size.
    more = api(http, key, "post", f"/api/events/{event['id']}/seating", {"players": names[:8]})
    assert [len(t["seats"]) for t in more.get_json()["tables"]] == [4, 4]


def test_organizer_seating_follows_the_rulesets_seats(app, http, key, event):
    """The co-op game seats exactly two players (and the assessor): a list is cut in pairs,
    whatever largest size the form asked for; an odd list is refused whole."""
    path = f"/api/events/{event['id']}/seating"
    answer = api(http, key, "post", path, {"players": ["A", "B", "C", "D"], "table_size": 4,
                                           "ruleset": "machi-koro-coop"})
    assert answer.status_code == 201
    tables = answer.get_json()["tables"]
    assert [t["ruleset"] for t in tables] == ["machi-koro-coop"] * 2
    assert [[s["name"] for s in t["seats"]] for t in tables] == [["A", "B"], ["C", "D"]]
    before = journal_records(app)
    refused(app, api(http, key, "post", path, {"players": ["A", "B", "C"], "ruleset": "machi-koro-coop"}),
            400, "request/invalid")
    assert journal_records(app) == before


@pytest.mark.parametrize("body, status", [
    ({}, 400),
    ({"players": "Ann\nBen"}, 400),
    ({"players": []}, 400),
    ({"players": ["Ann"]}, 400),
    ({"players": ["A", "B", "C", "D", "E"], "table_size": 2}, 400),
    ({"players": ["A", "B", "C"], "table_size": 5}, 400),
    ({"players": ["A", "B", "C"], "table_size": 1}, 400),
    ({"players": ["A", "B", "C"], "table_size": "4"}, 400),
    ({"players": ["A", "B", "C"], "table_size": True}, 400),
    ({"players": ["A", "B", " "]}, 400),
    ({"players": ["A", "B", 7]}, 400),
    ({"players": ["A", "B", "x" * 41]}, 400),
    ({"players": ["A", "B"], "ruleset": "chess"}, 400),
    ({"players": ["A", "B"], "roll_mode": "dice"}, 400),
    ({"players": ["A", "B"], "name_prefix": ""}, 400),
    ({"players": ["A", "B"], "name_prefix": "x" * 39}, 400),
])
def test_organizer_seating_refusals_create_no_table(app, http, key, event, body, status):
    before = journal_records(app)
    refused(app, api(http, key, "post", f"/api/events/{event['id']}/seating", body), status,
            "request/invalid")
    assert journal_records(app) == before


def test_organizer_seating_commits_every_table_or_none(tmp_path):
    """The seated tables commit in one transaction: when the journal refuses one of them
    (another writer took the stream the second table would get), none is created, in the
    journal or in memory."""
    with SqliteJournal(tmp_path / "hall.db") as journal:
        hall = HallService(journal)
        event = hall.create_event("Night")
        with SqliteJournal(tmp_path / "hall.db") as other:
            other.append("table:2", 0, [("note", {"by": "another writer"})])
        before = {stream: journal.read(stream) for stream in journal.streams()}
        with pytest.raises(StaleSequence):
            hall.seat_players(event.id, ["A", "B", "C", "D", "E", "F"], table_size=3)
        assert (hall.tables, event.tables, hall.tokens) == ({}, [], {})
        assert {stream: journal.read(stream) for stream in journal.streams()} == before


def test_organizer_seating_unknown_event_and_no_key(app, http, key, event):
    before = journal_records(app)
    refused(app, api(http, key, "post", "/api/events/99/seating", {"players": ["A", "B"]}), 404,
            "event/unknown")
    refused(app, api(http, None, "post", f"/api/events/{event['id']}/seating",
                     {"players": ["A", "B"]}), 401, "auth/organizer")
    assert journal_records(app) == before


# ---------------------------------------------------------------- event settings


def test_organizer_settings_change_dice_mode_and_timer_and_survive_a_restart(app, http, key, event,
                                                                            tmp_path):
    answer = api(http, key, "post", f"/api/events/{event['id']}/settings",
                 {"dice_mode": "balanced", "choice_seconds": 30})
    assert answer.status_code == 200
    assert answer.get_json() == {"id": event["id"], "dice_mode": "balanced", "choice_seconds": 30}
    view = api(http, key, "get", f"/api/events/{event['id']}").get_json()
    assert view["event"]["dice_mode"] == "balanced" and view["event"]["choice_seconds"] == 30
    with SqliteJournal(tmp_path / "hall.db") as journal:
        again = HallService(journal).event(event["id"])
        assert (again.dice_mode, again.choice_seconds) == ("balanced", 30)


@pytest.mark.parametrize("body", [
    {}, {"dice_mode": "loaded"}, {"choice_seconds": 4}, {"choice_seconds": 601},
    {"choice_seconds": "30"}, {"choice_seconds": True}, {"choice_seconds": 30.5},
    {"dice_mode": "balanced", "choice_seconds": 0},
])
def test_organizer_settings_refusals_change_nothing(app, http, key, event, body):
    before = journal_records(app)
    refused(app, api(http, key, "post", f"/api/events/{event['id']}/settings", body), 400,
            "request/invalid")
    refused(app, api(http, key, "post", "/api/events/99/settings", {"choice_seconds": 30}), 404)
    assert journal_records(app) == before


# ---------------------------------------------------------------- names and players


def test_organizer_rename_table(app, http, key, table):
    answer = api(http, key, "post", f"/api/tables/{table['id']}/rename", {"name": "  Corner   one "})
    assert answer.status_code == 200 and answer.get_json()["name"] == "Corner one"
    before = journal_records(app)
    for body in ({}, {"name": ""}, {"name": "x" * 41}, {"name": 3}):
        refused(app, api(http, key, "post", f"/api/tables/{table['id']}/rename", body), 400)
    refused(app, api(http, key, "post", "/api/tables/99/rename", {"name": "X"}), 404, "table/unknown")
    assert journal_records(app) == before


def test_organizer_add_and_remove_players_before_the_start(app, http, key, table):
    path = f"/api/tables/{table['id']}"
    added = api(http, key, "post", f"{path}/add_player", {"name": "Dee"}).get_json()
    assert [s["name"] for s in added["seats"]] == ["Ann", "Ben", "Cy", "Dee"]
    assert hall_service(app).seat_for(added["seats"][3]["token"])[1] == 3
    before = journal_records(app)
    refused(app, api(http, key, "post", f"{path}/add_player", {"name": "Eve"}), 409, "table/full")
    refused(app, api(http, key, "post", f"{path}/add_player", {"name": ""}), 400)
    assert journal_records(app) == before

    removed = api(http, key, "post", f"{path}/remove_player", {"seat": 1}).get_json()
    assert [s["name"] for s in removed["seats"]] == ["Ann", "Cy", "Dee"]
    api(http, key, "post", f"{path}/remove_player", {"seat": 2})
    before = journal_records(app)
    refused(app, api(http, key, "post", f"{path}/remove_player", {"seat": 0}), 409, "table/too_few")
    for seat in (5, -1, "0", True, None):
        refused(app, api(http, key, "post", f"{path}/remove_player", {"seat": seat}), 400,
                "request/invalid")
    assert journal_records(app) == before


def test_organizer_players_are_fixed_after_the_start(app, http, key, table):
    start(http, key, table)
    before = journal_records(app)
    path = f"/api/tables/{table['id']}"
    refused(app, api(http, key, "post", f"{path}/add_player", {"name": "Dee"}), 409, "table/started")
    refused(app, api(http, key, "post", f"{path}/remove_player", {"seat": 0}), 409, "table/started")
    refused(app, api(http, key, "post", f"{path}/reassign", {"seat": 0, "name": "Zed"}), 409,
            "table/started")
    assert journal_records(app) == before


def test_organizer_reassign_gives_a_new_link_and_may_rename_before_the_start(app, http, key, table):
    old = table["seats"][1]["token"]
    answer = api(http, key, "post", f"/api/tables/{table['id']}/reassign",
                 {"seat": 1, "name": "Bea"}).get_json()
    new = answer["seats"][1]
    assert new["name"] == "Bea" and new["token"] != old
    assert http.get(f"/j/{old}").status_code == 404 and http.get(f"/j/{new['token']}").status_code == 302
    start(http, key, table)
    kept = api(http, key, "post", f"/api/tables/{table['id']}/reassign", {"seat": 1}).get_json()
    assert kept["seats"][1]["name"] == "Bea" and kept["seats"][1]["token"] != new["token"]


def test_organizer_reassign_and_removal_let_go_of_the_old_cards_phones(app, http, key, table):
    """A phone whose seat got a new card is told at once (it had kept "Connected" and a view
    that no longer changed), gets no more views, moves as nobody's seat, and cannot come back
    with the old card; the other seats' phones stay."""
    seats = table["seats"]
    phones = [socketio.test_client(app, auth={"token": s["token"]}, flask_test_client=http)
              for s in seats]
    for phone in phones:
        phone.get_received()

    def revoked(phone):
        return [m["args"][0]["code"] for m in phone.get_received() if m["name"] == "revoked"]

    api(http, key, "post", f"/api/tables/{table['id']}/reassign", {"seat": 1})
    assert [revoked(phone) for phone in phones] == [[], ["seat/unknown_token"], []]
    api(http, key, "post", f"/api/tables/{table['id']}/rename", {"name": "T9"})
    assert [bool(phone.get_received()) for phone in phones] == [True, False, True]
    move = {"request_id": "r1", "move": {"kind": "end_turn"}}
    assert phones[1].emit("move", move, callback=True)["code"] == "auth/not_a_seat"
    again = socketio.test_client(app, auth={"token": seats[1]["token"]}, flask_test_client=http)
    assert not again.is_connected()
    api(http, key, "post", f"/api/tables/{table['id']}/remove_player", {"seat": 2})
    assert [revoked(phone) for phone in phones] == [[], [], ["seat/unknown_token"]]
    for phone in phones:
        phone.disconnect()


def test_organizer_changes_are_published_with_the_hall_lock_released(tmp_path):
    """One path for every action: commit under the lock, publish after it. A listener (the
    fan-out to phones) runs with the lock free, so another phone's move is not held up behind
    it; each change is published once, with what it changed."""
    with SqliteJournal(tmp_path / "hall.db") as journal:
        hall = HallService(journal)
        heard: list[tuple[list[str], list[str], bool]] = []

        def lock_is_free() -> bool:
            """Whether another thread could take the hall's lock right now."""
            if not hall.lock.acquire(timeout=0):
                return False
            hall.lock.release()
            return True

        def listener(change):
            free: list[bool] = []
            probe = threading.Thread(target=lambda: free.append(lock_is_free()))
            probe.start()
            probe.join()
            heard.append((change.tables, change.events, free[0]))

        hall.listeners.append(listener)
        event = hall.create_event("Night")
        table = hall.create_table(event.id, "T1", ["Ann", "Ben"])
        hall.rename_table(table.id, "Corner")
        hall.add_player(table.id, "Cy")
        hall.remove_player(table.id, 2)
        hall.reassign_seat(table.id, 0)
        hall.set_status(table.id, "start")
        hall.update_event(event.id, {"choice_seconds": 30})
        hall.hall_roll(event.id, [2, 3])
        assert hall.move(table.seats[0].token, "r1", {"kind": "end_turn"})["ok"]
        hall.adjust(table.id, 1, 2, "found coins")
        hall.undo(table.id)
        hall.set_status(table.id, "pause")
        seated = hall.seat_players(event.id, ["A", "B", "C", "D", "E"], table_size=3)
        assert all(free for *_, free in heard), heard
        one = ([table.id], [event.id], True)
        assert heard == [([], [event.id], True)] + [one] * 6 + [([], [event.id], True)] + [
            one] * 5 + [([t.id for t in seated], [event.id], True)]


# ---------------------------------------------------------------- the PIN


def test_pin_hash_matches_only_its_pin():
    record = hash_pin(PIN, iterations=1000)
    assert PIN not in str(record) and pin_matches(record, PIN)
    assert not pin_matches(record, "482914") and not pin_matches(record, 482913)
    assert not pin_matches(None, PIN) and not pin_matches(record, "9" * 100)


@pytest.mark.parametrize("pin", ["12345", "1234567890123", "abcdef", "12 345", "١٢٣٤٥٦", "111111",
                                 482913, "", True, ["482913"]])
def test_organizer_pin_bad_formats_are_refused_and_change_nothing(app, http, key, pin):
    before = journal_records(app)
    refused(app, api(http, key, "post", "/api/organizer/pin", {"pin": pin}), 400, "request/invalid")
    refused(app, api(http, key, "post", "/api/organizer/pin", {}), 400, "request/invalid")
    refused(app, api(http, None, "post", "/api/organizer/pin", {"pin": PIN}), 401, "auth/organizer")
    assert journal_records(app) == before and not hall_service(app).organizer_pin_set


def test_organizer_pin_is_stored_hashed_and_survives_a_restart(app, http, key, tmp_path):
    assert api(http, key, "post", "/api/organizer/pin", {"pin": PIN}).get_json() == {"pin_set": True}
    stored = [data for stream, _, kind, data in journal_records(app) if kind == "organizer_pin"]
    assert len(stored) == 1 and PIN not in str(stored) and set(stored[0]) == {"salt", "iterations", "hash"}
    assert PIN.encode() not in (tmp_path / "hall.db").read_bytes()
    with SqliteJournal(tmp_path / "hall.db") as journal:
        again = HallService(journal)
        assert again.check_organizer_pin(PIN) and not again.check_organizer_pin("482914")
    assert api(http, key, "post", "/api/organizer/pin", {"pin": None}).get_json() == {"pin_set": False}
    assert not hall_service(app).check_organizer_pin(PIN)


def test_organizer_pin_signs_in_a_second_device_and_a_wrong_one_does_not(app, http, key):
    second = app.test_client()
    refused_page = second.post("/organizer/pin", data={"pin": PIN})
    assert refused_page.status_code == 409  # no PIN set yet
    api(http, key, "post", "/api/organizer/pin", {"pin": PIN})
    wrong = second.post("/organizer/pin", data={"pin": "111222"})
    assert wrong.status_code == 403 and "That PIN is not right." in wrong.get_data(as_text=True)
    assert refused(app, second.get("/api/events"), 401, "auth/organizer")
    right = second.post("/organizer/pin", data={"pin": PIN})
    assert right.status_code == 303 and right.headers["Location"] == "/organizer"
    assert second.get("/api/events").status_code == 200
    assert 'id="console-data"' in second.get("/organizer").get_data(as_text=True)


def test_organizer_pin_guesses_lock_the_address_for_a_while(app, http, key):
    api(http, key, "post", "/api/organizer/pin", {"pin": PIN})
    guesser = app.test_client()
    for guess in ("000001", "000002", "000003", "000004", "000005"):
        assert guesser.post("/organizer/pin", data={"pin": guess}).status_code == 403
    locked = guesser.post("/organizer/pin", data={"pin": PIN})  # even the right one waits
    assert locked.status_code == 429 and 50 <= int(locked.headers["Retry-After"]) <= 61
    assert "Too many wrong PINs" in locked.get_data(as_text=True)
    assert guesser.get("/api/events").status_code == 401
    other = app.test_client()  # another address is not locked by this one
    assert other.post("/organizer/pin", data={"pin": PIN},
                      environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 303


@pytest.mark.parametrize("app_config", [{"ORGANIZER_PIN_TRIES": 2, "ORGANIZER_PIN_LOCK_SECONDS": 1.0}])
def test_organizer_pin_lock_ends_after_its_time(app):
    hall_service(app).set_organizer_pin(PIN)
    guesser = app.test_client()
    for _ in range(2):
        assert guesser.post("/organizer/pin", data={"pin": "000001"}).status_code == 403
    assert guesser.post("/organizer/pin", data={"pin": PIN}).status_code == 429
    time.sleep(1.05)
    assert guesser.post("/organizer/pin", data={"pin": PIN}).status_code == 303


def test_pin_guard_a_spent_hall_budget_refuses_guessers_but_not_newcomers():
    """Issue 17 F2: twenty wrong PINs from anywhere no longer lock every address out. Sources
    that have been guessing wait for the hall's budget; one that has not is still checked."""
    guard = GuessGuard(tries=5, seconds=60, hall_tries=20, grace=2)
    for n in range(10):
        for _ in range(2):
            assert guard.try_now(f"10.0.0.{n}", 100.0) == 0
    assert guard.try_now("10.0.0.1", 101.0) == 59  # a guesser waits for the budget
    assert guard.try_now("10.0.1.1", 101.0) == 0  # the organizer, who was not guessing, tries
    assert guard.try_now("10.0.0.1", 160.0) == 0  # the budget is back after its window


def test_pin_guard_forgets_old_failures_and_a_success_resets():
    guard = GuessGuard(tries=3, seconds=60, memory=60)
    guard.try_now("a", 0.0)
    guard.try_now("a", 1.0)
    guard.try_now("a", 70.0)  # the first two are older than the window
    assert guard.try_now("a", 70.5) == 0
    assert guard.try_now("a", 71.0) == 0
    assert guard.try_now("a", 71.5) == 59  # three in the window: the oldest ages out at 130
    guard.right("a", 71.0, forget=True)
    assert guard.try_now("a", 72.0) == 0


# ---------------------------------------------------------------- the console page


def test_organizer_console_needs_a_sign_in(app, http, key):
    page = http.get("/organizer")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "console-data" not in text and "organizer link" in text
    assert 'name="pin"' not in text  # no PIN is set: no PIN form
    hall_service(app).set_organizer_pin(PIN)
    assert 'name="pin"' in http.get("/organizer").get_data(as_text=True)
    assert http.get("/organizer?key=wrong").status_code == 403
    assert http.get("/api/events").status_code == 401


def test_organizer_link_signs_in_drops_the_key_and_sign_out_ends_it(app, http, key, event):
    signed = http.get(f"/organizer?key={key}")
    assert signed.status_code == 303 and signed.headers["Location"] == "/organizer"
    page = http.get("/organizer?lang=he").get_data(as_text=True)
    assert '<html lang="he" dir="rtl">' in page and key not in page
    data = json.loads(re.search(r'id="console-data">(.*?)</script>', page, re.S).group(1))
    assert data["events"] == [{"id": "1", "name": "Night"}] and not data["pin_set"]
    assert data["card_names"]["wheat_field"] == "שדה חיטה"  # the page's language
    for kind in ("join-cards", "setup-sheets", "score-sheets", "standings", "poster"):
        assert f'data-kind="{kind}"' in page
    assert http.get("/api/events").status_code == 200
    assert http.post("/organizer/signout").status_code == 303
    assert http.get("/api/events").status_code == 401


def test_organizer_console_names_are_text_not_markup(app, http, key):
    api(http, key, "post", "/api/events", {"name": "<b>x</b>"})
    http.get(f"/organizer?key={key}")
    page = http.get("/organizer").get_data(as_text=True)
    assert "<b>x</b>" not in page and "\\u003cb\\u003ex\\u003c/b\\u003e" in page


# ---------------------------------------------------------------- the live room


def test_organizer_socket_accepts_a_signed_in_browser(app, http, key, table):
    refused_client = socketio.test_client(app, auth={"organizer": True}, flask_test_client=http)
    assert not refused_client.is_connected()
    http.get(f"/organizer?key={key}")
    client = socketio.test_client(app, auth={"organizer": True}, flask_test_client=http)
    assert client.is_connected()
    views = [m["args"][0] for m in client.get_received() if m["name"] == "hall"]
    assert views and views[-1]["tables"][0]["name"] == "T1"
    api(http, key, "post", f"/api/tables/{table['id']}/rename", {"name": "Corner"})
    views = [m["args"][0] for m in client.get_received() if m["name"] == "hall"]
    assert views[-1]["tables"][0]["name"] == "Corner"
    assert "token" not in str(views[-1])
    client.disconnect()
    # `true` is not a key: a browser without the session cookie gets nothing.
    other = app.test_client()
    assert not socketio.test_client(app, auth={"organizer": True}, flask_test_client=other).is_connected()


@pytest.mark.parametrize("lang, direction, roll, sign_in", [
    ("en", "ltr", "Roll for the hall", "Open the organizer link"),
    ("nl", "ltr", "Werp voor de zaal", "Open de organisatorlink"),
    ("he", "rtl", "הטלה לכל האולם", "פתחו את קישור המארגן"),
])
def test_organizer_pages_in_each_language(http, key, lang, direction, roll, sign_in):
    signin = http.get(f"/organizer?lang={lang}").get_data(as_text=True)
    assert f'<html lang="{lang}" dir="{direction}">' in signin and sign_in in signin
    http.get(f"/organizer?key={key}")
    console = http.get(f"/organizer?lang={lang}").get_data(as_text=True)
    assert f'<html lang="{lang}" dir="{direction}">' in console and roll in console


def test_organizer_each_status_action_only_from_its_own_statuses(app, http, key, table):
    """Resume on a table still being set up used to start (and deal) it: one mis-click would
    start a game before all its players were added."""
    path = f"/api/tables/{table['id']}"
    before = journal_records(app)
    for action in ("resume", "pause"):
        refused(app, api(http, key, "post", f"{path}/{action}"), 409, "table/status")
    assert journal_records(app) == before
    start(http, key, table)
    before = journal_records(app)
    for action in ("start", "resume"):
        refused(app, api(http, key, "post", f"{path}/{action}"), 409, "table/status")
    assert journal_records(app) == before
    assert api(http, key, "post", f"{path}/pause").get_json()["status"] == "paused"
    refused(app, api(http, key, "post", f"{path}/start"), 409, "table/status")
    assert api(http, key, "post", f"{path}/resume").get_json()["status"] == "running"
    assert api(http, key, "post", f"{path}/end").get_json()["status"] == "ended"


def test_organizer_names_lose_control_and_bidi_override_characters(app, http, key, event):
    """A pasted list may carry a NUL, a tab or a right-to-left override (which would turn the
    text after a name around on every screen); names keep their letters, marks and emoji."""
    names = ["a\x00b", "\u202eDana\u202c", "Ron\tLevi\r\n", "\u05e8\u05d5\u05df\u200f", "👩‍👧 Mia"]
    table = api(http, key, "post", f"/api/events/{event['id']}/tables",
                {"name": "T\u2067\x07 9", "players": names[:4]}).get_json()
    assert table["name"] == "T 9"
    assert [seat["name"] for seat in table["seats"]] == ["a b", "Dana", "Ron Levi", names[3]]
    more = api(http, key, "post", f"/api/events/{event['id']}/tables",
               {"name": "T10", "players": [names[4], "Ann"]}).get_json()
    assert more["seats"][0]["name"] == "👩‍👧 Mia"
    before = journal_records(app)
    refused(app, api(http, key, "post", f"/api/events/{event['id']}/tables",
                     {"name": "\x00\u202e", "players": ["A", "B"]}), 400, "request/invalid")
    assert journal_records(app) == before


@pytest.mark.parametrize("invisible", ["\u200b", "\ufeff\u2060", " \u200e ", "\u00ad"])
def test_organizer_name_of_only_invisible_characters_is_no_name(app, http, key, event, invisible):
    """A zero-width space, a byte order mark, a word joiner, a direction mark or a soft hyphen
    shows nothing: a table or player named so would be a blank on every screen and card."""
    before = journal_records(app)
    refused(app, api(http, key, "post", f"/api/events/{event['id']}/tables",
                     {"name": invisible, "players": ["A", "B"]}), 400, "request/invalid")
    refused(app, api(http, key, "post", f"/api/events/{event['id']}/tables",
                     {"name": "T", "players": ["A", invisible]}), 400, "request/invalid")
    assert journal_records(app) == before


# ---------------------------------------------------------------- what the console offers (issue 16)


def console_data(client) -> dict:
    page = client.get("/organizer").get_data(as_text=True)
    return json.loads(re.search(r'id="console-data">(.*?)</script>', page, re.S).group(1))


@pytest.mark.parametrize(("config", "warned"), [
    ({"LISTEN_HOST": "127.0.0.1"}, True),  # serve --host 127.0.0.1: no phone reaches it
    ({"LISTEN_HOST": "127.0.0.1", "BASE_URL": "http://hall.lan:8080"}, False),  # a proxy's name
    ({"BASE_URL": "http://192.168.1.20:5000"}, False),
    ({"LISTEN_HOST": "::1"}, True),
])
def test_organizer_console_warns_when_phones_cannot_reach_the_address(tmp_path, config, warned):
    """Served on loopback, every QR, card and poster would carry http://127.0.0.1:PORT/, which
    no phone can open: the console says so at the top and beside the printouts with a QR."""
    from companion.web import create_app

    app = create_app({"DATABASE": str(tmp_path / "hall.db"), "TESTING": True, **config})
    try:
        client = app.test_client()
        client.get(f"/organizer?key={hall_service(app).organizer_key}")
        page = client.get("/organizer").get_data(as_text=True)
        data = console_data(client)
        assert data["phones_cannot_reach"] is warned
        assert ('id="reach-warning"' in page) is warned
        assert page.count('class="unreachable"') == (2 if warned else 0)  # join cards, poster
        if warned:
            assert "--host 0.0.0.0" in page and data["phone_base_url"] in page
    finally:
        hall_service(app).journal.close()


def test_organizer_console_lists_the_papers_of_each_printout_and_the_coop_range(app, http, key):
    http.get(f"/organizer?key={key}")
    data = console_data(http)
    assert data["papers"]["join-cards"] == ["a4", "letter"]  # card sheets: Avery A4 and Letter
    assert data["papers"]["poster"] == ["a4", "letter", "a3"]
    coins = data["ruleset_options"]["machi-koro-coop"][0]
    assert (coins["name"], coins["min"], coins["max"], coins["default"]) == ("assessor_coins", 8, 20, 13)
    variants = data["ruleset_options"]["machi-koro"]  # RULES.md 13-14, off by default
    assert [(o["name"], o["kind"], o["default"]) for o in variants] == [
        ("play_on", "bool", False), ("variable_supply", "bool", False)]
    assert '<option value="a3">A3</option>' in http.get("/organizer").get_data(as_text=True)


def test_organizer_seating_takes_the_coop_difficulty(app, http, key, event):
    """The co-op Tax Assessor's coins (the game's difficulty) for tables seated from a list, as
    for a table made alone; a bad value or a base-game table refuses the whole list."""
    path = f"/api/events/{event['id']}/seating"
    answer = api(http, key, "post", path, {"players": ["A", "B", "C", "D"],
                                           "ruleset": "machi-koro-coop", "assessor_coins": 17})
    assert answer.status_code == 201, answer.get_json()
    for made in answer.get_json()["tables"]:
        api(http, key, "post", f"/api/tables/{made['id']}/start")
        assert hall_service(app).tables[made["id"]].state.stake == 17
    before = journal_records(app)
    for body in ({"players": ["E", "F"], "ruleset": "machi-koro-coop", "assessor_coins": 30},
                 {"players": ["E", "F"], "assessor_coins": 10}):
        refused(app, api(http, key, "post", path, body), 400, "request/invalid")
    assert journal_records(app) == before


def test_organizer_seat_qr_is_the_seats_join_link_for_the_organizer_only(app, http, key, table):
    """The console shows a seat's QR on screen after "New link" (the old card stops working):
    an SVG drawn on the server, never cached (it carries the seat's token)."""
    from companion.web.pages import qr_svg

    path = f"/api/tables/{table['id']}/seats/1/qr.svg"
    answer = api(http, key, "get", path)
    assert answer.status_code == 200 and answer.mimetype == "image/svg+xml"
    assert answer.headers["Cache-Control"] == "no-store"
    seat = api(http, key, "get", f"/api/events/{table['event_id']}").get_json()["table_seats"][0]["seats"][1]
    assert answer.get_data(as_text=True) == qr_svg(seat["join_url"])
    assert api(http, None, "get", path).status_code == 401
    assert api(http, key, "get", f"/api/tables/{table['id']}/seats/7/qr.svg").status_code == 400
    assert api(http, key, "get", f"/api/tables/{table['id']}/seats/x/qr.svg").status_code == 400
    assert api(http, key, "get", "/api/tables/99/seats/0/qr.svg").status_code == 404
