"""A tournament's results as data (issue 25 item 9, docs/api.md, Tournaments): `GET
/api/events/ID/tournament/results?format=csv|json`, downloaded as the organizer's spreadsheet
gets it and parsed: the standings (RULES.md 27), every round's tables with each player's seat
as printed on the cards (1-4, the start order), place and points (RULES.md 26-27), and the
tournament's ranking once the final is played (RULES.md 28)."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

from conftest import api

from companion.tournament.scoring import POINTS

NAMES = ["=Ann", "Bob", "Cy", "Dana", "Eli", "Fay", "Gil", "יעל"]  # a formula-like name, Hebrew


def test_tournament_results_as_csv_and_json(http, key):
    event = api(http, key, "post", "/api/events", {"name": "Data cup"}).get_json()
    base = f"/api/events/{event['id']}/tournament"

    def call(path: str, body: dict | None = None) -> dict:
        answer = api(http, key, "post", f"{base}{path}", body)
        assert answer.status_code in (200, 201), (path, answer.get_json())
        return answer.get_json()

    call("", {"players": "\n".join(NAMES), "rounds": 2})
    call("/start")
    for number in (1, 2, 3):  # two preliminary rounds, then the final
        shown = call("/rounds/start" if number < 3 else "/final")
        for index, table_id in enumerate(shown["played_rounds"][-1]["tables"]):
            for seat in range(len(shown["played_rounds"][-1]["seating"][index])):
                amount = (index + 3 * seat + number) % 5 + 1  # varied coins, ties too
                assert api(http, key, "post", f"/api/tables/{table_id}/adjust",
                           {"seat": seat, "amount": amount, "reason": "test"}).status_code == 200
        done = call("/rounds/close")
    assert done["stage"] == "done"

    answer = api(http, key, "get", f"{base}/results?format=csv")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    assert "attachment" in answer.headers["Content-Disposition"]
    assert f"event-{event['id']}-tournament.csv" in answer.headers["Content-Disposition"]
    text = answer.get_data(as_text=True)
    assert text.startswith("\ufeff"), "a byte order mark: Excel reads the Hebrew name"
    rows = list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))
    kinds = {row["kind"] for row in rows}
    assert kinds == {"standing", "ranking", "seat"}

    # the standings, as the public view has them; a formula-like name stays text
    standing = [row for row in rows if row["kind"] == "standing"]
    assert [(r["rank"], r["player"].removeprefix("'"), r["wins"], r["points"], r["landmarks"],
             r["coins"]) for r in standing] == [
        (str(s["rank"]), s["name"], str(s["wins"]), s["points"], str(s["landmarks"]), str(s["coins"]))
        for s in done["standings"]]
    assert "'=Ann" in {r["player"] for r in standing}

    # the ranking after the final: the final's places first (RULES.md 28)
    ranking = [row for row in rows if row["kind"] == "ranking"]
    assert [(r["rank"], r["player"].removeprefix("'"), r["stage"]) for r in ranking] == [
        (str(r["rank"]), r["name"], r["stage"]) for r in done["ranking"]]

    # every round's tables: seats 1-4 in start order, places and points by RULES.md 26-27
    seats = [row for row in rows if row["kind"] == "seat"]
    played = done["played_rounds"]
    assert len(seats) == sum(len(table) for r in played for table in r["seating"])
    for played_round in played:
        for index, table in enumerate(played_round["seating"]):
            lines = [r for r in seats if r["round"] == str(played_round["round"])
                     and r["table"] == (f"R{played_round['round']} T{index + 1}"
                                        if played_round["stage"] == "preliminary" else
                                        "Final")]
            assert [(r["seat"], r["player"].removeprefix("'")) for r in lines] == [
                (str(position), name) for position, name in enumerate(table, start=1)]
            assert {r["stage"] for r in lines} == {played_round["stage"]}
            places = sorted(int(r["place"]) for r in lines)
            assert places[0] == 1 and all(1 <= p <= len(lines) for p in places)
            total = sum(Fraction(r["points"]).limit_denominator(12) for r in lines)
            assert abs(total - sum(POINTS[len(lines)])) < Fraction(1, 50), "the places' points, shared"
            coins = [int(r["coins"]) for r in lines]
            best = [r for r in lines if r["place"] == "1"]
            assert all(int(r["coins"]) == max(coins) for r in best), "no winner: coins decide"

    # the JSON holds the same, with the places as numbers
    data = api(http, key, "get", f"{base}/results?format=json").get_json()
    assert data["event"] == {"id": event["id"], "name": "Data cup"}
    assert [s["player"] for s in data["standings"]] == [s["name"] for s in done["standings"]]
    assert [r["player"] for r in data["ranking"]] == [r["name"] for r in done["ranking"]]
    first = data["rounds"][0]["tables"][0]
    assert first["name"] == "R1 T1" and [s["seat"] for s in first["seats"]] == [1, 2, 3, 4]
    assert {s["place"] for s in first["seats"]} <= {1, 2, 3, 4}
    assert len(data["rounds"]) == 3 and data["rounds"][2]["stage"] == "final"

    # refusals: a bad format, no key, an event without a tournament
    assert api(http, key, "get", f"{base}/results?format=xls").status_code == 400
    assert api(http, None, "get", f"{base}/results?format=csv").status_code == 401
    other = api(http, key, "post", "/api/events", {"name": "No cup"}).get_json()
    refused = api(http, key, "get", f"/api/events/{other['id']}/tournament/results?format=csv")
    assert refused.status_code == 404 and refused.get_json()["code"] == "tournament/unknown"
