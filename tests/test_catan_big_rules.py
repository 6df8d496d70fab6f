"""The big Catan event's rules core (RULES.md 20-24): turns, robbers, schedule, claims; each test
names the ruling it checks. The JSON forms go through `resolve` of companion.rules.catan_big."""

from __future__ import annotations

import copy

import pytest

from companion.rules import schedule
from companion.rules.catan_big import claims as claims_module
from companion.rules.catan_big import turns
from companion.rules.catan_big.claims import Breakdown, Claim, decided_by, judge, rank
from companion.rules.catan_big.errors import (
    BadClaim,
    BadDice,
    BadSchedule,
    BadTurn,
    CatanError,
    OverCap,
    RobberRollMissing,
)
from companion.rules.catan_big.scenario import resolve
from companion.rules.catan_big.turns import (
    announce,
    discards,
    read_schedule,
    robber_instruction,
    team_of,
)
from companion.rules.errors import RuleError
from companion.rules.schedule import Step, seconds_for

SCHEDULE = [[1, 60], [11, 90], [21, 120]]
HAND = {"grain": 0, "ore": 0, "brick": 0, "wood": 0, "wool": 0}


def turn_form(**changes):
    scenario = {"ruleset": "catan-big", "turn": 3, "dice": [2, 3]}
    scenario.update(changes)
    return scenario


def claim(name="Avi", registered=1, **changes):
    """A claim of exactly 25: 5 settlements, 8 cities, 2 foreign start bonuses, no cards, no hand."""
    data = {"name": name, "registered": registered, "settlements": 5, "cities": 8,
            "foreign_start_settlements": 2, "vp_cards": 0, "largest_army": False,
            "longest_road": False, "resources": dict(HAND)}
    resources = changes.pop("resources", {})
    data.update(changes)
    data["resources"] = {**HAND, **resources}
    return data


def claims_form(*claims, turn=40):
    return {"ruleset": "catan-big", "turn": turn, "claims": list(claims)}


def refused(scenario, error=CatanError):
    """The refusal's message; the refusal is a RuleError of the expected kind."""
    with pytest.raises(error) as caught:
        resolve(scenario)
    assert isinstance(caught.value, RuleError)
    return caught.value.message


# ---------------------------------------------------------------- ruling 20


def test_ruling_20_a_turn_names_a_team_never_a_player_or_resources():
    """RULES.md 20: the app runs the hall: the announcement holds the team, not resources."""
    outcome = resolve(turn_form())
    assert set(outcome) == {"team", "discard", "robber"}
    assert outcome["team"] in ("sun", "moon")


def test_ruling_20_resources_serve_only_the_tie_breaks():
    """RULES.md 20: cards in hand never change points, only the order of equal points."""
    rich = claim("Rich", 1, resources={"grain": 9, "ore": 9, "brick": 9, "wood": 9, "wool": 9})
    poor = claim("Poor", 2, settlements=5, cities=8, foreign_start_settlements=3)
    outcome = resolve(claims_form(rich, poor))
    assert outcome["points"] == {"Poor": 27, "Rich": 25}
    assert outcome["winner"] == "Poor"
    assert outcome["decided_by"] == "points"


# ---------------------------------------------------------------- ruling 21


@pytest.mark.parametrize("turn, team", [(1, "sun"), (2, "moon"), (3, "sun"), (15, "sun"),
                                        (16, "moon"), (17, "sun"), (100, "moon"), (101, "sun")])
def test_ruling_21_turn_1_is_sun_then_the_teams_alternate(turn, team):
    assert team_of(turn) == team
    assert resolve(turn_form(turn=turn))["team"] == team


@pytest.mark.parametrize("turn, seconds", [(1, 60), (2, 60), (10, 60), (11, 90), (12, 90),
                                           (20, 90), (21, 120), (22, 120), (500, 120)])
def test_ruling_21_schedule_step_covers_its_turns_until_the_next(turn, seconds):
    assert resolve(turn_form(turn=turn, schedule=SCHEDULE))["seconds"] == seconds


def test_ruling_21_single_step_schedule_covers_every_turn():
    assert resolve(turn_form(turn=999, schedule=[[1, 45]]))["seconds"] == 45


