"""The cards of a Legacy campaign's catalog as the organizer enters them, checked field by field.

Each entry is plain JSON from the console (`parse_establishment`, `parse_landmark`,
`parse_community`); a refusal is a CatalogError whose message starts with the field's path
(`establishments[2].activation[0]: ...`). `entry_json` gives the JSON back, so an entry
journalled and read again is the same value. Effects are the kinds the Machi Koro engine knows,
with their parameters; a card whose text fits none is `manual` (the screens show its text, the
organizer settles it with a correction naming the card).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.rules.errors import CatalogError, is_whole_number
from companion.rules.machi_koro.catalog import COLOURS, ICONS, LANGUAGES, PerCount

Names = tuple[tuple[str, str], ...]
"""A text in every language, as (lang, text) pairs in LANGUAGES' order (hashable)."""

LABELS = ICONS
"""The labels a card may carry: the icons the screens draw (the engine counts them)."""
HIGHEST_ROLL = 12
STATUSES = ("in_play", "reserve", "archive")
MAYOR_COLOURS = ("red", "blue", "green", "yellow", "orange", "purple", "white", "black")
"""The players' colours (a campaign's group, campaign.py)."""
"""Where a card is: in play (an establishment's copies form the supply), in the reserve (kept
out of the games for now) or in the archive (never used again in this campaign)."""
ESTABLISHMENT_EFFECTS: Mapping[str, tuple[str, ...]] = {
    "blue": ("income", "income_per_icon", "manual"),
    "green": ("income", "income_per_icon", "manual"),
    "red": ("take_from_roller", "manual"),
    "purple": ("take_from_each", "take_from_one", "swap", "manual"),
}
"""The effect kinds the engine plays for each colour (a colour decides when and from whom a
card is paid, RULES.md 2)."""
LANDMARK_EFFECTS = ("two_dice", "reroll", "extra_turn_on_doubles", "mall_bonus", "none", "manual")
BONUS_KINDS = ("coins", "none", "manual")
"""What a community landmark gives the contributor: coins from the bank, nothing, or a text the
organizer settles by hand."""
PER_FIELDS = {"label": "icon", "colour": "colour", "card": "card"}
"""An `income_per_icon` effect counts the owner's cards with a label, a colour or one card id
(`per.unique`: each kind once, the rule book's "unique cards")."""
NAME_LIMIT = 60
TEXT_LIMIT = 400
AMOUNT_LIMIT = 99
COPIES_LIMIT = 30
_ID = re.compile(r"^[a-z][a-z0-9_]{0,59}$")
_LETTER = re.compile(r"^[A-Z]{1,2}$")


@dataclass(frozen=True, slots=True)
class Effect:
    """What a card does: its kind and the parameters that kind takes (the others stay empty)."""

    kind: str
    amount: int = 0
    per: PerCount | None = None  # income_per_icon: what is counted
    labels: tuple[str, ...] = ()  # mall_bonus: the labels that earn the bonus
    text: Names = ()  # manual: the card's text

    @property
    def is_manual(self) -> bool:
        return self.kind == "manual"


@dataclass(frozen=True, slots=True)
class EstablishmentEntry:
    """A card players build from the supply (`copies`), or start with (`town_square`: every
    player owns one in their colour and may choose it at set-up)."""

    id: str
    names: Names
    colour: str
    activation: tuple[int, ...]
    cost: int
    label: str
    effect: Effect
    copies: int
    town_square: bool = False
    requires_landmark: str | None = None  # pays only once its owner has built this landmark
    status: str = "in_play"
    # A town-square card in one player's colour (seed 002, step 4: one per colour): only the
    # mayor of that colour may choose it; None: every player has it (the Wheat Field).
    mayor_colour: str | None = None


@dataclass(frozen=True, slots=True)
class LandmarkEntry:
    """A landmark a player may have on their tableau, known by its letter code."""

    id: str
    names: Names
    letter: str
    cost: int
    effect: Effect
    status: str = "in_play"


