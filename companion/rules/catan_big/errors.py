"""Refusals of the Catan event's rules core: one class per stable code, a message that starts
with the field it names and stays one line whatever the input quotes."""

from __future__ import annotations

from companion.rules.coop.scenario import one_line
from companion.rules.errors import RuleError


class CatanError(RuleError):
    """An input the Catan event's rules refuse; the message starts with the field."""

    code = "catan/invalid"

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))


class BadTurn(CatanError):
    code = "catan/bad_turn"


class BadDice(CatanError):
    code = "catan/bad_dice"


class RobberRollMissing(CatanError):
    """A 7 from turn 16 on without the robbers' second roll (RULES.md 22)."""

    code = "catan/robber_roll_missing"


class BadSchedule(CatanError):
    code = "catan/bad_schedule"


class BadClaim(CatanError):
    code = "catan/bad_claim"


class OverCap(BadClaim):
    """A breakdown over a cap of RULES.md 23."""

    code = "catan/over_cap"
