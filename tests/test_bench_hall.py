"""`companion bench hall` run tiny: the figures' shape, and every roll reached every phone, at
the app and at both references (the python floor and the Node.js socket.io server)."""

from __future__ import annotations

import os
import shutil

import pytest

from companion.bench.floor import compact, floor_view

pytest.importorskip("aiohttp", reason="the bench's phones are python-socketio AsyncClients (aiohttp)")


def need_node() -> None:
    """The Node.js reference needs node and npm (scripts/test.sh installs them on a fresh
    machine; the bench installs socket.io itself). Without them it skips, except in CI, where it
    fails (as tests/pg_server does without PostgreSQL)."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        (pytest.fail if os.environ.get("CI") else pytest.skip)("node and npm are not installed")


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
    """The app, the python floor and the Node.js reference (socket.io 4.8, installed by the
    bench) each roll twice, in turn, with a busy process on the machine meanwhile."""
    from companion.bench.hall import bench_hall

    need_node()
    result = bench_hall(8, 2, rolls=2, moves_per_second=20, hog=1)
    assert result["phones"] == 8 and result["seats"] == 8 and result["rolls"] == 2
    assert result["hog"] == 1 and result["interleaved"] is True and result["client"] == "light"
    assert result["node_socket_io"].startswith("4.8.")
    assert len(result["load_average_start"]) == len(result["load_average_end"]) == 3
    # the references send what one of the app's phones got for a (warm-up) roll
    size = result["reference_view_bytes"]
    assert size > 500
    for part in ("floor", "node"):
        assert abs(result[part]["view_bytes"]["p50"] - size) < 0.05 * size, part
    for part in ("app", "floor", "node"):
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
        cpu = figures["server_cpu_ms_per_roll"]
        assert cpu["mean"] is not None and 0 <= cpu["p50"] <= cpu["max"]
    assert result["app"]["move_ack_ms"]["accepted"] > 0
    assert {"every_roll_reached_every_phone", "move_ack_p99_le_50ms",
            "move_ack_p99_le_50ms_at_busy_clients", "server_under_300mb",
            "p99_over_floor", "p99_within_1_3x_floor", "p99_over_node", "p99_within_1_3x_node",
            "all_met"} <= set(result["targets"])
    assert result["targets"]["every_roll_reached_every_phone"] is True


@pytest.mark.slow
def test_a_tiny_hall_served_with_each_websocket_library() -> None:
    """`--websocket gevent-websocket,simple-websocket` (issue 26): the app twice, each with
    its own phones, their rolls taking turns; the second against the first as a reference."""
    from companion.bench.hall import bench_hall

    result = bench_hall(8, 2, rolls=2, moves_per_second=20, floor=False, node=False,
                        websockets=["gevent-websocket", "simple-websocket"])
    assert "app" not in result and result["interleaved"] is True
    for part in ("app (gevent-websocket)", "app (simple-websocket)"):
        assert_eight_phones_got_both_rolls(result[part])
        assert result[part]["move_ack_ms"]["timeouts"] == 0
    against = result["app (simple-websocket) against app (gevent-websocket)"]
    assert against["p99_over_first"] > 0
    # /proc counts CPU in 10 ms ticks: eight phones' roll may cost the first server none, and
    # then there is no ratio to give (CI saw it once)
    app_cpu, first_cpu = (result[part]["server_cpu_ms_per_roll"]["mean"] for part in
                          ("app (simple-websocket)", "app (gevent-websocket)"))
    if first_cpu:
        assert against["server_cpu_per_roll_over_first"] == round(app_cpu / first_cpu, 2)
    else:
        assert "server_cpu_per_roll_over_first" not in against
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
    # issue 24: server CPU per roll, one process against two
    assert all(run[f"app_{n}"]["server_cpu_ms_per_roll"]["mean"] is not None for n in (1, 2))
    ratio = run["server_cpu_per_roll_2_over_1"]
    assert ratio is None or ratio >= 0  # None: one process's rolls took under a /proc tick
    for n in (1, 2):  # and where it went, process by process
        by_process = run[f"app_{n}"]["server_cpu_ms_per_roll_by_process"]
        assert len(by_process) == n and all(cpu >= 0 for cpu in by_process), by_process
    assert run["client_processes"] == 2  # a client each, a table's phones to one server
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
                         "paused", "auto_roll", "schedule", "over", "ended", "rules", "now_ms",
                         "production_seconds", "production_ended"}  # issue 27's window
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
    message at every phone, tracker moves accepted meanwhile, against the python floor and the
    Node.js reference (their rolls alternating with the app's), with either client."""
    from companion.bench.catan import floor_turn
    from companion.bench.hall import bench_hall
    from companion.hall.views import compact_json as compact

    need_node()
    result = bench_hall(8, 1, rolls=2, moves_per_second=20, ruleset="catan-big", client=client)
    assert (result["ruleset"], result["tables"], result["seats"]) == ("catan-big", 4, 8)
    assert result["client"] == client and result["interleaved"] is True
    for part in ("app", "floor", "node"):
        figures = result[part]
        assert_eight_phones_got_both_rolls(figures)
        assert 0 < figures["roll_to_phone_ms"]["p50"] <= figures["roll_to_phone_ms"]["max"]
        assert figures["turn_bytes"]["p50"] > 100
        assert figures["move_ack_ms"]["sent"] > 0 and figures["move_ack_ms"]["timeouts"] == 0
    assert result["app"]["move_ack_ms"]["accepted"] == result["app"]["move_ack_ms"]["sent"]
    # the same turn JSON from every server, its deadline's digits aside and what each server's
    # own dice say: a seven's discard and robbers make the turn longer (CI once saw 328/340/328)
    sizes = [result[part]["turn_bytes"]["p50"] for part in ("app", "floor", "node")]
    seven = len(compact(floor_turn(1, [3, 4], []))) - len(compact(floor_turn(1, [2, 3], [])))
    assert 0 < seven < 20
    assert max(sizes) - min(sizes) <= 4 + seven, sizes
    assert {"p99_over_floor", "p99_over_node"} <= set(result["targets"])
    # no bound: every server sends one message (issue 12's 0.8 was against one per phone)
    assert not any(k.startswith("p99_within") or k.startswith("p99_le") for k in result["targets"])


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


