"""Scenario files (`companion resolve`, docs/scenarios.md) written short: `table(P(...), ...)`."""

from __future__ import annotations

from typing import Any

ALL_LANDMARKS = ["train_station", "shopping_mall", "amusement_park", "radio_tower"]


def city(**extra: int) -> dict[str, int]:
    """The starting Wheat Field and Bakery plus `extra` establishments."""
    return {"wheat_field": 1, "bakery": 1, **extra}


def P(name: str, coins: int, cards: dict[str, int] | None = None, landmarks: Any = ()) -> dict:
    return {"name": name, "coins": coins, "cards": city() if cards is None else cards,
            "landmarks": list(landmarks)}


def table(*players: dict, active: int = 0, dice: Any = (3,), ruleset: str = "machi-koro",
          **extra: Any) -> dict:
    return {"ruleset": ruleset, "players": list(players), "active": active, "dice": list(dice),
            **extra}
