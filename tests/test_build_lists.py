"""The build lists made once (rules/machi_koro/options.py `seat_cards`, `listed`, `build_list`;
issue 11's views of 275 tables, 26 -> 50-54 ms) say exactly what the straightforward lists say:
`market_options` with `turn_refusal` and `card_refusal`, asked card by card, as build_options
made them before. Checked on random positions (hypothesis: coins, cards, landmarks, supply,
draw pile, phase, places, both rulesets, another catalog that shares the base's name) and on
the positions of random games, the base game, its variants and the co-op game: the seat
views' `builds` and `choices`, their JSON text, the legal moves and `affordable`. Many
examples run in one process, so a list kept under an incomplete key would show here."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from builders import CATALOG
from hypothesis import given, settings
from hypothesis import strategies as st
from test_coop_properties import play_game

from companion.bench.simulate import random_game
from companion.rules.coop import engine as coop_engine
from companion.rules.coop import views as coop_views
from companion.rules.coop.state import CoopState, EndReason, Outcome, new_coop_table
from companion.rules.machi_koro import moves as mv
from companion.rules.machi_koro.codec import wire_move
from companion.rules.machi_koro.options import (
    NOT_RUNNING,
    affordable,
    build_options,
    card_refusal,
    legal_moves,
    market_options,
    not_running_options,
    turn_refusal,
)
from companion.rules.machi_koro.state import Choice, Phase, Player, TableState, frozen_counts
from companion.rules.registry import ruleset
from companion.rules.ruleset import Story

MACHI_KORO, COOP = ruleset("machi-koro"), ruleset("machi-koro-coop")

# Another catalog under the same name: the base's cards in another order, other costs and
# another purple card (lists are kept by catalog, and must not be taken for the base's).
_SHUFFLED = dict(reversed(list(CATALOG.establishments.items())))
OTHER = replace(
    CATALOG,
    establishments=MappingProxyType({
        card_id: replace(card, cost=card.cost + 2 if card.cost % 2 else max(0, card.cost - 1),
                         colour="purple" if card_id == "forest" else card.colour)
        for card_id, card in _SHUFFLED.items()}),
    landmarks=MappingProxyType({lm_id: replace(lm, cost=lm.cost + 3)
                                for lm_id, lm in reversed(list(CATALOG.landmarks.items()))}),
)
ESTABLISHMENTS = sorted(CATALOG.establishments)
LANDMARKS = sorted(CATALOG.landmarks)


# ---------------------------------------------------------------- the reference


def reference_builds(state: TableState, seat: int, catalog: Any, turn: Any,
                     refusal: Any = card_refusal) -> dict[str, Any]:
    """build_options as it was: every card asked, the turn's reason first."""
    if not 0 <= seat < len(state.players):
        return market_options(catalog, turn, lambda card: None)
    return market_options(catalog, turn, lambda card: refusal(state, seat, card, catalog))


def reference_options(state: TableState, seat: int, catalog: Any, *, running: bool) -> dict[str, Any]:
    turn = turn_refusal(state, seat) if running or state.phase is Phase.FINISHED else NOT_RUNNING
    return reference_builds(state, seat, catalog, turn)


def reference_affordable(state: TableState, catalog: Any) -> list[str]:
    listed = reference_options(state, state.active, catalog, running=True)
    return [] if listed["why"] else [o["card"] for o in listed["cards"] if "why" not in o]


def reference_choices(story: Story[Any, Any], seat: int, catalog: Any) -> list[dict[str, Any]]:
    """The seat view's choices: the wire form of each legal move but a hall table's roll and
    the dice count the seat has, the builds being the reference's open cards."""
    state = story.state if isinstance(story.state, TableState) else story.state.table
    if not (story.running and 0 <= seat < len(state.players) and state.players[seat].place is None):
        return []
    moves = reference_moves(state, seat, catalog)
    skipped = (mv.Roll(()) if story.roll_mode == "hall" else None,
               mv.ChooseDice(state.players[seat].dice_count))
    return [wire_move(move) for move in moves if move not in skipped]


