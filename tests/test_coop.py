"""The co-op Tax Assessor game (RULES.md 16-19) played through `coop.decide`, with fixed deck
orders; refusals assert the code and an unchanged table."""

from collections import Counter

import pytest
from builders import CATALOG
from coop_builders import Recorder, cards, coop, play

from companion.rules.coop import engine as rules
from companion.rules.coop.assessor import ASSESSOR_DECK
from companion.rules.coop.evolve import evolve_all
from companion.rules.coop.facts import (
    AssessorCardDrawn,
    AssessorCoinsTransferred,
    CoopGameEnded,
    GiveAssessor,
)
from companion.rules.coop.state import (
    ASSESSOR,
    EndReason,
    Outcome,
    assessor_cards,
    market_cards,
    new_coop_table,
)
from companion.rules.errors import RuleError
from companion.rules.machi_koro.facts import GameWon, TurnEnded
from companion.rules.machi_koro.moves import Build, EndTurn, Roll
from companion.rules.machi_koro.state import BANK, Phase, new_table
from companion.rules.ruleset import Story

ROW = "ranch mine forest cafe"
LANDMARKS = " ".join(f"+{lm}" for lm in CATALOG.landmarks)
ALL_BUT_TOWER = " ".join(f"+{lm}" for lm in CATALOG.landmarks if lm != "radio_tower")
UP_TO_TEN = "wheat_field ranch bakery convenience_store forest stadium cheese_factory " \
    "furniture_factory mine apple_orchard"


def refused(state, seat, move, code):
    before = repr(state)
    with pytest.raises(RuleError) as caught:
        rules.decide(state, seat, move, CATALOG, Recorder())
    assert caught.value.code == code, caught.value
    assert repr(state) == before
    return caught.value


def drawn(events):
    return [(e.card, e.result, e.amount) for e in events if isinstance(e, AssessorCardDrawn)]


def end_second_turn(state, shuffle=None):
    """Seat 1 ends its turn in the build phase: the assessor plays."""
    return play(state, 1, EndTurn(), shuffle or Recorder())


# ---------------------------------------------------------------- RULES.md 16: set-up


def test_rule16_deal_stakes_13_assessor_coins_from_the_bank_and_shows_four_cards():
    start = new_coop_table(CATALOG, ("A", "B"))
    events = rules.deal(start, CATALOG, lambda c: c)
    after = evolve_all(start, events)
    assert after.assessor_coins == 13 and after.table.bank == start.table.bank - 13
    assert after.total_coins() == start.total_coins() == CATALOG.bank_coins
    assert after.assessor_deck == assessor_cards() and len(after.assessor_deck) == 17
    market = market_cards(CATALOG)
    assert after.market_row == tuple(reversed(market[:4])), "each new card comes in on the left"
    assert after.market_deck == market[4:]
    assert dict(after.table.supply) == dict(Counter(after.market_row)), "only the row can be bought"
    assert (after.table.active, after.table.phase) == (0, Phase.ROLL)
    with pytest.raises(RuleError):
        rules.deal(after, CATALOG, lambda c: c)


@pytest.mark.parametrize("stake", [8, 13, 20])
def test_rule16_organizer_sets_the_assessors_coins(stake):
    start = new_coop_table(CATALOG, ("A", "B"), stake=stake)
    assert evolve_all(start, rules.deal(start, CATALOG, lambda c: c)).assessor_coins == stake


@pytest.mark.parametrize("stake", [7, 21, True, "13"])
def test_rule16_assessor_coins_outside_8_to_20_are_refused(stake):
    with pytest.raises(RuleError) as caught:
        new_coop_table(CATALOG, ("A", "B"), stake=stake)
    assert caught.value.code == "rule/assessor_coins"


def test_rule16_the_coop_game_seats_two():
    with pytest.raises(RuleError):
        new_coop_table(CATALOG, ("A", "B", "C"))


def test_rule16_assessor_deck_is_the_17_named_cards():
    assert Counter(assessor_cards()) == Counter(ASSESSOR_DECK) and len(assessor_cards()) == 17


def test_rule16_market_is_the_rest_plus_the_unused_starting_wheat_fields_and_bakeries():
    market = Counter(market_cards(CATALOG))
    assert market["wheat_field"] == 6 - 2 + 2 and market["bakery"] == 6 - 2 + 2
    assert market["ranch"] == 5 and market["stadium"] == 3 and market["apple_orchard"] == 5
    for card in CATALOG.establishments.values():  # nothing made or lost: box = all piles
        starting = card.starting * 2
        assert market[card.id] + ASSESSOR_DECK.get(card.id, 0) + starting == CATALOG.in_box(card.id)
    assert sum(market.values()) == 71


