"""What happened in a Legacy campaign (campaign.py): only these are journalled; the campaign is
a fold over them. Catalog entries are kept as their checked JSON (`entries.entry_json`)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, get_args

from companion.rules.errors import BadMove


@dataclass(frozen=True, slots=True)
class CampaignCreated:
    KIND: ClassVar[str] = "LegacyCampaignCreated"  # its name in every journal: never change it
    name: str
    names: tuple[str, ...]
    colours: tuple[str, ...]
    cities: tuple[str, ...]
    catalog: dict[str, Any]  # the cards unlocked at the start, as catalog JSON


@dataclass(frozen=True, slots=True)
class EntryAdded:
    KIND: ClassVar[str] = "LegacyEntryAdded"  # its name in every journal: never change it
    kind: str
    entry: dict[str, Any]


@dataclass(frozen=True, slots=True)
class EntryReplaced:
    """An entry put right (same id); games already started keep their catalog."""

    KIND: ClassVar[str] = "LegacyEntryReplaced"  # its name in every journal: never change it
    kind: str
    entry: dict[str, Any]


@dataclass(frozen=True, slots=True)
class StatusChanged:
    KIND: ClassVar[str] = "LegacyStatusChanged"  # its name in every journal: never change it
    card: str
    status: str


@dataclass(frozen=True, slots=True)
class PicksSet:
    """How many town-square cards the mayor in `seat` chooses from now on."""

    KIND: ClassVar[str] = "LegacyPicksSet"  # its name in every journal: never change it
    seat: int
    picks: int


@dataclass(frozen=True, slots=True)
class StartRolled:
    """A round of the first game's roll for the start player: each contender's two dice."""

    KIND: ClassVar[str] = "LegacyStartRolled"  # its name in every journal: never change it
    seats: tuple[int, ...]
    first: tuple[int, ...]
    second: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameStarted:
    """Game `number` started with `first` on turn and the set-up `choice` (landmarks,
    community, town_square, slot_costs); its catalog is the campaign's at this point."""

    KIND: ClassVar[str] = "LegacyGameStarted"  # its name in every journal: never change it
    number: int
    first: int
    choice: dict[str, Any]


@dataclass(frozen=True, slots=True)
class GameRecorded:
    """The register's line (seed 002, step 1): date, winner, the winner's city."""

    KIND: ClassVar[str] = "LegacyGameRecorded"  # its name in every journal: never change it
    number: int
    winner: int
    date: str
    name: str
    city: str


@dataclass(frozen=True, slots=True)
class StepDone:
    """An end-of-game step done; `archived`: the cards it put in the archive (steps 2, 3)."""

    KIND: ClassVar[str] = "LegacyStepDone"  # its name in every journal: never change it
    number: int
    step: int
    archived: tuple[str, ...]


CampaignFact = (CampaignCreated | EntryAdded | EntryReplaced | StatusChanged | PicksSet
                | StartRolled | GameStarted | GameRecorded | StepDone)
CAMPAIGN_KINDS: dict[str, type] = {cls.KIND: cls for cls in get_args(CampaignFact)}


def encode(fact: CampaignFact) -> tuple[str, dict[str, Any]]:
    """A fact's journal record: its KIND and its fields as JSON-able values."""
    data = {f.name: list(value) if isinstance(value := getattr(fact, f.name), tuple) else value
            for f in fields(fact)}
    return fact.KIND, data


def decode(kind: str, data: dict[str, Any]) -> CampaignFact:
    """The fact `encode` wrote."""
    cls = CAMPAIGN_KINDS.get(kind)
    if cls is None:
        raise BadMove(f"unknown campaign record {kind!r}")
    values = {f.name: tuple(data[f.name]) if isinstance(data[f.name], list) else data[f.name]
              for f in fields(cls)}
    fact: CampaignFact = cls(**values)
    return fact
