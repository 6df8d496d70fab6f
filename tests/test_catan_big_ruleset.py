"""The big Catan event behind the one door (RULES.md 20-24, DESIGN.md of issue 12): a board's
set-up, its phone and staff moves with their refusals, the journal, the views and the event's
hooks, each test named for the ruling it checks and played through the Ruleset's methods as the
hall calls them."""

from __future__ import annotations

import json

import pytest

from companion.rules.catan_big import engine, moves
from companion.rules.catan_big.claims import CAPS
from companion.rules.catan_big.ruleset import CATAN_BIG, CatanBig
from companion.rules.catan_big.state import BoardState
from companion.rules.errors import BadMove, GameOver, NotYourTurn, RuleError
from companion.rules.paper import Name, SeatName
from companion.rules.ruleset import (
    Dealt,
    HallRolled,
    HallTurn,
    SeatRolls,
    Seats,
    Story,
    TimedChoices,
    Turns,
)

RULES = CATAN_BIG
SETUP = RULES.table_setup({})  # a board's default set-up: letter A, red and blue
NAMES = ("Avi", "Dana")
SUN, MOON = 0, 1
HAND = {"grain": 0, "ore": 0, "brick": 0, "wood": 0, "wool": 0}


def breakdown(settlements=5, cities=8, foreign=2, vp=0, army=False, road=False):
    """25 points by default: 5 settlements, 8 cities, 2 foreign start bonuses."""
    return {"settlements": settlements, "cities": cities, "foreign_start_settlements": foreign,
            "vp_cards": vp, "largest_army": army, "longest_road": road}


B25 = breakdown()
B24 = breakdown(settlements=4)
B27 = breakdown(army=True)


def turn(number, dice=(2, 3), follow_up=()):
    return HallTurn(number, dice, tuple(follow_up))


def board(**options) -> BoardState:
    checked = RULES.check_options(options)
    return RULES.start(RULES.table_setup(checked), NAMES, checked)


def move(state, seat, wire, hall=None):
    """A phone's move, decided and evolved as the hall does it."""
    facts = RULES.decide(state, seat, RULES.parse_move(wire, (), hall), SETUP, None)
    return RULES.evolve(state, facts)


def staff(state, wire, hall=None):
    return RULES.evolve(state, RULES.staff_move(state, wire, hall))


def refused(state, seat, wire, hall=None) -> RuleError:
    """The refusal of a phone's move; the state is a value, so nothing changed."""
    before = state
    with pytest.raises(RuleError) as caught:
        RULES.decide(state, seat, RULES.parse_move(wire, (), hall), SETUP, None)
    assert state == before
    return caught.value


def staff_refused(state, wire, hall=None) -> RuleError:
    with pytest.raises(RuleError) as caught:
        RULES.staff_move(state, wire, hall)
    return caught.value


def claim(state, seat=SUN, number=1, points=B25):
    return move(state, seat, {"kind": "claim", "breakdown": points}, turn(number))


def verify(state, seat=SUN, number=1, **hand):
    return staff(state, {"kind": "verify", "seat": seat, "resources": {**HAND, **hand}},
                 turn(number))


def story(state, names=NAMES, registered=(1, 2), neighbours=("", ""), running=True):
    return Story(names=names, state=state, running=running, registered=registered,
                 neighbours=neighbours)


def end(state, number=1):
    return staff(state, {"kind": "end"}, turn(number))


# ---------------------------------------------------------------- 20: the boards


def test_ruling_20_a_board_seats_sun_and_moon():
    assert RULES.seats(SETUP, {}) == Seats(2, 2, roles=("sun", "moon"))
    assert RULES.name == "catan-big" and RULES.title == "The big Catan event"
    assert isinstance(RULES, CatanBig)


def test_ruling_20_boards_stand_in_a_chain():
    assert RULES.chained is True
    view = RULES.common_view(story(board(), neighbours=("Table 1", "Table 3")))
    assert view["neighbours"] == ["Table 1", "Table 3"]


def test_ruling_20_a_board_at_an_end_of_the_chain_has_one_neighbour():
    assert RULES.common_view(story(board(), neighbours=("", "Table 2")))["neighbours"] == ["", "Table 2"]
    assert RULES.common_view(story(board(), neighbours=()))["neighbours"] == ["", ""]


def test_ruling_20_options_default_to_board_a_red_and_blue():
    assert RULES.check_options({}) == {"letter": "A", "sun_colour": "red", "moon_colour": "blue"}
    assert [spec.name for spec in RULES.option_specs()] == ["letter", "sun_colour", "moon_colour"]
    state = board()
    assert (state.letter, state.colours) == ("A", ("red", "blue"))


@pytest.mark.parametrize("letter", ["A", "B", "C"])
def test_ruling_20_three_printed_boards(letter):
    assert board(letter=letter).letter == letter


@pytest.mark.parametrize("options, code", [
    ({"letter": "D"}, "rule/bad_option_value"),
    ({"letter": "a"}, "rule/bad_option_value"),
    ({"sun_colour": "purple"}, "rule/bad_option_value"),
    ({"moon_colour": "red"}, "rule/bad_option_value"),
    ({"sun_colour": "blue"}, "rule/bad_option_value"),
    ({"colour": "red"}, "rule/bad_options"),
])
def test_ruling_20_bad_options_are_refused_naming_the_option(options, code):
    with pytest.raises(RuleError) as caught:
        RULES.check_options(options)
    assert caught.value.code == code
    assert next(iter(options)) in caught.value.message


