"""A tournament of 16 players over 3 preliminary rounds and a final, played by real
python-socketio phones against a served hall in a subprocess: every round each phone follows
its player's one link (`/t/TOKEN`) to its seat at the new table; places and points come from
the games; the server is killed mid-tournament and rebuilds the tournament from its journal."""

from __future__ import annotations

import http.client
from collections.abc import Callable
from fractions import Fraction
from urllib.parse import urlsplit

import pytest
from serverproc import ServerProcess, http_json, organizer_key
from socket_phone import Phone

from companion.rules.machi_koro.catalog import load_catalog
from companion.tournament.scoring import POINTS

NAMES = [f"Player {n:02}" for n in range(1, 16)] + ["יעל כהן"]
LANDMARKS = ("train_station", "shopping_mall", "amusement_park", "radio_tower")


def follow(url: str, token: str) -> str:
    """Where a player's link sends the phone: the seat token of its `/j/` join link."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    try:
        connection.request("GET", f"/t/{token}")
        response = connection.getresponse()
        response.read()
        assert response.status == 302, response.status
        location = response.getheader("Location") or ""
    finally:
        connection.close()
    path = urlsplit(location).path
    assert path.startswith("/j/"), location
    return path.removeprefix("/j/")


def organizer_call(url: str, key: str) -> Callable[..., dict]:
    """The organizer's API call, a POST unless `method` says otherwise: the answer of a 200
    or 201."""
    def call(path: str, body: dict | None = None, method: str = "POST") -> dict:
        status, answer = http_json(f"{url}{path}", method=method, key=key, body=body)
        assert status in (200, 201), (path, answer)
        return answer
    return call


def started_tournament(call: Callable[..., dict], name: str, names: list[str],
                       rounds: int) -> tuple[str, dict[str, str]]:
    """A new event `name` with a tournament of `names` over `rounds` rounds, started: the
    tournament's API path and each player's token."""
    event = call("/api/events", {"name": name})
    base = f"/api/events/{event['id']}/tournament"
    created = call(base, {"players": "\n".join(names), "rounds": rounds})
    call(f"{base}/start")
    return base, {p["name"]: p["token"] for p in created["players"]}


def play_to_the_win(phones: list[Phone], winner: int, tag: str) -> dict:
    """Play the table's game until seat `winner` (given the coins beforehand) has built every
    landmark; the others roll and end their turns."""
    view = phones[0].wait_for(0)
    for step in range(400):
        if view.get("result"):
            return view
        active = view["active"]
        view = phones[active].wait_for(view["seq"])
        kinds = {c["kind"]: c for c in view["choices"]}
        builds = [c["card"] for c in view["choices"] if c["kind"] == "build"]
        if "roll" in kinds:
            move = {"kind": "roll"}
        elif active == winner and (card := next((c for c in LANDMARKS if c in builds), None)):
            move = {"kind": "build", "card": card}
        else:
            move = {"kind": "end_turn"}
        view = phones[active].move(f"{tag}-{step}", move)
    raise AssertionError("no winner after 400 moves")


def expected_points(size: int, place: int, shared: int) -> Fraction:
    return Fraction(sum(POINTS[size][place - 1:place - 1 + shared]), shared)


@pytest.mark.slow
def test_tournament_sixteen_players_three_rounds_and_a_final_on_phones(tmp_path):
    with ServerProcess(tmp_path / "cup.db", log_path=tmp_path / "server.log") as server:
        server.start()
        key, url = organizer_key(server), server.url
        call = organizer_call(url, key)
        base, tokens = started_tournament(call, "Spring cup", NAMES, 3)
        met: dict[str, set[str]] = {name: set() for name in NAMES}
        expected: dict[str, list] = {name: [Fraction(0), 0] for name in NAMES}
        for number in (1, 2, 3):
            if number == 3:  # a power cut mid-tournament: everything comes back from the journal
                before = call(base, method="GET")
                server.kill()
                server.start()
                after = call(base, method="GET")
                assert after["plan"] == before["plan"] and after["standings"] == before["standings"]
                assert [p["token"] for p in after["players"]] == [p["token"] for p in before["players"]]
            seating = call(f"{base}/rounds/start")["seating"]
            assert seating["round"] == number and seating["open"]
            assert sorted(p for t in seating["tables"] for p in t["players"]) == sorted(NAMES)
            scores = play_round(url, key, base, seating, tokens, f"r{number}")
            for table in seating["tables"]:
                for name in table["players"]:
                    met[name] |= set(table["players"]) - {name}
            closed = call(f"{base}/rounds/close")
            assert closed["played"] == number
            add_points(expected, scores)
            check_points(closed["standings"], expected)
        assert all(len(others) == 9 for others in met.values()), "nobody met anyone twice"
        standing = call(f"{base}/public", method="GET")["standings"]
        top = [line["name"] for line in standing[:4]]
        final = call(f"{base}/final")["seating"]
        assert final["stage"] == "final" and final["tables"][0]["players"] == top
        phones = [Phone(url, follow(url, tokens[name])) for name in top]
        try:
            winner = 2
            give_landmark_coins(url, key, base, phones, winner)
            view = play_to_the_win(phones, winner, "final")
            assert view["players"][winner]["name"] == top[winner]
        finally:
            for phone in phones:
                phone.client.disconnect()
        done = call(f"{base}/rounds/close")
        assert done["stage"] == "done"
        ranking = done["ranking"]
        assert ranking[0] == {"rank": 1, "name": top[winner], "stage": "final"}
        assert {r["name"] for r in ranking[:4]} == set(top)
        assert [r["stage"] for r in ranking[4:]] == ["preliminaries"] * 12


def give_landmark_coins(url: str, key: str, base: str, phones: list[Phone], seat: int) -> None:
    """Give seat `seat` of the open round's first table the coins of every landmark (an
    organizer's correction), so its game ends in a few turns."""
    seq = phones[0].wait_for(0)["seq"]
    status, shown = http_json(f"{url}{base}", key=key)
    assert status == 200
    table_id = shown["played_rounds"][-1]["tables"][0]
    status, _ = http_json(f"{url}/api/tables/{table_id}/adjust", method="POST", key=key,
                          body={"seat": seat, "amount": 60, "reason": "tournament test"})
    assert status == 200
    phones[0].wait_for(seq + 1)


