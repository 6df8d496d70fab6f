"""Seating a tournament's preliminary rounds (RULES.md 25), companion/tournament/seating.py.

"Where avoidable", decided honestly: a property is asserted only where a perfect seating is
known to exist, whatever the rounds before it look like.

- No repeated opponent: in a round, the players one has met (at most 3 a round) plus one's
  keep-apart partners are at most D = 3 (R - 1) + (g - 1) others, g the largest group. A
  round without a repeat or a shared group is an equitable colouring of that graph with T
  colours (T tables, sizes 4 and 3 differ by one), and the Hajnal-Szemeredi theorem gives one
  for every T >= D + 1. So: zero repeats whenever T >= 3 (R - 1) + g.
- No second first seat (and, beyond it, no third while someone has had fewer): fix the T
  players with the fewest first seats as the tables' first players and seat everyone else
  one by one at a table where nobody conflicts with them; when every free table conflicts,
  some player w (not a first player) of the at least T - D tables that do not conflict with
  the newcomer can go to the free table, whose at most 3 players conflict with at most 3D
  players, and 2 (T - D) > 3D leaves such a w. So for T > 2.5 D every round can have zero
  repeats and first players with the fewest first seats, and over R rounds the second first
  seats are exactly max(0, R T - N): zero while R T <= N.
- Start positions: at a single table the rounds form a Latin rectangle, which always extends,
  so for R <= table size nobody takes a position twice.

Smaller tournaments are still seated; how close they come is measured, not asserted.
"""

from __future__ import annotations

import ast
import itertools
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import companion.tournament
from companion.tournament.errors import CannotSeat
from companion.tournament.seating import Repeats, repeats, reseat, seat, table_sizes

Seating = tuple[tuple[tuple[int, ...], ...], ...]


def tables_for(players: int) -> int:
    return len(table_sizes(players))


def opponent_repeats(rounds: Seating) -> int:
    """Meetings of two players after their first, counted from the seating itself."""
    meetings = Counter(frozenset(pair) for tables in rounds for table in tables
                       for pair in itertools.combinations(table, 2))
    return sum(count - 1 for count in meetings.values())


def second_firsts(rounds: Seating) -> int:
    firsts = Counter(table[0] for tables in rounds for table in tables)
    return sum(count - 1 for count in firsts.values())


def assert_everyone_once(rounds: Seating, players: set[int]) -> None:
    for tables in rounds:
        seated = [player for table in tables for player in table]
        assert sorted(seated) == sorted(players)


def assert_apart(rounds: Seating, groups: list[list[int]]) -> None:
    for tables in rounds:
        for table in tables:
            for group in groups:
                assert len(set(table) & set(group)) <= 1, (table, group)


def fewest_threes(players: int) -> int:
    return min(threes for threes in range(players // 3 + 1) if (players - 3 * threes) % 4 == 0)


@st.composite
def tournaments(draw: st.DrawFn, low: int = 3, high: int = 200) -> tuple[int, int, int]:
    players = draw(st.integers(low, high).filter(lambda n: n != 5))
    return players, draw(st.integers(1, 5)), draw(st.integers(0, 2**32))


@st.composite
def with_groups(draw: st.DrawFn, players: int, largest: int) -> list[list[int]]:
    """Disjoint keep-apart groups of 2 to `largest` players."""
    order = list(range(players))
    random.Random(draw(st.integers(0, 2**32))).shuffle(order)
    groups = []
    for _ in range(draw(st.integers(0, 6))):
        size = draw(st.integers(2, max(2, largest)))
        if size > largest or len(order) < size:
            break
        groups.append([order.pop() for _ in range(size)])
    return groups


# Table sizes -------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "sizes"), [
    (3, (3,)), (4, (4,)), (6, (3, 3)), (7, (4, 3)), (8, (4, 4)), (9, (3, 3, 3)),
    (10, (4, 3, 3)), (11, (4, 4, 3)), (12, (4, 4, 4)), (13, (4, 3, 3, 3)), (17, (4, 4, 3, 3, 3)),
    (1100, (4,) * 275), (1101, (4,) * 273 + (3,) * 3),
])
def test_ruling_25_tables_of_four_then_as_few_threes_as_possible(
        players: int, sizes: tuple[int, ...]) -> None:
    assert table_sizes(players) == sizes


