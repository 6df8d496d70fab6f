"""A Machi Koro Legacy campaign (seed 002, RULES.md 15): its group of mayors, the catalog it has
unlocked so far, its games and their register lines, and the roll for the first start player.

Decide and evolve, as a table's rules: `create` and `decide` check an organizer's command and
return facts (or refuse with a RuleError naming the field), `evolve` applies them, `replay`
folds a campaign's journal. Dice are inputs; dates are the console's text (no clock here).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from companion.rules.errors import is_whole_number
from companion.rules.legacy import campaign_facts as cf
from companion.rules.legacy.base_box import BASE, base_catalog_json
from companion.rules.legacy.campaign_commands import (
    AddEntry,
    Command,
    RecordGame,
    ReplaceEntry,
    RollForStart,
    SetPicks,
    SetStatus,
    StartGame,
    TickStep,
    WithdrawGame,
)
from companion.rules.legacy.catalog import (
    PLAYERS,
    LegacyCatalog,
    catalog_json,
    parse_catalog,
    with_entry,
    with_replaced,
    with_status,
)
from companion.rules.legacy.checklist import STEPS, archived_by
from companion.rules.legacy.entries import MAYOR_COLOURS, entry_json
from companion.rules.legacy.errors import (
    BadGroup,
    BadResult,
    BadSetup,
    CampaignOver,
    NotReady,
    RollOff,
)
from companion.rules.legacy.setup import (
    GAMES,
    LANDMARKS_EACH,
    Setup,
    check_community,
    check_landmarks,
    check_slot_costs,
    check_town_square,
    setup_json,
)

TEXT_LIMIT = 40
TOWN_SQUARE_PICKS = 2  # the first game's: the Wheat Field and the Bakery (seed 002)
_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")


@dataclass(frozen=True, slots=True)
class Mayor:
    """A player of the group: name, colour, city, and how many town-square cards they choose
    at set-up (the ticks on their tableau)."""

    name: str
    colour: str
    city: str
    picks: int = TOWN_SQUARE_PICKS


@dataclass(frozen=True, slots=True)
class StartRoll:
    """The first game's roll for the start player (seed 002: the highest with two dice); the
    tied roll again among themselves (ours: neither book says how ties go)."""

    contenders: tuple[int, ...]
    rounds: tuple[tuple[tuple[int, int], ...], ...] = ()  # per round, the dice of each contender
    winner: int | None = None


@dataclass(frozen=True, slots=True)
class Line:
    """A register line (seed 002, step 1): the winner's seat, the date and the winner's city;
    a withdrawn one is crossed out on paper."""

    winner: int
    date: str
    city: str


@dataclass(frozen=True, slots=True)
class Game:
    """A game of the campaign: the set-up it started with (its catalog frozen in it), its
    register line once recorded, the end-of-game steps done since, and the lines withdrawn."""

    number: int
    setup: Setup
    line: Line | None = None  # its register line, once recorded
    steps_done: frozenset[int] = frozenset()
    withdrawn: tuple[Line, ...] = ()

    @property
    def recorded(self) -> bool:
        return self.line is not None

    @property
    def winner(self) -> int | None:
        return None if self.line is None else self.line.winner


@dataclass(frozen=True, slots=True)
class Campaign:
    """Everything the referee knows of a campaign between two facts."""

    name: str
    mayors: tuple[Mayor, ...]
    catalog: LegacyCatalog
    start_roll: StartRoll
    games: tuple[Game, ...] = field(default=())

    def game(self, number: int) -> Game:
        if not is_whole_number(number) or not 1 <= number <= len(self.games):
            raise BadResult(f"number: no game {number!r} in the campaign "
                            f"({len(self.games)} started)")
        return self.games[number - 1]

    def next_first(self) -> int | None:
        """The next game's start player: the first game's roll, then the last winner."""
        if not self.games:
            return self.start_roll.winner
        return self.games[-1].winner


# ---------------------------------------------------------------- decide


def create(name: object, mayors: object, catalog: object = None) -> list[cf.CampaignFact]:
    """A new campaign for a group of 2-4 mayors (each `{"name", "colour", "city"}`), with the
    cards unlocked so far (the starting cards, as catalog JSON; "base": the base game's cards,
    base_box.py) or none yet."""
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 60:
        raise BadGroup(f"name: a campaign's name of 1-60 characters is required, got {name!r}")
    group = check_group(mayors)
    if catalog == BASE:
        catalog = base_catalog_json()
    cards = parse_catalog(catalog if catalog is not None else {})
    return [cf.CampaignCreated(name.strip(), tuple(m.name for m in group),
                               tuple(m.colour for m in group), tuple(m.city for m in group),
                               catalog_json(cards))]


def check_group(raw: object) -> tuple[Mayor, ...]:
    low, high = PLAYERS
    if not isinstance(raw, list) or not low <= len(raw) <= high:
        raise BadGroup(f"mayors: a list of {low}-{high} players is required, got {raw!r}")
    mayors: list[Mayor] = []
    for seat, item in enumerate(raw):
        where = f"mayors[{seat}]"
        if not isinstance(item, dict) or set(item) - {"name", "colour", "city"}:
            raise BadGroup(f"{where}: an object with name, colour and city is required")
        name, colour, city = (_text(item, "name", where), item.get("colour"),
                              _text(item, "city", where))
        if colour not in MAYOR_COLOURS:
            raise BadGroup(f"{where}.colour: one of {', '.join(MAYOR_COLOURS)} is required, "
                           f"got {colour!r}")
        for other in mayors:
            for field_name, mine, theirs in (("name", name.casefold(), other.name.casefold()),
                                             ("colour", colour, other.colour),
                                             ("city", city.casefold(), other.city.casefold())):
                if mine == theirs:
                    raise BadGroup(f"{where}.{field_name}: {item[field_name]!r} is already "
                                   f"{other.name}'s")
        mayors.append(Mayor(name, colour, city))
    return tuple(mayors)


def _text(item: dict[str, Any], key: str, where: str) -> str:
    value = item.get(key)
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > TEXT_LIMIT:
        raise BadGroup(f"{where}.{key}: 1-{TEXT_LIMIT} characters are required, got {value!r}")
    return value.strip()


def decide(campaign: Campaign, command: Command) -> list[cf.CampaignFact]:
    """The facts of the organizer's command, or a RuleError (nothing changes)."""
    if isinstance(command, AddEntry):
        added = with_entry(campaign.catalog, command.kind, command.entry)
        return [cf.EntryAdded(command.kind, entry_json(added.entries(command.kind)[-1]))]
    if isinstance(command, ReplaceEntry):
        changed = with_replaced(campaign.catalog, command.kind, command.entry)
        entry = next(e for e in changed.entries(command.kind) if e.id == command.entry["id"])
        return [cf.EntryReplaced(command.kind, entry_json(entry))]
    if isinstance(command, SetStatus):
        with_status(campaign.catalog, command.card, command.status)
        return [cf.StatusChanged(command.card, command.status)]
    if isinstance(command, SetPicks):
        return _set_picks(campaign, command)
    if isinstance(command, RollForStart):
        return _roll_for_start(campaign, command.dice)
    if isinstance(command, StartGame):
        return _start_game(campaign, command)
    if isinstance(command, RecordGame):
        return _record_game(campaign, command)
    if isinstance(command, WithdrawGame):
        return _withdraw_game(campaign, command)
    return _tick(campaign, command)


