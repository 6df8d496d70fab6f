"""Test builders for Legacy games: a catalog in the console's JSON, a game in one line.

    game("A 3 wheat_field bakery +smithy | B 0 cafe*2", contributed=(1,), active=0)

Seats as in builders.table (`NAME COINS CARD[*N] ... +LANDMARK`); every seat has the landmarks
smithy (A), florist (B), fountain (C) unless `landmarks` says otherwise.
"""

from __future__ import annotations

import copy
from dataclasses import replace

from companion.rules.legacy import campaign as cp
from companion.rules.legacy.campaign_commands import Command, TickStep
from companion.rules.legacy.catalog import parse_catalog
from companion.rules.legacy.engine import decide
from companion.rules.legacy.evolve import evolve_all
from companion.rules.legacy.setup import parse_setup
from companion.rules.legacy.state import LegacyState, new_game
from companion.rules.machi_koro.state import Phase, Player, frozen_counts


def names(en: str, nl: str | None = None) -> dict[str, str]:
    return {"en": en, "he": f"{en} (he)", "nl": nl or f"{en} (nl)"}


def est(card_id: str, colour: str, activation: list[int], cost: int, label: str, effect: dict,
        copies: int = 6, **more: object) -> dict:
    return {"id": card_id, "names": names(card_id.replace("_", " ").title()), "colour": colour,
            "activation": activation, "cost": cost, "label": label, "effect": effect,
            "copies": copies, **more}


def income(amount: int) -> dict:
    return {"kind": "income", "amount": amount}


ESTABLISHMENTS = [
    est("wheat_field", "blue", [1], 1, "wheat", income(1), town_square=True),
    est("ranch", "blue", [2], 1, "cow", income(1)),
    est("bakery", "green", [2, 3], 1, "bread", income(1), town_square=True),
    est("cafe", "red", [3], 2, "cup", {"kind": "take_from_roller", "amount": 1}),
    est("convenience_store", "green", [4], 2, "bread", income(3)),
    est("forest", "blue", [5], 3, "gear", income(1)),
    est("stadium", "purple", [6], 6, "tower", {"kind": "take_from_each", "amount": 2}, copies=4),
    est("tv_station", "purple", [6], 7, "tower", {"kind": "take_from_one", "amount": 5}, copies=4),
    est("business_center", "purple", [6], 8, "tower", {"kind": "swap"}, copies=4),
    est("cheese_factory", "green", [7], 5, "factory",
        {"kind": "income_per_icon", "amount": 3, "per": {"label": "cow"}}),
    est("tea_house", "green", [8], 3, "cup",
        {"kind": "income_per_icon", "amount": 2, "per": {"label": "cup", "unique": True}}),
    est("festival", "blue", [9], 4, "fruit",
        {"kind": "manual", "text": {"en": "Take 1 coin from each player with a Cafe."}}),
    est("pickpocket", "red", [10], 3, "cup",
        {"kind": "manual", "text": {"en": "Take 2 coins if the roller has a Forest."}}),
    est("mine", "blue", [9], 6, "gear", income(5)),
    est("sushi_bar", "red", [1], 2, "cup", {"kind": "take_from_roller", "amount": 3},
        requires_landmark="florist"),
]
LANDMARKS = [
    {"id": "smithy", "names": names("Smithy", "Smidse"), "letter": "A", "cost": 4,
     "effect": {"kind": "two_dice"}},
    {"id": "florist", "names": names("Florist", "Bloemenwinkel"), "letter": "B", "cost": 8,
     "effect": {"kind": "mall_bonus", "amount": 1, "labels": ["cup", "bread"]}},
    {"id": "fountain", "names": names("Fountain", "Fontein"), "letter": "C", "cost": 10,
     "effect": {"kind": "none"}},
    {"id": "radio_tower", "names": names("Radio Tower"), "letter": "D", "cost": 16,
     "effect": {"kind": "reroll"}},
    {"id": "amusement_park", "names": names("Amusement Park"), "letter": "E", "cost": 12,
     "effect": {"kind": "extra_turn_on_doubles"}},
]
COMMUNITY = [
    {"id": "statue", "names": names("Statue", "Standbeeld"), "cost": 5,
     "bonus": {"kind": "coins", "amount": 2}},
    {"id": "lighthouse", "names": names("Lighthouse"), "cost": 6,
     "bonus": {"kind": "manual", "text": {"en": "Build one establishment for free."}}},
]


