"""The `companion` command: resolve, serve, backup, demo, print, pairings, bench."""

from __future__ import annotations

import argparse
import json
import math
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, NoReturn


class _Parser(argparse.ArgumentParser):
    """A usage mistake is one line on standard error and exit status 2, like every refusal
    (argparse's own error prints the usage first). Subcommands' parsers are of this class too."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _number(kind: Callable[[str], Any], low: float, high: float = math.inf) -> Callable[[str], Any]:
    """An argparse type: `kind` of the text, finite and in [low, high], else a usage error."""
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and low <= value <= high):
            bounds = f"from {low:g} to {high:g}" if high < math.inf else f"of at least {low:g}"
            raise argparse.ArgumentTypeError(f"{text!r}: a number {bounds} is required")
        return value

    return parse


PORT = _number(int, 1, 65535)
DEFAULT_PORT = 5000
COUNT = _number(int, 1)
SECONDS = _number(float, 0.1)
PLAYERS = _number(int, 1, 10_000)  # pairings: 10,000 players x 3 rounds take a few seconds
ROUNDS = _number(int, 1, 20)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; Ctrl-C (how an organizer stops `serve`) ends it without a traceback."""
    args = _parser().parse_args(argv)
    try:
        result: int = args.run(args)
    except KeyboardInterrupt:
        sys.stderr.write("companion: stopped\n")
        return 130
    return result


DEFAULT_DB = "companion.db"  # in the folder serve is started from: never inside the installation


def _parser() -> argparse.ArgumentParser:
    from companion import __version__

    parser = _Parser(prog="companion", description=__doc__)
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    resolve = commands.add_parser("resolve", help="resolve one scenario JSON file")
    resolve.add_argument("scenario", help="path to the scenario, or - for standard input")
    resolve.set_defaults(run=_resolve)

    serve = commands.add_parser("serve", help="serve the hall on the LAN")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (all by default)")
    serve.add_argument("--port", type=PORT, default=DEFAULT_PORT)
    serve.add_argument("--db", metavar="PATH", help=f"the SQLite file, in a folder that exists, or "
                       f"a postgresql:// URL (default: {DEFAULT_DB} in the current folder; serve "
                       "prints its full path)")
    serve.add_argument("--demo", action="store_true", help="create a demo event first")
    serve.add_argument("--base-url", metavar="URL", help="where phones reach the server, for join "
                       "links and QR codes (default: http://ADDRESS:PORT, the first LAN address)")
    serve.add_argument("--message-queue", metavar="URL", help="redis://HOST:PORT/N: share "
                       "Socket.IO rooms with the other server processes (docs/scaling.md)")
    serve.add_argument("--workers", type=COUNT, default=1, help="start N server processes on "
                       "ports PORT.. (needs --db postgresql://... and --message-queue)")
    serve.add_argument("--log-file", metavar="PATH", help="also append the log (start, stop, "
                       "refusals, faults: one line each, with time and level) to this file; "
                       "it always goes to standard error")
    serve.add_argument("--access-log", action="store_true",
                       help="log one line per HTTP request too")
    serve.set_defaults(run=_serve)

    backup = commands.add_parser(
        "backup", help="copy a hall's SQLite file safely, even while it is served",
        description="Copy the hall's database with SQLite's online backup: a whole, consistent "
        "copy, also while companion serve runs on it. A PostgreSQL journal is copied with "
        "pg_dump instead.")
    backup.add_argument("--db", required=True, metavar="PATH", help="the hall's SQLite file")
    backup.add_argument("-o", "--output", required=True, metavar="COPY.db",
                        help="the copy to write (a new file)")
    backup.set_defaults(run=_backup)

    demo = commands.add_parser("demo", help="create the demo event and print it as JSON")
    demo.add_argument("--db", required=True, help="the SQLite file")
    demo.set_defaults(run=_demo)

    _add_print(commands)
    _add_pairings(commands)

    bench = commands.add_parser("bench", help="measure speed (not a test)")
    bench.add_argument("what", choices=["rules", "hall", "soak", "views"])
    bench.add_argument("--seconds", type=SECONDS, default=5.0, help="rules: how long to play")
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--phones", type=COUNT, action="append",
                       help="hall: phones to connect (1,100); with --workers, repeat it for "
                            "several runs (2,000 and 4,000)")
    bench.add_argument("--tables", type=COUNT, default=275, help="hall, views: tables (4 seats each)")
    bench.add_argument("--workers", type=COUNT, default=1,
                       help="hall: also serve on N processes on PostgreSQL and Redis, started "
                            "for the run, against one (docs/scaling.md); tables: phones / 4; "
                            "soak: serve on N such processes")
    bench.add_argument("--rolls", type=COUNT, default=10, help="hall, views: hall rolls to time")
    bench.add_argument("--no-floor", action="store_true",
                       help="hall: skip the bare python-socketio server (the floor)")
    bench.add_argument("--no-node", action="store_true",
                       help="hall: skip the Node.js socket.io 4.8 reference (installed by the "
                            "bench with npm into ~/.cache/companion/bench-node)")
    bench.add_argument("--hog", type=_number(int, 0), default=0, metavar="N",
                       help="hall: N busy processes on the machine meanwhile (the hall under load)")
    bench.add_argument("--ruleset", choices=["machi-koro", "catan-big"], default="machi-koro",
                       help="hall: the event's game; catan-big: a board of two for every two "
                            "phones (--tables is ignored), each roll a turn to every phone")
    bench.add_argument("--moves-per-second", type=_number(int, 0),
                       help="hall: the moves the phones send meanwhile (100; catan-big: 20 "
                            "tracker updates)")
    bench.add_argument("--client", choices=["socketio", "light"], default="light",
                       help="hall: the phones' Socket.IO client: the bench's own of least work "
                            "per message (companion/bench/phones.py), or python-socketio's")
    bench.add_argument("--websocket", metavar="NAME[,NAME]",
                       help="hall: serve the app once for each library, side by side, their rolls "
                            "alternating: gevent-websocket, simple-websocket (issue 26)")
    bench.add_argument("--minutes", type=SECONDS, default=10.0,
                       help="soak: how long the phones move and the hall rolls (every 10 s)")
    bench.add_argument("--before", metavar="TREE",
                       help="views: a checkout of older code (git worktree) measured in the "
                            "same run, for a before and after")
    bench.add_argument("--mix", action="store_true",
                       help="views: a quarter each of base, variable supply, play on, co-op")
    bench.set_defaults(run=_bench)
    return parser


