"""The Harbor card set (docs/rules.md 30-35), resolved through the scenario form
(docs/scenarios.md, "With the Harbor card set") and played through the engine."""

from __future__ import annotations

from dataclasses import replace

import pytest
from scenario_builders import P, table

from companion.rules.machi_koro.catalog import load_catalog
from companion.rules.machi_koro.engine import decide, default_move, supply_cards
from companion.rules.machi_koro.evolve import replay
from companion.rules.machi_koro.facts import CoinsTransferred, TunaRolled
from companion.rules.machi_koro.moves import AddTwo, Build, EndTurn, KeepRoll, Roll
from companion.rules.machi_koro.ruleset import MACHI_KORO
from companion.rules.machi_koro.scenario import ScenarioError, resolve
from companion.rules.machi_koro.state import Phase, new_table

HARBOR = load_catalog("base", "harbor")
SETS = ["base", "harbor"]


def with_seat(state, seat, coins=None, cards=(), landmarks=(), dice_count=None):
    """`state` with one seat's city changed: coins set, cards and landmarks added."""
    player = state.players[seat]
    player = replace(player, coins=player.coins if coins is None else coins,
                     cards={**player.cards, **dict(cards)},
                     landmarks=player.landmarks | set(landmarks),
                     dice_count=player.dice_count if dice_count is None else dice_count)
    return replace(state, players=state.players[:seat] + (player,) + state.players[seat + 1:])


def harbor_table(*players, **extra):
    return table(*players, card_sets=SETS, **extra)


def coins(scenario):
    return resolve(scenario)["coins"]


def transfers(scenario):
    return [(t["from"], t["to"], t["amount"], t["card"]) for t in resolve(scenario)["transfers"]]


# ---------------------------------------------------------------- ruling 30: the set-up


def test_ruling_30_a_harbor_table_seats_two_to_five():
    assert (HARBOR.players_min, HARBOR.players_max) == (2, 5)
    state = new_table(HARBOR, ("A", "B", "C", "D", "E"))
    assert all(p.cards == {"wheat_field": 1, "bakery": 1} for p in state.players)


def test_ruling_30_the_card_ids():
    ids = {"city_hall", "harbor", "airport", "sushi_bar", "flower_orchard", "flower_shop",
           "pizza_joint", "publisher", "hamburger_stand", "mackerel_boat", "tax_office",
           "food_warehouse", "tuna_boat"}
    assert ids <= set(HARBOR.establishments) | set(HARBOR.landmarks)


def test_ruling_30_the_supply_is_variable_and_keeps_one_purple_copy_per_player():
    state = MACHI_KORO.start(HARBOR, ("A", "B", "C"), {})
    assert state.variable_supply  # ruling 13's ten kinds, whatever the options say
    kept, removed = supply_cards(HARBOR, 3)
    for card in ("stadium", "tv_station", "business_center", "publisher", "tax_office"):
        assert kept.count(card) == 3
        assert removed.count(card) == HARBOR.establishments[card].copies - 3


def test_ruling_30_five_players_keep_five_of_each_purple_card():
    """A fifth player could never build the base game's purple cards (four in its box) if the
    fifth copies were missing: the game keeps as many copies as there are players."""
    kept, removed = supply_cards(HARBOR, 5)
    for card in ("stadium", "tv_station", "business_center", "publisher", "tax_office"):
        assert kept.count(card) == 5 and removed.count(card) == 0
    assert load_catalog().establishments["stadium"].copies == 4  # the base game alone: 4


def test_ruling_30_a_card_of_a_set_the_table_does_not_play_is_refused_naming_it():
    scenario = table(P("A", 3, {"wheat_field": 1, "bakery": 1, "sushi_bar": 1}), P("B", 3))
    with pytest.raises(ScenarioError, match=r"players\[0\]\.cards\.sushi_bar: .*harbor"):
        resolve(scenario)
    with pytest.raises(ScenarioError, match=r"players\[0\]\.landmarks\[0\]: .*harbor"):
        resolve(table(P("A", 3, landmarks=["airport"]), P("B", 3)))