@dataclass(frozen=True, slots=True)
class CommunityEntry:
    """A community landmark: each player may contribute its cost once per game for its bonus."""

    id: str
    names: Names
    cost: int
    bonus: Effect
    status: str = "in_play"


Entry = EstablishmentEntry | LandmarkEntry | CommunityEntry


class Fields:
    """Checks of one JSON object at `where` (a path like `establishments[2]`): each refusal
    names the field's full path."""

    def __init__(self, raw: object, where: str, known: tuple[str, ...]) -> None:
        if not isinstance(raw, dict):
            raise CatalogError(f"{where}: an object is required, got {_short(raw)}")
        unknown = sorted(str(key) for key in raw if key not in known)
        if unknown:
            raise self.fail_at(f"{where}.{unknown[0]}", f"unknown field (known: {', '.join(known)})")
        self.raw: dict[str, Any] = raw
        self.where = where

    @staticmethod
    def fail_at(path: str, problem: str) -> CatalogError:
        return CatalogError(f"{path}: {problem}")

    def fail(self, field: str, problem: str) -> CatalogError:
        return self.fail_at(f"{self.where}.{field}", problem)

    def ident(self, field: str = "id") -> str:
        value = self.raw.get(field)
        if not isinstance(value, str) or not _ID.match(value):
            raise self.fail(field, f"a snake_case id (a-z, 0-9, _; at most 60) is required, "
                                   f"got {_short(value)}")
        return value

    def number(self, field: str, *, low: int = 0, high: int = AMOUNT_LIMIT,
               default: int | None = None) -> int:
        value = self.raw.get(field, default)
        if not is_whole_number(value) or not low <= value <= high:
            raise self.fail(field, f"a whole number {low}-{high} is required, got {_short(value)}")
        return value

    def flag(self, field: str, default: bool) -> bool:
        value = self.raw.get(field, default)
        if not isinstance(value, bool):
            raise self.fail(field, f"true or false is required, got {_short(value)}")
        return value

    def choice(self, field: str, allowed: tuple[str, ...], default: str | None = None) -> str:
        value = self.raw.get(field, default)
        if not isinstance(value, str) or value not in allowed:
            raise self.fail(field, f"one of {', '.join(allowed)} is required, got {_short(value)}")
        return value

    def texts(self, field: str, limit: int, *, need: tuple[str, ...] = LANGUAGES) -> Names:
        """A text per language: `{"en": ..., "he": ..., "nl": ...}`; those in `need` required,
        the others optional (they fall back to English on screens)."""
        value = self.raw.get(field)
        if not isinstance(value, dict):
            which = ", ".join(need) if need else f"{', '.join(LANGUAGES)} (one is enough)"
            raise self.fail(field, f"an object with {which} is required, got {_short(value)}")
        unknown = sorted(str(key) for key in value if key not in LANGUAGES)
        if unknown:
            raise self.fail(f"{field}.{unknown[0]}", f"not a language (known: {', '.join(LANGUAGES)})")
        found: list[tuple[str, str]] = []
        for lang in LANGUAGES:
            text = value.get(lang)
            blank = text is None or (isinstance(text, str) and not text.strip())
            if blank and lang not in need:
                continue  # an empty field of the console's form is a language left out
            if not isinstance(text, str) or not text.strip():
                raise self.fail(f"{field}.{lang}", "a non-empty text is required")
            if len(text.strip()) > limit:
                raise self.fail(f"{field}.{lang}", f"at most {limit} characters")
            found.append((lang, text.strip()))
        return tuple(found)

    def names(self, field: str = "names") -> Names:
        """A card's name: one language is enough (a Dutch group need not invent a Hebrew name);
        the languages left out take it, English first if given, so every screen, sheet and
        engine reads a name in its own language."""
        given = self.texts(field, NAME_LIMIT, need=())
        if not given:
            raise self.fail(field, f"a name in at least one of {', '.join(LANGUAGES)} is required")
        found = dict(given)
        source = found.get("en") or given[0][1]
        return tuple((lang, found.get(lang, source)) for lang in LANGUAGES)


