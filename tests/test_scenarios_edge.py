"""The rules auditor's cases for `companion resolve` (SCENARIOS.md): every rule of RULES.md 1-8
and 17 with its edge cases, outcomes worked out by hand, and every kind of refusal with the
field it must name. Most cases run in-process; a representative set runs the real command."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from conftest import assert_one_line_refusal, resolve_json, run_companion
from hypothesis import given, settings
from hypothesis import strategies as st
from scenario_builders import ALL_LANDMARKS, P, city, table

from companion.rules.coop.scenario import AssessorError
from companion.rules.errors import RuleError
from companion.rules.machi_koro.catalog import CATALOG_DIR, load_catalog, load_catalog_file
from companion.rules.machi_koro.evolve import replay
from companion.rules.machi_koro.scenario import ScenarioError, play, resolve


def T(source: str, target: str, amount: int, card: str, forgiven: int = 0) -> dict:
    return {"from": source, "to": target, "amount": amount, "card": card, "forgiven": forgiven}


def out(coins: dict[str, int], transfers: list[dict], extra_turn: bool = False) -> dict:
    return {"coins": coins, "transfers": transfers, "extra_turn": extra_turn}


TS = "train_station"
MALL = "shopping_mall"
PARK = "amusement_park"
TV6 = {"tv_station": 1}

# (id naming the rule, why, scenario, expected output)
RESOLVED = [
    # ---- RULES.md 1-2: red first, creditors counter-clockwise, each paid in full in turn
    ("rule2_red_ccw_several_creditors_roller_runs_out",
     "D, C, B from A's right; A's 3 coins pay D 1, C 2, B gets nothing; then A's bakery pays",
     table(P("A", 3), P("B", 0, city(cafe=3)), P("C", 0, city(cafe=2)), P("D", 0, city(cafe=1))),
     out({"A": 1, "B": 0, "C": 2, "D": 1},
         [T("A", "D", 1, "cafe"), T("A", "C", 2, "cafe"), T("A", "B", 0, "cafe", 3),
          T("bank", "A", 1, "bakery")])),
    ("rule1_red_ccw_from_a_middle_seat",
     "C rolls: B (mall: 2), then A (2), then D (nothing left); C's bakery after",
     table(P("A", 0, city(cafe=2)), P("B", 0, city(cafe=1), [MALL]), P("C", 4),
           P("D", 0, city(cafe=2)), active=2),
     out({"A": 2, "B": 2, "C": 1, "D": 0},
         [T("C", "B", 2, "cafe"), T("C", "A", 2, "cafe"), T("C", "D", 0, "cafe", 2),
          T("bank", "C", 1, "bakery")])),
    ("rule2_broke_roller_pays_nothing_and_keeps_later_income",
     "the rule book's example: a roller without coins owes the cafe nothing; the bakery pays",
     table(P("A", 0), P("B", 2, city(cafe=1))),
     out({"A": 1, "B": 2}, [T("A", "B", 0, "cafe", 1), T("bank", "A", 1, "bakery")])),
    ("rule2_own_red_cards_never_pay_the_roller",
     "red cards take from the roller only for their other owners",
     table(P("A", 2, city(cafe=2)), P("B", 2)),
     out({"A": 3, "B": 2}, [T("bank", "A", 1, "bakery")])),
    ("rule3_mall_of_the_creditor_not_the_roller",
     "10: C's restaurant with C's mall asks 3, B's without asks 2 (A's mall counts for neither)",
     table(P("A", 4, landmarks=[TS, MALL]), P("B", 0, city(family_restaurant=1)),
           P("C", 0, city(family_restaurant=1), [MALL]), dice=(4, 6)),
     out({"A": 0, "B": 1, "C": 3},
         [T("A", "C", 3, "family_restaurant"), T("A", "B", 1, "family_restaurant", 1)])),
    ("rule3_mall_cafe_asks_2_from_a_broke_roller",
     "the published mall-cafe-broke-roller case with its transfers",
     table(P("A", 3, landmarks=[TS]), P("B", 10, city(cafe=2), [MALL])),
     out({"A": 1, "B": 13}, [T("A", "B", 3, "cafe", 1), T("bank", "A", 1, "bakery")])),
    ("rule2_red_before_blue_on_ten",
     "the restaurant is paid before the roller's apple orchard pays",
     table(P("A", 1, city(apple_orchard=1), [TS]), P("B", 0, city(family_restaurant=1)),
           dice=(4, 6)),
     out({"A": 3, "B": 1},
         [T("A", "B", 1, "family_restaurant", 1), T("bank", "A", 3, "apple_orchard")])),
    ("rule2_cafe_and_family_restaurant_never_on_one_roll",
     "a 3 wakes the cafe only (the restaurant is 9-10)",
     table(P("A", 5), P("B", 0, city(cafe=1, family_restaurant=1))),
     out({"A": 5, "B": 1}, [T("A", "B", 1, "cafe"), T("bank", "A", 1, "bakery")])),
    # ---- RULES.md 2-4: blue on every roll, green for the roller only, factories and markets
    ("rule2_blue_pays_every_owner_green_only_the_roller",
     "published blue-pays-everyone: roller's ranch and bakery, then A's ranch; no other bakery",
     table(P("A", 0, {"wheat_field": 2, "bakery": 1, "ranch": 1}),
           P("B", 1, {"wheat_field": 1, "bakery": 1, "ranch": 2}),
           P("C", 5, {"wheat_field": 3, "bakery": 4}), active=1, dice=(2,)),
     out({"A": 1, "B": 4, "C": 5},
         [T("bank", "B", 2, "ranch"), T("bank", "B", 1, "bakery"), T("bank", "A", 1, "ranch")])),
    ("rule2_bank_payments_roller_first_then_clockwise",
     "blue income is listed for the roller, then the seats clockwise from the roller's left",
     table(P("A", 0, {"wheat_field": 1}), P("B", 0, {"wheat_field": 1}),
           P("C", 0, {"wheat_field": 1}), P("D", 0, {"wheat_field": 1}), active=1, dice=(1,)),
     out({"A": 1, "B": 1, "C": 1, "D": 1},
         [T("bank", "B", 1, "wheat_field"), T("bank", "C", 1, "wheat_field"),
          T("bank", "D", 1, "wheat_field"), T("bank", "A", 1, "wheat_field")])),
    ("rule2_others_green_never_pays",
     "B's convenience store does nothing on A's 4",
     table(P("A", 0), P("B", 0, city(convenience_store=1)), dice=(4,))),
    ("rule3_mall_roller_bakeries",
     "two bakeries with the mall pay 2 each",
     table(P("A", 0, {"wheat_field": 1, "bakery": 2}, [MALL]), P("B", 0)),
     out({"A": 4, "B": 0}, [T("bank", "A", 4, "bakery")])),
    ("rule3_mall_roller_convenience_store",
     "two convenience stores with the mall pay 4 each",
     table(P("A", 0, city(convenience_store=2), [MALL]), P("B", 0), dice=(4,)),
     out({"A": 8, "B": 0}, [T("bank", "A", 8, "convenience_store")])),
    ("rule3_mall_does_not_touch_wheat",
     "wheat fields have no bread or cup icon",
     table(P("A", 0, {"wheat_field": 2}, [MALL]), P("B", 0), dice=(1,)),
     out({"A": 2, "B": 1}, [T("bank", "A", 2, "wheat_field"), T("bank", "B", 1, "wheat_field")])),
    ("rule4_cheese_factory_copies_multiply",
     "2 factories x 3 x 3 own cows = 18; B's ranch does not count for A",
     table(P("A", 0, city(ranch=3, cheese_factory=2), [TS]), P("B", 0, city(ranch=1)),
           dice=(3, 4)),
     out({"A": 18, "B": 0}, [T("bank", "A", 18, "cheese_factory")])),
    ("rule4_factory_without_matching_icons_pays_nothing",
     "no cow of A's own: nothing, and no transfer of 0",
     table(P("A", 2, city(cheese_factory=1), [TS]), P("B", 0, city(ranch=2)), dice=(3, 4)),
     out({"A": 2, "B": 0}, [])),
    ("rule4_furniture_factory_counts_forests_and_mines",
     "3 gear cards x 3 = 9",
     table(P("A", 0, {"bakery": 1, "forest": 2, "mine": 1, "furniture_factory": 1}, [TS]),
           P("B", 0), dice=(2, 6)),
     out({"A": 9, "B": 0}, [T("bank", "A", 9, "furniture_factory")])),
    ("rule4_market_counts_wheat_fields_and_orchards",
     "2 markets x 2 x 3 wheat cards = 12",
     table(P("A", 0, {"wheat_field": 2, "apple_orchard": 1, "fruit_and_vegetable_market": 2},
             [TS]), P("B", 0), dice=(5, 6)),
     out({"A": 12, "B": 0}, [T("bank", "A", 12, "fruit_and_vegetable_market")])),
    ("rule4_market_without_wheat_pays_nothing",
     "12 with no wheat icon: nothing; doubles without a park give no turn",
     table(P("A", 1, {"bakery": 1, "fruit_and_vegetable_market": 1}, [TS]), P("B", 0),
           dice=(6, 6)),
     out({"A": 1, "B": 0}, [])),
    ("rule4_mall_not_on_factories",
     "a factory has no bread or cup icon",
     table(P("A", 0, {"ranch": 1, "cheese_factory": 1}, [TS, MALL]), P("B", 0), dice=(3, 4)),
     out({"A": 3, "B": 0}, [T("bank", "A", 3, "cheese_factory")])),
    ("rule2_mines_pay_every_owner",
     "9: A's mine and B's two mines",
     table(P("A", 0, city(mine=1), [TS]), P("B", 0, city(mine=2)), dice=(4, 5)),
     out({"A": 5, "B": 10}, [T("bank", "A", 5, "mine"), T("bank", "B", 10, "mine")])),
    # ---- RULES.md 5: purple cards, the roller's only, Stadium then TV Station then Business Center
    ("rule5_stadium_ccw_each_pays_what_they_can",
     "D pays 2, C has nothing, B pays his 1",
     table(P("A", 0, city(stadium=1)), P("B", 1), P("C", 0), P("D", 5), dice=(6,)),
     out({"A": 3, "B": 0, "C": 0, "D": 3},
         [T("D", "A", 2, "stadium"), T("C", "A", 0, "stadium", 2), T("B", "A", 1, "stadium", 1)])),
    ("rule5_tv_automatic_target_after_the_stadium",
     "after the Stadium only C has coins: the TV Station takes C's 5",
     table(P("A", 0, city(stadium=1, tv_station=1)), P("B", 2), P("C", 7), dice=(6,)),
     out({"A": 9, "B": 0, "C": 0},
         [T("C", "A", 2, "stadium"), T("B", "A", 2, "stadium"), T("C", "A", 5, "tv_station")])),
    ("rule5_stadium_leaves_nothing_for_the_tv",
     "nobody has coins after the Stadium: the TV Station does nothing, the name is moot",
     table(P("A", 0, city(stadium=1, tv_station=1)), P("B", 2), P("C", 1), dice=(6,),
           choices={"tv_station_target": "B"}),
     out({"A": 3, "B": 0, "C": 0}, [T("C", "A", 1, "stadium", 1), T("B", "A", 2, "stadium")])),
    ("rule11_tv_default_tie_after_the_stadium_ccw",
     "B and C both have 4 after the Stadium: C is first counter-clockwise from A",
     table(P("A", 0, city(stadium=1, tv_station=1)), P("B", 6), P("C", 6), dice=(6,)),
     out({"A": 8, "B": 4, "C": 0},
         [T("C", "A", 2, "stadium"), T("B", "A", 2, "stadium"), T("C", "A", 4, "tv_station", 1)])),
    ("rule11_tv_default_is_the_richest",
     "no name given: C has the most",
     table(P("A", 0, city(**TV6)), P("B", 3), P("C", 4), P("D", 1), dice=(6,)),
     out({"A": 4, "B": 3, "C": 0, "D": 1}, [T("C", "A", 4, "tv_station", 1)])),
    ("rule11_tv_default_tie_ccw",
     "three tied: D is first from A's right",
     table(P("A", 0, city(**TV6)), P("B", 4), P("C", 4), P("D", 4), dice=(6,)),
     out({"A": 4, "B": 4, "C": 4, "D": 0}, [T("D", "A", 4, "tv_station", 1)])),
    ("rule5_tv_named_player_with_fewer_than_5",
     "B is named and pays the 3 she has",
     table(P("A", 0, city(**TV6)), P("B", 3), P("C", 9), dice=(6,),
           choices={"tv_station_target": "B"}),
     out({"A": 3, "B": 0, "C": 9}, [T("B", "A", 3, "tv_station", 2)])),
    ("rule5_tv_named_player_without_coins_takes_nothing",
     "two others have coins, the roller names the one who has none",
     table(P("A", 0, city(**TV6)), P("B", 0), P("C", 4), P("D", 4), dice=(6,),
           choices={"tv_station_target": "B"}),
     out({"A": 0, "B": 0, "C": 4, "D": 4}, [T("B", "A", 0, "tv_station", 5)])),
    ("rule5_tv_only_one_with_coins_is_automatic_whoever_is_named",
     "only B has coins: B pays, the name of C does not matter",
     table(P("A", 0, city(**TV6)), P("B", 4), P("C", 0), dice=(6,),
           choices={"tv_station_target": "C"}),
     out({"A": 4, "B": 0, "C": 0}, [T("B", "A", 4, "tv_station", 1)])),
    ("rule5_three_purple_cards_in_order_on_doubles",
     "3+3 with a park: the Stadium, then the TV Station on the one named, then the swap; again",
     table(P("A", 0, city(stadium=1, tv_station=1, business_center=1), [TS, PARK]),
           P("B", 6, city(ranch=1)), P("C", 3), dice=(3, 3),
           choices={"tv_station_target": "C",
                    "business_center": {"with": "B", "give": "wheat_field", "take": "ranch"}}),
     out({"A": 5, "B": 4, "C": 0},
         [T("C", "A", 2, "stadium"), T("B", "A", 2, "stadium"), T("C", "A", 1, "tv_station", 4)],
         True)),
    ("rule5_tv_nobody_has_coins",
     "nothing to take: no transfer at all",
     table(P("A", 0, city(**TV6)), P("B", 0), P("C", 0), dice=(6,)),
     out({"A": 0, "B": 0, "C": 0}, [])),
    ("rule5_purple_cards_work_for_the_roller_only",
     "B's Stadium and TV Station do nothing on A's 6",
     table(P("A", 1), P("B", 5, city(stadium=1, tv_station=1)), dice=(6,))),
    ("rule5_business_center_swap_moves_no_coins",
     "a legal swap: no coins move",
     table(P("A", 0, city(business_center=1)), P("B", 0, city(ranch=1)), dice=(6,),
           choices={"business_center": {"with": "B", "give": "bakery", "take": "ranch"}})),
    ("rule5_business_center_same_kind_swap",
     "swapping a bakery for a bakery is allowed and changes nothing",
     table(P("A", 0, city(business_center=1)), P("B", 0), dice=(6,),
           choices={"business_center": {"with": "B", "give": "bakery", "take": "bakery"}})),
    ("rule5_business_center_decline_word",
     "\"decline\" is no swap",
     table(P("A", 0, city(business_center=1)), P("B", 0), dice=(6,),
           choices={"business_center": "decline"})),
    ("rule5_business_center_decline_object",
     "{\"decline\": true} is no swap",
     table(P("A", 0, city(business_center=1)), P("B", 0), dice=(6,),
           choices={"business_center": {"decline": True}})),
    ("rule5_business_center_with_only_purple_cards_may_decline",
     "the roller has nothing to give: no question, declining is fine",
     table(P("A", 2, {"business_center": 1}), P("B", 0), dice=(6,),
           choices={"business_center": "decline"})),
    ("rule5_choices_ignored_when_the_card_does_not_activate",
     "a 3: even answers that would be refused are ignored",
     table(P("A", 0, city(business_center=1, tv_station=1)), P("B", 0), dice=(3,),
           choices={"tv_station_target": "A", "business_center": 5}),
     out({"A": 1, "B": 0}, [T("bank", "A", 1, "bakery")])),
    ("rule5_choices_ignored_without_the_card",
     "a 6 but the roller owns no TV Station or Business Center",
     table(P("A", 0), P("B", 4), dice=(6,),
           choices={"tv_station_target": 3, "business_center": ["x"]})),
    ("scenario_null_optional_fields_count_as_absent",
     "null choices, answers and bonus_turn are the defaults",
     table(P("A", 0, city(**TV6)), P("B", 2), dice=(6,), bonus_turn=None,
           choices={"tv_station_target": None, "business_center": None}),
     out({"A": 2, "B": 0}, [T("B", "A", 2, "tv_station", 3)])),
    # ---- RULES.md 6: dice, Amusement Park, Radio Tower
    ("rule6_amusement_park_doubles_extra_turn",
     "published amusement-park-doubles",
     table(P("A", 2, city(mine=1), [TS, PARK]), P("B", 2), dice=(3, 3)),
     out({"A": 2, "B": 2}, [], True)),
    ("rule7_every_landmark_built_still_resolves",
     "a position with a complete city is resolved as given: B's cafe first, then the mall bakery",
     table(P("A", 3, city(), ALL_LANDMARKS), P("B", 0, city(cafe=1)), dice=(1, 2)),
     out({"A": 4, "B": 1}, [T("A", "B", 1, "cafe"), T("bank", "A", 2, "bakery")])),
    ("rule6_amusement_park_not_twice_in_a_row",
     "this roll is already the extra turn",
     table(P("A", 2, city(), [TS, PARK]), P("B", 2), dice=(2, 2), bonus_turn=True),
     out({"A": 2, "B": 2}, [], False)),
    ("rule6_amusement_park_bonus_turn_false_given",
     "bonus_turn false is the default: doubles give the turn",
     table(P("A", 2, city(), [TS, PARK]), P("B", 2), dice=(2, 2), bonus_turn=False),
     out({"A": 2, "B": 2}, [], True)),
    ("rule6_doubles_without_park",
     "no Amusement Park: no extra turn",
     table(P("A", 2, city(), [TS]), P("B", 2), dice=(2, 2)),
     out({"A": 2, "B": 2}, [], False)),
    ("rule6_park_without_doubles",
     "2+3 is no double",
     table(P("A", 2, city(), [TS, PARK]), P("B", 2), dice=(2, 3)),
     out({"A": 2, "B": 2}, [], False)),
    ("rule6_park_one_die_is_never_doubles",
     "one die: no doubles; the bakery pays",
     table(P("A", 2, city(), [TS, PARK]), P("B", 2), dice=(3,)),
     out({"A": 3, "B": 2}, [T("bank", "A", 1, "bakery")], False)),
    ("rule6_radio_tower_does_nothing_in_resolve",
     "the dice given are the ones that count",
     table(P("A", 0, city(), ["radio_tower"]), P("B", 0), dice=(3,)),
     out({"A": 1, "B": 0}, [T("bank", "A", 1, "bakery")])),
    # ---- RULES.md 17: co-op, the bank pays what one player would pay another
    ("rule17_coop_other_players_cafe_paid_by_the_bank",
     "B's cafes are paid by the bank to B; A keeps his coins and gets his bakery",
     table(P("A", 0), P("B", 0, city(cafe=2)), ruleset="machi-koro-coop"),
     out({"A": 1, "B": 2}, [T("bank", "B", 2, "cafe"), T("bank", "A", 1, "bakery")])),
    ("rule17_coop_mall_cafe_paid_by_the_bank",
     "B's mall: 2 per cafe, from the bank, whatever the roller has",
     table(P("A", 1), P("B", 0, city(cafe=2), [MALL]), ruleset="machi-koro-coop"),
     out({"A": 2, "B": 4}, [T("bank", "B", 4, "cafe"), T("bank", "A", 1, "bakery")])),
    ("rule17_coop_family_restaurant_paid_by_the_bank",
     "9: B's restaurant takes nothing from A",
     table(P("A", 5, landmarks=[TS]), P("B", 0, city(family_restaurant=1)), dice=(4, 5),
           ruleset="machi-koro-coop"),
     out({"A": 5, "B": 2}, [T("bank", "B", 2, "family_restaurant")])),
    ("rule17_coop_stadium_and_tv_paid_by_the_bank",
     "Stadium 2 for the one other player, TV Station 5, both from the bank; B keeps hers",
     table(P("A", 0, city(stadium=1, tv_station=1)), P("B", 9), dice=(6,),
           ruleset="machi-koro-coop", choices={"tv_station_target": "B"}),
     out({"A": 7, "B": 9}, [T("bank", "A", 2, "stadium"), T("bank", "A", 5, "tv_station")])),
    ("rule17_coop_own_cafe_never_pays_the_roller",
     "the bank pays red cards to their other owners only",
     table(P("A", 0, city(cafe=1)), P("B", 0), ruleset="machi-koro-coop"),
     out({"A": 1, "B": 0}, [T("bank", "A", 1, "bakery")])),
    ("rule19_coop_one_complete_city_plays_on",
     "co-op players win together: one complete city is not the end; A's mall counts",
     table(P("A", 0, city(), ALL_LANDMARKS), P("B", 0), ruleset="machi-koro-coop"),
     out({"A": 2, "B": 0}, [T("bank", "A", 2, "bakery")])),
]


def _unchanged(scenario: dict) -> dict:
    """The outcome when nothing moves: coins as given, no transfers, no extra turn."""
    return out({p["name"]: p["coins"] for p in scenario["players"]}, [])


CASES = [(case[0], case[2], case[3] if len(case) > 3 else _unchanged(case[2]))
         for case in RESOLVED]


@pytest.mark.parametrize(("scenario", "expected"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_resolved_by_hand(scenario, expected):
    assert resolve(copy.deepcopy(scenario)) == expected


def test_cafe_and_family_restaurant_never_share_a_number():
    """Why one creditor never has two red kinds on one roll in the base set."""
    catalog = load_catalog()
    cafe, restaurant = catalog.establishment("cafe"), catalog.establishment("family_restaurant")
    assert not set(cafe.activation) & set(restaurant.activation)


def test_rule2_all_of_one_creditors_red_cards_before_the_next(tmp_path):
    """RULES.md 2 with two red kinds on one number (a catalog where the Family Restaurant also
    wakes on 3): C, first from A's right, takes cafe then restaurant and empties A; B's cafe
    gets nothing. Paying kind by kind would have given B a coin."""
    base_toml = (CATALOG_DIR / "base.toml").read_text(encoding="utf-8")
    assert base_toml.count("activation = [9, 10]") == 1
    path = tmp_path / "base.toml"
    path.write_text(base_toml.replace("activation = [9, 10]", "activation = [3, 9, 10]"),
                    encoding="utf-8")
    catalog = load_catalog_file(path)
    scenario = table(P("A", 3), P("B", 0, city(cafe=1)),
                     P("C", 0, city(cafe=1, family_restaurant=1)))
    assert resolve(scenario, catalog) == out(
        {"A": 1, "B": 0, "C": 3},
        [T("A", "C", 1, "cafe"), T("A", "C", 2, "family_restaurant"), T("A", "B", 0, "cafe", 1),
         T("bank", "A", 1, "bakery")])


def final_table(scenario: dict) -> Any:
    """The table after the roll and the roller's answers (cards after a Business Center swap)."""
    return replay(*play(scenario, load_catalog()))


