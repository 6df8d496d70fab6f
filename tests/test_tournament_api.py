"""A tournament through the organizer's API (docs/api.md, Tournaments): bad input refused with
a stable code and a message that says what to change, and nothing written; drops and late
arrivals seat the rounds not played again; a restart rebuilds the tournament, an open round
too; the player's one link; the public "where do I sit?"; the paper read back with pypdf."""

from __future__ import annotations

import io

import pytest
from conftest import api
from pypdf import PdfReader
from test_server import journal_size

from companion.web import create_app, hall_service


def names(count: int) -> list[str]:
    return [f"Player {n}" for n in range(1, count + 1)]


@pytest.fixture
def event(http, key):
    return api(http, key, "post", "/api/events", {"name": "Spring cup"}).get_json()


def base(event: dict) -> str:
    return f"/api/events/{event['id']}/tournament"


def create(http, key, event, players, **extra):
    body = {"players": "\n".join(players) if isinstance(players, list) else players, **extra}
    return api(http, key, "post", base(event), body)


@pytest.mark.parametrize(("players", "extra", "code", "says"), [
    (names(2), {}, "tournament/cannot_seat", "add 1 more"),
    (names(5), {}, "tournament/cannot_seat", "add or remove one player"),
    ([*names(7), "player 3"], {}, "tournament/duplicate_name", "add an initial or a surname"),
    (names(8), {"keep_apart": "Player 1, Player 2, Player 3"}, "tournament/keep_apart",
     "split the group into groups of at most 2"),
    (names(8), {"keep_apart": "Player 1, Nobody"}, "tournament/keep_apart", "not on the list"),
    (names(8), {"rounds": 0}, "tournament/invalid", "1 to 10"),
    (names(8), {"round_minutes": 2}, "tournament/invalid", "5 to 300"),
    (names(8), {"ruleset": "chess"}, "tournament/invalid", "ruleset is one of"),
    # the co-op game seats exactly 2: its rounds of 3 and 4 could never start
    (names(8), {"ruleset": "machi-koro-coop"}, "tournament/invalid",
     "'machi-koro-coop' seats exactly 2 players a table"),
    # a Legacy game belongs to its campaign's register (RULES.md 15), not to a tournament
    (names(8), {"ruleset": "legacy"}, "tournament/invalid", "played in its series"),
    # a player in two groups cannot be dealt apart from both: the start would be refused forever
    (names(8), {"keep_apart": "Player 1, Player 2\nPlayer 1, Player 3"}, "tournament/keep_apart",
     "'Player 1' is in two groups (lines 1 and 2)"),
    (42, {}, "tournament/invalid", "pasted list"),
])
def test_tournament_bad_registration_is_refused_and_changes_nothing(app, http, key, event, players,
                                                                    extra, code, says):
    before = journal_size(app)
    answer = create(http, key, event, players, **extra)
    assert answer.status_code == 400, answer.get_json()
    assert answer.get_json()["code"] == code and says in answer.get_json()["message"]
    assert journal_size(app) == before
    assert api(http, key, "get", base(event)).status_code == 404


def test_tournament_refusals_after_registration(app, http, key, event):
    assert create(http, key, event, names(8)).status_code == 201
    assert create(http, key, event, names(8)).get_json()["code"] == "tournament/exists"
    early = api(http, key, "post", f"{base(event)}/rounds/start")
    assert early.status_code == 409 and early.get_json()["code"] == "tournament/not_started"
    assert api(http, key, "post", f"{base(event)}/start").status_code == 200
    assert api(http, key, "post", f"{base(event)}/rounds/start").status_code == 200
    before = journal_size(app)
    again = api(http, key, "post", f"{base(event)}/rounds/start")
    assert again.status_code == 409 and again.get_json()["code"] == "tournament/round_open"
    assert "close it" in again.get_json()["message"]
    final = api(http, key, "post", f"{base(event)}/final")
    assert final.get_json()["code"] == "tournament/round_open"
    late = api(http, key, "post", f"{base(event)}/late", {"name": "player 2"})
    assert late.status_code == 400 and late.get_json()["code"] == "tournament/duplicate_name"
    assert journal_size(app) == before
    assert api(http, key, "post", f"{base(event)}/rounds/close").status_code == 200
    early_final = api(http, key, "post", f"{base(event)}/final")
    assert early_final.get_json()["code"] == "tournament/preliminaries_left"
    unauthorised = api(http, None, "post", f"{base(event)}/rounds/start")
    assert unauthorised.status_code == 401


def seated(shown: dict) -> list[list[list[str]]]:
    return shown["plan"]


def test_tournament_drop_and_late_arrival_seat_the_unplayed_rounds_again(app, http, key, event):
    created = create(http, key, event, names(9), keep_apart="Player 1, Player 2",
                     absent=["Player 9"]).get_json()
    assert [p["checked_in"] for p in created["players"]][-1] is False
    started = api(http, key, "post", f"{base(event)}/start").get_json()
    assert all(sorted(len(t) for t in tables) == [4, 4] for tables in seated(started))
    for tables in seated(started):
        assert not any({"Player 1", "Player 2"} <= set(t) for t in tables), "kept apart"
    api(http, key, "post", f"{base(event)}/rounds/start")
    five = api(http, key, "post", f"{base(event)}/players/0/drop")
    assert five.status_code == 200
    assert all(sorted(len(t) for t in tables) == [3, 4] for tables in seated(five.get_json()))
    assert all("Player 1" not in {p for t in tables for p in t} for tables in seated(five.get_json()))
    before = journal_size(app)
    refused = api(http, key, "post", f"{base(event)}/players/1/drop")  # 6 left: 3 + 3, fine
    assert refused.status_code == 200
    fewer = api(http, key, "post", f"{base(event)}/players/2/drop")  # 5 left: cannot be seated
    assert fewer.status_code == 400 and fewer.get_json()["code"] == "tournament/cannot_seat"
    assert journal_size(app) == before + 1
    late = api(http, key, "post", f"{base(event)}/late", {"name": "Player 9"}).get_json()
    assert late["players"][8]["late"] and late["players"][8]["checked_in"]
    newcomer = api(http, key, "post", f"{base(event)}/late", {"name": "Dana"}).get_json()
    assert all(sorted(len(t) for t in tables) == [4, 4] for tables in seated(newcomer))
    assert all("Dana" in {p for t in tables for p in t} for tables in seated(newcomer))
    # the open round is untouched: it still seats the players who started it
    assert len(newcomer["played_rounds"]) == 1 and newcomer["played_rounds"][0]["open"]


