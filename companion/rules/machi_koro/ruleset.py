"""Machi Koro, the base game, behind the one door (`companion.rules.ruleset.Ruleset`)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, TypeVar

from companion.rules.machi_koro import codec, engine, evolve, paper, staleness, views
from companion.rules.machi_koro.catalog import Catalog, card_sets, load_catalog, set_names
from companion.rules.machi_koro.facts import Fact
from companion.rules.machi_koro.moves import EndTurn, Move, Roll
from companion.rules.machi_koro.state import Phase, TableState, new_table
from companion.rules.paper import Column, SetupSection
from companion.rules.ruleset import (
    N_,
    BadOptions,
    BadOptionValue,
    CardSets,
    Dealt,
    FactCodec,
    HallRolled,
    HallTurn,
    Json,
    OptionSpec,
    Played,
    Result,
    Ruleset,
    Scenarios,
    SeatRolls,
    Seats,
    Shuffle,
    Story,
    TimedChoices,
    Turns,
)

S = TypeVar("S")
M = TypeVar("M")
E = TypeVar("E")


VARIANTS = (
    OptionSpec("play_on", "bool", False,
               N_("Play on after a win: the others play on for the next places")),
    OptionSpec("variable_supply", "bool", False,
               N_("Variable supply: ten kinds face up, drawn from a shuffled pile")),
)
"""Seed 001's variants (RULES.md 13-14), the organizer's choice per table."""


def check_specs(raw: Mapping[str, Any], specs: tuple[OptionSpec, ...], known_are: str,
                hint: str = "") -> Json:
    """A table's options, each one of `specs` (BadOptions names the known ones: "{known_are}
    a, b{hint}") with a value its spec takes (BadOptionValue), a missing one its default."""
    known = {spec.name: spec for spec in specs}
    unknown = sorted(str(name) for name in raw if name not in known)
    if unknown:
        raise BadOptions(f"unknown option {unknown[0]!r}: {known_are} {', '.join(known)}{hint}")
    checked: Json = {}
    for name, spec in known.items():
        value = raw.get(name, spec.default)
        if not spec.accepts(value):
            raise BadOptionValue(f"{name} is {takes(spec)}, not {value!r}")
        checked[name] = value
    return checked


def takes(spec: OptionSpec) -> str:
    """The values an option takes, as a refusal says them."""
    if spec.kind == "bool":
        return "true or false"
    if spec.kind == "choice":
        return f"one of {', '.join(spec.choices)}"
    return f"a whole number from {spec.minimum} to {spec.maximum}"


def hall_turn(rules: CityViews[S, Any, E], state: S, table: Callable[[S], TableState],
              dice: tuple[int, int], catalog: Catalog, shuffle: Shuffle | None) -> list[list[E]]:
    """A hall roll at a table of the base game or of a game around its cities (`table(state)`):
    close the previous turn (defaults for open choices, end of the build phase), then roll the
    first die, or both for a seat that rolls two (RULES.md 10-12). A finished game's phase is
    neither: nothing to roll."""
    groups: list[list[E]] = []
    closing: list[E] = []
    while table(state).phase in (Phase.REROLL, Phase.HARBOR, Phase.CHOOSE, Phase.BUILD):
        seat, move = rules.default_move(state) or (table(state).active, EndTurn())
        facts = rules.decide(state, seat, move, catalog, shuffle)
        closing += facts
        state = rules.evolve(state, facts)
    if closing:
        groups.append(closing)
    if table(state).phase is Phase.ROLL:
        thrown = dice[:1] if table(state).roller.dice_count == 1 else dice
        groups.append(rules.decide(state, table(state).active, Roll(thrown), catalog, shuffle))
    return groups


story_catalog = views.table_catalog


