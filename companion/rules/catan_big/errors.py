"""Refusals of the Catan event's rules core: one class per stable code, a message that starts
with the field it names and stays one line whatever the input quotes."""

from __future__ import annotations

from companion.rules.errors import BadInput, BadMove, GameOver, NotYourTurn, RuleError, one_line


class CatanError(RuleError):
    """An input the Catan event's rules refuse; the message starts with the field."""

    code = "catan/invalid"

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))


class CatanInputError(CatanError, BadInput):
    """An input wrong in itself (a field out of range), not in its moment: 400 at the web."""

    code = "catan/invalid"


class BadTurn(CatanInputError):
    code = "catan/bad_turn"


class BadDice(CatanInputError):
    code = "catan/bad_dice"


class RobberRollMissing(CatanError):
    """A 7 from turn 16 on without the robbers' second roll (RULES.md 22)."""

    code = "catan/robber_roll_missing"


class BadSchedule(CatanInputError):
    code = "catan/bad_schedule"


class BadClaim(CatanInputError):
    code = "catan/bad_claim"


class OverCap(BadClaim):
    """A breakdown over a cap of RULES.md 23."""

    code = "catan/over_cap"


# ---------------------------------------------------------------- moves at a board (DESIGN.md)


class NotStarted(CatanError):
    """A claim before the event's first roll: no turn yet, so no team on turn."""

    code = "catan/not_started"


class TurnClosing(CatanError):
    """A claim once the turn is ending (RULES.md 21: play runs until the time is up); it would
    hold the turn (RULES.md 23: the staff verify claims during the turn)."""

    code = "catan/turn_closing"


class ClaimPending(CatanError):
    """A second claim while this seat's claim waits for the staff."""

    code = "catan/claim_pending"


class Under25(CatanError):
    """A claim under 25 points is no win (RULES.md 23): play goes on."""

    code = "catan/under_25"


class NoClaim(CatanError):
    """A verification or rejection of a seat with no pending claim."""

    code = "catan/no_claim"


class NotOver(CatanError):
    """A final breakdown before the game is over (RULES.md 24)."""

    code = "catan/not_over"


class NoCoins(CatanError):
    """A coin correction: the Catan event tracks no coins and no resources (RULES.md 20)."""

    code = "catan/no_coins"


class OffTurn(CatanError, NotYourTurn):
    """A claim off the player's team's turn (RULES.md 21, 23): the shared code of every game."""

    code = "rule/not_your_turn"


class Over(CatanError, GameOver):
    """A move that only counts while the game runs, made after it is over."""

    code = "rule/game_over"


class BadBoardMove(CatanError, BadMove):
    """A move at a board the rules do not know, or one with a missing or malformed field."""

    code = "move/invalid"


class ClaimsPending(CatanError):
    """The hall's next roll while a claim of this turn waits for the staff (RULES.md 23: they
    verify claims during the turn, and all of a turn's verified claims are judged together)."""

    code = "catan/claims_pending"
