"""A Legacy campaign's catalog: the cards unlocked so far, in the order the organizer added
them, checked as a whole; and the Machi Koro catalog a game's engine plays, made from it.

A game plays the catalog as it stood when it started: a `LegacyCatalog` is a value (entries are
never changed in place: adding, replacing or archiving one makes a new catalog), so the game
keeps the one it started with.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from companion.rules.errors import CatalogError, UnknownCard, is_whole_number
from companion.rules.legacy.entries import (
    STATUSES,
    CommunityEntry,
    Entry,
    EstablishmentEntry,
    Fields,
    LandmarkEntry,
    entry_json,
    parse_community,
    parse_establishment,
    parse_landmark,
)
from companion.rules.machi_koro.catalog import Catalog, Establishment, Landmark

KINDS = ("establishments", "landmarks", "community")
"""The catalog's lists, as the console and the refusals name them."""
STARTING_COINS = 3  # "Iedere speler krijgt dan 3 munten uit de bank" (seed 002)
BANK_COINS = 210  # ours, as the base box: the Legacy book gives no count
PLAYERS = (2, 4)


@dataclass(frozen=True, slots=True)
class LegacyCatalog:
    """The campaign's cards, each list in the order the cards were added."""

    establishments: tuple[EstablishmentEntry, ...] = ()
    landmarks: tuple[LandmarkEntry, ...] = ()
    community: tuple[CommunityEntry, ...] = ()
    starting_coins: int = STARTING_COINS
    bank_coins: int = BANK_COINS

    def entries(self, kind: str) -> tuple[Entry, ...]:
        found: tuple[Entry, ...] = getattr(self, kind)
        return found

    def find(self, card_id: str) -> tuple[str, int, Entry] | None:
        """The list, index and entry of the card `card_id`, or None."""
        for kind in KINDS:
            for index, entry in enumerate(self.entries(kind)):
                if entry.id == card_id:
                    return kind, index, entry
        return None

    def establishment(self, card_id: str) -> EstablishmentEntry:
        for entry in self.establishments:
            if entry.id == card_id:
                return entry
        raise UnknownCard(f"no establishment {card_id!r} in the campaign's catalog")

    def landmark(self, card_id: str) -> LandmarkEntry:
        for entry in self.landmarks:
            if entry.id == card_id:
                return entry
        raise UnknownCard(f"no landmark {card_id!r} in the campaign's catalog")

    def community_landmark(self, card_id: str) -> CommunityEntry:
        for entry in self.community:
            if entry.id == card_id:
                return entry
        raise UnknownCard(f"no community landmark {card_id!r} in the campaign's catalog")

    def supply(self) -> tuple[EstablishmentEntry, ...]:
        """The supply's piles in activation order (seed 002: left to right by activation
        number; piles of the same number in the order their cards were added)."""
        shown = [card for card in self.establishments if card.status == "in_play" and card.copies]
        return tuple(sorted(shown, key=lambda card: card.activation[0]))

    def town_square(self) -> tuple[EstablishmentEntry, ...]:
        """The town-square cards a player may choose at set-up (all but archived ones: between
        games they wait in the reserve with the player's city)."""
        return tuple(card for card in self.establishments
                     if card.town_square and card.status != "archive")


_PARSERS: dict[str, Callable[[object, str], Entry]] = {
    "establishments": parse_establishment, "landmarks": parse_landmark,
    "community": parse_community,
}


def parse_entry(kind: object, raw: object, index: int) -> Entry:
    """One entry of the list `kind` at position `index`, checked alone."""
    parsed: Entry = _PARSERS[checked_kind(kind)](raw, f"{kind}[{index}]")
    return parsed


def checked_kind(kind: object) -> str:
    """`kind` if it names one of the catalog's lists; CatalogError naming the field if not (the
    console's JSON may hold anything there, a list or an object too)."""
    if not isinstance(kind, str) or kind not in _PARSERS:
        raise CatalogError(f"kind: one of {', '.join(KINDS)} is required, got {kind!r}")
    return kind