def _short(value: object) -> str:
    """A value for a message, cut short (an organizer may paste anything)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# ---------------------------------------------------------------- entries


def parse_establishment(raw: object, where: str) -> EstablishmentEntry:
    """An establishment entry, checked; CatalogError naming the field's path if not."""
    check = Fields(raw, where, ("id", "names", "colour", "activation", "cost", "label", "effect",
                                "copies", "town_square", "requires_landmark", "status",
                                "mayor_colour"))
    card_id = check.ident()
    names = check.names()
    colour = check.choice("colour", COLOURS)
    activation = _activation(check)
    requires = check.raw.get("requires_landmark")
    if requires is not None and (not isinstance(requires, str) or not _ID.match(requires)):
        raise check.fail("requires_landmark", f"a landmark id or null is required, got {_short(requires)}")
    return EstablishmentEntry(
        id=card_id, names=names, colour=colour, activation=activation,
        cost=check.number("cost"), label=check.choice("label", LABELS),
        effect=parse_effect(check.raw.get("effect"), f"{where}.effect",
                            ESTABLISHMENT_EFFECTS[colour], colour=colour),
        copies=check.number("copies", high=COPIES_LIMIT),
        town_square=check.flag("town_square", False), requires_landmark=requires,
        status=check.choice("status", STATUSES, "in_play"), mayor_colour=_mayor_colour(check),
    )


def _mayor_colour(check: Fields) -> str | None:
    """A town-square card's player colour, or None (every player's)."""
    value = check.raw.get("mayor_colour")
    if value is None:
        return None
    if not check.raw.get("town_square"):
        raise check.fail("mayor_colour", "only a town-square card belongs to a player's colour")
    return check.choice("mayor_colour", MAYOR_COLOURS)


def _activation(check: Fields) -> tuple[int, ...]:
    value = check.raw.get("activation")
    if not isinstance(value, list) or not value:
        raise check.fail("activation", f"a list of numbers 1-{HIGHEST_ROLL} is required, "
                                       f"got {_short(value)}")
    for index, number in enumerate(value):
        if not is_whole_number(number) or not 1 <= number <= HIGHEST_ROLL:
            raise check.fail(f"activation[{index}]", f"a number 1-{HIGHEST_ROLL} is required, "
                                                     f"got {_short(number)}")
        if number in value[:index]:
            raise check.fail(f"activation[{index}]", f"{number} is listed twice")
    return tuple(sorted(value))


def parse_landmark(raw: object, where: str) -> LandmarkEntry:
    """A landmark entry, checked; CatalogError naming the field's path if not."""
    check = Fields(raw, where, ("id", "names", "letter", "cost", "effect", "status"))
    card_id = check.ident()
    names = check.names()
    letter = check.raw.get("letter")
    if not isinstance(letter, str) or not _LETTER.match(letter):
        raise check.fail("letter", f"a letter code A-Z (one or two capitals) is required, "
                                   f"got {_short(letter)}")
    return LandmarkEntry(
        id=card_id, names=names, letter=letter, cost=check.number("cost"),
        effect=parse_effect(check.raw.get("effect"), f"{where}.effect", LANDMARK_EFFECTS),
        status=check.choice("status", STATUSES, "in_play"),
    )


def parse_community(raw: object, where: str) -> CommunityEntry:
    """A community landmark entry, checked; CatalogError naming the field's path if not."""
    check = Fields(raw, where, ("id", "names", "cost", "bonus", "status"))
    card_id = check.ident()
    names = check.names()
    return CommunityEntry(
        id=card_id, names=names, cost=check.number("cost"),
        bonus=parse_effect(check.raw.get("bonus"), f"{where}.bonus", BONUS_KINDS),
        status=check.choice("status", STATUSES, "in_play"),
    )


_PARAMS: Mapping[str, tuple[str, ...]] = {
    "income": ("amount",), "income_per_icon": ("amount", "per"), "take_from_roller": ("amount",),
    "take_from_each": ("amount",), "take_from_one": ("amount",), "swap": (),
    "two_dice": (), "reroll": (), "extra_turn_on_doubles": (), "mall_bonus": ("amount", "labels"),
    "none": (), "coins": ("amount",), "manual": ("text",),
}
"""The parameters each effect kind takes."""


