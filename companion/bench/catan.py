"""The big Catan event in `companion bench hall --ruleset catan-big` (issue 12, item 8).

The organizer's side (`set_up`): boards of two seated from one pasted list through
`POST /api/events/ID/seating`, each started, and a schedule set with auto-roll off (the bench
rolls). The phones' side: a roll is one hall turn, delivered as the event's `turn` message
(the same JSON for every phone, sent to the room `event:ID`); a few phones keep their points
trackers up (`track` moves) meanwhile, so the server is not idle between rolls. The references'
side (`floor_turn`): the same turn JSON, which the python floor and the Node.js reference each
emit once to every phone (issue 24; until then the floor emitted it once per phone).

The run (`bench_catan`): the app and the references all serve, each with its own phones (the
same seats' tokens) connected; their rolls alternate (`hall.interleave`), and each server's
phones move only around its own rolls.
"""

from __future__ import annotations

import contextlib
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

RULESET = "catan-big"
SEATS = 2  # a board: Sun and Moon
SCHEDULE = [[1, 60], [11, 90]]  # the bench rolls itself (auto-roll off), so only the JSON counts
# Tracker updates per second meanwhile (10 of them from the probe's four devices): a player
# updates after building, and in a turn of 60-90 s about half the hall (the team on turn) builds
# once or twice: some 10-20 a second at 1,100 players.
MOVES_PER_SECOND = 20
CAPS = {"settlements": 5, "cities": 10, "foreign_start_settlements": 5, "vp_cards": 5}


# The floor's seat view and move ack: about a board's seat view as the app sends it (the
# figures give both sizes as the phones received them).
VIEW_BYTES = 800


def bench_catan(phones: int, rolls: int = 10, moves_per_second: int = MOVES_PER_SECOND,
                floor: bool = True, client: str = "light", node: bool = True,
                hog: int = 0) -> dict[str, Any]:
    """`bench_hall` for the big Catan event: figures of the app, the python floor and the
    Node.js reference, rolled in turn (times in ms, memory in MB)."""
    from companion.bench import hall, reference
    from companion.bench.server import hogs, load_average, served_app
    from companion.web import SERVED_ASYNC_MODE

    if phones < 1 or rolls < 1 or moves_per_second < 0:
        raise ValueError("phones and rolls are at least 1; moves_per_second at least 0")
    boards = boards_for(phones)
    processes = 1 if phones <= 600 else 2
    result: dict[str, Any] = {
        "ruleset": RULESET, "phones": phones, "tables": boards, "seats": boards * SEATS,
        "rolls": rolls, "moves_per_second": moves_per_second, "async_mode": SERVED_ASYNC_MODE,
        "client_processes": processes, "client": client, "cpus": os.cpu_count(), "hog": hog,
        "interleaved": floor or node, "load_average_start": load_average(),
    }
    script = reference.install() if node else None
    with tempfile.TemporaryDirectory(prefix="bench-catan-") as tmp, \
            served_app(Path(tmp)) as (server, base), contextlib.ExitStack() as stack:
        started = time.monotonic()
        event_id, tokens = set_up(base, server.key, boards)
        result["setup_seconds"] = round(time.monotonic() - started, 2)
        phone_tokens = [tokens[i % len(tokens)] for i in range(phones)]
        phases = {"app": hall.Phase(base, f"{base}/api/events/{event_id}/roll", server,
                                    phone_tokens, moves_per_second, processes, RULESET, client)}
        phases.update(hall.references(stack, Path(tmp), phone_tokens, moves_per_second,
                                      processes, RULESET, client, VIEW_BYTES, floor, script,
                                      reference.catan_roll(), result))
        stack.enter_context(hogs(hog))
        try:
            hall.interleave(list(phases.values()), rolls)
        finally:
            for phase in phases.values():
                phase.close()
    result.update({name: phase.figures for name, phase in phases.items()})
    result["load_average_end"] = load_average()
    result["targets"] = hall._targets(result)
    return result


def boards_for(phones: int) -> int:
    """A phone per seat: boards of two for `phones` phones (one seat empty when odd)."""
    return max(1, (phones + SEATS - 1) // SEATS)


def set_up(base: str, key: str, boards: int) -> tuple[str, list[str]]:
    """An event of `boards` started boards, seated as the organizer seats them (one list, two
    players a board, in registration order), with a schedule: its id and every seat's token."""
    event = _post(base + "/api/events", key, {"name": "Bench Catan", "dice_mode": "random"})
    players = [f"{board + 1}-{role}" for board in range(boards) for role in ("Sun", "Moon")]
    seated = _post(f"{base}/api/events/{event['id']}/seating", key,
                   {"players": players, "ruleset": RULESET, "name_prefix": "Board"})
    tokens = []
    for table in seated["tables"]:
        _post(f"{base}/api/tables/{table['id']}/start", key, {})
        tokens += [seat["token"] for seat in table["seats"]]
    _post(f"{base}/api/events/{event['id']}/clock", key,
          {"schedule": SCHEDULE, "auto_roll": False})
    return str(event["id"]), tokens


def track_move(rng: random.Random) -> dict[str, Any]:
    """A points tracker kept up as a player builds: a random breakdown within the caps."""
    settlements, cities = rng.randint(0, CAPS["settlements"]), rng.randint(0, CAPS["cities"])
    breakdown = {
        "settlements": settlements, "cities": cities,
        "foreign_start_settlements": rng.randint(0, min(CAPS["foreign_start_settlements"],
                                                        settlements + cities)),
        "vp_cards": rng.randint(0, CAPS["vp_cards"]),
        "largest_army": rng.random() < 0.2, "longest_road": rng.random() < 0.2,
    }
    return {"kind": "track", "breakdown": breakdown}


def floor_turn(number: int, dice: list[int], follow_up: list[int]) -> dict[str, Any]:
    """The event's `turn` JSON as the app sends it (docs/api.md, hall/views.turn_message), for
    roll `number`: the ruleset's own turn view, the schedule's seconds, a deadline from now,
    the sender's clock."""
    from companion.rules.registry import production_for, read_schedule, ruleset, seconds_for
    from companion.rules.ruleset import HallTurn

    seconds = seconds_for(read_schedule(SCHEDULE), number)
    turn = HallTurn(number, (dice[0], dice[1]), tuple(follow_up))
    return {"number": number, "dice": list(dice), "follow_up": list(follow_up),
            "deadline_ms": round((time.time() + seconds) * 1000), "seconds": seconds,
            "production_seconds": production_for(read_schedule(SCHEDULE), number),
            "production_ended": False, "remaining_ms": None, "paused": False, "auto_roll": False,
            "schedule": SCHEDULE,
            "over": False, "ended": False,
            "rules": {RULESET: ruleset(RULESET).turn_view(turn)},
            "now_ms": round(time.time() * 1000)}


def follow_up_count(number: int, dice: list[int]) -> int:
    """The follow-up dice the rules ask after roll `number` (the robbers' roll from turn 16)."""
    from companion.rules.registry import ruleset

    return int(ruleset(RULESET).follow_up_dice(number, (dice[0], dice[1])))


def _post(url: str, key: str, body: dict[str, Any]) -> Any:
    from companion.bench.hall import _http

    return _http(url, key, body, timeout=120)  # seating hundreds of boards takes its time