def test_the_servers_take_turns_in_a_rotating_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """Roll 1: A B C, roll 2: B C A, roll 3: C A B: each server rolls first, second and last
    equally often, each with its phones moving around its own roll only."""
    from companion.bench import hall

    calls: list[tuple[str, object]] = []

    class Recorder:
        failed = False

        def __init__(self, name: str) -> None:
            self.name = name

        def __getattr__(self, step: str):  # connect, begin, moves, roll, finish
            return lambda *args: calls.append((self.name, (step, *args)))

    monkeypatch.setattr(hall.time, "sleep", lambda seconds: None)
    hall.interleave([Recorder("app"), Recorder("floor"), Recorder("node")], rolls=3)
    rolls = [(name, step[1]) for name, step in calls if step[0] == "roll"]
    assert rolls == [("app", 1), ("floor", 1), ("node", 1), ("floor", 2), ("node", 2),
                     ("app", 2), ("node", 3), ("app", 3), ("floor", 3)]
    steps = [step for name, step in calls if name == "node"]
    assert steps[:2] == [("connect",), ("begin",)] and steps[-1] == ("finish", 3)
    assert steps[2:5] == [("moves", True), ("roll", 1), ("moves", False)]


def _figures(p99: float, per_roll: list[float], cpu: float | None) -> dict:
    return {"every_roll_reached_every_phone": True, "server_peak_mb": 150,
            "move_ack_probe_ms": {"p99": 20}, "move_ack_ms": {"p99": 40},
            "roll_to_phone_ms": {"p99": p99}, "roll_per_roll_p99_ms": per_roll,
            "server_cpu_ms_per_roll": {"mean": cpu}}


def test_the_targets_hold_the_app_against_the_node_reference() -> None:
    """Issue 24: a Machi Koro roll's p99 at most 1.3x the Node.js reference's; the ratios to
    both references, the median roll's and the CPU per roll's; Catan gets ratios, no bound."""
    from companion.bench.hall import _targets

    result = {"ruleset": "machi-koro", "phones": 1100,
              "app": _figures(260, [100, 120, 260], 60.0),
              "floor": _figures(130, [60, 80, 130], 30.0),
              "node": _figures(200, [50, 60, 200], 20.0)}
    targets = _targets(result)
    assert targets["p99_over_node"] == 1.3 and targets["p99_within_1_3x_node"] is True
    assert targets["p99_over_floor"] == 2.0 and targets["p99_within_1_3x_floor"] is False
    assert targets["median_roll_p99_over_node"] == 2.0
    assert targets["server_cpu_per_roll_over_node"] == 3.0
    assert targets["roll_p99_le_250ms"] is False and targets["all_met"] is False
    result["app"]["roll_to_phone_ms"]["p99"] = 261
    assert _targets(result)["p99_within_1_3x_node"] is False
    del result["floor"], result["node"]
    assert "p99_over_node" not in _targets(result)  # --no-floor --no-node
    catan = {**result, "ruleset": "catan-big", "node": _figures(100, [90, 100], None)}
    targets = _targets(catan)
    assert targets["p99_over_node"] == 2.61 and "p99_within_1_3x_node" not in targets
    assert "server_cpu_per_roll_over_node" not in targets  # no CPU figure to divide by