def test_rule5_business_center_swap_moves_the_cards():
    scenario = table(P("A", 0, city(business_center=1)), P("B", 0, city(ranch=1)), dice=(6,),
                     choices={"business_center": {"with": "B", "give": "bakery", "take": "ranch"}})
    final = final_table(scenario)
    assert dict(final.players[0].cards) == {"wheat_field": 1, "ranch": 1, "business_center": 1}
    assert dict(final.players[1].cards) == {"wheat_field": 1, "bakery": 2}


def test_rule5_business_center_not_asked_keeps_the_cards():
    scenario = table(P("A", 0, city(business_center=1)), P("B", 0, city(ranch=1)), dice=(6,))
    final = final_table(scenario)
    assert dict(final.players[0].cards) == city(business_center=1)


# ---------------------------------------------------------------- refusals

def good() -> dict:
    """A legal table that the refusals below break in one place each."""
    return table(P("A", 3, city(), [TS]), P("B", 3, city(cafe=1)))


def _with(path: str, value: Any, base: dict | None = None) -> dict:
    """`base` (default: good()) with the dotted `path` set to `value`; DELETE removes it."""
    scenario = copy.deepcopy(good() if base is None else base)
    *parents, last = path.split(".")
    node: Any = scenario
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if value is DELETE:
        del node[last]
    elif isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return scenario


