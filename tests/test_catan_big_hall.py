"""A whole big Catan event through the hall (DESIGN.md, issue 12), by the organizer's real HTTP
API and Socket.IO phones on a real SQLite file: seating from a list with registration numbers,
the chain of boards, the schedule, rolls and the turn message every phone gets (the same JSON,
encoded once), claims on and off turn, the staff's verification (never by a seat's token), a
tie between two claims of one turn decided by the cards in hand, the game over that stops the
rolls, the robbers' roll from turn 16, and a restart mid-turn that keeps the same turn and
deadline."""

from __future__ import annotations

import json
import time

import pytest
from conftest import api
from socket_phone import keep_test_views

from companion.hall.service import HallService
from companion.web import create_app, hall_service, socketio

WIN = {"settlements": 5, "cities": 8, "foreign_start_settlements": 2, "vp_cards": 0,
       "largest_army": False, "longest_road": False}  # 25 points
HAND = {"grain": 0, "ore": 0, "brick": 0, "wood": 0, "wool": 0}
PLAYERS = ["4, Avi", "2, Ben", "7, Cy", "1, Dana", "3, Eli", "9, Fay"]


@pytest.fixture
def event(http, key):
    """Three started boards seated from the list, with a schedule: (event id, tables)."""
    event = api(http, key, "post", "/api/events", {"name": "Catan night"}).get_json()
    seated = api(http, key, "post", f"/api/events/{event['id']}/seating",
                 {"players": PLAYERS, "ruleset": "catan-big", "name_prefix": "Board"})
    assert seated.status_code == 201, seated.get_json()
    tables = seated.get_json()["tables"]
    for table in tables:
        assert api(http, key, "post", f"/api/tables/{table['id']}/start").status_code == 200
    clock = api(http, key, "post", f"/api/events/{event['id']}/clock",
                {"schedule": [[1, 60], [11, 90]], "auto_roll": False})
    assert clock.status_code == 200
    return event["id"], tables


def phone(app, http, token):
    client = socketio.test_client(app, auth={"token": token}, flask_test_client=http)
    assert client.is_connected()
    return client


def received(client, name):
    return [m["args"][0] for m in client.get_received() if m["name"] == name]


def sent_turn(message):
    """A `turn` message without the server's clock it carries (`now_ms`): the hall view's."""
    return {name: value for name, value in message.items() if name != "now_ms"}


def move(client, request_id, **wire):
    return client.emit("move", {"request_id": request_id, "move": wire}, callback=True)


def roll(http, key, event_id, dice, **body):
    answer = api(http, key, "post", f"/api/events/{event_id}/roll", {"dice": dice, **body})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def staff(http, key, table_id, **wire):
    return api(http, key, "post", f"/api/tables/{table_id}/staff_move", {"move": wire})


def hall_view(http, key, event_id):
    return api(http, key, "get", f"/api/events/{event_id}").get_json()


def test_catan_big_hall_seats_boards_of_two_in_a_chain_with_registration(app, http, key, event):
    event_id, tables = event
    assert [[s["name"] for s in t["seats"]] for t in tables] == [
        ["Avi", "Ben"], ["Cy", "Dana"], ["Eli", "Fay"]]
    view = phone(app, http, tables[1]["seats"][0]["token"])
    seat = received(view, "view")[-1]
    assert seat["neighbours"] == ["Board 1", "Board 3"]
    assert [p["registered"] for p in seat["players"]] == [7, 1]
    assert [p["role"] for p in seat["players"]] == ["sun", "moon"]
    odd = api(http, key, "post", f"/api/events/{event_id}/seating",
              {"players": ["A", "B", "C"], "ruleset": "catan-big"})
    assert odd.status_code == 400 and odd.get_json()["code"] == "request/invalid"


def test_catan_big_hall_every_phone_gets_the_same_turn(app, http, key, event):
    event_id, tables = event
    phones = [phone(app, http, s["token"]) for t in tables for s in t["seats"]]
    for client in phones:
        assert received(client, "turn") == []  # no roll yet
    answer = roll(http, key, event_id, [2, 4])
    assert answer["tables"] == []  # a roll changes no board: the turn is the event's
    turns = [received(client, "turn") for client in phones]
    assert all(len(got) == 1 and got[0] == turns[0][0] for got in turns)
    turn = turns[0][0]
    assert turn["number"] == 1 and turn["dice"] == [2, 4] and turn["seconds"] == 60
    assert turn["rules"] == {"catan-big": {"team": "sun", "discard": False, "robber": None}}
    assert turn["deadline_ms"] > 0 and turn["paused"] is False
    # the hall view's turn, and the server's clock as it was sent (a phone counts by it)
    assert hall_view(http, key, event_id)["turn"] == sent_turn(turn)
    assert abs(turn["now_ms"] - time.time() * 1000) < 60_000