def test_ruling_25_fewest_threes_for_every_count_up_to_2000() -> None:
    for players in (n for n in range(3, 2001) if n != 5):
        sizes = table_sizes(players)
        assert sum(sizes) == players and set(sizes) <= {3, 4}
        assert sizes.count(3) == fewest_threes(players)
        assert list(sizes) == sorted(sizes, reverse=True)


@pytest.mark.parametrize("players", [-1, 0, 1, 2, 5])
def test_ruling_25_too_few_players_or_five_cannot_be_seated(players: int) -> None:
    with pytest.raises(CannotSeat) as refused:
        table_sizes(players)
    assert refused.value.code == "tournament/cannot_seat"
    assert f"players: {players} " in refused.value.message


def test_ruling_25_tables_of_two_only_when_allowed_and_only_when_needed() -> None:
    assert table_sizes(5, allow_two=True) == (3, 2)
    assert table_sizes(2, allow_two=True) == (2,)
    assert table_sizes(6, allow_two=True) == (3, 3)
    with pytest.raises(CannotSeat):
        table_sizes(1, allow_two=True)
    rounds = seat(5, 3, random.Random(1), allow_two=True)
    assert all(tuple(map(len, tables)) == (3, 2) for tables in rounds)


# Every round, every player ----------------------------------------------------------------

@settings(max_examples=80)
@given(tournaments())
def test_ruling_25_every_player_once_a_round_at_the_fewest_threes(case: tuple[int, int, int]) -> None:
    players, count, seed = case
    rounds = seat(players, count, random.Random(seed))
    assert len(rounds) == count
    assert_everyone_once(rounds, set(range(players)))
    for tables in rounds:
        assert tuple(map(len, tables)) == table_sizes(players)


def test_ruling_25_same_seed_same_seating_other_seed_other_seating() -> None:
    assert seat(40, 3, random.Random(7)) == seat(40, 3, random.Random(7))
    assert seat(40, 3, random.Random(7)) != seat(40, 3, random.Random(8))


# Fresh opponents, a different first player -------------------------------------------------

@settings(max_examples=60)
@given(st.integers(1, 5).flatmap(lambda r: st.tuples(
    st.integers(max(3, 4 * (3 * (r - 1) + 1) - 3), 200).filter(lambda n: n != 5), st.just(r),
    st.integers(0, 2**32))))
def test_ruling_25_no_repeated_opponent_where_hajnal_szemeredi_guarantees_one(
        case: tuple[int, int, int]) -> None:
    players, count, seed = case
    assert tables_for(players) >= 3 * (count - 1) + 1
    rounds = seat(players, count, random.Random(seed))
    assert opponent_repeats(rounds) == 0


def first_seat_domain(count: int, largest_group: int = 1) -> int:
    """The fewest players for which T > 2.5 D (module docstring)."""
    degree = 3 * (count - 1) + largest_group - 1
    tables = 5 * degree // 2 + 1
    return max(3, 4 * tables - 3)


@settings(max_examples=40)
@given(st.integers(1, 5).flatmap(lambda r: st.tuples(
    st.integers(first_seat_domain(r), 200).filter(lambda n: n != 5), st.just(r),
    st.integers(0, 2**32))))
def test_ruling_25_nobody_first_twice_while_that_can_be_avoided(case: tuple[int, int, int]) -> None:
    players, count, seed = case
    rounds = seat(players, count, random.Random(seed))
    assert opponent_repeats(rounds) == 0
    assert second_firsts(rounds) == max(0, count * tables_for(players) - players)
    firsts = Counter(table[0] for tables in rounds for table in tables)
    assert max(firsts.values()) - min(firsts.get(p, 0) for p in range(players)) <= 1