def test_ruling_21_seconds_only_with_a_schedule():
    """SCENARIOS.md: `seconds` only when a schedule is given; null counts as absent."""
    assert "seconds" not in resolve(turn_form())
    assert "seconds" not in resolve(turn_form(schedule=None))


@pytest.mark.parametrize("seconds", [10, 900])
def test_ruling_21_schedule_seconds_limits_are_allowed(seconds):
    assert resolve(turn_form(schedule=[[1, seconds]]))["seconds"] == seconds


@pytest.mark.parametrize("schedule, field", [
    ([], "schedule:"),
    ("60", "schedule:"),
    ({"1": 60}, "schedule:"),
    ([[1, 9]], "schedule[0][1]:"),
    ([[1, 901]], "schedule[0][1]:"),
    ([[1, 60], [11, 0]], "schedule[1][1]:"),
    ([[1, 60.0]], "schedule[0][1]:"),
    ([[1, True]], "schedule[0][1]:"),
    ([[1, "60"]], "schedule[0][1]:"),
    ([[2, 60]], "schedule[0][0]:"),
    ([[0, 60]], "schedule[0][0]:"),
    ([[-1, 60]], "schedule[0][0]:"),
    ([[True, 60]], "schedule[0][0]:"),
    ([[1, 60], [11, 90], [11, 120]], "schedule[2][0]:"),
    ([[1, 60], [21, 90], [11, 120]], "schedule[2][0]:"),
    ([[1, 60], [1, 90]], "schedule[1][0]:"),
    ([[1, 60, 3, 4]], "schedule[0]:"),  # a step is 2 or 3 numbers (issue 27: production)
    ([[1, 60, 61]], "schedule[0][2]:"), ([[1, 60, -1]], "schedule[0][2]:"),
    ([[1]], "schedule[0]:"),
    ([60], "schedule[0]:"),
    ([{"first": 1, "seconds": 60}], "schedule[0]:"),
])
def test_ruling_21_bad_schedules_are_refused_naming_the_step(schedule, field):
    """Issue 12: steps checked: from turn 1, first turns increasing, 10-900 seconds."""
    message = refused(turn_form(schedule=schedule), BadSchedule)
    assert message.startswith(field), message


def test_ruling_21_seconds_for_a_turn_before_any_step_is_refused():
    """read_schedule never makes such a schedule; seconds_for still refuses one."""
    with pytest.raises(schedule.BadSchedule):
        seconds_for((Step(5, 60),), 3)


def test_ruling_21_read_schedule_gives_steps():
    assert read_schedule(SCHEDULE) == (Step(1, 60), Step(11, 90), Step(21, 120))


@pytest.mark.parametrize("turn", [0, -1, 1.0, True, "1", None, [1]])
def test_ruling_21_turn_is_a_whole_number_from_1(turn):
    assert refused(turn_form(turn=turn), BadTurn).startswith("turn:")


def test_ruling_21_turn_is_required():
    scenario = turn_form()
    del scenario["turn"]
    assert refused(scenario, BadTurn) == "turn: missing"


@pytest.mark.parametrize("dice, field", [
    ([7, 1], "dice[0]:"), ([1, 0], "dice[1]:"), ([3], "dice:"), ([1, 2, 3], "dice:"),
    ([], "dice:"), (7, "dice:"), ("34", "dice:"), ([True, 2], "dice[0]:"), ([2.0, 3], "dice[0]:"),
    (None, "dice:"), ([1, -1], "dice[1]:"),
])
def test_ruling_21_a_turn_is_one_roll_of_two_dice(dice, field):
    assert refused(turn_form(dice=dice), BadDice).startswith(field)


def test_ruling_21_dice_are_required():
    scenario = turn_form()
    del scenario["dice"]
    assert refused(scenario) == "dice: missing"


# ---------------------------------------------------------------- ruling 22


