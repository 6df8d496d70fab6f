"""Turns, landmarks, builds and refusals (RULES.md 6-8); refusals assert code and no change."""

import pytest
from builders import CATALOG, coins, play, table

from companion.rules.errors import RuleError
from companion.rules.machi_koro.engine import decide, default_move
from companion.rules.machi_koro.facts import GameWon, RerollOffered
from companion.rules.machi_koro.moves import (
    Build,
    ChooseDice,
    DeclineSwap,
    EndTurn,
    KeepRoll,
    Reroll,
    Roll,
    SwapEstablishments,
    TargetTvStation,
)
from companion.rules.machi_koro.state import Choice, Phase, new_table


def refused(state, seat, move, code):
    """Assert `move` is refused with `code` and that nothing about the table changed."""
    before = repr(state)  # a snapshot of every nested value, cards and supply included
    with pytest.raises(RuleError) as caught:
        decide(state, seat, move, CATALOG)
    assert caught.value.code == code, caught.value
    assert repr(state) == before
    return caught.value


# ---------------------------------------------------------------- set-up and turn flow


def test_new_table_deals_starting_cards_and_three_coins():
    state = new_table(CATALOG, ("A", "B", "C"))
    assert [p.coins for p in state.players] == [3, 3, 3]
    assert all(dict(p.cards) == {"wheat_field": 1, "bakery": 1} for p in state.players)
    assert state.supply["wheat_field"] == 6 and state.supply["stadium"] == 4
    assert state.total_coins() == CATALOG.bank_coins


def test_turn_passes_clockwise_after_build_phase():
    state = table("A 3 | B 3 | C 3", active=2)
    state, _ = play(state, 2, Roll((5,)))
    state, _ = play(state, 2, EndTurn())
    assert (state.active, state.phase, state.turn) == (0, Phase.ROLL, 2)


# ---------------------------------------------------------------- RULES.md 6: landmarks


def test_rule6_train_station_allows_two_dice():
    state = table("A 0 +train_station | B 0", active=0)
    state, _ = play(state, 0, ChooseDice(2))
    assert state.players[0].dice_count == 2
    state, _ = play(state, 0, Roll((2, 3)))
    assert state.dice == (2, 3)


def test_rule6_two_dice_refused_without_train_station():
    state = table("A 0 | B 0", active=0)
    refused(state, 0, ChooseDice(2), "rule/bad_dice")
    refused(state, 0, Roll((2, 3)), "rule/bad_dice")


@pytest.mark.parametrize("count", [1.0, 2.0, True, 0, 3])
def test_rule6_dice_count_is_the_number_1_or_2(count):
    """1.0 and True equal 1 in Python: they were accepted and a float or a bool was journaled."""
    refused(table("A 0 +train_station | B 0"), 0, ChooseDice(count), "rule/bad_dice")


def test_rule6_dice_choice_stays_until_changed_and_may_be_made_off_turn():
    state = table("A 0 | B 0 +train_station", active=0)
    state, _ = play(state, 1, ChooseDice(2))
    state, _ = play(state, 0, Roll((4,)))
    state, _ = play(state, 0, EndTurn())
    refused(state, 1, Roll((4,)), "rule/bad_dice")
    state, _ = play(state, 1, Roll((4, 1)))
    assert state.dice == (4, 1)


def test_rule6_amusement_park_doubles_give_one_extra_turn():
    state = table("A 0 +train_station +amusement_park | B 0", active=0)
    state, _ = play(state, 0, Roll((3, 3)))
    assert state.extra_turn
    state, _ = play(state, 0, EndTurn())
    assert state.active == 0 and state.bonus_turn
    state, _ = play(state, 0, Roll((2, 2)))
    assert not state.extra_turn, "never more than one extra turn in a row"
    state, _ = play(state, 0, EndTurn())
    assert state.active == 1


def test_rule6_no_extra_turn_without_amusement_park_or_on_one_die():
    state, _ = play(table("A 0 +train_station | B 0"), 0, Roll((3, 3)))
    assert not state.extra_turn