def test_ruling_20_the_two_colours_of_a_board_differ():
    assert RULES.check_options({"sun_colour": "white", "moon_colour": "orange"})["moon_colour"] == "orange"


def test_ruling_20_the_app_tracks_no_resources_nor_coins():
    state = board()
    assert not isinstance(RULES, Dealt)  # nothing is dealt: the hall deals no board
    with pytest.raises(RuleError) as caught:
        RULES.adjust(state, 0, 3, "fix")
    assert caught.value.code == "catan/no_coins"


def test_ruling_20_a_roll_changes_no_board():
    """No capability of a board's own roll: the hall's roll moves no board (not `HallRolled`),
    a board has no turn of its own (the event's), no timed choice and no dice of a seat's."""
    for capability in (HallRolled, Turns, TimedChoices, SeatRolls):
        assert not isinstance(RULES, capability), capability.__name__


# ---------------------------------------------------------------- 21: the turns


@pytest.mark.parametrize("number, team", [(1, "sun"), (2, "moon"), (3, "sun"), (16, "moon"), (99, "sun")])
def test_ruling_21_turn_1_is_sun_then_the_teams_alternate(number, team):
    assert RULES.turn_view(turn(number))["team"] == team


def test_ruling_21_turn_view_is_the_announcement_without_seconds():
    assert RULES.turn_view(turn(4, (5, 6))) == {"team": "moon", "discard": False, "robber": None}


def test_ruling_21_claim_on_the_teams_turn_is_pending_with_its_turn():
    state = claim(board(), SUN, 3)
    assert state.seats[SUN].claim.status == "pending"
    assert state.seats[SUN].claim.turn == 3
    state = claim(board(), MOON, 4)
    assert state.seats[MOON].claim.turn == 4


@pytest.mark.parametrize("seat, number", [(SUN, 2), (MOON, 1), (SUN, 16), (MOON, 17)])
def test_ruling_21_claim_off_turn_refused(seat, number):
    error = refused(board(), seat, {"kind": "claim", "breakdown": B25}, turn(number))
    assert error.code == "rule/not_your_turn"
    assert isinstance(error, NotYourTurn)
    assert f"turn {number}" in error.message


def test_ruling_21_claim_before_the_first_roll_refused():
    error = refused(board(), SUN, {"kind": "claim", "breakdown": B25}, None)
    assert error.code == "catan/not_started"


def test_ruling_21_tracking_is_open_on_and_off_turn_and_before_the_first_roll():
    state = move(board(), MOON, {"kind": "track", "breakdown": B24}, None)
    state = move(state, SUN, {"kind": "track", "breakdown": B27}, turn(2))
    assert state.seats[MOON].tracker.points == 24
    assert state.seats[SUN].tracker.points == 27


def test_ruling_21_no_follow_up_dice_without_a_seven():
    assert all(RULES.follow_up_dice(n, (a, b)) == 0 for n in (1, 15, 16, 40)
               for a in range(1, 7) for b in range(1, 7) if a + b != 7)


# ---------------------------------------------------------------- 22: the robbers


@pytest.mark.parametrize("number", [1, 8, 15])
def test_ruling_22_seven_in_turns_1_to_15_discard_only_robbers_stay(number):
    assert RULES.follow_up_dice(number, (3, 4)) == 0
    assert RULES.turn_view(turn(number, (3, 4)))["discard"] is True
    assert RULES.turn_view(turn(number, (3, 4)))["robber"] == {"action": "stay"}


@pytest.mark.parametrize("number", [16, 17, 60])
def test_ruling_22_from_turn_16_a_seven_asks_for_the_robbers_roll(number):
    assert RULES.follow_up_dice(number, (6, 1)) == 2


def test_ruling_22_the_rule_switches_between_turn_15_and_16():
    assert [RULES.follow_up_dice(n, (2, 5)) for n in (15, 16)] == [0, 2]


@pytest.mark.parametrize("follow_up, robber", [
    ((4, 5), {"action": "move", "number": 9}),
    ((1, 2), {"action": "move", "number": 3}),
    ((5, 6), {"action": "move", "number": 11}),
    ((1, 1), {"action": "move_one", "number": 2}),
    ((6, 6), {"action": "move_one", "number": 12}),
    ((3, 4), {"action": "desert"}),
])
def test_ruling_22_the_robbers_roll_instruction(follow_up, robber):
    shown = RULES.turn_view(turn(16, (2, 5), follow_up))
    assert shown == {"team": "moon", "discard": True, "robber": robber}


def test_ruling_22_before_the_robbers_roll_no_instruction_yet():
    assert RULES.turn_view(turn(20, (2, 5))) == {"team": "moon", "discard": True, "robber": None}


def test_ruling_22_after_a_seven_the_auto_roll_waits():
    assert RULES.pauses_after(turn(3, (3, 4))) is True
    assert RULES.pauses_after(turn(30, (1, 6), (2, 2))) is True
    assert RULES.pauses_after(turn(3, (3, 3))) is False


# ---------------------------------------------------------------- 23: claims


def test_ruling_23_claim_under_25_refused():
    error = refused(board(), SUN, {"kind": "claim", "breakdown": B24}, turn(1))
    assert error.code == "catan/under_25"
    assert "24 points" in error.message


@pytest.mark.parametrize("kind", ["claim", "track"])
@pytest.mark.parametrize("field, value", [("settlements", 6), ("cities", 11),
                                          ("foreign_start_settlements", 6), ("vp_cards", 6)])