def test_catan_big_hall_a_seven_pauses_and_the_robbers_roll_from_turn_16(app, http, key, event):
    event_id, _ = event
    answer = roll(http, key, event_id, [3, 4])
    assert answer["paused"] is True and answer["follow_up"] == []
    turn = hall_view(http, key, event_id)["turn"]
    assert turn["paused"] is True and turn["remaining_ms"] == 60_000
    assert turn["rules"]["catan-big"] == {"team": "sun", "discard": True,
                                          "robber": {"action": "stay"}}
    for _ in range(14):
        roll(http, key, event_id, [1, 1])
    sixteen = roll(http, key, event_id, [6, 1], follow_up=[4, 5])
    assert sixteen["roll"] == 16 and sixteen["follow_up"] == [4, 5]
    assert hall_view(http, key, event_id)["turn"]["rules"]["catan-big"] == {
        "team": "moon", "discard": True, "robber": {"action": "move", "number": 9}}
    api(http, key, "post", f"/api/events/{event_id}/resume")
    drawn = roll(http, key, event_id, [5, 2])  # turn 17: the server draws the robbers' roll
    assert len(drawn["follow_up"]) == 2
    bad = api(http, key, "post", f"/api/events/{event_id}/roll",
              {"dice": [5, 2], "follow_up": [0, 7]})
    assert bad.status_code == 400 and "follow_up" in bad.get_json()["message"]


def test_catan_big_hall_claims_verification_a_tie_and_the_game_over(app, http, key, event):
    event_id, tables = event
    avi, ben = (phone(app, http, s["token"]) for s in tables[0]["seats"])
    cy = phone(app, http, tables[1]["seats"][0]["token"])
    assert move(avi, "early", kind="claim", breakdown=WIN)["code"] == "catan/not_started"
    roll(http, key, event_id, [2, 4])  # turn 1: the sun team's
    assert move(ben, "off", kind="claim", breakdown=WIN)["code"] == "rule/not_your_turn"
    assert move(avi, "c1", kind="claim", breakdown=WIN)["ok"]
    assert move(cy, "c2", kind="claim", breakdown=WIN)["ok"]
    assert move(avi, "c3", kind="claim", breakdown=WIN)["code"] == "catan/claim_pending"

    # a seat's token can never make a staff move
    token = tables[0]["seats"][0]["token"]
    as_seat = http.post(f"/api/tables/{tables[0]['id']}/staff_move",
                        json={"move": {"kind": "verify", "seat": 0, "resources": HAND}},
                        headers={"Authorization": f"Bearer {token}"})
    assert as_seat.status_code == 401
    assert staff(http, key, tables[0]["id"], kind="verify", seat=1,
                 resources=HAND).get_json()["code"] == "catan/no_claim"

    assert staff(http, key, tables[0]["id"], kind="verify", seat=0,
                 resources={**HAND, "ore": 2}).status_code == 200
    assert staff(http, key, tables[1]["id"], kind="verify", seat=0,
                 resources={**HAND, "grain": 3}).status_code == 200
    games = hall_view(http, key, event_id)["games"]["catan-big"]
    assert [c["name"] for c in games["verified"]] == ["Avi", "Cy"] and games["over"] is False

    over = api(http, key, "post", f"/api/events/{event_id}/roll", {"dice": [1, 2]})
    assert over.status_code == 409 and over.get_json()["code"] == "event/over"
    view = hall_view(http, key, event_id)
    assert view["turn"]["over"] is True and view["turn"]["number"] == 1
    games = view["games"]["catan-big"]
    assert games["over"] is True
    assert games["winner"]["name"] == "Cy" and games["winner"]["decided_by"] == "resources"
    assert [row["name"] for row in games["standings"]][:2] == ["Cy", "Avi"]
    # every board learnt that the game is over: a claim is refused, a final breakdown taken
    assert received(avi, "turn")[-1]["over"] is True
    assert move(ben, "late", kind="claim", breakdown=WIN)["code"] == "rule/game_over"
    assert move(ben, "final", kind="final", breakdown={**WIN, "cities": 3}, resources=HAND)["ok"]
    again = api(http, key, "post", f"/api/events/{event_id}/roll", {"dice": [1, 2]})
    assert again.get_json()["code"] == "event/over"