DELETE = object()
BC_TABLE = table(P("A", 3, city(business_center=1)), P("B", 3, city(ranch=1, stadium=1), [TS]),
                 dice=(6,))
TV_TABLE = table(P("A", 0, city(**TV6)), P("B", 3), P("C", 4), dice=(6,))
TV_AUTO = table(P("A", 0, city(**TV6)), P("B", 3), P("C", 0), dice=(6,))


def swap(**answer: Any) -> dict:
    scenario = copy.deepcopy(BC_TABLE)
    scenario["choices"] = {"business_center": {"with": "B", "give": "bakery", "take": "ranch",
                                               **answer}}
    return scenario


def named(target: Any, base: dict = TV_TABLE) -> dict:
    return {**copy.deepcopy(base), "choices": {"tv_station_target": target}}


REFUSED = [
    # (id, scenario, field the one line must start with)
    ("scenario_not_an_object_list", [1, 2], "scenario"),
    ("scenario_not_an_object_text", "machi-koro", "scenario"),
    ("scenario_not_an_object_null", None, "scenario"),
    ("ruleset_missing", _with("ruleset", DELETE), "ruleset"),
    ("ruleset_unknown", _with("ruleset", "chess"), "ruleset"),
    ("ruleset_not_text", _with("ruleset", 5), "ruleset"),
    ("players_missing", _with("players", DELETE), "players"),
    ("players_not_a_list", _with("players", {"A": 1}), "players"),
    ("players_one", _with("players", [P("A", 3)]), "players"),
    ("players_five", _with("players", [P(n, 0) for n in "ABCDE"]), "players"),
    ("players_coop_three", table(P("A", 0), P("B", 0), P("C", 0), ruleset="machi-koro-coop"),
     "players"),
    ("player_not_an_object", _with("players.1", "B"), "players[1]"),
    ("name_missing", _with("players.1.name", DELETE), "players[1].name"),
    ("name_not_text", _with("players.1.name", 7), "players[1].name"),
    ("name_empty", _with("players.1.name", "  "), "players[1].name"),
    ("name_twice", _with("players.1.name", "A"), "players[1].name"),
    ("name_bank", _with("players.1.name", "bank"), "players[1].name"),
    ("name_not_unicode_text", _with("players.1.name", "B\ud800"), "players[1].name"),
    ("coins_missing", _with("players.1.coins", DELETE), "players[1].coins"),
    ("coins_negative", _with("players.1.coins", -1), "players[1].coins"),
    ("coins_fraction", _with("players.1.coins", 1.5), "players[1].coins"),
    ("coins_whole_float", _with("players.1.coins", 3.0), "players[1].coins"),
    ("coins_true", _with("players.1.coins", True), "players[1].coins"),
    ("coins_text", _with("players.1.coins", "3"), "players[1].coins"),
    ("cards_missing", _with("players.1.cards", DELETE), "players[1].cards"),
    ("cards_not_an_object", _with("players.1.cards", ["cafe"]), "players[1].cards"),
    ("card_unknown", _with("players.1.cards", {"castle": 1}), "players[1].cards.castle"),
    ("card_is_a_landmark", _with("players.1.cards", {TS: 1}), "players[1].cards.train_station"),
    ("card_count_negative", _with("players.1.cards.cafe", -1), "players[1].cards.cafe"),
    ("card_count_fraction", _with("players.1.cards.cafe", 1.5), "players[1].cards.cafe"),
    ("card_count_true", _with("players.1.cards.cafe", True), "players[1].cards.cafe"),
    ("purple_twice_stadium", _with("players.1.cards.stadium", 2), "players[1].cards.stadium"),
    ("purple_twice_tv", _with("players.1.cards.tv_station", 2), "players[1].cards.tv_station"),
    ("purple_twice_business_center", _with("players.1.cards.business_center", 3),
     "players[1].cards.business_center"),
    ("box_more_cafes_than_the_supply", _with("players.0.cards.cafe", 6), "players"),
    ("box_more_wheat_fields_than_the_box", _with("players.1.cards.wheat_field", 10), "players"),
    ("box_coop_assessor_holds_a_cafe",
     table(P("A", 0, city(cafe=3)), P("B", 0, city(cafe=3)), ruleset="machi-koro-coop"),
     "players"),
    ("landmarks_missing", _with("players.1.landmarks", DELETE), "players[1].landmarks"),
    ("landmarks_not_a_list", _with("players.1.landmarks", TS), "players[1].landmarks"),
    ("landmark_unknown", _with("players.1.landmarks", ["castle"]), "players[1].landmarks[0]"),
    ("landmark_is_a_card", _with("players.1.landmarks", ["cafe"]), "players[1].landmarks[0]"),
    ("landmark_not_text", _with("players.1.landmarks", [3]), "players[1].landmarks[0]"),
    ("landmark_a_list", _with("players.1.landmarks", [[TS]]), "players[1].landmarks[0]"),
    ("landmark_twice", _with("players.1.landmarks", [TS, TS]), "players[1].landmarks[1]"),
    ("active_missing", _with("active", DELETE), "active"),
    ("active_out_of_range", _with("active", 2), "active"),
    ("active_negative", _with("active", -1), "active"),
    ("active_true", _with("active", True), "active"),
    ("active_float", _with("active", 0.0), "active"),
    ("active_text", _with("active", "0"), "active"),
    ("dice_missing", _with("dice", DELETE), "dice"),
    ("dice_not_a_list", _with("dice", 3), "dice"),
    ("dice_none", _with("dice", []), "dice"),
    ("dice_three", _with("dice", [1, 2, 3]), "dice"),
    ("die_zero", _with("dice", [0]), "dice[0]"),
    ("die_seven", _with("dice", [7]), "dice[0]"),
    ("die_fraction", _with("dice", [2.5]), "dice[0]"),
    ("die_true", _with("dice", [True]), "dice[0]"),
    ("die_text", _with("dice", [3, "3"]), "dice[1]"),
    ("two_dice_without_train_station", _with("active", 1, _with("dice", [1, 2])), "dice"),
    ("bonus_turn_text", _with("bonus_turn", "yes"), "bonus_turn"),
    ("bonus_turn_number", _with("bonus_turn", 1), "bonus_turn"),
    ("bonus_turn_without_amusement_park", _with("bonus_turn", True), "bonus_turn"),
    ("choices_a_list", _with("choices", []), "choices"),
    ("choices_text", _with("choices", "no"), "choices"),
    ("choices_false", _with("choices", False), "choices"),
    ("choices_zero", _with("choices", 0), "choices"),
    ("tv_naming_the_roller", named("A"), "choices.tv_station_target"),
    ("tv_naming_the_roller_when_automatic", named("A", TV_AUTO), "choices.tv_station_target"),
    ("tv_naming_nobody", named("Z"), "choices.tv_station_target"),
    ("tv_naming_a_seat_number", named(1), "choices.tv_station_target"),
    ("tv_naming_a_list", named(["B"]), "choices.tv_station_target"),
    ("tv_coop_naming_the_roller",
     named("A", table(P("A", 0, city(**TV6)), P("B", 3), dice=(6,), ruleset="machi-koro-coop")),
     "choices.tv_station_target"),
    ("bc_give_not_owned", swap(give="cafe"), "choices.business_center.give"),
    ("bc_take_not_owned", swap(take="cafe"), "choices.business_center.take"),
    ("bc_give_purple", swap(give="business_center"), "choices.business_center.give"),
    ("bc_take_purple", swap(take="stadium"), "choices.business_center.take"),
    ("bc_take_landmark", swap(take=TS), "choices.business_center.take"),
    ("bc_give_landmark", swap(give=TS), "choices.business_center.give"),
    ("bc_give_unknown", swap(give="castle"), "choices.business_center.give"),
    ("bc_give_not_text", swap(give=5), "choices.business_center.give"),
    ("bc_take_missing", _with("choices.business_center.take", DELETE, swap()),
     "choices.business_center.take"),
    ("bc_with_oneself", swap(**{"with": "A", "take": "bakery"}), "choices.business_center.with"),
    ("bc_with_nobody", swap(**{"with": "Z"}), "choices.business_center.with"),
    ("bc_with_a_seat_number", swap(**{"with": 1}), "choices.business_center.with"),
    ("bc_not_an_object", _with("choices", {"business_center": ["B"]}, BC_TABLE),
     "choices.business_center"),
    ("bc_other_word", _with("choices", {"business_center": "yes"}, BC_TABLE),
     "choices.business_center"),
    ("rule18_assessor_draw_not_a_card_id",
     {"ruleset": "tax-assessor", "coins": 13, "assessed": [], "draws": [["mine"]]}, "draws[0]"),
    ("rule18_assessor_assessed_not_a_card_id",
     {"ruleset": "tax-assessor", "coins": 13, "assessed": [{"card": "wheat_field"}],
      "draws": ["mine"]}, "assessed[0]"),
    ("bc_roller_has_only_purple_cards",
     table(P("A", 0, {"business_center": 1}), P("B", 0), dice=(6,),
           choices={"business_center": {"with": "B", "give": "bakery", "take": "bakery"}}),
     "choices.business_center.give"),
]


