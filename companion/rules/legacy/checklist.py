"""The rule book's eight steps after every game (seed 002, "Einde van het spel"), as data the
console walks the organizer through: each step's key (the pages say it), what it needs, and
whether the app does it by itself. Steps 2 and 3 archive cards when ticked."""

from __future__ import annotations

from typing import Any

from companion.rules.legacy.setup import Setup

STEPS: tuple[tuple[int, str], ...] = (
    (1, "register"),  # the winner writes date, name and city in the register: recording does it
    (2, "archive_community"),  # the game's community landmark to the archive
    (3, "archive_landmarks"),  # each player's leftmost landmark (first letter) to the archive
    (4, "town_square_cards"),  # the next 4 legacy cards: town-square cards, one per colour
    (5, "double_sided_cards"),  # the next 5 legacy cards: double-sided; the winner picks a side
    (6, "city_to_reserve"),  # each player's town-square cards and city pieces to the reserve
    (7, "rebuild_supply"),  # the supply rebuilt in activation order, new piles included
    (8, "coins_to_bank"),  # every coin back to the bank
)
AUTOMATIC = frozenset({1, 2, 3, 6, 7, 8})
"""Steps the app does itself when ticked (or, 1, when the game is recorded): the organizer only
confirms; 4 and 5 are new cards the organizer enters in the catalog before ticking."""


def archived_by(setup: Setup, step: int) -> tuple[str, ...]:
    """The cards step `step` puts in the archive: the community landmark (2), the leftmost
    landmark of every tableau (3: the one with the first letter), each once."""
    if step == 2:
        return (setup.community,)
    if step == 3:
        return tuple(dict.fromkeys(own[0] for own in setup.landmarks))
    return ()


def checklist(setup: Setup, done: frozenset[int], players: int, winner: str | None,
              register: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The steps of a game's end with what each names: `{"step", "key", "done", "automatic",
    ...}`; `register` is the game's register line once recorded."""
    catalog = setup.catalog
    details: dict[int, dict[str, Any]] = {
        1: {"register": register},
        2: {"cards": list(archived_by(setup, 2))},
        3: {"cards": list(archived_by(setup, 3)),
            "letters": [catalog.landmark(card).letter for card in archived_by(setup, 3)]},
        4: {"draw": 4, "players": players, "to_archive": 4 - players},
        5: {"draw": 5, "chooser": winner},
    }
    return [{"step": number, "key": key, "done": number in done, "automatic": number in AUTOMATIC,
             **details.get(number, {})} for number, key in STEPS]