def test_catan_big_hall_staff_move_refusals_are_4xx_and_change_nothing(app, http, key, event):
    event_id, tables = event
    table_id = tables[0]["id"]
    journal = hall_service(app).journal
    before = journal.last_seq(f"table:{table_id}")
    for wire in ({"kind": "verify", "seat": 5, "resources": HAND}, {"kind": "claim"},
                 {"kind": "reject", "seat": 0, "reason": ""}, {"kind": "what"}, "verify", None):
        answer = api(http, key, "post", f"/api/tables/{table_id}/staff_move", {"move": wire})
        assert 400 <= answer.status_code < 500, (wire, answer.get_json())
        assert answer.get_json()["ok"] is False
    assert journal.last_seq(f"table:{table_id}") == before
    assert api(http, key, "post", f"/api/tables/{table_id}/adjust",
               {"seat": 0, "amount": 1, "reason": "x"}).status_code in (400, 409)


def test_catan_big_hall_a_restart_mid_turn_keeps_the_turn_and_the_deadline(app, http, key, event,
                                                                         tmp_path):
    event_id, tables = event
    roll(http, key, event_id, [2, 4])
    roll(http, key, event_id, [5, 5])
    avi = phone(app, http, tables[0]["seats"][1]["token"])
    assert move(avi, "c1", kind="claim", breakdown=WIN)["ok"]  # turn 2: the moon team's
    before = hall_view(http, key, event_id)
    hall_service(app).journal.close()

    again = create_app({"DATABASE": str(tmp_path / "hall.db"), "TESTING": True})
    try:
        client = again.test_client()
        key = hall_service(again).organizer_key
        after = api(client, key, "get", f"/api/events/{event_id}").get_json()
        assert after["turn"] == before["turn"] and after["turn"]["deadline_ms"] is not None
        assert after["games"] == before["games"]
        moon = socketio.test_client(again, auth={"token": tables[1]["seats"][1]["token"]},
                                    flask_test_client=client)
        assert sent_turn(received(moon, "turn")[-1]) == before["turn"]
        assert moon.emit("move", {"request_id": "c2", "move": {"kind": "claim", "breakdown": WIN}},
                         callback=True)["ok"]
    finally:
        hall_service(again).journal.close()


def test_ruling_21_the_production_window_is_the_schedules_and_the_staff_end_it_early(
        app, http, key, event, tmp_path):
    """Issue 27 (6): a turn opens with production (RULES.md 21), 20 s by default or a step's
    third number; the organizer ends it early for the whole hall: a journalled record every
    phone's `turn` follows, replayed after a restart, undone with its roll."""
    event_id, tables = event
    avi = phone(app, http, tables[0]["seats"][0]["token"])
    early = api(http, key, "post", f"/api/events/{event_id}/production/end")
    assert early.status_code == 409 and early.get_json()["code"] == "event/not_started"
    roll(http, key, event_id, [2, 4])
    turn = hall_view(http, key, event_id)["turn"]
    assert (turn["production_seconds"], turn["production_ended"]) == (20, False)
    clock = api(http, key, "post", f"/api/events/{event_id}/clock",
                {"schedule": [[1, 60, 30], [11, 90]]})
    assert clock.get_json()["schedule"] == [[1, 60, 30], [11, 90]]
    assert clock.get_json()["turn"]["production_seconds"] == 30
    bad = api(http, key, "post", f"/api/events/{event_id}/clock", {"schedule": [[1, 60, 61]]})
    assert bad.status_code == 400 and bad.get_json()["message"].startswith("schedule[0][2]")

    ended = api(http, key, "post", f"/api/events/{event_id}/production/end")
    assert ended.status_code == 200, ended.get_json()
    assert ended.get_json()["turn"]["production_ended"] is True
    assert ended.get_json()["turn"]["production_seconds"] == 0
    assert received(avi, "turn")[-1]["production_ended"] is True  # every phone follows
    again = api(http, key, "post", f"/api/events/{event_id}/production/end")
    assert again.get_json()["code"] == "event/production_ended"
    records = [r.kind for r in hall_service(app).journal.read(f"event:{event_id}")]
    assert "production_ended" in records

    before = hall_view(http, key, event_id)["turn"]
    hall_service(app).journal.close()
    restarted = create_app({"DATABASE": str(tmp_path / "hall.db"), "TESTING": True})
    try:
        client = restarted.test_client()
        key2 = hall_service(restarted).organizer_key
        after = api(client, key2, "get", f"/api/events/{event_id}").get_json()["turn"]
        assert after == before and after["production_ended"] is True
        roll(client, key2, event_id, [5, 5])  # the next turn opens with its production again
        turn = api(client, key2, "get", f"/api/events/{event_id}").get_json()["turn"]
        assert (turn["production_seconds"], turn["production_ended"]) == (30, False)
    finally:
        hall_service(restarted).journal.close()