def test_ruling_30_an_unknown_card_set_is_refused_naming_the_field():
    with pytest.raises(ScenarioError, match=r"^card_sets"):
        resolve(table(P("A", 3), P("B", 3), card_sets=["base", "atlantis"]))


def test_ruling_30_five_players_only_with_harbor():
    five = [P(name, 3) for name in "ABCDE"]
    with pytest.raises(ScenarioError, match=r"^players: .*2 to 4"):
        resolve(table(*five))
    assert len(coins(harbor_table(*five))) == 5


# ---------------------------------------------------------------- ruling 31: the landmarks


def test_ruling_31_every_player_starts_with_city_hall_and_it_does_not_count_to_win():
    state = new_table(HARBOR, ("A", "B"))
    assert all("city_hall" in p.landmarks for p in state.players)
    assert "city_hall" not in HARBOR.landmarks_to_win
    assert HARBOR.landmarks_to_win == {"train_station", "shopping_mall", "amusement_park",
                                       "radio_tower", "harbor", "airport"}


def test_ruling_31_city_hall_gives_one_coin_at_the_start_of_a_broke_players_build_step():
    state = with_seat(new_table(HARBOR, ("A", "B")), 0, coins=0)
    facts = decide(state, 0, Roll((5,)), HARBOR)  # 5 activates nothing of A's
    assert CoinsTransferred("bank", 0, 1, "city_hall") in facts
    after = replay(state, facts)
    assert after.phase is Phase.BUILD and after.players[0].coins == 1


def test_ruling_31_city_hall_gives_nothing_to_a_player_with_coins():
    state = new_table(HARBOR, ("A", "B"))
    facts = decide(state, 0, Roll((5,)), HARBOR)
    assert not [f for f in facts if isinstance(f, CoinsTransferred) and f.card == "city_hall"]


def test_ruling_31_city_hall_does_nothing_in_a_resolved_roll():
    """docs/scenarios.md: City Hall is not written and does nothing in a roll."""
    assert coins(harbor_table(P("A", 0), P("B", 0), dice=[5])) == {"A": 0, "B": 0}


def test_ruling_31_harbor_adds_two_to_ten_or_more_when_the_roller_chooses():
    avi = P("Avi", 0, {"wheat_field": 1, "bakery": 1, "mackerel_boat": 1},
            ["train_station", "harbor"])
    dana = P("Dana", 0, {"wheat_field": 1, "bakery": 1, "mackerel_boat": 1}, ["harbor"])
    # 6 + 4 = 10, + 2 = 12: nothing of theirs is 12 (no Tuna Boat); without the 2, nothing at 10
    assert transfers(harbor_table(avi, dana, dice=[6, 4], choices={"harbor_add_two": True})) == []
    # 3 + 3 = 6 is under 10: the choice is ignored, nothing at 8 either
    assert coins(harbor_table(avi, dana, dice=[3, 3], choices={"harbor_add_two": True})) == {
        "Avi": 0, "Dana": 0}


def test_ruling_31_the_two_added_activates_the_cards_of_the_new_total():
    """Avi rolls 6+6 and adds 2: 14 activates Tuna Boats, not the Fruit and Vegetable Market."""
    avi = P("Avi", 0, {"wheat_field": 1, "bakery": 1, "tuna_boat": 1,
                       "fruit_and_vegetable_market": 1}, ["train_station", "harbor"])
    scenario = harbor_table(avi, P("Dana", 0), dice=[6, 6], tuna_roll=[1, 2],
                            choices={"harbor_add_two": True})
    assert transfers(scenario) == [("bank", "Avi", 3, "tuna_boat")]


def test_ruling_31_harbor_is_only_the_owners_choice():
    avi = P("Avi", 0, {"wheat_field": 1, "bakery": 1, "tuna_boat": 1,
                       "fruit_and_vegetable_market": 1}, ["train_station"])
    scenario = harbor_table(avi, P("Dana", 0), dice=[6, 6], choices={"harbor_add_two": True})
    # no Harbor: 12 counts, and the market pays 2 for the Wheat Field; no Tuna Boat at 12 pays
    assert transfers(scenario) == [("bank", "Avi", 2, "fruit_and_vegetable_market")]


