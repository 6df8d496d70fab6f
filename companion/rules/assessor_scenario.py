"""The Tax Assessor turn form of SCENARIOS.md, played by the co-op game's own assessor turn
(`coop.assessor_turn`), so a scenario and a served game cannot disagree."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.assessor import ASSESSOR_DECK, card_values, classify, last_value
from companion.rules.catalog import Catalog
from companion.rules.coop import assessor_turn
from companion.rules.coop_events import (
    AssessorCardDrawn,
    AssessorCoinsTransferred,
    AssessorDeckShuffled,
    CoopGameEnded,
    FinalRoundBegan,
)
from companion.rules.errors import RuleError, is_whole_number


class AssessorError(RuleError):
    code = "scenario/invalid"


def resolve_assessor_scenario(scenario: Mapping[str, Any], catalog: Catalog) -> dict[str, Any]:
    """The outcome of one assessor turn whose deck starts with `draws`; AssessorError naming
    the field for a turn no game can reach."""
    coins = scenario.get("coins")
    if not is_whole_number(coins) or coins < 0:
        raise AssessorError(f"coins: a whole number >= 0 is required, not {coins!r}")
    assessed = _card_list(scenario, "assessed")
    draws = _card_list(scenario, "draws")
    if not draws:
        raise AssessorError("draws: at least one card is required")
    for i, card in enumerate(assessed):
        if i + 1 not in card_values(catalog, card):
            raise AssessorError(f"assessed[{i}]: {card!r} cannot be the tax of {i + 1}")
        if max(card_values(catalog, card)) == last_value(catalog):
            raise AssessorError(f"assessed[{i}]: the last value is assessed: the game is over")
    for card, copies in ASSESSOR_DECK.items():
        if (assessed + draws).count(card) > copies:
            raise AssessorError(f"draws: the assessor's deck has {copies} {card!r}, not more")
    sought = len(assessed) + 1
    if len(draws) == 1 and classify(catalog, draws[0], sought).kind == "miss":
        raise AssessorError("draws: after a miss the assessor draws a second card; none is left")
    # The deck never runs out (checked just above), and where a tax reshuffles, the order
    # changes nothing in the outcome: the dealer keeps the order given.
    events = assessor_turn(catalog, coins, sought, tuple(draws), (), lambda cards: cards)
    taxes = [e for e in events if isinstance(e, AssessorCoinsTransferred)]
    drawn = [e for e in events if isinstance(e, AssessorCardDrawn)]
    lost = any(isinstance(e, CoopGameEnded) for e in events)
    final_round = any(isinstance(e, FinalRoundBegan) for e in events)
    return {
        "coins": coins - sum(tax.amount for tax in taxes),
        "taxes": [  # a tax's amount is its value: the value sought, or a supplemental's lowest
            {"card": tax.card, "value": tax.amount, "amount": tax.amount, "kind": tax.kind}
            for tax in taxes
        ],
        "assessed": assessed + [draw.card for draw in drawn if draw.result == "tax"],
        "discarded": [draw.card for draw in drawn if draw.result in ("supplemental", "miss")],
        "reshuffled": any(isinstance(e, AssessorDeckShuffled) for e in events),
        "result": "lost" if lost else "final_round" if final_round else "continue",
    }


def _card_list(scenario: Mapping[str, Any], key: str) -> list[str]:
    if key not in scenario:
        raise AssessorError(f"{key}: missing")
    cards = scenario[key]
    if not isinstance(cards, list):
        raise AssessorError(f"{key}: a list of card ids is required")
    for i, card in enumerate(cards):
        if not isinstance(card, str) or card not in ASSESSOR_DECK:
            raise AssessorError(f"{key}[{i}]: {card!r} is not an assessor card")
    return list(cards)