def test_tournament_restart_mid_round_rebuilds_it_and_the_player_link_leads_to_the_seat(
        app, http, key, event, tmp_path):
    created = create(http, key, event, names(12), rounds=2, round_minutes=40).get_json()
    api(http, key, "post", f"{base(event)}/start")
    api(http, key, "post", f"{base(event)}/rounds/start")
    api(http, key, "post", f"{base(event)}/rounds/close")
    shown = api(http, key, "post", f"{base(event)}/rounds/start").get_json()
    token = created["players"][4]["token"]
    seat = http.get(f"/t/{token}")
    assert seat.status_code == 302 and seat.headers["Location"].startswith("/j/")
    restarted = create_app({"DATABASE": app.config["DATABASE"], "TESTING": True})
    try:
        again = restarted.test_client()
        shown_again = api(again, key, "get", base(event)).get_json()
        for field in ("standings", "plan", "played_rounds", "seating", "players", "current"):
            assert shown_again[field] == shown[field], field
        assert again.get(f"/t/{token}").headers["Location"] == seat.headers["Location"]
        hall = hall_service(restarted)
        seat_token = seat.headers["Location"].removeprefix("/j/")
        table, number = hall.seat_for(seat_token)
        assert table.seats[number].name == "Player 5" and table.status == "running"
        assert shown_again["current"]["ends_at"] - shown_again["current"]["started_at"] == 2400
    finally:
        hall_service(restarted).journal.close()
    unknown = http.get("/t/not-a-token")
    assert unknown.status_code == 404


def test_tournament_where_do_i_sit_is_public_and_searchable(http, key, event):
    create(http, key, event, [*names(7), "Noa Levi"])
    assert http.get(f"{base(event)}/where?name=noa").get_json()["seats"] == []  # not seated yet
    api(http, key, "post", f"{base(event)}/start")
    found = http.get(f"{base(event)}/where?name=NOA").get_json()["seats"]
    assert [(s["name"], s["round"]) for s in found] == [("Noa Levi", 1)]
    assert 1 <= found[0]["position"] <= 4 and found[0]["table_name"].startswith("R1 T")
    public = http.get(f"{base(event)}/public").get_json()
    assert "players" not in public and "token" not in str(public)
    page = http.get(f"/tournament/{event['id']}")
    assert page.status_code == 200 and b"Noa Levi" in page.data
    assert http.get(f"/tournament/{event['id']}/screen").status_code == 200
    assert http.get("/tournament/99/screen").status_code == 404


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["en", "he", "nl"])
def test_tournament_paper_seating_score_sheets_and_standings(http, key, event, lang, paper):
    create(http, key, event, [*names(10), "Zoë", "Adam"])
    api(http, key, "post", f"{base(event)}/start")
    api(http, key, "post", f"{base(event)}/rounds/start")
    shown = api(http, key, "post", f"{base(event)}/rounds/close").get_json()

    def download(kind: str, **args: str) -> bytes:
        query = "&".join(f"{k}={v}" for k, v in {"paper": paper, "lang": lang, **args}.items())
        answer = api(http, key, "get", f"/tournament/{event['id']}/prints/{kind}.pdf?{query}")
        assert answer.status_code == 200, answer.data[:300]
        return answer.data

    seating = pdf_text(download("seating"))
    assert seating.count("R2 T1") >= 2 and "Zoë" in seating and "R3 T3" in seating
    by_name = PdfReader(io.BytesIO(download("seating", round="2"))).pages[1].extract_text()
    assert by_name.index("Adam") < by_name.index("Player 1") < by_name.index("Zoë"), "alphabetical"
    sheets = PdfReader(io.BytesIO(download("score-sheets", round="1")))
    assert len(sheets.pages) == 3
    first = sheets.pages[0].extract_text()
    table_one = shown["played_rounds"][0]
    assert "R1 T1" in first and len(table_one["tables"]) == 3
    if lang != "he":  # pypdf reads Hebrew lines back turned around
        start_order = table_one["seating"][0]
        lines = first.splitlines()
        found = [next(i for i, line in enumerate(lines) if line.startswith(name + " ")
                      or line == name) for name in start_order]
        assert found == sorted(found), "players in start order"
    standings = pdf_text(download("standings"))
    for line in shown["standings"]:
        if lang != "he":
            assert line["name"] in standings
    if lang == "en":
        assert "Standings after Round 1" in standings and "Points" in standings
        assert "Signature" in first and "Points" in first
    blank = pdf_text(download("score-sheets"))
    assert "R1 T1" in blank or "R2 T1" in blank
    bad = api(http, key, "get", f"/tournament/{event['id']}/prints/seating.pdf?paper=a5")
    assert bad.status_code == 400 and "a5" in bad.get_json()["message"]