def _set_picks(campaign: Campaign, command: SetPicks) -> list[cf.CampaignFact]:
    seat, picks = command.seat, command.picks
    if not is_whole_number(seat) or not 0 <= seat < len(campaign.mayors):
        raise BadGroup(f"seat: a mayor's seat 0-{len(campaign.mayors) - 1} is required, got {seat!r}")
    if not is_whole_number(picks) or not 0 <= picks <= 12:
        raise BadGroup(f"picks: a number of town-square cards 0-12 is required, got {picks!r}")
    return [cf.PicksSet(seat, picks)]


def _roll_for_start(campaign: Campaign, dice: object) -> list[cf.CampaignFact]:
    """One round of the first game's roll: two dice for every contender, in seat order."""
    roll = campaign.start_roll
    if roll.winner is not None:
        raise RollOff(f"the start player is already rolled: {campaign.mayors[roll.winner].name}")
    names = ", ".join(campaign.mayors[seat].name for seat in roll.contenders)
    if not isinstance(dice, list) or len(dice) != len(roll.contenders):
        raise RollOff(f"dice: two dice for each of {names} are required, got {dice!r}")
    for index, pair in enumerate(dice):
        if (not isinstance(pair, list | tuple) or len(pair) != 2
                or not all(is_whole_number(d) and 1 <= d <= 6 for d in pair)):
            raise RollOff(f"dice[{index}]: two dice 1-6 are required, got {pair!r}")
    return [cf.StartRolled(roll.contenders, tuple(pair[0] for pair in dice),
                           tuple(pair[1] for pair in dice))]


