"""The JSON scenario form of SCENARIOS.md: one table just before a roll, resolved by the engine.

Every refusal is a ScenarioError whose message starts with the field it names. The table is
checked as a careful referee would (docs/rules.md, "Scenarios"): a table no real game can reach
is refused, and an answer is checked only when its card activates.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.rules.coop.assessor import ASSESSOR_DECK
from companion.rules.coop.scenario import SHOWN, resolve_assessor_scenario, show
from companion.rules.coop.state import RULESET as COOP
from companion.rules.coop.state import SEATS as COOP_SEATS
from companion.rules.errors import RuleError, ScenarioError, is_whole_number, one_line
from companion.rules.machi_koro.activation import activation_table, has_effect, needs_table_roll
from companion.rules.machi_koro.catalog import ADD_FROM, Catalog, card_sets, load_catalog, set_of
from companion.rules.machi_koro.engine import check_swap_card, decide, default_move
from companion.rules.machi_koro.evolve import replay
from companion.rules.machi_koro.facts import CoinsTransferred, Fact
from companion.rules.machi_koro.moves import (
    AddTwo,
    DeclineSwap,
    Move,
    Roll,
    SwapEstablishments,
    TargetTvStation,
)
from companion.rules.machi_koro.state import BANK, Choice, Phase, Player, TableState, frozen_counts

TABLE_RULESETS = ("machi-koro", COOP)
_KINDS = {int: "a whole number", str: "text", list: "a list", dict: "an object",
          bool: "true or false"}


def resolve(scenario: Any, catalog: Catalog | None = None) -> dict[str, Any]:
    """The outcome of a scenario as SCENARIOS.md prints it; ScenarioError if it breaks a rule.
    `catalog`: the table's cards, instead of the ones its `card_sets` name."""
    if _ruleset(scenario) == "tax-assessor":
        return resolve_assessor_scenario(scenario, catalog or load_catalog())
    start, facts = play(scenario, catalog or _catalog(scenario))
    final = replay(start, facts)
    return {
        "coins": {player.name: player.coins for player in final.players},
        "transfers": [  # a transfer of 0 is left out unless it records a forgiven part
            _transfer_json(final, fact) for fact in facts
            if isinstance(fact, CoinsTransferred) and (fact.amount or fact.forgiven)
        ],
        "extra_turn": final.extra_turn,
    }


def play(scenario: Mapping[str, Any], catalog: Catalog) -> tuple[TableState, list[Fact]]:
    """The checked table and the facts of its roll, answers (or defaults) included. The roll
    ends where the build step begins: City Hall's coin (docs/rules.md 31) is not part of it."""
    state, dice = read_table(scenario, catalog)
    answers = read_answers(scenario, state, dice, catalog)
    facts = _play_roll(state, dice, answers, catalog)
    city_halls = {lm.id for lm in catalog.landmarks.values() if lm.effect == "coin_when_broke"}
    return state, [fact for fact in facts
                   if not (isinstance(fact, CoinsTransferred) and fact.card in city_halls)]


def _catalog(scenario: Mapping[str, Any]) -> Catalog:
    """The catalog of the scenario's `card_sets` (default: the base set alone). The base set
    is always played; the others are added to it in the order the files list them."""
    sets: list[Any] = _optional(scenario, "card_sets", list, ["base"])
    known = card_sets()
    for i, name in enumerate(sets):
        if not isinstance(name, str) or name not in known:
            raise ScenarioError(f"card_sets[{i}]: unknown card set {show(name)} "
                                f"(known: {', '.join(known)})")
        if name in sets[:i]:
            raise ScenarioError(f"card_sets[{i}]: {name!r} is listed twice")
    if "base" not in sets:
        raise ScenarioError("card_sets: the base set is always played: list \"base\" too")
    return load_catalog("base", *(name for name in known if name in sets and name != "base"))


def _not_in_sets(card: str, catalog: Catalog) -> str:
    """Why a card id is unknown at this table: a card of a set it does not play, or none."""
    home = set_of(card)
    if home is not None and home not in catalog.card_sets:
        return f"{show(card)} is a card of the {home} set; add {show(home)} to card_sets"
    return f"unknown card {show(card)}"


