"""The Tax Assessor turn form of SCENARIOS.md, played by the co-op game's own assessor turn
(`coop.assessor_turn`), so a scenario and a served game cannot disagree.

It also holds how both scenario forms quote input in a refusal (`show`; `one_line`, from
companion/rules/errors.py): the table form (scenario.py) imports this module, so they live
here rather than there.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from companion.rules.coop.assessor import ASSESSOR_DECK, card_values, classify, last_value
from companion.rules.coop.engine import assessor_turn
from companion.rules.coop.facts import (
    AssessorCardDrawn,
    AssessorCoinsTransferred,
    AssessorDeckShuffled,
    CoopGameEnded,
    FinalRoundBegan,
)
from companion.rules.errors import RuleError, is_whole_number, one_line
from companion.rules.machi_koro.catalog import Catalog

SHOWN = 40  # the longest value a refusal quotes


def show(value: object) -> str:
    """A value as JSON for a one-line refusal, cut short. It never fails: json.loads reads nesting
    deeper than json.dumps writes back, and numbers longer than Python converts to text."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except RecursionError:
        text = "a value nested too deep to show"
    except ValueError:  # an int beyond sys.get_int_max_str_digits(), made by arithmetic
        text = "a number too long to show"
    except TypeError:  # not JSON: a caller in Python
        text = repr(value)
    text = one_line(text)
    return text if len(text) <= SHOWN else text[:SHOWN - 3] + "..."


class AssessorError(RuleError):
    code = "scenario/invalid"

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))


def resolve_assessor_scenario(scenario: Mapping[str, Any], catalog: Catalog) -> dict[str, Any]:
    """The outcome of one assessor turn whose deck starts with `draws`; AssessorError naming
    the field for a turn no game can reach."""
    coins = scenario.get("coins")
    if not is_whole_number(coins) or coins < 0:
        raise AssessorError(f"coins: a whole number >= 0 is required, not {show(coins)}")
    if coins > catalog.bank_coins:  # the assessor's coins come from the box, like everyone's
        raise AssessorError(f"coins: the box has {catalog.bank_coins} coins, not {show(coins)}")
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
    facts = assessor_turn(catalog, coins, sought, tuple(draws), (), lambda cards: cards)
    taxes = [e for e in facts if isinstance(e, AssessorCoinsTransferred)]
    drawn = [e for e in facts if isinstance(e, AssessorCardDrawn)]
    lost = any(isinstance(e, CoopGameEnded) for e in facts)
    final_round = any(isinstance(e, FinalRoundBegan) for e in facts)
    return {
        "coins": coins - sum(tax.amount for tax in taxes),
        "taxes": [  # a tax's amount is its value: the value sought, or a supplemental's lowest
            {"card": tax.card, "value": tax.amount, "amount": tax.amount, "kind": tax.kind}
            for tax in taxes
        ],
        "assessed": assessed + [draw.card for draw in drawn if draw.result == "tax"],
        "discarded": [draw.card for draw in drawn if draw.result in ("supplemental", "miss")],
        "reshuffled": any(isinstance(e, AssessorDeckShuffled) for e in facts),
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
            raise AssessorError(f"{key}[{i}]: {show(card)} is not an assessor card")
    return list(cards)
