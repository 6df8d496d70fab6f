"""`companion bench hall` run tiny: the figures' shape, and every roll reached every phone."""

from __future__ import annotations

import pytest

from companion.bench.floor import compact, floor_view

pytest.importorskip("aiohttp", reason="the bench's phones are python-socketio AsyncClients (aiohttp)")


def assert_eight_phones_got_both_rolls(figures: dict) -> None:
    """One side's figures (the app's or the floor's) of a tiny bench of 8 phones and 2 rolls:
    every phone connected and was sent each roll, all 16 with the right dice."""
    assert figures["connected"] == 8
    assert figures["every_roll_reached_every_phone"], figures
    assert figures["deliveries"] == figures["expected_deliveries"] == 16
    assert figures["wrong_dice"] == 0


def test_the_floor_view_has_the_apps_shape_and_the_asked_size() -> None:
    small, padded = floor_view(3, [4], 0), floor_view(3, [4], 1500)
    assert {"table", "seat", "players", "phase", "turn", "dice", "entries", "seq", "choices"} <= set(small)
    assert small["turn"] == 3 and small["dice"] == [4]
    assert 1300 < len(compact(padded)) <= 1500


def test_the_ack_rate_is_over_the_time_the_phones_moved() -> None:
    from companion.bench.hall import _ack_figures
    from companion.bench.phones import Ack

    acks = [Ack(0.1 * n, 4.0, True, "build") for n in range(9)] + [Ack(1.0, None, False, "dice_count")]
    figures = _ack_figures(acks, moving_seconds=2.0)
    assert figures["rate_per_second"] == 5.0  # not over the time the bench took to report
    assert (figures["sent"], figures["accepted"], figures["timeouts"], figures["builds"]) == (10, 9, 1, 9)
    assert figures["p50"] == figures["p99"] == 4.0


@pytest.mark.slow
def test_a_tiny_hall_delivers_every_roll_to_every_phone() -> None:
    from companion.bench.hall import bench_hall

    result = bench_hall(8, 2, rolls=2, moves_per_second=20)
    assert result["phones"] == 8 and result["seats"] == 8 and result["rolls"] == 2
    for part in ("app", "floor"):
        figures = result[part]
        assert_eight_phones_got_both_rolls(figures)
        roll = figures["roll_to_phone_ms"]
        assert 0 < roll["p50"] <= roll["p99"] <= roll["max"]
        assert len(figures["roll_per_roll_p99_ms"]) == 2
        assert 0 < figures["server_peak_mb"] < 300
        assert 0 <= figures["machine_steal_percent"] <= 100
        acks = figures["move_ack_ms"]
        assert acks["sent"] > 0 and acks["timeouts"] == 0
        assert 0 < acks["p50"] <= acks["p99"] <= acks["max"]
        assert 5 <= acks["rate_per_second"] <= 11  # 10 of the 20 moves/s, the probe the rest
        probe = figures["move_ack_probe_ms"]  # the probe's own process, second devices
        assert probe["devices"] == 4 and probe["sent"] > 0 and probe["timeouts"] == 0
        assert 0 < probe["p50"] <= probe["p99"] <= probe["max"]
        assert 5 <= probe["rate_per_second"] <= 11
    assert result["app"]["move_ack_ms"]["accepted"] > 0
    assert {"every_roll_reached_every_phone", "move_ack_p99_le_50ms",
            "move_ack_p99_le_50ms_at_busy_clients", "server_under_300mb",
            "p99_over_floor", "p99_within_1_3x_floor", "all_met"} <= set(result["targets"])
    assert result["targets"]["every_roll_reached_every_phone"] is True


@pytest.mark.slow
def test_a_tiny_soak_samples_the_servers_memory_while_phones_move_and_the_hall_rolls() -> None:
    from companion.bench.soak import bench_soak

    result = bench_soak(8, 2, minutes=0.15, roll_every=3, sample_every=2)
    assert result["connected"] == 8 and result["hall_rolls"] >= 3
    assert result["tracebacks_in_log"] == 0
    assert 0 < result["rss_start_mb"] <= result["rss_peak_mb"]
    assert result["rss_after_phones_left_mb"] > 0
    assert isinstance(result["target_growth_under_10_percent"], bool)


def test_bench_hall_workers_refuses_one_worker() -> None:
    from companion.bench.hall import bench_hall_workers

    with pytest.raises(ValueError):
        bench_hall_workers([8], workers=1)