@pytest.mark.parametrize(("players", "count"), [(3, 3), (4, 4), (4, 2), (3, 2)])
def test_ruling_25_one_table_rotates_the_start_positions(players: int, count: int) -> None:
    rounds = seat(players, count, random.Random(3))
    for position in range(players):
        seated = [tables[0][position] for tables in rounds]
        assert len(set(seated)) == count
    assert repeats(rounds) == Repeats(opponents=(count - 1) * players * (players - 1) // 2,
                                      firsts=0, positions=0)


@pytest.mark.parametrize(("players", "count"), [(9, 3), (16, 3), (16, 5), (21, 3), (28, 3)])
def test_ruling_25_small_tournaments_known_to_have_a_perfect_seating(players: int, count: int) -> None:
    """9 players in 3 rounds and 16 in 5 are the affine planes of order 3 and 4: every two
    players meet exactly once; 16 in 3 is a Latin square."""
    rounds = seat(players, count, random.Random(0))
    assert opponent_repeats(rounds) == 0
    assert second_firsts(rounds) == max(0, count * tables_for(players) - players)


def test_ruling_25_repeats_only_where_the_count_forces_them() -> None:
    """8 players in 2 rounds: each table of round 2 takes 4 of the 8 from the 2 tables of
    round 1, so 2 from each (at best): 2 repeated pairs a table, 4 in all; 12 in 2 rounds:
    4 from 3 tables, at least 1 repeat a table."""
    assert opponent_repeats(seat(8, 2, random.Random(0))) == 4
    assert opponent_repeats(seat(12, 2, random.Random(0))) == 3


@pytest.mark.parametrize("seed", range(5))
def test_ruling_25_twelve_players_three_rounds_at_the_floor_of_six(seed: int) -> None:
    """12 players at 3 tables of 4: every table of a later round takes its 4 players from the
    3 tables of an earlier round, so two of them sat together: at least 1 repeat a table, 3 a
    round, 6 over rounds 2 and 3 (issue 25 measured 8 with every seed)."""
    rounds = seat(12, 3, random.Random(seed))
    assert opponent_repeats(rounds) == 6
    assert second_firsts(rounds) == 0


@pytest.mark.parametrize("seed", range(3))
def test_ruling_25_twelve_players_four_rounds_at_thirteen(seed: int) -> None:
    """12 players in 4 rounds: 13 repeats are reachable (issue 25 measured 15 and 16)."""
    rounds = seat(12, 4, random.Random(seed))
    assert opponent_repeats(rounds) <= 13
    assert second_firsts(rounds) == 0


@pytest.mark.parametrize("seed", range(3))
def test_ruling_25_thirteen_players_and_a_drop_after_round_one(seed: int) -> None:
    """13 players in 4 rounds, one drops after round 1: rounds 2 to 4 seat 12, round 1's
    tables of 3 counting as history (8 repeats before this issue with most seeds)."""
    rng = random.Random(seed)
    played = seat(13, 4, rng)[:1]
    rest = reseat(played, set(range(13)) - {played[0][0][1]}, 3, rng)
    assert opponent_repeats(played + rest) <= 6


@pytest.mark.parametrize(("seed", "best"), [(0, 10), (1, 10), (2, 12), (3, 12)])
def test_ruling_25_thirteen_players_five_rounds_a_drop_after_round_three(seed: int, best: int) -> None:
    """13 players in 5 rounds, one drops after round 3: rounds 4 and 5 seat 12 at 3 tables of
    4 (36 pairs) where only 28 or 29 pairs have not met yet, so 7 or 8 repeats at least. The
    played rounds decide more: with these the best is 10 or 12 (every two seatings of rounds 4
    and 5 tried, 5,775 each, when this test was written), and the search finds it."""
    played = seat(13, 5, random.Random(seed))[:3]
    rest = reseat(played, set(range(13)) - {played[0][0][1]}, 2, random.Random(seed))
    assert opponent_repeats(played + rest) == best


@pytest.mark.parametrize("seed", range(10))
def test_ruling_25_sixteen_players_four_rounds_nobody_first_twice(seed: int) -> None:
    """16 players in 4 rounds at 4 tables: each player sits at 4 of the 16 tables, so a first
    player for every table with nobody first twice always exists (a perfect matching of a
    4-regular bipartite graph); issue 25 found someone first twice in 8 of 10 seeds."""
    rounds = seat(16, 4, random.Random(seed))
    assert opponent_repeats(rounds) == 0
    firsts = Counter(table[0] for tables in rounds for table in tables)
    assert sorted(firsts.values()) == [1] * 16