def test_rule16_shuffles_are_checked():
    start = new_coop_table(CATALOG, ("A", "B"))
    with pytest.raises(RuleError) as caught:
        rules.deal(start, CATALOG, lambda c: c[1:])
    assert caught.value.code == "rule/bad_deck_order"
    with pytest.raises(RuleError):
        rules.deal(start, CATALOG, None)


# ---------------------------------------------------------------- RULES.md 16: the market row


def test_rule16_a_bought_card_is_replaced_and_the_row_shifts_right():
    state = coop("A 6 | B 0", row=ROW, deck="bakery cafe", phase=Phase.BUILD)
    after, events = play(state, 0, Build("mine"))
    assert after.market_row == cards("bakery ranch forest cafe")
    assert after.market_deck == cards("cafe") and after.table.players[0].owns("mine") == 1
    assert after.table.players[0].coins == 0 and after.bought
    after, _ = play(after, 0, EndTurn())
    assert after.market_row == cards("bakery ranch forest cafe"), "a buying turn discards none"
    assert after.market_discards == ()


def test_rule16_a_turn_without_a_buy_discards_the_rightmost_card_and_refills():
    state = coop("A 5 | B 0", row=ROW, deck="bakery cafe", phase=Phase.BUILD)
    after, _ = play(state, 0, EndTurn())
    assert after.market_row == cards("bakery ranch mine forest")
    assert after.market_discards == ("cafe",) and after.market_deck == ("cafe",)
    assert dict(after.table.supply) == dict(Counter(after.market_row))


def test_rule16_a_landmark_is_not_an_establishment_the_row_still_loses_a_card():
    state = coop("A 4 | B 0", row=ROW, deck="bakery", phase=Phase.BUILD)
    after, _ = play(state, 0, Build("train_station"))
    after, _ = play(after, 0, EndTurn())
    assert after.market_row == cards("bakery ranch mine forest")


def test_rule16_the_row_shrinks_once_the_market_deck_is_out():
    state = coop("A 5 | B 3", row=ROW, deck="", phase=Phase.BUILD)
    after, _ = play(state, 0, EndTurn())
    assert after.market_row == cards("ranch mine forest")
    after, _ = play(after, 1, Roll((5,)))
    after, _ = play(after, 1, Build("forest"), Recorder())
    assert after.market_row == cards("ranch mine")


def test_rule16_two_copies_in_the_row_the_rightmost_is_bought():
    state = coop("A 5 | B 0", row="cafe mine cafe ranch", deck="forest", phase=Phase.BUILD)
    after, _ = play(state, 0, Build("cafe"))
    assert after.market_row == cards("forest cafe mine ranch")


def test_rule16_only_the_row_can_be_bought():
    state = coop("A 9 | B 0", row=ROW, deck="bakery", phase=Phase.BUILD)
    error = refused(state, 0, Build("apple_orchard"), "rule/sold_out")
    assert "market row" in error.message
    refused(state, 1, Build("mine"), "rule/not_your_turn")


def test_rule16_the_assessor_plays_after_every_second_players_turn():
    state = coop("A 0 | B 0", row=ROW, deck="bakery cafe apple_orchard", assessor="mine stadium",
                 phase=Phase.BUILD)
    after, events = play(state, 0, EndTurn())
    assert drawn(events) == [] and after.table.active == 1
    after, _ = play(after, 1, Roll((5,)))
    after, events = end_second_turn(after)
    assert drawn(events) == [("mine", "miss", 0), ("stadium", "miss", 0)]
    turn_end = next(i for i, e in enumerate(events) if isinstance(e, TurnEnded))
    assert turn_end < events.index(next(e for e in events if isinstance(e, AssessorCardDrawn)))
    assert after.table.active == 0 and after.assessor_discards == cards("mine stadium")


def test_rule16_an_extra_turn_comes_before_the_assessor():
    state = coop("A 0 | B 0", row=ROW, deck="bakery cafe", assessor="mine stadium",
                 active=1, phase=Phase.BUILD, extra_turn=True)
    after, events = play(state, 1, EndTurn())
    assert drawn(events) == [] and (after.table.active, after.table.bonus_turn) == (1, True)
    after, _ = play(after, 1, Roll((5,)))
    after, events = end_second_turn(after)
    assert len(drawn(events)) == 2


# ---------------------------------------------------------------- RULES.md 17


