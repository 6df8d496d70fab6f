"""`companion bench views`: building every seat view of a hall's tables after a hall roll, the
server's hot path at each roll (`hall.views.encoded_seat_views`, as the publisher calls it),
without a server, sockets or phones.

One run: a hall service on a temporary SQLite journal, one event of `tables` hall-mode tables
of 4 players (`companion bench hall`'s), started; `rolls` hall rolls of seeded dice, and
between them the active seat of most tables builds a card its view offers (as the phones of
`bench hall` do). After each roll the views of every seat of every table are built, timed
five times in the process's CPU time (the least counts: on a shared machine the others were
slowed by the neighbours), and so are the seats' own parts, timed apart: each seat's own view
as its ruleset makes it through the door (`Ruleset.seat_view`: its `choices`, `builds` and
`asks`; the door has no finer part, and `builds` is only a part of it), `builds_ms`, and
the compact JSON of its `builds` as the views encode it (`builds_json_ms`). The figures per
table and per seat, and the share of those two in the views. (Until issue 28 `builds_ms`
timed the build list alone, below the door: its older figures are not comparable; a run with
`before` measures both trees with this file, so the same way.)

With `before` (a checkout of older code, e.g. `git worktree add /tmp/before HEAD`), the same
run is made with that code as well, alternately in fresh processes, so that both see the same
machine: the figures before and after side by side, and whether both built the same views
(a digest of every view's JSON, with the seconds a choice has waited left out).

Each measurement runs in a process of its own whose `companion` package is the tree measured
(its working directory), this file being read by path (an older tree may not have it).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

SEATS = 4
TIMINGS = 5  # timed passes of each roll's views; the least counts
TREE = Path(__file__).resolve().parents[2]  # the checkout this file belongs to

# Run in the measuring process: the tree measured is its working directory (first on
# sys.path with -c), this file is loaded by path and `measure` is given the settings.
_WORKER = (
    "import json, runpy, sys; "
    "worker = runpy.run_path(sys.argv[1], run_name='companion_bench_views_worker'); "
    "print(json.dumps(worker['measure'](**json.loads(sys.argv[2]))))"
)


def bench_views(tables: int = 275, rolls: int = 10, seed: int = 1, before: str | None = None,
                runs: int = 3, mix: bool = False) -> dict[str, Any]:
    """Figures of `runs` runs of this code (and of `before`'s, alternately) as a JSON-able
    dict, times in ms (per table and per seat in microseconds)."""
    if tables < 1 or rolls < 1 or runs < 1:
        raise ValueError("tables, rolls and runs are at least 1")
    trees = {"after": TREE} if before is None else {"before": Path(before).resolve(), "after": TREE}
    for name, tree in trees.items():
        if not (tree / "companion" / "__init__.py").is_file():
            raise ValueError(f"{name}: no companion package in {tree}")
    settings = {"tables": tables, "rolls": rolls, "seed": seed, "mix": mix}
    measured: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    for _ in range(runs):
        for name, tree in trees.items():
            measured[name].append(_run(tree, settings))
    result: dict[str, Any] = {
        "tables": tables, "seats": sum(measured["after"][0]["seats_by_roll"]) // rolls,
        "rolls": rolls, "seed": seed, "mix": mix, "runs": runs,
        "trees": {name: str(tree) for name, tree in trees.items()},
        **{name: _summary(runs_of) for name, runs_of in measured.items()},
        "method": "views = hall.views.encoded_seat_views of every table after each hall roll "
                  "(the publisher's work, view copies taken beforehand), in CPU time "
                  "(time.process_time); builds = each seat's "
                  "own view as its ruleset makes it (Ruleset.seat_view: choices, builds, asks), "
                  "and builds_json the compact JSON of its builds as the views encode it, each "
                  "timed apart; builds_share = both over views; each "
                  f"roll's views timed {TIMINGS} times, the least kept; the figure is the "
                  "median over rolls of each run, then the median over runs; before and after "
                  "alternately, each run in a fresh process; the server's collector settings "
                  "(server.quiet_collector)",
    }
    if before is not None:
        after, old = result["after"], result["before"]
        result["change"] = {
            "views_ms": _ratio(after["views_ms"], old["views_ms"]),
            "builds_ms": _ratio(after["builds_ms"], old["builds_ms"]),
            "builds_json_ms": _ratio(after["builds_json_ms"], old["builds_json_ms"]),
        }
        digests = {run["digest"] for runs_of in measured.values() for run in runs_of}
        result["same_views"] = len(digests) == 1
    return result


def _ratio(new: float, old: float) -> str:
    return f"{(new / old - 1) * 100:+.0f}%" if old else "n/a"


def _run(tree: Path, settings: dict[str, Any]) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", _WORKER, str(Path(__file__).resolve()),
                           json.dumps(settings)], cwd=tree, capture_output=True, text=True,
                          timeout=900, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"measuring {tree} failed:\n{done.stderr[-3000:]}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def _summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The median over runs of each run's median over rolls."""
    def median_of(key: str) -> float:
        return float(statistics.median(statistics.median(run[key]) for run in runs))

    views, builds, encoding = (median_of("views_ms"), median_of("builds_ms"),
                               median_of("builds_json_ms"))
    seats = statistics.median(statistics.median(run["seats_by_roll"]) for run in runs)
    tables = runs[0]["tables"]
    return {
        "views_ms": round(views, 2),
        "views_per_table_us": round(views * 1000 / tables, 1),
        "views_per_seat_us": round(views * 1000 / seats, 1),
        "builds_ms": round(builds, 2),
        "builds_json_ms": round(encoding, 2),
        "builds_per_seat_us": round(builds * 1000 / seats, 1),
        "builds_json_per_seat_us": round(encoding * 1000 / seats, 1),
        "builds_share": round((builds + encoding) / views, 2) if views else None,
        "views_ms_by_run": [round(statistics.median(run["views_ms"]), 2) for run in runs],
        "view_bytes_per_seat": runs[0]["view_bytes_per_seat"],
    }


# ---------------------------------------------------------------- the measuring process


def measure(tables: int, rolls: int, seed: int, mix: bool) -> dict[str, Any]:
    """One run in this process (whose `companion` is the tree measured): per roll, the ms to
    build every seat view of every table, and the ms of the seats' own views (`builds_of`)."""
    import gc
    import hashlib
    import random
    import secrets
    import tempfile
    import time

    from companion.hall.service import HallService
    from companion.hall.views import compact_json, encoded_seat_views
    from companion.journal import SqliteJournal
    from companion.server import quiet_collector

    builds_of = _builds_of()
    rng = random.Random(seed)
    # the service's shuffles (co-op decks, the variable supply's pile) seeded as well, so that
    # every run plays the same games and builds the same views
    secrets.randbelow = random.Random(seed + 1).randrange  # type: ignore[assignment]
    digest = hashlib.sha256()
    figures: dict[str, Any] = {"tables": tables, "views_ms": [], "builds_ms": [],
                               "builds_json_ms": [], "seats_by_roll": []}
    sizes = []
    with tempfile.TemporaryDirectory(prefix="bench-views-") as folder:
        hall = HallService(SqliteJournal(str(Path(folder) / "hall.db")))
        event = hall.create_event("Bench views", "random")
        for number in range(1, tables + 1):
            ruleset, options, seats = _kind(number, mix)
            table = hall.create_table(event.id, f"Table {number}",
                                      [f"P{number}-{seat + 1}" for seat in range(seats)],
                                      ruleset, "hall", options)
            hall.set_status(table.id, "start")
        quiet_collector()
        for roll in range(rolls):
            _play(hall, rng, roll)
            hall.hall_roll(event.id, [rng.randint(1, 6), rng.randint(1, 6)])
            copies = hall.view_copies(list(hall.tables))
            gc.collect()
            best = float("inf")
            for _ in range(TIMINGS):
                started = time.process_time()
                built = [encoded_seat_views(table, choice_seconds=seconds)
                         for table, seconds in copies]
                best = min(best, time.process_time() - started)
            figures["views_ms"].append(best * 1000)
            stories = [(table, table.story()) for table, _seconds in copies]
            best = float("inf")
            for _ in range(TIMINGS):
                started = time.process_time()
                lists = [builds_of(table, story, seat)
                         for table, story in stories for seat in range(len(table.seats))]
                best = min(best, time.process_time() - started)
            figures["builds_ms"].append(best * 1000)
            best = float("inf")
            for _ in range(TIMINGS):
                started = time.process_time()
                for made in lists:
                    compact_json(made)
                best = min(best, time.process_time() - started)
            figures["builds_json_ms"].append(best * 1000)
            figures["seats_by_roll"].append(sum(len(views) for views in built))
            for views in built:
                for view in views:
                    sizes.append(len(view.json_text))  # type: ignore[attr-defined]
                    digest.update(compact_json({k: v for k, v in view.items()
                                                if k != "waited"}).encode())
        hall.journal.close()
    figures["digest"] = digest.hexdigest()
    figures["view_bytes_per_seat"] = round(statistics.median(sizes))
    return figures


def _kind(number: int, mix: bool) -> tuple[str, dict[str, Any], int]:
    """Table `number`'s ruleset, options and seats: `bench hall`'s base game of 4, or with
    `mix` every fourth table each of the variable supply, play on and the co-op game (2)."""
    if not mix or number % 4 == 1:
        return "machi-koro", {}, SEATS
    if number % 4 == 2:
        return "machi-koro", {"variable_supply": True}, SEATS
    if number % 4 == 3:
        return "machi-koro", {"play_on": True}, SEATS
    return "machi-koro-coop", {}, 2


def _play(hall: Any, rng: Any, roll: int) -> None:
    """Between rolls: the active seat of most tables builds a card its view offers, or gives
    the assessor a coin in the co-op game, or sets two dice (as `bench hall`'s phones do)."""
    from companion.hall.views import seat_view

    for table in list(hall.tables.values()):
        if table.status != "running" or table.state is None or rng.random() < 0.2:
            continue
        for seat in range(len(table.seats)):
            choices = seat_view(table, seat)["choices"]
            builds = [c for c in choices if c.get("kind") == "build"]
            if builds:
                move = rng.choice(builds)
            elif any(c.get("kind") == "dice_count" and c.get("count") == 2 for c in choices):
                move = {"kind": "dice_count", "count": 2}
            else:
                continue
            hall.move(table.seats[seat].token, f"bench-{roll}-{table.id}-{seat}", move)


def _builds_of() -> Callable[[Any, Any, int], Any]:
    """A seat's own view as its ruleset makes it (`Ruleset.seat_view`, through the registry as
    the hall asks it), as a function of the table, its story and the seat: the seat's
    `builds` come out of it, which the caller encodes apart."""
    from companion.rules.registry import ruleset

    def builds(table: Any, story: Any, seat: int) -> Any:
        setup = table.setup if hasattr(table, "setup") else table.catalog  # the same before
        return ruleset(table.ruleset).seat_view(story, seat, setup)["builds"]

    return builds


def main() -> None:  # pragma: no cover - `python -m companion.bench.views` for a quick look
    json.dump(bench_views(), sys.stdout, indent=2)


if __name__ == "__main__":  # pragma: no cover
    main()