def proposal(campaign: Campaign) -> dict[str, Any]:
    """The next game's set-up as the console proposes it (seed 002): every player the three
    landmarks in play with the lowest letters (two from the last game and the new one), the
    community landmark added last, each mayor's first town-square cards."""
    catalog = campaign.catalog
    landmarks = sorted((lm for lm in catalog.landmarks if lm.status == "in_play"),
                       key=lambda lm: lm.letter)[:LANDMARKS_EACH]
    community = [c.id for c in catalog.community if c.status == "in_play"]
    return {"landmarks": [[lm.id for lm in landmarks] for _ in campaign.mayors],
            "community": community[-1] if community else None,
            "town_square": [own_town_square(catalog, mayor)[:mayor.picks]
                            for mayor in campaign.mayors],
            "slot_costs": None}


def own_town_square(catalog: LegacyCatalog, mayor: Mayor) -> list[str]:
    """The town-square cards `mayor` may choose: those of their colour first (seed 002, step 4:
    "iedere speler krijgt de stadspleinkaart in zijn kleur"; the newest first), then the ones
    every player has (the Wheat Field and the Bakery), in the order they were added."""
    cards = catalog.town_square()
    own = [card.id for card in reversed(cards) if card.mayor_colour == mayor.colour]
    return own + [card.id for card in cards if card.mayor_colour is None]


def readiness(campaign: Campaign) -> NotReady | CampaignOver | None:
    """Why the next game cannot start yet, or None."""
    if len(campaign.games) >= GAMES:
        return CampaignOver(f"the campaign's {GAMES} games are played")
    if not campaign.games:
        if campaign.start_roll.winner is None:
            return NotReady("roll for the first start player first (two dice each)")
        return None
    last = campaign.games[-1]
    if not last.recorded:
        return NotReady(f"record game {last.number}'s winner first")
    open_steps = [number for number, _ in STEPS if number not in last.steps_done]
    if open_steps:
        return NotReady(f"game {last.number}'s end-of-game step {open_steps[0]} is not done")
    return None


