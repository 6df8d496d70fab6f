"""The co-op Tax Assessor's cards (seed 004) and what a drawn card means (RULES.md 18): tax,
supplemental tax or miss. The turn itself is `coop.assessor_turn`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.rules.machi_koro.catalog import Catalog

ASSESSOR_DECK: Mapping[str, int] = {
    "wheat_field": 2, "ranch": 1, "bakery": 2, "cafe": 1, "convenience_store": 1, "forest": 1,
    "business_center": 1, "stadium": 1, "tv_station": 1, "cheese_factory": 1,
    "furniture_factory": 1, "mine": 1, "family_restaurant": 1, "apple_orchard": 1,
    "fruit_and_vegetable_market": 1,
}
"""The 17 cards the variant takes out of the box for the assessor (seed 004)."""
ASSESSOR_COINS = 13


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
