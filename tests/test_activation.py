"""Income for one roll, by card and by ruling (RULES.md 1-5). Each test names its rule."""

import pytest
from builders import CATALOG, coins, play, table, transfers

from companion.rules.machi_koro.activation import activation_table
from companion.rules.machi_koro.moves import Roll
from companion.rules.machi_koro.state import BANK, Choice, Phase

# ---------------------------------------------------------------- one test per card


@pytest.mark.parametrize(
    ("owner_cards", "roll", "roller", "expected_owner_gain"),
    [
        # blue: pays its owner on anyone's roll
        ("wheat_field*2", (1,), 1, 2),
        ("ranch*3", (2,), 1, 3),
        ("forest", (5,), 1, 1),
        ("mine*2", (4, 5), 1, 10),
        ("apple_orchard", (4, 6), 1, 3),
        # green: pays only when its owner rolls
        ("bakery*2", (2,), 0, 2),
        ("bakery*2", (3,), 1, 0),
        ("convenience_store", (4,), 0, 3),
        ("convenience_store", (4,), 1, 0),
        ("cheese_factory ranch*2", (3, 4), 0, 6),
        ("cheese_factory*2 ranch", (3, 4), 0, 6),
        ("cheese_factory", (3, 4), 0, 0),
        ("furniture_factory forest mine", (4, 4), 0, 6),
        ("fruit_and_vegetable_market wheat_field*2 apple_orchard", (5, 6), 0, 6),
        ("fruit_and_vegetable_market*2 wheat_field", (6, 6), 0, 4),
    ],
)
def test_card_income_blue_and_green(owner_cards, roll, roller, expected_owner_gain):
    """RULES.md 2 and 4: blue pays every owner, green only the roller; factories and the
    market pay per icon, copies multiply."""
    landmarks = "+train_station" if len(roll) == 2 else ""
    state = table(f"O 0 {owner_cards} {landmarks} | R 0 {landmarks}", active=roller)
    after, _ = play(state, roller, Roll(roll))
    assert after.players[0].coins == expected_owner_gain


@pytest.mark.parametrize(
    ("cards", "roll", "expected"),
    [("cafe*2", (3,), 2), ("family_restaurant", (4, 5), 2), ("family_restaurant*2", (5, 5), 4)],
)
def test_card_red_takes_from_roller(cards, roll, expected):
    """Red cards take from the roller, never from the bank."""
    station = "+train_station" if len(roll) == 2 else ""
    state = table(f"R 10 {station} | O 0 {cards}", active=0)
    after, events = play(state, 0, Roll(roll))
    assert coins(after) == {"R": 10 - expected, "O": expected}
    assert all(source != BANK for source, *_ in transfers(events))


@pytest.mark.parametrize(("seats", "roller", "roll", "expected"), [
    pytest.param("O 5 cafe*3 | R 5", 0, (3,), {"O": 5, "R": 5},
                 id="red_does_not_pay_on_owners_own_roll"),
    pytest.param("A 5 | B 0 stadium +train_station | C 4 | D 2", 1, (3, 3),
                 {"A": 3, "B": 6, "C": 2, "D": 0}, id="stadium_takes_two_from_every_other_player"),
    pytest.param("A 5 stadium | B 5", 1, (6,), {"A": 5, "B": 5},
                 id="purple_pays_only_on_owners_roll"),
])
def test_card_coins_after_a_roll(seats, roller, roll, expected):
    after, _ = play(table(seats, active=roller), roller, Roll(roll))
    assert coins(after) == expected


# ---------------------------------------------------------------- RULES.md 1 and 2


def test_rule1_counter_clockwise_means_active_minus_one_first():
    """RULES.md 1: seats clockwise from 0; creditors are paid from active-1 downwards."""
    state = table("A 0 cafe | B 2 | C 0 cafe | D 0 cafe", active=1)
    after, events = play(state, 1, Roll((3,)))
    payees = [to for _, to, *_ in transfers(events) if to != 1]
    assert payees[:3] == [0, 3, 2]
    assert coins(after)["A"] == 1 and coins(after)["D"] == 1 and coins(after)["C"] == 0


def test_rule2_red_creditor_paid_in_full_before_next():
    """RULES.md 2: the rule book's own example: C (counter-clockwise first) takes 2, B gets the
    last coin, the rest is forgiven."""
    state = table("A 3 wheat_field bakery*2 | B 0 cafe*3 | C 0 cafe*2", active=0)
    after, events = play(state, 0, Roll((3,)))
    assert transfers(events)[:2] == [(0, 2, 2, "cafe", 0), (0, 1, 1, "cafe", 2)]
    assert coins(after) == {"A": 2, "B": 1, "C": 2}


def test_rule2_forgiven_debt_is_not_carried():
    """RULES.md 2: what the roller cannot pay is forgiven, never a debt on the next roll."""
    state = table("A 0 | B 0 cafe*2", active=0)
    after, events = play(state, 0, Roll((3,)))
    assert transfers(events) == [(0, 1, 0, "cafe", 2)]
    assert coins(after) == {"A": 0, "B": 0}