def test_ruling_31_harbor_waits_for_the_roller_and_defaults_to_not_adding():
    state = with_seat(new_table(HARBOR, ("A", "B")), 0, coins=10,
                      landmarks={"train_station", "harbor"}, dice_count=2)
    facts = decide(state, 0, Roll((5, 6)), HARBOR)
    waiting = replay(state, facts)
    assert waiting.phase is Phase.HARBOR
    assert MACHI_KORO.choice_open(waiting)
    assert default_move(waiting) == AddTwo(False)
    added = replay(waiting, decide(waiting, 0, AddTwo(True), HARBOR))
    assert added.phase is Phase.BUILD and sum(added.dice) + added.added == 13


def test_ruling_31_airport_pays_ten_to_a_player_who_built_nothing():
    state = with_seat(new_table(HARBOR, ("A", "B")), 0, landmarks={"airport"})
    state = replay(state, decide(state, 0, Roll((5,)), HARBOR))
    facts = decide(state, 0, EndTurn(), HARBOR)
    assert CoinsTransferred("bank", 0, 10, "airport") in facts
    built = replay(state, decide(state, 0, Build("wheat_field"), HARBOR))
    assert not [f for f in decide(built, 0, EndTurn(), HARBOR)
                if isinstance(f, CoinsTransferred) and f.card == "airport"]


# ---------------------------------------------------------------- ruling 32: the cards


def test_ruling_32_sushi_bar_takes_three_only_if_its_owner_has_the_harbor():
    roller = P("A", 10)
    with_harbor = P("B", 0, {"wheat_field": 1, "bakery": 1, "sushi_bar": 1}, ["harbor"])
    without = P("C", 0, {"wheat_field": 1, "bakery": 1, "sushi_bar": 2})
    assert transfers(harbor_table(roller, with_harbor, without, dice=[1])) == [
        ("A", "B", 3, "sushi_bar"), ("bank", "A", 1, "wheat_field"),
        ("bank", "B", 1, "wheat_field"), ("bank", "C", 1, "wheat_field")]


def test_ruling_32_flower_orchard_and_flower_shop():
    a = P("A", 0, {"wheat_field": 1, "bakery": 1, "flower_orchard": 3, "flower_shop": 2})
    assert coins(harbor_table(a, P("B", 0), dice=[4])) == {"A": 3, "B": 0}
    # 6 needs two dice: a Flower Shop pays 1 per Flower Orchard, each copy
    a = P("A", 0, {"wheat_field": 1, "bakery": 1, "flower_orchard": 3, "flower_shop": 2},
          ["train_station"])
    assert coins(harbor_table(a, P("B", 0), dice=[3, 3])) == {"A": 6, "B": 0}


def test_ruling_32_pizza_joint_and_hamburger_stand_take_one_from_the_roller():
    roller = P("A", 5, landmarks=["train_station"])
    b = P("B", 0, {"wheat_field": 1, "bakery": 1, "pizza_joint": 2, "hamburger_stand": 1})
    assert coins(harbor_table(roller, b, dice=[3, 4])) == {"A": 3, "B": 2}
    assert coins(harbor_table(roller, b, dice=[4, 4])) == {"A": 4, "B": 1}


def test_ruling_32_publisher_takes_one_per_cup_and_bread_card_from_every_other_player():
    roller = P("A", 0, {"wheat_field": 1, "bakery": 1, "publisher": 1}, ["train_station"])
    b = P("B", 10, {"wheat_field": 1, "bakery": 2, "cafe": 1, "ranch": 3})  # 3 cup/bread
    c = P("C", 1, {"wheat_field": 1, "bakery": 1, "convenience_store": 1})  # 2, has 1
    result = resolve(harbor_table(roller, b, c, dice=[3, 4]))
    assert result["coins"] == {"A": 4, "B": 7, "C": 0}
    assert {"from": "C", "to": "A", "amount": 1, "card": "publisher", "forgiven": 1} in (
        result["transfers"])


def test_ruling_32_mackerel_boat_pays_three_with_the_harbor_only():
    roller = P("A", 0, landmarks=["train_station"])
    b = P("B", 0, {"wheat_field": 1, "bakery": 1, "mackerel_boat": 2}, ["harbor"])
    c = P("C", 0, {"wheat_field": 1, "bakery": 1, "mackerel_boat": 1})
    assert coins(harbor_table(roller, b, c, dice=[4, 4])) == {"A": 0, "B": 6, "C": 0}


