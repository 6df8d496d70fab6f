"""What the console and the paper show of a Legacy campaign: the group, the register (every
game so far), the catalog, the first roll, the next game's proposal and readiness, and the
end-of-game checklist of the latest game. Pure functions of a `Campaign`."""

from __future__ import annotations

from typing import Any

from companion.rules.legacy.campaign import Campaign, Game, Line, proposal, readiness
from companion.rules.legacy.catalog import catalog_json
from companion.rules.legacy.checklist import checklist
from companion.rules.legacy.views import cards_json

Json = dict[str, Any]


def register_json(campaign: Campaign) -> list[Json]:
    """The city register (seed 002): per recorded game its number, date, winner and city."""
    return [_line(campaign, game, game.line) for game in campaign.games if game.line is not None]


def withdrawn_json(campaign: Campaign) -> list[Json]:
    """The register lines withdrawn (an undone winning move), in the order of their games:
    the console shows them crossed out, as the players cross them out on paper."""
    return [_line(campaign, game, line) for game in campaign.games for line in game.withdrawn]


def _line(campaign: Campaign, game: Game, line: Line) -> Json:
    """A register line: the game, its date, the winner's seat and name, and their city."""
    return {"game": game.number, "date": line.date, "winner": line.winner,
            "name": campaign.mayors[line.winner].name, "city": line.city}


def games_json(campaign: Campaign) -> list[Json]:
    """Every game started: number, start player, landmarks by letter, community landmark,
    register line (None until recorded), the lines withdrawn."""
    found = []
    for game in campaign.games:
        setup = game.setup
        found.append({
            "game": game.number, "first": setup.first,
            "landmarks": [[setup.catalog.landmark(lm).letter for lm in own] for own in setup.landmarks],
            "community": setup.community,
            "register": None if game.line is None else _line(campaign, game, game.line),
            "steps_done": sorted(game.steps_done),
            "withdrawn": [_line(campaign, game, line) for line in game.withdrawn],
        })
    return found


def checklist_json(campaign: Campaign) -> list[Json] | None:
    """The latest game's end-of-game steps once it is recorded, else None."""
    if not campaign.games or campaign.games[-1].line is None:
        return None
    game = campaign.games[-1]
    line = game.line
    assert line is not None
    return checklist(game.setup, game.steps_done, len(campaign.mayors),
                     campaign.mayors[line.winner].name, _line(campaign, game, line))


def campaign_json(campaign: Campaign) -> Json:
    """The console's view of a campaign."""
    why = readiness(campaign)
    roll = campaign.start_roll
    return {
        "name": campaign.name,
        "mayors": [{"seat": seat, "name": m.name, "colour": m.colour, "city": m.city,
                    "picks": m.picks} for seat, m in enumerate(campaign.mayors)],
        "start_roll": {"contenders": list(roll.contenders), "winner": roll.winner,
                       "rounds": [[list(pair) for pair in round_] for round_ in roll.rounds]},
        "games": games_json(campaign),
        "register": register_json(campaign),
        "withdrawn": withdrawn_json(campaign),
        "checklist": checklist_json(campaign),
        "next": {"game": len(campaign.games) + 1, "first": campaign.next_first(),
                 "ready": why is None, "why": None if why is None else why.code,
                 "message": None if why is None else why.message,
                 "proposal": proposal(campaign)},
        "cards": cards_json(campaign.catalog),
        # the card list as the API takes it (a new campaign's `catalog`): the console's export
        "catalog": catalog_json(campaign.catalog),
    }
