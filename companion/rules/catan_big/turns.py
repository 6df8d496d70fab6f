"""A hall turn of the Catan event (RULES.md 21-22): the team on turn, the turn time from the
organizer's schedule, the discard check and the robbers' instruction on a 7.

A hall turn is one roll. Dice are inputs (STYLE.md 4): the service draws or the staff enter
them; nothing here is random.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from companion.rules import schedule
from companion.rules.catan_big.errors import BadDice, BadSchedule, BadTurn, RobberRollMissing
from companion.rules.catan_big.fields import a_list, whole
from companion.rules.coop.scenario import show
from companion.rules.errors import is_whole_number
from companion.rules.schedule import Schedule, seconds_for

Team = Literal["sun", "moon"]
RobberAction = Literal["stay", "move", "move_one", "desert"]

SUN: Team = "sun"
MOON: Team = "moon"
ROBBERS_MOVE_FROM = 16  # RULES.md 22: a 7 in turns 1-15 leaves the robbers where they are
SEVEN = 7
DISCARD_FROM = 8  # a hand of 8 or more cards discards half, rounded down
LONE_NUMBERS = (2, 12)  # once per board: one robber goes there, the other to its desert


def team_of(turn: int) -> Team:
    """The team whose turn `turn` is: turn 1 is the Sun team's (seed 2.6), then they alternate."""
    return SUN if turn % 2 == 1 else MOON


def robbers_move(turn: int) -> bool:
    """Whether a 7 in `turn` asks for the robbers' second roll (from turn 16 on)."""
    return turn >= ROBBERS_MOVE_FROM


def is_discard_roll(dice: Sequence[int]) -> bool:
    """Whether the roll asks every player for the discard check: a 7, in any turn."""
    return sum(dice) == SEVEN


def discards(hand: int) -> int:
    """How many cards a hand of `hand` cards discards on a 7: half of 8 or more, rounded down."""
    return hand // 2 if hand >= DISCARD_FROM else 0


@dataclass(frozen=True)
class RobberInstruction:
    """What the hall screen tells every board about the robbers after a 7."""

    action: RobberAction
    number: int | None = None  # the tile number for `move` and `move_one`

    def to_json(self) -> dict[str, Any]:
        if self.number is None:
            return {"action": self.action}
        return {"action": self.action, "number": self.number}


def robber_instruction(turn: int, dice: Sequence[int],
                       robber_dice: Sequence[int] | None) -> RobberInstruction | None:
    """The robbers' instruction for a roll (RULES.md 22): None without a 7; `stay` in turns
    1-15; from turn 16 the second roll's total: 3-11 moves every robber to that number, 2 or 12
    one robber (the other stays on or returns to its desert), another 7 sends all home."""
    if not is_discard_roll(dice):
        return None
    if not robbers_move(turn):
        return RobberInstruction("stay")
    if robber_dice is None:
        raise RobberRollMissing(
            f"robber_dice: required when the roll is 7 from turn {ROBBERS_MOVE_FROM} on "
            f"(turn {show(turn)})"
        )
    total = sum(robber_dice)
    if total == SEVEN:
        return RobberInstruction("desert")
    if total in LONE_NUMBERS:
        return RobberInstruction("move_one", total)
    return RobberInstruction("move", total)


# ---------------------------------------------------------------- reading inputs


def read_turn(value: Any, name: str = "turn") -> int:
    """A hall turn number, from 1."""
    return whole(value, name, 1, error=BadTurn)


def read_dice(value: Any, name: str = "dice") -> tuple[int, int]:
    """Two dice, each 1 to 6: every roll of the event is a two-dice roll."""
    dice = a_list(value, name, BadDice)
    if len(dice) != 2:
        raise BadDice(f"{name}: two dice are required, not {show(value)}")
    first, second = (_die(die, f"{name}[{i}]") for i, die in enumerate(dice))
    return first, second


def _die(value: Any, name: str) -> int:
    if not is_whole_number(value) or not 1 <= value <= 6:
        raise BadDice(f"{name}: a die shows a whole number from 1 to 6, not {show(value)}")
    return value


# ---------------------------------------------------------------- the announcement


@dataclass(frozen=True)
class Announcement:
    """What the hall screen tells every board at the start of a turn."""

    turn: int
    team: Team
    discard: bool
    robber: RobberInstruction | None
    seconds: int | None  # None when no schedule is set

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "team": self.team,
            "discard": self.discard,
            "robber": None if self.robber is None else self.robber.to_json(),
        }
        if self.seconds is not None:
            out["seconds"] = self.seconds
        return out


def announce(turn: int, dice: Sequence[int], robber_dice: Sequence[int] | None = None,
             schedule: Schedule | None = None) -> Announcement:
    """The announcement of `turn` with its roll (and the robbers' roll, used only when a 7 from
    turn 16 on asks for it)."""
    return Announcement(
        turn=turn,
        team=team_of(turn),
        discard=is_discard_roll(dice),
        robber=robber_instruction(turn, dice, robber_dice),
        seconds=None if schedule is None else seconds_for(schedule, turn),
    )


def read_schedule(value: Any, name: str = "schedule") -> Schedule:
    """The organizer's `[first turn, seconds]` steps (companion/rules/schedule.py), refused as
    this ruleset's `catan/bad_schedule`."""
    return schedule.read_schedule(value, name, BadSchedule)