@settings(max_examples=30)
@given(st.integers(6, 60).filter(lambda n: n != 5), st.integers(2, 5), st.integers(0, 2**32))
def test_ruling_25_first_players_chosen_over_all_rounds(players: int, count: int, seed: int) -> None:
    """The first players of all the rounds at once: as few second first seats as the tables
    allow, that is the tables less the most that can each have a first player of their own
    (a largest matching, recomputed here with Kuhn's augmenting paths)."""
    rounds = seat(players, count, random.Random(seed))
    tables = [table for tables in rounds for table in tables]
    assert second_firsts(rounds) == len(tables) - largest_matching(tables)


def largest_matching(tables: list[tuple[int, ...]]) -> int:
    """How many tables can have a first player of their own (Kuhn's augmenting paths)."""
    owner: dict[int, int] = {}

    def place(index: int, seen: set[int]) -> bool:
        for player in tables[index]:
            if player not in seen:
                seen.add(player)
                if player not in owner or place(owner[player], seen):
                    owner[player] = index
                    return True
        return False

    return sum(place(index, set()) for index in range(len(tables)))


# Keep-apart groups ---------------------------------------------------------------------------

@settings(max_examples=60)
@given(st.data())
def test_ruling_25_keep_apart_groups_never_share_a_table(data: st.DataObject) -> None:
    players, count, seed = data.draw(tournaments())
    groups = data.draw(with_groups(players, tables_for(players)))
    rounds = seat(players, count, random.Random(seed), keep_apart=groups)
    assert_everyone_once(rounds, set(range(players)))
    assert_apart(rounds, groups)


@settings(max_examples=40)
@given(st.data())
def test_ruling_25_keep_apart_groups_and_fresh_opponents_together(data: st.DataObject) -> None:
    count = data.draw(st.integers(1, 4))
    largest = data.draw(st.integers(2, 4))
    players = data.draw(st.integers(4 * (3 * (count - 1) + largest) - 3, 200).filter(lambda n: n != 5))
    groups = data.draw(with_groups(players, largest))
    rounds = seat(players, count, random.Random(data.draw(st.integers(0, 99))), keep_apart=groups)
    assert_apart(rounds, groups)
    assert opponent_repeats(rounds) == 0


def test_ruling_25_a_group_as_large_as_the_tables_is_spread_over_all_of_them() -> None:
    rounds = seat(12, 3, random.Random(0), keep_apart=[[0, 1, 2]])
    assert_apart(rounds, [[0, 1, 2]])


@pytest.mark.parametrize(("groups", "message"), [
    ([[0, 1, 2, 3]], "keep_apart: a group of 4 ([0, 1, 2, 3]) cannot be kept apart at 3 tables"),
    ([[0, 1], [1, 2]], "keep_apart: player 1 is in two groups"),
    ([[0, 0]], "keep_apart: player 0 is in two groups"),
    ([[0, 12]], "keep_apart: 12 is not a present player"),
])
def test_ruling_25_keep_apart_groups_that_cannot_be_kept_are_refused(
        groups: list[list[int]], message: str) -> None:
    with pytest.raises(CannotSeat) as refused:
        seat(12, 3, random.Random(0), keep_apart=groups)
    assert refused.value.message.startswith(message)


# Re-seating when players drop or arrive late -------------------------------------------------

def test_ruling_25_reseat_keeps_the_played_rounds_and_seats_who_is_there() -> None:
    rng = random.Random(5)
    planned = seat(40, 4, rng)
    played = planned[:2]
    present = (set(range(40)) - {3, 17, 22}) | {40, 41}  # three dropped, two arrived late
    rest = reseat(played, present, 2, rng)
    assert len(rest) == 2
    assert_everyone_once(rest, present)
    for tables in rest:
        assert tuple(map(len, tables)) == table_sizes(39)
    assert opponent_repeats(played + rest) == 0  # T = 10 >= 3 (4 - 1) + 1: Hajnal-Szemeredi


