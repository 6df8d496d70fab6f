"""Properties of the big Catan event's rules core (RULES.md 21-24) over random turns, rolls,
schedules and claims: the team alternates, the robber rule switches at 16, the ranking is a
total order of the tie-breaks, a claim of 25 or more always wins, the outcome ignores the
order of the claims, and any JSON is resolved or refused, never a crash. Then the ruleset over
random evenings of two boards: claims only on the team's turn, a verified claim always stops
the hall's rolls, refused moves change nothing, and a replay of the journal gives the same
boards."""

from __future__ import annotations

import json
from functools import cmp_to_key

from hypothesis import given
from hypothesis import strategies as st

from companion.rules.catan_big.claims import CAPS, RESOURCES, TIE_BREAKS
from companion.rules.catan_big.errors import CatanError
from companion.rules.catan_big.ruleset import CATAN_BIG
from companion.rules.catan_big.scenario import resolve
from companion.rules.catan_big.state import ROLES
from companion.rules.catan_big.turns import team_of
from companion.rules.errors import RuleError
from companion.rules.ruleset import HallTurn, Story

turns = st.integers(min_value=1, max_value=10_000)
die = st.integers(min_value=1, max_value=6)
dice = st.lists(die, min_size=2, max_size=2)
sevens = st.sampled_from([[1, 6], [2, 5], [3, 4], [4, 3], [5, 2], [6, 1]])


@st.composite
def schedules(draw):
    """Valid schedules: from turn 1, first turns strictly increasing, 10-900 seconds."""
    gaps = draw(st.lists(st.integers(min_value=1, max_value=40), max_size=6))
    firsts = [1]
    for gap in gaps:
        firsts.append(firsts[-1] + gap)
    return [[first, draw(st.integers(min_value=10, max_value=900))] for first in firsts]


@st.composite
def breakdowns(draw):
    settlements = draw(st.integers(0, CAPS["settlements"]))
    cities = draw(st.integers(0, CAPS["cities"]))
    foreign_cap = min(CAPS["foreign_start_settlements"], settlements + cities)
    return {
        "settlements": settlements,
        "cities": cities,
        "foreign_start_settlements": draw(st.integers(0, foreign_cap)),
        "vp_cards": draw(st.integers(0, CAPS["vp_cards"])),
        "largest_army": draw(st.booleans()),
        "longest_road": draw(st.booleans()),
    }


hands = st.fixed_dictionaries({kind: st.integers(0, 4) for kind in RESOURCES})


@st.composite
def claim_lists(draw, min_size=1):
    """Claims with different names and registration numbers; small hands, so ties happen."""
    size = draw(st.integers(min_value=min_size, max_value=7))
    registrations = draw(st.lists(st.integers(1, 60), min_size=size, max_size=size, unique=True))
    return [
        {"name": f"P{i}", "registered": registered, **draw(breakdowns()),
         "resources": draw(hands)}
        for i, registered in enumerate(registrations)
    ]


def points_of(claim):
    return (claim["settlements"] + 2 * claim["cities"] + 2 * claim["foreign_start_settlements"]
            + claim["vp_cards"] + 2 * claim["largest_army"] + 2 * claim["longest_road"])


def tie_break_values(claim):
    """The values RULES.md 23 compares, in order; greater is better (registration negated)."""
    hand = claim["resources"]
    return [points_of(claim), sum(hand.values()), *(hand[kind] for kind in RESOURCES),
            -claim["registered"]]


def compare(one, other):
    """The tie-breaks as a referee applies them, one after another: negative if `one` is ahead."""
    for mine, theirs in zip(tie_break_values(one), tie_break_values(other), strict=True):
        if mine != theirs:
            return -1 if mine > theirs else 1
    return 0


def claims_form(claims, turn=30):
    return {"ruleset": "catan-big", "turn": turn, "claims": claims}


# ---------------------------------------------------------------- turns (RULES.md 21-22)