@pytest.mark.parametrize(("scenario", "field"), [c[1:] for c in REFUSED],
                         ids=[c[0] for c in REFUSED])
def test_refused_naming_the_field(scenario, field):
    tax_assessor = isinstance(scenario, dict) and scenario.get("ruleset") == "tax-assessor"
    with pytest.raises(AssessorError if tax_assessor else ScenarioError) as caught:
        resolve(copy.deepcopy(scenario))
    message = str(caught.value)
    assert message.startswith(field + ":"), message
    assert "\n" not in message


def test_the_refusal_base_is_legal():
    assert resolve(good())["coins"] == {"A": 3, "B": 4}
    assert resolve(copy.deepcopy(BC_TABLE))["coins"] == {"A": 3, "B": 3}
    assert resolve(swap())["coins"] == {"A": 3, "B": 3}


# ---------------------------------------------------------------- the real command

COMMAND_RESOLVED = ["rule2_red_ccw_several_creditors_roller_runs_out",
                    "rule5_tv_automatic_target_after_the_stadium",
                    "rule17_coop_other_players_cafe_paid_by_the_bank",
                    "rule6_amusement_park_doubles_extra_turn"]


@pytest.mark.parametrize("case_id", COMMAND_RESOLVED)
def test_command_prints_the_outcome(case_id):
    _, scenario, expected = next(c for c in CASES if c[0] == case_id)
    result = resolve_json(scenario)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert json.loads(result.stdout) == expected


