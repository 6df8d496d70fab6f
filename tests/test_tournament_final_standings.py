"""The standings printed after the final (issue 25, item 2; RULES.md 28): titled as the final
standings, the final's places first (its winner alone at rank 1), then everyone else in the
rank of the round they left, as the tournament's ranking (`GET .../tournament`) has them; the
sheet of a preliminary round (`&round=N`) stays that round's. Read back with pypdf."""

from __future__ import annotations

import pytest
from conftest import api
from test_tournament_api import pdf_text
from test_tournament_semis import give_coins

NAMES = [f"Player {n:02}" for n in range(1, 13)]
TITLES = {"en": "Final standings", "nl": "Eindstand", "he": "דירוג סופי"}


@pytest.mark.parametrize("lang", ["en", "nl", "he"])
def test_the_standings_after_the_final_put_the_final_first(http, key, lang):
    event = api(http, key, "post", "/api/events", {"name": "Final cup"}).get_json()
    base = f"/api/events/{event['id']}/tournament"

    def call(path: str, body: dict | None = None) -> dict:
        answer = api(http, key, "post", f"{base}{path}", body)
        assert answer.status_code in (200, 201), answer.get_json()
        return answer.get_json()

    def standings(**args: str) -> str:
        query = "&".join(f"{k}={v}" for k, v in {"lang": lang, **args}.items())
        answer = api(http, key, "get", f"/tournament/{event['id']}/prints/standings.pdf?{query}")
        assert answer.status_code == 200, answer.data[:300]
        return pdf_text(answer.data)

    call("", {"players": "\n".join(NAMES), "rounds": 2})
    call("/start")
    for number in (1, 2):
        give_coins(http, key, call("/rounds/start"), number, richest=0)
        before_final = call("/rounds/close")
    final = call("/final")
    give_coins(http, key, final, 3, richest=3)  # the fourth seed wins the final
    done = call("/rounds/close")
    assert done["stage"] == "done"
    ranking = done["ranking"]
    finalists = final["seating"]["tables"][0]["players"]
    assert ranking[0]["name"] == finalists[3]

    sheet = standings()
    assert TITLES[lang] in sheet
    assert standings(round="3") == sheet, "the final's number prints the same sheet"
    if lang == "he":  # pypdf reads Hebrew lines turned around: the title is enough
        return
    cells = sheet.splitlines()  # pypdf reads the table a cell a line
    rows = [cells.index(r["name"]) for r in ranking]
    assert rows == sorted(rows), "in the tournament's ranking's order"
    assert [cells[i - 1] for i in rows] == [str(r["rank"]) for r in ranking]
    assert [cells[i - 1] for i in rows].count("1") == 1, "one winner"
    final_word = {"en": "Final", "nl": "Finale"}[lang]
    assert [cells[i + 1] for i in rows] == [final_word] * 4 + [cells[rows[4] + 1]] * 8
    assert cells[rows[4] + 1] == {"en": "Preliminaries", "nl": "Voorrondes"}[lang]
    assert f": {finalists[3]}." in sheet, "the winner named"
    # a preliminary round's sheet is still that round's
    after_two = standings(round="2")
    assert {"en": "Standings after Round 2", "nl": "Stand na Ronde 2"}[lang] in after_two
    assert TITLES[lang] not in after_two
    first = before_final["standings"][0]
    cells = after_two.splitlines()
    assert cells[cells.index(first["name"]) - 1] == "1"
