"""A tournament's player join cards (docs/api.md, Tournaments: `cards`): one business card per
player, the QR of their one player link and their name, rendered for real (poppler) and the QR
codes decoded by zxing-cpp; dropped players get none."""

from __future__ import annotations

import shutil

import pytest
from conftest import api
from test_printing import decode, page_texts, rasterise, save_artifact

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler-utils")

NAMES = [f"Player {n:02}" for n in range(1, 12)] + ["יעל כהן", "Bartholomew-Maximilian van Steenhoven"]


@pytest.mark.parametrize(("paper", "lang", "per_page"), [("a4", "en", 10), ("letter", "he", 10)])
def test_tournament_player_cards_carry_each_players_link_as_a_qr(http, key, tmp_path, paper, lang,
                                                                  per_page):
    event = api(http, key, "post", "/api/events", {"name": "Card cup"}).get_json()
    base = f"/api/events/{event['id']}/tournament"
    created = api(http, key, "post", base, {"players": "\n".join(NAMES)}).get_json()
    dropped = created["players"][3]
    api(http, key, "post", f"{base}/players/{dropped['id']}/drop")
    answer = api(http, key, "get",
                 f"/tournament/{event['id']}/prints/cards.pdf?paper={paper}&lang={lang}")
    assert answer.status_code == 200, answer.data[:300]
    assert answer.mimetype == "application/pdf"
    pages = rasterise(answer.data, tmp_path, f"cards-{paper}-{lang}")
    save_artifact(pages[0], f"tournament-cards-{paper}-{lang}")
    kept = [p for p in created["players"] if p["id"] != dropped["id"]]
    assert len(pages) == -(-len(kept) // per_page)
    found = [result.text for page in pages for result in decode(page)]
    assert sorted(found) == sorted(p["join_url"] for p in kept)
    assert all(url.split("/")[-2] == "t" for url in found)
    assert dropped["join_url"] not in found
    text = "\n".join(page_texts(answer.data))
    for player in kept:
        if player["name"].isascii() and len(player["name"]) < 20:
            assert player["name"] in text
    assert dropped["name"] not in text
    assert f"/tournament/{event['id']}" in text.replace("\n", "")  # the address to type