COMMAND_REFUSED = ["ruleset_unknown", "players_one", "name_not_unicode_text", "coins_true",
                   "card_is_a_landmark", "purple_twice_stadium", "box_more_cafes_than_the_supply",
                   "landmark_a_list", "active_out_of_range",
                   "die_seven", "two_dice_without_train_station", "bonus_turn_text",
                   "choices_a_list", "tv_naming_the_roller", "bc_give_purple",
                   "scenario_not_an_object_list"]


def _one_line_refusal(result, field: str) -> None:
    assert_one_line_refusal(result, field + ":")
    assert result.stderr.startswith(field + ":"), result.stderr


@pytest.mark.parametrize("case_id", COMMAND_REFUSED)
def test_command_refuses_with_one_line(case_id):
    _, scenario, field = next(c for c in REFUSED if c[0] == case_id)
    _one_line_refusal(run_companion("resolve", "-", stdin=json.dumps(scenario)), field)


@pytest.mark.parametrize("text", ["{\"ruleset\": ", "", "NaN", "[" * 100_000, "1" * 5000])
def test_command_refuses_text_that_is_not_a_scenario(text):
    _one_line_refusal(run_companion("resolve", "-", stdin=text), "scenario")


# ---------------------------------------------------------------- properties

NAMES = ["A", "B", "C", "D"]
CARD_IDS = sorted(load_catalog().establishments)
STARTING = {"wheat_field", "bakery"}  # up to 2 each and 1 of the others stays within the box


