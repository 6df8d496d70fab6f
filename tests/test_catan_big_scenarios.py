"""`companion resolve` on the `catan-big` forms (docs/scenarios.md "The big Catan event"): the
example files of examples/scenarios/catan-big (and COMPANION_SHARED's) through the real command,
and refused inputs: exit 2, one line on standard error naming the field, nothing on standard output."""

from __future__ import annotations

import json

import pytest
from conftest import resolve_json, run_companion, scenario_files

GOLDEN = scenario_files("*.json", under="catan-big")


def test_catan_big_scenarios_are_found():
    assert len([name for name, _ in GOLDEN if not name.startswith("shared/")]) >= 2


@pytest.mark.parametrize("path", [path for _, path in GOLDEN], ids=[name for name, _ in GOLDEN])
def test_catan_big_golden_through_the_command(path):
    scenario = json.loads(path.read_text(encoding="utf-8"))
    expect = scenario["expect"]
    result = run_companion("resolve", str(path))
    if isinstance(expect, dict) and expect.get("error"):
        assert_refused(result, expect.get("field", ""))
        return
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert json.loads(result.stdout) == expect


def assert_refused(result, field):
    assert result.returncode == 2, result.stdout
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert result.stderr.endswith("\n")
    assert lines[0].startswith(field), lines[0]
    assert "Traceback" not in result.stderr


TURN = {"ruleset": "catan-big", "turn": 16, "dice": [3, 4], "robber_dice": [1, 1],
        "schedule": [[1, 60], [11, 90]]}
CLAIM = {"name": "Avi", "registered": 3, "settlements": 5, "cities": 8,
         "foreign_start_settlements": 2, "vp_cards": 0, "largest_army": False,
         "longest_road": False,
         "resources": {"grain": 1, "ore": 1, "brick": 1, "wood": 1, "wool": 1}}


def claims_with(**changes):
    second = {**CLAIM, "name": "Dana", "registered": 4, **changes}
    return {"ruleset": "catan-big", "turn": 52, "claims": [CLAIM, second]}


def turn_with(**changes):
    scenario = {**TURN, **changes}
    return {key: value for key, value in scenario.items() if value is not ...}


REFUSED = [
    (claims_with(cities=11), "claims[1].cities:"),
    (claims_with(settlements=6), "claims[1].settlements:"),
    (claims_with(vp_cards=6), "claims[1].vp_cards:"),
    (claims_with(foreign_start_settlements=6), "claims[1].foreign_start_settlements:"),
    (claims_with(settlements=1, cities=1, foreign_start_settlements=3),
     "claims[1].foreign_start_settlements:"),
    (claims_with(settlements=-1), "claims[1].settlements:"),
    (claims_with(largest_army=1), "claims[1].largest_army:"),
    (claims_with(cities=True), "claims[1].cities:"),
    (claims_with(name="Avi"), "claims[1].name:"),
    (claims_with(registered=3), "claims[1].registered:"),
    (claims_with(resources={"grain": 1}), "claims[1].resources.ore:"),
    (claims_with(resources={"grain": -1, "ore": 0, "brick": 0, "wood": 0, "wool": 0}),
     "claims[1].resources.grain:"),
    ({"ruleset": "catan-big", "turn": 52, "claims": []}, "claims:"),
    ({"ruleset": "catan-big", "claims": [CLAIM]}, "turn:"),
    (turn_with(robber_dice=...), "robber_dice:"),
    (turn_with(robber_dice=None), "robber_dice:"),
    (turn_with(robber_dice=[7, 1]), "robber_dice[0]:"),
    (turn_with(dice=[0, 7]), "dice[0]:"),
    (turn_with(dice=[3]), "dice:"),
    (turn_with(dice=...), "dice:"),
    (turn_with(turn=0), "turn:"),
    (turn_with(turn="16"), "turn:"),
    (turn_with(schedule=[[1, 60], [11, 5]]), "schedule[1][1]:"),
    (turn_with(schedule=[[1, 60], [11, 90], [5, 120]]), "schedule[2][0]:"),
    (turn_with(schedule=[[3, 60]]), "schedule[0][0]:"),
    (turn_with(schedule=[]), "schedule:"),
    ({"ruleset": "catan-big"}, "turn:"),
]


@pytest.mark.parametrize("scenario, field", REFUSED, ids=[f for _, f in REFUSED])
def test_catan_big_refused_through_the_command(tmp_path, scenario, field):
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    assert_refused(run_companion("resolve", str(path)), field)


def test_catan_big_refused_from_standard_input():
    assert_refused(resolve_json(claims_with(cities=11)), "claims[1].cities:")


def test_catan_big_turn_through_standard_input():
    result = resolve_json({**TURN, "note": "ignored", "expect": {"team": "sun"}})
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"team": "moon", "discard": True,
                                         "robber": {"action": "move_one", "number": 2},
                                         "seconds": 90}


def test_catan_big_claims_through_the_command(tmp_path):
    path = tmp_path / "claims.json"
    path.write_text(json.dumps(claims_with()), encoding="utf-8")
    result = run_companion("resolve", str(path))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"points": {"Avi": 25, "Dana": 25}, "winner": "Avi",
                                         "ranking": ["Avi", "Dana"],
                                         "decided_by": "registration"}


def test_catan_big_names_print_as_given(tmp_path):
    scenario = claims_with(name="יעל")
    path = tmp_path / "claims.json"
    path.write_text(json.dumps(scenario, ensure_ascii=False), encoding="utf-8")
    result = run_companion("resolve", str(path))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["ranking"] == ["Avi", "יעל"]


def test_catan_big_a_name_that_cannot_be_written_is_refused():
    result = run_companion("resolve", "-", stdin=json.dumps(claims_with(name="bad\ud800")))
    assert_refused(result, "claims[1].name:")
