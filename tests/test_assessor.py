"""The co-op Tax Assessor's turn, RULES.md 18-19, with fixed deck orders: the scenario form's
outcome, played by the game's own `coop.assessor_turn`."""

import pytest
from builders import CATALOG

from companion.rules.coop.assessor import ASSESSOR_DECK
from companion.rules.coop.engine import assessor_turn
from companion.rules.coop.facts import AssessorCardDrawn
from companion.rules.coop.scenario import resolve_assessor_scenario
from companion.rules.errors import RuleError


def turn(coins, assessed, draws):
    return resolve_assessor_scenario({"coins": coins, "assessed": assessed, "draws": draws},
                                     CATALOG)


def used(coins, assessed, draws):
    """How many cards the game's turn takes off the top of the deck `draws`."""
    events = assessor_turn(CATALOG, coins, len(assessed) + 1, tuple(draws), (), lambda c: c)
    return sum(isinstance(event, AssessorCardDrawn) for event in events)


def test_rule16_assessor_deck_has_17_cards():
    assert sum(ASSESSOR_DECK.values()) == 17


def test_rule18_first_card_match_pays_tax_and_ends_turn():
    result = turn(13, [], ["wheat_field", "mine"])
    assert (result["coins"], result["assessed"], result["reshuffled"]) == (
        12, ["wheat_field"], True,
    )
    assert used(13, [], ["wheat_field", "mine"]) == 1
    assert result["taxes"][0]["kind"] == "tax" and result["taxes"][0]["amount"] == 1


@pytest.mark.parametrize("sought", [2, 3])
def test_rule18_bakery_counts_as_two_or_three(sought):
    assessed = ["wheat_field", "ranch"][: sought - 1]
    result = turn(13, assessed, ["bakery"])
    assert result["assessed"][-1] == "bakery" and result["coins"] == 13 - sought


def test_rule18_supplemental_tax_of_lowest_value_no_reshuffle():
    assessed = ["wheat_field", "ranch", "cafe", "convenience_store"]
    result = turn(13, assessed, ["bakery", "mine"])
    assert result["taxes"][0]["kind"] == "supplemental" and result["taxes"][0]["amount"] == 2
    assert result["discarded"] == ["bakery"] and not result["reshuffled"]
    assert used(13, assessed, ["bakery", "mine"]) == 1
    assert result["assessed"] == assessed and result["coins"] == 11


def test_rule18_two_misses_end_the_turn():
    result = turn(13, [], ["stadium", "furniture_factory", "wheat_field"])
    assert result["discarded"] == ["stadium", "furniture_factory"]
    assert used(13, [], ["stadium", "furniture_factory", "wheat_field"]) == 2
    assert result["coins"] == 13 and result["result"] == "continue"


def test_rule18_miss_then_match():
    result = turn(13, [], ["convenience_store", "wheat_field"])
    assert result["discarded"] == ["convenience_store"] and result["assessed"] == ["wheat_field"]
    assert result["reshuffled"]


def test_rule18_miss_then_supplemental():
    result = turn(13, ["wheat_field"], ["mine", "wheat_field"])
    assert result["discarded"] == ["mine", "wheat_field"] and result["coins"] == 12
    assert result["taxes"][0]["kind"] == "supplemental"


def test_rule19_assessor_cannot_pay_players_lose_and_nothing_is_paid():
    assessed = ["wheat_field", "ranch", "bakery", "convenience_store"]
    result = turn(4, assessed, ["forest"])
    assert result["result"] == "lost" and result["coins"] == 4 and result["taxes"] == []


def test_rule19_supplemental_unpaid_also_loses():
    result = turn(0, ["wheat_field"], ["wheat_field"])
    assert result["result"] == "lost" and result["coins"] == 0


def test_rule19_last_value_starts_the_final_round():
    assessed = ["wheat_field", "ranch", "bakery", "convenience_store", "forest", "stadium",
                "cheese_factory", "furniture_factory", "mine", "apple_orchard"]
    result = turn(80, assessed, ["fruit_and_vegetable_market"])
    assert result["result"] == "final_round" and result["coins"] == 69


def test_assessor_scenario_refusals():
    with pytest.raises(RuleError, match=r"^assessed\[0\]"):
        resolve_assessor_scenario({"coins": 5, "assessed": ["mine"], "draws": ["ranch"]}, CATALOG)
    with pytest.raises(RuleError, match=r"^draws\[0\]"):
        resolve_assessor_scenario({"coins": 5, "assessed": [], "draws": ["castle"]}, CATALOG)
    with pytest.raises(RuleError, match=r"^coins"):
        resolve_assessor_scenario({"coins": -1, "assessed": [], "draws": ["ranch"]}, CATALOG)
    with pytest.raises(RuleError, match=r"^draws: the assessor's deck has 1 'mine'"):
        resolve_assessor_scenario({"coins": 5, "assessed": [], "draws": ["mine", "mine"]},
                                  CATALOG)
    with pytest.raises(RuleError, match=r"^draws: after a miss"):
        resolve_assessor_scenario({"coins": 5, "assessed": [], "draws": ["mine"]}, CATALOG)