def reference_moves(state: TableState, seat: int, catalog: Any) -> list[mv.Move]:
    """legal_moves as it was: its moves but builds, with `Build` of the reference's open
    cards before the end of a turn in the build phase."""
    others = [move for move in legal_moves(state, seat, catalog) if not isinstance(move, mv.Build)]
    if seat != state.active or state.phase is not Phase.BUILD:
        return others
    return others[:-1] + [mv.Build(card) for card in reference_affordable(state, catalog)] + others[-1:]


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def check_table(state: TableState, catalog: Any, seats: range) -> None:
    """Every seat's build list, running or not, and its JSON; the legal moves and the seat
    view's choices of a base table, in a hall and rolling its own dice."""
    for seat in seats:
        for running in (True, False):
            made = build_options(state, seat, catalog, running=running)
            assert made == reference_options(state, seat, catalog, running=running), (seat, running)
            assert made.json_text == compact(made)
            assert type(made["cards"]) is list
    assert affordable(state, catalog) == reference_affordable(state, catalog)
    for seat in range(len(state.players)):
        assert legal_moves(state, seat, catalog) == reference_moves(state, seat, catalog)
        for running in (True, False):
            for mode in ("hall", "own"):
                story = Story(("a",) * len(state.players), state, running=running,
                              roll_mode=mode, setup=catalog)
                view = MACHI_KORO.seat_view(story, seat, catalog)
                # the open choice as data (tests/test_asks.py) asks of the active seat only,
                # answered by moves the seat may make now
                asks = view.pop("asks", [])
                answers = {json.dumps(o["move"]) for a in asks for o in a["options"] if "fields" not in o}
                assert answers <= {json.dumps(c) for c in view["choices"]}
                assert not asks or (seat == state.active and running)
                assert view == {"choices": reference_choices(story, seat, catalog),
                                "builds": reference_options(state, seat, catalog, running=running)}
                assert compact(view["builds"]) == view["builds"].json_text


def check_coop(state: CoopState, catalog: Any) -> None:
    """The co-op seat views' build lists against the co-op engine's (market_options card by
    card), and before the start."""
    for seat in range(len(state.table.players) + 1):
        for running in (True, False):
            story = Story(("a", "b"), state, running=running, setup=catalog)
            made = coop_views.builds_json(story, seat, catalog)
            assert made == coop_engine.build_options(state, seat, catalog, running=running)
            assert made.json_text == compact(made)
    for seat in range(len(state.table.players)):
        story = Story(("a", "b"), state, running=True, setup=catalog)
        assert COOP.seat_view(story, seat, catalog)["builds"] == \
            coop_engine.build_options(state, seat, catalog, running=True)
    before = coop_views.builds_json(Story(("a", "b"), None, setup=catalog), 0, catalog)
    assert before == not_running_options(catalog) == market_options(catalog, NOT_RUNNING, lambda card: None)


# ---------------------------------------------------------------- random positions


@st.composite
def players(draw: Any, count: int, play_on: bool) -> tuple[Player, ...]:
    made = []
    for seat in range(count):
        cards = draw(st.dictionaries(st.sampled_from(ESTABLISHMENTS), st.integers(0, 3), max_size=8))
        made.append(Player(
            f"P{seat}", draw(st.one_of(st.integers(0, 12), st.integers(0, 80))),
            frozen_counts(cards), frozenset(draw(st.sets(st.sampled_from(LANDMARKS)))),
            draw(st.integers(1, 2)),
            draw(st.one_of(st.none(), st.integers(1, count))) if play_on else None))
    return tuple(made)


