"""What a seat may do now (options.py): `build_refusal`, the one source of build legality
(RULES.md 5, 7), each of its reasons, its two parts (the turn's, the card's), and the build
list the phone shows from them."""

from dataclasses import replace

import pytest
from builders import CATALOG, table

from companion.rules.errors import RuleError
from companion.rules.machi_koro.engine import decide
from companion.rules.machi_koro.moves import Build, EndTurn
from companion.rules.machi_koro.options import (
    TURN_WIDE,
    Closed,
    Why,
    affordable,
    build_options,
    build_refusal,
    card_refusal,
    legal_moves,
    not_running_options,
    turn_refusal,
)
from companion.rules.machi_koro.state import Phase, frozen_counts

BUILD = {"phase": Phase.BUILD}
ALL_CARDS = [*CATALOG.establishments, *CATALOG.landmarks]

# The error `decide` raises for each reason (docs/api.md): the phone's sentence and the
# refusal's code name the same thing.
CODES = {
    Why.GAME_OVER: "rule/game_over",
    Why.FINISHED: "rule/finished",
    Why.NOT_YOUR_TURN: "rule/not_your_turn",
    Why.NOT_BUILD_PHASE: "rule/wrong_phase",
    Why.BUILT_THIS_TURN: "rule/already_built",
    Why.UNKNOWN: "rule/unknown_card",
    Why.BUILT: "rule/already_own",
    Why.SOLD_OUT: "rule/sold_out",
    Why.NOT_FACE_UP: "rule/not_face_up",
    Why.NOT_SHOWN: "rule/sold_out",
    Why.OWN_ONE: "rule/already_own",
    Why.COINS: "rule/cannot_afford",
}

SOLD_OUT_MINE = table("A 9 | B 0", **BUILD)
SOLD_OUT_MINE = replace(SOLD_OUT_MINE, supply=frozen_counts({**SOLD_OUT_MINE.supply, "mine": 0}))

# (table, seat, card, the reason): one line per reason, in the order the rules ask them.
REFUSALS = [
    (table("A 30 | B 0", phase=Phase.FINISHED, winner=0), 0, "cafe", Closed(Why.GAME_OVER)),
    (table("A 30 | B 0", **BUILD), 1, "cafe", Closed(Why.NOT_YOUR_TURN)),
    (table("A 30 | B 0", **BUILD), 7, "cafe", Closed(Why.NOT_YOUR_TURN)),
    (table("A 30 | B 0"), 0, "cafe", Closed(Why.NOT_BUILD_PHASE)),
    (table("A 30 | B 0", phase=Phase.REROLL), 0, "train_station", Closed(Why.NOT_BUILD_PHASE)),
    (table("A 30 | B 0", built=True, **BUILD), 0, "cafe", Closed(Why.BUILT_THIS_TURN)),
    (table("A 30 | B 0", **BUILD), 0, "castle", Closed(Why.UNKNOWN)),
    (table("A 30 +train_station | B 0", **BUILD), 0, "train_station", Closed(Why.BUILT)),
    (SOLD_OUT_MINE, 0, "mine", Closed(Why.SOLD_OUT)),
    (table("A 30 stadium | B 0", **BUILD), 0, "stadium", Closed(Why.OWN_ONE)),
    (table("A 1 | B 0", **BUILD), 0, "cafe", Closed(Why.COINS, short=1)),
    (table("A 3 | B 0", **BUILD), 0, "radio_tower", Closed(Why.COINS, short=19)),
]


@pytest.mark.parametrize(("state", "seat", "card", "closed"), REFUSALS)
def test_build_refusal_says_why_and_decide_refuses_with_its_code(state, seat, card, closed):
    assert build_refusal(state, seat, card, CATALOG) == closed
    before = repr(state)
    with pytest.raises(RuleError) as caught:
        decide(state, seat, Build(card), CATALOG)
    assert caught.value.code == CODES[closed.why], caught.value
    assert repr(state) == before


def test_build_refusal_is_none_for_a_build_the_engine_accepts():
    state = table("A 2 stadium | B 0", **BUILD)
    assert build_refusal(state, 0, "cafe", CATALOG) is None
    assert build_refusal(table("A 4 | B 0", **BUILD), 0, "train_station", CATALOG) is None
    assert decide(state, 0, Build("cafe"), CATALOG)


def test_build_refusal_asks_the_turn_before_the_card():
    """Another seat's turn is said before the card's own reason (the phone says it once)."""
    state = table("A 0 stadium | B 0", **BUILD)
    assert build_refusal(state, 1, "stadium", CATALOG) == Closed(Why.NOT_YOUR_TURN)
    assert build_refusal(state, 0, "castle", CATALOG) == Closed(Why.UNKNOWN)
    assert build_refusal(replace(state, built=True), 0, "castle", CATALOG) == Closed(Why.BUILT_THIS_TURN)


def test_build_refusal_keeps_todays_messages():
    messages = {}
    for state, seat, card, _ in REFUSALS:
        with pytest.raises(RuleError) as caught:
            decide(state, seat, Build(card), CATALOG)
        messages[card, seat] = caught.value.message
    assert messages["cafe", 0] == "'cafe' costs 2, A has 1"
    assert messages["radio_tower", 0] == "'radio_tower' costs 22, A has 3"
    assert messages["mine", 0] == "the supply has no 'mine' left"
    assert messages["stadium", 0] == "A already owns a 'stadium'"
    assert messages["train_station", 0] == "A has already built the 'train_station'"
    assert messages["castle", 0] == "unknown card 'castle'"


