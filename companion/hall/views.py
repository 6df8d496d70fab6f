"""What each audience sees: pure functions of the hall's state. The same dict renders the
first page and every Socket.IO update; no view ever holds a seat token."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from typing import Any

from companion.hall import coop_views
from companion.hall.model import HallEvent, Move, Table, events_since_roll, parties
from companion.hall.replay import rebuild_table, rules_of
from companion.journal import Record
from companion.rules.coop.events import AssessorCoinsTransferred
from companion.rules.coop.state import CoopState
from companion.rules.machi_koro import events as ev
from companion.rules.machi_koro.catalog import Catalog
from companion.rules.machi_koro.codec import wire_move
from companion.rules.machi_koro.moves import ChooseDice, Roll
from companion.rules.machi_koro.options import legal_moves
from companion.rules.machi_koro.state import BANK, Phase, TableState


def table_header(table: Table) -> dict[str, Any]:
    return {"id": table.id, "name": table.name, "ruleset": table.ruleset,
            "roll_mode": table.roll_mode, "status": table.status}


def last_roll_entries(table: Table) -> list[dict[str, Any]]:
    """The coin movements since the latest roll (income, payments, builds, corrections): the
    hall screen's lines of a table."""
    return [entry_json(table, e) for e in events_since_roll(table)
            if isinstance(e, ev.CoinsTransferred | ev.CoinsAdjusted)]


def turn_moves(table: Table) -> list[Move]:
    """The moves of the current turn: from the one that ended the last turn on (a hall roll's
    closing of that turn, with the defaults it applied, included), or all of them in the first
    turn. A new turn starts the phones' lines afresh."""
    moves = table.moves
    for index in range(len(moves) - 1, -1, -1):
        if any(isinstance(event, ev.TurnEnded) for event in moves[index].events):
            return moves[index:]
    return moves


def turn_entries(table: Table) -> list[dict[str, Any]]:
    """Every change of a player's coins or cards this turn, in order, with its reason: the
    seat view's `entries` (docs/api.md). A choice's default says who applied it."""
    entries = []
    for move in turn_moves(table):
        default = default_by(move)
        for event in move.events:
            entry = turn_entry(table, event)
            if entry is not None:
                if default:
                    entry["default"] = default
                entries.append(entry)
    return entries


def default_by(move: Move) -> str | None:
    """"timer" when the move is a choice's default at its time-out, "hall" when the hall roll
    closed the turn (the defaults of its open choices), else None."""
    if move.author == "timer":
        return "timer"
    if move.author == "hall" and not any(isinstance(e, ev.DiceRolled) for e in move.events):
        return "hall"
    return None


def turn_entry(table: Table, event: ev.Event | object) -> dict[str, Any] | None:
    """A line of the seat view's `entries` for an event that changes a player's coins or cards:
    a coin movement, a correction, a Business Center swap, a co-op gift; None for the others."""
    if isinstance(event, ev.CoinsTransferred | ev.CoinsAdjusted):
        return entry_json(table, event)
    if isinstance(event, ev.EstablishmentsSwapped):
        return {**parties(table, event.seat, event.other), "amount": 0, "card": "business_center",
                "copies": 0, "mall_bonus": 0, "forgiven": 0, "give": event.give, "take": event.take}
    if isinstance(event, AssessorCoinsTransferred) and isinstance(event.source, int):
        return {**parties(table, event.source, event.target), "amount": event.amount,
                "card": event.card, "copies": 0, "mall_bonus": 0, "forgiven": 0}
    return None


def undone_json(table: Table) -> list[dict[str, Any]]:
    """The moves the organizer undid since the current turn began (the table keeps those),
    oldest first: what each was and what its undo changed in every player's coins, cards and
    landmarks (docs/api.md)."""
    return [{**move_summary(u.move), "author": u.move.author, "changes": changes(u.after, u.move.before)}
            for u in table.undone]


