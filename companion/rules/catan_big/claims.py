"""Victory claims of the Catan event (RULES.md 23-24): a claim's points from its breakdown, with
the caps, and the order of several claims: points, then resource cards in hand, then grain,
ore, brick, wood, wool, then the earlier registration.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.rules.catan_big.errors import BadClaim, OverCap
from companion.rules.catan_big.fields import an_object, boolean, field_name, required, whole, written_out
from companion.rules.coop.scenario import show

WINNING_POINTS = 25
RESOURCES = ("grain", "ore", "brick", "wood", "wool")  # the order of the tie-breaks
TIE_BREAKS = ("points", "resources", *RESOURCES, "registration")  # what can decide a win
CAPS = {"settlements": 5, "cities": 10, "foreign_start_settlements": 5, "vp_cards": 5}
SPECIAL_POINTS = 2  # largest army, longest road


@dataclass(frozen=True)
class Breakdown:
    """A claim's points as RULES.md 23 counts them (within the caps: see `read_breakdown`)."""

    settlements: int
    cities: int
    foreign_start_settlements: int  # +2 each; the bonus stays when the settlement is a city
    vp_cards: int
    largest_army: bool
    longest_road: bool

    @property
    def points(self) -> int:
        return (self.settlements + 2 * self.cities + 2 * self.foreign_start_settlements
                + self.vp_cards + SPECIAL_POINTS * self.largest_army
                + SPECIAL_POINTS * self.longest_road)

    @property
    def wins(self) -> bool:
        """Whether the breakdown is a win: 25 points or more; under it play goes on."""
        return self.points >= WINNING_POINTS


@dataclass(frozen=True)
class Claim:
    """One player's claim: who, when they registered, their breakdown and their hand."""

    name: str
    registered: int  # lower registered earlier
    breakdown: Breakdown
    resources: tuple[int, int, int, int, int]  # grain, ore, brick, wood, wool

    @property
    def points(self) -> int:
        return self.breakdown.points

    @property
    def hand(self) -> int:
        """The resource cards in hand."""
        return sum(self.resources)

    def rank_key(self) -> tuple[int, ...]:
        """Greater is better, one entry per TIE_BREAKS: registration counts negated."""
        return (self.points, self.hand, *self.resources, -self.registered)


@dataclass(frozen=True)
class Verdict:
    """The outcome of one turn's claims."""

    ranking: tuple[Claim, ...]  # best first
    winner: Claim | None  # None when no claim reaches 25
    decided_by: str | None  # one of TIE_BREAKS; None without a winner

    def to_json(self) -> dict[str, Any]:
        return {
            "points": {claim.name: claim.points for claim in self.ranking},
            "winner": None if self.winner is None else self.winner.name,
            "ranking": [claim.name for claim in self.ranking],
            "decided_by": self.decided_by,
        }


def rank(claims: Iterable[Claim]) -> tuple[Claim, ...]:
    """Claims best first (RULES.md 23-24). A total order when registrations differ."""
    return tuple(sorted(claims, key=Claim.rank_key, reverse=True))


def decided_by(winner: Claim, runner_up: Claim | None) -> str:
    """What set `winner` above `runner_up` among the claims of 25 or more: the first tie-break
    in which they differ; `points` when the winner is the only one to reach 25."""
    if runner_up is None or not runner_up.breakdown.wins:
        return "points"
    for tie_break, mine, theirs in zip(TIE_BREAKS, winner.rank_key(), runner_up.rank_key(),
                                       strict=True):
        if mine != theirs:
            return tie_break
    raise BadClaim(f"claims: {winner.name!r} and {runner_up.name!r} cannot be told apart")


def judge(claims: Iterable[Claim]) -> Verdict:
    """The winner of one turn's claims: the best ranked, if it reaches 25 points."""
    ranking = rank(claims)
    if not ranking or not ranking[0].breakdown.wins:
        return Verdict(ranking, None, None)
    runner_up = ranking[1] if len(ranking) > 1 else None
    return Verdict(ranking, ranking[0], decided_by(ranking[0], runner_up))


