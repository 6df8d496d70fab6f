"""The one door from the hall to a game's rules (docs/architecture.md, "The door").

A `Ruleset` is what every game has and the hall, the web layer and printing may know of it: its
set-up options, a table's set-up (the game's own value: Machi Koro's catalog of the table's card
sets), its seats, how a table starts, decides and evolves, the views its screens show and what
its paper needs. What only some games have is a capability below (`SharedTurn`, `Series`,
`TimedChoices`, ...): a game's class inherits it beside `Ruleset`, and the hall asks
`isinstance(rules, SharedTurn)`. The hall holds a table's state, moves, set-up and journal
records without looking inside them.

A new game is a package under `companion/rules/` with one class of `Ruleset` and its
capabilities, registered in `companion/rules/registry.py`. `mypy --strict` checks every class
against these signatures. This module imports no game.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from companion.rules.errors import RuleError
from companion.rules.paper import Column as Column
from companion.rules.paper import SetupSection as SetupSection

State = TypeVar("State")
Move = TypeVar("Move")
Fact = TypeVar("Fact")  # a domain fact: what a decided move did (journalled as a record)

Shuffle = Callable[[tuple[str, ...]], Sequence[str]]
"""Cards in, the same cards in a random order out: the service's (rules take randomness as an
input, and the facts record the order, so a replay never shuffles)."""

Json = dict[str, Any]


def N_(text: str) -> str:  # noqa: N802 - gettext's name for a string marked, not translated
    """Mark an English string the pages translate (a ruleset's title, its options' labels):
    the catalogs' scanner finds it here; the web layer translates it where it is shown."""
    return text


@dataclass
class Played(Generic[State, Fact]):
    """One accepted move at a table: its number in the table's journal, who made it (a seat,
    the organizer, the hall, the timer, the dealer), its facts and the state before it."""

    number: int
    author: str
    facts: list[Fact]
    before: State


@dataclass(frozen=True)
class Story(Generic[State, Fact]):
    """What a table's views are made from: the hall's memory of it, read-only. `moves` are the
    latest kept moves (oldest first); `undone` the moves the organizer undid since the turn
    began, each with the state it had made."""

    names: tuple[str, ...]
    state: State | None
    moves: Sequence[Played[State, Fact]] = ()
    undone: Sequence[tuple[Played[State, Fact], State]] = ()
    running: bool = False
    roll_mode: str = "hall"  # "hall": the hall rolls for the table; "own": its seats roll
    setup: Any = None  # the table's set-up, its ruleset's own value (`Ruleset.table_setup`)
    registered: tuple[int, ...] = ()  # each seat's registration number (the earlier, the lower)
    neighbours: tuple[str, ...] = ()  # the tables beside it, by name, when its ruleset is chained


@dataclass(frozen=True)
class HallTurn:
    """The event's shared roll as the rules see it (the hall's, not a table's): its number in
    the event (1 is the first roll), its two dice, and the follow-up dice a ruleset asked for
    after it (`SharedTurn.follow_up_dice`: Catan's robbers' roll); () when none was asked."""

    number: int
    dice: tuple[int, int]
    follow_up: tuple[int, ...] = ()
    # The turn is ending: its time is up, or the organizer asked for the next roll while a
    # ruleset held the turn (`check_turn_ends`); a ruleset takes nothing then that would hold
    # it longer (Catan: no new claim). The hall says it; the rules read no clock.
    closing: bool = False


@dataclass(frozen=True)
class Result:
    """How a game ended, the same for every ruleset: its reason, each seat's outcome ("won",
    "lost") and each seat's place (1 is first; equal places share)."""

    reason: str
    outcomes: tuple[str, ...]
    places: tuple[int, ...] = ()

    def json(self) -> Json:
        places = list(self.places) or [1 if o == "won" else 2 for o in self.outcomes]
        return {"reason": self.reason, "outcomes": list(self.outcomes), "places": places}