def move_summary(move: Move) -> dict[str, Any]:
    """What a move was, from its events: its kind, whose it was, and its card, reason or dice."""
    active = move.before.active
    for event in move.events:  # the first event that says what the move was
        match event:
            case ev.CoinsAdjusted(seat=seat, amount=amount, reason=reason):
                return {"move": "correction", "seat": seat, "amount": amount, "reason": reason}
            case ev.EstablishmentBought(seat=seat, card=card) | ev.LandmarkBuilt(seat=seat, landmark=card):
                return {"move": "build", "seat": seat, "card": card}
            case ev.EstablishmentsSwapped(seat=seat, other=other, give=give, take=take):
                return {"move": "swap", "seat": seat, "with": other, "give": give, "take": take}
            case AssessorCoinsTransferred(source=int(seat), amount=amount):
                return {"move": "gift", "seat": seat, "amount": amount}
            case ev.DiceRolled(seat=seat, dice=dice):
                return {"move": "roll", "seat": seat, "dice": list(dice)}
            case ev.DiceCountChosen(seat=seat, count=count):
                return {"move": "dice_count", "seat": seat, "count": count}
            case ev.ChoiceAnswered(choice=choice):
                return {"move": "choice", "seat": active, "card": choice.value}
            case ev.TurnEnded():
                return {"move": "end_turn", "seat": active}
    return {"move": "move", "seat": active}


def changes(old: TableState | CoopState, new: TableState | CoopState) -> list[dict[str, Any]]:
    """Each player whose coins, cards or landmarks differ from `old` to `new`, by how much."""
    found = []
    for seat, (was, now) in enumerate(zip(old.players, new.players, strict=True)):
        cards = {card: now.owns(card) - was.owns(card) for card in sorted({*was.cards, *now.cards})
                 if now.owns(card) != was.owns(card)}
        landmarks = {lm: 1 if lm in now.landmarks else -1 for lm in sorted(was.landmarks ^ now.landmarks)}
        if now.coins != was.coins or cards or landmarks:
            found.append({"seat": seat, "coins": now.coins - was.coins, "cards": cards,
                          "landmarks": landmarks})
    return found


def entry_json(table: Table, event: ev.CoinsTransferred | ev.CoinsAdjusted) -> dict[str, Any]:
    if isinstance(event, ev.CoinsAdjusted):
        source, target = (BANK, event.seat) if event.amount > 0 else (event.seat, BANK)
        return {**parties(table, source, target), "amount": abs(event.amount), "card": "adjustment",
                "copies": 0, "mall_bonus": 0, "forgiven": 0, "reason": event.reason}
    return {**parties(table, event.source, event.target), "amount": event.amount, "card": event.card,
            "copies": event.copies, "mall_bonus": event.mall_bonus, "forgiven": event.forgiven}


def players_json(table: Table) -> list[dict[str, Any]]:
    if table.state is None:
        return [{"seat": i, "name": s.name, "coins": None, "cards": {}, "landmarks": [],
                 "dice_count": 1} for i, s in enumerate(table.seats)]
    return [{"seat": i, "name": p.name, "coins": p.coins, "cards": dict(p.cards),
             "landmarks": sorted(p.landmarks), "dice_count": p.dice_count}
            for i, p in enumerate(table.state.players)]


def choices_json(table: Table, seat: int, catalog: Catalog) -> list[dict[str, Any]]:
    """The moves this seat may make now, in the wire form of docs/api.md."""
    state = table.state
    if state is None or table.status != "running":
        return []
    choices = []
    for move in legal_moves(state, seat, catalog):
        if isinstance(move, Roll) and table.roll_mode == "hall":
            continue
        if isinstance(move, ChooseDice) and move.count == state.players[seat].dice_count:
            continue
        choices.append(wire_move(move))
    return choices


def game_json(table: Table) -> dict[str, Any]:
    state = table.state
    return {
        "active": state.active if state else None,
        "phase": state.phase.value if state else "setup",
        "turn": state.turn if state else 0,
        "dice": list(state.dice) if state else [],
        "pending": [c.value for c in state.pending] if state else [],
        "extra_turn": state.extra_turn if state else False,
        "winner": state.winner if state else None,
        "result": result_json(table),
        "seq": table.seq,
        "waited": waited_seconds(table),
    }


def result_json(table: Table) -> dict[str, Any] | None:
    """How the game ended, the same for every ruleset (screens, the export, printing): its
    `reason` and each seat's outcome, `outcomes[seat]` "won" or "lost". None while it runs.
    A co-op pair shares one outcome; in the base game the winner won and the others lost."""
    state = table.state
    shared = coop_views.result(table)
    if shared is not None or state is None or state.winner is None:
        return shared
    return {"reason": "landmarks_complete",
            "outcomes": ["won" if seat == state.winner else "lost"
                         for seat in range(len(state.players))]}


