"""Places and points of a table (RULES.md 26-27), standings (27), the semi-final and final
seeding and the tournament's ranking (28): companion/tournament/scoring.py.

A table is written in one line: `table("a 2/14/3", "b 1/4/9", finished="a")` is player a with
2 landmarks built costing 14 and 3 coins, and so on; players are letters mapped to ids.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.tournament.errors import BadResult, TournamentError
from companion.tournament.scoring import (
    POINTS,
    Cut,
    Score,
    Standing,
    TableResult,
    cut_line,
    finalists,
    place,
    seeds,
    semi_finals,
    standings,
    tournament_ranking,
)


def pid(name: str) -> int:
    return ord(name) - ord("a")


def table(*players: str, finished: str = "") -> TableResult:
    scores = []
    for text in players:
        name, counts = text.split()
        landmarks, cost, coins = map(int, counts.split("/"))
        scores.append(Score(pid(name), landmarks, cost, coins))
    return TableResult(tuple(scores), tuple(pid(name) for name in finished))


def places(result: TableResult) -> dict[str, tuple[int, Fraction]]:
    return {chr(p.player + ord("a")): (p.place, p.points) for p in place(result)}


# Places and points (RULES.md 26-27) -----------------------------------------------------------

def test_ruling_26_winner_first_then_landmarks_then_their_cost_then_coins() -> None:
    result = table("a 1/4/30", "b 3/36/0", "c 3/36/2", "d 3/40/0", finished="a")
    assert places(result) == {"a": (1, 5), "d": (2, 3), "c": (3, 2), "b": (4, 1)}
    assert [p.won for p in place(result)] == [True, False, False, False]


def test_ruling_27_table_of_three_gives_5_3_1() -> None:
    result = table("a 4/52/0", "b 2/14/5", "c 1/4/9", finished="a")
    assert places(result) == {"a": (1, 5), "b": (2, 3), "c": (3, 1)}


def test_ruling_27_tied_players_share_the_place_and_the_points_of_the_places_they_cover() -> None:
    result = table("a 4/52/0", "b 2/14/5", "c 2/14/5", "d 0/0/1", finished="a")
    assert places(result) == {"a": (1, 5), "b": (2, Fraction(5, 2)), "c": (2, Fraction(5, 2)),
                              "d": (4, 1)}


def test_ruling_27_three_tied_for_second_share_places_2_to_4() -> None:
    result = table("a 4/52/0", "b 1/4/3", "c 1/4/3", "d 1/4/3", finished="a")
    assert places(result) == {"a": (1, 5), "b": (2, 2), "c": (2, 2), "d": (2, 2)}


def test_ruling_27_two_tied_for_last_at_a_table_of_three() -> None:
    result = table("a 4/52/0", "b 0/0/3", "c 0/0/3", finished="a")
    assert places(result) == {"a": (1, 5), "b": (2, 2), "c": (2, 2)}


def test_ruling_26_closed_round_ranks_unfinished_tables_the_same_way_with_no_winner() -> None:
    result = table("a 3/30/1", "b 3/30/1", "c 3/30/1", "d 1/4/9")
    assert places(result) == {"a": (1, Fraction(10, 3)), "b": (1, Fraction(10, 3)),
                              "c": (1, Fraction(10, 3)), "d": (4, 1)}
    assert not any(p.won for p in place(result))


def test_ruling_26_closed_round_everyone_equal_shares_all_the_points() -> None:
    result = table("a 0/0/3", "b 0/0/3", "c 0/0/3", "d 0/0/3")
    assert places(result) == dict.fromkeys("abcd", (1, Fraction(11, 4)))


def test_ruling_26_play_on_places_as_they_finished() -> None:
    """RULES.md 14: the last player left takes the last place; landmarks do not reorder."""
    result = table("a 4/52/0", "b 4/52/20", "c 4/52/0", "d 3/40/50", finished="cab")
    assert places(result) == {"c": (1, 5), "a": (2, 3), "b": (3, 2), "d": (4, 1)}
    assert [p.won for p in place(result)] == [True, False, False, False]
    everyone = table("a 4/52/0", "b 4/52/20", "c 4/52/0", "d 3/40/50", finished="cabd")
    assert place(everyone) == place(result)


def test_ruling_26_play_on_closed_at_round_time_ranks_the_rest_after_the_finished() -> None:
    result = table("a 4/52/0", "b 3/40/1", "c 3/40/1", "d 3/22/9", finished="a")
    assert places(result) == {"a": (1, 5), "b": (2, Fraction(5, 2)), "c": (2, Fraction(5, 2)),
                              "d": (4, 1)}


def test_ruling_26_places_listed_best_first_then_in_start_order() -> None:
    result = table("d 1/4/0", "a 2/14/0", "c 1/4/0", "b 0/0/0")
    assert [p.player for p in place(result)] == [pid("a"), pid("d"), pid("c"), pid("b")]


@st.composite
def results(draw: st.DrawFn) -> TableResult:
    size = draw(st.sampled_from([2, 3, 4]))
    counts = st.integers(0, 3)
    scores = tuple(Score(player, draw(counts), draw(counts), draw(counts)) for player in range(size))
    finished = draw(st.permutations(range(size)))[:draw(st.integers(0, size))]
    return TableResult(scores, tuple(finished))


@settings(max_examples=300)
@given(results())
def test_ruling_27_a_table_gives_out_exactly_its_points(result: TableResult) -> None:
    placings = place(result)
    assert sum(p.points for p in placings) == sum(POINTS[len(placings)])
    assert sorted(p.player for p in placings) == list(range(len(placings)))
    for placing in placings:  # a shared place gets the average of the places it covers
        shared = [p for p in placings if p.place == placing.place]
        covered = POINTS[len(placings)][placing.place - 1:placing.place - 1 + len(shared)]
        assert placing.points == Fraction(sum(covered), len(shared))
    assert sum(p.won for p in placings) == (1 if result.finished else 0)


@pytest.mark.parametrize(("result", "message"), [
    (TableResult((Score(0, 0, 0, 0),)), "scores: a table of 1 players; tables have 2 to 4"),
    (TableResult(tuple(Score(p, 0, 0, 0) for p in range(5))), "scores: a table of 5 players"),
    (TableResult((Score(0, 0, 0, 0), Score(0, 1, 0, 0))), "scores: player 0 is not an id or is listed twice"),
    (TableResult((Score(0, 0, 0, -1), Score(1, 0, 0, 0))), "scores: coins of player 0 is -1"),
    (TableResult((Score(0, True, 0, 0), Score(1, 0, 0, 0))), "scores: landmarks of player 0 is True"),
    (TableResult((Score(0, 0, 0, 0), Score(1, 0, 0, 0)), (2,)), "finished: 2 did not play at this table"),
    (TableResult((Score(0, 0, 0, 0), Score(1, 0, 0, 0)), (1, 1)),
     "finished: 1 did not play at this table or is listed twice"),
])
def test_ruling_26_results_that_cannot_be_scored_are_refused(result: TableResult, message: str) -> None:
    with pytest.raises(BadResult) as refused:
        place(result)
    assert refused.value.code == "tournament/bad_result"
    assert refused.value.message.startswith(message)


# Standings (RULES.md 27) ---------------------------------------------------------------------

def ranks(lines: tuple[Standing, ...]) -> list[tuple[str, int]]:
    return [(chr(line.player + ord("a")), line.rank) for line in lines]


def test_ruling_27_standings_rank_by_wins_before_points() -> None:
    rounds = [
        table("a 4/52/0", "b 3/40/0", "c 2/14/0", "d 1/4/0", finished="a"),  # a 5, b 3, c 2, d 1
        table("b 3/40/0", "c 4/52/0", "d 1/4/0", "a 0/0/0", finished="c"),   # c 5, b 3, d 2, a 1
        table("b 3/40/0", "d 4/52/0", "a 2/14/0", "c 0/0/0", finished="d"),  # d 5, b 3, a 2, c 1
    ]
    lines = standings(rounds)
    # b has 9 points but no win; a, c and d one win and 8 points each
    assert [(line.wins, line.points) for line in lines] == [(1, 8), (1, 8), (1, 8), (0, 9)]
    assert ranks(lines)[-1] == ("b", 4)


def test_ruling_27_standings_then_points_then_landmarks_then_coins() -> None:
    rounds = [
        table("a 4/52/0", "b 2/14/0", "c 2/14/0", "d 1/4/0", finished="a"),
        table("e 4/52/0", "f 3/40/0", "g 0/0/7", "h 0/0/2", finished="e"),
    ]
    lines = standings(rounds)
    # d and h have 1 point each: d's landmark counts before h's 2 coins
    assert ranks(lines) == [("a", 1), ("e", 1), ("f", 3), ("b", 4), ("c", 4), ("g", 6), ("d", 7),
                            ("h", 8)]
    b = next(line for line in lines if line.player == pid("b"))
    assert (b.wins, b.points, b.landmarks, b.coins, b.tables) == (0, Fraction(5, 2), 2, 0, 1)


def test_ruling_27_landmarks_and_coins_count_over_all_rounds() -> None:
    """Two closed rounds: a 5 + 1, b 3 + 3, c 1 + 5 points; 2 landmarks each; coins decide."""
    rounds = [table("a 2/14/1", "b 1/4/1", "c 0/0/9"), table("a 0/0/0", "b 1/4/0", "c 2/14/0")]
    lines = standings(rounds)
    assert [(line.points, line.landmarks) for line in lines] == [(6, 2)] * 3
    assert ranks(lines) == [("c", 1), ("a", 2), ("b", 2)]
    rounds[0] = table("a 2/14/1", "b 1/4/0", "c 0/0/9")
    assert ranks(standings(rounds)) == [("c", 1), ("a", 2), ("b", 3)]


def test_ruling_27_players_without_a_table_stand_at_zero() -> None:
    lines = standings([table("a 1/4/0", "b 0/0/0", "c 0/0/0", finished="a")], players=[pid("z")])
    assert ranks(lines) == [("a", 1), ("b", 2), ("c", 2), ("z", 4)]
    assert lines[-1] == Standing(pid("z"), 4, 0, Fraction(0), 0, 0, 0)


# Semi-finals and the final (RULES.md 28) ------------------------------------------------------

def standing_of(count: int, ties: dict[int, int] | None = None) -> tuple[Standing, ...]:
    """`count` players: player i ranked i + 1, unless `ties` gives another rank."""
    ties = ties or {}
    return tuple(Standing(p, ties.get(p, p + 1), 0, Fraction(0), 0, 0, 3) for p in range(count))


def test_ruling_28_fewer_than_29_players_the_top_4_play_the_final() -> None:
    lines = standing_of(28)
    assert semi_finals(lines) == ()
    assert finalists(lines) == (0, 1, 2, 3)


def test_ruling_28_from_29_players_four_semi_finals_in_snake_order() -> None:
    lines = standing_of(29)
    assert semi_finals(lines) == ((0, 7, 8, 15), (1, 6, 9, 14), (2, 5, 10, 13), (3, 4, 11, 12))


def test_ruling_28_players_equal_at_the_cut_are_named_for_the_seats_left() -> None:
    """RULES.md 28: players 3, 4 and 5 share rank 4, one seat is left for them; no tie
    straddles the cut of 4 when only players above it are equal."""
    lines = standing_of(10, ties={4: 4, 3: 4, 5: 4})
    assert cut_line(lines, 4) == Cut(count=4, sure=(0, 1, 2), tied=(3, 4, 5), seats=1)
    assert cut_line(lines, 4, absent={1}) == Cut(count=4, sure=(0, 2), tied=(3, 4, 5), seats=2)
    assert cut_line(lines, 4, absent={4, 5}) is None  # 3 stands alone at the cut
    assert cut_line(standing_of(10, ties={1: 1}), 4) is None  # equal, but both above the cut
    assert cut_line(standing_of(3), 4) is None  # too few: refused by seeds, no draw


def test_ruling_28_the_draw_decides_the_seats_left_never_registration_order() -> None:
    """RULES.md 28: the server draws among the tied players; the pure seeding takes the
    draw's order and refuses to settle the tie without it."""
    lines = standing_of(10, ties={4: 4, 3: 4, 5: 4})
    assert seeds(lines, 4, drawn=(5, 3, 4)) == (0, 1, 2, 5)
    assert seeds(lines, 4, absent={1}, drawn=(4, 5, 3)) == (0, 2, 4, 5)
    assert finalists(lines, drawn=(4, 3, 5)) == (0, 1, 2, 4)
    with pytest.raises(TournamentError) as refused:
        seeds(lines, 4)
    assert refused.value.message == ("standings: players 3, 4 and 5 are equal at the cut "
                                     "for 1 seat: a draw among them is needed")
    with pytest.raises(TournamentError):
        seeds(lines, 4, drawn=(5, 3))  # a draw of other players than those tied
    assert seeds(standing_of(10), 4, drawn=()) == (0, 1, 2, 3)  # no tie: no draw needed
    with pytest.raises(TournamentError) as refused:
        seeds(lines, 16)
    assert refused.value.message == "standings: 10 players can play on, 16 are needed"