@dataclass(frozen=True)
class OptionSpec:
    """One set-up option of a ruleset, for the console's form and the API's check."""

    name: str
    kind: str  # "int" | "bool" | "choice"
    default: Any
    label: str  # the console's label, in English (the pages translate it; %(low)s, %(high)s)
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()

    def accepts(self, value: Any) -> bool:
        """Whether `value` is one this option takes (the ruleset's own check says why not)."""
        if self.kind == "int":
            whole = isinstance(value, int) and not isinstance(value, bool)
            return whole and (self.minimum is None or self.minimum <= value) and (
                self.maximum is None or value <= self.maximum)
        if self.kind == "bool":
            return isinstance(value, bool)
        return value in self.choices

    def json(self) -> Json:
        spec: Json = {"name": self.name, "kind": self.kind, "default": self.default,
                      "label": self.label}
        if self.minimum is not None:
            spec["min"], spec["max"] = self.minimum, self.maximum
        if self.choices:
            spec["choices"] = list(self.choices)
        return spec


@dataclass(frozen=True)
class Seats:
    """How many seats a table of the ruleset takes, and each seat's role when it has one
    (Catan's Sun and Moon); an empty `roles` means every seat plays the same part."""

    least: int
    most: int
    roles: tuple[str, ...] = field(default=())


class FactCodec(Protocol):
    """The journal forms of a game's facts: its `codec` module (a stable kind and plain data)."""

    def encode_fact(self, fact: Any) -> tuple[str, Json]: ...

    def decode_fact(self, kind: str, data: dict[str, Any]) -> Any: ...


class BadOptions(RuleError):
    """An option the ruleset does not know (the hall says which)."""

    code = "rule/bad_options"


class BadOptionValue(RuleError):
    """A known option with a value it does not take."""

    code = "rule/bad_option_value"


