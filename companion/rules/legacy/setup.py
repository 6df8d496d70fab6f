"""A Legacy game's set-up (seed 002, "Start van het spel"; RULES.md 15), as a table's options
carry it: the catalog as it stood when the game started, the game's number, the start player,
each player's three landmarks, the community landmark and each player's town-square cards.

The campaign (campaign.py) makes these options when a game starts; the ruleset checks them
again (`parse_setup`), so a table's options alone replay its game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.rules.errors import is_whole_number
from companion.rules.legacy.catalog import PLAYERS, LegacyCatalog, catalog_json, parse_catalog
from companion.rules.legacy.errors import BadSetup

_NO_COMMUNITY = ("community: every game needs a community landmark, and the catalog has none in "
                 "play (each one is used and archived, or none was added): add the next one "
                 "from the legacy deck to the catalog, or put one from the reserve in play")
LANDMARKS_EACH = 3
GAMES = 10  # a campaign of ten games (seed 002)
SETUP_FIELDS = ("catalog", "game", "first", "landmarks", "community", "town_square", "slot_costs")


@dataclass(frozen=True, slots=True)
class Setup:
    """What a Legacy game starts from. `landmarks`: per seat, the three landmark ids in letter
    order (the tableau's left to right); `slot_costs`: when given, a landmark costs what its
    place on the tableau says (the first, second, third slot) instead of its own cost."""

    catalog: LegacyCatalog
    game: int
    first: int
    landmarks: tuple[tuple[str, ...], ...]
    community: str
    town_square: tuple[tuple[str, ...], ...]
    slot_costs: tuple[int, ...] = ()

    @property
    def seats(self) -> int:
        return len(self.landmarks)

    def landmark_cost(self, seat: int, landmark: str) -> int:
        """What `seat` pays for one of its landmarks."""
        if self.slot_costs:
            return self.slot_costs[self.landmarks[seat].index(landmark)]
        return self.catalog.landmark(landmark).cost


def setup_json(setup: Setup) -> dict[str, Any]:
    """The options `parse_setup` reads back as the same set-up."""
    return {"catalog": catalog_json(setup.catalog), "game": setup.game, "first": setup.first,
            "landmarks": [list(own) for own in setup.landmarks], "community": setup.community,
            "town_square": [list(own) for own in setup.town_square],
            "slot_costs": list(setup.slot_costs) or None}


def parse_setup(raw: object) -> Setup:
    """A game's set-up from a table's options, checked against its own catalog; BadSetup (or
    the catalog's CatalogError) naming the field if not."""
    if not isinstance(raw, dict):
        raise BadSetup("options: an object is required")
    unknown = sorted(str(key) for key in raw if key not in SETUP_FIELDS)
    if unknown:
        raise BadSetup(f"{unknown[0]}: unknown option (a Legacy game's: {', '.join(SETUP_FIELDS)})")
    if "catalog" not in raw:
        raise BadSetup("catalog: a Legacy game is started from its campaign, with its catalog")
    catalog = parse_catalog(raw["catalog"])
    game = raw.get("game", 1)
    if not is_whole_number(game) or not 1 <= game <= GAMES:
        raise BadSetup(f"game: a game number 1-{GAMES} is required, got {game!r}")
    landmarks = check_landmarks(catalog, raw.get("landmarks"))
    seats = len(landmarks)
    first = raw.get("first", 0)
    if not is_whole_number(first) or not 0 <= first < seats:
        raise BadSetup(f"first: a seat 0-{seats - 1} is required, got {first!r}")
    return Setup(catalog, game, first, landmarks, check_community(catalog, raw.get("community")),
                 check_town_square(catalog, raw.get("town_square"), seats),
                 check_slot_costs(raw.get("slot_costs")))


def _lists(value: object, field: str, seats: int | None) -> list[list[Any]]:
    """A list of one list per seat (2-4 seats, or exactly `seats`)."""
    low, high = (seats, seats) if seats is not None else PLAYERS
    if (not isinstance(value, list) or not low <= len(value) <= high
            or not all(isinstance(own, list) for own in value)):
        count = f"{low}" if low == high else f"{low}-{high}"
        raise BadSetup(f"{field}: a list per player ({count} lists) is required, got {value!r}")
    return value


def check_landmarks(catalog: LegacyCatalog, value: object) -> tuple[tuple[str, ...], ...]:
    """Three different landmarks per seat, none archived; each seat's in letter order."""
    chosen = []
    for seat, own in enumerate(_lists(value, "landmarks", None)):
        if len(own) != LANDMARKS_EACH:
            raise BadSetup(f"landmarks[{seat}]: {LANDMARKS_EACH} landmarks are required, got {len(own)}")
        entries = []
        for index, card_id in enumerate(own):
            where = f"landmarks[{seat}][{index}]"
            entry = next((lm for lm in catalog.landmarks if lm.id == card_id), None)
            if entry is None:
                raise BadSetup(f"{where}: no landmark {card_id!r} in the catalog")
            if entry.status == "archive":
                raise BadSetup(f"{where}: {card_id!r} is archived")
            if card_id in own[:index]:
                raise BadSetup(f"{where}: {card_id!r} is chosen twice")
            entries.append(entry)
        chosen.append(tuple(lm.id for lm in sorted(entries, key=lambda lm: lm.letter)))
    return tuple(chosen)


def check_community(catalog: LegacyCatalog, value: object) -> str:
    if value is None:
        raise BadSetup(_NO_COMMUNITY)
    entry = next((c for c in catalog.community if c.id == value), None)
    if entry is None:
        raise BadSetup(f"community: no community landmark {value!r} in the catalog")
    if entry.status == "archive":
        raise BadSetup(f"community: {value!r} is archived")
    return entry.id


def check_town_square(catalog: LegacyCatalog, value: object, seats: int) -> tuple[tuple[str, ...], ...]:
    """Each seat's town-square cards: different ones, each a town-square card not archived."""
    allowed = {card.id for card in catalog.town_square()}
    chosen = []
    for seat, own in enumerate(_lists(value, "town_square", seats)):
        for index, card_id in enumerate(own):
            where = f"town_square[{seat}][{index}]"
            if card_id not in allowed:
                raise BadSetup(f"{where}: {card_id!r} is not a town-square card of the catalog")
            if card_id in own[:index]:
                raise BadSetup(f"{where}: {card_id!r} is chosen twice")
        chosen.append(tuple(own))
    return tuple(chosen)


def check_slot_costs(value: object) -> tuple[int, ...]:
    if value is None:
        return ()
    if (not isinstance(value, list) or len(value) != LANDMARKS_EACH
            or not all(is_whole_number(cost) and 0 <= cost <= 99 for cost in value)):
        raise BadSetup(f"slot_costs: null or {LANDMARKS_EACH} whole numbers 0-99 are required, "
                       f"got {value!r}")
    return tuple(value)
