"""The JSON scenario form of SCENARIOS.md: one table just before a roll, resolved by the engine.

Every refusal is a ScenarioError whose message starts with the field it names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.rules import assessor
from companion.rules.catalog import Catalog, load_catalog
from companion.rules.engine import decide, default_move, replay
from companion.rules.errors import RuleError
from companion.rules.events import CoinsTransferred, Event
from companion.rules.moves import DeclineSwap, Move, Roll, SwapEstablishments, TargetTvStation
from companion.rules.state import BANK, Choice, Phase, Player, TableState, frozen_counts

TABLE_RULESETS = ("machi-koro", "machi-koro-coop")


class ScenarioError(RuleError):
    code = "scenario/invalid"


def resolve(scenario: Any, catalog: Catalog | None = None) -> dict[str, Any]:
    """The outcome of a scenario as SCENARIOS.md prints it; ScenarioError if it breaks a rule."""
    catalog = catalog or load_catalog()
    if not isinstance(scenario, dict):
        raise ScenarioError("scenario: a JSON object is required")
    ruleset = scenario.get("ruleset")
    if ruleset == "tax-assessor":
        return assessor.resolve_assessor_scenario(scenario, catalog)
    if ruleset not in TABLE_RULESETS:
        known = ", ".join((*TABLE_RULESETS, "tax-assessor"))
        raise ScenarioError(f"ruleset: unknown ruleset {ruleset!r} (known: {known})")
    state = read_table(scenario, catalog)
    events = _play_roll(state, scenario, catalog)
    final = replay(state, events)
    return {
        "coins": {player.name: player.coins for player in final.players},
        "transfers": [
            _transfer_json(final, event) for event in events
            if isinstance(event, CoinsTransferred) and (event.amount or event.forgiven)
        ],
        "extra_turn": final.extra_turn,
    }


def read_table(scenario: Mapping[str, Any], catalog: Catalog) -> TableState:
    """The table a scenario describes, checked field by field."""
    ruleset = scenario["ruleset"]
    raw_players = _field(scenario, "players", list)
    low, high = (2, 2) if ruleset == "machi-koro-coop" else (catalog.players_min,
                                                             catalog.players_max)
    if not low <= len(raw_players) <= high:
        raise ScenarioError(f"players: {low} to {high} players, not {len(raw_players)}")
    players = tuple(_read_player(raw, f"players[{i}]", catalog) for i, raw in enumerate(raw_players))
    names = [player.name for player in players]
    for name in names:
        if names.count(name) > 1:
            raise ScenarioError(f"players: the name {name!r} is used twice")
    _check_box(players, catalog)
    active = _field(scenario, "active", int)
    if not 0 <= active < len(players):
        raise ScenarioError(f"active: a player index from 0 to {len(players) - 1}, not {active}")
    dice = _field(scenario, "dice", list)
    if len(dice) not in (1, 2):
        raise ScenarioError(f"dice: one or two dice, not {len(dice)}")
    for i, value in enumerate(dice):
        if not _is_int(value) or not 1 <= value <= 6:
            raise ScenarioError(f"dice[{i}]: a die shows 1 to 6, not {value!r}")
    if len(dice) == 2 and not any(
        catalog.landmarks[lm].effect == "two_dice" for lm in players[active].landmarks
    ):
        raise ScenarioError("dice: two dice need a Train Station")
    bonus_turn = scenario.get("bonus_turn", False)
    if not isinstance(bonus_turn, bool):
        raise ScenarioError(f"bonus_turn: true or false, not {bonus_turn!r}")
    players = tuple(
        replace(player, dice_count=len(dice)) if seat == active else player
        for seat, player in enumerate(players)
    )
    owned = {card: sum(p.owns(card) for p in players) for card in catalog.establishments}
    supply = frozen_counts({
        card.id: max(0, catalog.in_box(card.id) - owned[card.id])
        for card in catalog.establishments.values()
    })
    return TableState(
        ruleset=ruleset, players=players, bank=catalog.bank_coins, supply=supply, active=active,
        rerolled=True,  # the dice given are the ones that count, after any reroll
        bonus_turn=bonus_turn, bank_pays_players=ruleset == "machi-koro-coop",
    )


def _read_player(raw: Any, where: str, catalog: Catalog) -> Player:
    if not isinstance(raw, dict):
        raise ScenarioError(f"{where}: an object is required")
    name = _field(raw, "name", str, where)
    if not name.strip():
        raise ScenarioError(f"{where}.name: a non-empty name is required")
    coins = _field(raw, "coins", int, where)
    if coins < 0:
        raise ScenarioError(f"{where}.coins: coins are never below zero, not {coins}")
    cards: dict[str, int] = {}
    for card_id, count in _field(raw, "cards", dict, where).items():
        if card_id not in catalog.establishments:
            raise ScenarioError(f"{where}.cards.{card_id}: unknown card {card_id!r}")
        if not _is_int(count) or count < 0:
            raise ScenarioError(f"{where}.cards.{card_id}: a count >= 0, not {count!r}")
        if catalog.establishments[card_id].is_purple and count > 1:
            raise ScenarioError(
                f"{where}.cards.{card_id}: at most one of each purple card, not {count}"
            )
        cards[card_id] = count
    landmarks = _field(raw, "landmarks", list, where)
    for i, landmark in enumerate(landmarks):
        if landmark not in catalog.landmarks:
            raise ScenarioError(f"{where}.landmarks[{i}]: unknown landmark {landmark!r}")
        if landmarks.index(landmark) != i:
            raise ScenarioError(f"{where}.landmarks[{i}]: {landmark!r} is listed twice")
    return Player(name, coins, frozen_counts(cards), frozenset(landmarks))


def _check_box(players: tuple[Player, ...], catalog: Catalog) -> None:
    for card in catalog.establishments:
        owned = sum(player.owns(card) for player in players)
        if owned > catalog.in_box(card):
            raise ScenarioError(
                f"players: {owned} {card} cards at the table, the box has {catalog.in_box(card)}"
            )


def _play_roll(state: TableState, scenario: Mapping[str, Any], catalog: Catalog) -> list[Event]:
    """The roll, then the roller's answers to purple questions (or the defaults)."""
    choices = scenario.get("choices") or {}
    if not isinstance(choices, dict):
        raise ScenarioError("choices: an object is required")
    names = {player.name: seat for seat, player in enumerate(state.players)}
    try:
        events = decide(state, state.active, Roll(tuple(scenario["dice"])), catalog)
    except RuleError as exc:
        raise ScenarioError(f"dice: {exc.message}") from None
    current = replay(state, events)
    while current.phase is Phase.CHOOSE:
        choice = current.pending[0]
        move = _answer(current, choice, choices, names)
        try:
            answer = decide(current, current.active, move, catalog)
        except RuleError as exc:
            raise ScenarioError(f"choices.{choice.value}: {exc.message}") from None
        events.extend(answer)
        current = replay(current, answer)
    return events