def test_ruling_23_breakdown_over_a_cap_refused_naming_the_field(kind, field, value):
    wire = {"kind": kind, "breakdown": {**B25, field: value}}
    error = refused(board(), SUN, wire, turn(1))
    assert error.code == "catan/over_cap"
    assert error.message.startswith(f"breakdown.{field}: at most {CAPS[field]}")


def test_ruling_23_foreign_bonus_at_most_the_settlements_and_cities():
    wire = {"kind": "claim", "breakdown": breakdown(settlements=1, cities=2, foreign=4, vp=5)}
    assert refused(board(), SUN, wire, turn(1)).code == "catan/over_cap"


@pytest.mark.parametrize("kind", ["claim", "track", "final", "correct"])
def test_ruling_23_at_most_one_bonus_per_foreign_start_area_five_areas(kind):
    """RULES.md 23: only the first settlement in each foreign start area earns +2, and there are
    five foreign areas (the other player's on the board, two on each neighbouring board): at
    most 5 bonuses, and at most the settlements plus cities, wherever a breakdown is entered."""
    state = end(board()) if kind == "final" else board()
    five = breakdown(settlements=5, cities=8, foreign=5)
    six = {**five, "foreign_start_settlements": 6}
    over_built = breakdown(settlements=2, cities=1, foreign=4)
    for wire_breakdown, allowed in ((five, True), (six, False), (over_built, False)):
        wire = {"kind": kind, "breakdown": wire_breakdown}
        if kind == "correct":
            wire.update(seat=SUN, reason="recount")
            if allowed:
                staff(state, wire, turn(1))
            else:
                assert staff_refused(state, wire, turn(1)).code == "catan/over_cap"
        elif allowed:
            move(state, SUN, wire, turn(1))
        else:
            assert refused(state, SUN, wire, turn(1)).code == "catan/over_cap"


@pytest.mark.parametrize("wire, field", [
    ({"kind": "claim"}, "breakdown"),
    ({"kind": "claim", "breakdown": [1]}, "breakdown"),
    ({"kind": "claim", "breakdown": {**B25, "cities": "8"}}, "breakdown.cities"),
    ({"kind": "claim", "breakdown": {**B25, "largest_army": 1}}, "breakdown.largest_army"),
    ({"kind": "track", "breakdown": {k: v for k, v in B25.items() if k != "vp_cards"}},
     "breakdown.vp_cards"),
])
def test_ruling_23_malformed_breakdowns_refused_naming_the_field(wire, field):
    error = refused(board(), SUN, wire, turn(1))
    assert error.code == "catan/bad_claim"
    assert error.message.startswith(f"{field}:")


def test_ruling_23_a_second_claim_while_one_is_pending_refused():
    state = claim(board(), SUN, 1)
    error = refused(state, SUN, {"kind": "claim", "breakdown": B27}, turn(3))
    assert error.code == "catan/claim_pending"


def test_ruling_21_23_no_claim_once_the_turn_is_closing():
    """RULES.md 21: play runs until the time is up; 23: the staff verify claims during the
    turn. A claim once the turn is ending (its time up, or the organizer's roll held by a
    claim) would hold the turn longer: refused, and a track move still taken."""
    closing = HallTurn(1, (2, 3), (), closing=True)
    error = refused(board(), SUN, {"kind": "claim", "breakdown": B25}, closing)
    assert error.code == "catan/turn_closing" and error.message.startswith("claim:")
    tracked = move(board(), SUN, {"kind": "track", "breakdown": B25}, closing)
    assert tracked.seats[SUN].tracker.points == 25


def test_ruling_23_the_other_seat_may_claim_on_its_turn_while_one_is_pending():
    state = claim(claim(board(), SUN, 1), MOON, 2)
    assert [s.claim.status for s in state.seats] == ["pending", "pending"]


def test_ruling_23_staff_verify_a_pending_claim_with_the_cards_in_hand():
    state = verify(claim(board(), SUN, 5), SUN, 5, grain=2, wool=1)
    seat = state.seats[SUN]
    assert (seat.claim.status, seat.claim.resources, seat.claim.verified_turn) == \
        ("verified", (2, 0, 0, 0, 1), 5)


def test_ruling_23_verify_without_a_pending_claim_refused():
    state = board()
    error = staff_refused(state, {"kind": "verify", "seat": 0, "resources": HAND}, turn(1))
    assert error.code == "catan/no_claim"
    state = verify(claim(state))
    assert staff_refused(state, {"kind": "verify", "seat": 0, "resources": HAND},
                         turn(1)).code == "catan/no_claim"


@pytest.mark.parametrize("resources, field", [
    (None, "resources"),
    ({"grain": 1}, "resources.ore"),
    ({**HAND, "gold": 1}, "resources"),
    ({**HAND, "ore": -1}, "resources.ore"),
    ({**HAND, "wool": 1.5}, "resources.wool"),
])
def test_ruling_23_verification_needs_the_cards_in_hand(resources, field):
    state = claim(board())
    wire = {"kind": "verify", "seat": 0}
    if resources is not None:
        wire["resources"] = resources
    error = staff_refused(state, wire, turn(1))
    assert error.code == "catan/bad_claim"
    assert error.message.startswith(f"{field}:")


def test_ruling_23_staff_reject_a_claim_with_a_reason_and_play_goes_on():
    state = staff(claim(board()), {"kind": "reject", "seat": 0, "reason": "4 cities, not 8"},
                  turn(1))
    assert state.seats[SUN].claim.status == "rejected"
    assert state.seats[SUN].claim.reason == "4 cities, not 8"
    assert not RULES.hall_over([state], turn(1))
    state = claim(state, SUN, 3, B27)  # a new claim on the team's next turn
    assert state.seats[SUN].claim.status == "pending"