@given(turns)
def test_ruling_21_team_alternates_with_turn_parity(turn):
    assert team_of(1) == "sun"
    assert team_of(turn) != team_of(turn + 1)
    assert team_of(turn) == ("sun" if turn % 2 else "moon")


@given(turns, dice, st.one_of(st.none(), dice))
def test_ruling_21_announcement_team_and_discard(turn, roll, robber_roll):
    scenario = {"ruleset": "catan-big", "turn": turn, "dice": roll}
    if robber_roll is not None:
        scenario["robber_dice"] = robber_roll
    needs_robbers = sum(roll) == 7 and turn >= 16 and robber_roll is None
    try:
        outcome = resolve(scenario)
    except CatanError as refusal:
        assert needs_robbers
        assert refusal.message.startswith("robber_dice:")
        return
    assert not needs_robbers
    assert outcome["team"] == team_of(turn)
    assert outcome["discard"] is (sum(roll) == 7)
    assert "seconds" not in outcome


@given(turns, sevens, dice)
def test_ruling_22_robber_rule_switches_at_16(turn, seven, robber_roll):
    outcome = resolve({"ruleset": "catan-big", "turn": turn, "dice": seven,
                       "robber_dice": robber_roll})
    robber = outcome["robber"]
    if turn < 16:
        assert robber == {"action": "stay"}
        return
    total = sum(robber_roll)
    if total == 7:
        assert robber == {"action": "desert"}
    elif total in (2, 12):
        assert robber == {"action": "move_one", "number": total}
    else:
        assert robber == {"action": "move", "number": total}
        assert 3 <= total <= 11


@given(turns, dice.filter(lambda roll: sum(roll) != 7), st.one_of(st.none(), dice, st.text()))
def test_ruling_22_no_robber_without_a_seven(turn, roll, robber_roll):
    outcome = resolve({"ruleset": "catan-big", "turn": turn, "dice": roll,
                       "robber_dice": robber_roll})
    assert outcome["robber"] is None
    assert outcome["discard"] is False


@given(schedules(), turns)
def test_ruling_21_seconds_are_the_last_step_started(schedule, turn):
    outcome = resolve({"ruleset": "catan-big", "turn": turn, "dice": [1, 1],
                       "schedule": schedule})
    expected = [seconds for first, seconds in schedule if first <= turn][-1]
    assert outcome["seconds"] == expected


@given(schedules().filter(lambda s: len(s) >= 2), st.data())
def test_ruling_21_a_schedule_out_of_order_is_refused(schedule, data):
    i = data.draw(st.integers(1, len(schedule) - 1))
    schedule[i][0] = data.draw(st.integers(1, schedule[i - 1][0]))
    try:
        resolve({"ruleset": "catan-big", "turn": 5, "dice": [1, 1], "schedule": schedule})
    except CatanError as refusal:
        assert refusal.message.startswith("schedule[")
    else:
        raise AssertionError("a schedule whose turns do not increase was accepted")


# ---------------------------------------------------------------- claims (RULES.md 23-24)


@given(claim_lists())
def test_ruling_23_ranking_is_the_tie_breaks_total_order(claims):
    outcome = resolve(claims_form(claims))
    by_name = {claim["name"]: claim for claim in claims}
    ranked = [by_name[name] for name in outcome["ranking"]]
    assert sorted(outcome["ranking"]) == sorted(by_name)
    assert ranked == sorted(claims, key=cmp_to_key(compare))
    for ahead, behind in zip(ranked, ranked[1:], strict=False):
        assert compare(ahead, behind) < 0  # strictly: a total order, no two claims equal
    assert outcome["points"] == {claim["name"]: points_of(claim) for claim in ranked}
    assert list(outcome["points"]) == outcome["ranking"]


@given(claim_lists())
def test_ruling_23_a_claim_of_25_or_more_always_wins(claims):
    outcome = resolve(claims_form(claims))
    best = max(points_of(claim) for claim in claims)
    if best >= 25:
        assert outcome["winner"] == outcome["ranking"][0]
        assert outcome["points"][outcome["winner"]] == best
        assert outcome["decided_by"] in TIE_BREAKS
    else:
        assert outcome["winner"] is None
        assert outcome["decided_by"] is None


