"""`companion resolve` on the example scenarios (examples/scenarios, and those of COMPANION_SHARED
where it exists) and on refused ones (docs/scenarios.md)."""

import json

import pytest
from conftest import resolve_json, run_companion, scenario_files
from scenario_builders import P, city, table

from companion.rules.machi_koro.scenario import ScenarioError, resolve

GOLDEN = scenario_files()  # play-on/, catan-big/ too


def test_scenarios_are_found(example_scenarios):
    assert len(example_scenarios) >= 9


def test_scenarios_of_an_extra_folder_are_added_unless_the_repository_has_them(tmp_path, monkeypatch):
    """COMPANION_SHARED is an extra check: its files the repository lacks (or has otherwise) are
    added under `shared/`; a copy of a repository file is not run twice; no folder, nothing added."""
    import conftest

    own = conftest.SCENARIOS / "blue-pays-everyone.json"
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / own.name).write_bytes(own.read_bytes())
    (tmp_path / "scenarios" / "unpublished-case.json").write_text("{}", encoding="utf-8")
    monkeypatch.setattr(conftest, "SHARED", tmp_path)
    names = [name for name, _ in scenario_files()]
    assert "shared/unpublished-case" in names and "shared/blue-pays-everyone" not in names
    assert "blue-pays-everyone" in names
    monkeypatch.setattr(conftest, "SHARED", tmp_path / "nonexistent")
    assert not [name for name, _ in scenario_files() if name.startswith("shared/")]


@pytest.mark.parametrize("path", [path for _, path in GOLDEN], ids=[name for name, _ in GOLDEN])
def test_scenario_golden_through_the_command(path):
    scenario = json.loads(path.read_text(encoding="utf-8"))
    expect = scenario["expect"]
    result = run_companion("resolve", str(path))
    if expect.get("error"):
        assert result.returncode == 2
        assert result.stdout == ""
        assert len(result.stderr.strip().splitlines()) == 1
        return
    assert result.returncode == 0, result.stderr
    outcome = json.loads(result.stdout)
    for key, value in expect.items():
        assert outcome[key] == value, key


def test_scenario_output_form_of_the_spec_example():
    """SCENARIOS.md's own example: Avi pays Dana's cafes, then his bakeries pay with the mall."""
    outcome = resolve({
        "ruleset": "machi-koro",
        "players": [
            {"name": "Avi", "coins": 3, "cards": {"wheat_field": 1, "bakery": 2},
             "landmarks": ["shopping_mall"]},
            {"name": "Dana", "coins": 0, "cards": {"wheat_field": 1, "bakery": 1, "cafe": 2},
             "landmarks": []},
        ],
        "active": 0, "dice": [3],
        "choices": {"tv_station_target": "Dana",
                    "business_center": {"with": "Dana", "give": "ranch", "take": "cafe"}},
    })
    assert outcome == {
        "coins": {"Avi": 5, "Dana": 2},
        "transfers": [
            {"from": "Avi", "to": "Dana", "amount": 2, "card": "cafe", "forgiven": 0},
            {"from": "bank", "to": "Avi", "amount": 4, "card": "bakery", "forgiven": 0},
        ],
        "extra_turn": False,
    }


def base(**changes):
    return {**table(P("A", 5, city(business_center=1, tv_station=1), ["train_station"]),
                    P("B", 3, {"wheat_field": 1, "ranch": 1, "stadium": 1}),
                    P("C", 4, {"wheat_field": 1}), dice=(3, 3)),
            **changes}


def test_scenario_tv_station_named_target_and_swap():
    outcome = resolve(base(choices={
        "tv_station_target": "B",
        "business_center": {"with": "B", "give": "bakery", "take": "ranch"},
    }))
    assert outcome["coins"] == {"A": 8, "B": 0, "C": 4}


def test_scenario_tv_station_default_is_richest_other():
    assert resolve(base())["coins"] == {"A": 9, "B": 3, "C": 0}


