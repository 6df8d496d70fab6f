"""The organizer's corrections (engine.adjust): a seat's coins with a reason, refused with a
code and nothing changed when the seat, the amount or the reason is wrong."""

from __future__ import annotations

import pytest
from builders import CATALOG

from companion.rules.errors import RuleError
from companion.rules.machi_koro.engine import REASON_LIMIT, adjust
from companion.rules.machi_koro.evolve import evolve_all
from companion.rules.machi_koro.facts import CoinsAdjusted
from companion.rules.machi_koro.state import new_table

TABLE = new_table(CATALOG, ("Ann", "Ben"))


def test_adjustment_moves_coins_between_the_bank_and_a_seat():
    events = adjust(TABLE, 1, 4, "  found coins under the board ")
    assert events == [CoinsAdjusted(1, 4, "found coins under the board")]
    after = evolve_all(TABLE, events)
    assert after.players[1].coins == 7 and after.total_coins() == TABLE.total_coins()


def test_adjustment_may_take_every_coin_the_table_has():
    total = TABLE.total_coins()
    assert total == CATALOG.bank_coins
    after = evolve_all(TABLE, adjust(TABLE, 0, total - 3, "every coin in the box"))
    assert after.players[0].coins == total and after.total_coins() == total


@pytest.mark.parametrize(("seat", "amount", "reason", "message"), [
    (2, 1, "x", "there is no seat 2"),
    (0, 0, "x", "other than 0"),
    (0, 1.5, "x", "whole number"),
    (0, True, "x", "whole number"),
    (0, -4, "x", "Ann has 3 coins"),
    (0, 10**21, "typo", "at most the table's 210 coins, not 1000000000000000000000"),
    (0, -211, "typo", "at most the table's 210 coins"),
    (0, 2, "   ", "needs a reason"),
    (0, 2, "x" * (REASON_LIMIT + 1), f"at most {REASON_LIMIT} characters"),
])
def test_a_wrong_adjustment_is_refused_and_changes_nothing(seat, amount, reason, message):
    before = repr(TABLE)
    with pytest.raises(RuleError, match=message) as refused:
        adjust(TABLE, seat, amount, reason)
    assert refused.value.code in ("rule/invalid_choice", "rule/cannot_afford")
    assert repr(TABLE) == before