def test_ruling_28_a_draw_at_the_cut_of_the_semi_finals_seeds_in_its_order() -> None:
    """RULES.md 28: 30 players, 15 to 18 equal at rank 15: two seats of the top 16 drawn."""
    lines = standing_of(30, ties={15: 15, 16: 15, 17: 15})
    assert cut_line(lines, 16) == Cut(count=16, sure=tuple(range(14)), tied=(14, 15, 16, 17), seats=2)
    tables = semi_finals(lines, drawn=(17, 15, 14, 16))
    assert tables[0] == (0, 7, 8, 15) and tables[1] == (1, 6, 9, 17)  # seeds 16 and 15: drawn


def test_ruling_28_who_lost_the_draw_keeps_their_preliminary_rank() -> None:
    lines = standing_of(8, ties={4: 4, 3: 4})
    final = TableResult(tuple(Score(p, 1, 4, 0) for p in (0, 1, 2, 4)), finished=(4,))
    ranking = tournament_ranking(lines, final, drawn=(4, 3))
    assert [(r.player, r.rank, r.stage) for r in ranking[:5]] == [
        (4, 1, "final"), (0, 2, "final"), (1, 2, "final"), (2, 2, "final"), (3, 5, "preliminaries")]


def semi_result(players: tuple[int, ...], winner: int | None) -> TableResult:
    scores = tuple(Score(p, 1, 4, 0) for p in players)
    return TableResult(scores, () if winner is None else (winner,))


