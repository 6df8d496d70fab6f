"""The co-op Tax Assessor game through the hall server: the organizer API's `ruleset` and
`assessor_coins`, the dealer's shuffle in the journal, `give_assessor` and `build` over
Socket.IO, the co-op view fields, and a whole game by two real python-socketio clients
against a served hall in a subprocess, its journal replayed to the same views."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from conftest import api
from served_game import phone_move, play_with_hall_rolls, replayed, start_table
from serverproc import ServerProcess, organizer_key
from test_server import journal_size, last_view, move, phone

from companion.hall.views import seat_view
from companion.rules.coop.state import assessor_cards, market_cards
from companion.rules.machi_koro.catalog import load_catalog
from companion.web import create_app, hall_service

CATALOG = load_catalog()
COOP = "machi-koro-coop"


def coop_table(http, key, roll_mode="own", **extra):
    event = api(http, key, "post", "/api/events", {"name": "Co-op night"}).get_json()
    answer = api(http, key, "post", f"/api/events/{event['id']}/tables",
                 {"name": "Pair", "players": ["Ana", "Ben"], "ruleset": COOP,
                  "roll_mode": roll_mode, **extra})
    assert answer.status_code == 201, answer.get_json()
    table = answer.get_json()
    assert api(http, key, "post", f"/api/tables/{table['id']}/start").status_code == 200
    return event, table


@pytest.mark.parametrize(("body", "problem"), [
    ({"players": ["A", "B", "C"]}, "exactly 2"),
    ({"players": ["A", "B"], "assessor_coins": 7}, "8 to 20"),
    ({"players": ["A", "B"], "assessor_coins": "many"}, "8 to 20"),
    ({"players": ["A", "B"], "ruleset": "machi-koro", "assessor_coins": 13}, "no option assessor_coins"),
    ({"players": ["A", "B"], "ruleset": "monopoly"}, "ruleset"),
])
def test_coop_server_bad_tables_are_refused_and_change_nothing(app, http, key, body, problem):
    event = api(http, key, "post", "/api/events", {"name": "Night"}).get_json()
    before = journal_size(app)
    answer = api(http, key, "post", f"/api/events/{event['id']}/tables",
                 {"name": "T", "ruleset": COOP, **body})
    assert answer.status_code == 400 and problem in answer.get_json()["message"]
    assert journal_size(app) == before


def test_coop_server_start_deals_with_the_order_in_the_journal(app, http, key):
    _, table = coop_table(http, key, assessor_coins=9)
    journal = api(http, key, "get", f"/api/tables/{table['id']}/journal").get_json()
    assert [m["author"] for m in journal] == ["dealer"]
    kinds = [e["kind"] for e in journal[0]["events"]]
    assert kinds[:2] == ["AssessorCoinsTransferred", "DecksShuffled"]
    assert kinds[2:] == ["MarketCardRevealed"] * 4
    decks = journal[0]["events"][1]["data"]
    assert Counter(decks["market"]) == Counter(market_cards(CATALOG))
    assert Counter(decks["assessor"]) == Counter(assessor_cards())
    assert journal[0]["events"][0]["data"]["amount"] == 9
    undo = api(http, key, "post", f"/api/tables/{table['id']}/undo")
    assert undo.status_code == 409 and undo.get_json()["code"] == "table/nothing_to_undo"


def test_coop_server_views_gifts_and_market_buys(app, http, key):
    event, table = coop_table(http, key)
    ana, ben = (phone(app, http, seat["token"]) for seat in table["seats"])
    view = last_view(ana)
    coop = view["coop"]
    assert len(coop["market"]["row"]) == 4 and coop["market"]["deck"] == 71 - 4
    assert coop["assessor"] == {"coins": 13, "stake": 13, "deck": 17, "discards": 0,
                                "assessed": [], "sought": 1}
    assert coop["outcome"] is None and coop["last_assessor_turn"] is None
    assert {"kind": "give_assessor", "max": 3} in view["choices"]
    assert not any(c["kind"] == "give_assessor" for c in last_view(ben)["choices"])
    refused = move(ben, "give_assessor", "b1", amount=1)
    assert refused["code"] == "rule/not_your_turn"
    ack = move(ana, "give_assessor", "a1", amount=2)
    assert ack["ok"] and ack["view"]["coop"]["assessor"]["coins"] == 15
    assert ack["view"]["coop"]["assessor_entries"][-1]["kind"] == "gift"
    assert move(ana, "give_assessor", "a2", amount=5)["code"] == "rule/cannot_afford"
    rolled = move(ana, "roll", "a3")
    assert rolled["ok"]
    view = rolled["view"]  # the mover's one view of its move is the ack's
    row = view["coop"]["market"]["row"]
    buyable = [c["card"] for c in view["choices"] if c["kind"] == "build"]
    assert set(buyable) - set(CATALOG.landmarks) <= set(row)
    missing = next(c for c in CATALOG.establishments if c not in row)
    assert move(ana, "build", "a4", card=missing)["code"] == "rule/sold_out"
    ended = move(ana, "end_turn", "a5")["view"]
    assert ended["coop"]["market"]["row"][1:] == row[:3], "the rightmost card went"
    assert ended["coop"]["market"]["discards"] == 1 and ended["active"] == 1
    ana.disconnect()
    ben.disconnect()


def test_coop_server_hall_roll_closes_turns_and_the_assessor_plays(app, http, key):
    event, table = coop_table(http, key, roll_mode="hall")
    for dice in ([5, 1], [5, 1], [5, 1]):
        assert api(http, key, "post", f"/api/events/{event['id']}/roll", {"dice": dice}).status_code == 200
    hall = api(http, key, "get", f"/api/events/{event['id']}").get_json()
    summary = hall["tables"][0]
    assert summary["coop"]["last_assessor_turn"]["steps"][0]["step"] == "draw"
    assert summary["coop"]["market"]["discards"] == 2, "two turns without a buy"
    restarted = create_app({"DATABASE": app.config["DATABASE"], "TESTING": True})
    try:
        again = hall_service(restarted).tables[table["id"]]
        live = hall_service(app).tables[table["id"]]
        assert again.state == live.state
        for seat in (0, 1):
            assert {**seat_view(again, seat), "waited": None} == {
                **seat_view(live, seat), "waited": None}
    finally:
        hall_service(restarted).journal.close()


# ---------------------------------------------------------------- a whole game, served


def choose(view: dict, rng: random.Random) -> dict | None:
    """A careful pair's move: keep the assessor able to pay, build landmarks first; None
    leaves the turn for the hall roll to close."""
    kinds = {c["kind"]: c for c in view["choices"]}
    assessor = view["coop"]["assessor"]
    sought = assessor["sought"] or 0
    short = 2 * sought - assessor["coins"]
    if "give_assessor" in kinds and short > 0 and rng.random() < 0.8:
        return {"kind": "give_assessor", "amount": min(short, kinds["give_assessor"]["max"])}
    return phone_move(view, rng, landmark=0.95, build=0.7, end=0.7)


@pytest.mark.slow
def test_coop_server_a_whole_game_by_two_phones_then_the_journal_replays_it(tmp_path):
    rng = random.Random(2024)
    db = tmp_path / "coop.db"
    with ServerProcess(db, log_path=tmp_path / "server.log") as server:
        server.start()
        key = organizer_key(server)
        event, table, phones = start_table(server, key, "Co-op", {
            "name": "Pair", "players": ["Ana", "Ben"], "ruleset": COOP, "assessor_coins": 20})
        try:
            final = play_with_hall_rolls(server, key, event["id"], phones, rng,
                                         lambda view: choose(view, rng),
                                         lambda view: view["coop"]["outcome"] is not None, 400)
        finally:
            for phone in phones:
                phone.client.disconnect()
    coop = final[0]["coop"]
    assert coop["outcome"] in ("won", "lost") and coop["reason"]
    assert final[0]["phase"] == "finished" and final[0]["choices"] == []
    if coop["outcome"] == "lost" and coop["reason"] == "tax_unpaid":
        last = coop["last_assessor_turn"]["steps"]
        assert last[-2]["result"] == "unpaid" and last[-2]["amount"] > coop["assessor"]["coins"]
    rebuilt = replayed(db, table["id"], final)
    assert rebuilt.state.total_coins() == CATALOG.bank_coins