@pytest.mark.parametrize(("state", "seat", "card", "closed"), [r for r in REFUSALS if 0 <= r[1] < 2])
def test_build_refusal_is_the_turns_part_then_the_cards(state, seat, card, closed):
    """The turn's part gives only the turn's codes, the card's part only the card's; the
    refusal is the first that says why."""
    turn, own = turn_refusal(state, seat), card_refusal(state, seat, card, CATALOG)
    assert build_refusal(state, seat, card, CATALOG) == (turn if turn is not None else own)
    assert turn is None or turn.why in TURN_WIDE
    assert own is None or own.why not in TURN_WIDE


def test_a_turns_refusal_is_none_only_in_the_seats_build_phase():
    state = table("A 0 | B 0", **BUILD)
    assert turn_refusal(state, 0) is None
    assert turn_refusal(state, 1) == Closed(Why.NOT_YOUR_TURN)
    assert card_refusal(state, 1, "cafe", CATALOG) == Closed(Why.COINS, short=2)


# ---------------------------------------------------------------- the build list


def test_build_options_lists_every_card_in_catalog_order_with_its_reason():
    """The slim wire form: no turn's reason in the seat's build phase, and each card alone
    when open, with its `why` when closed, `short` only for missing coins (the phone has each
    card's kind, cost and name from its page)."""
    state = table("A 2 stadium +train_station | B 0", **BUILD)
    options = build_options(state, 0, CATALOG, running=True)
    assert set(options) == {"why", "cards"} and options["why"] is None
    cards = options["cards"]
    assert [o["card"] for o in cards] == ALL_CARDS
    by_card = {o["card"]: o for o in cards}
    assert by_card["cafe"] == {"card": "cafe"}
    assert by_card["stadium"] == {"card": "stadium", "why": "own_one"}
    assert by_card["mine"] == {"card": "mine", "why": "coins", "short": 4}
    assert by_card["train_station"] == {"card": "train_station", "why": "built"}
    assert by_card["shopping_mall"] == {"card": "shopping_mall", "why": "coins", "short": 8}
    assert all(set(o) <= {"card", "why", "short"} for o in cards)
    assert all(("short" in o) == (o.get("why") == "coins") for o in cards)


def test_build_options_say_the_turns_reason_once_and_of_the_cards_only_built():
    """Another seat's turn: `why` once; the cards say only `built` (the phone leaves a built
    landmark out), not what they would say in the build phase (coins, own_one)."""
    state = table("A 30 | B 2 stadium +train_station", **BUILD)
    options = build_options(state, 1, CATALOG, running=True)
    assert options["why"] == "not_your_turn"
    assert [o["card"] for o in options["cards"]] == ALL_CARDS
    assert [o for o in options["cards"] if set(o) != {"card"}] == [{"card": "train_station", "why": "built"}]
    for turn in (table("A 30 | B 0"), table("A 30 | B 0", built=True, **BUILD)):
        options = build_options(turn, 0, CATALOG, running=True)
        assert options["why"] in {"not_build_phase", "built_this_turn"}
        assert all(set(o) == {"card"} for o in options["cards"])


def test_build_options_of_a_table_not_running_are_closed_not_running():
    options = build_options(table("A 30 | B 0", **BUILD), 0, CATALOG, running=False)
    assert options == not_running_options(CATALOG)
    assert options == {"why": "not_running", "cards": [{"card": card} for card in ALL_CARDS]}
    paused = build_options(table("A 30 +radio_tower | B 0", **BUILD), 0, CATALOG, running=False)
    assert paused["why"] == "not_running"
    assert [o for o in paused["cards"] if "why" in o] == [{"card": "radio_tower", "why": "built"}]


def test_build_options_of_a_finished_game_say_game_over_even_when_not_running():
    state = table("A 30 | B 0", phase=Phase.FINISHED, winner=0)
    for running in (True, False):
        options = build_options(state, 1, CATALOG, running=running)
        assert options["why"] == "game_over"
        assert all(set(o) == {"card"} for o in options["cards"])


def test_build_options_of_a_seat_not_at_the_table_have_no_city():
    options = build_options(table("A 30 | B 0", **BUILD), 5, CATALOG, running=True)
    assert options == {"why": "not_your_turn", "cards": [{"card": card} for card in ALL_CARDS]}


def test_build_options_are_plain_json():
    import json

    options = build_options(table("A 1 | B 0", **BUILD), 0, CATALOG, running=True)
    assert json.loads(json.dumps(options)) == options
    assert all(type(o.get("why", "")) is str for o in options["cards"])


# ---------------------------------------------------------------- legal moves


def test_affordable_and_legal_builds_are_the_open_options():
    state = table("A 6 stadium | B 0", **BUILD)
    options = build_options(state, 0, CATALOG, running=True)
    assert options["why"] is None
    open_cards = [o["card"] for o in options["cards"] if "why" not in o]
    assert affordable(state, CATALOG) == open_cards
    builds = [m.card for m in legal_moves(state, 0, CATALOG) if isinstance(m, Build)]
    assert builds == open_cards and "stadium" not in builds and "cafe" in builds
    assert EndTurn() in legal_moves(state, 0, CATALOG)
    assert affordable(replace(state, built=True), CATALOG) == []
    assert affordable(replace(state, phase=Phase.ROLL), CATALOG) == []
