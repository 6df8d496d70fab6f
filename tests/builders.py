"""Test builders: a table in one line of the game's own notation.

    table("A 3 wheat_field bakery*2 +shopping_mall | B 0 cafe*3", active=0)

Each seat is `NAME COINS CARD[*N] ... +LANDMARK ...`; seats are separated by `|`.
"""

from __future__ import annotations

import pytest

from companion.rules.errors import CatalogError
from companion.rules.machi_koro.catalog import load_catalog
from companion.rules.machi_koro.engine import decide
from companion.rules.machi_koro.evolve import replay
from companion.rules.machi_koro.facts import CoinsTransferred, Fact
from companion.rules.machi_koro.moves import Move
from companion.rules.machi_koro.state import Phase, Player, TableState, frozen_counts

CATALOG = load_catalog()


def table(notation: str, *, active: int = 0, phase: Phase = Phase.ROLL, **fields: object) -> TableState:
    players = []
    for seat in notation.split("|"):
        name, coins, *items = seat.split()
        cards: dict[str, int] = {}
        landmarks = set()
        dice_count = 1
        for item in items:
            if item.startswith("+"):
                landmarks.add(item[1:])
                dice_count = 2 if item == "+train_station" else dice_count
            else:
                card, _, count = item.partition("*")
                cards[card] = cards.get(card, 0) + int(count or 1)
        players.append(
            Player(name, int(coins), frozen_counts(cards), frozenset(landmarks), dice_count)
        )
    supply = frozen_counts({card.id: card.copies for card in CATALOG.establishments.values()})
    state = TableState(
        ruleset="machi-koro", players=tuple(players), bank=CATALOG.bank_coins, supply=supply,
        active=active, phase=phase,
    )
    from dataclasses import replace

    return replace(state, **fields) if fields else state


def coins(state: TableState) -> dict[str, int]:
    return {player.name: player.coins for player in state.players}


def play(state: TableState, seat: int, move: Move) -> tuple[TableState, list[Fact]]:
    """Decide and apply one move; the conservation check runs on every event."""
    events = decide(state, seat, move, CATALOG)
    after = state
    for event in events:
        after = replay(after, [event])
        assert after.total_coins() == state.total_coins(), event
        assert all(player.coins >= 0 for player in after.players), event
    return after, events


def transfers(events: list[Fact]) -> list[tuple[object, object, int, str, int]]:
    """(from, to, amount, card, forgiven) of every coin movement, in order."""
    return [
        (e.source, e.target, e.amount, e.card, e.forgiven)
        for e in events if isinstance(e, CoinsTransferred)
    ]


def assert_edit_refused(tmp_path, source, old, new, match, load):
    """Replace the first `old` in a copy of the catalog file `source` by `new` (`old` must be
    there): `load` of the copy raises CatalogError matching `match`."""
    text = source.read_text(encoding="utf-8")
    assert old in text
    broken = tmp_path / source.name
    broken.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(CatalogError, match=match):
        load(broken)