@pytest.mark.slow
def test_a_tiny_hall_on_two_processes_delivers_every_roll_to_every_phone() -> None:
    """`bench hall --workers 2` run tiny: its own PostgreSQL and Redis, one process against
    two. Without their binaries it skips, except in CI, where it fails (as tests/pg_server)."""
    import os
    import shutil

    from pg_server import require_binaries

    from companion.bench.hall import bench_hall_workers

    require_binaries()
    if shutil.which("redis-server") is None:
        (pytest.fail if os.environ.get("CI") else pytest.skip)("redis-server is not installed")
    result = bench_hall_workers([8], workers=2, rolls=2, moves_per_second=20)
    run = result["runs"][0]
    assert (result["workers"], run["phones"], run["tables"]) == (2, 8, 2)
    for part in ("app_1", "app_2", "floor"):
        figures = run[part]
        assert figures["connected"] == 8, part
        assert figures["every_roll_reached_every_phone"], (part, figures)
        assert figures["wrong_dice"] == 0 and figures["move_ack_ms"]["timeouts"] == 0, part
    assert run["app_2"]["move_ack_ms"]["accepted"] > 0


def test_the_catan_floor_turn_has_the_apps_shape_and_tracker_moves_are_within_the_caps() -> None:
    import random

    from companion.bench.catan import boards_for, floor_turn, track_move
    from companion.rules.catan_big.claims import read_breakdown

    turn = floor_turn(16, [3, 4], [4, 5])
    assert set(turn) == {"number", "dice", "follow_up", "deadline_ms", "seconds", "remaining_ms",
                         "paused", "auto_roll", "schedule", "over", "ended", "rules"}
    assert turn["seconds"] == 90 and turn["follow_up"] == [4, 5]
    assert turn["rules"]["catan-big"] == {"team": "moon", "discard": True,
                                          "robber": {"action": "move", "number": 9}}
    rng = random.Random(3)
    for _ in range(200):
        move = track_move(rng)
        assert move["kind"] == "track"
        read_breakdown(move["breakdown"])  # refuses a breakdown over a cap
    assert (boards_for(2000), boards_for(7), boards_for(1)) == (1000, 4, 1)


@pytest.mark.slow
@pytest.mark.parametrize("client", ["socketio", "light"])
def test_a_tiny_catan_hall_delivers_every_turn_to_every_phone(client: str) -> None:
    """`bench hall --ruleset catan-big` run tiny: boards of two, each roll the event's turn
    message at every phone, tracker moves accepted meanwhile, against the floor (its rolls
    alternating with the app's), with either client."""
    from companion.bench.hall import bench_hall

    result = bench_hall(8, 1, rolls=2, moves_per_second=20, ruleset="catan-big", client=client)
    assert (result["ruleset"], result["tables"], result["seats"]) == ("catan-big", 4, 8)
    assert result["client"] == client and result["interleaved"] is True
    for part in ("app", "floor"):
        figures = result[part]
        assert_eight_phones_got_both_rolls(figures)
        assert 0 < figures["roll_to_phone_ms"]["p50"] <= figures["roll_to_phone_ms"]["max"]
        assert figures["turn_bytes"]["p50"] > 100
        assert figures["move_ack_ms"]["sent"] > 0 and figures["move_ack_ms"]["timeouts"] == 0
    assert result["app"]["move_ack_ms"]["accepted"] == result["app"]["move_ack_ms"]["sent"]
    assert {"p99_over_floor", "p99_le_0_8x_floor"} <= set(result["targets"])
    assert "roll_p99_le_250ms" not in result["targets"]


def test_the_light_client_reads_events_and_acks_as_socketio_sends_them() -> None:
    import asyncio
    import concurrent.futures

    from companion.bench.phones import LightClient

    async def play() -> tuple[list[object], object]:
        client, got = LightClient(session=None), []
        client.on("turn", got.append)
        await client.handle('42["turn",{"number":3,"dice":[2,5]}]')
        await client.handle('42["hall",{}]')  # no handler: ignored
        future = asyncio.get_running_loop().create_future()
        client.acks[12] = future
        await client.handle('4312[{"ok":true}]')
        return got, future.result()

    # its own thread: a browser test's Playwright keeps an event loop running in this one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        got, ack = pool.submit(lambda: asyncio.run(play())).result()
    assert got == [{"number": 3, "dice": [2, 5]}]
    assert ack == {"ok": True}