@pytest.mark.parametrize("dice", [[1, 1], [2, 4], [4, 4], [6, 6], [3, 5]])
def test_ruling_22_no_seven_no_discard_no_robber(dice):
    for turn in (1, 15, 16, 40):
        outcome = resolve(turn_form(turn=turn, dice=dice, robber_dice=[1, 1]))
        assert outcome["discard"] is False
        assert outcome["robber"] is None


@pytest.mark.parametrize("turn", [1, 2, 14, 15])
@pytest.mark.parametrize("dice", [[1, 6], [6, 1], [2, 5], [3, 4]])
def test_ruling_22_seven_in_turns_1_to_15_discard_only_robbers_stay(turn, dice):
    outcome = resolve(turn_form(turn=turn, dice=dice))
    assert outcome["discard"] is True
    assert outcome["robber"] == {"action": "stay"}


@pytest.mark.parametrize("robber_dice", [[5, 5], [9, 9], "junk", None, [1, 1], [3, 4]])
def test_ruling_22_robbers_roll_ignored_in_turns_1_to_15_whatever_it_holds(robber_dice):
    outcome = resolve(turn_form(turn=15, dice=[3, 4], robber_dice=robber_dice))
    assert outcome["robber"] == {"action": "stay"}


@pytest.mark.parametrize("robber_dice", [[9, 9], "junk", [0], True])
def test_ruling_22_robbers_roll_ignored_without_a_seven_whatever_it_holds(robber_dice):
    assert resolve(turn_form(turn=30, dice=[3, 3], robber_dice=robber_dice))["robber"] is None


@pytest.mark.parametrize("robber_dice, number", [
    ([1, 2], 3), ([2, 2], 4), ([1, 4], 5), ([3, 3], 6), ([4, 4], 8), ([3, 6], 9), ([5, 5], 10),
    ([5, 6], 11),
])
def test_ruling_22_from_turn_16_a_seven_moves_every_robber_to_3_to_11(robber_dice, number):
    outcome = resolve(turn_form(turn=16, dice=[2, 5], robber_dice=robber_dice))
    assert outcome == {"team": "moon", "discard": True,
                       "robber": {"action": "move", "number": number}}


@pytest.mark.parametrize("robber_dice, number", [([1, 1], 2), ([6, 6], 12)])
def test_ruling_22_two_or_twelve_moves_one_robber(robber_dice, number):
    outcome = resolve(turn_form(turn=17, dice=[6, 1], robber_dice=robber_dice))
    assert outcome["robber"] == {"action": "move_one", "number": number}


@pytest.mark.parametrize("robber_dice", [[1, 6], [2, 5], [3, 4], [4, 3], [5, 2], [6, 1]])
def test_ruling_22_another_seven_sends_every_robber_home(robber_dice):
    outcome = resolve(turn_form(turn=16, dice=[3, 4], robber_dice=robber_dice))
    assert outcome["robber"] == {"action": "desert"}


@pytest.mark.parametrize("turn", [16, 17, 50])
def test_ruling_22_robbers_roll_required_from_turn_16(turn):
    message = refused(turn_form(turn=turn, dice=[3, 4]), RobberRollMissing)
    assert message.startswith("robber_dice: required when the roll is 7 from turn 16 on")
    message = refused(turn_form(turn=turn, dice=[3, 4], robber_dice=None), RobberRollMissing)
    assert message.startswith("robber_dice:")


@pytest.mark.parametrize("robber_dice, field", [
    ([7, 1], "robber_dice[0]:"), ([3], "robber_dice:"), ("55", "robber_dice:"),
    ([5, True], "robber_dice[1]:"), ([1, 2, 3], "robber_dice:"),
])
def test_ruling_22_robbers_roll_is_checked_when_it_counts(robber_dice, field):
    message = refused(turn_form(turn=16, dice=[3, 4], robber_dice=robber_dice), BadDice)
    assert message.startswith(field)


def test_ruling_22_the_rule_switches_between_turn_15_and_16():
    assert robber_instruction(15, (3, 4), (5, 5)) == turns.RobberInstruction("stay")
    assert robber_instruction(16, (3, 4), (5, 5)) == turns.RobberInstruction("move", 10)