def test_ruling_32_tax_office_takes_half_from_every_other_player_with_ten_or_more():
    roller = P("A", 0, {"wheat_field": 1, "bakery": 1, "tax_office": 1}, ["train_station"])
    b, c, d = P("B", 15), P("C", 9), P("D", 10)
    # counter-clockwise from A: D, C, B
    assert transfers(harbor_table(roller, b, c, d, dice=[4, 5])) == [
        ("D", "A", 5, "tax_office"), ("B", "A", 7, "tax_office")]


def test_ruling_32_food_warehouse_pays_two_per_cup_card_without_the_mall():
    a = P("A", 0, {"wheat_field": 1, "bakery": 1, "food_warehouse": 1, "cafe": 2,
                   "sushi_bar": 1}, ["train_station", "shopping_mall"])
    assert coins(harbor_table(a, P("B", 0), dice=[6, 6], tuna_roll=[1, 1])) == {"A": 6, "B": 0}


def test_ruling_32_tuna_boats_take_the_tables_roll_per_boat_with_the_harbor():
    """docs/scenarios.md's example: Avi 12 + 2 = 14; Tuna roll 7; Avi 2 boats, Dana no Harbor."""
    scenario = harbor_table(
        P("Avi", 4, {"wheat_field": 1, "bakery": 1, "tuna_boat": 2}, ["train_station", "harbor"]),
        P("Dana", 12, {"wheat_field": 1, "bakery": 1, "tuna_boat": 1}),
        dice=[6, 6], choices={"harbor_add_two": True}, tuna_roll=[3, 4])
    assert coins(scenario) == {"Avi": 18, "Dana": 12}


def test_ruling_32_the_tuna_roll_is_required_only_when_a_boat_with_a_harbor_activates():
    boats = {"wheat_field": 1, "bakery": 1, "tuna_boat": 1}
    needs = harbor_table(P("A", 0, landmarks=["train_station"]), P("B", 0, boats, ["harbor"]),
                         dice=[6, 6])
    with pytest.raises(ScenarioError, match=r"^tuna_roll: "):
        resolve(needs)
    no_harbor = harbor_table(P("A", 0, landmarks=["train_station"]), P("B", 0, boats),
                             dice=[6, 6])
    assert coins(no_harbor) == {"A": 0, "B": 0}
    with pytest.raises(ScenarioError, match=r"^tuna_roll\[1\]: "):
        resolve({**needs, "tuna_roll": [3, 7]})


def test_ruling_32_the_tuna_roll_is_drawn_by_the_service_and_journalled():
    state = with_seat(new_table(HARBOR, ("A", "B")), 0, coins=0, landmarks={"train_station"},
                      dice_count=2)
    state = with_seat(state, 1, coins=0, cards={"tuna_boat": 2}, landmarks={"harbor"})
    deck = lambda cards: tuple(sorted(cards, key=lambda c: c != "5-6"))  # noqa: E731
    facts = decide(state, 0, Roll((6, 6)), HARBOR, deck)
    assert TunaRolled((5, 6)) in facts
    assert replay(state, facts).players[1].coins == 22
    with pytest.raises(Exception, match="Tuna"):
        decide(state, 0, Roll((6, 6)), HARBOR)  # no dealer: the rules never roll themselves


# ---------------------------------------------------------------- rulings 33-35


def test_ruling_33_the_mall_adds_one_to_every_activated_cup_or_bread_copy():
    mall = ["train_station", "shopping_mall", "harbor"]
    shop = P("A", 0, {"wheat_field": 1, "bakery": 1, "flower_orchard": 3, "flower_shop": 1}, mall)
    assert coins(harbor_table(shop, P("B", 0), dice=[3, 3])) == {"A": 4, "B": 0}
    none = P("A", 0, {"wheat_field": 1, "bakery": 1, "flower_shop": 1}, mall)
    assert coins(harbor_table(none, P("B", 0), dice=[3, 3])) == {"A": 1, "B": 0}
    sushi = P("B", 0, {"wheat_field": 1, "bakery": 1, "sushi_bar": 1}, mall)
    # A pays 3 + 1 = 4, then both Wheat Fields pay 1
    assert transfers(harbor_table(P("A", 9), sushi, dice=[1]))[0] == ("A", "B", 4, "sushi_bar")


