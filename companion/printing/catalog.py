"""The card facts a setup sheet needs, read from the rules' base catalog.

Reading the TOML directly keeps printing independent of the rules' loader while it settles;
`load_catalog` is the one function to swap for `companion.rules.catalog.load_catalog`.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import companion

CATALOG = Path(companion.__file__).parent / "rules" / "catalogs" / "base.toml"


@dataclass(frozen=True)
class Card:
    """One establishment or landmark: names per language and the counts in the box."""

    id: str
    names: Mapping[str, str]
    cost: int
    copies: int
    activation: tuple[int, ...] = ()
    colour: str = ""
    starting: int = 0

    def name(self, lang: str) -> str:
        """The card's name in `lang`, or the English one while a translation is missing."""
        name = self.names.get(lang, "")
        return name if name and name != "TODO" else self.names["en"]


@dataclass(frozen=True)
class Catalog:
    """The base set: establishments in catalog order, landmarks, and the set-up numbers."""

    establishments: tuple[Card, ...]
    landmarks: tuple[Card, ...]
    players_max: int
    starting_coins: int
    bank_coins: int


@cache
def load_catalog(path: Path = CATALOG) -> Catalog:
    """Read the base catalog once."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    establishments = tuple(
        Card(e["id"], dict(e["names"]), e["cost"], e["copies"], tuple(e["activation"]),
             e["colour"], e.get("starting", 0))
        for e in data["establishment"]
    )
    landmarks = tuple(
        Card(m["id"], dict(m["names"]), m["cost"], m.get("copies", 0)) for m in data["landmark"]
    )
    meta = data["meta"]
    return Catalog(
        establishments, landmarks, meta["players_max"], meta["starting_coins"], meta["bank_coins"]
    )