@pytest.mark.parametrize("hand, lost", [(0, 0), (7, 0), (8, 4), (9, 4), (10, 5), (15, 7), (20, 10)])
def test_ruling_22_discard_check_half_of_eight_or_more_rounded_down(hand, lost):
    assert discards(hand) == lost


def test_ruling_22_announcement_of_the_spec_example():
    """SCENARIOS.md's example: turn 16, a 7, robbers' roll 9, 90 s in the second step."""
    outcome = resolve({"ruleset": "catan-big", "turn": 16, "dice": [2, 5],
                       "robber_dice": [4, 5], "schedule": SCHEDULE})
    assert outcome == {"team": "moon", "discard": True,
                       "robber": {"action": "move", "number": 9}, "seconds": 90}


def test_ruling_22_announce_is_a_value():
    shown = announce(16, (1, 6), (6, 6), (Step(1, 60),))
    assert shown.to_json() == {"team": "moon", "discard": True,
                               "robber": {"action": "move_one", "number": 12}, "seconds": 60}


# ---------------------------------------------------------------- ruling 23: points and caps


@pytest.mark.parametrize("changes, points", [
    ({}, 25),
    ({"settlements": 0, "cities": 0, "foreign_start_settlements": 0}, 0),
    ({"settlements": 5, "cities": 10, "foreign_start_settlements": 5, "vp_cards": 5,
      "largest_army": True, "longest_road": True}, 44),
    ({"settlements": 2, "cities": 1, "foreign_start_settlements": 0}, 4),
    ({"vp_cards": 3}, 28),
    ({"largest_army": True}, 27),
    ({"longest_road": True}, 27),
    ({"settlements": 0, "cities": 5, "foreign_start_settlements": 5}, 20),
])
def test_ruling_23_points_of_a_breakdown(changes, points):
    outcome = resolve(claims_form(claim(**changes)))
    assert outcome["points"] == {"Avi": points}


@pytest.mark.parametrize("field, value", [
    ("settlements", 6), ("cities", 11), ("foreign_start_settlements", 6), ("vp_cards", 6),
    ("settlements", 100), ("cities", 10**40),
])
def test_ruling_23_a_breakdown_over_a_cap_is_refused(field, value):
    changes = {field: value}
    if field == "foreign_start_settlements":
        changes["cities"] = 10
    message = refused(claims_form(claim(), claim("Dana", 2, **changes)), OverCap)
    assert message.startswith(f"claims[1].{field}: at most"), message


@pytest.mark.parametrize("field", ["settlements", "cities", "foreign_start_settlements", "vp_cards"])
def test_ruling_23_each_cap_itself_is_allowed(field):
    changes = {field: claims_module.CAPS[field]}
    if field == "foreign_start_settlements":
        changes["cities"] = 10
    resolve(claims_form(claim(**changes)))


def test_ruling_23_foreign_bonus_at_most_settlements_plus_cities():
    """The bonus stays when the settlement becomes a city: a city may carry it too."""
    ok = claim(settlements=0, cities=3, foreign_start_settlements=3)
    assert resolve(claims_form(ok))["points"] == {"Avi": 12}
    message = refused(claims_form(claim(settlements=1, cities=2, foreign_start_settlements=4)),
                      OverCap)
    assert message.startswith("claims[0].foreign_start_settlements: at most the settlements "
                              "plus cities (3)"), message


@pytest.mark.parametrize("field, value", [
    ("settlements", -1), ("cities", -2), ("foreign_start_settlements", -1), ("vp_cards", -1),
    ("settlements", True), ("cities", 2.0), ("vp_cards", "1"), ("settlements", None),
    ("largest_army", 1), ("longest_road", 0), ("largest_army", "true"), ("longest_road", None),
    ("registered", 0), ("registered", -3), ("registered", True), ("registered", 1.5),
    ("name", ""), ("name", "   "), ("name", 7), ("name", None), ("name", "bad\ud800"),
    ("resources", [1, 2, 3, 4, 5]), ("resources", None),
])
def test_ruling_23_malformed_claim_fields_are_refused_by_name(field, value):
    broken = claim()
    broken[field] = value
    message = refused(claims_form(claim("Dana", 2), broken), BadClaim)
    assert message.startswith(f"claims[1].{field}:"), message