class Ruleset(ABC, Generic[State, Move, Fact]):
    """A game's rules, as the hall sees them: what every game has. States, moves and facts are
    the ruleset's own immutable values; the hall stores, journals and shows them only through
    these methods. What only some games have is a capability below, which a game's class also
    inherits when it has it and the hall asks for by type (`isinstance(rules, SharedTurn)`)."""

    name: ClassVar[str]  # the id tables, the API and the journal name it by
    title: ClassVar[str]  # its name on screens and paper, in English (translated by the pages)
    fact_kinds: ClassVar[frozenset[str]]  # the journal record kinds of this ruleset's facts
    codec: ClassVar[FactCodec]  # the game's codec module: its facts' journal forms
    chained: ClassVar[bool] = False  # whether an event's tables stand in a chain, each beside the
    # one before and after it (Catan's boards: a player builds and trades across the neighbours)
    private_seats: ClassVar[bool] = False  # whether a seat's own view holds what the other seats
    # may not see (Catan's points tracker: its victory point cards): then a change of the table
    # goes to each seat with its own part only, not once to the table (web/fanout.py)

    # ------------------------------------------------------------ set-up

    @abstractmethod
    def option_specs(self) -> tuple[OptionSpec, ...]:
        """The set-up options the organizer may pick for a table."""

    @abstractmethod
    def check_options(self, raw: Mapping[str, Any]) -> Json:
        """The checked options (defaults filled in); RuleError naming the option if not."""

    @abstractmethod
    def table_setup(self, options: Mapping[str, Any], card_sets: tuple[str, ...] = ("base",)) -> Any:
        """A table's set-up, the ruleset's own value the hall keeps for the table and hands back
        (`setup` below): made from the table's checked options and the card sets it plays (a
        Machi Koro table's is the catalog of its card sets; a Catan board's, its letter and
        colours). RuleError (nothing is made) for card sets the game does not have."""

    @abstractmethod
    def seats(self, setup: Any, options: Mapping[str, Any]) -> Seats:
        """How many seats a table takes, and their roles."""

    @abstractmethod
    def start(self, setup: Any, names: tuple[str, ...], options: Mapping[str, Any]) -> State:
        """The state at a table's start: starting cards and coins, nothing shuffled yet."""

    # ------------------------------------------------------------ play

    @abstractmethod
    def parse_move(self, wire: Any, dice: tuple[int, ...], hall: HallTurn | None = None) -> Move:
        """A phone's move from its wire form, with the dice the service drew for it and the
        event's latest hall roll (None before the first), for rules that judge a move by the
        hall's turn (Catan's claims)."""

    @abstractmethod
    def decide(self, state: State, seat: int, move: Move, setup: Any,
               shuffle: Shuffle | None) -> list[Fact]:
        """The facts of `seat`'s move; RuleError (nothing changes) if the rules refuse it."""

    @abstractmethod
    def evolve(self, state: State, facts: Iterable[Fact]) -> State:
        """The state after the facts, in order (replay is the same fold from the start)."""

    @abstractmethod
    def adjust(self, state: State, seat: Any, amount: Any, reason: Any) -> list[Fact]:
        """The organizer's correction of a seat's coins, with its reason; RuleError saying what
        to correct instead in a game without coins (Catan)."""

    @abstractmethod
    def stale(self, seen: State, now: State, seat: int, wire: Any) -> bool:
        """Whether a move made from the view of `seen` could have a different outcome now:
        then the hall refuses it `move/stale` with the fresh view (docs/api.md)."""

    # ------------------------------------------------------------ the journal

    def encode_fact(self, fact: Fact) -> tuple[str, Json]:
        """A fact's journal record: its stable kind and its data (the game's `codec`)."""
        return self.codec.encode_fact(fact)

    def decode_fact(self, kind: str, data: Mapping[str, Any]) -> Fact:
        """The fact a journal record holds (the game's `codec`)."""
        fact: Fact = self.codec.decode_fact(kind, dict(data))
        return fact

    # ------------------------------------------------------------ views

    @abstractmethod
    def result(self, state: State) -> Result | None:
        """How the game ended; None while it runs."""

    def story_result(self, story: Story[State, Fact]) -> Result | None:
        """The result of the game a story tells: None while it has no state yet or runs on."""
        return None if story.state is None else self.result(story.state)

    @abstractmethod
    def common_view(self, story: Story[State, Fact]) -> Json:
        """The fields of a table's seat views that every seat shares (docs/api.md)."""

    @abstractmethod
    def seat_view(self, story: Story[State, Fact], seat: int, setup: Any) -> Json:
        """One seat's own fields: what it may do now, each option open or closed with the
        reason (the phone renders these and decides nothing)."""

    @abstractmethod
    def tile_view(self, story: Story[State, Fact]) -> Json:
        """One tile of the hall screen."""

    @abstractmethod
    def page_data(self, setup: Any, lang: str) -> Json:
        """What this game's pages need beyond the views, in the page's language (`lang`: en, he,
        nl): Machi Koro's cards with their names, costs and colours. Lists of objects with an
        `id` merge across the rulesets of a hall's screen."""

    @abstractmethod
    def standings_rows(self, story: Story[State, Fact]) -> list[Json]:
        """One row per seat for the event's standings and score sheets, in the columns of
        `score_columns`, with each seat's place when the game is over."""

    # ------------------------------------------------------------ paper

    @abstractmethod
    def score_columns(self) -> tuple[Column, ...]:
        """The columns of this ruleset's score sheets and standings."""

    def export_columns(self) -> tuple[str, ...]:
        """The columns of this ruleset's rows in the event's results export (CSV and JSON),
        between the seat and the outcome: its score columns, then each seat's place (a key of
        its standings rows), unless its stored export keeps another order (other tools read
        it)."""
        return (*(column.key for column in self.score_columns()), "place")

    @abstractmethod
    def setup_section(self, setup: Any, options: Mapping[str, Any], seats: int) -> SetupSection:
        """What a table's setup sheet lays out for this game."""

    def paper_words(self) -> Mapping[str, Mapping[str, str]]:
        """The words this game's paper names (the keys in its `SetupSection` and `Column`s that
        the printouts' own words lack), by language (en, he, nl): printing merges them."""
        return {}


def base_only(rules: Ruleset[Any, Any, Any], card_sets: tuple[str, ...]) -> None:
    """Refuse card sets beyond the base one, for a game that has none (`CardSets`)."""
    extra = [name for name in card_sets if name != "base"]
    if extra:
        raise BadOptionValue(f"card_sets: a {rules.name} table plays no card set {extra[0]!r}")


# ================================================================ capabilities
# What only some games have. A game's class inherits the ones it has beside `Ruleset`
# (`class MachiKoro(Ruleset[...], Dealt[...], ...)`); the hall asks `isinstance(rules, X)` and
# does without when the answer is no. None has a default a game could forget to override.


class CardSets(ABC):
    """Card sets a table may add to the game's base cards (Machi Koro's Harbor)."""

    @abstractmethod
    def card_sets(self, lang: str) -> list[Json]:
        """The card sets a table of this game may add, for the console's choice: `{"id",
        "name" (in `lang`), "players_max"}` each."""


class Dealt(ABC, Generic[State, Fact]):
    """A deal that follows a table's start: something shuffled (a variable supply's pile, the
    co-op assessor's cards)."""

    @abstractmethod
    def deal(self, state: State, setup: Any, shuffle: Shuffle | None) -> list[Fact]:
        """The facts of the deal (decks shuffled by `shuffle`, the service's); [] when this
        table's options deal nothing."""