@st.composite
def tables(draw: st.DrawFn) -> dict:
    seats = draw(st.integers(2, 4))
    players = []
    for name in NAMES[:seats]:
        cards = {card: draw(st.integers(0, 2 if card in STARTING else 1)) for card in CARD_IDS}
        landmarks = draw(st.lists(st.sampled_from(ALL_LANDMARKS), unique=True, max_size=3))
        players.append(P(name, draw(st.integers(0, 12)), cards, landmarks))
    active = draw(st.integers(0, seats - 1))
    two = TS in players[active]["landmarks"] and draw(st.booleans())
    dice = draw(st.lists(st.integers(1, 6), min_size=1 + two, max_size=1 + two))
    ruleset = "machi-koro-coop" if seats == 2 and draw(st.booleans()) else "machi-koro"
    return table(*players, active=active, dice=dice, ruleset=ruleset)


@settings(max_examples=300)  # deadline and too_slow: the profile in conftest
@given(tables())
def test_property_every_coin_is_accounted_for(scenario):
    """Coins after = coins before + transfers in - transfers out; nobody below zero; in the base
    game players only pay what they have and the forgiven part is what was not paid."""
    outcome = resolve(copy.deepcopy(scenario))
    coins = {p["name"]: p["coins"] for p in scenario["players"]}
    for move in outcome["transfers"]:
        assert move["amount"] >= 0 and move["forgiven"] >= 0
        assert move["amount"] or move["forgiven"]
        if move["from"] != "bank":
            coins[move["from"]] -= move["amount"]
            assert coins[move["from"]] >= 0
            assert scenario["ruleset"] == "machi-koro"
        if move["to"] != "bank":
            coins[move["to"]] += move["amount"]
        if move["forgiven"]:
            assert move["from"] != "bank" and coins[move["from"]] == 0
    assert outcome["coins"] == coins