@pytest.mark.parametrize("field", ["name", "registered", "settlements", "cities",
                                   "foreign_start_settlements", "vp_cards", "largest_army",
                                   "longest_road", "resources"])
def test_ruling_23_every_claim_field_is_required(field):
    broken = claim()
    del broken[field]
    assert refused(claims_form(broken), BadClaim) == f"claims[0].{field}: missing"


@pytest.mark.parametrize("kind", ["grain", "ore", "brick", "wood", "wool"])
def test_ruling_23_every_resource_kind_is_required_and_whole(kind):
    broken = claim()
    del broken["resources"][kind]
    assert refused(claims_form(broken), BadClaim) == f"claims[0].resources.{kind}: missing"
    for value in (-1, True, 1.0, "2", None):
        message = refused(claims_form(claim(resources={kind: value})), BadClaim)
        assert message.startswith(f"claims[0].resources.{kind}:"), message


def test_ruling_23_unknown_resource_kind_is_refused():
    message = refused(claims_form(claim(resources={"gold": 1})), BadClaim)
    assert message.startswith("claims[0].resources: unknown resource \"gold\""), message


def test_ruling_23_names_and_registrations_belong_to_one_player():
    message = refused(claims_form(claim("Avi", 1), claim("Avi", 2)), BadClaim)
    assert message.startswith("claims[1].name:"), message
    message = refused(claims_form(claim("Avi", 1), claim("Dana", 2), claim("Yael", 1)), BadClaim)
    assert message.startswith("claims[2].registered:"), message


@pytest.mark.parametrize("value, field", [
    ([], "claims:"), ({}, "claims:"), ("Avi", "claims:"), (None, "claims:"), ([7], "claims[0]:"),
    ([[]], "claims[0]:"),
])
def test_ruling_23_claims_are_a_list_of_claim_objects(value, field):
    message = refused({"ruleset": "catan-big", "turn": 4, "claims": value}, BadClaim)
    assert message.startswith(field), message


def test_ruling_23_the_claims_form_names_its_turn():
    scenario = claims_form(claim())
    del scenario["turn"]
    assert refused(scenario, BadTurn) == "turn: missing"
    assert refused(claims_form(claim(), turn=0), BadTurn).startswith("turn:")


def test_ruling_23_claims_and_dice_together_are_refused():
    message = refused(claims_form(claim()) | {"dice": [3, 4]})
    assert message.startswith("claims:"), message


def test_ruling_23_codes_are_stable():
    assert OverCap.code == "catan/over_cap"
    assert issubclass(OverCap, BadClaim)
    assert RobberRollMissing.code == "catan/robber_roll_missing"
    assert BadSchedule.code == "catan/bad_schedule"
    assert all(issubclass(kind, RuleError) and issubclass(kind, ValueError)
               for kind in (CatanError, BadTurn, BadDice, BadClaim, OverCap))


# ---------------------------------------------------------------- ruling 23: who wins


def test_ruling_23_under_25_is_no_win():
    outcome = resolve(claims_form(claim(vp_cards=0, settlements=4)))
    assert outcome == {"points": {"Avi": 24}, "winner": None, "ranking": ["Avi"],
                       "decided_by": None}


def test_ruling_23_a_lone_claim_of_25_wins_on_points():
    outcome = resolve(claims_form(claim()))
    assert outcome == {"points": {"Avi": 25}, "winner": "Avi", "ranking": ["Avi"],
                       "decided_by": "points"}


def test_ruling_23_only_one_claim_reaching_25_wins_on_points_whatever_the_hands():
    """The runner-up under 25 is no win: `points`, even with more cards and an earlier number."""
    low = claim("Dana", 1, settlements=4, resources={"grain": 9})
    outcome = resolve(claims_form(low, claim("Avi", 2)))
    assert outcome["winner"] == "Avi"
    assert outcome["decided_by"] == "points"
    assert outcome["ranking"] == ["Avi", "Dana"]