def _ruleset(scenario: Any) -> str:
    if not isinstance(scenario, dict):
        raise ScenarioError(f"scenario: a JSON object is required, not {show(scenario)}")
    ruleset: str = _field(scenario, "ruleset", str)
    known = (*TABLE_RULESETS, "tax-assessor")
    if ruleset not in known:
        raise ScenarioError(f"ruleset: unknown ruleset {show(ruleset)} (known: {', '.join(known)})")
    return ruleset


# ---------------------------------------------------------------- the table


def read_table(scenario: Mapping[str, Any], catalog: Catalog) -> tuple[TableState, tuple[int, ...]]:
    """The table a scenario describes, checked field by field, and the dice that count."""
    coop = scenario["ruleset"] == COOP
    raw_players = _field(scenario, "players", list)
    low, high = (COOP_SEATS, COOP_SEATS) if coop else (catalog.players_min, catalog.players_max)
    if not low <= len(raw_players) <= high:
        seats = f"exactly {low}" if coop else f"{low} to {high}"
        game = "the co-op game" if coop else "a table"
        raise ScenarioError(f"players: {game} has {seats} players, not {len(raw_players)}")
    players = tuple(_read_player(raw, f"players[{i}]", catalog) for i, raw in enumerate(raw_players))
    _check_names(players)
    _check_box(players, catalog, coop)
    _check_coins(players, catalog)
    play_on = _check_places(players, catalog, coop)
    active: int = _field(scenario, "active", int)
    if not 0 <= active < len(players):
        raise ScenarioError(f"active: a player index from 0 to {len(players) - 1}, not {show(active)}")
    roller = players[active]
    if roller.place is not None:
        raise ScenarioError(f"active: {show(roller.name)} has finished (place {roller.place}) "
                            "and no longer rolls")
    dice = _read_dice(scenario, roller, catalog)
    bonus_turn: bool = _optional(scenario, "bonus_turn", bool, False)
    if bonus_turn and not has_effect(catalog, roller, "extra_turn_on_doubles"):
        raise ScenarioError(
            f"bonus_turn: only an Amusement Park gives an extra turn; {roller.name} has none"
        )
    players = tuple(
        replace(player, dice_count=len(dice)) if seat == active else player
        for seat, player in enumerate(players)
    )
    supply = frozen_counts({
        card: table_copies(catalog, card, coop) - sum(p.owns(card) for p in players)
        for card in catalog.establishments
    })
    state = TableState(
        ruleset=scenario["ruleset"], players=players, bank=catalog.bank_coins, supply=supply,
        active=active, rerolled=True,  # the dice given are the ones that count, after any reroll
        bonus_turn=bonus_turn, bank_pays_players=coop, play_on=play_on,
    )
    return state, dice


def _read_player(raw: Any, where: str, catalog: Catalog) -> Player:
    if not isinstance(raw, dict):
        raise ScenarioError(f"{where}: an object is required, not {show(raw)}")
    name: str = _field(raw, "name", str, where)
    if not name.strip():
        raise ScenarioError(f"{where}.name: a non-empty name is required")
    if name == BANK:
        raise ScenarioError(f"{where}.name: {BANK!r} names the bank in the transfers")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise ScenarioError(f"{where}.name: not valid Unicode text: {show(name)}") from None
    coins: int = _field(raw, "coins", int, where)
    if coins < 0:
        raise ScenarioError(f"{where}.coins: coins are never below zero, not {show(coins)}")
    if coins > catalog.bank_coins:
        raise ScenarioError(f"{where}.coins: the box has {catalog.bank_coins} coins, not {show(coins)}")
    cards = {card: _read_count(card, count, f"{where}.cards.{_key(card)}", catalog)
             for card, count in _field(raw, "cards", dict, where).items()}
    landmarks: list[Any] = _field(raw, "landmarks", list, where)
    for i, landmark in enumerate(landmarks):
        _check_landmark(landmark, landmarks[:i], f"{where}.landmarks[{i}]", catalog)
    place = raw.get("place")
    if place is not None and (not is_whole_number(place) or place < 1):
        raise ScenarioError(f"{where}.place: a place is a whole number from 1, not {show(place)}")
    built = frozenset(lm.id for lm in catalog.landmarks.values() if lm.starts_built)
    return Player(name, coins, frozen_counts(cards), built | frozenset(landmarks), place=place)


