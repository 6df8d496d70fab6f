"""`evolve` (companion/rules/evolve.py): each event's change to the table, and nothing else;
`evolve_all` of a batch equals the fold of `evolve`; the input state is never touched."""

import dataclasses
from typing import get_args

import pytest
from builders import CATALOG, play, table
from coop_builders import coop

from companion.bench.simulate import random_game
from companion.rules.coop import evolve as coop_evolve
from companion.rules.machi_koro import facts as ev
from companion.rules.machi_koro.evolve import evolve, evolve_all, replay
from companion.rules.machi_koro.moves import Build, EndTurn, Reroll, Roll
from companion.rules.machi_koro.state import BANK, Choice, Phase, TableState, frozen_counts, new_table
from companion.rules.registry import ruleset

START = "A 3 wheat_field bakery | B 5 cafe*2"


def seat(state: TableState, index: int, **changes: object) -> TableState:
    """`state` with one player's fields replaced."""
    players = list(state.players)
    players[index] = dataclasses.replace(players[index], **changes)
    return dataclasses.replace(state, players=tuple(players))


def supply_less(state: TableState, card: str) -> TableState:
    supply = dict(state.supply)
    supply[card] -= 1
    return dataclasses.replace(state, supply=frozen_counts(supply))


# (event, the state it applies to (notation, fields), the expected state from that one)
CASES = [
    (ev.DiceCountChosen(1, 2), {}, lambda s: seat(s, 1, dice_count=2)),
    (ev.DiceRolled(0, (3,)), {}, lambda s: dataclasses.replace(s, dice=(3,))),
    (ev.DiceRolled(0, (2,), reroll=True), {"phase": Phase.REROLL, "dice": (3,)},
     lambda s: dataclasses.replace(s, dice=(2,), rerolled=True)),
    (ev.RerollOffered(), {}, lambda s: dataclasses.replace(s, phase=Phase.REROLL)),
    (ev.CoinsTransferred(1, 0, 2, "cafe"), {},
     lambda s: seat(seat(s, 0, coins=5), 1, coins=3)),
    (ev.CoinsTransferred(0, BANK, 1, "wheat_field"), {},
     lambda s: dataclasses.replace(seat(s, 0, coins=2), bank=s.bank + 1)),
    (ev.CoinsAdjusted(1, -2, "counted twice"), {},
     lambda s: dataclasses.replace(seat(s, 1, coins=3), bank=s.bank + 2)),
    (ev.RollResolved((Choice.TV_STATION,), True), {"dice": (6,)},
     lambda s: dataclasses.replace(s, phase=Phase.CHOOSE, pending=(Choice.TV_STATION,),
                                   extra_turn=True, rerolled=True)),
    (ev.RollResolved((), False), {"dice": (1,)},
     lambda s: dataclasses.replace(s, phase=Phase.BUILD, rerolled=True)),
    (ev.ChoiceAnswered(Choice.TV_STATION),
     {"phase": Phase.CHOOSE, "pending": (Choice.TV_STATION, Choice.BUSINESS_CENTER)},
     lambda s: dataclasses.replace(s, pending=(Choice.BUSINESS_CENTER,))),
    (ev.ChoiceAnswered(Choice.BUSINESS_CENTER),
     {"phase": Phase.CHOOSE, "pending": (Choice.BUSINESS_CENTER,)},
     lambda s: dataclasses.replace(s, phase=Phase.BUILD, pending=())),
    (ev.EstablishmentsSwapped(0, 1, "bakery", "cafe"), {"phase": Phase.CHOOSE},
     lambda s: seat(seat(s, 0, cards=frozen_counts({"wheat_field": 1, "cafe": 1})),
                    1, cards=frozen_counts({"cafe": 1, "bakery": 1}))),
    (ev.EstablishmentBought(0, "ranch"), {"phase": Phase.BUILD},
     lambda s: dataclasses.replace(
         supply_less(seat(s, 0, cards=frozen_counts({"wheat_field": 1, "bakery": 1, "ranch": 1})),
                     "ranch"), built=True)),
    (ev.LandmarkBuilt(0, "train_station"), {"phase": Phase.BUILD},
     lambda s: dataclasses.replace(seat(s, 0, landmarks=frozenset({"train_station"})),
                                   built=True)),
    (ev.GameWon(0), {"phase": Phase.BUILD},
     lambda s: dataclasses.replace(s, phase=Phase.FINISHED, winner=0)),
    (ev.TurnEnded(1, bonus_turn=False),
     {"phase": Phase.BUILD, "dice": (6, 6), "rerolled": True, "built": True, "extra_turn": True},
     lambda s: dataclasses.replace(s, active=1, phase=Phase.ROLL, turn=2, dice=(),
                                   rerolled=False, built=False, extra_turn=False)),
    (ev.TurnEnded(0, bonus_turn=True), {"phase": Phase.BUILD, "dice": (6, 6), "extra_turn": True},
     lambda s: dataclasses.replace(s, phase=Phase.ROLL, turn=2, dice=(), extra_turn=False,
                                   bonus_turn=True)),
    # the Harbor card set (docs/rules.md 31-32)
    (ev.HarborOffered(), {"dice": (6, 5)}, lambda s: dataclasses.replace(s, phase=Phase.HARBOR)),
    (ev.HarborAnswered(2), {"phase": Phase.HARBOR, "dice": (6, 5)},
     lambda s: dataclasses.replace(s, added=2)),
    (ev.TunaRolled((3, 4)), {"dice": (6, 6)}, lambda s: dataclasses.replace(s, table_roll=(3, 4))),
    (ev.TurnEnded(1, bonus_turn=False),
     {"phase": Phase.BUILD, "dice": (6, 6), "added": 2, "table_roll": (1, 2)},
     lambda s: dataclasses.replace(s, active=1, phase=Phase.ROLL, turn=2, dice=(), added=0,
                                   table_roll=())),
    # the variants (RULES.md 13-14)
    (ev.PlaceTaken(1, 2), {"play_on": True}, lambda s: seat(s, 1, place=2)),
    (ev.SupplyDealt(("stadium",), ("mine", "cafe", "mine")), {"variable_supply": True},
     lambda s: dataclasses.replace(s, supply=frozen_counts({}), draw_pile=("mine", "cafe", "mine"))),
    (ev.SupplyDrawn(("mine", "cafe", "mine")),
     {"variable_supply": True, "supply": frozen_counts({"cafe": 1}),
      "draw_pile": ("mine", "cafe", "mine", "forest")},
     lambda s: dataclasses.replace(s, supply=frozen_counts({"cafe": 2, "mine": 2}),
                                   draw_pile=("forest",))),
]