def test_catan_big_hall_undo_right_after_a_roll_and_refused_after_a_claim(app, http, key, event):
    """RULES.md 21, 23: a roll moves no board, so the undo asks the boards' journals: nothing
    since the roll, the turn goes back; a claim of the turn refuses it and changes nothing."""
    event_id, tables = event
    roll(http, key, event_id, [2, 4])
    roll(http, key, event_id, [5, 5])
    undone = api(http, key, "post", f"/api/events/{event_id}/roll/undo")
    assert undone.status_code == 200 and undone.get_json()["roll"] == 2
    assert hall_view(http, key, event_id)["turn"]["number"] == 1
    roll(http, key, event_id, [5, 5])
    roll(http, key, event_id, [2, 3])  # turn 3, the Sun team's
    sun = phone(app, http, tables[0]["seats"][0]["token"])
    win = {"settlements": 5, "cities": 8, "foreign_start_settlements": 2, "vp_cards": 0,
           "largest_army": False, "longest_road": False}
    assert move(sun, "claim-1", kind="claim", breakdown=win)["ok"] is True
    before = hall_view(http, key, event_id)
    refused = api(http, key, "post", f"/api/events/{event_id}/roll/undo")
    assert refused.status_code == 409 and refused.get_json()["code"] == "roll/moved_on"
    assert tables[0]["name"] in refused.get_json()["message"]
    after = hall_view(http, key, event_id)
    assert after["turn"] == before["turn"] and after["games"] == before["games"]


def test_catan_big_hall_undo_after_tracked_points_and_a_correction(app, http, key, event):
    """Phones keep their points trackers up all the time (a thousand of them: there is always a
    track since the roll), and a tracker means the same in any turn: tracks and the staff's
    corrections since the roll leave it undoable (they stay, the turn goes back); a claim of
    the turn, or an undone one, still refuses the undo."""
    event_id, tables = event
    avi, ben = (phone(app, http, s["token"]) for s in tables[0]["seats"])
    roll(http, key, event_id, [2, 4])
    roll(http, key, event_id, [5, 5])  # turn 2, the Moon team's
    assert move(avi, "t1", kind="track", breakdown={**WIN, "cities": 2})["ok"]
    assert staff(http, key, tables[1]["id"], kind="correct", seat=1, breakdown=WIN,
                 reason="Counted at the board").status_code == 200
    undone = api(http, key, "post", f"/api/events/{event_id}/roll/undo")
    assert undone.status_code == 200, undone.get_json()
    view = hall_view(http, key, event_id)
    assert view["turn"]["number"] == 1
    assert [t["points"] for t in view["tables"][:2]] == [[13, 4], [4, 25]]  # tracks stay; untouched: 4
    roll(http, key, event_id, [5, 5])  # turn 2 again
    assert move(ben, "c1", kind="claim", breakdown=WIN)["ok"]
    refused = api(http, key, "post", f"/api/events/{event_id}/roll/undo")
    assert refused.get_json()["code"] == "roll/moved_on"


