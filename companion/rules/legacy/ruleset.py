"""A game of a Machi Koro Legacy campaign (seed 002, RULES.md 15) behind the one door: the base
game's rules and views for the cities inside, Legacy's landmarks, community landmark and win
around them (by composition, as the co-op game).

A Legacy table's options carry its whole set-up, the campaign's catalog as it stood when the
game started among it (`setup.py`): `table_setup` checks them into a `Setup`, which the game
plays (the hall's card sets know nothing of a campaign), so a table's options alone replay it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any, ClassVar

from companion.rules.legacy import campaign_facts, codec, engine, paper, paper_words, series, views
from companion.rules.legacy import evolve as legacy_evolve
from companion.rules.legacy.campaign import Campaign
from companion.rules.legacy.catalog import PLAYERS
from companion.rules.legacy.errors import BadSetup
from companion.rules.legacy.facts import LegacyFact
from companion.rules.legacy.moves import LegacyMove
from companion.rules.legacy.setup import Setup, parse_setup, setup_json
from companion.rules.legacy.state import RULESET, LegacyState, new_game
from companion.rules.machi_koro import staleness
from companion.rules.machi_koro.ruleset import AroundTheBase
from companion.rules.machi_koro.state import TableState
from companion.rules.machi_koro.views import asks_field
from companion.rules.paper import Column, SetupSection
from companion.rules.ruleset import (
    N_,
    FactCodec,
    HallTurn,
    Json,
    OptionSpec,
    Played,
    Result,
    Seats,
    Series,
    SeriesTable,
    Shuffle,
    Story,
)


class Legacy(AroundTheBase[LegacyState, LegacyMove, LegacyFact], Series):
    """One game of a Legacy campaign: three landmarks each, a community landmark, one action a
    turn; the first with all own landmarks built and the contribution made wins."""

    name: ClassVar[str] = RULESET
    title: ClassVar[str] = N_("Machi Koro Legacy")
    fact_kinds: ClassVar[frozenset[str]] = frozenset(codec.FACT_KINDS)
    codec: ClassVar[FactCodec] = codec
    needs_series: ClassVar[bool] = True  # a game's options are its campaign's (series.py)
    series_kinds: ClassVar[frozenset[str]] = series.KINDS

    def table(self, state: LegacyState) -> TableState:
        return state.table

    # ------------------------------------------------------------ set-up

    def option_specs(self) -> tuple[OptionSpec, ...]:
        """None the console's generic form shows: a campaign makes a game's options."""
        return ()

    def check_options(self, raw: Mapping[str, Any]) -> Json:
        """The set-up checked against its own catalog (`setup.parse_setup`), as JSON."""
        return setup_json(parse_setup(dict(raw)))

    def table_setup(self, options: Mapping[str, Any],
                    card_sets: tuple[str, ...] = ("base",)) -> Setup | None:
        """The game's set-up, checked from its options (`setup.parse_setup`): the campaign's
        catalog as it stood when the game started, the landmarks, the start player; a campaign
        plays no card set of the hall's. None for no options at all: the console asks how many
        a Legacy table seats before any campaign made one. Nothing is dealt at the start: the
        supply lies in activation order (seed 002)."""
        return parse_setup(dict(options)) if options else None

    def seats(self, setup: Setup | None, options: Mapping[str, Any]) -> Seats:
        """The set-up's own number of players; 2-4 before a campaign made one."""
        if setup is None:
            return Seats(*PLAYERS)
        return Seats(setup.seats, setup.seats)

    def start(self, setup: Setup | None, names: tuple[str, ...],
              options: Mapping[str, Any]) -> LegacyState:
        return new_game(campaign_made(setup), names)

    # ------------------------------------------------------------ play

    def parse_move(self, wire: Any, dice: tuple[int, ...], hall: HallTurn | None = None) -> LegacyMove:
        return codec.parse_move(wire, dice)

    def decide(self, state: LegacyState, seat: int, move: LegacyMove, setup: Any,
               shuffle: Shuffle | None) -> list[LegacyFact]:
        return engine.decide(state, seat, move)

    def evolve(self, state: LegacyState, facts: Iterable[LegacyFact]) -> LegacyState:
        return legacy_evolve.evolve_all(state, facts)

    def adjust(self, state: LegacyState, seat: Any, amount: Any, reason: Any) -> list[LegacyFact]:
        return engine.adjust(state, seat, amount, reason)

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

    def default_move(self, state: LegacyState) -> tuple[int, LegacyMove] | None:
        found = self.base.default_move(state.table)
        return None if found is None else (found[0], found[1])

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
        return {**super().common_view(story), **views.legacy_json(story, cards=True)}

    def seat_view(self, story: Story[LegacyState, LegacyFact], seat: int, setup: Any) -> Json:
        choices = views.choices_json(story, seat)
        return {"choices": choices, "builds": views.builds_json(story, seat),
                "contribute": views.contribute_json(story, seat),
                **asks_field(views.asks_json(story, seat, choices))}

    def tile_view(self, story: Story[LegacyState, LegacyFact]) -> Json:
        return {**views.tile_json(story, self.story_result(story)), **views.legacy_json(story, cards=False)}

    def page_data(self, setup: Any, lang: str) -> Json:
        """None: a Legacy game's cards are its campaign's, in the common view (`legacy.cards`)."""
        return {"cards": []}

    def standings_rows(self, story: Story[Any, Any]) -> list[Json]:
        result = self.story_result(story)
        return paper.standings_rows(story.names, story.state, result)

    def turn_entry(self, story: Story[Any, Any], fact: object) -> Json | None:
        entry = super().turn_entry(story, fact)
        if entry is not None and story.state is not None:
            entry["card"] = views.own_card(story.state, entry["card"])
        return entry

    def move_summary(self, move: Played[Any, Any]) -> Json:
        summary = super().move_summary(move)
        if summary.get("move") == "choice":
            summary["card"] = views.own_card(move.before, summary["card"])
        return summary

    def fact_summary(self, fact: object, active: int) -> Json | None:
        return views.contribution_summary(fact, active) or super().fact_summary(fact, active)

    # ------------------------------------------------------------ paper

    def score_columns(self) -> tuple[Column, ...]:
        return paper.score_columns()

    def setup_section(self, setup: Setup | None, options: Mapping[str, Any],
                      seats: int) -> SetupSection:
        return paper.setup_section(campaign_made(setup), seats)

    def paper_words(self) -> Mapping[str, Mapping[str, str]]:
        return paper_words.PAPER_WORDS

    # ------------------------------------------------------------ the campaign (series.py)

    def series_start(self, wire: Mapping[str, Any]) -> list[Any]:
        return list(series.start(wire))

    def series_dice(self, state: Any, wire: Any) -> int:
        return series.dice(state, wire)

    def series_decide(self, state: Any, wire: Any, dice: tuple[int, ...], today: str) -> list[Any]:
        return list(series.decide(state, wire, dice, today))

    def series_next(self, state: Any, wire: Any) -> list[Any]:
        return list(series.next_game(state, wire))

    def series_table(self, state: Any) -> SeriesTable:
        return series.table(state)

    def series_result(self, state: Any, number: int, result: Result, today: str) -> Json | None:
        return series.result_command(state, number, result, today)

    def series_withdraw(self, state: Any, number: int) -> Json | None:
        return series.withdraw_command(state, number)

    def series_evolve(self, state: Any, facts: Iterable[Any]) -> Campaign:
        return series.evolve(state, facts)

    def series_encode(self, fact: Any) -> tuple[str, Json]:
        return campaign_facts.encode(fact)

    def series_decode(self, kind: str, data: Mapping[str, Any]) -> Any:
        return campaign_facts.decode(kind, dict(data))

    def series_view(self, state: Any) -> Json:
        return series.view(state)

    def series_name(self, state: Any) -> str:
        return str(state.name)

    def series_sheet(self, state: Any) -> SetupSection | None:
        return paper.register_sheet(state)


def campaign_made(setup: Setup | None) -> Setup:
    """The set-up a game plays: only a campaign makes one (BadSetup, as `parse_setup` says it
    for options without one)."""
    if setup is None:
        raise BadSetup("catalog: a Legacy game is started from its campaign, with its catalog")
    return setup


LEGACY = Legacy()