def _read_count(card: str, count: Any, where: str, catalog: Catalog) -> int:
    if card in catalog.landmarks:
        raise ScenarioError(f"{where}: {card!r} is a landmark: list it under landmarks")
    if card not in catalog.establishments:
        raise ScenarioError(f"{where}: {_not_in_sets(card, catalog)}")
    if not is_whole_number(count) or count < 0:
        raise ScenarioError(f"{where}: a whole number >= 0 is required, not {show(count)}")
    if catalog.establishments[card].is_purple and count > 1:
        raise ScenarioError(f"{where}: at most one of each purple card, not {show(count)}")
    if count > catalog.in_box(card):  # before any sum: a count of thousands of digits stays one
        raise ScenarioError(f"{where}: the box has {catalog.in_box(card)}, not {show(count)}")
    return int(count)


def _check_landmark(landmark: Any, before: list[Any], where: str, catalog: Catalog) -> None:
    if not isinstance(landmark, str):
        raise ScenarioError(f"{where}: a landmark id (text) is required, not {show(landmark)}")
    if landmark in catalog.establishments:
        raise ScenarioError(f"{where}: {landmark!r} is an establishment: list it under cards")
    if landmark not in catalog.landmarks:
        home = set_of(landmark)
        if home is not None and home not in catalog.card_sets:
            raise ScenarioError(f"{where}: {_not_in_sets(landmark, catalog)}")
        raise ScenarioError(f"{where}: unknown landmark {show(landmark)}")
    if landmark in before:
        raise ScenarioError(f"{where}: {landmark!r} is listed twice")


def _check_names(players: tuple[Player, ...]) -> None:
    seats: dict[str, int] = {}
    for seat, player in enumerate(players):
        if player.name in seats:
            raise ScenarioError(
                f"players[{seat}].name: {show(player.name)} is already players[{seats[player.name]}]"
            )
        seats[player.name] = seat


def _check_places(players: tuple[Player, ...], catalog: Catalog, coop: bool) -> bool:
    """Play on after a win (RULES.md 14, SCENARIOS.md): the places of the finished players are
    1, 2, ... without a repeat or a gap, each finished player has every landmark, and at least
    two players still play. Whether the table plays on: when any player has a place."""
    finished = [(seat, p) for seat, p in enumerate(players) if p.place is not None]
    if not finished:
        return False
    if coop:
        seat = finished[0][0]
        raise ScenarioError(f"players[{seat}].place: the co-op game has no places (play on is a "
                            "variant of the base game)")
    seen: dict[int, int] = {}
    for seat, player in finished:
        assert player.place is not None
        if player.place in seen:
            raise ScenarioError(f"players[{seat}].place: place {player.place} is already "
                                f"players[{seen[player.place]}]'s")
        seen[player.place] = seat
    for seat, player in finished:
        assert player.place is not None
        if player.place > len(finished):
            missing = min(set(range(1, len(finished) + 1)) - set(seen))
            raise ScenarioError(f"players[{seat}].place: places are taken in order; place "
                                f"{missing} is missing before {player.place}")
        built = catalog.landmarks_to_win - player.landmarks
        if built:
            raise ScenarioError(f"players[{seat}].place: a finished player has built every "
                                f"landmark; {show(player.name)} lacks {', '.join(sorted(built))}")
    playing = len(players) - len(finished)
    if playing < 2:
        raise ScenarioError(f"players: a roll needs two players still playing, not {playing}")
    for seat, player in enumerate(players):
        if player.place is None and catalog.landmarks_to_win <= player.landmarks:
            raise ScenarioError(f"players[{seat}].place: {show(player.name)} has built every "
                                "landmark, so has finished: give their place")
    return True


def table_copies(catalog: Catalog, card_id: str, coop: bool) -> int:
    """How many copies of an establishment a table can hold: the whole box (a table of fewer
    seats might take the spare starting cards from it); in the co-op game the whole box but the
    assessor's deck (seed 004)."""
    if coop:
        return catalog.in_box(card_id) - ASSESSOR_DECK.get(card_id, 0)
    return catalog.in_box(card_id)


def _check_box(players: tuple[Player, ...], catalog: Catalog, coop: bool) -> None:
    for card in catalog.establishments:
        owned = sum(player.owns(card) for player in players)
        limit = table_copies(catalog, card, coop)
        if owned > limit:
            game = "the co-op game" if coop else "the box"
            raise ScenarioError(f"players: {owned} {card} cards at the table; {game} has {limit}")


def _check_coins(players: tuple[Player, ...], catalog: Catalog) -> None:
    coins = sum(player.coins for player in players)
    if coins > catalog.bank_coins:
        raise ScenarioError(f"players: {coins} coins at the table; the box has {catalog.bank_coins}")