def parse_effect(raw: object, where: str, kinds: tuple[str, ...], colour: str = "") -> Effect:
    """`{"kind": K, ...K's parameters}`, K one of `kinds` (those the colour allows for an
    establishment)."""
    if not isinstance(raw, dict):
        raise CatalogError(f"{where}: an object with a kind is required, got {_short(raw)}")
    kind = raw.get("kind")
    if kind not in kinds:
        for_what = f" for a {colour} card" if colour else ""
        raise CatalogError(f"{where}.kind: one of {', '.join(kinds)} is required{for_what}, "
                           f"got {_short(kind)}")
    assert isinstance(kind, str)
    params = _PARAMS[kind]
    check = Fields(raw, where, ("kind", *params))
    if kind == "manual":
        return Effect(kind, text=check.texts("text", TEXT_LIMIT, need=("en",)))
    amount = check.number("amount", low=1) if "amount" in params else 0
    if kind == "mall_bonus":
        return Effect(kind, amount, labels=_labels(check))
    if kind == "income_per_icon":
        return Effect(kind, amount, per=_per(check))
    return Effect(kind, amount)


def _labels(check: Fields) -> tuple[str, ...]:
    value = check.raw.get("labels")
    if not isinstance(value, list) or not value:
        raise check.fail("labels", f"a list of labels ({', '.join(LABELS)}) is required, "
                                   f"got {_short(value)}")
    for index, label in enumerate(value):
        if label not in LABELS or label in value[:index]:
            raise check.fail(f"labels[{index}]", f"a label of {', '.join(LABELS)}, each once, "
                                                 f"is required, got {_short(label)}")
    return tuple(value)


def _per(check: Fields) -> PerCount:
    """`{"label" | "colour" | "card": value, "unique": bool}`: what a per-card income counts."""
    per = Fields(check.raw.get("per"), f"{check.where}.per", (*PER_FIELDS, "unique"))
    given = [field for field in PER_FIELDS if field in per.raw]
    if len(given) != 1:
        raise check.fail("per", f"exactly one of {', '.join(PER_FIELDS)} is required")
    field = given[0]
    if field == "label":
        value = per.choice("label", LABELS)
    elif field == "colour":
        value = per.choice("colour", COLOURS)
    else:
        value = per.ident("card")
    return PerCount(PER_FIELDS[field], value, per.flag("unique", False))


# ---------------------------------------------------------------- back to JSON


def texts_json(names: Names) -> dict[str, str]:
    return dict(names)


def effect_json(effect: Effect) -> dict[str, Any]:
    """The JSON `parse_effect` reads back as the same effect."""
    data: dict[str, Any] = {"kind": effect.kind}
    params = _PARAMS[effect.kind]
    if "amount" in params:
        data["amount"] = effect.amount
    if effect.per is not None:
        field = next(name for name, kind in PER_FIELDS.items() if kind == effect.per.kind)
        data["per"] = {field: effect.per.value, "unique": effect.per.unique}
    if effect.labels:
        data["labels"] = list(effect.labels)
    if effect.text:
        data["text"] = texts_json(effect.text)
    return data


def entry_json(entry: Entry) -> dict[str, Any]:
    """The JSON the matching `parse_*` reads back as the same entry."""
    data: dict[str, Any] = {"id": entry.id, "names": texts_json(entry.names)}
    if isinstance(entry, EstablishmentEntry):
        data.update(colour=entry.colour, activation=list(entry.activation), cost=entry.cost,
                    label=entry.label, effect=effect_json(entry.effect), copies=entry.copies,
                    town_square=entry.town_square, requires_landmark=entry.requires_landmark)
        if entry.mayor_colour is not None:  # only when set: older journals read back the same
            data["mayor_colour"] = entry.mayor_colour
    elif isinstance(entry, LandmarkEntry):
        data.update(letter=entry.letter, cost=entry.cost, effect=effect_json(entry.effect))
    else:
        data.update(cost=entry.cost, bonus=effect_json(entry.bonus))
    data["status"] = entry.status
    return data