def test_rule2_red_before_green_roller_pays_before_income():
    """RULES.md 2: red first: a roller with no coins pays nothing, then earns from the bakery."""
    state = table("A 0 bakery | B 0 cafe", active=0)
    after, events = play(state, 0, Roll((3,)))
    assert transfers(events) == [(0, 1, 0, "cafe", 1), (BANK, 0, 1, "bakery", 0)]
    assert coins(after) == {"A": 1, "B": 0}


def test_rule2_purple_after_red():
    """RULES.md 2: purple last: a Stadium owner first pays nothing red on 6, then collects; the
    ledger lists the purple entries after every other one."""
    state = table("A 0 stadium +train_station | B 1 | C 3", active=0)
    after, events = play(state, 0, Roll((2, 4)))
    assert transfers(events) == [(2, 0, 2, "stadium", 0), (1, 0, 1, "stadium", 1)]


def test_rule2_blue_and_green_paid_by_bank():
    state = table("A 0 bakery wheat_field | B 0 wheat_field*2", active=0)
    after, events = play(state, 0, Roll((1,)))
    assert {source for source, *_ in transfers(events)} == {BANK}
    assert after.bank == state.bank - 3


# ---------------------------------------------------------------- RULES.md 3 and 4


def test_rule3_mall_adds_one_per_bread_card():
    state = table("A 0 bakery*2 +shopping_mall | B 0", active=0)
    after, events = play(state, 0, Roll((2,)))
    assert coins(after)["A"] == 4
    assert events[1].mall_bonus == 1 and events[1].copies == 2


def test_rule3_mall_makes_cafe_ask_for_two():
    """RULES.md 3: the mall counts for red cards too; a broke roller's shortfall is forgiven."""
    state = table("A 3 bakery | B 10 cafe*2 +shopping_mall", active=0)
    after, events = play(state, 0, Roll((3,)))
    assert transfers(events)[0] == (0, 1, 3, "cafe", 1)
    assert coins(after) == {"A": 1, "B": 13}


def test_rule3_mall_family_restaurant_gives_three():
    state = table("A 9 +train_station | B 0 family_restaurant +shopping_mall", active=0)
    after, _ = play(state, 0, Roll((4, 5)))
    assert coins(after) == {"A": 6, "B": 3}


def test_rule3_mall_convenience_store_gives_four():
    state = table("A 0 convenience_store +shopping_mall | B 0", active=0)
    after, _ = play(state, 0, Roll((4,)))
    assert coins(after)["A"] == 4


@pytest.mark.parametrize(
    ("cards", "roll"),
    [("wheat_field", (1,)), ("cheese_factory ranch", (3, 4)), ("mine", (4, 5)),
     ("fruit_and_vegetable_market wheat_field", (5, 6))],
)
def test_rule3_mall_ignores_other_icons(cards, roll):
    station = "+train_station" if len(roll) == 2 else ""
    without = table(f"A 0 {cards} {station} | B 0", active=0)
    with_mall = table(f"A 0 {cards} {station} +shopping_mall | B 0", active=0)
    assert coins(play(without, 0, Roll(roll))[0]) == coins(play(with_mall, 0, Roll(roll))[0])


def test_rule3_mall_belongs_to_the_card_owner():
    """The roller's mall does not raise what the roller pays to a cafe."""
    state = table("A 5 +shopping_mall | B 0 cafe", active=0)
    assert coins(play(state, 0, Roll((3,)))[0]) == {"A": 4, "B": 1}


def test_rule4_cheese_factory_three_per_cow():
    state = table("A 0 wheat_field bakery ranch*2 cheese_factory +train_station | B 4", active=0)
    assert coins(play(state, 0, Roll((3, 4)))[0]) == {"A": 6, "B": 4}


def test_rule4_furniture_factory_copies_multiply():
    state = table("A 0 furniture_factory*2 forest mine*2 +train_station | B 0", active=0)
    assert coins(play(state, 0, Roll((4, 4)))[0])["A"] == 18


def test_rule4_market_counts_apple_orchards_as_wheat():
    state = table("A 0 fruit_and_vegetable_market apple_orchard*2 +train_station | B 0", active=0)
    assert coins(play(state, 0, Roll((6, 5)))[0])["A"] == 4


# ---------------------------------------------------------------- RULES.md 5


def test_rule5_stadium_each_pays_what_they_can():
    state = table("A 5 | B 1 stadium +train_station | C 1", active=1)
    after, events = play(state, 1, Roll((2, 4)))
    assert coins(after) == {"A": 3, "B": 4, "C": 0}
    assert (2, 1, 1, "stadium", 1) in transfers(events)


def test_rule5_tv_station_asks_when_two_others_have_coins():
    state = table("A 0 tv_station +train_station | B 3 | C 9", active=0)
    after, _ = play(state, 0, Roll((3, 3)))
    assert after.phase is Phase.CHOOSE and after.pending == (Choice.TV_STATION,)


