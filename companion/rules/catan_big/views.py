"""What the screens show of a board of the big Catan event (DESIGN.md "Views"): the players with
their roles, colours, points and claims; a seat's tracker, claim and whether it may claim (with
the reason, a stable code the page translates); the hall's tile; the standings' rows. Pure
functions of a `Story`, the hall's memory of a board; they decide nothing the rules do not."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.rules.catan_big.claims import CAPS, RESOURCES, SPECIAL_POINTS, WINNING_POINTS, Breakdown
from companion.rules.catan_big.codec import breakdown_json
from companion.rules.catan_big.engine import CLAIM_PENDING, GAME_OVER, NOT_STARTED, UNDER_25
from companion.rules.catan_big.state import (
    COLOURS,
    ROLES,
    START,
    BoardState,
    Hand,
    SeatClaim,
    SeatState,
    hand_json,
)
from companion.rules.paper import competition_ranks
from companion.rules.ruleset import N_, Json, Result, Story

BoardStory = Story[BoardState, Any]
BREAKDOWN_FIELDS = (*CAPS, "largest_army", "longest_road")
NO_HAND: Hand = (0, 0, 0, 0, 0)
POINTS_EACH = {"settlements": 1, "cities": 2, "foreign_start_settlements": 2, "vp_cards": 1}


@dataclass(frozen=True)
class Figures:
    """A seat's figures as they stand (RULES.md 24): its final breakdown once entered, else its
    verified claim, else its tracker; `verified` when the staff verified or set them."""

    breakdown: Breakdown
    verified: bool
    corrected: str | None  # the staff's reason, when they set these figures
    resources: Hand | None  # cards in hand, as entered or counted

    @property
    def points(self) -> int:
        return self.breakdown.points

    @property
    def hand(self) -> Hand:
        return self.resources or NO_HAND


def figures(seat: SeatState) -> Figures:
    claim = seat.claim if seat.verified else None
    counted = None if claim is None else claim.resources
    if seat.final is not None:
        final = seat.final
        verified = final.corrected is not None or (claim is not None
                                                   and claim.breakdown == final.breakdown)
        hand = final.resources if final.resources is not None else counted
        return Figures(final.breakdown, verified, final.corrected, hand)
    if claim is not None:
        return Figures(claim.breakdown, True, None, counted)
    return Figures(seat.tracker, seat.corrected is not None, seat.corrected, None)


def registered(story: BoardStory, seat: int) -> int | None:
    """The seat's registration number, when the hall knows it."""
    return story.registered[seat] if seat < len(story.registered) else None


def neighbours(story: BoardStory) -> list[str]:
    """The boards to the left and right in the event's chain ("" at an end, or unknown)."""
    return [*story.neighbours, "", ""][:2]


def claim_json(claim: SeatClaim | None, full: bool = False) -> Json | None:
    """A claim as the players' list shows it; `full`: with its breakdown (the seat's own view)."""
    if claim is None:
        return None
    shown: Json = {"status": claim.status, "points": claim.breakdown.points, "turn": claim.turn,
                   "reason": claim.reason}
    if full:
        shown["breakdown"] = breakdown_json(claim.breakdown)
    return shown


# ---------------------------------------------------------------- a board's views


def common_json(story: BoardStory, result: Result | None) -> Json:
    """Every seat's shared fields: the board, its neighbours, the players, the game's end."""
    state = story.state
    return {"board": None if state is None else state.letter, "neighbours": neighbours(story),
            "players": [player_json(story, seat) for seat in range(len(story.names))],
            "over": state is not None and state.over,
            "result": None if result is None else result.json()}


def player_json(story: BoardStory, seat: int) -> Json:
    state = story.state
    if state is None or seat >= len(state.seats):
        return {"name": story.names[seat], "role": role(seat), "colour": None,
                "registered": registered(story, seat), "points": START.points, "verified": False,
                "claim": None}
    found = figures(state.seats[seat])
    return {"name": story.names[seat], "role": role(seat), "colour": state.colours[seat],
            "registered": registered(story, seat), "points": found.points,
            "verified": found.verified, "claim": claim_json(state.seats[seat].claim)}