def _read_dice(scenario: Mapping[str, Any], roller: Player, catalog: Catalog) -> tuple[int, ...]:
    dice: list[Any] = _field(scenario, "dice", list)
    if len(dice) not in (1, 2):
        raise ScenarioError(f"dice: one or two dice, not {len(dice)}")
    for i, value in enumerate(dice):
        if not is_whole_number(value) or not 1 <= value <= 6:
            raise ScenarioError(f"dice[{i}]: a die shows 1 to 6, not {show(value)}")
    if len(dice) == 2 and not has_effect(catalog, roller, "two_dice"):
        raise ScenarioError(f"dice: two dice need a Train Station; {roller.name} has none")
    return tuple(dice)


# ---------------------------------------------------------------- the roller's answers


@dataclass(frozen=True, slots=True)
class Answers:
    """The roller's checked answers: a TV Station target seat (None: the default) and the
    Business Center move (a swap or DeclineSwap)."""

    tv_target: int | None = None
    swap: Move = DeclineSwap()
    add_two: bool = False
    table_roll: tuple[int, ...] = ()


def read_answers(
    scenario: Mapping[str, Any], state: TableState, dice: tuple[int, ...], catalog: Catalog,
) -> Answers:
    """`choices`, checked for the purple cards this roll activates and ignored for the rest;
    the Harbor's choice and the Tuna Boats' `tuna_roll` where they count (docs/scenarios.md)."""
    choices: dict[str, Any] = _optional(scenario, "choices", dict, {})
    names = {player.name: seat for seat, player in enumerate(state.players)}
    total = sum(dice)
    answers = Answers()
    if total >= ADD_FROM and has_effect(catalog, state.roller, "add_to_total"):
        add = choices.get("harbor_add_two")
        if add is not None and not isinstance(add, bool):
            raise ScenarioError(f"choices.harbor_add_two: true or false is required, not {show(add)}")
        add = bool(add)
        answers = replace(answers, add_two=add)
        total += 2 if add else 0
    if needs_table_roll(state, catalog, total):
        answers = replace(answers, table_roll=_read_table_roll(scenario))
    if _activates(state, total, catalog, "take_from_one"):
        answers = replace(answers, tv_target=_tv_target(choices, state, names))
    if _activates(state, total, catalog, "swap"):
        answers = replace(answers, swap=_swap_answer(choices, state, names, catalog))
    return answers


def _read_table_roll(scenario: Mapping[str, Any]) -> tuple[int, ...]:
    """`tuna_roll`: the two dice rolled once for the table's Tuna Boats."""
    if scenario.get("tuna_roll") is None:
        raise ScenarioError("tuna_roll: missing; the roll activates a Tuna Boat whose owner has "
                            "the Harbor, so the table rolls two dice for it")
    rolled: list[Any] = _field(scenario, "tuna_roll", list)
    if len(rolled) != 2:
        raise ScenarioError(f"tuna_roll: two dice, not {len(rolled)}")
    for i, value in enumerate(rolled):
        if not is_whole_number(value) or not 1 <= value <= 6:
            raise ScenarioError(f"tuna_roll[{i}]: a die shows 1 to 6, not {show(value)}")
    return tuple(rolled)


def _activates(state: TableState, total: int, catalog: Catalog, effect: str) -> bool:
    """Whether the roller owns a purple card with `effect` that this total activates."""
    purple = activation_table(catalog).cards(total).purple
    return any(card.effect == effect and state.roller.owns(card.id) for card in purple)


def _tv_target(choices: Mapping[str, Any], state: TableState, names: Mapping[str, int]) -> int | None:
    target = choices.get("tv_station_target")
    if target is None:
        return None
    where = "choices.tv_station_target"
    seat = _seat_named(target, names, where)
    if seat == state.active:
        raise ScenarioError(f"{where}: the TV Station takes from another player, not its owner")
    _check_playing(state, seat, where)
    return seat


def _check_playing(state: TableState, seat: int, where: str) -> None:
    """A TV Station target or Business Center partner still plays (RULES.md 14)."""
    player = state.players[seat]
    if player.place is not None:
        raise ScenarioError(f"{where}: {show(player.name)} has finished (place {player.place}) "
                            "and neither pays nor swaps")


