"""A Legacy campaign as the hall's series (ruleset.py, "a series of games"): the organizer's
JSON to the campaign's commands (campaign.py decides them), the dice the hall rolls for the
first start player, today's date for a register line, the next game's table, and the register
line a won table gives. Pure: the hall passes the dice and the date."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.rules.errors import BadMove
from companion.rules.legacy import campaign as cp
from companion.rules.legacy import campaign_facts as cf
from companion.rules.legacy.campaign_commands import (
    RecordGame,
    RollForStart,
    StartGame,
    parse_command,
)
from companion.rules.legacy.campaign_views import campaign_json
from companion.rules.legacy.state import RULESET
from companion.rules.ruleset import Json, Result, SeriesTable

KINDS = frozenset(cf.CAMPAIGN_KINDS)
START_FIELDS = ("name", "mayors", "catalog")
NEXT_FIELDS = ("landmarks", "community", "town_square", "slot_costs")


def start(wire: Mapping[str, Any]) -> list[cf.CampaignFact]:
    """A new campaign: `{"name", "mayors": [{"name", "colour", "city"}], "catalog"?}`."""
    unknown = sorted(str(key) for key in wire if key not in START_FIELDS)
    if unknown:
        raise BadMove(f"{unknown[0]}: unknown field of a campaign (known: {', '.join(START_FIELDS)})")
    return cp.create(wire.get("name"), wire.get("mayors"), wire.get("catalog"))


def dice(campaign: cp.Campaign, wire: Any) -> int:
    """Two dice for each contender of the first start player's roll when the console sends
    none (the hall rolls them); else none."""
    if (isinstance(wire, dict) and wire.get("command") == "roll_for_start"
            and wire.get("dice") is None and campaign.start_roll.winner is None):
        return 2 * len(campaign.start_roll.contenders)
    return 0


def decide(campaign: cp.Campaign, wire: Any, drawn: tuple[int, ...],
           today: str) -> list[cf.CampaignFact]:
    """The organizer's command: a roll without dice takes the hall's, a register line without
    a date takes today's; the next game starts by `next_game` (it makes a table)."""
    command = parse_command(wire)
    if isinstance(command, StartGame):
        raise BadMove("command: the next game starts with its table (POST /api/series/ID/next)")
    if isinstance(command, RollForStart) and command.dice is None and drawn:
        command = RollForStart([[drawn[i], drawn[i + 1]] for i in range(0, len(drawn), 2)])
    if isinstance(command, RecordGame) and command.date is None:
        command = RecordGame(command.number, command.winner, today)
    return cp.decide(campaign, command)


def next_game(campaign: cp.Campaign, wire: Any) -> list[cf.CampaignFact]:
    """The next game's set-up (`landmarks`, `community`, `town_square`, `slot_costs`, each
    optional: the proposal's otherwise)."""
    if not isinstance(wire, dict):
        raise BadMove("set-up: an object is required")
    unknown = sorted(str(key) for key in wire if key not in NEXT_FIELDS)
    if unknown:
        raise BadMove(f"{unknown[0]}: unknown field of a game's set-up "
                      f"(known: {', '.join(NEXT_FIELDS)})")
    return cp.decide(campaign, StartGame(**{name: wire.get(name) for name in NEXT_FIELDS}))


def table(campaign: cp.Campaign) -> SeriesTable:
    """The latest game's table: the mayors in the group's order, its set-up as options."""
    number = len(campaign.games)
    return SeriesTable(number, f"{campaign.name} – {number}", cp.table_names(campaign), RULESET,
                       cp.game_options(campaign, number))


def result_command(campaign: cp.Campaign, number: int, result: Result,
                   today: str) -> Json | None:
    """The register line of a won game not recorded yet (step 1), as a command."""
    if not 1 <= number <= len(campaign.games) or campaign.games[number - 1].recorded:
        return None
    won = [seat for seat, outcome in enumerate(result.outcomes) if outcome == "won"]
    if len(won) != 1:
        return None
    return {"command": "record_game", "number": number, "winner": won[0], "date": today}


def withdraw_command(campaign: cp.Campaign, number: int) -> Json | None:
    """The command that takes back game `number`'s register line (the undo of the move that
    decided it): only the last game's, recorded; None otherwise (the next game has started
    from its winner, RULES.md 15: the undo is refused)."""
    if number != len(campaign.games) or not campaign.games or not campaign.games[-1].recorded:
        return None
    return {"command": "withdraw_game", "number": number}


def evolve(campaign: cp.Campaign | None, facts: Iterable[cf.CampaignFact]) -> cp.Campaign:
    return cp.evolve(campaign, facts)


def view(campaign: cp.Campaign) -> Json:
    return campaign_json(campaign)
