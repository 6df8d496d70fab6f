"""The co-op Tax Assessor's turn (RULES.md 18-19): draw, tax, supplemental tax or miss."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.rules.catalog import Catalog
from companion.rules.errors import RuleError, is_whole_number

ASSESSOR_DECK: Mapping[str, int] = {
    "wheat_field": 2, "ranch": 1, "bakery": 2, "cafe": 1, "convenience_store": 1, "forest": 1,
    "business_center": 1, "stadium": 1, "tv_station": 1, "cheese_factory": 1,
    "furniture_factory": 1, "mine": 1, "family_restaurant": 1, "apple_orchard": 1,
    "fruit_and_vegetable_market": 1,
}
"""The 17 cards the variant takes out of the box for the assessor (seed 004)."""
ASSESSOR_COINS = 13


class AssessorError(RuleError):
    code = "scenario/invalid"


@dataclass(frozen=True, slots=True)
class Tax:
    card: str
    value: int
    amount: int
    kind: str  # "tax" (the card joined the array) or "supplemental"


@dataclass(frozen=True, slots=True)
class AssessorTurn:
    """What one assessor turn did; `used` is how many cards came off the deck."""

    coins: int
    taxes: tuple[Tax, ...]
    assessed: tuple[str, ...]
    discarded: tuple[str, ...]
    reshuffled: bool
    result: str  # continue | final_round | lost
    used: int


def card_values(catalog: Catalog, card: str) -> tuple[int, ...]:
    """A card's assessor values are its activation numbers (Bakery 2 or 3, ...)."""
    return catalog.establishment(card).activation


def last_value(catalog: Catalog) -> int:
    return max(max(card_values(catalog, card)) for card in ASSESSOR_DECK)


@dataclass(frozen=True, slots=True)
class Draw:
    """What one drawn card means when `sought` is the value sought (RULES.md 18)."""

    kind: str  # "tax" (it can be the value sought), "supplemental" (all values below), "miss"
    value: int  # the tax's amount; 0 for a miss
    last: bool  # a tax on the last value: the final round begins (RULES.md 19)


def classify(catalog: Catalog, card: str, sought: int) -> Draw:
    """Tax when the card can be the value sought, a supplemental tax of its lowest value when
    all its values are below it, otherwise a miss."""
    values = card_values(catalog, card)
    if sought in values:
        return Draw("tax", sought, max(values) == last_value(catalog))
    if max(values) < sought:
        return Draw("supplemental", min(values), False)
    return Draw("miss", 0, False)


def assessor_turn(
    catalog: Catalog, coins: int, assessed: Sequence[str], draws: Sequence[str],
) -> AssessorTurn:
    """Play one assessor turn from the top of the deck `draws`; at most two cards are used."""
    sought = len(assessed) + 1
    discarded: list[str] = []
    for used, card in enumerate(draws[:2], start=1):
        draw = classify(catalog, card, sought)
        if draw.kind != "miss" and coins < draw.value:
            return AssessorTurn(coins, (), tuple(assessed), tuple(discarded), False, "lost", used)
        if draw.kind == "tax":
            return AssessorTurn(
                coins - draw.value, (Tax(card, sought, draw.value, "tax"),), (*assessed, card),
                tuple(discarded), True, "final_round" if draw.last else "continue", used,
            )
        if draw.kind == "supplemental":
            tax = Tax(card, draw.value, draw.value, "supplemental")
            return AssessorTurn(
                coins - draw.value, (tax,), tuple(assessed), (*discarded, card), False,
                "continue", used,
            )
        discarded.append(card)
    if len(discarded) < 2:
        raise AssessorError("draws: after a miss the assessor draws a second card; none is left")
    return AssessorTurn(coins, (), tuple(assessed), tuple(discarded), False, "continue", 2)


def resolve_assessor_scenario(scenario: Mapping[str, Any], catalog: Catalog) -> dict[str, Any]:
    """The Tax Assessor turn form of SCENARIOS.md."""
    coins = scenario.get("coins")
    if not is_whole_number(coins) or coins < 0:
        raise AssessorError(f"coins: a whole number >= 0 is required, not {coins!r}")
    assessed = _card_list(scenario, "assessed")
    draws = _card_list(scenario, "draws")
    if not draws:
        raise AssessorError("draws: at least one card is required")
    for i, card in enumerate(assessed):
        if i + 1 not in card_values(catalog, card):
            raise AssessorError(f"assessed[{i}]: {card!r} cannot be the tax of {i + 1}")
        if max(card_values(catalog, card)) == last_value(catalog):
            raise AssessorError(f"assessed[{i}]: the last value is assessed: the game is over")
    for card, copies in ASSESSOR_DECK.items():
        if (assessed + draws).count(card) > copies:
            raise AssessorError(f"draws: the assessor's deck has {copies} {card!r}, not more")
    turn = assessor_turn(catalog, coins, assessed, draws)
    return {
        "coins": turn.coins,
        "taxes": [
            {"card": t.card, "value": t.value, "amount": t.amount, "kind": t.kind}
            for t in turn.taxes
        ],
        "assessed": list(turn.assessed),
        "discarded": list(turn.discarded),
        "reshuffled": turn.reshuffled,
        "result": turn.result,
    }


def _card_list(scenario: Mapping[str, Any], key: str) -> list[str]:
    if key not in scenario:
        raise AssessorError(f"{key}: missing")
    cards = scenario[key]
    if not isinstance(cards, list):
        raise AssessorError(f"{key}: a list of card ids is required")
    for i, card in enumerate(cards):
        if not isinstance(card, str) or card not in ASSESSOR_DECK:
            raise AssessorError(f"{key}[{i}]: {card!r} is not an assessor card")
    return list(cards)
