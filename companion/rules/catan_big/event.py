"""The big Catan event as one game over all its boards (RULES.md 21-24): what the shared roll
announces, when the hall waits or stops, the claims being verified, the winner with what decided
it, and the event's standings. Pure functions of the boards' stories and the latest hall turn."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.rules.catan_big.claims import Claim, decided_by
from companion.rules.catan_big.codec import breakdown_json
from companion.rules.catan_big.errors import BadClaim, ClaimsPending
from companion.rules.catan_big.state import BoardState, SeatState, hand_json
from companion.rules.catan_big.turns import announce, is_discard_roll, robbers_move, team_of
from companion.rules.catan_big.views import BoardStory, Figures, figures, registered, role
from companion.rules.paper import competition_ranks
from companion.rules.ruleset import HallTurn, Json

ROBBERS_DICE = 2  # the robbers' second roll (RULES.md 22)
UNREGISTERED = 10**9  # after every registration number: a seat the hall gave none ranks last


def follow_up_dice(number: int, dice: tuple[int, int]) -> int:
    """The robbers' roll after a 7 from turn 16 on; no other roll asks for more dice."""
    return ROBBERS_DICE if is_discard_roll(dice) and robbers_move(number) else 0


def pauses_after(turn: HallTurn) -> bool:
    """After a 7 the automatic roll waits for the organizer (the discard check takes time)."""
    return is_discard_roll(turn.dice)


def turn_view(turn: HallTurn) -> Json:
    """The turn's announcement for every screen and phone: the team on turn, the discard check,
    the robbers' instruction (null while the robbers' roll the rules ask for is missing: the
    hall draws it with the roll, so only a view made in between sees that)."""
    robber_dice = turn.follow_up if len(turn.follow_up) == ROBBERS_DICE else None
    if robber_dice is None and follow_up_dice(turn.number, turn.dice):
        return {"team": team_of(turn.number), "discard": True, "robber": None}
    return announce(turn.number, turn.dice, robber_dice).to_json()


def hall_over(states: Sequence[BoardState | None]) -> bool:
    """Whether the hall rolls no more: a claim is verified (its turn ended when the next roll is
    asked) or the game is over."""
    return any(state is not None and (state.over or state.decided) for state in states)


def check_turn_ends(stories: Mapping[str, BoardStory]) -> None:
    """ClaimsPending while a claim waits for the staff (RULES.md 23): the turn cannot end
    before they verify or reject it, so no claim of a turn is left unjudged."""
    waiting = [entry.name for entry in entries(stories) if entry.own.pending]
    if waiting:
        raise ClaimsPending(f"claims: the staff are still checking the claims of "
                            f"{', '.join(waiting)}: verify or reject them before the next roll")


# ---------------------------------------------------------------- the event's view


@dataclass(frozen=True)
class Entry:
    """One seat of the event: where it sits, who, and its state at its board."""

    table: str
    order: int  # the board's place in the event's tables, then the seat: the last tie-break
    seat: int
    name: str
    board: str
    registered: int | None
    own: SeatState

    @property
    def rank_registration(self) -> int:
        return UNREGISTERED + self.order if self.registered is None else self.registered

    def json(self) -> Json:
        return {"table": self.table, "board": self.board, "seat": self.seat, "name": self.name,
                "role": role(self.seat), "registered": self.registered}

    def as_claim(self) -> Claim:
        """Its verified claim as the claims' ranking reads it."""
        claim = self.own.claim
        assert claim is not None and claim.resources is not None
        return Claim(self.name, self.rank_registration, claim.breakdown, claim.resources)


def entries(stories: Mapping[str, BoardStory]) -> list[Entry]:
    found = []
    for index, (table, story) in enumerate(stories.items()):
        state = story.state
        if state is None:
            continue
        for seat, own in enumerate(state.seats):
            found.append(Entry(table, 2 * index + seat, seat, story.names[seat], state.letter,
                               registered(story, seat), own))
    return found


def event_view(stories: Mapping[str, BoardStory]) -> Json:
    """The claims waiting for the staff (oldest turn first), the verified ones, whether the game
    is over (`ending`: a claim is verified, the game ends with this turn), the winner with what
    decided it, and once it is over the standings."""
    seats = entries(stories)
    over = any(story.state is not None and story.state.over for story in stories.values())
    # Once the game is over no claim waits for the staff any more (it can no longer win).
    pending = [] if over else sorted((e for e in seats if e.own.pending), key=claim_order)
    verified = sorted((e for e in seats if e.own.verified), key=claim_order)
    winner = winner_of(verified) if over else None
    shown: Json = {"claims": [claim_entry(e) for e in pending],
                   "verified": [claim_entry(e, counted=True) for e in verified],
                   "over": over, "ending": bool(verified) and not over,
                   "winner": None if winner is None else winner[0]}
    if over:
        shown["standings"] = standings(seats, None if winner is None else winner[1])
    return shown


def claim_order(entry: Entry) -> tuple[int, int]:
    claim = entry.own.claim
    assert claim is not None
    return claim.turn, entry.order


def claim_entry(entry: Entry, counted: bool = False) -> Json:
    claim = entry.own.claim
    assert claim is not None
    shown = {**entry.json(), "points": claim.breakdown.points,
             "breakdown": breakdown_json(claim.breakdown), "turn": claim.turn}
    if counted:
        shown["resources"] = hand_json(claim.resources)
        shown["verified_turn"] = claim.verified_turn
    return shown


def winner_of(verified: list[Entry]) -> tuple[Json, Entry] | None:
    """The best of the claims verified in the first turn any was (RULES.md 23): most points,
    then cards in hand, grain, ore, brick, wood, wool, the earlier registration."""
    if not verified:
        return None
    first = min(e.own.claim.verified_turn or 0 for e in verified if e.own.claim is not None)
    contest = sorted((e for e in verified if e.own.claim is not None
                      and (e.own.claim.verified_turn or 0) == first),
                     key=lambda e: e.as_claim().rank_key(), reverse=True)
    best = contest[0]
    runner_up = contest[1].as_claim() if len(contest) > 1 else None
    try:
        why = decided_by(best.as_claim(), runner_up)
    except BadClaim:  # two seats with one registration number: the table order decided
        why = "registration"
    return {**best.json(), "points": best.as_claim().points, "decided_by": why}, best


def standings(seats: list[Entry], winner: Entry | None) -> list[Json]:
    """Every seat ranked (RULES.md 24): the winner first, then by points, cards in hand, grain,
    ore, brick, wood, wool, the earlier registration; unverified figures say so."""
    found = [(entry, figures(entry.own)) for entry in seats]
    keys = [standing_key(entry, shown, entry is winner) for entry, shown in found]
    places = competition_ranks(keys)
    ranked = sorted(zip(places, found, strict=True), key=lambda pair: pair[0])
    return [standing_row(place, entry, shown) for place, (entry, shown) in ranked]


def standing_key(entry: Entry, shown: Figures, won: bool) -> tuple[int, ...]:
    hand = shown.hand
    return (int(won), shown.points, sum(hand), *hand, -entry.rank_registration)


def standing_row(place: int, entry: Entry, shown: Figures) -> dict[str, Any]:
    return {"place": place, **entry.json(), "points": shown.points, "verified": shown.verified,
            "corrected": shown.corrected, "breakdown": breakdown_json(shown.breakdown),
            "resources": hand_json(shown.resources)}