@given(claim_lists())
def test_ruling_23_decided_by_is_the_first_tie_break_that_differs(claims):
    outcome = resolve(claims_form(claims))
    if outcome["winner"] is None:
        return
    by_name = {claim["name"]: claim for claim in claims}
    contenders = [by_name[name] for name in outcome["ranking"] if points_of(by_name[name]) >= 25]
    if len(contenders) == 1:
        assert outcome["decided_by"] == "points"
        return
    first, second = (tie_break_values(claim) for claim in contenders[:2])
    differing = next(i for i, (a, b) in enumerate(zip(first, second, strict=True)) if a != b)
    assert outcome["decided_by"] == TIE_BREAKS[differing]
    assert outcome["decided_by"] != "wool"  # equal hands and grain..wood leave equal wool


@given(claim_lists(), st.randoms(use_true_random=False))
def test_ruling_23_outcome_is_deterministic_and_ignores_claim_order(claims, shuffler):
    expected = json.dumps(resolve(claims_form(claims)), ensure_ascii=False)
    shuffled = list(claims)
    shuffler.shuffle(shuffled)
    assert json.dumps(resolve(claims_form(shuffled)), ensure_ascii=False) == expected
    assert json.dumps(resolve(claims_form(claims)), ensure_ascii=False) == expected


@given(claim_lists(min_size=2), st.data())
def test_ruling_23_over_a_cap_is_refused(claims, data):
    i = data.draw(st.integers(0, len(claims) - 1))
    field = data.draw(st.sampled_from(sorted(CAPS)))
    claims[i][field] = CAPS[field] + data.draw(st.integers(1, 50))
    try:
        resolve(claims_form(claims))
    except CatanError as refusal:
        assert refusal.code == "catan/over_cap"
        assert refusal.message.startswith(f"claims[{i}].")
    else:
        raise AssertionError("a breakdown over a cap was accepted")


# ---------------------------------------------------------------- any input


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=4),
    max_leaves=20,
)
fields = st.sampled_from(["turn", "dice", "robber_dice", "schedule", "claims"])


@given(st.dictionaries(fields, json_values))
def test_any_json_is_resolved_or_refused_by_name(body):
    scenario = {"ruleset": "catan-big", **body}
    try:
        outcome = resolve(scenario)
    except CatanError as refusal:
        assert refusal.message.split(":")[0].split("[")[0].split(".")[0] in (
            "turn", "dice", "robber_dice", "schedule", "claims")
        assert "\n" not in refusal.message
    else:
        json.dumps(outcome)


@given(claim_lists(), st.data())
def test_any_claim_field_value_is_resolved_or_refused(claims, data):
    i = data.draw(st.integers(0, len(claims) - 1))
    key = data.draw(st.sampled_from(sorted(claims[i])))
    claims[i][key] = data.draw(json_values)
    try:
        resolve(claims_form(claims))
    except CatanError as refusal:
        assert refusal.message.startswith("claims[")


# ---------------------------------------------------------------- the ruleset: boards of an event
# Random evenings at two boards, played through the Ruleset's methods as the hall calls them:
# rolls (each a hall turn), the phones' moves and the staff's, valid or not. The hall's part is
# modelled as DESIGN.md says: when `hall_over` says so it rolls no more and ends every board.

SETUP = CATAN_BIG.table_setup({})  # a board's default set-up: letter A, red and blue
BOARDS = 2
CODES = {"catan/not_started", "rule/not_your_turn", "catan/claim_pending", "catan/under_25",
         "catan/over_cap", "catan/bad_claim", "rule/game_over", "catan/no_claim",
         "catan/not_over", "move/invalid"}


@st.composite
def any_breakdowns(draw):
    """Mostly a breakdown within the caps; sometimes one over a cap."""
    found = draw(breakdowns())
    if draw(st.integers(0, 9)) == 0:
        field = draw(st.sampled_from(sorted(CAPS)))
        found[field] = CAPS[field] + draw(st.integers(1, 3))
    return found