def test_rule17_a_new_coop_table_is_one_where_the_bank_pays():
    """The builder `coop` sets this itself: check the table the hall starts does too."""
    start = new_coop_table(CATALOG, ("A", "B"))
    assert start.table.bank_pays_players and start.table.ruleset == "machi-koro-coop"
    assert not new_table(CATALOG, ("A", "B")).bank_pays_players


def test_rule17_the_bank_pays_a_cafe():
    state = coop("A 0 | B 0 cafe", row=ROW, deck="bakery")
    after, events = play(state, 0, Roll((3,)))
    paid = [(e.source, e.target, e.amount, e.card, e.forgiven) for e in events
            if hasattr(e, "forgiven")]
    assert paid == [(BANK, 1, 1, "cafe", 0)]
    assert [p.coins for p in after.table.players] == [0, 1]


def test_rule17_the_bank_pays_a_stadium_once_per_other_player():
    state = coop("A 0 stadium | B 0", row=ROW, deck="bakery")
    after, _ = play(state, 0, Roll((6,)))
    assert [p.coins for p in after.table.players] == [2, 0]


@pytest.mark.parametrize("phase", [Phase.ROLL, Phase.BUILD])
def test_rule17_a_player_gives_coins_to_the_assessor_on_their_own_turn(phase):
    state = coop("A 5 | B 2", row=ROW, deck="bakery", coins=3, phase=phase)
    after, events = play(state, 0, GiveAssessor(4))
    assert events == [AssessorCoinsTransferred(0, ASSESSOR, 4, "gift", "gift")]
    assert (after.table.players[0].coins, after.assessor_coins, after.table.phase) == (1, 7, phase)


@pytest.mark.parametrize(("seat", "amount", "code"), [
    (1, 1, "rule/not_your_turn"),
    (0, 6, "rule/cannot_afford"),
    (0, 0, "rule/invalid_choice"),
    (0, -2, "rule/invalid_choice"),
    (0, True, "move/invalid"),
    (7, 1, "rule/not_your_turn"),
])
def test_rule17_gifts_off_turn_or_beyond_the_players_coins_are_refused(seat, amount, code):
    refused(coop("A 5 | B 2", row=ROW), seat, GiveAssessor(amount), code)


# ---------------------------------------------------------------- RULES.md 18


@pytest.mark.parametrize("sought", [2, 3])
def test_rule18_the_bakery_counts_as_two_or_three(sought):
    assessed = " ".join(cards("wheat_field ranch")[: sought - 1])
    state = coop("A 0 | B 0", row=ROW, assessor="bakery mine", assessed=assessed,
                 active=1, phase=Phase.BUILD)
    after, events = end_second_turn(state)
    assert drawn(events) == [("bakery", "tax", sought)]
    assert after.assessed[-1] == "bakery" and after.assessor_coins == 13 - sought
    assert after.table.bank == state.table.bank + sought


def test_rule18_a_first_card_match_pays_the_tax_and_ends_the_turn():
    state = coop("A 0 | B 0", row=ROW, assessor="wheat_field mine stadium", discards="cafe",
                 active=1, phase=Phase.BUILD)
    after, events = end_second_turn(state)
    assert drawn(events) == [("wheat_field", "tax", 1)], "no second card after a tax"
    assert [e for e in events if isinstance(e, AssessorCoinsTransferred)] == [
        AssessorCoinsTransferred(ASSESSOR, BANK, 1, "wheat_field", "tax")]
    assert (after.assessed, after.assessor_coins, after.sought) == (("wheat_field",), 12, 2)


def test_rule18_a_reshuffle_keeps_exactly_the_unassessed_cards():
    assessed, discards = cards("wheat_field ranch"), cards("mine stadium cafe")
    unassessed = Counter(assessor_cards()) - Counter(assessed)
    rest = unassessed - Counter(discards) - Counter(["bakery"])
    state = coop("A 0 | B 0", row=ROW, assessor=" ".join(["bakery", *rest.elements()]),
                 discards=" ".join(discards), assessed=" ".join(assessed),
                 active=1, phase=Phase.BUILD)
    shuffle = Recorder()
    after, events = end_second_turn(state, shuffle)
    assert drawn(events) == [("bakery", "tax", 3)]
    assert len(shuffle.asked) == 1
    assert Counter(shuffle.asked[0]) == unassessed - Counter(["bakery"])
    assert after.assessor_deck == tuple(reversed(shuffle.asked[0]))
    assert after.assessor_discards == ()
    assert Counter(after.assessor_deck) + Counter(after.assessed) == Counter(assessor_cards())


