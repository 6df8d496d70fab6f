"""The base game's cards as a Legacy campaign's catalog: what a group starts from when it has
no card list yet (the console's "start from the base game's cards"), named in every language
the product knows them in. Its establishments, with the Wheat Field and the Bakery as the
starting cards every player has; its four landmarks, lettered A-D in the box's order. The base
game has no community landmark: the group adds the one its box gives before game 1."""

from __future__ import annotations

from typing import Any

from companion.rules.legacy.entries import LABELS, PER_FIELDS
from companion.rules.machi_koro.catalog import Establishment, Landmark, load_catalog

BASE = "base"
"""The name a new campaign's `catalog` takes instead of a card list (docs/api.md)."""
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def base_catalog_json() -> dict[str, Any]:
    """The base set's cards as catalog JSON (`parse_catalog` reads it)."""
    box = load_catalog(BASE)
    return {
        "establishments": [_establishment(card) for card in box.establishments.values()],
        "landmarks": [_landmark(card, _LETTERS[index])
                      for index, card in enumerate(box.landmarks.values())],
        "community": [],
        "starting_coins": box.starting_coins,
        "bank_coins": box.bank_coins,
    }


def _establishment(card: Establishment) -> dict[str, Any]:
    effect: dict[str, Any] = {"kind": card.effect}
    if card.effect != "swap":
        effect["amount"] = card.amount
    if card.per is not None:
        field = next(name for name, kind in PER_FIELDS.items() if kind == card.per.kind)
        effect["per"] = {field: card.per.value, "unique": card.per.unique}
    return {"id": card.id, "names": dict(card.names), "colour": card.colour,
            "activation": list(card.activation), "cost": card.cost, "label": card.icon,
            "effect": effect, "copies": card.copies, "town_square": card.starting > 0,
            "requires_landmark": card.requires_landmark}


def _landmark(card: Landmark, letter: str) -> dict[str, Any]:
    effect: dict[str, Any] = {"kind": card.effect}
    if card.effect == "mall_bonus":
        effect.update(amount=card.amount,
                      labels=[label for label in LABELS if label in card.bonus_icons])
    return {"id": card.id, "names": dict(card.names), "letter": letter, "cost": card.cost,
            "effect": effect}