def role(seat: int) -> str | None:
    return ROLES[seat] if seat < len(ROLES) else None


def seat_json(story: BoardStory, seat: int) -> Json:
    """One seat's own fields: its tracker, claim, final breakdown, and what it may do now."""
    state = story.state
    own = None if state is None or seat >= len(state.seats) else state.seats[seat]
    tracker = START if own is None else own.tracker
    reason = claim_reason(story, seat)
    over = state is not None and state.over
    return {
        "role": role(seat), "colour": None if state is None else state.colours[seat],
        "tracker": {"breakdown": breakdown_json(tracker), "points": tracker.points,
                    "corrected": None if own is None else own.corrected},
        "claim": None if own is None else claim_json(own.claim, full=True),
        "can_claim": {"open": reason is None, "reason": reason},
        "can_track": story.running and state is not None and not over,
        "can_final": story.running and over,
        "final": None if own is None else final_json(own),
        "caps": dict(CAPS),
    }


def claim_reason(story: BoardStory, seat: int) -> str | None:
    """Why the seat's claim button is closed, as far as the board knows (the team on turn is
    the event's: the turn message says it and the server judges it when the claim arrives)."""
    state = story.state
    if state is not None and (state.over or state.decided):
        return GAME_OVER
    if state is None or not story.running:
        return NOT_STARTED
    own = state.seats[seat]
    if own.pending:
        return CLAIM_PENDING
    if own.tracker.points < WINNING_POINTS:
        return UNDER_25
    return None


def final_json(seat: SeatState) -> Json | None:
    if seat.final is None:
        return None
    final = seat.final
    return {"breakdown": breakdown_json(final.breakdown), "points": final.breakdown.points,
            "resources": hand_json(final.resources), "corrected": final.corrected}


def tile_json(story: BoardStory) -> Json:
    """A board's tile of the hall screen: letter, names, roles, colours, points, claims."""
    state = story.state
    seats = () if state is None else state.seats
    return {"board": None if state is None else state.letter, "names": list(story.names),
            "roles": [role(seat) for seat in range(len(story.names))],
            "colours": [None if state is None else state.colours[seat]
                        for seat in range(len(story.names))],
            # before the start every player stands at the start's 4 points (RULES.md 24)
            "points": ([figures(own).points for own in seats] if state is not None
                       else [START.points] * len(story.names)),
            "claims": [None if own.claim is None else own.claim.status for own in seats],
            "over": state is not None and state.over}


CONSOLE_WORDS = {
    # The console's general words (its English message ids) as a Catan event says them: a
    # table is a board of two, Sun and Moon; a seat's figures are its points and claim, and a
    # board has no coins to correct (the staff correct points in the Catan part). "" hides.
    "Table {n}": N_("Board {n}"),
    "Table": N_("Board"),
    "Tables": N_("Boards"),
    "Table name": N_("Board name"),
    "Split into tables of at most": N_("Boards of two players, Sun and Moon"),
    "All at one table named": N_("One board named"),
    "Ready to roll": N_("In the hall's turn"),
    "Seat": N_("Team"),
    "Players and coins": N_("Players and points"),
    "Coins": N_("Points"),
    "Landmarks": N_("Claim"),
    "Correct the coins": "",
    "role:sun": N_("Sun"),
    "role:moon": N_("Moon"),
    "claim:pending": N_("waiting for the staff"),
    "claim:verified": N_("verified"),
    "claim:rejected": N_("rejected"),
    "Set-up options": N_("Letter and colours"),
    "A started table keeps its set-up options.":
        N_("A started board keeps its letter and colours: they are set before its start."),
    "The table has started: it keeps its set-up options.":
        N_("This board has started: it keeps its letter and colours (they are set before a "
           "board's start)."),
    "Opening seconds of a turn": N_("Production (seconds, no trading)"),
    "Choose a table in the list to see its players, links, corrections and journal.":
        N_("Choose a board in the list to see its players, links and journal."),
    "Options per table, one line a table":
        N_("Each board's letter and colours, one line a board in the list's order (A red blue)"),
}
"""The console's general words in a Catan event (the web layer translates them)."""