def parse_catalog(raw: object) -> LegacyCatalog:
    """A whole catalog from its JSON (`catalog_json`), every entry and the cross-checks."""
    check = Fields(raw, "catalog", (*KINDS, "starting_coins", "bank_coins"))
    lists: dict[str, tuple[Any, ...]] = {}
    for kind in KINDS:
        value = check.raw.get(kind, [])
        if not isinstance(value, list):
            raise CatalogError(f"{kind}: a list is required, got {type(value).__name__}")
        lists[kind] = tuple(parse_entry(kind, item, index) for index, item in enumerate(value))
    catalog = LegacyCatalog(
        lists["establishments"], lists["landmarks"], lists["community"],
        starting_coins=_meta(check, "starting_coins", STARTING_COINS),
        bank_coins=_meta(check, "bank_coins", BANK_COINS, high=9999),
    )
    return checked(catalog)


def _meta(check: Fields, field: str, default: int, high: int = 99) -> int:
    value = check.raw.get(field, default)
    if not is_whole_number(value) or not 0 <= value <= high:
        raise CatalogError(f"{field}: a whole number 0-{high} is required, got {value!r}")
    return value


def catalog_json(catalog: LegacyCatalog) -> dict[str, Any]:
    """The JSON `parse_catalog` reads back as the same catalog."""
    return {**{kind: [entry_json(entry) for entry in catalog.entries(kind)] for kind in KINDS},
            "starting_coins": catalog.starting_coins, "bank_coins": catalog.bank_coins}


def checked(catalog: LegacyCatalog) -> LegacyCatalog:
    """The catalog, if what its entries cannot check alone holds: ids unique across the lists,
    letter codes unique, the landmarks and cards that effects name present, and at most one
    card that takes from one player (its owner is asked one question per roll, RULES.md 5)."""
    seen: dict[str, str] = {}
    for kind in KINDS:
        for index, entry in enumerate(catalog.entries(kind)):
            if entry.id in seen:
                raise CatalogError(f"{kind}[{index}].id: {entry.id!r} is already {seen[entry.id]}'s id")
            seen[entry.id] = f"{kind}[{index}]"
    letters: dict[str, int] = {}
    for index, landmark in enumerate(catalog.landmarks):
        if landmark.letter in letters:
            raise CatalogError(f"landmarks[{index}].letter: {landmark.letter!r} is already "
                               f"landmarks[{letters[landmark.letter]}]'s letter")
        letters[landmark.letter] = index
    landmark_ids = {landmark.id for landmark in catalog.landmarks}
    card_ids = {card.id for card in catalog.establishments}
    taking = [card.id for card in catalog.establishments
              if card.effect.kind == "take_from_one" and card.status != "archive"]
    for index, card in enumerate(catalog.establishments):
        where = f"establishments[{index}]"
        if card.requires_landmark is not None and card.requires_landmark not in landmark_ids:
            raise CatalogError(f"{where}.requires_landmark: no landmark {card.requires_landmark!r}")
        per = card.effect.per
        if per is not None and per.kind == "card" and per.value not in card_ids:
            raise CatalogError(f"{where}.effect.per.card: no establishment {per.value!r}")
        if card.id in taking[1:]:
            raise CatalogError(f"{where}.effect.kind: only one card in play may take from one "
                               f"player, and {taking[0]!r} does (archive it first)")
    return catalog


# ---------------------------------------------------------------- the organizer's edits


def with_entry(catalog: LegacyCatalog, kind: object, raw: object) -> LegacyCatalog:
    """The catalog with one more entry at the end of its list, checked in place."""
    kind = checked_kind(kind)
    entries = catalog.entries(kind)
    entry = parse_entry(kind, raw, len(entries))
    return checked(_with_list(catalog, kind, (*entries, entry)))


