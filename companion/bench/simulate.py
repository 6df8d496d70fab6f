"""Random legal games, for the rules benchmark and the property tests, played through the door
(companion/rules/ruleset.py) as the hall plays a table: set up (`table_setup`), started and
dealt (`start`, `Dealt.deal`), each move one that its seat's view offers (the `choices` of
`seat_view`, what the phone offers), its dice thrown as the service throws them
(`SeatRolls.dice_for`), parsed from its wire form (`parse_move`), decided and evolved. The game
needs turns and seat rolls (`Turns`, `SeatRolls`): Machi Koro with its card sets and variants,
and the co-op game, whose gift to the assessor (a form the phone fills in: `whole_moves`) its
random games leave out. Only the wire forms of docs/api.md are known here (`end_turn`, `build`), not a
game's parts."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from companion.rules.registry import AnyRuleset, ruleset
from companion.rules.ruleset import Dealt, Json, SeatRolls, Story, Turns


@dataclass(frozen=True)
class Step:
    """One accepted move (its wire form and the move parsed with its dice) and the states around
    it: the ruleset's own values."""

    before: Any
    seat: int
    wire: Json
    move: Any
    facts: tuple[Any, ...]
    after: Any


@dataclass(frozen=True)
class Table:
    """A random game's table as the door knows it: its ruleset, set-up and seats' names."""

    rules: AnyRuleset
    setup: Any
    names: tuple[str, ...]

    def story(self, state: Any) -> Story[Any, Any]:
        """A running table of `state` whose seats roll their own dice (their views offer the
        roll), with no moves behind it: enough for the views that offer moves."""
        return Story(self.names, state, running=True, roll_mode="own", setup=self.setup)


def random_move(table: Table, state: Any, rng: random.Random) -> tuple[int, Json, Any]:
    """A seat, a move its view offers now in wire form, and that move parsed with the dice
    thrown for it: the active seat's (the common view's `active`), sometimes another seat's
    (a dice-count change), the active one's when that seat is offered nothing. Builds are
    favoured over ending the turn so that games finish."""
    rules = table.rules
    assert isinstance(rules, SeatRolls), f"{rules.name}: random games need seat rolls"
    story = table.story(state)
    active = rules.common_view(story)["active"]
    seat = rng.randrange(len(table.names)) if rng.random() < 0.05 else active
    choices = whole_moves(rules.seat_view(story, seat, table.setup))
    if not choices and seat != active:  # nothing to change, or a seat that finished (play on)
        seat, choices = active, whole_moves(rules.seat_view(story, active, table.setup))
    ending = [wire for wire in choices if wire["kind"] == "end_turn"]  # the build phase's
    if not ending or rng.random() < 0.1:
        wire = rng.choice(choices)
    else:
        builds = [wire for wire in choices if wire["kind"] == "build"]
        wire = rng.choice(builds) if builds and rng.random() < 0.8 else ending[0]
    dice = tuple(rng.randint(1, 6) for _ in range(rules.dice_for(state, seat, wire)))
    return seat, wire, rules.parse_move(wire, dice)


def whole_moves(view: Json) -> list[Json]:
    """The view's `choices` that are whole moves: not those that lack a field their choice's
    form fills in (an `asks` option's `fields`: the co-op gift's amount, offered as
    `{"kind": "give_assessor", "max": 5}`), which the phone asks the player for and random
    games leave out. A TV Station's choices name their target, as its form would: whole."""
    fields: dict[str, set[str]] = {}
    for ask in view.get("asks", ()):
        for option in ask["options"]:
            keys = {field["key"] for field in option.get("fields", ())}
            fields.setdefault(option["move"]["kind"], set()).update(keys)
    return [wire for wire in view["choices"] if fields.get(wire["kind"], set()) <= wire.keys()]


def random_game(
    seats: int, seed: int, *, max_turns: int = 300, ruleset_name: str = "machi-koro",
    card_sets: tuple[str, ...] = ("base",), options: Mapping[str, Any] | None = None,
) -> Iterator[Step]:
    """Play one random legal game of `seats` players, step by step. Its deal (a variable
    supply's draw pile: Harbor always plays one) comes first and is not a step; the dealer's
    shuffles (a Tuna Boat roll too) and the dice come from the game's seeded random. The first
    seat starts, as at a table the hall starts."""
    rules = ruleset(ruleset_name)
    if not isinstance(rules, Turns) or not isinstance(rules, SeatRolls):
        raise ValueError(f"{ruleset_name}: random games need turns and seat rolls of its own")
    checked = rules.check_options(options or {})
    setup = rules.table_setup(checked, card_sets)
    allowed = rules.seats(setup, checked)
    if not allowed.least <= seats <= allowed.most:
        raise ValueError(f"{ruleset_name}: {allowed.least}-{allowed.most} seats, not {seats}")
    table = Table(rules, setup, tuple(f"P{i}" for i in range(seats)))
    rng = random.Random(seed)

    def shuffle(cards: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(rng.sample(cards, len(cards)))

    state = rules.start(setup, table.names, checked)
    if isinstance(rules, Dealt):
        state = rules.evolve(state, rules.deal(state, setup, shuffle))
    while rules.result(state) is None and rules.turn(state) <= max_turns:
        seat, wire, move = random_move(table, state, rng)
        facts = tuple(rules.decide(state, seat, move, setup, shuffle))
        after = rules.evolve(state, facts)
        yield Step(state, seat, wire, move, facts, after)
        state = after
