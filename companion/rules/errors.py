"""Why a move or an input is refused: one exception class per stable code.

The web layer maps `code` to a translated sentence; the message names the offending value.
"""

from __future__ import annotations

import re
from typing import TypeGuard

# Every character str.splitlines ends a line at (\n, \r, \x0b, \x0c, \x1c-\x1e, \x85, U+2028,
# U+2029) is a control character (\x00-\x1f, \x7f-\x9f) or a line or paragraph separator; a
# lone surrogate cannot be written as UTF-8 at all.
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def one_line(text: str) -> str:
    """`text` with control characters, line separators and lone surrogates escaped as Python
    writes them in a string literal: a refusal is one line whatever names or keys it quotes."""
    return _UNSAFE.sub(lambda found: found[0].encode("unicode_escape").decode("ascii"), text)


def is_whole_number(value: object) -> TypeGuard[int]:
    """Whether `value` is an int: JSON's true (Python's True) is not the number 1, nor is 1.0."""
    return isinstance(value, int) and not isinstance(value, bool)


class RuleError(ValueError):
    """A move or input the rules refuse; nothing changes."""

    code = "rule/invalid"
    bad_input = False

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ScenarioError(RuleError):
    """A scenario (`companion resolve`, SCENARIOS.md) the rules refuse, or cannot read."""

    code = "scenario/invalid"

    def __init__(self, message: str) -> None:
        # Names and the engine's messages are quoted as given: a line break in one must not
        # break the refusal's one line.
        super().__init__(one_line(message))


class BadInput(RuleError):
    """A game's own refusal of an input wrong in itself (a field out of range, a name it does
    not know), not of its moment (a step out of order): the web edge answers 400, not 409."""

    bad_input = True


class NotYourTurn(RuleError):
    code = "rule/not_your_turn"


class WrongPhase(RuleError):
    code = "rule/wrong_phase"


class CannotAfford(RuleError):
    code = "rule/cannot_afford"


class SoldOut(RuleError):
    code = "rule/sold_out"


class AlreadyOwned(RuleError):
    """A second copy of a purple card, or a landmark built twice."""

    code = "rule/already_own"


class UnknownCard(RuleError):
    code = "rule/unknown_card"


class AlreadyBuilt(RuleError):
    """A second build in one turn."""

    code = "rule/already_built"


class BadDice(RuleError):
    code = "rule/bad_dice"


class InvalidChoice(RuleError):
    code = "rule/invalid_choice"


class GameOver(RuleError):
    code = "rule/game_over"


class BadMove(RuleError):
    """A move the rules do not know, or one with missing or malformed fields."""

    code = "move/invalid"


class CatalogError(RuleError):
    """A catalog file (or a card set's name) that cannot be used; the message names file,
    entry and field."""

    code = "rule/bad_catalog"
