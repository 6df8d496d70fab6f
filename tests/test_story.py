"""A story on real parts: a server in a subprocess on a real SQLite file, phones as
python-socketio clients. Ten hall rolls with fixed dice and some builds; before every roll the
position each phone shows is resolved by `companion resolve`, and after it every phone must
show exactly those coins."""

from __future__ import annotations

import json

import pytest
from conftest import run_companion
from serverproc import ServerProcess, http_json, organizer_key
from socket_phone import Phone

DICE = [(1, 2), (3, 3), (2, 5), (4, 4), (6, 1), (3, 2), (5, 5), (2, 2), (6, 6), (4, 3)]


def scenario_for(view: dict, dice: tuple[int, int]) -> dict:
    """The position a phone shows, written as a scenario (SCENARIOS.md) for the coming roll."""
    active = view["players"][view["active"]]
    return {
        "ruleset": "machi-koro",
        "players": [{"name": p["name"], "coins": p["coins"], "cards": p["cards"],
                     "landmarks": p["landmarks"]} for p in view["players"]],
        "active": view["active"],
        "dice": list(dice[: active["dice_count"]]),
    }


def build_something(phone: Phone, view: dict, request_id: str) -> dict:
    """The active player's build: a Train Station (then two dice) when they can, else a
    Wheat Field or a Cafe, else nothing."""
    me = view["players"][view["seat"]]
    buildable = {c["card"] for c in view["choices"] if c["kind"] == "build"}
    for card in ("train_station", "cafe", "wheat_field"):
        if card in buildable:
            view = phone.move(request_id, {"kind": "build", "card": card})
            if card == "train_station":
                view = phone.move(request_id + "-dice", {"kind": "dice_count", "count": 2})
            return view
    assert me["coins"] == 0 or not buildable
    return view


@pytest.mark.slow
def test_story_ten_hall_rolls_every_phone_shows_what_resolve_says(tmp_path):
    with ServerProcess(tmp_path / "story.db", log_path=tmp_path / "server.log") as server:
        server.start()
        key = organizer_key(server)
        status, event = http_json(f"{server.url}/api/events", method="POST", key=key,
                                  body={"name": "Story night"})
        assert status == 201
        tables = []
        for name, players in (("North", ["Avi", "Dana", "Noa"]), ("South", ["Sam", "Lotte", "יעל"])):
            status, table = http_json(f"{server.url}/api/events/{event['id']}/tables", method="POST",
                                      key=key, body={"name": name, "players": players,
                                                     "roll_mode": "hall"})
            assert status == 201
            assert http_json(f"{server.url}/api/tables/{table['id']}/start", method="POST",
                             key=key)[0] == 200
            tables.append(table)
        phones = [[Phone(server.url, seat["token"]) for seat in table["seats"]] for table in tables]
        try:
            seqs = [phones[t][0].wait_for(0)["seq"] for t in range(len(tables))]
            for number, dice in enumerate(DICE, start=1):
                expected = []
                for t, table_phones in enumerate(phones):
                    view = table_phones[0].wait_for(seqs[t])
                    if view["phase"] == "build":
                        active = table_phones[view["active"]]
                        view = build_something(active, active.wait_for(seqs[t]), f"b{number}-{t}")
                        view = active.move(f"e{number}-{t}", {"kind": "end_turn"})
                    assert view["phase"] == "roll"
                    outcome = run_companion("resolve", "-", stdin=json.dumps(scenario_for(view, dice)))
                    assert outcome.returncode == 0, outcome.stderr
                    expected.append(json.loads(outcome.stdout)["coins"])
                    seqs[t] = view["seq"]
                status, rolled = http_json(f"{server.url}/api/events/{event['id']}/roll",
                                           method="POST", key=key, body={"dice": list(dice)})
                assert status == 200 and rolled["dice"] == list(dice)
                for t, table_phones in enumerate(phones):
                    for phone in table_phones:
                        view = phone.wait_for(seqs[t] + 1)
                        shown = {p["name"]: p["coins"] for p in view["players"]}
                        assert shown == expected[t], (number, t, view["entries"])
                    seqs[t] = view["seq"]
        finally:
            for table_phones in phones:
                for phone in table_phones:
                    phone.client.disconnect()