def _start_game(campaign: Campaign, command: StartGame) -> list[cf.CampaignFact]:
    why = readiness(campaign)
    if why is not None:
        raise why
    proposed = proposal(campaign)
    chosen = {name: proposed[name] if getattr(command, name) is None else getattr(command, name)
              for name in proposed}
    catalog = campaign.catalog
    landmarks = check_landmarks(catalog, chosen["landmarks"])
    if len(landmarks) != len(campaign.mayors):
        raise BadSetup(f"landmarks: a list per player ({len(campaign.mayors)} lists) is required")
    for seat, own in enumerate(landmarks):
        for index, landmark in enumerate(own):
            if catalog.landmark(landmark).status != "in_play":
                raise BadSetup(f"landmarks[{seat}][{index}]: {landmark!r} is in the reserve")
    community = check_community(catalog, chosen["community"])
    if catalog.community_landmark(community).status != "in_play":
        raise BadSetup(f"community: {community!r} is in the reserve")
    town = check_town_square(catalog, chosen["town_square"], len(campaign.mayors))
    for seat, (mayor, own) in enumerate(zip(campaign.mayors, town, strict=True)):
        for index, card in enumerate(own):
            colour = catalog.establishment(card).mayor_colour
            if colour is not None and colour != mayor.colour:
                raise BadSetup(f"town_square[{seat}][{index}]: {card!r} is the {colour} "
                               f"player's town-square card, not {mayor.name}'s ({mayor.colour})")
        if len(own) != mayor.picks:
            raise BadSetup(f"town_square[{seat}]: {mayor.name} chooses {mayor.picks} "
                           f"town-square cards, got {len(own)}")
    slots = check_slot_costs(chosen["slot_costs"])
    first = campaign.next_first()
    assert first is not None  # readiness
    return [cf.GameStarted(len(campaign.games) + 1, first, {
        "landmarks": [list(own) for own in landmarks], "community": community,
        "town_square": [list(own) for own in town], "slot_costs": list(slots) or None})]