class Turns(ABC, Generic[State]):
    """Turns of a table's own (a new turn forgets the last one's undone moves); a game without
    them has one turn, the event's."""

    @abstractmethod
    def turn(self, state: State) -> int:
        """The turn the state is in."""


class SeatRolls(ABC, Generic[State]):
    """Dice a seat's moves throw: the service draws them for the move (`dice_for`), or the hall
    throws them for a table that rolls with the hall."""

    @abstractmethod
    def dice_for(self, state: State, seat: int, wire: Any) -> int:
        """How many dice the service draws for this wire move (0: none)."""

    @abstractmethod
    def hall_rolls(self, wire: Any) -> bool:
        """Whether this wire move is a roll that a table rolling with the hall never makes."""

    @abstractmethod
    def roll_due(self, state: State) -> int | None:
        """The seat whose turn waits on its own roll (a table that rolls its own dice: the
        console may roll for a seat without a phone, and the hall's timer when the seat's turn
        time is up); None when no roll is due."""


class HallRolled(ABC, Generic[State, Fact]):
    """A table whose game the event's shared hall roll moves on (Machi Koro's tables)."""

    @abstractmethod
    def hall_turn(self, state: State, dice: tuple[int, int], setup: Any,
                  shuffle: Shuffle | None) -> list[list[Fact]]:
        """The moves a hall roll of `dice` makes at a table of this ruleset (each a list of
        facts, applied in order); [] when the table has nothing to roll (its game is over)."""


class TimedChoices(ABC, Generic[State, Move]):
    """Choices a seat makes while the event's timer runs, each with a default that closes it
    when the time is up (Radio Tower's reroll, TV Station's target)."""

    @abstractmethod
    def choice_open(self, state: State) -> bool:
        """Whether a seat's choice is open and waits on the event's timer."""

    @abstractmethod
    def default_move(self, state: State) -> tuple[int, Move] | None:
        """The seat and move that close an open choice when its time is up; None if none."""


class SharedTurn(ABC, Generic[State, Fact]):
    """An event whose tables play one game together (Catan's boards): what the event's roll
    means beyond each table. An event whose tables play several rulesets asks each of them that
    has it (hall/clock.py)."""

    @abstractmethod
    def follow_up_dice(self, number: int, dice: tuple[int, int]) -> int:
        """How many more dice the hall rolls right after roll `number` of `dice` (the staff
        may enter them): 0 for none."""

    @abstractmethod
    def pauses_after(self, turn: HallTurn) -> bool:
        """Whether the event's automatic roll waits for the organizer to resume after `turn`
        (something at the tables takes its own time, like Catan's discard check)."""

    @abstractmethod
    def turn_free(self, kind: str) -> bool:
        """Whether a table's journal record of this kind, made after the event's latest roll,
        leaves that roll free to be undone: it means the same in any turn (Catan's points
        tracker)."""

    @abstractmethod
    def turn_view(self, turn: HallTurn) -> Json:
        """What every screen and phone of the event shows about `turn`, the same for all of
        them (encoded once): Catan's team on turn and robbers' instruction."""

    @abstractmethod
    def staff_move(self, state: State, wire: Any, hall: HallTurn | None) -> list[Fact]:
        """A move the staff make at a table (Catan's verification of a claim; `{"kind": "end"}`
        when the event's game is over); RuleError (nothing changes) if the rules refuse it."""

    @abstractmethod
    def check_turn_ends(self, stories: Mapping[str, Story[State, Fact]],
                        hall: HallTurn | None) -> None:
        """RuleError (the next roll waits, the organizer's and the timer's) while the event's
        turn may not end yet: Catan's claims the staff are still checking. `stories`: the
        started tables of this ruleset, by id."""

    @abstractmethod
    def hall_over(self, states: Sequence[State], hall: HallTurn | None) -> bool:
        """Whether the game the event's tables of this ruleset play together is over, so the
        hall rolls no more (Catan: a claim was verified in a turn that has ended)."""

    @abstractmethod
    def event_view(self, stories: Mapping[str, Story[State, Fact]],
                   hall: HallTurn | None) -> Json:
        """The event-wide part of the hall screen and the console for this ruleset's tables
        (by table id): Catan's claims being verified, its winner and standings."""