def test_rule6_radio_tower_offers_reroll_before_income():
    state = table("A 0 wheat_field +radio_tower | B 0 wheat_field", active=0)
    state, events = play(state, 0, Roll((1,)))
    assert isinstance(events[-1], RerollOffered) and state.phase is Phase.REROLL
    assert coins(state) == {"A": 0, "B": 0}
    state, _ = play(state, 0, Reroll((2,)))
    assert coins(state) == {"A": 0, "B": 0}, "only the second roll counts"
    assert state.dice == (2,) and state.phase is Phase.BUILD


def test_rule6_radio_tower_keep_pays_the_first_roll():
    state = table("A 0 wheat_field +radio_tower | B 0 wheat_field", active=0)
    state, _ = play(state, 0, Roll((1,)))
    state, _ = play(state, 0, KeepRoll())
    assert coins(state) == {"A": 1, "B": 1}


def test_rule6_radio_tower_reroll_keeps_dice_count_and_once_per_turn():
    state = table("A 0 +radio_tower +train_station | B 0", active=0)
    state, _ = play(state, 0, Roll((1, 2)))
    refused(state, 0, Reroll((4,)), "rule/bad_dice")
    state, _ = play(state, 0, Reroll((4, 4)))
    refused(state, 0, Reroll((4, 4)), "rule/wrong_phase")


def test_rule6_landmark_works_from_the_next_roll():
    """A mall built this turn does not pay on this turn's roll: income came before the build."""
    state = table("A 10 bakery | B 0", active=0)
    state, _ = play(state, 0, Roll((2,)))
    assert coins(state)["A"] == 11
    state, _ = play(state, 0, Build("shopping_mall"))
    assert coins(state)["A"] == 1
    state, _ = play(state, 0, EndTurn())
    state, _ = play(state, 1, Roll((4,)))
    state, _ = play(state, 1, EndTurn())
    state, _ = play(state, 0, Roll((2,)))
    assert coins(state)["A"] == 3


# ---------------------------------------------------------------- RULES.md 7: building


def test_rule7_build_establishment_pays_bank_and_takes_from_supply():
    state = table("A 5 | B 0", active=0, phase=Phase.BUILD)
    after, _ = play(state, 0, Build("cafe"))
    assert coins(after)["A"] == 3 and after.bank == state.bank + 2
    assert after.players[0].owns("cafe") == 1 and after.supply["cafe"] == 5


def test_rule7_one_build_per_turn():
    state = table("A 9 | B 0", active=0, phase=Phase.BUILD)
    state, _ = play(state, 0, Build("ranch"))
    refused(state, 0, Build("ranch"), "rule/already_built")


def test_rule7_cannot_afford():
    error = refused(table("A 1 | B 0", phase=Phase.BUILD), 0, Build("cafe"), "rule/cannot_afford")
    assert "'cafe' costs 2, A has 1" in str(error)


def test_rule7_sold_out():
    state = table("A 9 | B 0", phase=Phase.BUILD)
    from dataclasses import replace

    from companion.rules.machi_koro.state import frozen_counts

    state = replace(state, supply=frozen_counts({**state.supply, "mine": 0}))
    refused(state, 0, Build("mine"), "rule/sold_out")


def test_rule7_one_of_each_purple_card():
    refused(table("A 20 stadium | B 0", phase=Phase.BUILD), 0, Build("stadium"),
            "rule/already_own")


def test_rule7_landmark_only_once():
    refused(table("A 20 +train_station | B 0", phase=Phase.BUILD), 0, Build("train_station"),
            "rule/already_own")


def test_rule7_unknown_card():
    refused(table("A 20 | B 0", phase=Phase.BUILD), 0, Build("castle"), "rule/unknown_card")


