"""The semi-final path end to end through the organizer's API (RULES.md 28, docs/api.md,
Tournaments): 31 players, one drops; three preliminary rounds ranked from the tables as they
stand at the close (coins given by corrections); the semi-finals seat the top 16 still there in
snake order; each semi-final's first place goes to the final; the ranking puts the final's
places first, then the semi-finalists, then everyone else. At every new round the phones of the
round before are sent their player's link (`moved`), which leads to the new seat or, for a
player out of the semi-finals, to the phone page with their name."""

from __future__ import annotations

from conftest import api

from companion.tournament.scoring import SNAKE
from companion.web import socketio

NAMES = [f"Player {n:02}" for n in range(1, 32)]


def test_tournament_semi_finals_and_final_with_thirty_one_players(app, http, key):
    event = api(http, key, "post", "/api/events", {"name": "Big cup"}).get_json()
    base = f"/api/events/{event['id']}/tournament"

    def call(path: str, body: dict | None = None, method: str = "post") -> dict:
        answer = api(http, key, method, f"{base}{path}", body)
        assert answer.status_code in (200, 201), (path, answer.get_json())
        return answer.get_json()

    created = call("", {"players": "\n".join(NAMES), "rounds": 3})
    ids = {p["name"]: p["id"] for p in created["players"]}
    tokens = {p["name"]: p["token"] for p in created["players"]}
    call("/start")
    phones: dict[str, object] = {}
    for number in (1, 2, 3):
        shown = call("/rounds/start")
        assert shown["next"] is None and shown["current"]["round"] == number
        check_moved(phones, tokens, number)
        phones = connect_phones(app, http, shown)
        give_coins(http, key, shown, number)
        closed = call("/rounds/close")
        assert closed["played"] == number
        if number == 1:
            call(f"/players/{ids['Player 31']}/drop")
    assert closed["next"] == "semi-final"
    refused = api(http, key, "post", f"{base}/rounds/start")
    assert refused.get_json()["code"] == "tournament/preliminaries_over"
    standing = closed["standings"]
    assert len(standing) == 31 and "Player 31" in {line["name"] for line in standing}
    top = [line["name"] for line in sorted(
        (line for line in standing if line["name"] != "Player 31"),
        key=lambda line: (line["rank"], ids[line["name"]]))][:16]

    semis = call("/final")
    assert semis["stage"] == "semi-final" and semis["next"] is None
    if closed["cut"] is not None:  # players equal at the cut: the server's draw (RULES.md 28)
        cut = semis["cut"]
        assert cut["tied"] == closed["cut"]["tied"] and closed["cut"]["drawn"] is None
        assert cut["sure"] == top[:len(cut["sure"])] and len(cut["drawn"]) == cut["seats"]
        top = cut["sure"] + cut["drawn"]
    tables = [t["players"] for t in semis["seating"]["tables"]]
    assert tables == [[top[seed - 1] for seed in snake] for snake in SNAKE]
    assert [t["name"] for t in semis["seating"]["tables"]] == [f"Semi-final T{n}" for n in range(1, 5)]
    check_moved(phones, tokens, 4)
    out = next(name for name in NAMES if name not in top and name != "Player 31")
    page = http.get(f"/t/{tokens[out]}")
    assert page.status_code == 302 and f"/tournament/{event['id']}?name=" in page.headers["Location"]
    phones = connect_phones(app, http, semis)
    # the last seed of each semi-final (its fourth player) ends the round richest: first place
    winners = [table[3] for table in tables]
    give_coins(http, key, semis, 4, richest=3)
    after_semis = call("/rounds/close")
    assert after_semis["next"] == "final" and after_semis["stage"] == "semi-final"
    final = call("/final")
    assert final["stage"] == "final"
    finalists = final["seating"]["tables"][0]["players"]
    assert finalists == sorted(winners, key=top.index), "the semi-final winners, best seed first"
    check_moved(phones, tokens, 5)
    phones = connect_phones(app, http, final)
    give_coins(http, key, final, 5, richest=2)
    done = call("/rounds/close")
    assert done["stage"] == "done" and done["next"] is None
    ranking = done["ranking"]
    assert ranking[0] == {"rank": 1, "name": finalists[2], "stage": "final"}
    assert [r["stage"] for r in ranking] == ["final"] * 4 + ["semi-final"] * 12 + ["preliminaries"] * 15
    assert {r["name"] for r in ranking[4:16]} == set(top) - set(finalists)
    prior = {line["name"]: line["rank"] for line in standing}
    assert [prior[r["name"]] for r in ranking[4:16]] == sorted(prior[r["name"]] for r in ranking[4:16])
    assert api(http, key, "post", f"{base}/final").get_json()["code"] == "tournament/over"
    sheets = api(http, key, "get", f"/tournament/{event['id']}/prints/score-sheets.pdf?round=4")
    assert sheets.status_code == 200
    for client in phones.values():
        client.disconnect()


def connect_phones(app, http, shown: dict) -> dict:
    """A Socket.IO phone at every seat of the open round, by each player's link."""
    phones = {}
    for table in shown["played_rounds"][-1]["seating"]:
        for name in table:
            token = next(p["token"] for p in shown["players"] if p["name"] == name)
            seat = http.get(f"/t/{token}")
            assert seat.status_code == 302 and seat.headers["Location"].startswith("/j/")
            client = socketio.test_client(
                app, auth={"token": seat.headers["Location"].removeprefix("/j/")},
                flask_test_client=http)
            assert client.is_connected()
            client.get_received()
            phones[name] = client
    return phones


def check_moved(phones: dict, tokens: dict[str, str], number: int) -> None:
    """Each phone of the round before got its own player's link, once."""
    for name, client in phones.items():
        moved = [m["args"][0] for m in client.get_received() if m["name"] == "moved"]
        assert moved == [{"join": f"/t/{tokens[name]}", "round": number}], name
        client.disconnect()


def give_coins(http, key, shown: dict, number: int, richest: int | None = None) -> None:
    """Corrections at every table of the open round: varied coins (ties too), or the seat
    `richest` far ahead of the others."""
    for index, table_id in enumerate(shown["played_rounds"][-1]["tables"]):
        seats = len(shown["played_rounds"][-1]["seating"][index])
        for seat in range(seats):
            amount = 30 if seat == richest else (index + 3 * seat + number) % 5 + 1
            answer = api(http, key, "post", f"/api/tables/{table_id}/adjust",
                         {"seat": seat, "amount": amount, "reason": "test"})
            assert answer.status_code == 200, answer.get_json()