def test_ruling_23_most_points_win_among_several_claims():
    outcome = resolve(claims_form(claim("Avi", 1), claim("Dana", 2, vp_cards=1)))
    assert outcome["winner"] == "Dana"
    assert outcome["decided_by"] == "points"
    assert outcome["points"] == {"Dana": 26, "Avi": 25}


TIE_CASES = [
    # (the winner's hand, the runner-up's hand, what decides)
    ({"wool": 3}, {"grain": 2}, "resources"),
    ({"grain": 2}, {"ore": 2}, "grain"),
    ({"grain": 1, "ore": 2}, {"grain": 1, "brick": 2}, "ore"),
    ({"brick": 2, "wool": 0}, {"wood": 1, "wool": 1}, "brick"),
    ({"wood": 1}, {"wool": 1}, "wood"),
    ({"grain": 1, "ore": 6}, {"grain": 1, "ore": 1, "wool": 5}, "ore"),
]


@pytest.mark.parametrize("winner_hand, other_hand, decided", TIE_CASES)
def test_ruling_23_ties_go_to_cards_then_grain_ore_brick_wood_wool(winner_hand, other_hand,
                                                                   decided):
    """The winner registered later, so only the hand can have decided."""
    winner = claim("Win", 9, resources=winner_hand)
    other = claim("Other", 1, resources=other_hand)
    for order in ((winner, other), (other, winner)):
        outcome = resolve(claims_form(*order))
        assert outcome["winner"] == "Win"
        assert outcome["decided_by"] == decided
        assert outcome["ranking"] == ["Win", "Other"]


def test_ruling_23_wool_never_decides_alone():
    """Equal hands and equal grain, ore, brick and wood leave equal wool: after wood comes
    registration. The winner's one wool more shows as more cards in hand."""
    winner = claim("Win", 9, resources={"grain": 1, "ore": 1, "brick": 1, "wood": 1, "wool": 2})
    other = claim("Other", 1, resources={"grain": 1, "ore": 1, "brick": 1, "wood": 1, "wool": 1})
    outcome = resolve(claims_form(other, winner))
    assert (outcome["winner"], outcome["decided_by"]) == ("Win", "resources")
    winner = claim("Win", 9, resources={"grain": 1, "ore": 1, "brick": 1, "wood": 2, "wool": 1})
    other = claim("Other", 1, resources={"grain": 1, "ore": 1, "brick": 1, "wood": 1, "wool": 2})
    outcome = resolve(claims_form(other, winner))
    assert (outcome["winner"], outcome["decided_by"]) == ("Win", "wood")


def test_ruling_23_earlier_registration_breaks_a_full_tie():
    same = {"grain": 1, "ore": 2, "brick": 0, "wood": 1, "wool": 3}
    outcome = resolve(claims_form(claim("Late", 40, resources=same),
                                  claim("Early", 3, resources=same)))
    assert outcome["winner"] == "Early"
    assert outcome["decided_by"] == "registration"
    assert outcome["ranking"] == ["Early", "Late"]


def test_ruling_23_the_published_tie_on_resources():
    """scenarios/catan-big/catan-claims-tie-on-resources.json, worked by hand."""
    avi = claim("Avi", 3, settlements=4, cities=8, foreign_start_settlements=1, vp_cards=1,
                longest_road=True, resources={"ore": 2, "wood": 1})
    yael = claim("Yael", 40, settlements=5, cities=7, foreign_start_settlements=2,
                 largest_army=True, resources={"grain": 1, "ore": 1, "brick": 1, "wood": 1})
    outcome = resolve(claims_form(avi, yael, turn=48))
    assert outcome == {"points": {"Yael": 25, "Avi": 25}, "winner": "Yael",
                       "ranking": ["Yael", "Avi"], "decided_by": "resources"}


def test_ruling_23_decided_by_compares_the_winner_with_the_runner_up_only():
    """Three claims of 25: the third's hand does not matter for what decided the win."""
    first = claim("First", 5, resources={"grain": 3})
    second = claim("Second", 6, resources={"ore": 3})
    third = claim("Third", 1, resources={"wool": 1})
    outcome = resolve(claims_form(third, second, first))
    assert outcome["ranking"] == ["First", "Second", "Third"]
    assert outcome["decided_by"] == "grain"