def test_catan_big_hall_undoing_a_seven_lifts_the_rules_pause_not_the_organizers(
        app, http, key, event):
    """The discard check of a 7 taken back never happens: the turn back runs again; a pause the
    organizer made before the roll is the organizer's and stays (RULES.md 22)."""
    event_id, _ = event
    roll(http, key, event_id, [2, 4])
    assert roll(http, key, event_id, [3, 4])["paused"] is True  # the rules' pause after a 7
    assert api(http, key, "post", f"/api/events/{event_id}/roll/undo").status_code == 200
    turn = hall_view(http, key, event_id)["turn"]
    assert (turn["number"], turn["paused"], turn["deadline_ms"] is not None) == (1, False, True)
    assert api(http, key, "post", f"/api/events/{event_id}/pause").status_code == 200
    roll(http, key, event_id, [1, 1])  # a roll while paused starts its turn running
    assert api(http, key, "post", f"/api/events/{event_id}/pause").status_code == 200
    assert api(http, key, "post", f"/api/events/{event_id}/roll/undo").status_code == 200
    assert hall_view(http, key, event_id)["turn"]["paused"] is True  # the organizer's pause


def test_catan_big_hall_the_pasted_list_sets_each_boards_letter_and_colours(app, http, key):
    """Issue 27 (5): one pasted line per board sets its letter and colours (`table_options`,
    in board order, over the common options); a refused line creates no board."""
    event = api(http, key, "post", "/api/events", {"name": "Catan night"}).get_json()
    path = f"/api/events/{event['id']}/seating"
    base = {"players": PLAYERS, "ruleset": "catan-big", "name_prefix": "Board"}
    for bad in ([{"letter": "D"}], [{}, {"sun_colour": "blue"}], [{}, {}, {}, {}], {"letter": "B"},
                ["B"]):
        refused = api(http, key, "post", path, {**base, "table_options": bad})
        assert refused.status_code == 400, (bad, refused.get_json())
    assert "table 2" in api(http, key, "post", path, {
        **base, "table_options": [{}, {"sun_colour": "blue"}]}).get_json()["message"]
    assert api(http, key, "get", f"/api/events/{event['id']}").get_json()["tables"] == []
    lines = [{"letter": "B", "sun_colour": "white", "moon_colour": "orange"}, {"letter": "C"}]
    tables = api(http, key, "post", path, {**base, "table_options": lines}).get_json()["tables"]
    options = [t["options"] for t in tables]
    assert options == [{"letter": "B", "sun_colour": "white", "moon_colour": "orange"},
                       {"letter": "C", "sun_colour": "red", "moon_colour": "blue"},
                       {"letter": "A", "sun_colour": "red", "moon_colour": "blue"}]
    again = HallService(hall_service(app).journal)
    assert [again.tables[t["id"]].options["letter"] for t in tables] == ["B", "C", "A"]


def test_catan_big_hall_each_board_gets_its_letter_before_the_start(app, http, key):
    """RULES.md 20: boards of types A, B and C in a chain. Seated from one list, every board
    has the same options; each is set on its own before the start (journalled: a restart
    keeps it), checked by the ruleset like at creation, and refused once started."""
    event = api(http, key, "post", "/api/events", {"name": "Catan night"}).get_json()
    tables = api(http, key, "post", f"/api/events/{event['id']}/seating",
                 {"players": PLAYERS, "ruleset": "catan-big", "name_prefix": "Board"}
                 ).get_json()["tables"]
    second = tables[1]["id"]
    answer = api(http, key, "post", f"/api/tables/{second}/options", {"options": {"letter": "B"}})
    assert answer.status_code == 200 and answer.get_json()["options"]["letter"] == "B"
    assert answer.get_json()["options"]["sun_colour"] == tables[1]["options"]["sun_colour"]
    for bad in ({"letter": "D"}, {"moon_colour": "red"}, {"wheels": 3}):  # red is the Sun's
        refused = api(http, key, "post", f"/api/tables/{second}/options", {"options": bad})
        assert refused.status_code == 400, bad
    assert api(http, key, "post", f"/api/tables/{second}/options",
               {"options": "B"}).status_code == 400
    again = HallService(hall_service(app).journal)
    assert again.tables[second].options["letter"] == "B"
    assert again.tables[tables[0]["id"]].options["letter"] == "A"
    assert api(http, key, "post", f"/api/tables/{second}/start").status_code == 200
    started = api(http, key, "post", f"/api/tables/{second}/options", {"options": {"letter": "C"}})
    assert started.status_code == 409 and started.get_json()["code"] == "table/started"