def _resolve(args: argparse.Namespace) -> int:
    """Exit 0 with one JSON object on stdout, or 2 with one line on stderr, whatever the input:
    a refusal names the field, and an error no check foresaw is still one line, no traceback."""
    from companion.rules.errors import RuleError
    from companion.rules.registry import one_line, resolve_scenario

    try:
        scenario = _read_scenario(args.scenario)
        outcome = resolve_scenario(scenario)
        output = _json_bytes(outcome)  # whole, before a byte is out
    except RuleError as exc:
        return _refuse(one_line(exc.message))
    except Exception as exc:  # a crash the input found is still a refusal of that input
        problem = f"{type(exc).__name__}: {exc}"
        return _refuse(one_line(f"scenario: cannot be resolved: {problem[:200]}"))
    sys.stdout.buffer.write(output)
    sys.stdout.flush()
    return 0


def _read_scenario(source: str) -> Any:
    """The scenario's JSON value, from a file or standard input (`-`); ScenarioError if unreadable
    or not JSON."""
    from companion.rules.registry import ScenarioError

    try:
        if source == "-":
            text = sys.stdin.read()
        else:
            with open(source, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"scenario: cannot read {source!r}: {exc}") from None
    try:
        return json.loads(text)
    except RecursionError:  # the parser's depth limit, which says only "maximum recursion depth"
        raise ScenarioError("scenario: not JSON: nested too deep") from None
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"scenario: not JSON: {exc}") from None
    except ValueError:  # int() of more digits than sys.get_int_max_str_digits(); its own message
        limit = sys.get_int_max_str_digits()  # tells the user to call a Python function
        raise ScenarioError(f"scenario: not JSON: a number of more than {limit} digits") from None