def test_the_node_reference_lives_outside_the_repository(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path) -> None:
    from pathlib import Path

    from companion.bench import reference

    monkeypatch.setenv("COMPANION_BENCH_NODE", str(tmp_path / "node"))
    assert reference.folder() == tmp_path / "node"
    monkeypatch.delenv("COMPANION_BENCH_NODE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert reference.folder() == tmp_path / "cache" / "companion" / "bench-node"
    repo = Path(__file__).resolve().parent.parent
    assert repo not in reference.folder().parents
    body = reference.machi_koro_roll(1500)(3)
    assert body["event"] == "view" and body["message"]["turn"] == 3
    assert body["message"]["dice"] == body["answer"]["dice"][:1]
    turn = reference.catan_roll()(16)
    assert turn["event"] == "turn" and turn["message"]["number"] == 16
    assert turn["message"]["follow_up"] == turn["answer"]["follow_up"]


def test_bench_hall_without_node_says_how_to_get_it_or_leave_it_out(tmp_path) -> None:
    """No node on the PATH: one line naming the fix and --no-node, exit 2, no traceback."""
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PATH": str(tmp_path), "PYTHONPATH": str(repo)}
    done = subprocess.run([sys.executable, "-m", "companion", "bench", "hall", "--phones", "4",
                           "--tables", "1"], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "--no-node" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_a_hog_keeps_a_core_busy_and_goes_when_the_block_ends() -> None:
    import time

    from companion.bench.server import hogs, process_cpu_seconds

    with hogs(1) as pids:
        assert len(pids) == 1
        deadline = time.monotonic() + 60  # on a loaded machine it may wait for a core
        while process_cpu_seconds(*pids) < 0.3 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert process_cpu_seconds(*pids) >= 0.3  # it spins, it does not sleep
    assert not os.path.exists(f"/proc/{pids[0]}")  # killed and reaped


@pytest.mark.slow
def test_the_node_reference_refuses_a_phone_without_a_token_and_acks_a_move(tmp_path) -> None:
    """The reference as the phones meet it: a connection without a token refused; with one,
    the connect view at once, a move acked with it, a roll's message to every phone once."""
    import asyncio
    import concurrent.futures

    import aiohttp

    from companion.bench import reference
    from companion.bench.hall import _http
    from companion.bench.phones import LightClient
    from companion.bench.server import ServerProcess, free_port

    need_node()
    script, version = reference.install()
    assert version.startswith("4.8.")
    view = reference.write_view(tmp_path / "view.json", {"seq": 0, "turn": 0})
    port = free_port()
    base = f"http://127.0.0.1:{port}"

    async def play() -> tuple[str, list, object, object]:
        async with aiohttp.ClientSession() as session:
            refused = ""
            try:
                await LightClient(session).connect(base, auth={}, wait_timeout=10)
            except ConnectionError as error:
                refused = str(error)
            phones, got = [LightClient(session) for _ in range(2)], [[], []]
            for phone, inbox in zip(phones, got, strict=True):
                phone.on("view", inbox.append)
                await phone.connect(base, auth={"token": "t"}, wait_timeout=10)
            ack = await phones[0].call("move", {"request_id": "r", "move": {}}, timeout=10)
            answer = await asyncio.to_thread(
                _http, f"{base}/roll", "", {"event": "view", "message": {"seq": 1},
                                            "answer": {"dice": [2, 3]}})
            await asyncio.sleep(0.3)
            for phone in phones:
                await phone.disconnect()
            return refused, got, ack, answer

    with ServerProcess(reference.command(script, port, view), tmp_path / "node.log"), \
            concurrent.futures.ThreadPoolExecutor(1) as pool:
        refused, got, ack, answer = pool.submit(lambda: asyncio.run(play())).result()
    assert "a token is required" in refused
    assert got == [[{"seq": 0, "turn": 0}, {"seq": 1}]] * 2
    assert ack == {"ok": True, "view": {"seq": 0, "turn": 0}}
    assert answer == {"dice": [2, 3]}