def test_catan_big_hall_export_has_the_boards_columns(app, http, key, event):
    """The results export names a ruleset's own columns: a Catan event's breakdown, points and
    cards in hand, not Machi Koro's coins and landmarks."""
    event_id, _ = event
    text = api(http, key, "get", f"/api/events/{event_id}/export?format=csv").get_data()
    header = text.decode("utf-8-sig").splitlines()[0].split(",")
    assert header[:3] == ["table", "seat", "player"] and header[-2:] == ["winner", "result"]
    assert "points" in header and "grain" in header and "coins" not in header
    assert header[3] == "registered" and "place" in header  # issue 26, item 8
    rows = api(http, key, "get", f"/api/events/{event_id}/export").get_json()["results"]
    assert len(rows) == 6 and all(row["points"] == 4 for row in rows)  # RULES.md 24


def test_catan_big_hall_results_csv_has_the_registration_and_the_place_in_the_event(
        app, http, key, event):
    """Issue 27 (8): the results name each player's registration number and place in the
    event (RULES.md 24: the winner first, then by points), not only the place at the board."""
    event_id, tables = event
    cy = phone(app, http, tables[1]["seats"][0]["token"])
    roll(http, key, event_id, [2, 4])
    assert move(cy, "c1", kind="claim", breakdown=WIN)["ok"]
    assert staff(http, key, tables[1]["id"], kind="verify", seat=0, resources=HAND).status_code == 200
    over = api(http, key, "post", f"/api/events/{event_id}/roll", {"dice": [1, 2]})
    assert over.get_json()["code"] == "event/over"
    text = api(http, key, "get", f"/api/events/{event_id}/export?format=csv").get_data()
    lines = text.decode("utf-8-sig").splitlines()
    header = lines[0].split(",")
    assert header[:4] == ["table", "seat", "player", "registered"]
    assert header[-3:] == ["place", "winner", "result"]
    rows = {row[2]: dict(zip(header, row, strict=True))
            for row in (line.split(",") for line in lines[1:])}
    assert (rows["Cy"]["registered"], rows["Cy"]["place"], rows["Cy"]["winner"]) == \
        ("7", "1", "yes")
    # everyone else at 4 points (RULES.md 24), then the earlier registration: Dana (1) is 2nd
    assert rows["Dana"]["place"] == "2" and rows["Fay"]["place"] == "6"


def test_ruling_23_a_claim_waiting_for_the_staff_holds_the_turn(app, http, key, event):
    """RULES.md 23: staff verify claims during the turn and the game ends at the end of the
    turn in which one is verified; so the turn cannot end (neither the organizer's roll nor the
    timer's) while a claim of it waits, and a second claim of the turn is judged, not dropped."""
    event_id, tables = event
    avi = phone(app, http, tables[0]["seats"][0]["token"])
    cy = phone(app, http, tables[1]["seats"][0]["token"])
    roll(http, key, event_id, [2, 4])  # turn 1: the sun team's
    assert move(avi, "c1", kind="claim", breakdown=WIN)["ok"]
    assert move(cy, "c2", kind="claim", breakdown={**WIN, "vp_cards": 2})["ok"]  # 27 points
    assert staff(http, key, tables[0]["id"], kind="verify", seat=0, resources=HAND).status_code == 200
    journal = hall_service(app).journal
    before = journal.last_seq(f"event:{event_id}")

    held = api(http, key, "post", f"/api/events/{event_id}/roll", {"dice": [1, 2]})
    assert held.status_code == 409 and held.get_json()["code"] == "catan/claims_pending"
    assert "Cy" in held.get_json()["message"]
    api(http, key, "post", f"/api/events/{event_id}/clock", {"auto_roll": True})
    assert hall_service(app).roll_when_due(now=time.time() + 10_000) == []  # the timer waits
    # the organizer's held roll closed the turn (once), then the auto-roll's switch: no roll
    assert [r.kind for r in journal.read(f"event:{event_id}", before)] == ["turn_closing", "clock"]
    assert hall_view(http, key, event_id)["turn"]["number"] == 1

    assert staff(http, key, tables[1]["id"], kind="verify", seat=0, resources=HAND).status_code == 200
    over = api(http, key, "post", f"/api/events/{event_id}/roll", {"dice": [1, 2]})
    assert over.get_json()["code"] == "event/over"
    winner = hall_view(http, key, event_id)["games"]["catan-big"]["winner"]
    assert winner["name"] == "Cy" and winner["decided_by"] == "points"