def catalog_raw() -> dict:
    """A fresh copy of the test catalog's JSON (tests may break it)."""
    return copy.deepcopy({"establishments": ESTABLISHMENTS, "landmarks": LANDMARKS,
                          "community": COMMUNITY})


CATALOG = parse_catalog(catalog_raw())
ABC = ["smithy", "florist", "fountain"]


def setup_raw(seats: int = 2, **fields: object) -> dict:
    raw = {"catalog": catalog_raw(), "game": 1, "first": 0,
           "landmarks": [list(ABC) for _ in range(seats)], "community": "statue",
           "town_square": [["wheat_field", "bakery"] for _ in range(seats)], "slot_costs": None}
    raw.update(fields)
    return raw


def start(seats: int = 2, **fields: object) -> LegacyState:
    return new_game(parse_setup(setup_raw(seats, **fields)), tuple("ABCD"[:seats]))


def game(notation: str, *, active: int = 0, phase: Phase = Phase.ROLL, contributed: tuple = (),
         setup: dict | None = None, **table_fields: object) -> LegacyState:
    """A game as written: each seat's coins, cards and built landmarks (a seat that built the
    Smithy rolls two dice)."""
    players = []
    for seat in notation.split("|"):
        name, coins, *items = seat.split()
        cards: dict[str, int] = {}
        built = set()
        for item in items:
            if item.startswith("+"):
                built.add(item[1:])
            else:
                card, _, count = item.partition("*")
                cards[card] = cards.get(card, 0) + int(count or 1)
        players.append(Player(name, int(coins), frozen_counts(cards), frozenset(built),
                              2 if "smithy" in built else 1))
    raw = setup if setup is not None else setup_raw(len(players))
    state = new_game(parse_setup(raw), tuple(p.name for p in players))
    table = replace(state.table, players=tuple(players), active=active, phase=phase, **table_fields)
    return replace(state, table=table, contributed=contributed)


def coins(state: LegacyState) -> list[int]:
    return [player.coins for player in state.table.players]


def play(state: LegacyState, seat: int, move: object) -> tuple[LegacyState, list]:
    """Decide and apply one move; every fact conserves the coins and leaves none below zero."""
    facts = decide(state, seat, move)
    after = state
    for fact in facts:
        after = evolve_all(after, [fact])
        assert after.total_coins() == state.total_coins(), fact
        assert all(player.coins >= 0 for player in after.table.players), fact
    return after, facts


def test_builders_make_the_game_written():
    state = game("A 3 wheat_field bakery*2 +smithy | B 0 cafe", active=1, contributed=(1,))
    assert state.table.players[0].cards == {"wheat_field": 1, "bakery": 2}
    assert state.table.players[0].dice_count == 2
    assert state.contributed == (1,) and state.table.active == 1


# ---------------------------------------------------------------- campaigns

GROUP = [{"name": "Joke", "colour": "red", "city": "Zonnedal"},
         {"name": "Ben", "colour": "blue", "city": "Havenstad"},
         {"name": "Toon", "colour": "green", "city": "Bergen"}]


def new_campaign(group: list | None = None, catalog: dict | None = None) -> tuple[cp.Campaign, list]:
    """A campaign of the test group with the test catalog: (campaign, its facts so far)."""
    facts = cp.create("Our island", group or copy.deepcopy(GROUP),
                      catalog if catalog is not None else catalog_raw())
    return cp.replay(facts), facts


def run(campaign: cp.Campaign, facts: list, *commands: Command) -> tuple[cp.Campaign, list]:
    """Decide and apply commands in turn, keeping the journal."""
    for command in commands:
        new = cp.decide(campaign, command)
        campaign = cp.evolve(campaign, new)
        facts = [*facts, *new]
    return campaign, facts


def finish_checklist(campaign: cp.Campaign, facts: list, number: int) -> tuple[cp.Campaign, list]:
    return run(campaign, facts, *(TickStep(number, step) for step in range(2, 9)))
