"""The `companion` command: resolve, bench (and serve, demo, print as they land)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    resolve = commands.add_parser("resolve", help="resolve one scenario JSON file")
    resolve.add_argument("scenario", help="path to the scenario, or - for standard input")
    resolve.set_defaults(run=_resolve)

    serve = commands.add_parser("serve", help="serve the hall on the LAN")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (all by default)")
    serve.add_argument("--port", type=int, default=5000)
    serve.add_argument("--db", help="the SQLite file (default: instance/companion.db)")
    serve.add_argument("--demo", action="store_true", help="create a demo event first")
    serve.set_defaults(run=_serve)

    demo = commands.add_parser("demo", help="create the demo event and print it as JSON")
    demo.add_argument("--db", required=True, help="the SQLite file")
    demo.set_defaults(run=_demo)

    bench = commands.add_parser("bench", help="measure speed (not a test)")
    bench.add_argument("what", choices=["rules", "hall"])
    bench.add_argument("--seconds", type=float, default=5.0, help="rules: how long to play")
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--phones", type=int, default=1100, help="hall: phones to connect")
    bench.add_argument("--tables", type=int, default=275, help="hall: tables (4 seats each)")
    bench.add_argument("--rolls", type=int, default=10, help="hall: hall rolls to time")
    bench.add_argument("--no-floor", action="store_true", help="hall: skip the bare server")
    bench.set_defaults(run=_bench)

    args = parser.parse_args(argv)
    result: int = args.run(args)
    return result


def _resolve(args: argparse.Namespace) -> int:
    """Exit 0 with one JSON object on stdout, or 2 with one line on stderr."""
    from companion.rules.errors import RuleError
    from companion.rules.scenario import resolve

    try:
        if args.scenario == "-":
            text = sys.stdin.read()
        else:
            with open(args.scenario, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        return _refuse(f"scenario: cannot read {args.scenario!r}: {exc}")
    try:
        scenario = json.loads(text)
    except json.JSONDecodeError as exc:
        return _refuse(f"scenario: not JSON: {exc}")
    try:
        outcome = resolve(scenario)
    except RuleError as exc:
        return _refuse(exc.message)
    _print_json(outcome)
    return 0


def _serve(args: argparse.Namespace) -> int:
    from companion.server import serve

    return serve(args.host, args.port, args.db, demo=args.demo)


def _demo(args: argparse.Namespace) -> int:
    from pathlib import Path

    from companion.hall import HallService
    from companion.hall.demo import create_demo
    from companion.journal import SqliteJournal

    with SqliteJournal(Path(args.db)) as journal:
        _print_json(create_demo(HallService(journal)))
    return 0


def _bench(args: argparse.Namespace) -> int:
    if args.what == "hall":
        from companion.bench_hall import bench_hall

        _print_json(bench_hall(args.phones, args.tables, rolls=args.rolls, floor=not args.no_floor))
        return 0
    from companion.bench_rules import bench_rules

    _print_json(bench_rules(seconds=args.seconds, seed=args.seed))
    return 0


def _refuse(message: str) -> int:
    sys.stderr.write(message.replace("\n", " ") + "\n")
    return 2


def _print_json(data: Any) -> None:
    sys.stdout.buffer.write(json.dumps(data, ensure_ascii=False, indent=2).encode() + b"\n")
    sys.stdout.flush()
