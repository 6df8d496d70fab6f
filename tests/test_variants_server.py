"""Seed 001's variants through the hall server (RULES.md 13-14): the API takes `play_on` and
`variable_supply` as the machi-koro ruleset's options and refuses bad ones, and a whole game
with both variants, played with the hall roll by four real python-socketio phones against a
served hall in a subprocess, goes on to the last place; its journal replays to the same views."""

from __future__ import annotations

import random

import pytest
from conftest import api
from served_game import phone_move, play_with_hall_rolls, replayed, start_table
from serverproc import ServerProcess, http_json, organizer_key
from test_server import journal_size

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
    return phone_move(view, rng, landmark=1.0, build=0.6, end=0.5)


@pytest.mark.slow
def test_variants_server_a_whole_play_on_game_to_the_last_place(tmp_path):
    rng = random.Random(13)
    db = tmp_path / "variants.db"
    names = ["Avi", "Ben", "Dana", "Eli"]
    refused = 0

    def pick(view: dict) -> dict | None:
        nonlocal refused
        assert view["players"][view["active"]]["place"] is None, "turns skip finished"
        for seat, player in enumerate(view["players"]):
            if player["place"] is not None and refused < 3:  # a finished phone tries
                ack = phones[seat].client.call("move", {
                    "request_id": f"f{refused}", "move": {"kind": "dice_count", "count": 1}})
                assert not ack["ok"] and ack["code"] == "rule/finished", ack
                refused += 1
        return choose(phones[view["active"]].wait_for(view["seq"]), rng)

    with ServerProcess(db, log_path=tmp_path / "server.log") as server:
        server.start()
        key = organizer_key(server)
        event, table, phones = start_table(server, key, "Play on", {
            "name": "Four", "players": names, "play_on": True, "variable_supply": True})
        try:
            final = play_with_hall_rolls(server, key, event["id"], phones, rng, pick,
                                         lambda view: view["phase"] == "finished", 1500)
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
    rebuilt = replayed(db, table["id"], final)
    assert rebuilt.state.total_coins() == CATALOG.bank_coins