def test_ruling_23_a_rejected_claim_lets_the_turn_end(app, http, key, event):
    event_id, tables = event
    avi = phone(app, http, tables[0]["seats"][0]["token"])
    roll(http, key, event_id, [2, 4])
    assert move(avi, "c1", kind="claim", breakdown=WIN)["ok"]
    assert api(http, key, "post", f"/api/events/{event_id}/roll",
               {"dice": [1, 2]}).get_json()["code"] == "catan/claims_pending"
    assert staff(http, key, tables[0]["id"], kind="reject", seat=0,
                 reason="only 4 cities on the board").status_code == 200
    assert roll(http, key, event_id, [1, 2])["roll"] == 2
    assert hall_view(http, key, event_id)["turn"]["number"] == 2


def test_ruling_21_23_the_organizers_held_roll_closes_the_turn_to_new_claims(app, http, key, event):
    """Once the organizer asked for the next roll and a claim held it, the turn takes no new
    claim (it would hold the hall again: review 9); the next turn takes claims again."""
    event_id, tables = event
    avi, ben = (phone(app, http, s["token"]) for s in tables[0]["seats"])
    cy = phone(app, http, tables[1]["seats"][0]["token"])
    roll(http, key, event_id, [2, 4])
    assert move(avi, "c1", kind="claim", breakdown=WIN)["ok"]
    journal = hall_service(app).journal
    before = journal.last_seq(f"event:{event_id}")
    for _ in range(2):
        held = api(http, key, "post", f"/api/events/{event_id}/roll", {"dice": [1, 2]})
        assert held.get_json()["code"] == "catan/claims_pending"
    assert [r.kind for r in journal.read(f"event:{event_id}", before)] == ["turn_closing"]
    assert move(cy, "c2", kind="claim", breakdown=WIN)["code"] == "catan/turn_closing"
    assert move(cy, "t2", kind="track", breakdown=WIN)["ok"]
    assert staff(http, key, tables[0]["id"], kind="reject", seat=0, reason="4 cities").status_code == 200
    assert move(avi, "c3", kind="claim", breakdown=WIN)["code"] == "catan/turn_closing"
    assert roll(http, key, event_id, [1, 2])["roll"] == 2
    assert move(ben, "c4", kind="claim", breakdown=WIN)["ok"]  # turn 2, the Moon team's


def test_ruling_21_no_claim_once_the_turns_time_is_up(app, http, key, event):
    """RULES.md 21: trade and build until the time is up; a claim after it is refused, so no
    claim holds the timer's roll past the turn's end (review 9)."""
    event_id, tables = event
    avi = phone(app, http, tables[0]["seats"][0]["token"])
    roll(http, key, event_id, [2, 4])
    hall_service(app).events[event_id].turn_started -= 61  # the 60 s of turn 1 are up
    assert move(avi, "late", kind="claim", breakdown=WIN)["code"] == "catan/turn_closing"
    assert move(avi, "track", kind="track", breakdown=WIN)["ok"]


def test_catan_big_hall_a_boards_change_keeps_each_seats_tracker_to_that_seat(app, http, key, event):
    """A seat's view holds its points tracker, victory point cards included, which the other
    seat may not see (`Ruleset.private_seats`): the board's `table` message goes to each seat
    with its own part alone, and the phone applied it has the seat's whole view."""
    _, tables = event
    sun_token, moon_token = (seat["token"] for seat in tables[0]["seats"])
    sun, moon = phone(app, http, sun_token), keep_test_views(phone(app, http, moon_token))
    moon.get_received()
    secret = {**WIN, "settlements": 2, "cities": 3, "vp_cards": 4}
    assert move(sun, "t1", kind="track", breakdown=secret)["ok"]
    messages = received(moon, "table")
    assert messages and all(m["seats"][0] is None for m in messages), "the sun's part stays home"
    assert "vp_cards\":[4]" not in json.dumps(messages, separators=(",", ":"))
    held = moon.keeper.view
    fresh = received(phone(app, http, moon_token), "view")[-1]
    assert {k: v for k, v in held.items() if k != "waited"} == {
        k: v for k, v in fresh.items() if k != "waited"}
    assert held["players"][0]["points"] == 2 + 2 * 3 + 2 * 2 + 4, "the total is the board's"
