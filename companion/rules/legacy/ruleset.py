"""A game of a Machi Koro Legacy campaign (seed 002, RULES.md 15) behind the one door: the base
game's rules and views for the cities inside, Legacy's landmarks, community landmark and win
around them (by composition, as the co-op game).

A Legacy table's options carry its whole set-up, the campaign's catalog as it stood when the
game started among it (`setup.py`): the game plays that catalog, not the `catalog` the hall
passes (the hall's card sets know nothing of a campaign), so a table's options alone replay it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any, ClassVar

from companion.rules.legacy import codec, engine, paper, views
from companion.rules.legacy import evolve as legacy_evolve
from companion.rules.legacy.facts import LegacyFact
from companion.rules.legacy.moves import LegacyMove
from companion.rules.legacy.setup import parse_setup, setup_json
from companion.rules.legacy.state import RULESET, LegacyState, new_game
from companion.rules.machi_koro import staleness
from companion.rules.machi_koro import views as base_views
from companion.rules.machi_koro.catalog import Catalog
from companion.rules.machi_koro.ruleset import MACHI_KORO, hall_turn
from companion.rules.ruleset import (
    N_,
    Column,
    HallTurn,
    Json,
    OptionSpec,
    Played,
    Result,
    Ruleset,
    Seats,
    SetupSection,
    Shuffle,
    Story,
)


class Legacy(Ruleset[LegacyState, LegacyMove, LegacyFact]):
    """One game of a Legacy campaign: three landmarks each, a community landmark, one action a
    turn; the first with all own landmarks built and the contribution made wins."""

    name: ClassVar[str] = RULESET
    title: ClassVar[str] = N_("Machi Koro Legacy")
    fact_kinds: ClassVar[frozenset[str]] = frozenset(codec.FACT_KINDS)
    base = MACHI_KORO

    # ------------------------------------------------------------ set-up

    def option_specs(self) -> tuple[OptionSpec, ...]:
        """None the console's generic form shows: a campaign makes a game's options."""
        return ()

    def check_options(self, raw: Mapping[str, Any]) -> Json:
        """The set-up checked against its own catalog (`setup.parse_setup`), as JSON."""
        return setup_json(parse_setup(dict(raw)))

    def seats(self, catalog: Catalog, options: Mapping[str, Any]) -> Seats:
        """2-4; a set-up's own number of players when the options carry one."""
        landmarks = options.get("landmarks")
        if isinstance(landmarks, list) and 2 <= len(landmarks) <= 4:
            return Seats(len(landmarks), len(landmarks))
        return Seats(2, 4)

    def start(self, catalog: Catalog, names: tuple[str, ...], options: Mapping[str, Any]) -> LegacyState:
        return new_game(parse_setup(dict(options)), names)

    def deal(self, state: LegacyState, catalog: Catalog, shuffle: Shuffle | None) -> list[LegacyFact]:
        """Nothing is shuffled: the supply lies in activation order (seed 002)."""
        return []

    # ------------------------------------------------------------ play

    def parse_move(self, wire: Any, dice: tuple[int, ...], hall: HallTurn | None = None) -> LegacyMove:
        return codec.parse_move(wire, dice)

    def dice_for(self, state: LegacyState, seat: int, wire: Any) -> int:
        return self.base.dice_for(state.table, seat, wire)

    def hall_rolls(self, wire: Any) -> bool:
        return self.base.hall_rolls(wire)

    def decide(self, state: LegacyState, seat: int, move: LegacyMove, catalog: Catalog,
               shuffle: Shuffle | None) -> list[LegacyFact]:
        return engine.decide(state, seat, move)

    def evolve(self, state: LegacyState, facts: Iterable[LegacyFact]) -> LegacyState:
        return legacy_evolve.evolve_all(state, facts)

    def adjust(self, state: LegacyState, seat: Any, amount: Any, reason: Any) -> list[LegacyFact]:
        return engine.adjust(state, seat, amount, reason)

    def turn(self, state: LegacyState) -> int:
        return state.table.turn

    def stale(self, seen: LegacyState, now: LegacyState, seat: int, wire: Any) -> bool:
        """The base game's call on the table inside; besides, any new contribution (a choice of
        dice depends on neither)."""
        if seen is now:
            return False
        if staleness.stale(seen.table, now.table, seat, wire):
            return True
        if staleness.move_kind(wire) == "dice_count":
            return False
        return replace(seen, table=now.table) != now

    # ------------------------------------------------------------ waiting and the hall roll

    def choice_open(self, state: LegacyState) -> bool:
        return self.base.choice_open(state.table)

    def default_move(self, state: LegacyState) -> tuple[int, LegacyMove] | None:
        found = self.base.default_move(state.table)
        return None if found is None else (found[0], found[1])

    def hall_turn(self, state: LegacyState, dice: tuple[int, int], catalog: Catalog,
                  shuffle: Shuffle | None) -> list[list[LegacyFact]]:
        return hall_turn(self, state, lambda game: game.table, dice, catalog, shuffle)

    # ------------------------------------------------------------ the journal

    def encode_fact(self, fact: LegacyFact) -> tuple[str, Json]:
        return codec.encode_fact(fact)

    def decode_fact(self, kind: str, data: Mapping[str, Any]) -> LegacyFact:
        return codec.decode_fact(kind, dict(data))

    # ------------------------------------------------------------ views

    def result(self, state: LegacyState) -> Result | None:
        """The first with every own landmark and the contribution won; the others lost."""
        winner = state.table.winner
        if winner is None:
            return None
        seats = range(len(state.table.players))
        return Result("legacy_complete", tuple("won" if s == winner else "lost" for s in seats),
                      tuple(1 if s == winner else 2 for s in seats))

    def common_view(self, story: Story[LegacyState, LegacyFact]) -> Json:
        result = self.result(story.state) if story.state is not None else None
        return {**base_views.common_json(story, result, self.turn_entry, self.move_summary),
                **views.legacy_json(story, cards=True)}

    def seat_view(self, story: Story[LegacyState, LegacyFact], seat: int, catalog: Catalog) -> Json:
        return {"choices": views.choices_json(story, seat), "builds": views.builds_json(story, seat),
                "contribute": views.contribute_json(story, seat)}

    def tile_view(self, story: Story[LegacyState, LegacyFact]) -> Json:
        result = self.result(story.state) if story.state is not None else None
        return {**base_views.tile_json(story, result), **views.legacy_json(story, cards=False)}

    def page_data(self, catalog: Catalog, lang: str) -> Json:
        """None: a Legacy game's cards are its campaign's, in the common view (`legacy.cards`)."""
        return {"cards": []}

    def standings_rows(self, story: Story[Any, Any]) -> list[Json]:
        result = self.result(story.state) if story.state is not None else None
        return paper.standings_rows(story.names, story.state, result)

    def turn_entry(self, story: Story[Any, Any], fact: object) -> Json | None:
        return self.base.turn_entry(story, fact)

    def move_summary(self, move: Played[Any, Any]) -> Json:
        def summary_of(fact: object, active: int) -> Json | None:
            return views.contribution_summary(fact, active) or self.base.fact_summary(fact, active)
        return base_views.move_summary(move, summary_of)

    # ------------------------------------------------------------ paper

    def score_columns(self) -> tuple[Column, ...]:
        return paper.score_columns()

    def setup_section(self, catalog: Catalog, options: Mapping[str, Any], seats: int) -> SetupSection:
        return paper.setup_section(options, seats)


LEGACY = Legacy()