def test_rule18_a_card_below_the_value_sought_is_a_supplemental_tax_of_its_lowest_value():
    state = coop("A 0 | B 0", row=ROW, assessor="bakery wheat_field", active=1,
                 assessed="wheat_field ranch cafe convenience_store", phase=Phase.BUILD)
    shuffle = Recorder()
    after, events = end_second_turn(state, shuffle)
    assert drawn(events) == [("bakery", "supplemental", 2)], "the turn ends after it"
    assert after.assessor_coins == 11 and after.assessor_discards == ("bakery",)
    assert after.assessed == state.assessed and shuffle.asked == [], "nothing is reshuffled"


def test_rule18_a_miss_then_a_supplemental_tax():
    state = coop("A 0 | B 0", row=ROW, assessor="mine ranch", assessed="wheat_field ranch bakery",
                 active=1, phase=Phase.BUILD)
    after, events = end_second_turn(state)
    assert drawn(events) == [("mine", "miss", 0), ("ranch", "supplemental", 2)]
    assert after.assessor_discards == cards("mine ranch") and after.assessor_coins == 11


def test_rule18_two_misses_end_the_turn():
    state = coop("A 0 | B 0", row=ROW, assessor="stadium furniture_factory wheat_field",
                 active=1, phase=Phase.BUILD)
    shuffle = Recorder()
    after, events = end_second_turn(state, shuffle)
    assert drawn(events) == [("stadium", "miss", 0), ("furniture_factory", "miss", 0)]
    assert after.assessor_deck == ("wheat_field",) and after.assessor_coins == 13
    assert shuffle.asked == []


def test_rule18_an_empty_deck_is_made_from_the_discards():
    state = coop("A 0 | B 0", row=ROW, assessor="mine", discards="stadium wheat_field",
                 active=1, phase=Phase.BUILD)
    shuffle = Recorder(order=lambda cards: tuple(sorted(cards, reverse=True)))
    after, events = end_second_turn(state, shuffle)
    assert shuffle.asked[0] == cards("stadium wheat_field mine"), "the first miss included"
    assert drawn(events) == [("mine", "miss", 0), ("wheat_field", "tax", 1)]
    assert shuffle.asked[1] == cards("stadium mine"), "then the tax's reshuffle"
    assert after.assessed == ("wheat_field",) and after.assessor_deck == cards("stadium mine")


# ---------------------------------------------------------------- RULES.md 19


def test_rule19_the_players_lose_at_once_when_the_assessor_cannot_pay():
    state = coop("A 0 | B 0", row=ROW, coins=1, assessor="ranch mine", assessed="wheat_field",
                 active=1, phase=Phase.BUILD)
    after, events = end_second_turn(state)
    assert drawn(events) == [("ranch", "unpaid", 2)]
    assert events[-1] == CoopGameEnded(Outcome.LOST, EndReason.TAX_UNPAID)
    assert after.assessor_coins == 1 and after.table.bank == state.table.bank
    assert after.table.phase is Phase.FINISHED
    assert after.assessor_deck == cards("ranch mine") and after.assessed == ("wheat_field",)
    refused(after, 0, GiveAssessor(0), "rule/game_over")
    refused(after, 0, Roll((3,)), "rule/game_over")
    assert rules.default_move(after) is None and rules.legal_moves(after, 0, CATALOG) == []


def test_rule19_an_unpaid_supplemental_tax_also_loses():
    state = coop("A 0 | B 0", row=ROW, coins=0, assessor="wheat_field", assessed="wheat_field",
                 active=1, phase=Phase.BUILD)
    after, _ = end_second_turn(state)
    assert (after.outcome, after.reason) == (Outcome.LOST, EndReason.TAX_UNPAID)


def test_rule19_a_gift_on_the_second_players_turn_pays_the_tax():
    state = coop("A 0 | B 5", row=ROW, coins=1, assessor="ranch", assessed="wheat_field",
                 active=1, phase=Phase.BUILD)
    after, _ = play(state, 1, GiveAssessor(1))
    after, events = end_second_turn(after)
    assert drawn(events) == [("ranch", "tax", 2)] and after.assessor_coins == 0
    assert after.outcome is None


def test_rule19_the_last_value_gives_each_player_one_more_turn_then_the_game_is_lost():
    state = coop("A 0 | B 0", row=ROW, deck="bakery cafe", assessed=UP_TO_TEN,
                 assessor="fruit_and_vegetable_market mine", active=1, phase=Phase.BUILD)
    after, events = end_second_turn(state)
    assert drawn(events) == [("fruit_and_vegetable_market", "tax", 11)] and after.final_round
    assert after.outcome is None and after.table.active == 0
    after, _ = play(after, 0, Roll((5,)))
    after, _ = play(after, 0, EndTurn())
    assert after.outcome is None, "the second player still has a turn"
    after, _ = play(after, 1, Roll((5,)))
    after, events = play(after, 1, EndTurn())
    assert drawn(events) == [], "the assessor does not play again"
    assert (after.outcome, after.reason) == (Outcome.LOST, EndReason.FINAL_ROUND_OVER)