def _swap_answer(
    choices: Mapping[str, Any], state: TableState, names: Mapping[str, int], catalog: Catalog,
) -> Move:
    where = "choices.business_center"
    answer = choices.get("business_center")
    if answer is None or answer == "decline":
        return DeclineSwap()
    if not isinstance(answer, dict):
        raise ScenarioError(
            f'{where}: an object with "with", "give" and "take", or "decline", not {show(answer)}'
        )
    if answer.get("decline") is True:
        return DeclineSwap()
    other = _seat_named(_field(answer, "with", str, where), names, f"{where}.with")
    if other == state.active:
        raise ScenarioError(f"{where}.with: a swap is with another player, not the roller")
    _check_playing(state, other, f"{where}.with")
    give = _swap_card(answer, "give", state.roller, catalog)
    take = _swap_card(answer, "take", state.players[other], catalog)
    return SwapEstablishments(other, give, take)


def _swap_card(answer: Mapping[str, Any], key: str, owner: Player, catalog: Catalog) -> str:
    where = f"choices.business_center.{key}"
    card: str = _field(answer, key, str, "choices.business_center")
    try:
        check_swap_card(catalog, owner, card)
    except RuleError as exc:
        raise ScenarioError(f"{where}: {exc.message}") from None
    return card


def _seat_named(name: Any, names: Mapping[str, int], where: str) -> int:
    if not isinstance(name, str) or name not in names:
        raise ScenarioError(f"{where}: no player named {show(name)}")
    return names[name]


# ---------------------------------------------------------------- the roll


def _play_roll(
    state: TableState, dice: tuple[int, ...], answers: Answers, catalog: Catalog,
) -> list[Fact]:
    """The roll, then the answers to the purple questions the engine asks. The engine accepts
    them: the dice and answers were checked with its rules (the swap's cards by its own check)
    when they were read, each refusal naming its field."""
    def dealt(outcomes: tuple[str, ...]) -> tuple[str, ...]:
        """The service's shuffle, with the scenario's Tuna Boat roll on top."""
        top = "-".join(map(str, answers.table_roll))
        return (top, *(outcome for outcome in outcomes if outcome != top))

    facts = decide(state, state.active, Roll(dice), catalog, dealt)
    current = replay(state, facts)
    if current.phase is Phase.HARBOR:
        answer = decide(current, current.active, AddTwo(answers.add_two), catalog, dealt)
        facts.extend(answer)
        current = replay(current, answer)
    while current.phase is Phase.CHOOSE:
        answer = decide(current, current.active, _move_for(current, answers), catalog, dealt)
        facts.extend(answer)
        current = replay(current, answer)
    return facts


def _move_for(state: TableState, answers: Answers) -> Move:
    if state.pending[0] is Choice.BUSINESS_CENTER:
        return answers.swap
    if answers.tv_target is not None:
        return TargetTvStation(answers.tv_target)
    default = default_move(state)  # the richest other player, ties counter-clockwise
    assert default is not None, "a TV Station question has a default"
    return default


def _transfer_json(state: TableState, fact: CoinsTransferred) -> dict[str, Any]:
    def account(party: int | str) -> str:
        return BANK if party == BANK else state.players[int(party)].name

    return {
        "from": account(fact.source), "to": account(fact.target), "amount": fact.amount,
        "card": fact.card, "forgiven": fact.forgiven,
    }


# ---------------------------------------------------------------- fields


def _is_kind(value: Any, kind: type) -> bool:
    return is_whole_number(value) if kind is int else isinstance(value, kind)


def _field(data: Mapping[str, Any], key: str, kind: type, where: str = "") -> Any:
    """data[key], required and of `kind` (JSON true is not a number), or a ScenarioError."""
    name = f"{where}.{key}" if where else key
    if key not in data:
        raise ScenarioError(f"{name}: missing")
    value = data[key]
    if not _is_kind(value, kind):
        raise ScenarioError(f"{name}: {_KINDS[kind]} is required, not {show(value)}")
    return value


def _optional(data: Mapping[str, Any], key: str, kind: type, default: Any) -> Any:
    """data[key] when given and not null, else `default`; of `kind` or a ScenarioError."""
    if data.get(key) is None:
        return default
    return _field(data, key, kind)


def _key(key: str) -> str:
    """An object key from the input, for a field's name: one line, cut short."""
    key = one_line(key)
    return key if len(key) <= SHOWN else key[:SHOWN - 3] + "..."