@pytest.mark.parametrize("reason", [None, "", "   ", "x" * 201, 7])
def test_ruling_23_a_rejection_needs_a_reason_of_1_to_200_characters(reason):
    wire = {"kind": "reject", "seat": 0}
    if reason is not None:
        wire["reason"] = reason
    error = staff_refused(claim(board()), wire, turn(1))
    assert error.code == "move/invalid" and error.message.startswith("reason:")


def test_ruling_23_a_reason_of_200_characters_is_taken():
    state = staff(claim(board()), {"kind": "reject", "seat": 0, "reason": "x" * 200}, turn(1))
    assert state.seats[SUN].claim.status == "rejected"


@pytest.mark.parametrize("seat", [2, -1, "0", True, None])
def test_ruling_23_a_staff_move_names_a_seat_of_the_board(seat):
    wire = {"kind": "reject", "seat": seat, "reason": "no"}
    if seat is None:
        del wire["seat"]
    error = staff_refused(claim(board()), wire, turn(1))
    assert error.code == "move/invalid" and error.message.startswith("seat:")


def test_ruling_23_a_verified_claim_ends_the_hall_rolls():
    state = claim(board())
    assert RULES.hall_over([state, board()], turn(1)) is False
    assert RULES.hall_over([board(), verify(state)], turn(1)) is True
    assert RULES.hall_over([], None) is False


def test_ruling_23_a_board_with_a_verified_claim_takes_no_more_claims():
    state = verify(claim(board(), SUN, 3), SUN, 3)
    assert refused(state, SUN, {"kind": "claim", "breakdown": B27}, turn(3)).code == "rule/game_over"
    assert refused(state, MOON, {"kind": "claim", "breakdown": B27}, turn(4)).code == "rule/game_over"


def test_ruling_23_claims_at_other_boards_of_the_same_turn_still_count():
    verified = verify(claim(board(), SUN, 7), SUN, 7)
    other = claim(board(), SUN, 7, B27)  # the turn has not ended: no roll was asked yet
    view = RULES.event_view({"t1": story(verified), "t2": story(other, ("Noa", "Eli"), (3, 4))},
                            turn(7))
    assert view["over"] is False and view["ending"] is True
    assert [c["name"] for c in view["claims"]] == ["Noa"]
    assert [c["name"] for c in view["verified"]] == ["Avi"]


def test_ruling_23_the_game_ends_at_the_end_of_the_turn_of_a_verified_claim():
    state = end(verify(claim(board(), SUN, 9), SUN, 9), 9)
    assert state.over and state.ended_turn == 9
    for seat, number in ((SUN, 9), (MOON, 10), (SUN, 11)):
        error = refused(state, seat, {"kind": "claim", "breakdown": B27}, turn(number))
        assert error.code == "rule/game_over" and isinstance(error, GameOver)
    assert refused(state, SUN, {"kind": "track", "breakdown": B27}, turn(9)).code == "rule/game_over"
    assert staff_refused(state, {"kind": "end"}, turn(9)).code == "rule/game_over"


def test_ruling_23_a_pending_claim_is_not_verified_after_the_game_is_over():
    state = end(claim(board(), SUN, 9), 9)
    error = staff_refused(state, {"kind": "verify", "seat": 0, "resources": HAND}, turn(9))
    assert error.code == "rule/game_over"
    state = staff(state, {"kind": "reject", "seat": 0, "reason": "too late"}, turn(9))
    assert state.seats[SUN].claim.status == "rejected"


def event_of(*boards, number=5):
    """An event of boards given as (state, names, registrations)."""
    return RULES.event_view({f"t{i + 1}": story(state, names, registered)
                             for i, (state, names, registered) in enumerate(boards)}, turn(number))


def test_ruling_23_most_points_win_among_the_claims_verified_in_one_turn():
    a = end(verify(claim(board(), SUN, 5, B25), SUN, 5, grain=9), 5)
    b = end(verify(claim(board(), SUN, 5, B27), SUN, 5), 5)
    view = event_of((a, NAMES, (1, 2)), (b, ("Noa", "Eli"), (3, 4)))
    assert view["winner"] == {"table": "t2", "board": "A", "seat": 0, "name": "Noa",
                              "role": "sun", "registered": 3, "points": 27,
                              "decided_by": "points"}


@pytest.mark.parametrize("hand_a, hand_b, winner, decided_by", [
    ({"ore": 3}, {"ore": 2}, "Avi", "resources"),
    ({"ore": 2}, {"grain": 2}, "Noa", "grain"),
    ({"ore": 2}, {"brick": 2}, "Avi", "ore"),
    ({"wood": 1, "wool": 1}, {"wood": 2}, "Noa", "wood"),
    ({"wool": 1}, {"wool": 1}, "Avi", "registration"),
])
def test_ruling_23_ties_go_to_cards_then_grain_ore_brick_wood_wool_then_registration(
        hand_a, hand_b, winner, decided_by):
    a = end(verify(claim(board(), SUN, 5), SUN, 5, **hand_a), 5)
    b = end(verify(claim(board(), SUN, 5), SUN, 5, **hand_b), 5)
    view = event_of((a, NAMES, (1, 2)), (b, ("Noa", "Eli"), (3, 4)))
    assert (view["winner"]["name"], view["winner"]["decided_by"]) == (winner, decided_by)