@st.composite
def big_breakdowns(draw):
    """Breakdowns near 25 points, over it about as often as under."""
    return {"settlements": draw(st.integers(3, 5)), "cities": draw(st.integers(7, 10)),
            "foreign_start_settlements": draw(st.integers(0, 5)), "vp_cards": draw(st.integers(0, 5)),
            "largest_army": draw(st.booleans()), "longest_road": draw(st.booleans())}


hand_or_junk = st.one_of(hands, hands, hands, st.just({"grain": 1}), st.just(None))
seat_or_junk = st.one_of(st.integers(0, 1), st.integers(0, 1), st.integers(0, 1), st.just(2))
jumps = st.integers(1, 6) | st.integers(1, 6) | st.integers(7, 16)  # turns on since the last roll
rolls = st.tuples(st.just("roll"), jumps, dice, dice)
steps = st.one_of(
    rolls, rolls, rolls,
    st.tuples(st.just("track"), st.integers(0, BOARDS - 1), st.integers(0, 1), any_breakdowns()),
    st.tuples(st.just("claim"), st.integers(0, BOARDS - 1), st.integers(0, 1), any_breakdowns()),
    st.tuples(st.just("claim"), st.integers(0, BOARDS - 1), st.integers(0, 1), big_breakdowns()),
    st.tuples(st.just("claim"), st.integers(0, BOARDS - 1), st.integers(0, 1), big_breakdowns()),
    st.tuples(st.just("final"), st.integers(0, BOARDS - 1), st.integers(0, 1), any_breakdowns(),
              st.one_of(st.none(), hands)),
    st.tuples(st.just("verify"), st.integers(0, BOARDS - 1), seat_or_junk, hand_or_junk),
    st.tuples(st.just("verify"), st.integers(0, BOARDS - 1), st.just("pending"), hands),
    st.tuples(st.just("verify"), st.integers(0, BOARDS - 1), st.just("pending"), hands),
    st.tuples(st.just("reject"), st.integers(0, BOARDS - 1), seat_or_junk,
              st.sampled_from(["", "4 cities, not 8", "x" * 201])),
    st.tuples(st.just("reject"), st.integers(0, BOARDS - 1), st.just("pending"),
              st.just("4 cities, not 8")),
    st.tuples(st.just("correct"), st.integers(0, BOARDS - 1), seat_or_junk, any_breakdowns(),
              st.sampled_from(["recount", ""])),
)


class Evening:
    """Two boards, the event's latest hall turn, and every fact each board accepted."""

    def __init__(self):
        self.rules = CATAN_BIG
        self.starts = [self.rules.start(SETUP, ("A", "B"), {}) for _ in range(BOARDS)]
        self.states = list(self.starts)
        self.facts = [[] for _ in range(BOARDS)]
        self.hall = None

    def roll(self, step, first, second):
        """The hall's roll; or, when the rules say the game is over, no roll and every board
        ended (the turn of the verified claim ended when the next roll was asked)."""
        if self.rules.hall_over(self.states, self.hall):
            for board, state in enumerate(self.states):
                if not state.over:
                    self.accept(board, self.rules.staff_move(state, {"kind": "end"}, self.hall))
            return
        number = (0 if self.hall is None else self.hall.number) + step
        dice = tuple(first)
        follow_up = tuple(second) if self.rules.follow_up_dice(number, dice) else ()
        self.hall = HallTurn(number, dice, follow_up)

    def accept(self, board, facts):
        self.facts[board] += facts
        self.states[board] = self.rules.evolve(self.states[board], facts)

    def play(self, step):
        """One step; the facts of an accepted move, None for a refusal (nothing changed)."""
        kind, board = step[0], step[1]
        state = self.states[board]
        if step[2] == "pending":  # the staff at a board where a claim waits, if one does
            waiting = [seat for seat, own in enumerate(state.seats) if own.pending]
            step = (kind, board, waiting[0] if waiting else 0, *step[3:])
        try:
            if kind in ("track", "claim", "final"):
                wire = {"kind": kind, "breakdown": step[3]}
                if kind == "final" and step[4] is not None:
                    wire["resources"] = step[4]
                move = self.rules.parse_move(wire, (), self.hall)
                facts = self.rules.decide(state, step[2], move, SETUP, None)
            else:
                wire = {"kind": kind, "seat": step[2]}
                if kind == "verify" and step[3] is not None:
                    wire["resources"] = step[3]
                if kind in ("reject", "correct"):
                    wire["reason"] = step[-1]
                if kind == "correct":
                    wire["breakdown"] = step[3]
                facts = self.rules.staff_move(state, wire, self.hall)
        except RuleError as refusal:
            assert refusal.code in CODES, refusal.code
            assert self.states[board] is state
            return None
        self.accept(board, facts)
        return facts

    def stories(self):
        return {f"t{board}": Story(names=("A", "B"), state=state, running=True,
                                   registered=(2 * board + 1, 2 * board + 2))
                for board, state in enumerate(self.states)}


