"""The co-op Tax Assessor game (seed 004) behind the one door: the base game's rules and views
for the cities inside, and the assessor's own around them (by composition)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from companion.rules.coop import codec, engine, paper, staleness, views
from companion.rules.coop import evolve as coop_evolve
from companion.rules.coop.assessor import ASSESSOR_COINS
from companion.rules.coop.engine import CoopMove
from companion.rules.coop.facts import AnyFact
from companion.rules.coop.state import (
    ASSESSOR_COINS_RANGE,
    RULESET,
    SEATS,
    CoopState,
    check_assessor_coins,
    new_coop_table,
)
from companion.rules.machi_koro import views as base_views
from companion.rules.machi_koro.catalog import Catalog, load_catalog
from companion.rules.machi_koro.ruleset import AroundTheBase, story_catalog
from companion.rules.machi_koro.state import TableState
from companion.rules.paper import SetupSection
from companion.rules.ruleset import (
    N_,
    BadOptions,
    Dealt,
    FactCodec,
    HallTurn,
    Json,
    OptionSpec,
    Result,
    Seats,
    Shuffle,
    Story,
)


class Coop(AroundTheBase[CoopState, CoopMove, AnyFact], Dealt[CoopState, AnyFact]):
    """Two players against the Tax Assessor: a market row, gifts, the assessor's turns."""

    name: ClassVar[str] = RULESET
    title: ClassVar[str] = N_("Machi Koro co-op (Tax Assessor)")
    fact_kinds: ClassVar[frozenset[str]] = frozenset(codec.FACT_KINDS)
    codec: ClassVar[FactCodec] = codec

    def table(self, state: CoopState) -> TableState:
        return state.table

    def option_specs(self) -> tuple[OptionSpec, ...]:
        low, high = ASSESSOR_COINS_RANGE
        label = N_("The Tax Assessor's coins at the start (%(low)s to %(high)s): fewer is harder")
        return (OptionSpec("assessor_coins", "int", ASSESSOR_COINS, label, low, high),)

    def check_options(self, raw: Mapping[str, Any]) -> Json:
        unknown = sorted(set(raw) - {"assessor_coins"})
        if unknown:
            raise BadOptions(f"the co-op game's only option is assessor_coins, not {unknown!r}")
        return {"assessor_coins": check_assessor_coins(raw.get("assessor_coins", ASSESSOR_COINS))}

    def table_setup(self, options: Mapping[str, Any],
                    card_sets: tuple[str, ...] = ("base",)) -> Catalog:
        """The catalog of the table's card sets, as the base game's (the market row is dealt
        from it)."""
        return load_catalog(*card_sets)

    def seats(self, catalog: Catalog, options: Mapping[str, Any]) -> Seats:
        return Seats(SEATS, SEATS)

    def start(self, catalog: Catalog, names: tuple[str, ...], options: Mapping[str, Any]) -> CoopState:
        return new_coop_table(catalog, names, stake=options.get("assessor_coins", ASSESSOR_COINS))

    def deal(self, state: CoopState, catalog: Catalog, shuffle: Shuffle | None) -> list[AnyFact]:
        return engine.deal(state, catalog, shuffle)

    def parse_move(self, wire: Any, dice: tuple[int, ...], hall: HallTurn | None = None) -> CoopMove:
        return codec.parse_move(wire, dice)

    def decide(self, state: CoopState, seat: int, move: CoopMove, catalog: Catalog,
               shuffle: Shuffle | None) -> list[AnyFact]:
        return engine.decide(state, seat, move, catalog, shuffle)

    def evolve(self, state: CoopState, facts: Iterable[AnyFact]) -> CoopState:
        return coop_evolve.evolve_all(state, facts)

    def adjust(self, state: CoopState, seat: Any, amount: Any, reason: Any) -> list[AnyFact]:
        return list(engine.adjust(state, seat, amount, reason))

    def stale(self, seen: CoopState, now: CoopState, seat: int, wire: Any) -> bool:
        return staleness.stale(seen, now, seat, wire)

    def default_move(self, state: CoopState) -> tuple[int, CoopMove] | None:
        move = engine.default_move(state)
        return None if move is None else (state.table.active, move)


    def result(self, state: CoopState) -> Result | None:
        return views.result(state)

    def seat_view(self, story: Story[CoopState, AnyFact], seat: int, catalog: Catalog) -> Json:
        choices = base_views.choices_json(story, seat, catalog) if self.playing(story) else []
        gift = views.gift_choices(story, seat)
        return {"choices": choices + gift,
                **base_views.asks_field(base_views.asks_json(story, seat, choices, catalog)
                                        + views.gift_asks(gift)),
                "builds": views.builds_json(story, seat, catalog),
                **views.coop_fields(story)}

    def tile_view(self, story: Story[CoopState, AnyFact]) -> Json:
        return {**super().tile_view(story), **views.coop_fields(story)}

    def page_data(self, catalog: Catalog, lang: str) -> Json:
        return {"cards": base_views.cards_json(catalog, lang)}

    def standings_rows(self, story: Story[Any, Any]) -> list[Json]:
        result = self.story_result(story)
        return paper.standings_rows(story.names, story.state, result, story_catalog(story))

    def turn_entry(self, story: Story[Any, Any], fact: object) -> Json | None:
        return super().turn_entry(story, fact) or views.gift_entry(story, fact)

    def fact_summary(self, fact: object, active: int) -> Json | None:
        return views.gift_summary(fact, active) or super().fact_summary(fact, active)

    def playing(self, story: Story[CoopState, AnyFact]) -> bool:
        """Whether the game is on: dealt and not yet won or lost."""
        return story.state is not None and story.state.dealt and story.state.outcome is None

    def export_columns(self) -> tuple[str, ...]:
        return self.base.export_columns()  # the base game's stored order (coins, landmarks)

    def setup_section(self, catalog: Catalog, options: Mapping[str, Any], seats: int) -> SetupSection:
        return paper.setup_section(catalog, options, seats)


COOP = Coop()
