"""Card facts loaded from the TOML catalogs in `catalogs/`, checked on load.

A table plays one or more card sets (`load_catalog("base", "harbor")`): the first file gives
the box's numbers, later ones add cards and may change those numbers.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.rules.errors import CatalogError, UnknownCard, is_whole_number

CATALOG_DIR = Path(__file__).resolve().parent / "catalogs"
LANGUAGES = ("en", "he", "nl")
COLOURS = ("blue", "green", "red", "purple")
ICONS = ("wheat", "cow", "bread", "cup", "gear", "factory", "fruit", "tower", "boat")
EFFECTS = (
    "income", "income_per_icon", "take_from_roller", "take_from_each", "take_from_one", "swap",
    "take_per_card_from_each",  # Publisher: from every other player, amount per counted card
    "take_half_from_rich",  # Tax Office: half (rounded down) of each other's coins >= amount
    "income_per_table_roll",  # Tuna Boat: amount x the table's own two-dice roll
)
PER_EFFECTS = ("income", "income_per_icon", "take_per_card_from_each")
"""The effects whose amount may be paid per counted card (`per`)."""
PER_KINDS = ("icon", "colour", "card")
LANDMARK_EFFECTS = (
    "two_dice", "mall_bonus", "extra_turn_on_doubles", "reroll",
    "coin_when_broke",  # City Hall: `amount` from the bank at the start of a build step with 0
    "add_to_total",  # Harbor: the roller may add `amount` to a total of ADD_FROM or more
    "income_if_nothing_built",  # Airport: `amount` from the bank at the end of a turn without a build
)
DICE_TOTAL = 12
"""The highest total of two dice; a set with roll modifiers (Harbor) may allow up to
HIGHEST_ACTIVATION through its `meta.highest_roll`."""
HIGHEST_ACTIVATION = 14
ADD_FROM = 10
"""The lowest dice total an `add_to_total` landmark adds to (Harbor, docs/rules.md 31)."""
_META_NUMBERS = {"players_min": 1, "players_max": 1, "starting_coins": 0, "bank_coins": 0}
_ID = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class PerCount:
    """What a per-card effect counts among its owner's establishments: copies of cards with
    an icon, a colour or one card id; `unique` counts kinds instead of copies."""

    kind: str  # one of PER_KINDS
    value: str
    unique: bool = False
    more: tuple[str, ...] = ()  # further icons counted too (Publisher: cup and bread)

    def counts(self, card: Establishment) -> bool:
        if self.kind == "icon":
            return card.icon == self.value or card.icon in self.more
        if self.kind == "colour":
            return card.colour == self.value
        return card.id == self.value


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
    per: PerCount | None  # amount is paid per counted card (cheese factory: per cow card)
    copies: int
    starting: int
    requires_landmark: str | None = None  # pays only if its owner has built this landmark

    @property
    def is_purple(self) -> bool:
        return self.colour == "purple"

    @property
    def per_icon(self) -> str | None:
        """The icon an income_per_icon card counts (the base set's only kind of count)."""
        return self.per.value if self.per is not None and self.per.kind == "icon" else None


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
    starts_built: bool = False  # every player has it from set-up (Harbor's City Hall)
    counts_for_win: bool = True


@dataclass(frozen=True, slots=True)
class Catalog:
    """The card sets of one table: establishments in supply order, landmarks, and the box's
    numbers."""

    name: str
    players_min: int
    players_max: int
    starting_coins: int
    bank_coins: int
    establishments: Mapping[str, Establishment]
    landmarks: Mapping[str, Landmark]
    by_roll: tuple[tuple[Establishment, ...], ...]  # index: dice total, 0..highest_roll
    card_sets: tuple[str, ...] = ("base",)
    highest_roll: int = DICE_TOTAL
    variable_supply: bool = False  # a set that always plays ruling 13's supply (Harbor)
    landmarks_to_win: frozenset[str] = frozenset()  # the landmarks whose counts_for_win is true

    def establishment(self, card_id: str) -> Establishment:
        try:
            return self.establishments[card_id]
        except KeyError:
            raise UnknownCard(f"unknown establishment {card_id!r}") from None

    def in_box(self, card_id: str) -> int:
        """How many copies of an establishment the box holds, starting cards included."""
        card = self.establishment(card_id)
        return card.copies + card.starting * self.players_max


def load_catalog(*sets: str) -> Catalog:
    """The catalog of card sets `catalogs/NAME.toml` merged in order (default: base),
    checked; cached per tuple of names because card facts never change."""
    return _load_sets(sets or ("base",))


@functools.cache
def _load_sets(sets: tuple[str, ...]) -> Catalog:
    for name in sets:
        if not _ID.match(name) or not (CATALOG_DIR / f"{name}.toml").is_file():
            raise CatalogError(f"no card set {name!r} in {CATALOG_DIR.name}/")
    return load_catalog_files(*(CATALOG_DIR / f"{name}.toml" for name in sets))


def card_sets() -> tuple[str, ...]:
    """The names of the card sets in `catalogs/`."""
    return tuple(sorted(path.stem for path in CATALOG_DIR.glob("*.toml")))


@functools.cache
def set_names(name: str) -> Mapping[str, str]:
    """A card set's name in each language (its file's `meta.names`; the id where it has none),
    for the console's choice of a table's card sets."""
    with (CATALOG_DIR / f"{name}.toml").open("rb") as file:
        names = tomllib.load(file).get("meta", {}).get("names", {})
    return MappingProxyType({lang: str(names.get(lang) or names.get("en") or name)
                             for lang in LANGUAGES})


@functools.cache
def set_of(card_id: str) -> str | None:
    """The card set whose file adds `card_id` (an establishment or landmark), if any: a
    refusal can then say which set a table would have to play."""
    for name in card_sets():
        with (CATALOG_DIR / f"{name}.toml").open("rb") as file:
            data = tomllib.load(file)
        if any(entry.get("id") == card_id
               for key in ("establishment", "landmark") for entry in data.get(key, [])):
            return name
    return None


def load_catalog_file(path: Path) -> Catalog:
    """Parse and check one catalog file; a broken one raises CatalogError naming file,
    entry and field."""
    return load_catalog_files(path)


def load_catalog_files(*paths: Path) -> Catalog:
    """Parse, check and merge catalog files in order: the first needs every `meta` number,
    later ones add cards (ids may not repeat) and may change meta numbers."""
    meta: dict[str, int] = {"highest_roll": DICE_TOTAL, "variable_supply": False}
    sets: list[str] = []
    seated_first = 0
    cards: list[tuple[_Checker, Establishment]] = []
    landmarks: list[tuple[_Checker, Landmark]] = []
    for index, path in enumerate(paths):
        check, data = _read(path)
        sets.append(_meta(check, data, meta, first=index == 0))
        seated_first = meta["players_max"] if index == 0 else seated_first
        need = index == 0
        added = [
            (check, _establishment(check, entry, i))
            for i, entry in enumerate(check.entries(data, "establishment", need=need))
        ]
        built = [
            (check, _landmark(check, entry, i))
            for i, entry in enumerate(check.entries(data, "landmark", need=need))
        ]
        if not added and not built:
            raise check.fail("establishment", "establishment", "a set adds at least one card")
        cards += added
        landmarks += built
    seen: set[str] = set()
    for check, card_id in [(check, card.id) for check, card in cards] + [
        (check, lm.id) for check, lm in landmarks
    ]:
        if card_id in seen:
            raise check.fail(card_id, "id", "used twice")
        seen.add(card_id)
    _cross_check(cards, {lm.id for _, lm in landmarks}, meta["highest_roll"])
    if landmarks and not any(lm.counts_for_win for _, lm in landmarks):
        check, last = landmarks[-1]
        raise check.fail(last.id, "counts_for_win", "at least one landmark must count for the win")
    ids = [card.id for _, card in cards]
    # A set that seats more players than the first (Harbor: five) brings a copy of each purple
    # card per seat, as a player owns at most one (docs/rules.md 30: as many as players).
    merged = [replace(card, copies=max(card.copies, meta["players_max"]))
              if card.is_purple and meta["players_max"] > seated_first else card
              for _, card in cards]
    ordered = sorted(merged, key=lambda c: (c.activation[0], ids.index(c.id)))
    by_roll = tuple(
        tuple(card for card in ordered if total in card.activation)
        for total in range(meta["highest_roll"] + 1)
    )
    return Catalog(
        name="+".join(sets),
        players_min=meta["players_min"],
        players_max=meta["players_max"],
        starting_coins=meta["starting_coins"],
        bank_coins=meta["bank_coins"],
        establishments=MappingProxyType({card.id: card for card in ordered}),
        landmarks=MappingProxyType({lm.id: lm for _, lm in landmarks}),
        by_roll=by_roll,
        card_sets=tuple(sets),
        highest_roll=meta["highest_roll"],
        variable_supply=bool(meta["variable_supply"]),
        landmarks_to_win=frozenset(lm.id for _, lm in landmarks if lm.counts_for_win),
    )


def _read(path: Path) -> tuple[_Checker, dict[str, Any]]:
    try:
        return _Checker(path.name), tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise CatalogError(f"{path.name}: cannot read: {exc}") from None


def _meta(check: _Checker, data: dict[str, Any], meta: dict[str, int], *, first: bool) -> str:
    """Fold one file's `[meta]` into `meta`; the set's name."""
    table = check.table(data, "meta", "meta")
    for field, low in _META_NUMBERS.items():
        if first or field in table:
            meta[field] = check.number(table, "meta", field, low=low)
    if "highest_roll" in table:
        roll = table["highest_roll"]
        if not is_whole_number(roll) or not DICE_TOTAL <= roll <= HIGHEST_ACTIVATION:
            raise check.fail(
                "meta", "highest_roll",
                f"a whole number {DICE_TOTAL}-{HIGHEST_ACTIVATION} is required, got {roll!r}",
            )
        meta["highest_roll"] = roll
    if "variable_supply" in table:
        meta["variable_supply"] = check.flag(table, "meta", "variable_supply", default=False)
    name = check.text(table, "meta", "set")
    if not _ID.match(name):
        raise check.fail("meta", "set", f"a snake_case name is required, got {name!r}")
    return name


def _cross_check(
    cards: list[tuple[_Checker, Establishment]], landmark_ids: set[str], highest_roll: int,
) -> None:
    """What one entry cannot check alone: activations within the sets' highest roll, and
    the landmark and card ids that effects name."""
    card_ids = {card.id for _, card in cards}
    for check, card in cards:
        if card.activation[-1] > highest_roll:
            raise check.fail(
                card.id, "activation", f"a list of numbers 1-{highest_roll} required "
                f"(meta.highest_roll), got {list(card.activation)!r}",
            )
        if card.requires_landmark is not None and card.requires_landmark not in landmark_ids:
            raise check.fail(
                card.id, "requires_landmark", f"no landmark {card.requires_landmark!r}",
            )
        if card.per is not None and card.per.kind == "card" and card.per.value not in card_ids:
            raise check.fail(card.id, "per.card", f"no establishment {card.per.value!r}")


def _establishment(check: _Checker, entry: dict[str, Any], index: int) -> Establishment:
    where = check.entry_name(entry, "establishment", index)
    effect = check.choice(entry, where, "effect", EFFECTS)
    activation = entry.get("activation")
    if (
        not isinstance(activation, list) or not activation
        or not all(is_whole_number(n) and 1 <= n <= HIGHEST_ACTIVATION for n in activation)
        or len(set(activation)) < len(activation)
    ):
        raise check.fail(
            where, "activation", f"a list of different numbers 1-{DICE_TOTAL} required "
            f"(up to {HIGHEST_ACTIVATION} with meta.highest_roll), got {activation!r}",
        )
    requires = entry.get("requires_landmark")
    if requires is not None and (not isinstance(requires, str) or not _ID.match(requires)):
        raise check.fail(where, "requires_landmark", f"a landmark id is required, got {requires!r}")
    return Establishment(
        id=where,
        names=check.names(entry, where),
        colour=check.choice(entry, where, "colour", COLOURS),
        icon=check.choice(entry, where, "icon", ICONS),
        activation=tuple(sorted(activation)),
        cost=check.number(entry, where, "cost"),
        effect=effect,
        amount=check.number(entry, where, "amount"),
        per=_per(check, entry, where, effect),
        copies=check.number(entry, where, "copies"),
        starting=check.number(entry, where, "starting"),
        requires_landmark=requires,
    )


def _per(check: _Checker, entry: dict[str, Any], where: str, effect: str) -> PerCount | None:
    """`per_icon = "cow"` (income_per_icon's shorthand) or `per = { icon | colour | card =
    "...", unique = false }`."""
    per_icon, per = entry.get("per_icon"), entry.get("per")
    if per_icon is not None and per is not None:
        raise check.fail(where, "per", "give per_icon or per, not both")
    if effect == "income_per_icon" and per is None and per_icon not in ICONS:
        raise check.fail(where, "per_icon", f"one of {', '.join(ICONS)} required")
    if per_icon is not None and effect != "income_per_icon":
        raise check.fail(where, "per_icon", "only for income_per_icon")
    if per_icon is not None:
        return PerCount("icon", per_icon)
    if per is None:
        return None
    if effect not in PER_EFFECTS:
        raise check.fail(where, "per", f"only for {', '.join(PER_EFFECTS)}")
    if not isinstance(per, dict):
        raise check.fail(where, "per", "a table is required")
    kinds = [kind for kind in PER_KINDS if kind in per]
    unknown = sorted(set(per) - {*PER_KINDS, "unique"})
    if unknown or len(kinds) != 1:
        raise check.fail(where, "per", f"exactly one of {', '.join(PER_KINDS)} (and unique)")
    kind, value = kinds[0], per[kinds[0]]
    values = value if kind == "icon" and isinstance(value, list) and value else [value]
    allowed = {"icon": ICONS, "colour": COLOURS}.get(kind)
    for one in values:
        if not isinstance(one, str) or (allowed and one not in allowed) or not _ID.match(one):
            raise check.fail(where, f"per.{kind}", f"an {kind} is required, got {value!r}")
    unique = check.flag(per, where, "per.unique", default=False, key="unique")
    return PerCount(kind, values[0], unique, tuple(values[1:]))


def _landmark(check: _Checker, entry: dict[str, Any], index: int) -> Landmark:
    where = check.entry_name(entry, "landmark", index)
    icons = entry.get("bonus_icons", [])
    if not isinstance(icons, list) or any(icon not in ICONS for icon in icons):
        raise check.fail(where, "bonus_icons", f"icons from {', '.join(ICONS)}")
    return Landmark(
        id=where,
        names=check.names(entry, where),
        cost=check.number(entry, where, "cost"),
        effect=check.choice(entry, where, "effect", LANDMARK_EFFECTS),
        amount=check.number(entry, where, "amount", default=0),
        bonus_icons=frozenset(icons),
        copies=check.number(entry, where, "copies"),
        starts_built=check.flag(entry, where, "starts_built", default=False),
        counts_for_win=check.flag(entry, where, "counts_for_win", default=True),
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

    def entries(self, data: dict[str, Any], key: str, *, need: bool = True) -> list[dict[str, Any]]:
        """The `[[key]]` entries; a set that adds cards to another may have none."""
        value = data.get(key, None if need else [])
        if not isinstance(value, list) or (need and not value):
            raise self.fail(key, key, "at least one entry is required")
        if not all(isinstance(entry, dict) for entry in value):
            raise self.fail(key, key, "tables ([[" + key + "]]) are required")
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

    def flag(
        self, entry: dict[str, Any], where: str, field: str, *, default: bool,
        key: str | None = None,
    ) -> bool:
        value = entry.get(key or field, default)
        if not isinstance(value, bool):
            raise self.fail(where, field, f"true or false is required, got {value!r}")
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
