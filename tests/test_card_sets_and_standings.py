"""A table's card sets through the API, and the standings' places by RULES.md 26."""

from __future__ import annotations

from builders import CATALOG, table
from conftest import api

from companion.rules.machi_koro.ruleset import MACHI_KORO
from companion.rules.ruleset import Story
from companion.web import hall_service


def test_a_table_names_its_card_sets_and_an_unknown_one_is_refused(app, http, key):
    event = api(http, key, "post", "/api/events", {"name": "Night"}).get_json()
    path = f"/api/events/{event['id']}/tables"
    made = api(http, key, "post", path, {"name": "T1", "players": ["A", "B"], "card_sets": ["base"]})
    assert made.status_code == 201
    assert hall_service(app).tables[made.get_json()["id"]].card_sets == ("base",)
    before = len(hall_service(app).tables)
    for bad in (["nope"], ["base", "base"], "base", [], [3]):
        refused = api(http, key, "post", path, {"name": "T2", "players": ["A", "B"], "card_sets": bad})
        assert refused.status_code == 400, bad
        assert refused.get_json()["code"] == "request/invalid"
    unknown = api(http, key, "post", path, {"name": "T2", "players": ["A", "B"], "card_sets": ["nope"]})
    assert "nope" in unknown.get_json()["message"]
    assert len(hall_service(app).tables) == before  # nothing changed


def test_ruling_26_places_count_landmarks_then_their_cost_then_coins():
    """RULES.md 26: equal in landmarks built, the dearer landmarks take the higher place, and
    only then the coins; players still equal share the place."""
    state = table("Ann 5 +shopping_mall | Ben 5 +train_station | Cy 9 | Di 9")
    rows = MACHI_KORO.standings_rows(Story(("Ann", "Ben", "Cy", "Di"), state, setup=CATALOG))
    assert [row["place"] for row in rows] == [1, 2, 3, 3]
    assert [row["landmark_cost"] for row in rows] == [
        CATALOG.landmarks["shopping_mall"].cost, CATALOG.landmarks["train_station"].cost, 0, 0]
