"""The co-op Tax Assessor's part of the views (docs/api.md, "The co-op game"): the market row,
the assessor's coins, deck and array, the value sought next, its last turn step by step, and
the shared win or loss with its reason. Pure functions of a `Story`."""

from __future__ import annotations

from typing import Any

from companion.rules.coop import engine
from companion.rules.coop.facts import (
    AssessorCardDrawn,
    AssessorCoinsTransferred,
    AssessorDeckShuffled,
    CoopGameEnded,
    FinalRoundBegan,
)
from companion.rules.coop.state import CoopState
from companion.rules.machi_koro.asks import answered, words
from companion.rules.machi_koro.catalog import Catalog
from companion.rules.machi_koro.options import NOT_RUNNING, NOT_SHOWN, build_list, not_running_options
from companion.rules.machi_koro.views import facts_since_roll, parties
from companion.rules.ruleset import N_, Json, Played, Result, Story

CoopStory = Story[CoopState, Any]


def coop_fields(story: CoopStory) -> Json:
    """`{"coop": {...}}`: what every seat and the hall see of the co-op game (None before the
    start)."""
    state = story.state
    if state is None:
        return {"coop": None}
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
        "last_assessor_turn": last_assessor_turn(story),
        "assessor_entries": assessor_entries(story),
    }}


def result(state: CoopState) -> Result | None:
    """A finished co-op game's result: both seats share one outcome (won or lost) and its
    reason; a won pair shares the first place, a lost one the second."""
    if state.outcome is None:
        return None
    seats = len(state.table.players)
    place = 1 if state.outcome.value == "won" else 2  # a lost pair shares the place below a win
    return Result(state.reason.value if state.reason else "", (state.outcome.value,) * seats,
                  (place,) * seats)


def gift_choices(story: CoopStory, seat: int) -> list[Json]:
    """The co-op move beside the base game's choices: a gift of 1 to `max` coins, offered to
    the active seat in any phase of its turn (RULES.md 17)."""
    state = story.state
    if state is None or not story.running or state.outcome is not None or seat != state.table.active:
        return []
    coins = state.table.players[seat].coins
    return [{"kind": "give_assessor", "max": coins}] if coins else []


def gift_asks(gift: list[Json]) -> list[Json]:
    """The gift as a choice (docs/api.md, "A choice as data"): how many coins, 1 to `max`; its
    words once given name the amount picked (`one`: the words for a single coin)."""
    done = {**answered(N_("Gave {n} coins to the assessor."), n={"field": "amount"}),
            "one": words(N_("Gave 1 coin to the assessor."))}
    return [{"card": None, "prompt": words(N_("Give coins to the assessor")), "options": [
        {"move": {"kind": "give_assessor"}, "label": words(N_("Give")), "done": done,
         "fields": [{"key": "amount", "kind": "number", "min": 1, "max": move["max"]}]}]}
            for move in gift]


def builds_json(story: CoopStory, seat: int, catalog: Catalog) -> Json:
    """This seat's build list: `engine.build_options` (and `not_running_options` before the
    start), made from the base game's lists made once, an establishment the supply has none
    of being one the row does not show."""
    state = story.state
    if state is None:
        return not_running_options(catalog)
    turn = (engine.turn_refusal(state, seat) if story.running or state.outcome is not None
            else NOT_RUNNING)
    return build_list(state.table, seat, catalog, turn, NOT_SHOWN)


def last_assessor_turn(story: CoopStory) -> Json | None:
    """The latest assessor turn (or the end of the final round) as steps a screen can play
    one by one: draw (card, value sought, tax | supplemental | miss | unpaid, amount),
    reshuffle, final_round, end."""
    for move in reversed(story.moves):
        steps = _steps(move)
        if steps:
            return {"move": move.number, "turn": move.before.table.turn, "steps": steps}
    return None


def _steps(move: Played[CoopState, Any]) -> list[Json]:
    steps: list[Json] = []
    for fact in move.facts:
        if isinstance(fact, AssessorCardDrawn):
            steps.append({"step": "draw", "card": fact.card, "sought": fact.sought,
                          "result": fact.result, "amount": fact.amount})
        elif isinstance(fact, AssessorDeckShuffled) and move.author != "dealer":
            steps.append({"step": "reshuffle", "cards": len(fact.order)})
        elif isinstance(fact, FinalRoundBegan):
            steps.append({"step": "final_round"})
        elif isinstance(fact, CoopGameEnded) and (steps or fact.outcome.value == "lost"):
            steps.append({"step": "end", "outcome": fact.outcome.value,
                          "reason": fact.reason.value})
    return steps


def assessor_entries(story: CoopStory) -> list[Json]:
    """The assessor's coin movements since the latest roll (gifts, taxes), like `entries`."""
    return [_entry(story, e) for e in facts_since_roll(story)
            if isinstance(e, AssessorCoinsTransferred)]


def _entry(story: CoopStory, fact: AssessorCoinsTransferred) -> Json:
    return {**parties(story, fact.source, fact.target), "amount": fact.amount,
            "card": fact.card, "kind": fact.kind}


def gift_entry(story: CoopStory, fact: object) -> Json | None:
    """A seat's gift to the assessor as a line of the seat view's `entries`."""
    if isinstance(fact, AssessorCoinsTransferred) and isinstance(fact.source, int):
        return {**parties(story, fact.source, fact.target), "amount": fact.amount,
                "card": fact.card, "copies": 0, "mall_bonus": 0, "forgiven": 0}
    return None


def gift_summary(fact: object, active: int) -> Json | None:
    """A gift's summary for the undone list (the base game's facts say the rest)."""
    if isinstance(fact, AssessorCoinsTransferred) and isinstance(fact.source, int):
        return {"move": "gift", "seat": fact.source, "amount": fact.amount}
    return None