@pytest.mark.parametrize(("event", "fields", "expected"), CASES,
                         ids=[f"{type(case[0]).__name__}-{i}" for i, case in enumerate(CASES)])
def test_evolve_changes_what_the_event_says_and_nothing_else(event, fields, expected):
    before = table(START, active=0, **fields)
    after = evolve(before, event)
    assert after == expected(before)
    assert before == table(START, active=0, **fields), "the input state is left alone"


def test_evolve_cases_cover_every_event_type():
    assert {type(case[0]) for case in CASES} == set(get_args(ev.Fact))


def test_evolve_all_returns_a_frozen_table_state():
    after = evolve_all(table(START), [ev.DiceRolled(0, (3,)), ev.RollResolved((), False)])
    assert type(after) is TableState
    with pytest.raises(dataclasses.FrozenInstanceError):
        after.turn = 5
    assert isinstance(after.players, tuple), "the draft's player list is frozen back"


def test_evolve_all_of_no_events_is_an_equal_state():
    state = table(START, phase=Phase.BUILD, dice=(4,))
    assert evolve_all(state, []) == state


@pytest.mark.parametrize(("seats", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_evolve_all_of_a_batch_equals_the_fold_of_evolve(seats, seed):
    steps = 0
    for step in random_game(seats, seed):
        assert evolve_all(step.before, step.facts) == step.after, step.move
        steps += 1
    assert steps > 20


def test_replay_of_events_gives_the_same_state():
    state = table("A 0 bakery +radio_tower | B 5 cafe", active=0)
    start, log = state, []
    for seat_, move in [(0, Roll((3,))), (0, Reroll((2,))), (0, Build("wheat_field")),
                        (0, EndTurn()), (1, Roll((1,)))]:
        state, events = play(state, seat_, move)
        log += events
    assert replay(start, log) == state


def test_evolve_all_is_the_one_the_hall_and_the_coop_rules_apply():
    """The hall applies events through the ruleset registry; a co-op table's base events change
    the table inside it just as this function changes a base table."""
    start = new_table(CATALOG, ("A", "B"))
    roll = [ev.DiceRolled(0, (3,)), ev.RollResolved((), False)]
    assert ruleset("machi-koro").evolve(start, roll) == evolve_all(start, roll)
    state = coop(START, row="ranch mine forest cafe", phase=Phase.BUILD)
    events = [ev.CoinsTransferred(0, BANK, 1, "ranch"), ev.EstablishmentBought(0, "ranch"),
              ev.TurnEnded(1, bonus_turn=False), ev.DiceRolled(1, (3,)), ev.RollResolved((), False)]
    assert coop_evolve.evolve_all(state, events).table == evolve_all(state.table, events)
