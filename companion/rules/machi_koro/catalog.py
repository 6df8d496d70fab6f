"""Card facts loaded from the TOML catalogs in `catalogs/`, checked on load."""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.rules.errors import CatalogError, UnknownCard, is_whole_number

CATALOG_DIR = Path(__file__).resolve().parent / "catalogs"
LANGUAGES = ("en", "he", "nl")
COLOURS = ("blue", "green", "red", "purple")
ICONS = ("wheat", "cow", "bread", "cup", "gear", "factory", "fruit", "tower")
EFFECTS = (
    "income", "income_per_icon", "take_from_roller", "take_from_each", "take_from_one", "swap",
)
LANDMARK_EFFECTS = ("two_dice", "mall_bonus", "extra_turn_on_doubles", "reroll")
_ID = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class Establishment:
    """A card a player can own several of (purple: at most one)."""

    id: str
    names: Mapping[str, str]
    colour: str
    icon: str
    activation: tuple[int, ...]
    cost: int
    effect: str
    amount: int
    per_icon: str | None
    copies: int
    starting: int

    @property
    def is_purple(self) -> bool:
        return self.colour == "purple"


@dataclass(frozen=True, slots=True)
class Landmark:
    """A card each player builds once; its effect works from the owner's next roll."""

    id: str
    names: Mapping[str, str]
    cost: int
    effect: str
    amount: int
    bonus_icons: frozenset[str]
    copies: int


@dataclass(frozen=True, slots=True)
class Catalog:
    """One card set: establishments in supply order, landmarks, and the box's numbers."""

    name: str
    players_min: int
    players_max: int
    starting_coins: int
    bank_coins: int
    establishments: Mapping[str, Establishment]
    landmarks: Mapping[str, Landmark]
    by_roll: tuple[tuple[Establishment, ...], ...]

    def establishment(self, card_id: str) -> Establishment:
        try:
            return self.establishments[card_id]
        except KeyError:
            raise UnknownCard(f"unknown establishment {card_id!r}") from None

    def in_box(self, card_id: str) -> int:
        """How many copies of an establishment the box holds, starting cards included."""
        card = self.establishment(card_id)
        return card.copies + card.starting * self.players_max


@functools.cache
def load_catalog(name: str = "base") -> Catalog:
    """The catalog `catalogs/NAME.toml`, checked; cached because card facts never change."""
    return load_catalog_file(CATALOG_DIR / f"{name}.toml")