def market_json(table: Table) -> dict[str, Any]:
    """What the phone's build list needs beyond `choices`: the stock left of each card and
    whether this turn's build is done (to say why a card cannot be built)."""
    state = table.state
    return {"supply": dict(getattr(state, "supply", {})) if state else {},
            "built": bool(getattr(state, "built", False)) if state else False}


def waited_seconds(table: Table) -> float | None:
    """How long the open choice (Radio Tower, TV Station, Business Center) has waited when the
    view is built; screens count down from the event's choice_seconds."""
    if table.waiting_since is None:
        return None
    return round(max(0.0, time.monotonic() - table.waiting_since), 1)


def seat_view(table: Table, seat: int, catalog: Catalog, choice_seconds: int | None = None) -> dict[str, Any]:
    """What one phone shows. `choice_seconds`, the event's turn timer, lets a phone count down
    with the setting of the moment."""
    return {**common_part(table, choice_seconds), **seat_part(table, seat, catalog)}


class EncodedView(dict[str, Any]):
    """A seat's view with `json_text`, its compact JSON as Socket.IO sends it (web/wire.py),
    made with the view and never changed after it."""

    __slots__ = ("json_text",)


def encoded_seat_views(table: Table, catalog: Catalog,
                       choice_seconds: int | None = None) -> list[EncodedView]:
    """Every seat's view of a table with its JSON text, the shared part encoded once: a hall
    roll publishes every seat of every table, so this is the server's hot path."""
    common = common_part(table, choice_seconds)
    shared = compact_json(common)[1:-1]
    views = []
    for seat in range(len(table.seats)):
        own = seat_part(table, seat, catalog)
        view = EncodedView(common)
        view.update(own)
        view.json_text = "{" + shared + "," + compact_json(own)[1:-1] + "}"
        views.append(view)
    return views


def compact_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def common_part(table: Table, choice_seconds: int | None) -> dict[str, Any]:
    """The fields of a table's seat views that every seat shares."""
    common = {"table": table_header(table), "players": players_json(table), **game_json(table),
              "entries": turn_entries(table), "undone": undone_json(table), **market_json(table)}
    if choice_seconds is not None:
        common["choice_seconds"] = choice_seconds
    return common


def seat_part(table: Table, seat: int, catalog: Catalog) -> dict[str, Any]:
    """The fields of a seat's view after the common part: the seat, its choices, and the co-op
    fields (the same for every seat, but they come last in the view)."""
    return {"seat": seat,
            "choices": choices_json(table, seat, catalog) + coop_views.extra_choices(table, seat),
            **coop_views.table_fields(table)}


def table_summary(table: Table) -> dict[str, Any]:
    """One tile of the hall screen."""
    state = table.state
    waiting = None
    if state is not None and table.choosing:
        waiting = "reroll" if state.phase is Phase.REROLL else state.pending[0].value
    return {**table_header(table), "players": [
        {k: p[k] for k in ("seat", "name", "coins", "landmarks")} for p in players_json(table)
    ], **game_json(table), "entries": last_roll_entries(table), "waiting": waiting,
        "active_name": table.seats[state.active].name if state else None,
        **coop_views.table_fields(table)}


def hall_view(event: HallEvent, tables: list[Table]) -> dict[str, Any]:
    """What the projector shows: every table's summary and the hall's rolls."""
    return {"event": {"id": event.id, "name": event.name, "dice_mode": event.dice_mode,
                      "choice_seconds": event.choice_seconds},
            "rolls": event.rolls, "tables": [table_summary(t) for t in tables],
            # whether the console offers to undo the last roll (the server may still refuse it
            # when a table moved on since: roll/moved_on names them)
            "roll_undoable": bool(event.rolls) and not event.last_roll_undone}


def audit_json(table: Table, records: Iterable[Record], catalog: Catalog) -> list[dict[str, Any]]:
    """Every accepted move of a table with its events (as its ruleset journals them), for the
    organizer's audit view: from the table's journal `records`, since memory keeps only the
    latest moves."""
    encode = rules_of(table).encode_event
    return [{"move": m.number, "author": m.author,
             "events": [dict(zip(("kind", "data"), encode(e), strict=True)) for e in m.events]}
            for m in rebuild_table(records, catalog).moves]