def test_ruling_28_semi_final_winners_play_the_final_in_seed_order() -> None:
    lines = standing_of(40)
    tables = semi_finals(lines)
    results = [semi_result(tables[0], 15), semi_result(tables[1], 1),
               semi_result(tables[2], 10), semi_result(tables[3], None)]  # closed: all equal
    assert finalists(lines, results) == (1, 3, 10, 15)  # table 4's shared first: seed 4


def test_ruling_28_semi_final_results_must_match_the_tables() -> None:
    lines = standing_of(40)
    tables = semi_finals(lines)
    with pytest.raises(BadResult):
        finalists(lines, [semi_result(table, None) for table in tables[:3]])
    with pytest.raises(BadResult):
        finalists(lines, [semi_result(table, None) for table in (*tables[:3], (3, 4, 11, 20))])


def test_ruling_28_the_final_places_first_then_who_left_at_the_semi_finals_then_the_rest() -> None:
    lines = standing_of(40)
    tables = semi_finals(lines)
    results = [semi_result(tables[0], 15), semi_result(tables[1], 1),
               semi_result(tables[2], 10), semi_result(tables[3], 3)]
    final = TableResult((Score(1, 2, 14, 0), Score(3, 4, 52, 0), Score(10, 2, 14, 0),
                         Score(15, 0, 0, 0)), finished=(3,))
    ranking = tournament_ranking(lines, final, results)
    assert [(r.player, r.rank) for r in ranking[:4]] == [(3, 1), (1, 2), (10, 2), (15, 4)]
    left = [(r.player, r.rank) for r in ranking if r.stage == "semi-final"]
    assert left == list(zip([0, 2, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14], range(5, 17), strict=True))
    assert [(r.player, r.rank, r.stage) for r in ranking[16:18]] == [
        (16, 17, "preliminaries"), (17, 18, "preliminaries")]
    assert len(ranking) == 40 and sorted(r.player for r in ranking) == list(range(40))


def test_ruling_28_without_semi_finals_the_others_keep_their_rank() -> None:
    lines = standing_of(12, ties={6: 6, 5: 6})
    final = TableResult(tuple(Score(p, 1, 4, 0) for p in (0, 1, 2, 3)), finished=(2,))
    ranking = tournament_ranking(lines, final)
    assert [(r.player, r.rank) for r in ranking] == [
        (2, 1), (0, 2), (1, 2), (3, 2), (4, 5), (5, 6), (6, 6), (7, 8), (8, 9), (9, 10),
        (10, 11), (11, 12)]


def test_ruling_28_the_final_must_be_the_finalists_table() -> None:
    lines = standing_of(12)
    with pytest.raises(BadResult) as refused:
        tournament_ranking(lines, TableResult(tuple(Score(p, 0, 0, 0) for p in (0, 1, 2, 4))))
    assert refused.value.message == "final: the final table is [0, 1, 2, 3], not [0, 1, 2, 4]"
