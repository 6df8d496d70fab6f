"""What a seat asks the referee to do. Dice values are inputs: the service draws them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ChooseDice:
    """Roll 1 or 2 dice from now on (2 needs a Train Station); kept until changed."""

    count: int


@dataclass(frozen=True, slots=True)
class Roll:
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class KeepRoll:
    """A Radio Tower owner keeps the first roll."""


@dataclass(frozen=True, slots=True)
class Reroll:
    """A Radio Tower owner rolls again with the same number of dice; only this roll counts."""

    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AddTwo:
    """A Harbor owner adds 2 to a total of 10 or more, or not (`add`)."""

    add: bool


@dataclass(frozen=True, slots=True)
class TargetTvStation:
    target: int


@dataclass(frozen=True, slots=True)
class SwapEstablishments:
    """Business Center: give one of the roller's non-purple cards for one of another's."""

    other: int
    give: str
    take: str


@dataclass(frozen=True, slots=True)
class DeclineSwap:
    """Business Center: no swap."""


@dataclass(frozen=True, slots=True)
class Build:
    """Buy one establishment from the supply or build one landmark."""

    card: str


@dataclass(frozen=True, slots=True)
class EndTurn:
    pass


Move = (
    ChooseDice | Roll | KeepRoll | Reroll | AddTwo | TargetTvStation | SwapEstablishments | DeclineSwap
    | Build | EndTurn
)