def test_rule19_they_win_together_in_the_final_round():
    state = coop(f"A 0 {LANDMARKS} | B 30 {ALL_BUT_TOWER}", row=ROW, final_round=True,
                 active=1, phase=Phase.BUILD)
    after, events = play(state, 1, Build("radio_tower"))
    assert events[-1] == CoopGameEnded(Outcome.WON, EndReason.CITIES_COMPLETE)
    assert after.table.phase is Phase.FINISHED and after.outcome is Outcome.WON


def test_rule19_one_complete_city_does_not_win_alone():
    state = coop(f"A 30 {ALL_BUT_TOWER} | B 0", row=ROW, deck="bakery", phase=Phase.BUILD)
    after, events = play(state, 0, Build("radio_tower"))
    assert not any(isinstance(e, GameWon | CoopGameEnded) for e in events)
    assert after.table.phase is Phase.BUILD and after.outcome is None and after.table.winner is None
    after, _ = play(after, 0, EndTurn())
    assert after.table.active == 1


def test_rule19_the_win_is_at_once_even_mid_round():
    state = coop(f"A 30 {ALL_BUT_TOWER} | B 0 {LANDMARKS}", row=ROW, phase=Phase.BUILD)
    after, _ = play(state, 0, Build("radio_tower"))
    assert after.outcome is Outcome.WON
    refused(after, 0, EndTurn(), "rule/game_over")


# ---------------------------------------------------------------- options, defaults


def test_coop_legal_moves_are_the_rows_builds_and_gifts():
    state = coop("A 3 | B 2", row=ROW, phase=Phase.BUILD)
    moves = rules.legal_moves(state, 0, CATALOG)
    builds = {m.card for m in moves if isinstance(m, Build)}
    assert builds == {"ranch", "cafe", "forest"}, "mine costs 6; apple orchards are not shown"
    assert [m.amount for m in moves if isinstance(m, GiveAssessor)] == [1, 2, 3]
    assert all(not isinstance(m, GiveAssessor) for m in rules.legal_moves(state, 1, CATALOG))
    for move in moves:
        rules.decide(state, 0, move, CATALOG, Recorder())


def test_coop_refuses_moves_before_the_deal():
    refused(new_coop_table(CATALOG, ("A", "B")), 0, Roll((3,)), "rule/wrong_phase")


# ---------------------------------------------------------------- wire and journal forms


def test_coop_give_assessor_wire_form_round_trips():
    from companion.rules.coop.codec import parse_move, wire_move

    assert parse_move({"kind": "give_assessor", "amount": 3}) == GiveAssessor(3)
    assert wire_move(GiveAssessor(3)) == {"kind": "give_assessor", "amount": 3}
    assert parse_move({"kind": "build", "card": "mine"}) == Build("mine")
    for bad in ({"kind": "give_assessor"}, {"kind": "give_assessor", "amount": "3"},
                {"kind": "give_assessor", "amount": 1.5}):
        with pytest.raises(RuleError) as caught:
            parse_move(bad)
        assert caught.value.code == "move/invalid"


def test_coop_ruleset_is_registered_by_name():
    from companion.rules.registry import REGISTRY, ruleset

    coop_rules = ruleset("machi-koro-coop")
    assert set(REGISTRY) >= {"machi-koro", "machi-koro-coop"}
    seats = coop_rules.seats(CATALOG, {})
    assert (seats.least, seats.most) == (2, 2)
    assert coop_rules.check_options({}) == {"assessor_coins": 13}
    assert coop_rules.check_options({"assessor_coins": 9}) == {"assessor_coins": 9}
    for bad in ({"assessor_coins": 30}, {"dice": 3}):
        with pytest.raises(RuleError):
            coop_rules.check_options(bad)
    with pytest.raises(RuleError):
        ruleset("monopoly")
    start = coop_rules.start(CATALOG, ("A", "B"), {"assessor_coins": 9})
    dealt = coop_rules.evolve(start, coop_rules.deal(start, CATALOG, lambda c: c))
    assert dealt.assessor_coins == 9
    assert coop_rules.seat_view(Story(("A", "B"), dealt, running=True), 0, CATALOG)["choices"]
