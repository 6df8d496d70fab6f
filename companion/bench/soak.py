"""`companion bench soak`: the served hall's memory over a long stretch of an evening.

The app (`python -m companion serve` on 127.0.0.1, a temporary database) with `phones` phones
on `tables` hall-mode tables of four, the phones streaming moves at `moves_per_second` and the
organizer rolling for the hall every `roll_every` seconds, for `minutes`. The server's resident
memory (VmRSS, /proc) is sampled every `sample_every` seconds, then once more after the phones
have left. Issue 17's target: under 10% growth from the end of the first minute to the end.
"""

from __future__ import annotations

import contextlib
import tempfile
import time
from collections.abc import Iterator
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from companion.bench.hall import _http, _receive, _report, _set_up, _start_clients, _stop_clients
from companion.bench.server import ServerProcess, served_app

WARM_UP_SECONDS = 60.0  # growth is counted from here: start-up and first connections settle


def bench_soak(phones: int, tables: int, minutes: float = 10.0, roll_every: float = 10.0,
               moves_per_second: int = 100, sample_every: float = 5.0,
               processes: int = 1) -> dict[str, Any]:
    """The memory figures of one soak as a JSON-able dict (MB, seconds). `processes` > 1: that
    many server processes on one PostgreSQL journal and one Redis queue (docs/scaling.md),
    both started for the run, the phones spread over them; each process's memory is counted
    on its own and the growth is the largest of theirs (issue 24's target)."""
    if phones < 1 or tables < 1 or minutes <= 0 or roll_every <= 0 or processes < 1:
        raise ValueError("phones, tables and processes are at least 1; minutes and roll_every "
                         "above 0")
    result: dict[str, Any] = {"phones": phones, "tables": tables, "minutes": minutes,
                              "roll_every_seconds": roll_every,
                              "moves_per_second": moves_per_second, "processes": processes}
    with tempfile.TemporaryDirectory(prefix="bench-soak-") as tmp, \
            _servers(Path(tmp), processes) as (servers, bases):
        server = servers[0]
        event_id, tokens = _set_up(bases[0], server.key, tables)
        phone_tokens = [tokens[i % len(tokens)] for i in range(phones)]
        workers: list[BaseProcess] = []
        pipes: list[Connection] = []
        try:
            # client process i connects to server i mod N: at least one client per server
            clients = max(len(servers), 1 if phones <= 600 else 2)
            _start_clients(workers, pipes, bases, phone_tokens, clients, moves_per_second)
            ready = [_receive(pipe, 240)["connected"] for pipe in pipes]
            result["connected"] = sum(ready[:-1])  # the last is the probe's second devices
            samples, roll_seconds, errors = _soak(
                servers, pipes, f"{bases[0]}/api/events/{event_id}/roll", minutes * 60,
                roll_every, sample_every)
            for pipe in pipes:
                pipe.send(("report", [], []))
            acks = [ack for pipe in pipes for ack in _report(pipe)["acks"]]
            result["moves_sent"] = len(acks)
            result["moves_accepted"] = sum(1 for ack in acks if ack.ok)
        finally:
            _stop_clients(workers, pipes)
        time.sleep(sample_every)
        left_mb = [one.status("VmRSS") / 1024 for one in servers]
        log = "".join(one.log_path.read_text(errors="replace") for one in servers)
    figures = [_figures([(at, mb[i]) for at, mb in samples], left_mb[i])
               for i in range(len(servers))]
    result.update(max(figures, key=lambda f: f["growth_after_first_minute_percent"]))
    if len(servers) > 1:
        result["by_process"] = figures
    result["hall_rolls"] = len(roll_seconds)
    ordered = sorted(roll_seconds)
    result["roll_request_seconds"] = {"p50": round(ordered[len(ordered) // 2], 2) if ordered else None,
                                      "max": round(ordered[-1], 2) if ordered else None}
    result["roll_errors"] = errors[:5]
    result["tracebacks_in_log"] = log.count("Traceback")
    return result


@contextlib.contextmanager
def _servers(folder: Path, processes: int) -> Iterator[tuple[list[ServerProcess], list[str]]]:
    """One served app on SQLite, or `processes` on PostgreSQL and Redis started for the run."""
    if processes == 1:
        with served_app(folder) as (server, base):
            yield [server], [base]
        return
    from companion.bench.backends import postgres, redis
    from companion.bench.hall import _new_database, _served_processes

    with postgres(max_connections=50 * processes + 50) as server_url, redis() as queue:
        dsn = _new_database(server_url, "soak")
        with _served_processes(folder, dsn, queue, processes) as (servers, bases):
            yield servers.servers, bases


def _soak(servers: list[ServerProcess], pipes: list[Connection], roll_url: str, seconds: float,
          roll_every: float, sample_every: float,
          ) -> tuple[list[tuple[float, list[float]]], list[float], list[str]]:
    """Moves on, a hall roll every `roll_every` s (the next one waits for a slow one), RSS every
    `sample_every` s: the samples (seconds since the start, MB of each server), each roll
    request's seconds and the rolls that failed."""
    server = servers[0]

    def rss() -> list[float]:
        return [one.status("VmRSS") / 1024 for one in servers]

    for pipe in pipes:
        pipe.send(("moves", True))
    samples: list[tuple[float, list[float]]] = []
    roll_seconds: list[float] = []
    errors: list[str] = []
    start = time.monotonic()
    next_roll = next_sample = start
    while (now := time.monotonic()) - start < seconds:
        if now >= next_roll:
            try:
                _http(roll_url, server.key, {}, timeout=120)
                roll_seconds.append(time.monotonic() - now)
            except OSError as error:  # counted; the soak goes on
                errors.append(f"{now - start:.0f} s: {type(error).__name__}: {error}")
            next_roll = max(next_roll + roll_every, time.monotonic())
        if now >= next_sample:
            samples.append((round(now - start, 1), rss()))
            next_sample += sample_every
        time.sleep(max(0.0, min(next_roll, next_sample) - time.monotonic()))
    for pipe in pipes:
        pipe.send(("moves", False))
    samples.append((round(time.monotonic() - start, 1), rss()))
    return samples, roll_seconds, errors


def _figures(samples: list[tuple[float, float]], left_mb: float) -> dict[str, Any]:
    """Growth from the first sample after the warm-up to the last, and what stayed after the
    phones left."""
    warm = next((mb for at, mb in samples if at >= WARM_UP_SECONDS), samples[0][1])
    end = samples[-1][1]
    return {
        "rss_start_mb": round(samples[0][1], 1),
        "rss_after_first_minute_mb": round(warm, 1),
        "rss_end_mb": round(end, 1),
        "rss_peak_mb": round(max(mb for _, mb in samples), 1),
        "rss_after_phones_left_mb": round(left_mb, 1),
        "growth_after_first_minute_percent": round((end - warm) / warm * 100, 1),
        "target_growth_under_10_percent": (end - warm) / warm < 0.10,
        "rss_by_minute_mb": [round(mb, 1) for at, mb in samples if at % 60 < 5],
    }
