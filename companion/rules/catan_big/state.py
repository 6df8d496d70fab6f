"""A board of the big Catan event as the rules keep it (RULES.md 20-24): its letter, the two
seats' colours, each seat's points tracker, its latest victory claim and its final breakdown,
and whether the event's game is over. No resources, no turn: the turn is the event's (the hall's
roll), and the app tracks no Catan resources.

Frozen values; `engine.evolve` makes the next state from a fact.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from companion.rules.catan_big.claims import RESOURCES, Breakdown
from companion.rules.catan_big.turns import MOON, SUN, Team
from companion.rules.ruleset import N_

ROLES: tuple[Team, Team] = (SUN, MOON)  # seat 0 is Sun's, seat 1 Moon's
LETTERS = ("A", "B", "C")  # the three printed boards
COLOURS = (N_("red"), N_("blue"), N_("white"), N_("orange"), N_("green"), N_("brown"))
"""The players' colours (set-up options): marked, as the console shows them translated."""
DEFAULT_COLOURS = ("red", "blue")  # Sun's, Moon's
REASON_MAX = 200  # a staff's reason, in characters

Status = Literal["pending", "verified", "rejected"]
Hand = tuple[int, int, int, int, int]  # cards in hand: grain, ore, brick, wood, wool

NOTHING = Breakdown(0, 0, 0, 0, False, False)
START = Breakdown(2, 1, 0, 0, False, False)
"""Where every points tracker starts (RULES.md 24): two settlements and a city, 4 points. A
tracker record stores the whole breakdown, so journals from before replay as they counted."""


@dataclass(frozen=True, slots=True)
class SeatClaim:
    """A seat's latest victory claim: its breakdown, the hall turn it was made in, and what the
    staff made of it (the cards in hand they counted when they verified it, or the reason they
    rejected it)."""

    status: Status
    breakdown: Breakdown
    turn: int
    reason: str | None = None  # the staff's, when rejected
    resources: Hand | None = None  # counted by the staff, when verified
    verified_turn: int | None = None  # the hall turn it was verified in


@dataclass(frozen=True, slots=True)
class Final:
    """A seat's final breakdown for the standings (RULES.md 24): the player's, or the staff's
    correction of it (`corrected`: the staff's reason)."""

    breakdown: Breakdown
    resources: Hand | None = None
    corrected: str | None = None


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat of a board: the tracker the player keeps up as they build (`corrected`: the
    staff's reason when they set it), the latest claim, the final breakdown."""

    tracker: Breakdown = START
    corrected: str | None = None
    claim: SeatClaim | None = None
    final: Final | None = None

    @property
    def pending(self) -> bool:
        return self.claim is not None and self.claim.status == "pending"

    @property
    def verified(self) -> bool:
        return self.claim is not None and self.claim.status == "verified"


@dataclass(frozen=True, slots=True)
class BoardState:
    """One printed board: its letter, Sun's and Moon's colours, the two seats, and whether the
    event's game is over (the turn of a verified claim has ended, or the organizer ended it)."""

    letter: str
    colours: tuple[str, ...]
    seats: tuple[SeatState, ...]
    over: bool = False
    ended_turn: int | None = None  # the hall turn the game ended in (None: before the first)

    @property
    def decided(self) -> bool:
        """Whether a claim at this board is verified: its game ends with the turn."""
        return any(seat.verified for seat in self.seats)


@dataclass(frozen=True, slots=True)
class BoardSetup:
    """A board's set-up (`CatanBig.table_setup`): its printed letter and Sun's and Moon's
    colours, the one source of what a board starts with and its setup sheet prints."""

    letter: str = LETTERS[0]
    colours: tuple[str, str] = DEFAULT_COLOURS


def board_setup(options: Mapping[str, Any]) -> BoardSetup:
    """The set-up a board's options name, the defaults for any they leave out (the console asks
    a board's seats with none). Not checked again: `check_options` checked them when the table
    was made, and a stored board replays as it started."""
    return BoardSetup(str(options.get("letter", LETTERS[0])),
                      (str(options.get("sun_colour", DEFAULT_COLOURS[0])),
                       str(options.get("moon_colour", DEFAULT_COLOURS[1]))))


def new_board(setup: BoardSetup, seats: int) -> BoardState:
    return BoardState(setup.letter, setup.colours, (SeatState(),) * seats)


def hand_json(hand: Hand | None) -> dict[str, int] | None:
    return None if hand is None else dict(zip(RESOURCES, hand, strict=True))