def test_ruling_23_a_lone_verified_claim_wins_on_points():
    a = end(verify(claim(board(), MOON, 8), MOON, 8), 8)
    view = event_of((a, NAMES, (1, 2)), (end(board(), 8), ("Noa", "Eli"), (3, 4)), number=8)
    assert (view["winner"]["name"], view["winner"]["decided_by"]) == ("Dana", "points")


def test_ruling_23_no_winner_while_the_turn_runs():
    a = verify(claim(board()))
    view = event_of((a, NAMES, (1, 2)))
    assert view["winner"] is None and "standings" not in view


def test_ruling_23_pending_claims_oldest_turn_first_then_table_order():
    a = claim(board(), MOON, 4)
    b = claim(board(), SUN, 3)
    c = claim(board(), MOON, 4)
    view = event_of((a, NAMES, (1, 2)), (b, ("Noa", "Eli"), (3, 4)), (c, ("Ran", "Tal"), (5, 6)))
    assert [(c["table"], c["name"], c["turn"]) for c in view["claims"]] == \
        [("t2", "Noa", 3), ("t1", "Dana", 4), ("t3", "Tal", 4)]
    assert view["claims"][0] == {"table": "t2", "board": "A", "seat": 0, "name": "Noa",
                                 "role": "sun", "registered": 3, "points": 25,
                                 "breakdown": B25, "turn": 3}


def test_ruling_23_a_claim_is_stale_only_if_the_seats_own_claim_changed():
    wire = {"kind": "claim", "breakdown": B25}
    seen = board()
    other = move(seen, MOON, {"kind": "track", "breakdown": B24}, turn(1))
    assert RULES.stale(seen, other, SUN, wire) is False
    mine = claim(seen, SUN, 1)
    assert RULES.stale(seen, mine, SUN, wire) is True
    assert RULES.stale(seen, mine, MOON, wire) is False
    assert RULES.stale(seen, mine, SUN, {"kind": "track", "breakdown": B25}) is False
    assert RULES.stale(seen, mine, SUN, "junk") is False


# ---------------------------------------------------------------- staff and phone doors


@pytest.mark.parametrize("kind", ["verify", "reject", "correct", "end"])
def test_ruling_23_a_seat_never_makes_a_staff_move(kind):
    with pytest.raises(BadMove) as caught:
        RULES.parse_move({"kind": kind, "seat": 0}, (), turn(1))
    assert caught.value.code == "move/invalid" and "organizer" in caught.value.message


@pytest.mark.parametrize("kind", ["track", "claim", "final"])
def test_ruling_23_the_staff_door_takes_no_players_move(kind):
    error = staff_refused(board(), {"kind": kind, "breakdown": B25}, turn(1))
    assert error.code == "move/invalid"


@pytest.mark.parametrize("wire", [None, [], "claim", {}, {"kind": "roll"}, {"kind": None}])
def test_ruling_23_unknown_moves_refused(wire):
    with pytest.raises(RuleError) as caught:
        RULES.parse_move(wire, (), turn(1))
    assert caught.value.code == "move/invalid"
    assert staff_refused(board(), wire, turn(1)).code == "move/invalid"


# ---------------------------------------------------------------- 24: after the game


def test_ruling_24_final_breakdown_only_after_the_game():
    wire = {"kind": "final", "breakdown": B24}
    assert refused(board(), MOON, wire, turn(3)).code == "catan/not_over"
    state = move(end(board()), MOON, {**wire, "resources": {**HAND, "ore": 2}}, turn(3))
    assert state.seats[MOON].final.breakdown.points == 24
    assert state.seats[MOON].final.resources == (0, 2, 0, 0, 0)
    state = move(state, SUN, wire, turn(3))  # the cards in hand are optional
    assert state.seats[SUN].final.resources is None


def test_ruling_24_a_final_breakdown_is_checked_like_a_claim():
    error = refused(end(board()), SUN, {"kind": "final", "breakdown": {**B25, "vp_cards": 9}})
    assert error.code == "catan/over_cap"
    error = refused(end(board()), SUN, {"kind": "final", "breakdown": B25, "resources": {"x": 1}})
    assert error.code == "catan/bad_claim"


def test_ruling_24_standings_winner_first_then_points_then_tie_breaks_unverified_shown():
    a = end(verify(claim(board(), SUN, 5, B25), SUN, 5), 5)
    a = move(a, MOON, {"kind": "final", "breakdown": B27,
                       "resources": {**HAND, "grain": 1}}, turn(5))
    b = end(board(), 5)
    b = move(b, SUN, {"kind": "final", "breakdown": B27, "resources": {**HAND, "ore": 1}}, turn(5))
    b = move(b, MOON, {"kind": "final", "breakdown": breakdown(cities=2, foreign=0)}, turn(5))
    view = event_of((a, NAMES, (4, 3)), (b, ("Noa", "Eli"), (1, 2)))
    rows = [(r["place"], r["name"], r["points"], r["verified"]) for r in view["standings"]]
    assert rows == [(1, "Avi", 25, True), (2, "Dana", 27, False), (3, "Noa", 27, False),
                    (4, "Eli", 9, False)]
    assert view["standings"][0]["breakdown"] == B25
    assert view["over"] is True and view["ending"] is False


def test_ruling_24_without_a_verified_claim_the_standings_rank_by_points():
    a = move(end(board()), SUN, {"kind": "final", "breakdown": B24}, turn(40))
    view = event_of((a, NAMES, (1, 2)), number=40)
    assert view["winner"] is None
    assert [(r["name"], r["place"]) for r in view["standings"]] == [("Avi", 1), ("Dana", 2)]


