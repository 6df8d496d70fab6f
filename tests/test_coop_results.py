"""A co-op game's end in the results: the hall summary's and the seat views' `result`, the
export (JSON and CSV), and the printing inputs (score sheets and standings), where both players
of a co-op table share one result (docs/rules.md, "our rulings")."""

from __future__ import annotations

import csv
import io
from dataclasses import replace

from conftest import api
from test_coop_server import coop_table
from test_server import last_view, move, phone

from companion.hall import printables
from companion.rules.machi_koro.catalog import load_catalog
from companion.web import hall_service

CATALOG = load_catalog()
LANDMARKS = sorted(CATALOG.landmarks, key=lambda lm: CATALOG.landmarks[lm].cost)


def summary(http, key, event_id: str, table_id: str) -> dict:
    hall = api(http, key, "get", f"/api/events/{event_id}").get_json()
    return next(t for t in hall["tables"] if t["id"] == table_id)


def export(http, key, event_id: str) -> tuple[list[dict], list[dict]]:
    data = api(http, key, "get", f"/api/events/{event_id}/export?format=json").get_json()
    text = api(http, key, "get", f"/api/events/{event_id}/export?format=csv").get_data()
    return data["results"], list(csv.DictReader(io.StringIO(text.decode("utf-8-sig"))))


def win_together(app, http, key):
    """Both players build a landmark a turn, cheapest first (the Radio Tower last, so nobody
    is asked to reroll): four rounds, three assessor turns of at most 1 + 2 + 3 coins out of
    13, and the second player's fourth landmark wins (RULES.md 19)."""
    event, table = coop_table(http, key)
    for seat in (0, 1):
        api(http, key, "post", f"/api/tables/{table['id']}/adjust",
            {"seat": seat, "amount": 60, "reason": "a quick game"})
    pair = [phone(app, http, seat["token"]) for seat in table["seats"]]
    view = None
    for landmark in LANDMARKS:
        for seat, client in enumerate(pair):
            assert move(client, "roll", f"r{seat}{landmark}")["ok"]
            ack = move(client, "build", f"b{seat}{landmark}", card=landmark)
            assert ack["ok"], ack
            view = ack["view"]
            if view["coop"]["outcome"] is None:
                assert move(client, "end_turn", f"e{seat}{landmark}")["ok"]
    return event, table, pair, view


def lose_by_waiting(app, http, key):
    """Nobody builds or gives: the assessor pays taxes from 8 coins until one is unpaid."""
    event, table = coop_table(http, key, assessor_coins=8)
    pair = [phone(app, http, seat["token"]) for seat in table["seats"]]
    for turn in range(400):
        client = pair[turn % 2]
        assert move(client, "roll", f"r{turn}")["ok"]
        view = move(client, "end_turn", f"e{turn}")["view"]
        if view["coop"]["outcome"]:
            return event, table, pair, view
    raise AssertionError("the assessor still pays after 400 turns")


def test_coop_results_a_win_is_shared_in_views_summary_and_export(app, http, key):
    event, table, pair, view = win_together(app, http, key)
    shared = {"reason": "cities_complete", "outcomes": ["won", "won"], "places": [1, 1]}
    assert view["result"] == shared and view["phase"] == "finished"
    assert last_view(pair[0])["result"] == shared, "the partner's phone hears it too"
    tile = summary(http, key, event["id"], table["id"])
    assert tile["result"] == shared and tile["winner"] is None
    assert tile["coop"]["outcome"] == "won" and tile["coop"]["reason"] == "cities_complete"
    rows, csv_rows = export(http, key, event["id"])
    assert [(r["player"], r["winner"], r["result"]) for r in rows] == [
        ("Ana", True, "won"), ("Ben", True, "won")]
    assert [(r["player"], r["winner"], r["result"]) for r in csv_rows] == [
        ("Ana", "yes", "won"), ("Ben", "yes", "won")]  # words, not Python's True
    assert [(r["seat"], r["place"]) for r in csv_rows] == [("1", "1"), ("2", "1")]
    for client in pair:
        client.disconnect()


def test_coop_results_a_loss_is_shared_with_its_reason(app, http, key):
    event, table, pair, view = lose_by_waiting(app, http, key)
    assert view["result"] == {"reason": "tax_unpaid", "outcomes": ["lost", "lost"], "places": [2, 2]}
    rows, _ = export(http, key, event["id"])
    assert [(r["winner"], r["result"]) for r in rows] == [(False, "lost"), (False, "lost")]
    assert move(pair[0], "end_turn", "after")["code"] == "rule/game_over"
    for client in pair:
        client.disconnect()


def test_coop_results_running_and_base_tables(app, http, key):
    event, table = coop_table(http, key)
    assert summary(http, key, event["id"], table["id"])["result"] is None
    base = api(http, key, "post", f"/api/events/{event['id']}/tables",
               {"name": "Trio", "players": ["C", "D", "E"], "roll_mode": "own"}).get_json()
    api(http, key, "post", f"/api/tables/{base['id']}/start")
    assert summary(http, key, event["id"], base["id"])["result"] is None
    rows, _ = export(http, key, event["id"])
    assert {r["result"] for r in rows} == {""} and not any(r["winner"] for r in rows)
    hall = hall_service(app)
    trio = hall.tables[base["id"]]
    before = trio.state
    trio.state = replace(before, winner=1)  # as if seat 1 had built its last landmark
    try:
        assert summary(http, key, event["id"], base["id"])["result"] == {
            "reason": "landmarks_complete", "outcomes": ["lost", "won", "lost"], "places": [2, 1, 2]}
    finally:
        trio.state = before


def test_coop_results_printing_both_players_share_the_place(app, http, key):
    won_event, _, won_pair, _ = win_together(app, http, key)
    lost_event, _, lost_pair, _ = lose_by_waiting(app, http, key)
    hall = hall_service(app)
    for event_id, place, wins in ((won_event["id"], 1, 1), (lost_event["id"], 2, 0)):
        event = hall.event(event_id)
        tables = [hall.tables[t] for t in event.tables]
        (result,) = printables.table_results(event, tables)
        assert [(r.place, r.player_name) for r in result.rows] == [(place, "Ana"), (place, "Ben")]
        standing = printables.event_standing(event, tables, "en")
        assert sorted((r.player_name, r.wins) for r in standing.rows) == [
            ("Ana", wins), ("Ben", wins)], "a shared win counts for both, a loss for neither"
        assert standing.title == "", "the co-op table counts as finished"
    for client in (*won_pair, *lost_pair):
        client.disconnect()
