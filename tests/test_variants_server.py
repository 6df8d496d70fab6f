"""Seed 001's variants through the hall server (RULES.md 13-14): the API takes `play_on` and
`variable_supply` as the machi-koro ruleset's options and refuses bad ones, and a whole game
with both variants, played with the hall roll by four real python-socketio phones against a
served hall in a subprocess, goes on to the last place; its journal replays to the same views."""

from __future__ import annotations

import random

import pytest
from conftest import api
from serverproc import ServerProcess, http_json, organizer_key
from socket_phone import Phone
from test_server import journal_size

from companion.hall.model import HallEvent
from companion.hall.replay import rebuild_table
from companion.hall.views import seat_view
from companion.journal import SqliteJournal
from companion.rules.machi_koro.catalog import load_catalog

CATALOG = load_catalog()


@pytest.mark.parametrize(("body", "problem"), [
    ({"play_on": "yes"}, "play_on is true or false"),
    ({"variable_supply": 1}, "variable_supply is true or false"),
    ({"play_faster": True}, "takes no option play_faster"),
    ({"ruleset": "machi-koro-coop", "play_on": True}, "play_on"),
    ({"ruleset": "machi-koro-coop", "variable_supply": True}, "variable_supply"),
])
def test_variants_server_bad_options_are_refused_and_change_nothing(app, http, key, body, problem):
    event = api(http, key, "post", "/api/events", {"name": "Night"}).get_json()
    before = journal_size(app)
    answer = api(http, key, "post", f"/api/events/{event['id']}/tables",
                 {"name": "T", "players": ["A", "B"], **body})
    assert answer.status_code == 400, answer.get_json()
    assert problem in answer.get_json()["message"]
    assert journal_size(app) == before


def test_variants_server_the_deal_journals_the_draw_pile(app, http, key):
    event = api(http, key, "post", "/api/events", {"name": "Night"}).get_json()
    table = api(http, key, "post", f"/api/events/{event['id']}/tables",
                {"name": "T", "players": ["A", "B", "C"], "variable_supply": True}).get_json()
    assert api(http, key, "post", f"/api/tables/{table['id']}/start").status_code == 200
    journal = api(http, key, "get", f"/api/tables/{table['id']}/journal").get_json()
    kinds = [e["kind"] for e in journal[0]["events"]]
    assert journal[0]["author"] == "dealer" and kinds == ["SupplyDealt", "SupplyDrawn"]
    dealt = journal[0]["events"][0]["data"]
    assert sorted(dealt["removed"]) == ["business_center", "stadium", "tv_station"]


def choose(view: dict, rng: random.Random) -> dict | None:
    """A player in a hurry: landmarks first; None leaves the turn for the hall roll."""
    choices = view["choices"]
    if view["phase"] == "reroll":
        return {"kind": "keep"}
    if view["phase"] == "choose":
        return next(c for c in choices if c["kind"] in ("business_center", "tv_station"))
    if view["phase"] != "build":
        return None
    builds = [c for c in choices if c["kind"] == "build"]
    landmarks = [c for c in builds if c["card"] in CATALOG.landmarks]
    if landmarks:
        return landmarks[0]
    if builds and rng.random() < 0.6:
        return rng.choice(builds)
    return {"kind": "end_turn"} if rng.random() < 0.5 else None


@pytest.mark.slow
def test_variants_server_a_whole_play_on_game_to_the_last_place(tmp_path):
    rng = random.Random(13)
    db = tmp_path / "variants.db"
    names = ["Avi", "Ben", "Dana", "Eli"]
    with ServerProcess(db, log_path=tmp_path / "server.log") as server:
        server.start()
        key = organizer_key(server)
        event = http_json(f"{server.url}/api/events", method="POST", key=key,
                          body={"name": "Play on"})[1]
        status, table = http_json(f"{server.url}/api/events/{event['id']}/tables", method="POST",
                                  key=key, body={"name": "Four", "players": names,
                                                 "play_on": True, "variable_supply": True})
        assert status == 201, table
        assert http_json(f"{server.url}/api/tables/{table['id']}/start", method="POST",
                         key=key)[0] == 200
        phones = [Phone(server.url, seat["token"]) for seat in table["seats"]]
        try:
            view, moves, rolls, refused = phones[0].wait_for(0), 0, 0, 0
            while view["phase"] != "finished":
                assert rolls < 1500, "the game should have ended"
                assert view["players"][view["active"]]["place"] is None, "turns skip finished"
                for seat, player in enumerate(view["players"]):
                    if player["place"] is not None and refused < 3:  # a finished phone tries
                        ack = phones[seat].client.call("move", {
                            "request_id": f"f{refused}", "move": {"kind": "dice_count", "count": 1}})
                        assert not ack["ok"] and ack["code"] == "rule/finished", ack
                        refused += 1
                move = choose(phones[view["active"]].wait_for(view["seq"]), rng)
                if move is None:
                    dice = [rng.randint(1, 6), rng.randint(1, 6)]
                    assert http_json(f"{server.url}/api/events/{event['id']}/roll",
                                     method="POST", key=key, body={"dice": dice})[0] == 200
                    view = phones[0].wait_for(view["seq"] + 1)
                    rolls += 1
                else:
                    moves += 1
                    view = phones[view["active"]].move(f"m{moves}", move)
                view = phones[0].wait_for(view["seq"])
            final = [phone.wait_for(view["seq"]) for phone in phones]
            hall_view = http_json(f"{server.url}/api/events/{event['id']}", key=key)[1]
        finally:
            for phone in phones:
                phone.client.disconnect()
    assert refused >= 1
    places = [player["place"] for player in final[0]["players"]]
    assert sorted(places) == [1, 2, 3, 4]
    result = final[0]["result"]
    assert result["places"] == places
    assert result["outcomes"] == ["won" if place == 1 else "lost" for place in places]
    assert final[0]["winner"] == places.index(1)
    assert all(view["choices"] == [] for view in final)
    assert final[0]["variable_supply"] is True
    assert hall_view is not None
    with SqliteJournal(db) as journal:
        records = journal.read(f"table:{table['id']}")
    rebuilt = rebuild_table(records)
    for seat, shown in enumerate(final):
        expected = seat_view(rebuilt, seat, choice_seconds=HallEvent.choice_seconds)
        assert {**expected, "waited": None} == {**shown, "waited": None}
    assert rebuilt.state.total_coins() == CATALOG.bank_coins