def test_ruling_24_a_staff_correction_is_shown_as_corrected_with_its_reason():
    state = move(board(), SUN, {"kind": "track", "breakdown": B27}, turn(1))
    state = staff(state, {"kind": "correct", "seat": 0, "breakdown": B24, "reason": "3 cities"},
                  turn(1))
    assert state.seats[SUN].tracker.points == 24 and state.seats[SUN].corrected == "3 cities"
    state = end(state)
    state = move(state, SUN, {"kind": "final", "breakdown": B27}, turn(1))
    state = staff(state, {"kind": "correct", "seat": 0, "breakdown": B25, "reason": "recount"},
                  turn(1))
    rows = RULES.standings_rows(story(state))
    assert rows[0]["points"] == 25 and rows[0]["verified"] is True
    assert rows[0]["corrected"] == "recount"


def test_ruling_24_a_correction_is_checked_like_a_claim():
    wire = {"kind": "correct", "seat": 0, "breakdown": {**B25, "cities": 11}, "reason": "x"}
    assert staff_refused(board(), wire, turn(1)).code == "catan/over_cap"
    wire = {"kind": "correct", "seat": 0, "breakdown": B25}
    assert staff_refused(board(), wire, turn(1)).code == "move/invalid"


def test_ruling_24_standings_rows_of_a_board_in_the_score_columns():
    state = end(verify(claim(board(), SUN, 5, B27), SUN, 5, grain=2), 5)
    rows = RULES.standings_rows(story(state))
    keys = [column.key for column in RULES.score_columns()]
    assert keys == ["settlements", "cities", "foreign_start_settlements", "vp_cards",
                    "largest_army", "longest_road", "points", "hand", "grain", "ore", "brick",
                    "wood", "wool"]
    ties = [column.key for column in RULES.score_columns() if column.tie_break]
    assert ties == ["hand", "grain", "ore", "brick", "wood", "wool"]  # RULES.md 23's order
    assert [rows[0][key] for key in keys] == [5, 8, 2, 0, 2, 0, 27, 2, 2, 0, 0, 0, 0]
    assert (rows[0]["place"], rows[0]["outcome"], rows[0]["verified"], rows[0]["hand"]) == \
        (1, "won", True, 2)
    assert (rows[1]["place"], rows[1]["outcome"], rows[1]["verified"]) == (2, "lost", False)
    # Moon's cards in hand were never entered: blanks on the sheet, not zeros
    assert [rows[1][key] for key in ties] == [None] * 6
    assert RULES.result(state).json() == {"reason": "claim_verified",
                                          "outcomes": ["won", "lost"], "places": [1, 2]}


def test_ruling_24_no_places_while_the_game_runs():
    rows = RULES.standings_rows(story(claim(board())))
    assert [row["place"] for row in rows] == [None, None]
    assert RULES.result(board()) is None
    rows = RULES.standings_rows(story(None, running=False))
    assert [(row["name"], row["points"], row["place"]) for row in rows] == \
        [("Avi", 4, None), ("Dana", 4, None)]  # RULES.md 24: every player starts at 4


def test_ruling_24_a_tracker_starts_at_two_settlements_and_a_city():
    """RULES.md 24: every player starts with two settlements and a city, 4 points; a player who
    never touches the tracker is listed at 4, on the phone, the tile and the standings."""
    state = board()
    assert [seat.tracker.points for seat in state.seats] == [4, 4]
    assert (state.seats[SUN].tracker.settlements, state.seats[SUN].tracker.cities) == (2, 1)
    seat = RULES.seat_view(story(state), SUN, SETUP)
    assert seat["tracker"]["points"] == 4
    assert seat["tracker"]["breakdown"]["settlements"] == 2
    assert seat["tracker"]["breakdown"]["cities"] == 1
    assert [p["points"] for p in RULES.common_view(story(state))["players"]] == [4, 4]
    assert RULES.tile_view(story(state))["points"] == [4, 4]
    rows = RULES.standings_rows(story(end(state)))
    assert [(row["settlements"], row["cities"], row["points"]) for row in rows] == \
        [(2, 1, 4), (2, 1, 4)]


def test_ruling_24_before_the_start_the_players_are_listed_at_4():
    rows = RULES.standings_rows(story(None, running=False))
    assert [row["points"] for row in rows] == [4, 4]
    players = RULES.common_view(story(None, running=False))["players"]
    assert [player["points"] for player in players] == [4, 4]


def test_ruling_24_an_old_tracker_record_counts_as_it_did():
    """A journal written before the tracker started at 4 replays: a stored tracker record is the
    whole breakdown the player set, so it counts as it did (0 points stays 0)."""
    zero = {"settlements": 0, "cities": 0, "foreign_start_settlements": 0, "vp_cards": 0,
            "largest_army": False, "longest_road": False}
    old = RULES.decode_fact("CatanPointsTracked", {"seat": 1, "breakdown": zero})
    state = RULES.evolve(board(), [old])
    assert [seat.tracker.points for seat in state.seats] == [4, 0]
    old = RULES.decode_fact("CatanPointsTracked", {"seat": 0, "breakdown": B24})
    assert RULES.evolve(board(), [old]).seats[SUN].tracker.points == 24


# ---------------------------------------------------------------- the journal