def test_ruling_33_flower_orchards_are_wheat_for_the_fruit_and_vegetable_market():
    a = P("A", 0, {"wheat_field": 1, "bakery": 1, "flower_orchard": 2,
                   "fruit_and_vegetable_market": 1}, ["train_station"])
    assert coins(harbor_table(a, P("B", 0), dice=[5, 6])) == {"A": 6, "B": 0}


def test_ruling_34_red_cards_pay_each_creditor_in_full_counter_clockwise():
    roller = P("A", 3, landmarks=["train_station"])
    b = P("B", 0, {"wheat_field": 1, "bakery": 1, "pizza_joint": 2})
    c = P("C", 0, {"wheat_field": 1, "bakery": 1, "pizza_joint": 2})
    # counter-clockwise from A: C first, paid 2 in full; B gets the 1 left, 1 forgiven
    result = resolve(harbor_table(roller, b, c, dice=[3, 4]))
    assert result["coins"] == {"A": 0, "B": 1, "C": 2}


def test_ruling_35_finished_players_are_no_victims_of_publisher_or_tax_office():
    all_six = ["train_station", "shopping_mall", "amusement_park", "radio_tower", "harbor",
               "airport"]
    roller = P("A", 0, {"wheat_field": 1, "bakery": 1, "tax_office": 1}, ["train_station"])
    done = {**P("B", 20, landmarks=all_six), "place": 1}
    c = P("C", 20)
    assert coins(harbor_table(roller, done, c, dice=[4, 4])) == {"A": 10, "B": 20, "C": 10}


def test_a_harbor_game_plays_through_keep_roll_and_the_harbor_choice():
    """A Radio Tower's keep comes before the Harbor's question (ruling 31)."""
    state = with_seat(new_table(HARBOR, ("A", "B")), 0,
                      landmarks={"train_station", "radio_tower", "harbor"}, dice_count=2)
    state = replay(state, decide(state, 0, Roll((5, 5)), HARBOR))
    assert state.phase is Phase.REROLL
    state = replay(state, decide(state, 0, KeepRoll(), HARBOR))
    assert state.phase is Phase.HARBOR


@pytest.mark.parametrize(("sets", "field"), [
    (["harbor"], r"^card_sets: the base set"), ([], r"^card_sets: the base set"),
    (["base", "harbor", "harbor"], r"^card_sets\[2\]: 'harbor' is listed twice"),
    ("harbor", r"^card_sets: a list"), ([3], r"^card_sets\[0\]: unknown card set"),
])
def test_card_sets_are_checked_naming_the_field(sets, field):
    with pytest.raises(ScenarioError, match=field):
        resolve(table(P("A", 3), P("B", 3), card_sets=sets))


def test_card_sets_may_list_harbor_first():
    scenario = table(P("A", 3, {"wheat_field": 1, "bakery": 1, "pizza_joint": 1}), P("B", 3),
                     active=1, card_sets=["harbor", "base"])
    assert coins({**scenario, "dice": [6, 1], "players": [
        scenario["players"][0], {**scenario["players"][1], "landmarks": ["train_station"]}]}) == {
        "A": 4, "B": 2}


def test_the_harbor_facts_keep_their_stored_forms():
    """A journal stores these kinds and fields (golden): a rename breaks stored games."""
    from companion.rules.machi_koro.codec import decode_fact, encode_fact
    from companion.rules.machi_koro.facts import HarborAnswered, HarborOffered

    stored = [("HarborOffered", {}), ("HarborAnswered", {"added": 2}),
              ("TunaRolled", {"dice": [3, 4]})]
    for kind, data in stored:
        assert encode_fact(decode_fact(kind, data)) == (kind, data)
    assert decode_fact("HarborAnswered", {"added": 0}) == HarborAnswered(0)
    assert decode_fact("HarborOffered", {}) == HarborOffered()
