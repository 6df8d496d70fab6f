"""The two `catan-big` forms of SCENARIOS.md for `companion resolve`: a turn's announcement and
the victory claims of one turn.

A scenario with `claims` is the claims form, any other the turn's announcement. Every refusal
is a CatanError whose message starts with the field it names. Keys neither form reads (`note`,
`expect`) are ignored; so is `robber_dice` when the roll does not ask for the robbers' roll,
whatever it holds, as a table scenario's answer is ignored when its card does not activate.
"""

from __future__ import annotations

from typing import Any

from companion.rules.catan_big import RULESET
from companion.rules.catan_big.claims import judge, read_claims
from companion.rules.catan_big.errors import BadDice, BadTurn, CatanError
from companion.rules.catan_big.fields import required
from companion.rules.catan_big.turns import (
    announce,
    is_discard_roll,
    read_dice,
    read_schedule,
    read_turn,
    robbers_move,
)
from companion.rules.coop.scenario import show


def resolve(data: dict[str, Any]) -> dict[str, Any]:
    """The outcome of a `catan-big` scenario as SCENARIOS.md prints it; CatanError naming the
    field when it breaks a rule or is malformed."""
    if not isinstance(data, dict):
        raise CatanError(f"scenario: a JSON object is required, not {show(data)}")
    ruleset = required(data, "ruleset")
    if ruleset != RULESET:
        raise CatanError(f"ruleset: {show(RULESET)} is required here, not {show(ruleset)}")
    if "claims" in data:
        return resolve_claims(data)
    return resolve_turn(data)


def resolve_turn(data: dict[str, Any]) -> dict[str, Any]:
    """A turn's announcement: team, discard check, the robbers' instruction, the turn time."""
    turn = read_turn(required(data, "turn", error=BadTurn))
    dice = read_dice(required(data, "dice", error=BadDice))
    robber_dice = None
    if is_discard_roll(dice) and robbers_move(turn) and data.get("robber_dice") is not None:
        robber_dice = read_dice(data["robber_dice"], "robber_dice")
    schedule = None if data.get("schedule") is None else read_schedule(data["schedule"])
    return announce(turn, dice, robber_dice, schedule).to_json()


def resolve_claims(data: dict[str, Any]) -> dict[str, Any]:
    """The victory claims of one turn: points, winner, ranking and what decided the win."""
    read_turn(required(data, "turn", error=BadTurn))
    if "dice" in data:
        raise CatanError("claims: a scenario is a turn's announcement or its claims, not both")
    return judge(read_claims(data["claims"])).to_json()