def every_fact():
    state = claim(board(), SUN, 1)
    facts = [*RULES.decide(board(), SUN, RULES.parse_move({"kind": "track", "breakdown": B24},
                                                          (), None), SETUP, None),
             *RULES.decide(board(), SUN, RULES.parse_move({"kind": "claim", "breakdown": B25},
                                                          (), turn(1)), SETUP, None),
             *RULES.staff_move(state, {"kind": "verify", "seat": 0,
                                       "resources": {**HAND, "ore": 3}}, turn(1)),
             *RULES.staff_move(state, {"kind": "reject", "seat": 0, "reason": "no"}, turn(1)),
             *RULES.staff_move(state, {"kind": "correct", "seat": 1, "breakdown": B24,
                                       "reason": "why"}, turn(1)),
             *RULES.staff_move(state, {"kind": "end"}, None)]
    over = end(state)
    facts += RULES.decide(over, MOON, RULES.parse_move(
        {"kind": "final", "breakdown": B27, "resources": {**HAND, "wool": 4}}, (), None),
        SETUP, None)
    facts += RULES.staff_move(over, {"kind": "correct", "seat": 1, "breakdown": B24,
                                     "reason": "why"}, turn(1))
    return facts


def test_journal_every_fact_kind_round_trips_through_json():
    facts = every_fact()
    kinds = {RULES.encode_fact(fact)[0] for fact in facts}
    assert kinds == RULES.fact_kinds
    for fact in facts:
        kind, data = RULES.encode_fact(fact)
        assert RULES.decode_fact(kind, json.loads(json.dumps(data))) == fact


def test_journal_kinds_are_stable():
    assert RULES.fact_kinds == {"CatanPointsTracked", "CatanVictoryClaimed", "CatanClaimVerified",
                                "CatanClaimRejected", "CatanBreakdownCorrected",
                                "CatanFinalEntered", "CatanGameEnded"}
    kind, data = RULES.encode_fact(RULES.staff_move(claim(board()), {
        "kind": "verify", "seat": 0, "resources": {**HAND, "brick": 2}}, turn(1))[0])
    assert (kind, data) == ("CatanClaimVerified", {"seat": 0, "resources": [0, 0, 2, 0, 0],
                                                   "turn": 1})


# ---------------------------------------------------------------- views


def test_views_common_view_of_a_board():
    state = claim(board(letter="B", sun_colour="green"), SUN, 3)
    view = RULES.common_view(story(state, registered=(12, 13), neighbours=("T1", "T3")))
    assert view == {
        "board": "B", "neighbours": ["T1", "T3"],
        "players": [
            {"name": "Avi", "role": "sun", "colour": "green", "registered": 12, "points": 4,
             "verified": False,
             "claim": {"status": "pending", "points": 25, "turn": 3, "reason": None}},
            {"name": "Dana", "role": "moon", "colour": "blue", "registered": 13, "points": 4,
             "verified": False, "claim": None}],
        "over": False, "result": None}


@pytest.mark.parametrize("make, seat, reason", [
    (lambda: board(), SUN, "under_25"),
    (lambda: move(board(), SUN, {"kind": "track", "breakdown": B25}), SUN, None),
    (lambda: claim(move(board(), SUN, {"kind": "track", "breakdown": B25})), SUN, "claim_pending"),
    (lambda: verify(claim(board())), MOON, "game_over"),
    (lambda: end(board()), SUN, "game_over"),
])
def test_views_can_claim_gives_the_reason(make, seat, reason):
    view = RULES.seat_view(story(make()), seat, SETUP)
    assert view["can_claim"] == {"open": reason is None, "reason": reason}


def test_views_before_the_start_nothing_is_open():
    view = RULES.seat_view(story(None, running=False), SUN, SETUP)
    assert view["can_claim"] == {"open": False, "reason": "not_started"}
    assert view["can_track"] is False and view["colour"] is None
    common = RULES.common_view(story(None, running=False))
    assert common["board"] is None and [p["role"] for p in common["players"]] == ["sun", "moon"]


def test_views_seat_view_of_a_player():
    state = move(board(), MOON, {"kind": "track", "breakdown": B27}, turn(1))
    view = RULES.seat_view(story(state), MOON, SETUP)
    assert view == {"role": "moon", "colour": "blue",
                    "tracker": {"breakdown": B27, "points": 27, "corrected": None},
                    "claim": None, "can_claim": {"open": True, "reason": None},
                    "can_track": True, "can_final": False, "final": None,
                    "caps": {"settlements": 5, "cities": 10, "foreign_start_settlements": 5,
                             "vp_cards": 5}}


def test_views_tile_of_a_board():
    state = staff(claim(board(letter="C")), {"kind": "reject", "seat": 0, "reason": "no"}, turn(1))
    assert RULES.tile_view(story(state)) == {
        "board": "C", "names": ["Avi", "Dana"], "roles": ["sun", "moon"],
        "colours": ["red", "blue"], "points": [4, 4], "claims": ["rejected", None], "over": False}


def test_views_page_data_gives_the_fields_and_caps():
    data = RULES.page_data(SETUP, "en")["catan"]
    assert [f["id"] for f in data["fields"]] == ["settlements", "cities",
                                                 "foreign_start_settlements", "vp_cards",
                                                 "largest_army", "longest_road"]
    assert [f["points"] for f in data["fields"]] == [1, 2, 2, 1, 2, 2]
    assert data["caps"] == CAPS and data["winning_points"] == 25
    assert data["resources"] == ["grain", "ore", "brick", "wood", "wool"]


