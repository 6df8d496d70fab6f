"""`companion bench rules` runs and reports what it measured (the figure is not a test)."""

from companion.bench.rules import bench_rules


def test_bench_rules_plays_games_and_resolves_rolls():
    result = bench_rules(seconds=0.2, seed=3)
    assert result["games"] >= 1
    assert result["positions"] >= 1
    assert result["moves_per_second"] > 0 and result["rolls_in_games_per_second"] > 0
    assert result["table_rolls_resolved_per_second"] > 0
    # a share, rounded to 0.01: a loaded machine can leave a 0.2 s run next to no CPU at all
    assert 0 <= result["cpu_share_while_resolving"] <= 1.05
    assert "2-4 seats" in result["method"]