def play_round(url: str, key: str, base: str, seating: dict, tokens: dict[str, str], tag: str) -> dict:
    """Every phone follows its player's link to its seat; the first table plays to a win by
    its second player, the others make one roll; the counts each phone shows at the close."""
    tables = []
    try:
        for table in seating["tables"]:
            phones = [Phone(url, follow(url, tokens[name])) for name in table["players"]]
            tables.append(phones)
            for position, (name, phone) in enumerate(zip(table["players"], phones, strict=True)):
                view = phone.wait_for(0)
                assert view["seat"] == position and view["players"][position]["name"] == name
        give_landmark_coins(url, key, base, tables[0], 1)
        play_to_the_win(tables[0], 1, f"{tag}-t1")
        for number, phones in enumerate(tables[1:], start=2):
            phones[0].move(f"{tag}-t{number}", {"kind": "roll"})
        scores = {}
        for table, phones in zip(seating["tables"], tables, strict=True):
            view = phones[0].view
            assert view is not None
            scores[table["table"]] = [(p["name"], len(p["landmarks"]), cost(p["landmarks"]),
                                       p["coins"]) for p in view["players"]]
        scores["winner"] = seating["tables"][0]["players"][1]
        return scores
    finally:
        for phones in tables:
            for phone in phones:
                phone.client.disconnect()


def cost(landmarks: list[str]) -> int:
    """What the landmarks built cost (the tie-break after their number, RULES.md 26)."""
    return sum(load_catalog().landmarks[card].cost for card in landmarks)


def add_points(expected: dict[str, list], scores: dict) -> None:
    """Each table's places and points as RULES.md 26-27 give them for the landmarks and
    coins its phones showed: the winner first, then landmarks, then what they cost, then
    coins; ties share."""
    for key, players in scores.items():
        if key == "winner":
            continue
        keys = [(n == scores["winner"], lm, paid, c) for n, lm, paid, c in players]
        for name, mine in zip([p[0] for p in players], keys, strict=True):
            place = 1 + sum(k > mine for k in keys)
            expected[name][0] += expected_points(len(players), place, keys.count(mine))
            expected[name][1] += int(mine[0])


def check_points(standings: list[dict], expected: dict[str, list]) -> None:
    lines = {line["name"]: line for line in standings}
    for name, (points, wins) in expected.items():
        assert abs(float(Fraction(lines[name]["points"])) - float(points)) < 0.01, (name, lines[name])
        assert lines[name]["wins"] == wins
    ordered = sorted(standings, key=lambda line: line["rank"])
    assert ordered == standings