def test_views_are_json():
    state = end(verify(claim(board())))
    s = story(state)
    for view in (RULES.common_view(s), RULES.seat_view(s, 0, SETUP), RULES.tile_view(s),
                 RULES.event_view({"t": s}, turn(1)), RULES.turn_view(turn(1))):
        assert json.loads(json.dumps(view)) == view


# ---------------------------------------------------------------- paper


def test_paper_setup_section_says_the_board_seats_colours_robbers_and_scoring():
    options = RULES.check_options({"letter": "B", "sun_colour": "white", "moon_colour": "green"})
    section = RULES.setup_section(RULES.table_setup(options), options, 2)
    seating = {line.key: dict(line.values) for line in section.seating}
    assert seating["catan_board"] == {"board": "B"}
    assert seating["catan_sun_seat"]["player"] == SeatName(0)
    assert dict(seating["catan_sun_seat"]["colour"].by_lang)["he"] == "לבן"
    assert dict(seating["catan_moon_seat"]["colour"].by_lang)["nl"] == "groen"
    parts = {part.heading: part for part in section.parts}
    assert {"catan_start_areas", "catan_robber_rule", "catan_scoring"} <= set(parts)
    robbers = {line.key: dict(line.values) for line in parts["catan_robber_rule"].lines}
    assert robbers["catan_robber_early"] == {"first": 1, "last": 15, "cards": 8}
    assert robbers["catan_robber_late"] == {"first": 16}
    grid = parts["catan_scoring"].grid
    assert [row[1:] for row in grid.rows] == [(1, 5, 5), (2, 10, 20), ("+2", 5, 10), (1, 5, 5),
                                              (2, 1, 2), (2, 1, 2)]
    assert all(isinstance(row[0], Name) for row in grid.rows)


def test_paper_setup_section_defaults():
    seating = {line.key: dict(line.values) for line in RULES.setup_section(SETUP, {}, 2).seating}
    assert seating["catan_board"] == {"board": "A"}
    assert dict(seating["catan_moon_seat"]["colour"].by_lang)["en"] == "blue"


# ---------------------------------------------------------------- edges


def test_edges_a_reason_must_be_text_that_can_be_written():
    error = staff_refused(claim(board()), {"kind": "reject", "seat": 0, "reason": "bad \ud800"},
                          turn(1))
    assert error.code == "move/invalid" and "\\ud800" in error.message


def test_edges_each_door_refuses_the_other_doors_moves():
    with pytest.raises(BadMove):
        RULES.decide(board(), SUN, moves.EndGame(1), SETUP, None)
    with pytest.raises(BadMove):
        engine.decide_staff(board(), moves.TrackPoints(RULES.parse_move(
            {"kind": "track", "breakdown": B25}, (), None).breakdown))


def test_edges_an_event_view_skips_boards_not_started_and_shared_registrations():
    a = end(verify(claim(board(), SUN, 5), SUN, 5), 5)
    b = end(verify(claim(board(), SUN, 5), SUN, 5), 5)
    view = RULES.event_view({"t1": story(a, registered=(1, 2)), "t2": story(b, registered=(1, 2)),
                             "t3": story(None, running=False)}, turn(5))
    assert view["winner"]["decided_by"] == "registration"
    assert {row["table"] for row in view["standings"]} == {"t1", "t2"}


def test_edges_without_registration_numbers_the_table_order_decides():
    a = end(verify(claim(board(), SUN, 5), SUN, 5), 5)
    b = end(verify(claim(board(), SUN, 5), SUN, 5), 5)
    view = RULES.event_view({"t1": story(a, registered=()), "t2": story(b, registered=())},
                            turn(5))
    assert (view["winner"]["table"], view["winner"]["registered"]) == ("t1", None)


def test_edges_stale_of_a_seat_the_board_does_not_have_is_false():
    assert RULES.stale(board(), claim(board()), 5, {"kind": "claim", "breakdown": B25}) is False


def test_edges_seat_view_shows_the_final_breakdown():
    state = move(end(board()), MOON, {"kind": "final", "breakdown": B24,
                                      "resources": {**HAND, "wool": 2}}, turn(2))
    view = RULES.seat_view(story(state), MOON, SETUP)
    assert view["final"] == {"breakdown": B24, "points": 24,
                             "resources": {**HAND, "wool": 2}, "corrected": None}
    assert (view["can_track"], view["can_final"]) == (False, True)


def test_ruling_23_no_claim_waits_for_the_staff_once_the_game_is_over():
    """The game ends with the turn of a verified claim; a claim still pending then can no
    longer win, so the event's queue of claims to verify is empty."""
    state = claim(board(), SUN, 5, B27)
    assert [c["seat"] for c in RULES.event_view({"1": story(state)}, turn(5))["claims"]] == [0]
    view = RULES.event_view({"1": story(end(state, 5))}, turn(5))
    assert view["over"] is True and view["claims"] == []


def test_a_boards_set_up_is_the_one_source_of_its_letter_and_colours():
    """Issue 28: `table_setup` makes a board's set-up from its checked options; the board starts
    and its sheet is laid out from that set-up, whatever options are handed beside it."""
    options = RULES.check_options({"letter": "C", "sun_colour": "green", "moon_colour": "white"})
    setup = RULES.table_setup(options)
    state = RULES.start(setup, NAMES, {})
    assert (state.letter, state.colours) == ("C", ("green", "white"))
    seating = {line.key: dict(line.values) for line in RULES.setup_section(setup, {}, 2).seating}
    assert seating["catan_board"] == {"board": "C"}
    assert dict(seating["catan_sun_seat"]["colour"].by_lang)["en"] == "green"