def with_replaced(catalog: LegacyCatalog, kind: object, raw: object) -> LegacyCatalog:
    """The catalog with the entry of the same id replaced (a typo put right), checked in
    place; games already started keep the catalog they started with."""
    kind = checked_kind(kind)
    entries = catalog.entries(kind)
    card_id = raw.get("id") if isinstance(raw, dict) else None
    index = next((i for i, entry in enumerate(entries) if entry.id == card_id), None)
    if index is None:
        raise CatalogError(f"{kind}.id: no entry {card_id!r} to replace in {kind}")
    entry = parse_entry(kind, raw, index)
    return checked(_with_list(catalog, kind, (*entries[:index], entry, *entries[index + 1:])))


def with_status(catalog: LegacyCatalog, card_id: str, status: str) -> LegacyCatalog:
    """The catalog with the card `card_id` in play, in the reserve or archived; an archived
    card never comes back (seed 002: "de rest van de campagne niet meer gebruikt")."""
    found = catalog.find(card_id) if isinstance(card_id, str) else None
    if found is None:
        raise CatalogError(f"card: no card {card_id!r} in the catalog")
    kind, index, entry = found
    if status not in STATUSES:
        raise CatalogError(f"{kind}[{index}].status: one of {', '.join(STATUSES)} is required, "
                           f"got {status!r}")
    if entry.status == "archive" and status != "archive":
        raise CatalogError(f"{kind}[{index}].status: {card_id!r} is archived and stays archived")
    entries = catalog.entries(kind)
    changed = replace(entry, status=status)
    return checked(_with_list(catalog, kind, (*entries[:index], changed, *entries[index + 1:])))


def _with_list(catalog: LegacyCatalog, kind: str, entries: tuple[Entry, ...]) -> LegacyCatalog:
    changes: dict[str, Any] = {kind: entries}
    return replace(catalog, **changes)


# ---------------------------------------------------------------- the engine's catalog


@functools.lru_cache(maxsize=32)
def engine_catalog(catalog: LegacyCatalog) -> Catalog:
    """The Machi Koro catalog a game of this catalog plays: every establishment not archived
    (the supply's copies for those in play, none for the others), every landmark not archived.
    A manual card pays nothing by itself (income of 0). Made once per catalog: the engine keeps
    its tables per catalog object."""
    supply = catalog.supply()
    kept = [card for card in catalog.establishments if card.status != "archive"]
    ordered = [*supply, *sorted((card for card in kept if card not in supply),
                                key=lambda card: card.activation[0])]
    establishments = {card.id: _establishment(card, in_supply=card in supply) for card in ordered}
    landmarks = {lm.id: _landmark(lm) for lm in catalog.landmarks if lm.status != "archive"}
    by_roll = tuple(tuple(card for card in establishments.values() if total in card.activation)
                    for total in range(13))
    return Catalog(
        name="legacy", players_min=PLAYERS[0], players_max=PLAYERS[1],
        starting_coins=catalog.starting_coins, bank_coins=catalog.bank_coins,
        establishments=MappingProxyType(establishments), landmarks=MappingProxyType(landmarks),
        by_roll=by_roll, card_sets=("legacy",), highest_roll=12,
        landmarks_to_win=frozenset(landmarks),
    )


def _establishment(card: EstablishmentEntry, *, in_supply: bool) -> Establishment:
    manual = card.effect.is_manual
    return Establishment(
        id=card.id, names=MappingProxyType(dict(card.names)), colour=card.colour, icon=card.label,
        activation=card.activation, cost=card.cost,
        effect="income" if manual else card.effect.kind,
        amount=0 if manual else card.effect.amount, per=card.effect.per,
        copies=card.copies if in_supply else 0, starting=0,
        requires_landmark=card.requires_landmark,
    )


def _landmark(landmark: LandmarkEntry) -> Landmark:
    effect = landmark.effect
    return Landmark(
        id=landmark.id, names=MappingProxyType(dict(landmark.names)), cost=landmark.cost,
        effect=effect.kind, amount=effect.amount, bonus_icons=frozenset(effect.labels), copies=1,
    )