@settings(max_examples=40)
@given(st.data())
def test_ruling_25_reseat_after_any_drops_and_arrivals(data: st.DataObject) -> None:
    players, count, seed = data.draw(tournaments(low=12, high=120))
    rng = random.Random(seed)
    played = seat(players, data.draw(st.integers(1, 3)), rng)
    dropped = set(data.draw(st.lists(st.integers(0, players - 1), max_size=players // 3)))
    late = set(range(players, players + data.draw(st.integers(0, 8))))
    present = (set(range(players)) - dropped) | late
    if len(present) in (5,) or len(present) < 3:
        with pytest.raises(CannotSeat):
            reseat(played, present, count, rng)
        return
    rest = reseat(played, present, count, rng)
    assert_everyone_once(rest, present)
    bound = 3 * (len(played) + count - 1) + 1
    if tables_for(len(present)) >= bound:  # Hajnal-Szemeredi, the history included
        assert opponent_repeats(played + rest) == 0


@pytest.mark.parametrize(("played", "present", "message"), [
    ((((0, 1, 2),),), [0, 1, 2, 2], "players: 2 is listed twice"),
    ((((0, 1, 1),),), [0, 1, 2], "played: round 1 seats 1 twice"),
    ((((0, 1, "x"),),), [0, 1, 2], "played: round 1 seats 'x' twice or it is not a player id"),
    ((), [0, 1, True], "players: True is not a player id"),
    ((), [0, 1, 2, 3, 4], "players: 5 cannot sit"),
])
def test_ruling_25_reseat_refuses_what_it_cannot_seat(
        played: Seating, present: list[int], message: str) -> None:
    with pytest.raises(CannotSeat) as refused:
        reseat(played, present, 1, random.Random(0))
    assert refused.value.message.startswith(message)


@pytest.mark.parametrize("count", [0, -1, True, 1.5])
def test_ruling_25_at_least_one_round(count: int) -> None:
    with pytest.raises(CannotSeat) as refused:
        seat(8, count, random.Random(0))
    assert refused.value.message.startswith(f"rounds: {count!r}; at least 1 round")


def test_seating_repeats_counts_a_hand_written_seating() -> None:
    rounds = (((0, 1, 2, 3), (4, 5, 6)), ((0, 1, 4, 5), (2, 3, 6)), ((0, 2, 4), (1, 3, 5, 6)))
    # met again: 0-1, 4-5, 2-3 in round 2; 0-2, 0-4, 1-3, 1-5, 3-6, 5-6 in round 3. Player 0 is
    # first three times; positions again: 0 twice, 1, 3, 4 and 6 once each.
    assert repeats(rounds) == Repeats(opponents=9, firsts=2, positions=6)
    assert opponent_repeats(rounds) == 9 and second_firsts(rounds) == 2


def test_seating_large_tournament_is_perfect() -> None:
    """1,100 players, 3 rounds: the hall's size (its speed is measured apart, not here)."""
    rounds = seat(1100, 3, random.Random(0), keep_apart=[[0, 1, 2, 3], [4, 5]])
    assert_everyone_once(rounds, set(range(1100)))
    assert_apart(rounds, [[0, 1, 2, 3], [4, 5]])
    assert repeats(rounds) == Repeats(0, 0, 0)


def test_tournament_core_imports_nothing_impure() -> None:
    """STYLE.md 1, for the tournament core: `random` only for type hints."""
    folder = Path(companion.tournament.__file__).parent
    forbidden = {"flask", "flask_socketio", "socketio", "sqlite3", "time", "datetime", "secrets",
                 "os", "socket", "threading", "random"}
    offenders = []
    for path in folder.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        hinted = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
                  and ast.unparse(block.test) == "TYPE_CHECKING" for node in ast.walk(block)}
        for node in ast.walk(tree):
            if id(node) in hinted:
                continue
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else (
                [node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
            offenders += [f"{path.name}: {name}" for name in names if name.split(".")[0] in forbidden]
    assert offenders == []