class CityViews(Ruleset[S, M, E], TimedChoices[S, M]):
    """The views of a game played with Machi Koro's cities, the base game's or one around them:
    a variant extends the parts it adds to (`turn_entry`, `fact_summary`). Each has the base
    game's timed choices (Radio Tower, TV Station, Business Center: RULES.md 5-6)."""

    def common_view(self, story: Story[S, E]) -> Json:
        return views.common_json(story, self.story_result(story), self.turn_entry, self.move_summary)

    def tile_view(self, story: Story[S, E]) -> Json:
        return views.tile_json(story, self.story_result(story))

    def turn_entry(self, story: Story[Any, Any], fact: object) -> Json | None:
        return views.turn_entry(story, fact)

    def move_summary(self, move: Played[Any, Any]) -> Json:
        return views.move_summary(move, self.fact_summary)

    def fact_summary(self, fact: object, active: int) -> Json | None:
        return views.fact_summary(fact, active)


class MachiKoro(CityViews[TableState, Move, Fact], Dealt[TableState, Fact], Turns[TableState],
                SeatRolls[TableState], HallRolled[TableState, Fact], CardSets, Scenarios):
    """The base game: 2-4 cities, one roll at a time, the first to build every landmark wins."""

    name: ClassVar[str] = "machi-koro"
    title: ClassVar[str] = N_("Machi Koro")
    fact_kinds: ClassVar[frozenset[str]] = frozenset(codec.FACT_TYPES)
    codec: ClassVar[FactCodec] = codec

    # ------------------------------------------------------------ set-up

    def option_specs(self) -> tuple[OptionSpec, ...]:
        """The variants of seed 001 (RULES.md 13-14), each on or off, combinable."""
        return VARIANTS

    def check_options(self, raw: Mapping[str, Any]) -> Json:
        return check_specs(raw, VARIANTS, "Machi Koro's options are", " (true or false)")

    def table_setup(self, options: Mapping[str, Any],
                    card_sets: tuple[str, ...] = ("base",)) -> Catalog:
        """The catalog of the table's card sets (checked on load, loaded once per set of sets:
        RuleError naming a set the catalogs lack)."""
        return load_catalog(*card_sets)

    def seats(self, catalog: Catalog, options: Mapping[str, Any]) -> Seats:
        return Seats(catalog.players_min, catalog.players_max)

    def start(self, catalog: Catalog, names: tuple[str, ...], options: Mapping[str, Any]) -> TableState:
        """A set that always plays the variable supply (Harbor, docs/rules.md 30) plays it
        whatever the option says."""
        variable = bool(options.get("variable_supply", False)) or catalog.variable_supply
        return new_table(catalog, names, ruleset=self.name,
                         play_on=bool(options.get("play_on", False)), variable_supply=variable)

    def deal(self, state: TableState, catalog: Catalog, shuffle: Shuffle | None) -> list[Fact]:
        """The variable supply's draw pile, shuffled by the service (RULES.md 13); else none."""
        if not state.variable_supply:
            return []
        return engine.deal_supply(state, catalog, shuffle)

    # ------------------------------------------------------------ play

    def parse_move(self, wire: Any, dice: tuple[int, ...], hall: HallTurn | None = None) -> Move:
        return codec.parse_move(wire, dice)

    def dice_for(self, state: TableState, seat: int, wire: Any) -> int:
        """A roll throws the seat's chosen dice; a reroll (Radio Tower) as many as were thrown."""
        kind = wire.get("kind") if isinstance(wire, dict) else None
        if kind == "roll":
            return state.players[seat].dice_count if 0 <= seat < len(state.players) else 1
        if kind == "reroll":
            return len(state.dice)
        return 0

    def hall_rolls(self, wire: Any) -> bool:
        return isinstance(wire, dict) and wire.get("kind") == "roll"

    def decide(self, state: TableState, seat: int, move: Move, catalog: Catalog,
               shuffle: Shuffle | None) -> list[Fact]:
        return engine.decide(state, seat, move, catalog, shuffle)

    def evolve(self, state: TableState, facts: Iterable[Fact]) -> TableState:
        return evolve.evolve_all(state, facts)

    def adjust(self, state: TableState, seat: Any, amount: Any, reason: Any) -> list[Fact]:
        return engine.adjust(state, seat, amount, reason)

    def turn(self, state: TableState) -> int:
        return state.turn

    def stale(self, seen: TableState, now: TableState, seat: int, wire: Any) -> bool:
        return staleness.stale(seen, now, seat, wire)

    # ------------------------------------------------------------ waiting and the hall roll

    def choice_open(self, state: TableState) -> bool:
        return state.phase in (Phase.REROLL, Phase.HARBOR, Phase.CHOOSE)

    def default_move(self, state: TableState) -> tuple[int, Move] | None:
        move = engine.default_move(state)
        return None if move is None else (state.active, move)

    def roll_due(self, state: TableState) -> int | None:
        return state.active if state.phase == Phase.ROLL else None

    def hall_turn(self, state: TableState, dice: tuple[int, int], catalog: Catalog,
                  shuffle: Shuffle | None) -> list[list[Fact]]:
        return hall_turn(self, state, lambda table: table, dice, catalog, shuffle)

    # ------------------------------------------------------------ views

    def result(self, state: TableState) -> Result | None:
        return views.base_result(state)

    def seat_view(self, story: Story[TableState, Fact], seat: int, catalog: Catalog) -> Json:
        choices = views.choices_json(story, seat, catalog)
        return {"choices": choices, "builds": views.builds_json(story, seat, catalog),
                **views.asks_field(views.asks_json(story, seat, choices, catalog))}

    def page_data(self, catalog: Catalog, lang: str) -> Json:
        return {"cards": views.cards_json(catalog, lang)}

    def standings_rows(self, story: Story[Any, Any]) -> list[Json]:
        result = self.story_result(story)
        return paper.standings_rows(story.names, story.state, result, story_catalog(story))

    def card_sets(self, lang: str) -> list[Json]:
        """The sets beside the base one in `catalogs/` (Harbor, docs/rules.md 30)."""
        return [{"id": name, "name": set_names(name)[lang],
                 "players_max": load_catalog("base", name).players_max}
                for name in card_sets() if name != "base"]

    def resolve_scenario(self, scenario: Any) -> Any:
        """A scenario of the base game's table form, a co-op one or a Legacy one (SCENARIOS.md);
        the resolver is looked up in its module at each call (a test may replace it there)."""
        from companion.rules.machi_koro import scenario as scenarios  # it builds on the rules

        return scenarios.resolve(scenario)

    # ------------------------------------------------------------ paper

    def score_columns(self) -> tuple[Column, ...]:
        return paper.score_columns()

    def export_columns(self) -> tuple[str, ...]:
        # the export's columns since its first version, then the place (play on: RULES.md 14)
        return ("coins", "landmarks", "place")

    def setup_section(self, catalog: Catalog, options: Mapping[str, Any], seats: int) -> SetupSection:
        return paper.setup_section(catalog, options, seats)