def _serve(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C (exit 130) or SIGTERM (exit 0); either way the journal is closed
    whole. Refusals (the options, the database's folder, the port, the database) are one line
    on standard error, exit 2, before anything is printed on standard output."""
    # (companion.journal is not imported here: gevent must patch threading before it is.)
    db = args.db or str(Path.cwd() / DEFAULT_DB)
    postgres = db.lower().startswith(("postgresql://", "postgres://"))
    if args.message_queue and not args.message_queue.startswith(("redis://", "rediss://",
                                                                 "unix://")):
        return _refuse(f"serve: --message-queue is a redis:// URL, not {args.message_queue!r}")
    if not postgres and not Path(db).parent.is_dir():
        return _refuse(f"serve: there is no folder {str(Path(db).parent)!r} for the database "
                       f"{db!r}; create it first, or give --db a file in a folder that exists")
    if args.workers > 1:
        if not (postgres and args.message_queue):
            return _refuse("serve: --workers needs --db postgresql://... (one journal for every "
                           "process) and --message-queue redis://... (their Socket.IO rooms)")
        if args.demo:
            return _refuse("serve: --demo runs with one process; create the demo first")
        from companion.server import serve_workers

        argv = ["--host", args.host, "--db", db, "--message-queue", args.message_queue]
        if args.base_url:
            argv += ["--base-url", args.base_url]
        if args.log_file:
            argv += ["--log-file", args.log_file]
        if args.access_log:
            argv += ["--access-log"]
        return serve_workers(args.workers, argv, args.port)
    # gevent must patch the standard library before anything imports threading or socket users.
    import signal

    import gevent
    from gevent import monkey

    monkey.patch_all()
    # Ctrl-C and SIGTERM stop the main greenlet's serve(), whose clean-up closes the journal; by
    # default Ctrl-C hit whichever phone's request ran at that moment, and SIGTERM ended the
    # process with the newest records in the write-ahead log only.
    main = gevent.getcurrent()
    handlers = [gevent.signal_handler(signal.SIGINT, main.throw, KeyboardInterrupt)]
    with suppress(AttributeError, OSError, ValueError):  # Windows' loop may not watch SIGTERM
        handlers.append(gevent.signal_handler(signal.SIGTERM, main.throw, Terminated))
    try:
        return _serve_patched(args, db)
    except KeyboardInterrupt:
        return 130
    except Terminated:
        return 0
    finally:
        for handler in handlers:
            handler.cancel()


class Terminated(BaseException):
    """SIGTERM, as a service manager or `kill` stops the server: a clean stop, like Ctrl-C."""


def _serve_patched(args: argparse.Namespace, db: str) -> int:
    from companion import logs
    from companion.hall.printables import is_base_url
    from companion.journal import JournalError
    from companion.server import serve

    if args.base_url and not is_base_url(args.base_url):
        return _refuse(f"serve: --base-url must start with http:// or https:// and name the "
                       f"server, like http://192.168.1.20:5000, not {args.base_url!r}")
    try:
        logs.configure(args.log_file, args.access_log)
    except OSError as exc:
        return _refuse(f"serve: cannot write the log file {args.log_file!r}: {exc.strerror}")
    try:
        return serve(args.host, args.port, db, demo=args.demo, public_url=args.base_url,
                     message_queue=args.message_queue, access_log=args.access_log)
    except (sqlite3.Error, JournalError) as exc:  # not a database, not writable, or a newer one
        return _refuse(f"serve: cannot use the database {db!r}: {exc}")
    except OSError as exc:  # the address: in use, or not this machine's
        reason = os.strerror(exc.errno) if exc.errno else str(exc)  # gevent appends the address
        return _refuse(f"serve: cannot listen on {args.host}:{args.port}: {reason}; is another "
                       "server running there? Stop it, or choose another port with --port")


def _backup(args: argparse.Namespace) -> int:
    """Exit 0 with the copy written (one line on standard error says where), or 2 with one
    line on standard error and nothing written."""
    from companion.journal.backup import BackupRefused, backup_file, is_postgres_target

    if is_postgres_target(args.db):
        return _refuse("backup: a PostgreSQL journal is copied with PostgreSQL's own tool: "
                       "pg_dump --format=custom --file copy.dump DATABASE_URL (docs/scaling.md)")
    try:
        size = backup_file(Path(args.db), Path(args.output))
    except BackupRefused as exc:
        return _refuse(f"backup: {exc}")
    sys.stderr.write(f"companion: copied {args.db} to {args.output} ({size:,} bytes)\n")
    return 0


def _demo(args: argparse.Namespace) -> int:
    from companion.hall import HallService
    from companion.hall.demo import create_demo
    from companion.journal import JournalError, SqliteJournal

    try:
        with SqliteJournal(Path(args.db)) as journal:
            _print_json(create_demo(HallService(journal)))
    except (sqlite3.Error, JournalError) as exc:
        return _refuse(f"demo: cannot use the database {args.db!r}: {exc}")
    return 0


def _add_print(commands: Any) -> None:
    """`companion print KIND`: kind, paper and language are checked by _print (one line on
    standard error, exit 2), not by argparse, so every refusal reads the same."""
    printer = commands.add_parser(
        "print", help="print an event's join cards, setup or score sheets, standings, poster, a "
        "campaign's register or the night's report",
        description="Write one event's printout as a PDF. Nothing is written on a refusal.")
    printer.add_argument(
        "kind", metavar="{join-cards|setup-sheets|score-sheets|standings|poster|series-sheets|report}")
    printer.add_argument("--db", required=True, metavar="PATH", help="the hall's SQLite file (as for serve)")
    printer.add_argument("--event", required=True, metavar="ID", help="the event's id")
    printer.add_argument("--paper", default="a4", metavar="{a4|letter|a3}",
                         help="a4 (default) or letter; a3 for everything but join cards")
    printer.add_argument("--lang", default="en", metavar="{en|he|nl}", help="en (default), he or nl")
    printer.add_argument("--base-url", metavar="URL", help="where phones reach the server; default: "
                         "http://ADDRESS:5000 with the first LAN address companion serve prints")
    printer.add_argument("--wifi-ssid", metavar="S",
                         help="join cards and poster: a Wi-Fi QR for this network")
    printer.add_argument("--wifi-password", default="", metavar="P",
                         help="its password (none: an open network)")
    printer.add_argument("-o", "--output", required=True, metavar="FILE.pdf")
    printer.set_defaults(run=_print)


def _print(args: argparse.Namespace) -> int:
    """Exit 0 with the PDF written, or 2 with one line on stderr and nothing written."""
    from companion.hall.printables import PrintOptions, check, hall_wifi, render

    try:
        wifi = hall_wifi(args.wifi_ssid or "", args.wifi_password)
    except ValueError:
        return _refuse("print: --wifi-password needs --wifi-ssid")
    base_url = args.base_url or _lan_base_url()
    options = PrintOptions(args.kind, args.paper, args.lang, base_url, wifi)
    output = Path(args.output)
    if unreachable := _unreachable(options, given=bool(args.base_url)):
        return _refuse(unreachable)
    try:
        check(options)
    except ValueError as exc:
        return _refuse(f"print: {exc}")
    if not output.parent.is_dir():
        return _refuse(f"print: no folder {str(output.parent)!r} to write {output.name!r} in")
    try:
        with _progress_on_stderr(args.kind):
            pdf = _render_from_db(Path(args.db), args.event, options, render)
    except LookupError as exc:
        return _refuse(f"print: {exc.args[0]}")
    try:
        output.write_bytes(pdf)
    except OSError as exc:
        return _refuse(f"print: cannot write {args.output!r}: {exc.strerror}")
    sys.stderr.write(f"companion: wrote {args.output} ({len(pdf):,} bytes)\n")
    return 0


@contextmanager
def _progress_on_stderr(kind: str, every: float = 1.0) -> Iterator[None]:
    """While a printout is laid out, a line on standard error at most every `every` seconds
    (`print: join cards: 200/1100`, `print: score-sheets: page 12`), and the last card's."""
    import time

    from companion.printing.pdf import PROGRESS

    shown = {"at": -math.inf}

    def say(what: str, done: int, total: int | None) -> None:
        now = time.monotonic()
        if now - shown["at"] < every and done != total:
            return
        shown["at"] = now
        sys.stderr.write(f"print: {what}: {done}/{total}\n" if total is not None
                         else f"print: {kind}: page {done}\n")
        sys.stderr.flush()

    token = PROGRESS.set(say)
    try:
        yield
    finally:
        PROGRESS.reset(token)


def _unreachable(options: Any, given: bool) -> str | None:
    """The refusal of cards or a poster whose address no phone can open, saying what to do,
    or None. Not `given`: the default address, loopback on a laptop with no LAN address."""
    from companion.hall.printables import unreachable

    if unreachable(options) is None:
        return None
    url = options.base_url.rstrip("/")
    if not given:
        return (f"print: this laptop has no LAN address, so the {options.kind} would carry "
                f"{url}, which no phone can open; join the hall's network, or pass --base-url "
                "with the address phones use")
    return (f"print: phones cannot open {url}: it is this laptop's own address (loopback) or a "
            "link-local one; pass --base-url with the address phones use, the 'phones:' line "
            "companion serve prints (like http://192.168.1.20:5000)")


def _lan_base_url() -> str:
    """The address `companion serve` prints first, on its default port."""
    from companion.server import base_url, lan_addresses

    return base_url(lan_addresses(), DEFAULT_PORT)


def _render_from_db(db: Path, event: str, options: Any, render: Any) -> bytes:
    """Open an existing hall database without changing it and render; LookupError names what
    is missing (the file, a hall journal in it, the event)."""
    from companion.hall import HallError, HallService
    from companion.journal import JournalError, SqliteJournal

    if not db.is_file():
        raise LookupError(f"no database file {str(db)!r}")
    if not _is_hall_journal(db):
        raise LookupError(f"{str(db)!r} is not a companion hall database")
    try:
        with SqliteJournal(db) as journal:
            return bytes(render(HallService(journal), event, options))
    except HallError as exc:
        raise LookupError(f"{exc.message} in {str(db)!r}") from None
    except (sqlite3.Error, JournalError) as exc:
        raise LookupError(f"cannot read {str(db)!r}: {exc}") from None


def _is_hall_journal(db: Path) -> bool:
    from companion.journal.backup import is_hall_journal

    return is_hall_journal(db)


def _add_pairings(commands: Any) -> None:
    """`companion pairings`: the seating of a tournament's preliminary rounds (RULES.md 25).
    Without --seed the seed is 0: the same command prints the same seating, so a printed
    seating can be made again (SCENARIOS.md: a case written down is resolved the same way)."""
    pairings = commands.add_parser(
        "pairings", help="seat a tournament's preliminary rounds and print them as JSON",
        description="Print the seating of R preliminary rounds for players 0 to N-1 as one JSON "
        "object: a list per round, a list per table, players in start order (first player first).")
    pairings.add_argument("--players", type=PLAYERS, required=True, metavar="N")
    pairings.add_argument("--rounds", type=ROUNDS, required=True, metavar="R")
    pairings.add_argument("--seed", type=int, default=0, metavar="S",
                          help="another seed gives another seating (default: 0)")
    pairings.set_defaults(run=_pairings)


def _pairings(args: argparse.Namespace) -> int:
    """Exit 0 with one JSON object on stdout, or 2 with one line on stderr (5 players, or
    fewer than 3)."""
    import random

    from companion.tournament.errors import TournamentError
    from companion.tournament.seating import seat

    try:
        rounds = seat(args.players, args.rounds, random.Random(args.seed))
    except TournamentError as exc:
        return _refuse(f"pairings: {exc.message}")
    sys.stdout.write(json.dumps({"rounds": rounds}) + "\n")
    sys.stdout.flush()
    return 0


def _bench(args: argparse.Namespace) -> int:
    if args.what == "views":
        from companion.bench.views import bench_views

        _print_json(bench_views(args.tables, rolls=args.rolls, seed=args.seed,
                                before=args.before, mix=args.mix))
        return 0
    if args.what in ("hall", "soak"):
        import importlib.util

        if importlib.util.find_spec("aiohttp") is None:  # python-socketio's asyncio client
            return _refuse(f"bench {args.what}: the phones need aiohttp: pip install -e '.[test]'")
        phones = args.phones[-1] if args.phones else 1100
        if args.what == "soak":
            from companion.bench.soak import bench_soak

            _print_json(bench_soak(phones, args.tables, minutes=args.minutes,
                                   processes=max(1, args.workers)))
            return 0
        if args.workers > 1:
            from companion.bench.hall import bench_hall_workers

            _print_json(bench_hall_workers(args.phones or [2000, 4000], args.workers,
                                           rolls=args.rolls, floor=not args.no_floor,
                                           hog=args.hog, client=args.client))
            return 0
        from companion.bench.hall import bench_hall
        from companion.bench.reference import NodeMissing
        from companion.server import WEBSOCKETS

        websockets = args.websocket.split(",") if args.websocket else None
        if unknown := [name for name in websockets or [] if name not in WEBSOCKETS]:
            return _refuse(f"bench hall: --websocket names {', '.join(WEBSOCKETS)}, not {unknown[0]!r}")
        try:
            _print_json(bench_hall(phones, args.tables, rolls=args.rolls,
                                   floor=not args.no_floor, node=not args.no_node,
                                   moves_per_second=args.moves_per_second,
                                   ruleset=args.ruleset, client=args.client, hog=args.hog,
                                   websockets=websockets))
        except NodeMissing as error:
            return _refuse(f"bench hall: {error}")
        return 0
    from companion.bench.rules import bench_rules

    _print_json(bench_rules(seconds=args.seconds, seed=args.seed))
    return 0


def _refuse(message: str) -> int:
    sys.stderr.write(message.replace("\n", " ") + "\n")
    return 2


def _print_json(data: Any) -> None:
    sys.stdout.buffer.write(_json_bytes(data))
    sys.stdout.flush()


def _json_bytes(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, indent=2).encode() + b"\n"