def test_rule7_first_to_finish_all_landmarks_wins_at_once():
    state = table("A 22 +train_station +shopping_mall +amusement_park | B 0", phase=Phase.BUILD)
    state, events = play(state, 0, Build("radio_tower"))
    assert isinstance(events[-1], GameWon)
    assert state.phase is Phase.FINISHED and state.winner == 0
    refused(state, 1, Roll((3,)), "rule/game_over")
    refused(state, 0, EndTurn(), "rule/game_over")


def test_rule7_build_is_optional():
    state, _ = play(table("A 30 | B 0", phase=Phase.BUILD), 0, EndTurn())
    assert coins(state) == {"A": 30, "B": 0}


# ---------------------------------------------------------------- RULES.md 8: the ledger


def test_rule8_every_coin_movement_is_an_entry_and_the_bank_is_a_party():
    state = table("A 1 bakery*2 +shopping_mall | B 0 cafe*2", active=0)
    after, events = play(state, 0, Roll((3,)))
    entries = [e for e in events if hasattr(e, "amount")]
    assert [(e.card, e.copies, e.mall_bonus, e.forgiven) for e in entries] == [
        ("cafe", 2, 0, 1), ("bakery", 2, 1, 0),
    ]
    assert after.total_coins() == state.total_coins()


# ---------------------------------------------------------------- refusals


def test_refused_not_your_turn():
    refused(table("A 3 | B 3", active=0), 1, Roll((3,)), "rule/not_your_turn")


def test_refused_no_such_seat():
    refused(table("A 3 | B 3"), 5, Roll((3,)), "rule/not_your_turn")


@pytest.mark.parametrize("dice", [(0,), (7,), (), (1, 2, 3), (True,), ("3",)])
def test_refused_bad_dice(dice):
    refused(table("A 3 | B 3"), 0, Roll(dice), "rule/bad_dice")


def test_refused_wrong_phase():
    state = table("A 3 | B 3")
    refused(state, 0, Build("ranch"), "rule/wrong_phase")
    refused(state, 0, EndTurn(), "rule/wrong_phase")
    refused(state, 0, KeepRoll(), "rule/wrong_phase")
    refused(state, 0, TargetTvStation(1), "rule/wrong_phase")
    state, _ = play(state, 0, Roll((3,)))
    refused(state, 0, Roll((3,)), "rule/wrong_phase")


def test_refused_invalid_choices():
    state = table("A 0 tv_station business_center wheat_field +train_station | B 3 ranch | C 3")
    state, _ = play(state, 0, Roll((3, 3)))
    refused(state, 0, TargetTvStation(0), "rule/invalid_choice")
    refused(state, 0, TargetTvStation(7), "rule/invalid_choice")
    refused(state, 0, DeclineSwap(), "rule/wrong_phase")
    state, _ = play(state, 0, TargetTvStation(2))
    refused(state, 0, SwapEstablishments(1, "tv_station", "ranch"), "rule/invalid_choice")
    refused(state, 0, SwapEstablishments(1, "wheat_field", "mine"), "rule/invalid_choice")
    refused(state, 0, SwapEstablishments(1, "wheat_field", "castle"), "rule/unknown_card")
    refused(state, 0, SwapEstablishments(1, "train_station", "ranch"), "rule/unknown_card")
    refused(state, 0, SwapEstablishments(0, "wheat_field", "wheat_field"), "rule/invalid_choice")


# ---------------------------------------------------------------- defaults (RULES.md 11)


def test_rule11_defaults_keep_roll_richest_target_no_swap():
    state = table("A 0 +radio_tower | B 0", active=0)
    state, _ = play(state, 0, Roll((3,)))
    assert default_move(state) == KeepRoll()
    state = table("A 0 tv_station business_center bakery +train_station | B 4 ranch | C 4 | D 2")
    state, _ = play(state, 0, Roll((3, 3)))
    assert state.pending[0] is Choice.TV_STATION
    # richest others are B and C with 4; counter-clockwise from A: D, C, B -> C first
    assert default_move(state) == TargetTvStation(2)
    state, _ = play(state, 0, default_move(state))
    assert default_move(state) == DeclineSwap()
    state, _ = play(state, 0, default_move(state))
    assert default_move(state) is None

