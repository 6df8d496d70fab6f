"""Invariants over thousands of random legal games of 2, 3 and 4 seats (hypothesis)."""

import random

from builders import CATALOG
from hypothesis import given, settings
from hypothesis import strategies as st
from test_options import CODES

from companion.bench.simulate import random_game
from companion.rules.errors import RuleError
from companion.rules.machi_koro import moves as mv
from companion.rules.machi_koro.engine import decide
from companion.rules.machi_koro.evolve import replay
from companion.rules.machi_koro.options import TURN_WIDE, Why, affordable, build_options
from companion.rules.machi_koro.state import Phase

ALL_CARDS = [*CATALOG.establishments, *CATALOG.landmarks]
GAMES = settings(max_examples=2000)  # thousands (issue 2); deadline, too_slow: conftest profile


def check_invariants(state, total):
    assert all(player.coins >= 0 for player in state.players), "coins never below zero"
    assert state.total_coins() == total, "players' coins plus the bank are constant"
    for card in CATALOG.establishments.values():
        stock = state.supply.get(card.id, 0)
        assert 0 <= stock <= card.copies, "stock within the box"
        owned = sum(player.owns(card.id) for player in state.players)
        starting = card.starting * len(state.players)
        assert owned + stock == card.copies + starting, "no card made or lost"
        if card.is_purple:
            assert all(player.owns(card.id) <= 1 for player in state.players)


@GAMES
@given(seats=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_property_random_games_keep_the_invariants(seats, seed):
    steps = list(random_game(seats, seed, max_turns=120))
    start = steps[0].before
    total = start.total_coins()
    events = []
    for step in steps:
        for event in step.facts:
            events.append(event)
        check_invariants(step.after, total)
    assert replay(start, events) == steps[-1].after, "replaying the events gives the same state"
    final = steps[-1].after
    if final.phase is Phase.FINISHED:
        assert len(final.players[final.winner].landmarks) == len(CATALOG.landmarks)


ANY_CARD = sorted([*CATALOG.establishments, *CATALOG.landmarks, "castle"])


def any_move(rng):
    """A move of any kind with arbitrary fields: often illegal."""
    dice = tuple(rng.randint(0, 7) for _ in range(rng.randint(0, 3)))
    return rng.choice([
        mv.ChooseDice(rng.randint(0, 3)), mv.Roll(dice), mv.KeepRoll(), mv.Reroll(dice),
        mv.TargetTvStation(rng.randint(-1, 4)), mv.DeclineSwap(),
        mv.SwapEstablishments(rng.randint(-1, 4), rng.choice(ANY_CARD), rng.choice(ANY_CARD)),
        mv.Build(rng.choice(ANY_CARD)), mv.EndTurn(),
    ])


@settings(max_examples=300)
@given(seats=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_property_illegal_moves_are_refused_without_change(seats, seed):
    rng = random.Random(seed)
    refusals = 0
    for step in random_game(seats, seed, max_turns=40):
        state = step.before
        seat, move = rng.randrange(seats + 1), any_move(rng)
        before = repr(state)
        try:
            events = decide(state, seat, move, CATALOG)
        except RuleError as error:
            refusals += 1
            assert error.code.startswith(("rule/", "move/"))
            assert repr(state) == before
            continue
        after = replay(state, events)
        check_invariants(after, state.total_coins())
    assert refusals > 0


@settings(max_examples=60)
@given(seats=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_property_build_options_open_exactly_when_decide_builds(seats, seed):
    """The one source agrees with the engine: on every position of a random game, for every
    seat (and one that is not at the table) and every card, a card is open (no turn's `why`
    and no `why` of its own) exactly when `decide` accepts the build, and a closed one's
    reason is the refusal's code: the turn's when there is one, else the card's. Under the
    turn's reason a card says only `built`, exactly for a landmark its seat built; the active
    seat's open cards are its legal builds."""
    for step in random_game(seats, seed, max_turns=30):
        check_build_options(step.before, seats)


def check_build_refusal(decide, state, seat, option, turn):
    """`decide` refuses to build `option`'s card exactly when the options say why not
    (`turn`, the turn-wide reason, or the option's own), with that reason's code."""
    try:
        decide(state, seat, mv.Build(option["card"]), CATALOG)
    except RuleError as error:
        assert turn is not None or "why" in option, (option, error)
        assert error.code == CODES[Why(turn or option["why"])], (option, error)
    else:
        assert turn is None and "why" not in option and "short" not in option, option


def check_build_options(state, seats):
    """`test_property_build_options_open_exactly_when_decide_builds` on one position (the
    variants' random games ask it too, tests/test_variants.py)."""
    for seat in range(seats + 1):
        options = build_options(state, seat, CATALOG, running=True)
        turn = options["why"]
        assert turn is None or Why(turn) in TURN_WIDE
        assert [o["card"] for o in options["cards"]] == ALL_CARDS
        for option in options["cards"]:
            check_build_refusal(decide, state, seat, option, turn)
            if turn is not None:
                built = seat < seats and option["card"] in state.players[seat].landmarks
                assert option == ({"card": option["card"], "why": "built"} if built
                                  else {"card": option["card"]}), option
        if seat == state.active and turn is None:
            assert affordable(state, CATALOG) == [o["card"] for o in options["cards"] if "why" not in o]