def page_data() -> Json:
    """What the pages need beyond the views: the breakdown's fields with their points and caps,
    the resources in tie-break order, the points that win, the colours."""
    counts = [{"id": key, "kind": "count", "max": cap, "points": POINTS_EACH[key]}
              for key, cap in CAPS.items()]
    flags = [{"id": key, "kind": "flag", "points": SPECIAL_POINTS}
             for key in ("largest_army", "longest_road")]
    return {"catan": {"fields": counts + flags, "caps": dict(CAPS), "resources": list(RESOURCES),
                      "winning_points": WINNING_POINTS, "colours": list(COLOURS)},
            "console_words": dict(CONSOLE_WORDS)}


# ---------------------------------------------------------------- standings of a board


def board_places(story: BoardStory) -> tuple[int, ...]:
    """Each seat's place at the board were the game over now: a verified claim first, then
    points, cards in hand, grain, ore, brick, wood, wool, the earlier registration."""
    state = story.state
    assert state is not None
    keys = []
    for seat, own in enumerate(state.seats):
        found = figures(own)
        later = registered(story, seat)
        keys.append((int(own.verified), found.points, sum(found.hand), *found.hand,
                     -(seat if later is None else later)))
    return tuple(competition_ranks(keys))


def result(state: BoardState) -> Result | None:
    """How the game ended at this board, once it is over: a seat whose claim the staff verified
    "won" (with several verified claims in one turn the event's winner is `event_view`'s)."""
    if not state.over:
        return None
    outcomes = tuple("won" if own.verified else "lost" for own in state.seats)
    reason = "claim_verified" if state.decided else "ended"
    keys = [(int(own.verified), figures(own).points) for own in state.seats]
    return Result(reason, outcomes, tuple(competition_ranks(keys)))


def standings_rows(story: BoardStory) -> list[Json]:
    """One row per seat in the score columns (the breakdown, then `points`), with the cards in
    hand for the tie-breaks, whether the figures are verified, the outcome and, once the game
    is over, the place at the board."""
    state = story.state
    rows = []
    places = board_places(story) if state is not None and state.over else None
    outcome = None if state is None else result(state)
    for seat, name in enumerate(story.names):
        found = figures(state.seats[seat]) if state is not None else None
        breakdown = START if found is None else found.breakdown
        # Cards in hand not entered yet print as blanks on the sheets, not as 0.
        hand: tuple[int | None, ...] = (
            found.hand if found is not None and found.resources is not None
            else (None,) * len(RESOURCES))
        rows.append({
            "seat": seat, "name": name, "role": role(seat), "registered": registered(story, seat),
            **columns_of(breakdown),
            "verified": found is not None and found.verified,
            "corrected": None if found is None else found.corrected,
            "hand": None if None in hand else sum(h or 0 for h in hand),
            **dict(zip(RESOURCES, hand, strict=True)),
            "outcome": None if outcome is None else outcome.outcomes[seat],
            "place": None if places is None else places[seat],
        })
    return rows


def columns_of(breakdown: Breakdown) -> Json:
    """A breakdown in the score columns: the counts, the two specials' points (2 or 0), the
    total as `points`."""
    return {"settlements": breakdown.settlements, "cities": breakdown.cities,
            "foreign_start_settlements": breakdown.foreign_start_settlements,
            "vp_cards": breakdown.vp_cards,
            "largest_army": SPECIAL_POINTS * breakdown.largest_army,
            "longest_road": SPECIAL_POINTS * breakdown.longest_road,
            "points": breakdown.points}