def check_date(value: object) -> str:
    """A date as the register writes it: YYYY-MM-DD, a day of the calendar."""
    found = _DATE.match(value) if isinstance(value, str) else None
    if found is not None:
        year, month, day = (int(part) for part in found.groups())
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        days = (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
        if 1 <= month <= 12 and 1 <= day <= days[month - 1]:
            return str(value)
    raise BadResult(f"date: a date YYYY-MM-DD is required, got {value!r}")


def _record_game(campaign: Campaign, command: RecordGame) -> list[cf.CampaignFact]:
    """The register's line of a game (seed 002, step 1): its date, its winner and their city."""
    game = campaign.game(command.number)
    if game.recorded:
        raise BadResult(f"number: game {game.number} is already recorded")
    winner = command.winner
    if not is_whole_number(winner) or not 0 <= winner < len(campaign.mayors):
        raise BadResult(f"winner: a mayor's seat 0-{len(campaign.mayors) - 1} is required, "
                        f"got {winner!r}")
    date = check_date(command.date)
    mayor = campaign.mayors[winner]
    return [cf.GameRecorded(game.number, winner, date, mayor.name, mayor.city)]


def _withdraw_game(campaign: Campaign, command: WithdrawGame) -> list[cf.CampaignFact]:
    """A register line taken back (the undo of the move that decided the game): only while the
    next game has not started from its winner (RULES.md 15). Its steps are open again; the cards
    steps 2 and 3 archived stay there (the game's set-up chose them, not its winner)."""
    game = campaign.game(command.number)
    line = game.line
    if line is None:
        raise BadResult(f"number: game {game.number} is not recorded")
    if game.number != len(campaign.games):
        raise NotReady(f"number: game {game.number + 1} has started from game {game.number}'s "
                       "winner: its line stays")
    return [cf.GameWithdrawn(game.number, line.winner, line.date,
                             campaign.mayors[line.winner].name, line.city)]


def _tick(campaign: Campaign, command: TickStep) -> list[cf.CampaignFact]:
    """An end-of-game step done, in the rule book's order; steps 2 and 3 archive their cards."""
    game = campaign.game(command.number)
    step = command.step
    if not is_whole_number(step) or not 1 <= step <= len(STEPS):
        raise NotReady(f"step: a step 1-{len(STEPS)} is required, got {step!r}")
    if not game.recorded:
        raise NotReady(f"record game {game.number}'s winner first (step 1)")
    if step in game.steps_done:
        raise NotReady(f"step {step} of game {game.number} is already done")
    before = [number for number, _ in STEPS if number < step and number not in game.steps_done]
    if before:
        raise NotReady(f"step {before[0]} of game {game.number} comes first")
    archived = tuple(card for card in archived_by(game.setup, step)
                     if (found := campaign.catalog.find(card)) and found[2].status != "archive")
    return [cf.StepDone(game.number, step, archived)]


# ---------------------------------------------------------------- evolve


def evolve(campaign: Campaign | None, facts: Iterable[cf.CampaignFact]) -> Campaign:
    """The campaign after the facts (the first of a journal creates it). Never fails."""
    for fact in facts:
        campaign = _apply(campaign, fact)
    assert campaign is not None, "a campaign's journal starts with CampaignCreated"
    return campaign


def replay(facts: Iterable[cf.CampaignFact]) -> Campaign:
    return evolve(None, facts)


def _apply(campaign: Campaign | None, fact: cf.CampaignFact) -> Campaign:
    if isinstance(fact, cf.CampaignCreated):
        mayors = tuple(Mayor(*row) for row in zip(fact.names, fact.colours, fact.cities, strict=True))
        return Campaign(fact.name, mayors, parse_catalog(fact.catalog),
                        StartRoll(tuple(range(len(mayors)))))
    assert campaign is not None
    if isinstance(fact, cf.EntryAdded):
        return replace(campaign, catalog=with_entry(campaign.catalog, fact.kind, fact.entry))
    if isinstance(fact, cf.EntryReplaced):
        return replace(campaign, catalog=with_replaced(campaign.catalog, fact.kind, fact.entry))
    if isinstance(fact, cf.StatusChanged):
        return replace(campaign, catalog=with_status(campaign.catalog, fact.card, fact.status))
    if isinstance(fact, cf.PicksSet):
        group = list(campaign.mayors)
        group[fact.seat] = replace(group[fact.seat], picks=fact.picks)
        return replace(campaign, mayors=tuple(group))
    if isinstance(fact, cf.StartRolled):
        return replace(campaign, start_roll=_rolled(campaign.start_roll, fact))
    if isinstance(fact, cf.GameStarted):
        return replace(campaign, games=(*campaign.games, _game(campaign, fact)))
    if isinstance(fact, cf.GameRecorded):
        return _with_game(campaign, fact.number, line=Line(fact.winner, fact.date, fact.city),
                          steps_done=frozenset({1}))
    if isinstance(fact, cf.GameWithdrawn):
        line = Line(fact.winner, fact.date, fact.city)
        return _with_game(campaign, fact.number, line=None, steps_done=frozenset(),
                          withdrawn=(*campaign.games[fact.number - 1].withdrawn, line))
    catalog = campaign.catalog
    for card in fact.archived:
        catalog = with_status(catalog, card, "archive")
    done = campaign.games[fact.number - 1].steps_done | {fact.step}
    return _with_game(replace(campaign, catalog=catalog), fact.number, steps_done=done)


def _rolled(roll: StartRoll, fact: cf.StartRolled) -> StartRoll:
    pairs = tuple(zip(fact.first, fact.second, strict=True))
    totals = [a + b for a, b in pairs]
    best = [seat for seat, total in zip(fact.seats, totals, strict=True) if total == max(totals)]
    return StartRoll(tuple(best), (*roll.rounds, pairs), best[0] if len(best) == 1 else None)


def _game(campaign: Campaign, fact: cf.GameStarted) -> Game:
    """The game as started: its set-up with the catalog frozen as it stands now."""
    choice = fact.choice
    setup = Setup(campaign.catalog, fact.number, fact.first,
                  tuple(tuple(own) for own in choice["landmarks"]), choice["community"],
                  tuple(tuple(own) for own in choice["town_square"]),
                  tuple(choice["slot_costs"] or ()))
    return Game(fact.number, setup)


def _with_game(campaign: Campaign, number: int, **changes: Any) -> Campaign:
    games = list(campaign.games)
    games[number - 1] = replace(games[number - 1], **changes)
    return replace(campaign, games=tuple(games))


def game_options(campaign: Campaign, number: int) -> dict[str, Any]:
    """A started game's table options (the ruleset's `check_options` takes them): its set-up
    with its frozen catalog. The table's seats are the mayors, in the group's order."""
    return setup_json(campaign.game(number).setup)


def table_names(campaign: Campaign) -> tuple[str, ...]:
    return tuple(mayor.name for mayor in campaign.mayors)
