"""The co-op Tax Assessor's part of the views (docs/api.md, "The co-op game"): the market row,
the assessor's coins, deck and array, the value sought next, its last turn step by step, and
the shared win or loss with its reason. Pure functions of a table; `{}` for other rulesets."""

from __future__ import annotations

from typing import Any

from companion.hall.model import Move, Table, events_since_roll, parties
from companion.rules.coop.events import (
    AssessorCardDrawn,
    AssessorCoinsTransferred,
    AssessorDeckShuffled,
    CoopGameEnded,
    FinalRoundBegan,
)
from companion.rules.coop.state import RULESET, CoopState


def table_fields(table: Table) -> dict[str, Any]:
    """`{"coop": {...}}` for a co-op table (every seat and the hall see the same), else `{}`."""
    if table.ruleset != RULESET:
        return {}
    state = table.state
    if not isinstance(state, CoopState):
        return {"coop": None}  # not started
    return {"coop": {
        "market": {"row": list(state.market_row), "deck": len(state.market_deck),
                   "discards": len(state.market_discards)},
        "assessor": {
            "coins": state.assessor_coins, "stake": state.stake,
            "deck": len(state.assessor_deck), "discards": len(state.assessor_discards),
            "assessed": list(state.assessed),
            "sought": None if state.final_round or state.outcome else state.sought,
        },
        "final_round": state.final_round,
        "outcome": state.outcome.value if state.outcome else None,
        "reason": state.reason.value if state.reason else None,
        "last_assessor_turn": last_assessor_turn(table),
        "assessor_entries": assessor_entries(table),
    }}


def result(table: Table) -> dict[str, Any] | None:
    """A finished co-op game's result: both seats share one outcome (won or lost) and its
    reason. None for other rulesets and while the game runs."""
    state = table.state
    if table.ruleset != RULESET or not isinstance(state, CoopState) or state.outcome is None:
        return None
    reason = state.reason.value if state.reason else None
    return {"reason": reason, "outcomes": [state.outcome.value] * len(state.players)}


def extra_choices(table: Table, seat: int) -> list[dict[str, Any]]:
    """The co-op move beside the base game's choices: a gift of 1 to `max` coins, offered to
    the active seat in any phase of its turn (RULES.md 17)."""
    state = table.state
    if (table.ruleset != RULESET or not isinstance(state, CoopState) or table.status != "running"
            or state.outcome is not None or seat != state.active):
        return []
    coins = state.players[seat].coins
    return [{"kind": "give_assessor", "max": coins}] if coins else []


def last_assessor_turn(table: Table) -> dict[str, Any] | None:
    """The latest assessor turn (or the end of the final round) as steps a screen can play
    one by one: draw (card, value sought, tax | supplemental | miss | unpaid, amount),
    reshuffle, final_round, end."""
    for move in reversed(table.moves):
        steps = _steps(move)
        if steps:
            return {"move": move.number, "turn": move.before.turn, "steps": steps}
    return None


def _steps(move: Move) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = []
    for event in move.events:
        if isinstance(event, AssessorCardDrawn):
            steps.append({"step": "draw", "card": event.card, "sought": event.sought,
                          "result": event.result, "amount": event.amount})
        elif isinstance(event, AssessorDeckShuffled) and move.author != "dealer":
            steps.append({"step": "reshuffle", "cards": len(event.order)})
        elif isinstance(event, FinalRoundBegan):
            steps.append({"step": "final_round"})
        elif isinstance(event, CoopGameEnded) and (steps or event.outcome.value == "lost"):
            steps.append({"step": "end", "outcome": event.outcome.value,
                          "reason": event.reason.value})
    return steps


def assessor_entries(table: Table) -> list[dict[str, Any]]:
    """The assessor's coin movements since the latest roll (gifts, taxes), like `entries`."""
    return [_entry(table, e) for e in events_since_roll(table)
            if isinstance(e, AssessorCoinsTransferred)]


def _entry(table: Table, event: AssessorCoinsTransferred) -> dict[str, Any]:
    return {**parties(table, event.source, event.target), "amount": event.amount,
            "card": event.card, "kind": event.kind}