def test_ruling_23_decided_by_without_a_runner_up_is_points():
    only = Claim("Avi", 1, Breakdown(5, 10, 0, 0, False, False), (0, 0, 0, 0, 0))
    assert decided_by(only, None) == "points"


def test_ruling_23_two_identical_claims_cannot_be_told_apart():
    """read_claims refuses a shared registration number; decided_by still says so."""
    one = Claim("A", 1, Breakdown(5, 10, 0, 0, False, False), (0, 0, 0, 0, 0))
    two = Claim("B", 1, Breakdown(5, 10, 0, 0, False, False), (0, 0, 0, 0, 0))
    with pytest.raises(BadClaim):
        decided_by(one, two)


def test_ruling_23_judge_of_no_claims_has_no_winner():
    verdict = judge([])
    assert verdict.winner is None and verdict.decided_by is None and verdict.ranking == ()


# ---------------------------------------------------------------- ruling 24: standings


def test_ruling_24_standings_rank_every_claim_by_points_then_tie_breaks():
    claims = [
        claim("Low", 1, settlements=3, cities=2, foreign_start_settlements=0),  # 7
        claim("Mid", 2, vp_cards=0, settlements=4),  # 24
        claim("MidRich", 3, settlements=4, resources={"wool": 1}),  # 24, more cards
        claim("Top", 4, vp_cards=2),  # 27
        claim("Zero", 5, settlements=0, cities=0, foreign_start_settlements=0),
    ]
    outcome = resolve(claims_form(*claims))
    assert outcome["ranking"] == ["Top", "MidRich", "Mid", "Low", "Zero"]
    assert list(outcome["points"]) == outcome["ranking"]
    assert outcome["points"] == {"Top": 27, "MidRich": 24, "Mid": 24, "Low": 7, "Zero": 0}
    assert outcome["winner"] == "Top"


def test_ruling_24_without_a_winner_the_ranking_still_orders_everyone():
    outcome = resolve(claims_form(claim("A", 2, settlements=1), claim("B", 1, settlements=1)))
    assert outcome["winner"] is None and outcome["decided_by"] is None
    assert outcome["ranking"] == ["B", "A"]


def test_ruling_24_rank_is_the_same_in_python():
    claims = [Claim("A", 2, Breakdown(5, 5, 0, 0, False, False), (1, 0, 0, 0, 0)),
              Claim("B", 1, Breakdown(5, 5, 0, 0, False, False), (0, 1, 0, 0, 0))]
    assert [c.name for c in rank(claims)] == ["A", "B"]


# ---------------------------------------------------------------- the form itself


@pytest.mark.parametrize("scenario, field", [
    ([], "scenario:"), ("x", "scenario:"), (None, "scenario:"),
    ({"turn": 1, "dice": [1, 2]}, "ruleset:"),
    ({"ruleset": "machi-koro", "turn": 1, "dice": [1, 2]}, "ruleset:"),
])
def test_form_not_a_catan_big_object_is_refused(scenario, field):
    assert refused(scenario).startswith(field)


def test_form_note_expect_and_unknown_keys_are_ignored():
    plain = resolve(turn_form(turn=16, dice=[3, 4], robber_dice=[2, 2]))
    noisy = resolve(turn_form(turn=16, dice=[3, 4], robber_dice=[2, 2], note="x",
                              expect={"team": "sun"}, extra=[1]))
    assert plain == noisy
    plain = resolve(claims_form(claim()))
    assert resolve(claims_form(claim()) | {"note": "n", "expect": None}) == plain


def test_form_resolve_leaves_its_input_unchanged():
    scenario = claims_form(claim("A", 2), claim("B", 1))
    before = copy.deepcopy(scenario)
    resolve(scenario)
    assert scenario == before


def test_form_refusals_are_one_line_whatever_they_quote():
    message = refused(claims_form(claim("A\nB", 1), claim("A\nB", 2)))
    assert "\n" not in message and message.startswith("claims[1].name:")
    message = refused(claims_form(claim(resources={"go\u2028ld": 1})))
    assert "\u2028" not in message