def json_containers(inner: st.SearchStrategy) -> st.SearchStrategy:
    # A named function, not a multi-line lambda: hypothesis reads the extend function's source
    # to check that it uses its argument, and a lambda inside a call is not always found.
    return st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["name", "coins", "cards", "landmarks", "with", "give", "take", "cafe",
                         "tv_station_target", "business_center", "decline"]), inner, max_size=4)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 8) | st.floats(allow_nan=False)
    | st.sampled_from(["A", "B", "bank", "", "cafe", "stadium", "wheat_field", "bakery", TS,
                       "decline", "machi-koro", "tax-assessor"]),
    json_containers,
    max_leaves=12,
)


@settings(max_examples=300)
@given(st.dictionaries(st.sampled_from(["ruleset", "players", "active", "dice", "bonus_turn",
                                        "choices", "coins", "assessed", "draws"]), JSONISH,
                       max_size=6), tables())
def test_property_any_json_is_resolved_or_refused_never_crashes(garbage, scenario):
    """Keys of a legal table replaced by arbitrary JSON: an outcome or a refusal, never a crash
    (the Tax Assessor form included)."""
    broken = {**scenario, **garbage}
    try:
        outcome = resolve(broken)
    except RuleError as refused:  # ScenarioError, or the assessor form's AssessorError
        assert ":" in str(refused) and "\n" not in str(refused)
    else:
        keys = ({"coins", "taxes", "assessed", "discarded", "reshuffled", "result"}
                if broken["ruleset"] == "tax-assessor" else {"coins", "transfers", "extra_turn"})
        assert set(outcome) == keys


def test_refusal_says_how_many_seats_each_ruleset_has():
    coop = table(P("A", 0), P("B", 0), P("C", 0), ruleset="machi-koro-coop")
    with pytest.raises(ScenarioError, match="co-op game has exactly 2 players, not 3"):
        resolve(coop)
    with pytest.raises(ScenarioError, match="a table has 2 to 4 players, not 5"):
        resolve(_with("players", [P(n, 0) for n in "ABCDE"]))