def load_catalog_file(path: Path) -> Catalog:
    """Parse and check one catalog file; a broken one raises CatalogError naming file,
    entry and field."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise CatalogError(f"{path.name}: cannot read: {exc}") from None
    check = _Checker(path.name)
    meta = check.table(data, "meta", "meta")
    establishments = [
        _establishment(check, entry, i)
        for i, entry in enumerate(check.entries(data, "establishment"))
    ]
    landmarks = [_landmark(check, entry, i) for i, entry in enumerate(check.entries(data, "landmark"))]
    ids = [card.id for card in establishments] + [lm.id for lm in landmarks]
    for card_id in ids:
        if ids.count(card_id) > 1:
            raise CatalogError(f"{path.name}: {card_id}: id: used twice")
    ordered = sorted(establishments, key=lambda card: (card.activation[0], ids.index(card.id)))
    by_roll = tuple(
        tuple(card for card in ordered if total in card.activation) for total in range(13)
    )
    return Catalog(
        name=check.text(meta, "meta", "set"),
        players_min=check.number(meta, "meta", "players_min", low=1),
        players_max=check.number(meta, "meta", "players_max", low=1),
        starting_coins=check.number(meta, "meta", "starting_coins"),
        bank_coins=check.number(meta, "meta", "bank_coins"),
        establishments=MappingProxyType({card.id: card for card in ordered}),
        landmarks=MappingProxyType({lm.id: lm for lm in landmarks}),
        by_roll=by_roll,
    )


def _establishment(check: _Checker, entry: dict[str, Any], index: int) -> Establishment:
    where = check.entry_name(entry, "establishment", index)
    effect = check.choice(entry, where, "effect", EFFECTS)
    activation = entry.get("activation")
    if (
        not isinstance(activation, list) or not activation
        or not all(is_whole_number(n) and 1 <= n <= 12 for n in activation)
    ):
        raise CatalogError(f"{check.file}: {where}: activation: a list of numbers 1-12 required")
    per_icon = entry.get("per_icon")
    if effect == "income_per_icon" and per_icon not in ICONS:
        raise CatalogError(f"{check.file}: {where}: per_icon: one of {', '.join(ICONS)} required")
    if effect != "income_per_icon" and per_icon is not None:
        raise CatalogError(f"{check.file}: {where}: per_icon: only for income_per_icon")
    return Establishment(
        id=where,
        names=check.names(entry, where),
        colour=check.choice(entry, where, "colour", COLOURS),
        icon=check.choice(entry, where, "icon", ICONS),
        activation=tuple(sorted(activation)),
        cost=check.number(entry, where, "cost"),
        effect=effect,
        amount=check.number(entry, where, "amount"),
        per_icon=per_icon,
        copies=check.number(entry, where, "copies"),
        starting=check.number(entry, where, "starting"),
    )


def _landmark(check: _Checker, entry: dict[str, Any], index: int) -> Landmark:
    where = check.entry_name(entry, "landmark", index)
    icons = entry.get("bonus_icons", [])
    if not isinstance(icons, list) or any(icon not in ICONS for icon in icons):
        raise CatalogError(f"{check.file}: {where}: bonus_icons: icons from {', '.join(ICONS)}")
    return Landmark(
        id=where,
        names=check.names(entry, where),
        cost=check.number(entry, where, "cost"),
        effect=check.choice(entry, where, "effect", LANDMARK_EFFECTS),
        amount=check.number(entry, where, "amount", default=0),
        bonus_icons=frozenset(icons),
        copies=check.number(entry, where, "copies"),
    )


@dataclass(frozen=True)
class _Checker:
    """Field checks that name the file, the entry and the field of what is wrong."""

    file: str

    def fail(self, where: str, field: str, problem: str) -> CatalogError:
        return CatalogError(f"{self.file}: {where}: {field}: {problem}")

    def table(self, data: dict[str, Any], where: str, key: str) -> dict[str, Any]:
        value = data.get(key)
        if not isinstance(value, dict):
            raise self.fail(where, key, "a table is required")
        return value

    def entries(self, data: dict[str, Any], key: str) -> list[dict[str, Any]]:
        value = data.get(key)
        if not isinstance(value, list) or not value:
            raise self.fail(key, key, "at least one entry is required")
        return value

    def entry_name(self, entry: dict[str, Any], kind: str, index: int) -> str:
        card_id = entry.get("id")
        if not isinstance(card_id, str) or not _ID.match(card_id):
            raise self.fail(f"{kind} #{index + 1}", "id", "a snake_case id is required")
        return card_id

    def text(self, entry: dict[str, Any], where: str, field: str) -> str:
        value = entry.get(field)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(where, field, "a non-empty text is required")
        return value

    def number(
        self, entry: dict[str, Any], where: str, field: str, *, low: int = 0,
        default: int | None = None,
    ) -> int:
        value = entry.get(field, default)
        if not is_whole_number(value) or value < low:
            raise self.fail(where, field, f"a whole number >= {low} is required, got {value!r}")
        return value

    def choice(self, entry: dict[str, Any], where: str, field: str, allowed: tuple[str, ...]) -> str:
        value = entry.get(field)
        if value not in allowed:
            raise self.fail(where, field, f"one of {', '.join(allowed)} is required, got {value!r}")
        assert isinstance(value, str)
        return value

    def names(self, entry: dict[str, Any], where: str) -> Mapping[str, str]:
        names = self.table(entry, where, "names")
        for lang in LANGUAGES:
            if not isinstance(names.get(lang), str) or not names[lang].strip():
                raise self.fail(where, f"names.{lang}", "a non-empty name is required")
        return MappingProxyType({lang: names[lang] for lang in LANGUAGES})
