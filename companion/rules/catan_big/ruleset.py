"""The big Catan event (seed 003, RULES.md 20-24) behind the one door: a table is one printed
board of two seats, Sun and Moon; the event's boards stand in a chain and play one game, turn by
turn on the hall's shared roll. The app tracks no resources: a board keeps its players' points
trackers, victory claims and final breakdowns; the event's hooks say what a roll announces,
when the hall waits or stops, and who won."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from companion.rules.catan_big import RULESET, codec, engine, event, paper, paper_words, views
from companion.rules.catan_big.errors import NoCoins
from companion.rules.catan_big.facts import BoardFact
from companion.rules.catan_big.moves import BoardMove
from companion.rules.catan_big.state import (
    COLOURS,
    DEFAULT_COLOURS,
    LETTERS,
    ROLES,
    BoardSetup,
    BoardState,
    board_setup,
    new_board,
)
from companion.rules.machi_koro.ruleset import check_specs
from companion.rules.paper import Column, SetupSection
from companion.rules.ruleset import (
    N_,
    BadOptionValue,
    FactCodec,
    HallTurn,
    Json,
    OptionSpec,
    Result,
    Ruleset,
    Scenarios,
    Seats,
    SharedTurn,
    Shuffle,
    Story,
)

OPTIONS = (
    OptionSpec("letter", "choice", LETTERS[0], N_("The printed board: A, B or C"),
               choices=LETTERS),
    OptionSpec("sun_colour", "choice", DEFAULT_COLOURS[0], N_("The Sun player's colour"),
               choices=COLOURS),
    OptionSpec("moon_colour", "choice", DEFAULT_COLOURS[1], N_("The Moon player's colour"),
               choices=COLOURS),
)

BoardStory = Story[BoardState, BoardFact]


class CatanBig(Ruleset[BoardState, BoardMove, BoardFact], SharedTurn[BoardState, BoardFact],
               Scenarios):
    """One board of the big Catan event: two seats, the points trackers and the claims."""

    name: ClassVar[str] = RULESET
    title: ClassVar[str] = N_("The big Catan event")
    fact_kinds: ClassVar[frozenset[str]] = frozenset(codec.FACT_TYPES)
    codec: ClassVar[FactCodec] = codec
    private_seats: ClassVar[bool] = True  # a tracker counts victory point cards, kept hidden
    chained: ClassVar[bool] = True

    # ------------------------------------------------------------ set-up

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return OPTIONS

    def check_options(self, raw: Mapping[str, Any]) -> Json:
        """The board's letter and the two colours (different from each other)."""
        checked = check_specs(raw, OPTIONS, "a catan-big board's options are")
        if checked["sun_colour"] == checked["moon_colour"]:
            raise BadOptionValue(f"sun_colour and moon_colour are both {checked['moon_colour']!r}: "
                                 f"the two players of a board have different colours")
        return checked

    def table_setup(self, options: Mapping[str, Any],
                    card_sets: tuple[str, ...] = ("base",)) -> BoardSetup:
        """The board's printed letter and its two players' colours, from its checked options.
        No card sets, nothing dealt, no turn of its own, no roll of a board's: the turn is the
        event's (`SharedTurn`), a roll changes no board."""
        return board_setup(options)

    def seats(self, setup: BoardSetup, options: Mapping[str, Any]) -> Seats:
        return Seats(len(ROLES), len(ROLES), roles=ROLES)

    def start(self, setup: BoardSetup, names: tuple[str, ...],
              options: Mapping[str, Any]) -> BoardState:
        return new_board(setup, len(names))

    # ------------------------------------------------------------ play

    def parse_move(self, wire: Any, dice: tuple[int, ...], hall: HallTurn | None = None) -> BoardMove:
        return codec.parse_move(wire, hall)

    def decide(self, state: BoardState, seat: int, move: BoardMove, setup: Any,
               shuffle: Shuffle | None) -> list[BoardFact]:
        return engine.decide(state, seat, move)

    def evolve(self, state: BoardState, facts: Iterable[BoardFact]) -> BoardState:
        return engine.evolve(state, facts)

    def adjust(self, state: BoardState, seat: Any, amount: Any, reason: Any) -> list[BoardFact]:
        raise NoCoins("amount: a catan-big board has no coins to correct; correct a breakdown "
                      "with the staff's correct move")

    def stale(self, seen: BoardState, now: BoardState, seat: int, wire: Any) -> bool:
        """Only a claim can be stale, and only when this seat's own claim changed since (its
        outcome depends on nothing else at the board)."""
        if not isinstance(wire, dict) or wire.get("kind") != "claim":
            return False
        if not 0 <= seat < min(len(seen.seats), len(now.seats)):
            return False
        return seen.seats[seat].claim != now.seats[seat].claim

    # ------------------------------------------------------------ views

    def result(self, state: BoardState) -> Result | None:
        return views.result(state)

    def common_view(self, story: BoardStory) -> Json:
        return views.common_json(story, self.story_result(story))

    def seat_view(self, story: BoardStory, seat: int, setup: Any) -> Json:
        return views.seat_json(story, seat)

    def tile_view(self, story: BoardStory) -> Json:
        return views.tile_json(story)

    def page_data(self, setup: Any, lang: str) -> Json:
        return views.page_data()

    def standings_rows(self, story: BoardStory) -> list[Json]:
        return views.standings_rows(story)

    def resolve_scenario(self, scenario: Any) -> Any:
        """A scenario of the big Catan event (SCENARIOS.md, `"ruleset": "catan-big"`)."""
        from companion.rules.catan_big import scenario as scenarios  # looked up at each call

        return scenarios.resolve(scenario)

    # ------------------------------------------------------------ paper

    def score_columns(self) -> tuple[Column, ...]:
        return paper.score_columns()

    def export_columns(self) -> tuple[str, ...]:
        """The results export: the player's registration number (the last tie-break and how the
        staff find a player), the score columns, and the place in the event (RULES.md 24)."""
        return ("registered", *super().export_columns(), "place")

    def setup_section(self, setup: BoardSetup, options: Mapping[str, Any],
                      seats: int) -> SetupSection:
        return paper.setup_section(setup)

    def paper_words(self) -> Mapping[str, Mapping[str, str]]:
        return paper_words.PAPER_WORDS

    # ------------------------------------------------------------ the event's shared turn

    def follow_up_dice(self, number: int, dice: tuple[int, int]) -> int:
        return event.follow_up_dice(number, dice)

    def pauses_after(self, turn: HallTurn) -> bool:
        return event.pauses_after(turn)

    def turn_view(self, turn: HallTurn) -> Json:
        return event.turn_view(turn)

    def staff_move(self, state: BoardState, wire: Any, hall: HallTurn | None) -> list[BoardFact]:
        """Verify, reject, correct (`{"kind": ..., "seat": s, ...}`, DESIGN.md) or end: the
        hall makes `{"kind": "end"}` at every board when the event's game is over."""
        return engine.decide_staff(state, codec.parse_staff_move(wire, hall, len(state.seats)))

    def turn_free(self, kind: str) -> bool:
        return kind in engine.TURN_FREE

    def check_turn_ends(self, stories: Mapping[str, BoardStory], hall: HallTurn | None) -> None:
        event.check_turn_ends(stories)

    def hall_over(self, states: Sequence[BoardState], hall: HallTurn | None) -> bool:
        return event.hall_over(states)

    def event_view(self, stories: Mapping[str, BoardStory], hall: HallTurn | None) -> Json:
        return event.event_view(stories)


CATAN_BIG = CatanBig()