def test_scenario_coop_bank_pays():
    scenario = base(ruleset="machi-koro-coop", players=base()["players"][:2])
    assert resolve(scenario)["coins"] == {"A": 10, "B": 3}


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"dice": [7]}, "dice[0]"),
        ({"dice": [3, 3], "active": 1}, "dice"),
        ({"dice": []}, "dice"),
        ({"dice": [1, 2, 3]}, "dice"),
        ({"active": 3}, "active"),
        ({"active": "0"}, "active"),
        ({"ruleset": "chess"}, "ruleset"),
        ({"players": []}, "players"),
        ({"choices": {"business_center": {"with": "B", "give": "tv_station",
                                          "take": "ranch"}}}, "choices.business_center.give"),
        ({"choices": {"business_center": {"with": "B", "give": "bakery", "take": "stadium"}}},
         "choices.business_center.take"),
        ({"choices": {"business_center": {"with": "Z", "give": "bakery", "take": "ranch"}}},
         "choices.business_center.with"),
        ({"choices": {"tv_station_target": "A"}}, "choices.tv_station_target"),
        ({"choices": {"tv_station_target": "Nobody"}}, "choices.tv_station_target"),
        ({"choices": "no"}, "choices"),
    ],
)
def test_scenario_refused_naming_the_field(changes, field):
    with pytest.raises(ScenarioError) as caught:
        resolve(base(**changes))
    assert str(caught.value).startswith(field + ":"), str(caught.value)


@pytest.mark.parametrize(
    ("player_changes", "field"),
    [
        ({"coins": -1}, "players[1].coins"),
        ({"coins": True}, "players[1].coins"),
        ({"cards": {"castle": 1}}, "players[1].cards.castle"),
        ({"cards": {"ranch": -2}}, "players[1].cards.ranch"),
        ({"cards": {"stadium": 2}}, "players[1].cards.stadium"),
        ({"cards": {"wheat_field": 9}}, "players"),
        ({"landmarks": ["castle"]}, "players[1].landmarks[0]"),
        ({"landmarks": ["train_station", "train_station"]}, "players[1].landmarks[1]"),
        ({"name": "A"}, "players[1].name"),
        ({"name": ""}, "players[1].name"),
    ],
)
def test_scenario_refused_player_field(player_changes, field):
    scenario = base()
    scenario["players"][1].update(player_changes)
    with pytest.raises(ScenarioError) as caught:
        resolve(scenario)
    assert str(caught.value).startswith(field + ":"), str(caught.value)


def test_scenario_missing_field_is_named():
    scenario = base()
    del scenario["players"][2]["landmarks"]
    with pytest.raises(ScenarioError, match=r"^players\[2\].landmarks: missing"):
        resolve(scenario)


def test_scenario_choices_ignored_when_card_does_not_activate():
    scenario = base(dice=[1, 1], choices={"tv_station_target": "B"})
    assert resolve(scenario)["coins"] == {"A": 6, "B": 4, "C": 4}


def test_scenario_bonus_turn_gives_no_further_extra_turn():
    players = base()["players"]
    players[0]["landmarks"].append("amusement_park")
    assert resolve(base(players=players, dice=[2, 2]))["extra_turn"] is True
    assert resolve(base(players=players, dice=[2, 2], bonus_turn=True))["extra_turn"] is False


@pytest.mark.parametrize("text", ["not json", "[1, 2]", "{}", '{"ruleset": "machi-koro"}'])
def test_resolve_command_refuses_with_exit_2_and_one_line(text):
    result = run_companion("resolve", "-", stdin=text)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert ":" in result.stderr


def test_resolve_command_missing_file():
    result = run_companion("resolve", "/nonexistent/scenario.json")
    assert result.returncode == 2 and result.stderr.startswith("scenario: cannot read")


def test_resolve_command_hebrew_names_round_trip():
    scenario = base()
    scenario["players"][1]["name"] = "דנה"
    result = resolve_json(scenario)
    assert result.returncode == 0, result.stderr
    assert "דנה" in json.loads(result.stdout)["coins"]