def _answer(
    state: TableState, choice: Choice, choices: Mapping[str, Any], names: Mapping[str, int],
) -> Move:
    if choice is Choice.TV_STATION:
        target = choices.get("tv_station_target")
        if target is None:
            return default_move(state) or DeclineSwap()
        return TargetTvStation(_seat_named(target, names, "choices.tv_station_target"))
    swap = choices.get("business_center")
    if swap is None or swap == "decline" or (isinstance(swap, dict) and swap.get("decline")):
        return DeclineSwap()
    where = "choices.business_center"
    if not isinstance(swap, dict):
        raise ScenarioError(f"{where}: an object with with, give and take, or \"decline\"")
    other = _seat_named(_field(swap, "with", str, where), names, f"{where}.with")
    give, take = _field(swap, "give", str, where), _field(swap, "take", str, where)
    return SwapEstablishments(other, give, take)


def _seat_named(name: Any, names: Mapping[str, int], where: str) -> int:
    if not isinstance(name, str) or name not in names:
        raise ScenarioError(f"{where}: no player named {name!r}")
    return names[name]


def _transfer_json(state: TableState, event: CoinsTransferred) -> dict[str, Any]:
    def account(party: int | str) -> str:
        return BANK if party == BANK else state.players[int(party)].name

    return {
        "from": account(event.source), "to": account(event.target), "amount": event.amount,
        "card": event.card, "forgiven": event.forgiven,
    }


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _field(data: Mapping[str, Any], key: str, kind: type, where: str = "") -> Any:
    """data[key], required and of `kind`, or a ScenarioError naming the field."""
    name = f"{where}.{key}" if where else key
    if key not in data:
        raise ScenarioError(f"{name}: missing")
    value = data[key]
    if kind is int and not _is_int(value) or not isinstance(value, kind):
        raise ScenarioError(f"{name}: a {kind.__name__} is required, not {value!r}")
    return value
