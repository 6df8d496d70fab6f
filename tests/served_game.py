"""A whole game on a served hall (`ServerProcess`), played by real python-socketio phones with
the hall roll, and its journal replayed: the parts the served whole-game tests share."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from serverproc import ServerProcess, http_json
from socket_phone import Phone

from companion.hall.model import HallEvent
from companion.hall.replay import rebuild_table
from companion.hall.views import seat_view
from companion.journal import SqliteJournal
from companion.rules.machi_koro.catalog import load_catalog

LANDMARKS = load_catalog().landmarks


def start_table(server: ServerProcess, key: str, event_name: str,
                table: dict) -> tuple[dict, dict, list[Phone]]:
    """A new event with one table (`table`: the API's body), started, and a phone on each seat."""
    event = http_json(f"{server.url}/api/events", method="POST", key=key,
                      body={"name": event_name})[1]
    status, created = http_json(f"{server.url}/api/events/{event['id']}/tables", method="POST",
                                key=key, body=table)
    assert status == 201, created
    assert http_json(f"{server.url}/api/tables/{created['id']}/start", method="POST",
                     key=key)[0] == 200
    return event, created, [Phone(server.url, seat["token"]) for seat in created["seats"]]


def phone_move(view: dict, rng: random.Random, landmark: float, build: float,
               end: float) -> dict | None:
    """A phone's move in `view`: keep a roll, answer a purple card with its first choice, and
    in the build phase a random landmark (with odds `landmark`), else a random card (`build`),
    else end the turn (`end`); None, leaving the turn for the hall roll to close, otherwise."""
    choices = view["choices"]
    if view["phase"] == "reroll":
        return {"kind": "keep"}
    if view["phase"] == "choose":
        return next(c for c in choices if c["kind"] in ("business_center", "tv_station"))
    if view["phase"] != "build":
        return None
    builds = [c for c in choices if c["kind"] == "build"]
    landmarks = [c for c in builds if c["card"] in LANDMARKS]
    if landmarks and rng.random() < landmark:
        return rng.choice(landmarks)
    if builds and rng.random() < build:
        return rng.choice(builds)
    return {"kind": "end_turn"} if rng.random() < end else None


def play_with_hall_rolls(server: ServerProcess, key: str, event_id: str, phones: list[Phone],
                         rng: random.Random, pick: Callable[[dict], dict | None],
                         finished: Callable[[dict], bool], most_rolls: int) -> list[dict]:
    """Play until `finished(view)`: the active phone sends `pick(view)` (seat 0's view), and
    where it picks None the organizer rolls the hall roll with random dice. Answers every
    phone's view of the end."""
    view, moves, rolls = phones[0].wait_for(0), 0, 0
    while not finished(view):
        assert rolls < most_rolls, "the game should have ended"
        move = pick(view)
        if move is None:
            dice = [rng.randint(1, 6), rng.randint(1, 6)]
            assert http_json(f"{server.url}/api/events/{event_id}/roll",
                             method="POST", key=key, body={"dice": dice})[0] == 200
            view = phones[0].wait_for(view["seq"] + 1)
            rolls += 1
        else:
            moves += 1
            view = phones[view["active"]].move(f"m{moves}", move)
        view = phones[0].wait_for(view["seq"])
    return [phone.wait_for(view["seq"]) for phone in phones]


def replayed(db: Path, table_id: str, final: list[dict]) -> Any:
    """The table rebuilt from its journal, after checking it shows each seat what `final` did."""
    with SqliteJournal(db) as journal:
        records = journal.read(f"table:{table_id}")
    rebuilt = rebuild_table(records)
    for seat, shown in enumerate(final):
        expected = seat_view(rebuilt, seat, choice_seconds=HallEvent.choice_seconds)
        assert {**expected, "waited": None} == {**shown, "waited": None}
    return rebuilt