class Scenarios(ABC):
    """Scenarios of SCENARIOS.md this ruleset resolves (`companion resolve`): a table in JSON and
    what happens next, resolved as the served game would."""

    @abstractmethod
    def resolve_scenario(self, scenario: Any) -> Any:
        """The outcome of one scenario (its JSON value); ScenarioError naming the field when
        refused."""


class Series(ABC):
    """Games that make a series (a Legacy campaign: a group plays game after game, and what one
    game did the next starts from). The hall keeps its stream `series:ID` (hall/series.py) and
    creates its games' tables. A series' state and facts are the ruleset's own values, as a
    table's are."""

    needs_series: ClassVar[bool] = True  # whether its tables are made only by a series (its
    # options are a series' game: the console's plain table form and the tournament leave it out)
    series_kinds: ClassVar[frozenset[str]]  # the journal kinds of its series' facts

    @abstractmethod
    def series_start(self, wire: Mapping[str, Any]) -> list[Any]:
        """The facts that create a series from the organizer's JSON (the group); RuleError
        naming the field if refused. The first fact makes the state (`series_evolve`)."""

    @abstractmethod
    def series_dice(self, state: Any, wire: Any) -> int:
        """How many dice the hall draws for the organizer's command `wire` (0: none)."""

    @abstractmethod
    def series_decide(self, state: Any, wire: Any, dice: tuple[int, ...],
                      today: str) -> list[Any]:
        """The facts of the organizer's command on the series, with the dice the hall drew
        for it and today's date (YYYY-MM-DD); RuleError (nothing changes) if refused."""

    @abstractmethod
    def series_next(self, state: Any, wire: Any) -> list[Any]:
        """The facts that start the series' next game with the organizer's set-up `wire`
        (its fields left out take the ruleset's proposal); RuleError if it cannot start."""

    @abstractmethod
    def series_table(self, state: Any) -> SeriesTable:
        """The table of the game the series started last: its number, names, options."""

    @abstractmethod
    def series_result(self, state: Any, number: int, result: Result,
                      today: str) -> Json | None:
        """The command (wire) that records game `number`'s result in the series, or None when
        there is nothing to record (recorded already: a report is idempotent)."""

    @abstractmethod
    def series_withdraw(self, state: Any, number: int) -> Json | None:
        """The command (wire) that withdraws game `number`'s recorded result, which the undo of
        the move that decided the game appends with it; None when it cannot be withdrawn (the
        series has moved on from it): that undo is refused, `undo/recorded`."""

    @abstractmethod
    def series_evolve(self, state: Any, facts: Iterable[Any]) -> Any:
        """The series after the facts (`state` None: the first fact creates it)."""

    @abstractmethod
    def series_encode(self, fact: Any) -> tuple[str, Json]:
        """A series fact's journal record: its stable kind and its data."""

    @abstractmethod
    def series_decode(self, kind: str, data: Mapping[str, Any]) -> Any:
        """The series fact a journal record holds."""

    @abstractmethod
    def series_view(self, state: Any) -> Json:
        """The console's view of the series."""

    @abstractmethod
    def series_name(self, state: Any) -> str:
        """The series' name (a campaign's), for the console and the paper."""

    @abstractmethod
    def series_sheet(self, state: Any) -> SetupSection | None:
        """What a series' sheet says (a campaign's register): parts of lines and grids the
        printing lays out (companion/rules/paper.py); None: the series has no sheet."""


def needs_series(rules: object) -> bool:
    """Whether a ruleset's tables are made only by a series (`Series.needs_series`)."""
    return isinstance(rules, Series) and rules.needs_series


CAPABILITIES: tuple[type, ...] = (CardSets, Dealt, Turns, SeatRolls, HallRolled, TimedChoices,
                                  SharedTurn, Series, Scenarios)
"""Every optional capability, for the test that lists which each registered ruleset has."""


def capabilities(rules: object) -> tuple[str, ...]:
    """The names of the capabilities `rules` has."""
    return tuple(cap.__name__ for cap in CAPABILITIES if isinstance(rules, cap))


@dataclass(frozen=True)
class SeriesTable:
    """A series' game as the hall creates its table: the game's number in the series, the
    table's name, the seats' names in order, the ruleset the table plays and its options (its start player
    among them)."""

    number: int
    name: str  # the table's name (the hall cuts it to a table name's length)
    names: tuple[str, ...]
    ruleset: str
    options: Json