# ---------------------------------------------------------------- reading inputs


def read_breakdown(data: Mapping[str, Any], where: str = "") -> Breakdown:
    """A breakdown's fields from `data`, each required and within its cap of RULES.md 23
    (OverCap); a foreign start bonus needs a settlement or city that earns it."""
    counts = {
        key: whole(required(data, key, where, BadClaim), field_name(where, key), 0, cap,
                   error=BadClaim, over=OverCap, why=" (RULES.md 23)")
        for key, cap in CAPS.items()
    }
    built = counts["settlements"] + counts["cities"]
    if counts["foreign_start_settlements"] > built:
        name = field_name(where, "foreign_start_settlements")
        raise OverCap(f"{name}: at most the settlements plus cities ({built}), not "
                      f"{counts['foreign_start_settlements']}")
    army, road = (boolean(required(data, key, where, BadClaim), field_name(where, key), BadClaim)
                  for key in ("largest_army", "longest_road"))
    return Breakdown(counts["settlements"], counts["cities"], counts["foreign_start_settlements"],
                     counts["vp_cards"], army, road)


def read_claim(value: Any, where: str) -> Claim:
    """One claim: name, registration number, breakdown and the five kinds of cards in hand."""
    data = an_object(value, where, BadClaim)
    name = read_name(required(data, "name", where, BadClaim), field_name(where, "name"))
    registered = whole(required(data, "registered", where, BadClaim),
                       field_name(where, "registered"), 1, error=BadClaim)
    breakdown = read_breakdown(data, where)
    hand = read_hand(required(data, "resources", where, BadClaim), field_name(where, "resources"))
    return Claim(name, registered, breakdown, hand)


def read_hand(value: Any, name: str = "resources") -> tuple[int, int, int, int, int]:
    """Cards in hand by kind: grain, ore, brick, wood and wool, each a whole number >= 0."""
    hand = an_object(value, name, BadClaim)
    unknown = sorted(str(kind) for kind in set(hand) - set(RESOURCES))
    if unknown:
        raise BadClaim(f"{name}: unknown resource {show(unknown[0])} (known: {', '.join(RESOURCES)})")
    grain, ore, brick, wood, wool = (
        whole(required(hand, kind, name, BadClaim), f"{name}.{kind}", 0, error=BadClaim)
        for kind in RESOURCES)
    return grain, ore, brick, wood, wool


def read_name(value: Any, name: str) -> str:
    """A player's name: non-empty text that can be written out (no lone surrogate)."""
    if not isinstance(value, str):
        raise BadClaim(f"{name}: text is required, not {show(value)}")
    if not value.strip():
        raise BadClaim(f"{name}: a non-empty name is required")
    return written_out(value, name, BadClaim)


def read_claims(value: Any, name: str = "claims") -> tuple[Claim, ...]:
    """At least one claim; names and registration numbers each belong to one player."""
    if not isinstance(value, list):
        raise BadClaim(f"{name}: a list of claims is required, not {show(value)}")
    if not value:
        raise BadClaim(f"{name}: at least one claim is required")
    claims = tuple(read_claim(raw, f"{name}[{i}]") for i, raw in enumerate(value))
    names: dict[str, int] = {}
    registrations: dict[int, int] = {}
    for i, claim in enumerate(claims):
        if claim.name in names:
            raise BadClaim(f"{name}[{i}].name: {show(claim.name)} already claimed as "
                           f"{name}[{names[claim.name]}]")
        if claim.registered in registrations:
            j = registrations[claim.registered]
            raise BadClaim(f"{name}[{i}].registered: {show(claim.registered)} is already "
                           f"{show(claims[j].name)}'s registration number ({name}[{j}])")
        names[claim.name] = i
        registrations[claim.registered] = i
    return claims
