"""`companion pairings --players N --rounds R [--seed S]` (SCENARIOS.md, "Tournament seating"),
run as a user runs it: one JSON object on standard output, or exit 2 with one line on standard
error and nothing on standard output."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from typing import Any

import pytest
from conftest import assert_one_line_refusal, run_companion

from companion.tournament.seating import seat


def pairings(*args: str) -> Any:
    done = run_companion("pairings", *args)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.endswith("\n") and done.stdout.count("\n") == 1
    return json.loads(done.stdout)


@pytest.mark.parametrize(("players", "rounds", "sizes"), [
    (3, 1, [3]), (4, 2, [4]), (6, 3, [3, 3]), (9, 3, [3, 3, 3]), (13, 3, [4, 3, 3, 3]),
    (16, 3, [4, 4, 4, 4]), (30, 5, [4] * 6 + [3] * 2),
])
def test_pairings_prints_one_json_object_a_list_per_round_and_per_table(
        players: int, rounds: int, sizes: list[int]) -> None:
    output = pairings("--players", str(players), "--rounds", str(rounds))
    assert list(output) == ["rounds"] and len(output["rounds"]) == rounds
    for tables in output["rounds"]:
        assert [len(table) for table in tables] == sizes
        seated = [player for table in tables for player in table]
        assert all(type(player) is int for player in seated)
        assert sorted(seated) == list(range(players))


def test_pairings_is_the_seating_the_core_makes_seed_0_by_default() -> None:
    output = pairings("--players", "21", "--rounds", "3")
    assert output == pairings("--players", "21", "--rounds", "3", "--seed", "0")
    assert output == json.loads(json.dumps({"rounds": seat(21, 3, random.Random(0))}))


def test_pairings_same_seed_same_seating_another_seed_another() -> None:
    first = pairings("--players", "24", "--rounds", "3", "--seed", "41")
    assert first == pairings("--players", "24", "--rounds", "3", "--seed", "41")
    assert first != pairings("--players", "24", "--rounds", "3", "--seed", "42")
    assert pairings("--players", "24", "--rounds", "3", "--seed", "-7")["rounds"]


def test_pairings_for_the_hall_1100_players_3_rounds_fresh_opponents_and_first_players() -> None:
    """The hall's size; its speed is measured apart (no timing here)."""
    rounds = pairings("--players", "1100", "--rounds", "3")["rounds"]
    meetings = Counter(frozenset(pair) for tables in rounds for table in tables
                       for pair in itertools.combinations(table, 2))
    assert max(meetings.values()) == 1
    firsts = Counter(table[0] for tables in rounds for table in tables)
    assert max(firsts.values()) == 1 and len(firsts) == 3 * 275


REFUSALS = [
    (("--players", "2", "--rounds", "3"), "pairings: players: 2 cannot be seated; a table needs at least 3"),
    (("--players", "1", "--rounds", "1"), "pairings: players: 1 cannot be seated"),
    (("--players", "5", "--rounds", "3"), "pairings: players: 5 cannot sit at tables of 4 and 3"),
    (("--players", "0", "--rounds", "3"), "--players: '0': a number from 1 to 10000 is required"),
    (("--players", "-4", "--rounds", "3"), "--players: '-4'"),
    (("--players", "8", "--rounds", "0"), "--rounds: '0': a number from 1 to 20 is required"),
    (("--players", "8", "--rounds", "-1"), "--rounds: '-1'"),
    (("--players", "8.0", "--rounds", "3"), "--players: '8.0'"),
    (("--players", "1e3", "--rounds", "3"), "--players: '1e3'"),
    (("--players", "eight", "--rounds", "3"), "--players: 'eight'"),
    (("--players", "8", "--rounds", "2.5"), "--rounds: '2.5'"),
    (("--players", "8", "--rounds", "3", "--seed", "x"), "--seed: invalid int value: 'x'"),
    (("--players", "8", "--rounds", "3", "--seed", "1.5"), "--seed: invalid int value: '1.5'"),
    (("--players", "10001", "--rounds", "3"), "--players: '10001'"),
    (("--players", "8", "--rounds", "21"), "--rounds: '21'"),
    (("--players", "8"), "the following arguments are required: --rounds"),
    (("--rounds", "3"), "the following arguments are required: --players"),
    (("--players", "8", "--rounds", "3", "--tables", "2"), "unrecognized arguments: --tables 2"),
]


@pytest.mark.parametrize(("args", "message"), REFUSALS)
def test_pairings_impossible_request_is_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    done = run_companion("pairings", *args)
    assert_one_line_refusal(done, message)
    assert "Traceback" not in done.stderr