MACHI_KORO = MachiKoro()


class AroundTheBase(CityViews[S, M, E], Turns[S], SeatRolls[S], HallRolled[S, E]):
    """A game played around the base game's cities (`table(state)`), as the co-op and Legacy
    games are: its dice, its hall roll, its open choices, its turn and its score sheet are the
    base game's (`base`)."""

    base = MACHI_KORO

    @abstractmethod
    def table(self, state: S) -> TableState:
        """The base game's table inside the state."""

    def dice_for(self, state: S, seat: int, wire: Any) -> int:
        return self.base.dice_for(self.table(state), seat, wire)

    def hall_rolls(self, wire: Any) -> bool:
        return self.base.hall_rolls(wire)

    def roll_due(self, state: S) -> int | None:
        return self.base.roll_due(self.table(state))

    def choice_open(self, state: S) -> bool:
        return self.base.choice_open(self.table(state))

    def turn(self, state: S) -> int:
        return self.table(state).turn

    def hall_turn(self, state: S, dice: tuple[int, int], catalog: Catalog,
                  shuffle: Shuffle | None) -> list[list[E]]:
        """As in the base game (closing a turn runs what the game adds to it, as the co-op
        assessor's turn when it is due)."""
        return hall_turn(self, state, self.table, dice, catalog, shuffle)

    def score_columns(self) -> tuple[Column, ...]:
        """The base game's score sheet (landmarks, coins), unless the game keeps its own."""
        return self.base.score_columns()
