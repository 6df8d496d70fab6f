"""The co-op build list (coop/engine.py `build_refusal`, `build_options`): the base game's
reasons (options.py) on the base table inside, plus a game that is over or not dealt, and an
establishment the market row does not show (RULES.md 16, 19)."""

from dataclasses import replace

import pytest
from builders import CATALOG
from coop_builders import Recorder, coop
from test_options import CODES

from companion.rules.coop import engine as rules
from companion.rules.coop.state import EndReason, Outcome, new_coop_table
from companion.rules.errors import RuleError
from companion.rules.machi_koro.moves import Build
from companion.rules.machi_koro.options import Closed, Why
from companion.rules.machi_koro.state import Phase

ROW = "ranch mine forest cafe"
BUILD = {"phase": Phase.BUILD}
LOST = {"outcome": Outcome.LOST, "reason": EndReason.TAX_UNPAID}

# (table, seat, card, the reason): every reason a co-op build can be closed for.
REFUSALS = [
    (coop("A 30 | B 0", row=ROW, **LOST, **BUILD), 0, "cafe", Closed(Why.GAME_OVER)),
    (new_coop_table(CATALOG, ("A", "B")), 0, "train_station", Closed(Why.NOT_BUILD_PHASE)),
    (coop("A 30 | B 0", row=ROW, **BUILD), 1, "cafe", Closed(Why.NOT_YOUR_TURN)),
    (coop("A 30 | B 0", row=ROW), 0, "cafe", Closed(Why.NOT_BUILD_PHASE)),
    (coop("A 30 | B 0", row=ROW, built=True, **BUILD), 0, "cafe", Closed(Why.BUILT_THIS_TURN)),
    (coop("A 30 | B 0", row=ROW, **BUILD), 0, "castle", Closed(Why.UNKNOWN)),
    (coop("A 30 +radio_tower | B 0", row=ROW, **BUILD), 0, "radio_tower", Closed(Why.BUILT)),
    (coop("A 30 | B 0", row=ROW, **BUILD), 0, "apple_orchard", Closed(Why.NOT_SHOWN)),
    (coop("A 30 stadium | B 0", row="stadium", **BUILD), 0, "stadium", Closed(Why.OWN_ONE)),
    (coop("A 5 | B 0", row=ROW, **BUILD), 0, "mine", Closed(Why.COINS, short=1)),
]


@pytest.mark.parametrize(("state", "seat", "card", "closed"), REFUSALS)
def test_coop_build_refusal_says_why_and_decide_refuses_with_its_code(state, seat, card, closed):
    assert rules.build_refusal(state, seat, card, CATALOG) == closed
    before = repr(state)
    with pytest.raises(RuleError) as caught:
        rules.decide(state, seat, Build(card), CATALOG, Recorder())
    assert caught.value.code == CODES[closed.why], caught.value
    assert repr(state) == before


def test_coop_build_refusal_of_a_card_not_shown_names_the_row():
    state = coop("A 30 | B 0", row=ROW, **BUILD)
    with pytest.raises(RuleError) as caught:
        rules.decide(state, 0, Build("apple_orchard"), CATALOG, Recorder())
    assert caught.value.message == \
        "the market row shows no 'apple_orchard' (it shows ranch, mine, forest, cafe)"


def test_coop_build_options_are_every_card_the_row_open_by_the_base_rules():
    state = coop("A 3 | B 0", row=ROW, **BUILD)
    options = rules.build_options(state, 0, CATALOG, running=True)
    assert options["why"] is None
    assert [o["card"] for o in options["cards"]] == [*CATALOG.establishments, *CATALOG.landmarks]
    by_card = {o["card"]: o for o in options["cards"]}
    assert {card for card, o in by_card.items() if "why" not in o} == {"ranch", "forest", "cafe"}
    assert by_card["cafe"] == {"card": "cafe"}
    assert by_card["mine"] == {"card": "mine", "why": "coins", "short": 3}
    assert by_card["apple_orchard"] == {"card": "apple_orchard", "why": "not_shown"}
    assert by_card["train_station"] == {"card": "train_station", "why": "coins", "short": 1}
    moves = rules.legal_moves(state, 0, CATALOG)
    assert {m.card for m in moves if isinstance(m, Build)} == {"ranch", "forest", "cafe"}


def test_coop_build_options_under_the_turns_reason_say_only_built():
    """Not this seat's build phase: the turn's reason once; of the cards only a built landmark
    says why (not `not_shown`: the co-op phone's lists show the row and the landmarks)."""
    state = coop("A 3 +radio_tower | B 0", row=ROW, **BUILD)
    options = rules.build_options(state, 1, CATALOG, running=True)
    assert options["why"] == "not_your_turn" and all(set(o) == {"card"} for o in options["cards"])
    built = coop("A 3 +radio_tower | B 0", row=ROW, built=True, **BUILD)
    options = rules.build_options(built, 0, CATALOG, running=True)
    assert options["why"] == "built_this_turn"
    assert [o for o in options["cards"] if "why" in o] == [{"card": "radio_tower", "why": "built"}]
    undealt = rules.build_options(new_coop_table(CATALOG, ("A", "B")), 0, CATALOG, running=True)
    assert undealt["why"] == "not_build_phase" and all(set(o) == {"card"} for o in undealt["cards"])


def test_coop_build_options_not_running_and_over():
    state = coop("A 30 | B 0", row=ROW, **BUILD)
    assert rules.build_options(state, 0, CATALOG, running=False)["why"] == "not_running"
    over = replace(state, outcome=Outcome.WON, reason=EndReason.CITIES_COMPLETE)
    for running in (True, False):
        options = rules.build_options(over, 0, CATALOG, running=running)
        assert options["why"] == "game_over" and all(set(o) == {"card"} for o in options["cards"])
