"""What happened in a Legacy campaign (campaign.py): only these are journalled; the campaign is
a fold over them. Catalog entries are kept as their checked JSON (`entries.entry_json`)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any, get_args

from companion.rules.errors import BadMove
from companion.rules.frozen import journal_fact, kind_of


@journal_fact("LegacyCampaignCreated")
class CampaignCreated:
    name: str
    names: tuple[str, ...]
    colours: tuple[str, ...]
    cities: tuple[str, ...]
    catalog: dict[str, Any]  # the cards unlocked at the start, as catalog JSON


@journal_fact("LegacyEntryAdded")
class EntryAdded:
    kind: str
    entry: dict[str, Any]


@journal_fact("LegacyEntryReplaced")
class EntryReplaced:
    """An entry put right (same id); games already started keep their catalog."""

    kind: str
    entry: dict[str, Any]


@journal_fact("LegacyStatusChanged")
class StatusChanged:
    card: str
    status: str


@journal_fact("LegacyPicksSet")
class PicksSet:
    """How many town-square cards the mayor in `seat` chooses from now on."""

    seat: int
    picks: int


@journal_fact("LegacyStartRolled")
class StartRolled:
    """A round of the first game's roll for the start player: each contender's two dice."""

    seats: tuple[int, ...]
    first: tuple[int, ...]
    second: tuple[int, ...]


@journal_fact("LegacyGameStarted")
class GameStarted:
    """Game `number` started with `first` on turn and the set-up `choice` (landmarks,
    community, town_square, slot_costs); its catalog is the campaign's at this point."""

    number: int
    first: int
    choice: dict[str, Any]


@journal_fact("LegacyGameRecorded")
class GameRecorded:
    """The register's line (seed 002, step 1): date, winner, the winner's city."""

    number: int
    winner: int
    date: str
    name: str
    city: str


@journal_fact("LegacyGameWithdrawn")
class GameWithdrawn:
    """A register line taken back: the undo of the move that decided the game, before the next
    game started (the players cross the line out); the line as it was, for the record. The game
    is open again and is recorded anew when it is won again."""

    number: int
    winner: int
    date: str
    name: str
    city: str


@journal_fact("LegacyStepDone")
class StepDone:
    """An end-of-game step done; `archived`: the cards it put in the archive (steps 2, 3)."""

    number: int
    step: int
    archived: tuple[str, ...]


CampaignFact = (CampaignCreated | EntryAdded | EntryReplaced | StatusChanged | PicksSet
                | StartRolled | GameStarted | GameRecorded | GameWithdrawn | StepDone)
CAMPAIGN_KINDS: dict[str, type] = {kind_of(cls): cls for cls in get_args(CampaignFact)}


def encode(fact: CampaignFact) -> tuple[str, dict[str, Any]]:
    """A fact's journal record: its KIND and its fields as JSON-able values."""
    data = {f.name: list(value) if isinstance(value := getattr(fact, f.name), tuple) else value
            for f in fields(fact)}
    return kind_of(type(fact)), data


def decode(kind: str, data: dict[str, Any]) -> CampaignFact:
    """The fact `encode` wrote."""
    cls = CAMPAIGN_KINDS.get(kind)
    if cls is None:
        raise BadMove(f"unknown campaign record {kind!r}")
    values = {f.name: tuple(data[f.name]) if isinstance(data[f.name], list) else data[f.name]
              for f in fields(cls)}
    fact: CampaignFact = cls(**values)
    return fact