@st.composite
def tables(draw: Any) -> TableState:
    count = draw(st.integers(1, 5))
    play_on, variable = draw(st.booleans()), draw(st.booleans())
    phase = draw(st.sampled_from([Phase.BUILD, Phase.BUILD, *Phase]))  # the seat's own reasons
    return TableState(
        ruleset="machi-koro", players=draw(players(count, play_on)), bank=100,
        supply=frozen_counts(draw(st.dictionaries(st.sampled_from(ESTABLISHMENTS),
                                                  st.integers(0, 3)))),
        active=draw(st.integers(0, count - 1)), phase=phase,
        built=draw(st.sampled_from([False, False, True])),
        pending=(draw(st.sampled_from(list(Choice))),) if phase is Phase.CHOOSE else (),
        play_on=play_on, variable_supply=variable,
        draw_pile=tuple(draw(st.lists(st.sampled_from(ESTABLISHMENTS), max_size=12))) if variable else (),
    )


@settings(max_examples=800)
@given(state=tables(), other=st.booleans())
def test_build_lists_made_once_are_the_lists_card_by_card(state: TableState, other: bool) -> None:
    catalog = OTHER if other else CATALOG
    check_table(state, catalog, range(len(state.players) + 1))
    check_table(state, catalog, range(len(state.players) - 1, -1, -1))  # again: the lists kept


@settings(max_examples=400)
@given(state=tables(), outcome=st.sampled_from([None, None, *Outcome]),
       dealt=st.sampled_from([True, True, False]), other=st.booleans())
def test_coop_build_lists_are_the_coop_engines(state: TableState, outcome: Any, dealt: bool,
                                               other: bool) -> None:
    two = state.players[:2] if len(state.players) > 1 else state.players * 2
    table = replace(state, ruleset="machi-koro-coop", players=two, bank_pays_players=True,
                    active=min(state.active, 1))
    coop = replace(new_coop_table(CATALOG, ("a", "b")), table=table, dealt=dealt, outcome=outcome,
                   reason=EndReason.TAX_UNPAID if outcome is Outcome.LOST else None)
    check_coop(coop, OTHER if other else CATALOG)


def test_another_catalog_of_the_same_name_has_its_own_lists() -> None:
    state = replace(random_start(), phase=Phase.BUILD)
    assert OTHER.name == CATALOG.name
    assert build_options(state, 0, CATALOG, running=True) != build_options(state, 0, OTHER, running=True)
    check_table(state, OTHER, range(5))
    check_table(state, CATALOG, range(5))


def random_start() -> TableState:
    return next(iter(random_game(4, 1))).before


# ---------------------------------------------------------------- random games


@settings(max_examples=40)
@given(seats=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_build_lists_of_random_games(seats: int, seed: int) -> None:
    for step in random_game(seats, seed, max_turns=40):
        check_table(step.before, CATALOG, range(seats + 1))


@settings(max_examples=30)
@given(seats=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_build_lists_of_the_variants_random_games(seats: int, seed: int) -> None:
    """Play on and the variable supply, played through the ruleset (its deal shuffles)."""
    rng = random.Random(seed)
    options = {"play_on": rng.random() < 0.5, "variable_supply": rng.random() < 0.7}
    def shuffle(cards: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(rng.sample(cards, len(cards)))

    state = MACHI_KORO.start(CATALOG, tuple(f"P{i}" for i in range(seats)), options)
    state = MACHI_KORO.evolve(state, MACHI_KORO.deal(state, CATALOG, shuffle))
    for _ in range(250):
        if state.phase is Phase.FINISHED:
            break
        check_table(state, CATALOG, range(seats + 1))
        seat = state.active
        moves = legal_moves(state, seat, CATALOG)
        builds = [move for move in moves if isinstance(move, mv.Build)]
        move = rng.choice(builds) if builds and rng.random() < 0.8 else rng.choice(moves)
        if isinstance(move, mv.Roll | mv.Reroll):
            count = state.players[seat].dice_count if isinstance(move, mv.Roll) else len(state.dice)
            move = type(move)(tuple(rng.randint(1, 6) for _ in range(count)))
        state = MACHI_KORO.evolve(state, MACHI_KORO.decide(state, seat, move, CATALOG, shuffle))


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32))
def test_build_lists_of_random_coop_games(seed: int) -> None:
    *_, states = play_game(seed, 13)
    for state in states[::3]:
        check_coop(state, CATALOG)