@given(st.lists(steps, min_size=10, max_size=80))
def test_ruling_21_to_24_random_evenings_keep_the_rules(script):
    evening = Evening()
    rules = evening.rules
    for step in script:
        if step[0] == "roll":
            evening.roll(*step[1:])
            if evening.hall is not None:
                number, total = evening.hall.number, sum(evening.hall.dice)
                shown = rules.turn_view(evening.hall)
                assert shown["team"] == ("sun" if number % 2 else "moon")  # RULES.md 21
                assert rules.follow_up_dice(number, evening.hall.dice) == (
                    2 if total == 7 and number >= 16 else 0)  # RULES.md 22
                if total == 7 and number < 16:
                    assert shown["robber"] == {"action": "stay"}
                elif total == 7:
                    assert shown["robber"]["action"] in ("move", "move_one", "desert")
                else:
                    assert shown["robber"] is None
            continue
        was_over = evening.states[step[1]].over
        facts = evening.play(step)
        if facts and step[0] == "claim":
            # an accepted claim: on its team's turn, 25 or more, the game not over
            assert evening.hall is not None
            assert ROLES[step[2]] == ("sun" if evening.hall.number % 2 else "moon")
            assert facts[0].breakdown.points >= 25
            assert not was_over
        if facts and step[0] in ("track", "claim", "verify"):
            assert not was_over
        # a verified claim of 25 or more always ends the hall's rolls
        verified = [seat for state in evening.states for seat in state.seats if seat.verified]
        assert all(seat.claim.breakdown.points >= 25 for seat in verified)
        assert rules.hall_over(evening.states, evening.hall) is bool(
            verified or any(state.over for state in evening.states))
    view = rules.event_view(evening.stories(), evening.hall)
    assert json.loads(json.dumps(view)) == view
    if view["over"] and view["winner"] is not None:
        assert view["winner"]["points"] >= 25
        assert view["standings"][0]["name"] == view["winner"]["name"]
        assert view["standings"][0]["table"] == view["winner"]["table"]
    # replay: the journal's records, decoded and folded, give the same states
    for board in range(BOARDS):
        records = [json.loads(json.dumps(rules.encode_fact(fact))) for fact in evening.facts[board]]
        replayed = rules.evolve(evening.starts[board],
                                [rules.decode_fact(kind, data) for kind, data in records])
        assert replayed == evening.states[board]


@given(st.integers(1, 200), dice, dice)
def test_ruling_22_the_ruleset_switches_the_robber_rule_at_16(number, roll, robbers):
    follow_up = tuple(robbers) if CATAN_BIG.follow_up_dice(number, tuple(roll)) else ()
    shown = CATAN_BIG.turn_view(HallTurn(number, tuple(roll), follow_up))
    assert shown["discard"] is (sum(roll) == 7)
    assert CATAN_BIG.pauses_after(HallTurn(number, tuple(roll), follow_up)) is (sum(roll) == 7)
    if sum(roll) == 7:
        assert (shown["robber"] == {"action": "stay"}) is (number < 16)