def test_rule5_tv_station_takes_up_to_five_from_named_player():
    from companion.rules.machi_koro.moves import TargetTvStation

    state = table("A 0 tv_station +train_station | B 3 | C 9", active=0)
    after, _ = play(state, 0, Roll((3, 3)))
    after, events = play(after, 0, TargetTvStation(1))
    assert coins(after) == {"A": 3, "B": 0, "C": 9}
    assert after.phase is Phase.BUILD


def test_rule5_tv_station_automatic_when_only_one_other_has_coins():
    state = table("A 0 tv_station +train_station | B 0 | C 9", active=0)
    after, _ = play(state, 0, Roll((3, 3)))
    assert coins(after) == {"A": 5, "B": 0, "C": 4}
    assert after.phase is Phase.BUILD


def test_rule5_tv_station_does_nothing_when_nobody_has_coins():
    state = table("A 0 tv_station +train_station | B 0 | C 0", active=0)
    after, events = play(state, 0, Roll((3, 3)))
    assert transfers(events) == [] and after.phase is Phase.BUILD


def test_rule5_tv_station_counts_coins_after_the_stadium():
    """Stadium first: it can leave only one other player with coins for the TV Station."""
    state = table("A 0 stadium tv_station +train_station | B 2 | C 7", active=0)
    after, _ = play(state, 0, Roll((3, 3)))
    assert coins(after) == {"A": 9, "B": 0, "C": 0}


def test_rule5_business_center_swap():
    from companion.rules.machi_koro.moves import SwapEstablishments

    state = table("A 0 business_center wheat_field +train_station | B 0 mine", active=0)
    after, _ = play(state, 0, Roll((3, 3)))
    assert after.pending == (Choice.BUSINESS_CENTER,)
    after, _ = play(after, 0, SwapEstablishments(1, "wheat_field", "mine"))
    assert dict(after.players[0].cards) == {"business_center": 1, "mine": 1}
    assert dict(after.players[1].cards) == {"wheat_field": 1}


def test_rule5_business_center_not_asked_without_swappable_cards():
    state = table("A 0 business_center +train_station | B 0 mine", active=0)
    after, _ = play(state, 0, Roll((3, 3)))
    assert after.phase is Phase.BUILD


def test_rule5_all_three_purple_cards_in_order():
    from companion.rules.machi_koro.moves import DeclineSwap, TargetTvStation

    state = table(
        "A 0 stadium tv_station business_center bakery +train_station | B 8 ranch | C 8",
        active=0,
    )
    after, _ = play(state, 0, Roll((5, 1)))
    assert coins(after)["A"] == 4
    assert after.pending == (Choice.TV_STATION, Choice.BUSINESS_CENTER)
    after, _ = play(after, 0, TargetTvStation(2))
    assert after.pending == (Choice.BUSINESS_CENTER,)
    after, _ = play(after, 0, DeclineSwap())
    assert coins(after) == {"A": 9, "B": 6, "C": 1} and after.phase is Phase.BUILD


# ---------------------------------------------------------------- co-op payments


def test_rule17_coop_bank_pays_the_cafe():
    """RULES.md 17: in the co-op variant the bank pays what the roller would pay."""
    state = table("A 0 | B 0 cafe*2 +shopping_mall", active=0, bank_pays_players=True)
    after, events = play(state, 0, Roll((3,)))
    assert transfers(events) == [(BANK, 1, 4, "cafe", 0)]
    assert coins(after) == {"A": 0, "B": 4}


def test_rule17_coop_bank_pays_stadium_and_tv_station():
    state = table("A 0 stadium tv_station +train_station | B 0", active=0, bank_pays_players=True)
    after, events = play(state, 0, Roll((3, 3)))
    assert coins(after) == {"A": 7, "B": 0}
    assert {source for source, *_ in transfers(events)} == {BANK}


# ---------------------------------------------------------------- the activation table


@pytest.mark.parametrize("total", range(0, 14))
def test_activation_table_splits_each_roll_by_colour_in_catalog_order(total):
    """The per-catalog table holds, for each roll number, exactly the catalog's cards."""
    cards = CATALOG.by_roll[total] if 0 < total <= 12 else ()
    split = activation_table(CATALOG).cards(total)
    assert split.red == tuple(card for card in cards if card.colour == "red")
    assert split.blue == tuple(card for card in cards if card.colour == "blue")
    assert split.blue_green == tuple(card for card in cards if card.colour != "red"
                                     and card.colour != "purple")
    assert split.purple == tuple(card for card in cards if card.colour == "purple")
    assert activation_table(CATALOG) is activation_table(CATALOG)


def test_activation_roller_income_keeps_catalog_order_of_blue_and_green():
    """The roller's blue and green cards pay in catalog order (ranch before bakery), then the other seats."""
    state = table("A 0 wheat_field ranch bakery | B 0 ranch", active=0)
    _, events = play(state, 0, Roll((2,)))
    assert transfers(events) == [(BANK, 0, 1, "ranch", 0), (BANK, 0, 1, "bakery", 0),
                                 (BANK, 1, 1, "ranch", 0)]
