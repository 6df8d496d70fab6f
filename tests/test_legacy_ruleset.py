"""The Legacy game behind the one door (companion/rules/ruleset.py): options, seats, moves on the
wire, the journal's records, staleness, and the views a phone and a hall tile render."""

import pytest
from test_legacy_builders import ABC, game, play, setup_raw, start

from companion.rules.errors import BadMove, InvalidChoice
from companion.rules.legacy.errors import BadSetup
from companion.rules.legacy.facts import Contributed, ManualCardsActivated
from companion.rules.legacy.moves import Contribute
from companion.rules.legacy.ruleset import LEGACY
from companion.rules.legacy.setup import parse_setup
from companion.rules.machi_koro.codec import FACT_TYPES
from companion.rules.machi_koro.moves import Build, EndTurn, Roll
from companion.rules.machi_koro.state import Phase
from companion.rules.paper import SeatName
from companion.rules.ruleset import Dealt, Played, Story

BUILD = Phase.BUILD


def story(state, running=True, moves=()):
    return Story(tuple(p.name for p in state.table.players), state, moves=moves, running=running,
                 roll_mode="hall")


def test_ruleset_names_and_fact_kinds():
    assert LEGACY.name == "legacy" and LEGACY.option_specs() == ()
    assert {"LegacyContributed", "LegacyManualCardsActivated"} <= LEGACY.fact_kinds
    assert set(FACT_TYPES) <= LEGACY.fact_kinds


@pytest.mark.parametrize("raw, message", [
    ({}, r"^catalog: a Legacy game is started from its campaign"),
    ({**setup_raw(), "colour": "red"}, r"^colour: unknown option"),
    ({**setup_raw(), "game": 11}, r"^game: a game number 1-10"),
    ({**setup_raw(), "first": 2}, r"^first: a seat 0-1"),
    ({**setup_raw(), "town_square": [["bakery"]]}, r"^town_square: a list per player \(2 lists\)"),
    ({**setup_raw(), "town_square": [["bakery", "bakery"], []]},
     r"^town_square\[0\]\[1\]: 'bakery' is chosen twice"),
])
def test_ruleset_options_refusal_names_the_field(raw, message):
    with pytest.raises(BadSetup, match=message):
        LEGACY.check_options(raw)


def test_ruleset_options_are_an_object():
    with pytest.raises(BadSetup, match=r"^options: an object is required"):
        parse_setup([])


def test_ruleset_an_archived_community_landmark_is_not_played():
    raw = setup_raw()
    raw["catalog"]["community"][0]["status"] = "archive"
    with pytest.raises(BadSetup, match=r"^community: 'statue' is archived"):
        LEGACY.check_options(raw)


def test_ruleset_options_check_the_catalog_they_carry():
    raw = setup_raw()
    raw["catalog"]["establishments"][0]["cost"] = -2
    with pytest.raises(Exception, match=r"^establishments\[0\]\.cost: "):
        LEGACY.check_options(raw)


def test_ruleset_checked_options_are_stable_and_seat_the_set_ups_players():
    checked = LEGACY.check_options(setup_raw(3))
    assert LEGACY.check_options(checked) == checked
    setup = LEGACY.table_setup(checked)
    assert LEGACY.seats(setup, checked).least == LEGACY.seats(setup, checked).most == 3
    none = LEGACY.table_setup({})  # the console asks a Legacy table's sizes before a campaign
    assert (LEGACY.seats(none, {}).least, LEGACY.seats(none, {}).most) == (2, 4)
    with pytest.raises(BadSetup, match="the set-up is for 3 players, the table seats 2"):
        LEGACY.start(setup, ("A", "B"), checked)
    with pytest.raises(BadSetup, match="^catalog: a Legacy game is started from its campaign"):
        LEGACY.start(none, ("A", "B"), {})
    assert not isinstance(LEGACY, Dealt)  # nothing is shuffled: the supply lies in order


def test_ruleset_moves_on_the_wire():
    assert LEGACY.parse_move({"kind": "contribute"}, ()) == Contribute()
    assert LEGACY.parse_move({"kind": "build", "card": "smithy"}, ()) == Build("smithy")
    with pytest.raises(BadMove):
        LEGACY.parse_move({"kind": "donate"}, ())
    state = game("A 3 +smithy | B 3")
    assert LEGACY.dice_for(state, 0, {"kind": "roll"}) == 2
    assert LEGACY.dice_for(state, 1, {"kind": "roll"}) == 1
    assert LEGACY.dice_for(state, 0, {"kind": "contribute"}) == 0
    assert LEGACY.hall_rolls({"kind": "roll"}) and not LEGACY.hall_rolls({"kind": "contribute"})


def test_ruleset_facts_read_back_from_their_records():
    for fact in (Contributed(1, "statue"), ManualCardsActivated(9, (0, 1), ("festival", "x"), (1, 2))):
        kind, data = LEGACY.encode_fact(fact)
        assert kind in LEGACY.fact_kinds and LEGACY.decode_fact(kind, data) == fact


def test_ruleset_a_contribution_makes_a_seen_view_stale_but_not_a_dice_choice():
    seen = game("A 20 | B 20", phase=BUILD)
    now, _ = play(seen, 0, Contribute())
    assert LEGACY.stale(seen, now, 0, {"kind": "build", "card": "ranch"})
    assert not LEGACY.stale(seen, seen, 0, {"kind": "build", "card": "ranch"})
    assert not LEGACY.stale(seen, now, 1, {"kind": "dice_count", "count": 1})
    moved = game("A 20 | B 20", phase=BUILD, contributed=(1,))
    assert LEGACY.stale(seen, moved, 0, {"kind": "contribute"})


def test_ruleset_seat_view_offers_own_landmarks_and_the_contribution():
    state = game("A 30 | B 0", phase=BUILD)
    view = LEGACY.seat_view(story(state), 0, None)
    assert {"kind": "contribute"} in view["choices"]
    builds = [c["card"] for c in view["choices"] if c["kind"] == "build"]
    assert {"smithy", "florist", "fountain"} <= set(builds)
    assert "radio_tower" not in builds and view["choices"][-1] == {"kind": "end_turn"}
    cards = [c["card"] for c in view["builds"]["cards"]]
    assert cards[-3:] == ABC and "radio_tower" not in cards and "wheat_field" in cards
    assert view["contribute"] == {"cost": 5, "why": None}


@pytest.mark.parametrize("notation, seat, phase, contributed, running, why", [
    ("A 30 | B 0", 1, BUILD, (), True, "not_your_turn"),
    ("A 30 | B 0", 0, Phase.ROLL, (), True, "not_build_phase"),
    ("A 30 | B 0", 0, BUILD, (0,), True, "contributed"),
    ("A 30 | B 0", 0, BUILD, (), False, "not_running"),
])
def test_ruleset_contribution_closed_with_its_reason(notation, seat, phase, contributed, running, why):
    state = game(notation, phase=phase, contributed=contributed)
    assert LEGACY.seat_view(story(state, running), seat, None)["contribute"]["why"] == why


def test_ruleset_contribution_and_landmarks_short_of_coins_say_by_how_much():
    view = LEGACY.seat_view(story(game("A 4 | B 0", phase=BUILD)), 0, None)
    assert view["contribute"] == {"cost": 5, "why": "coins", "short": 1}
    landmarks = {c["card"]: c for c in view["builds"]["cards"][-3:]}
    assert landmarks["fountain"] == {"card": "fountain", "why": "coins", "short": 6}
    assert landmarks["smithy"] == {"card": "smithy"}


def test_ruleset_builds_under_the_turns_reason_say_only_built():
    state = game("A 30 +smithy | B 0", phase=BUILD)
    builds = LEGACY.seat_view(story(state), 1, None)["builds"]
    assert builds["why"] == "not_your_turn"
    assert [c for c in builds["cards"] if "why" in c] == []
    builds = LEGACY.seat_view(story(state), 0, None)["builds"]
    assert {"card": "smithy", "why": "built"} in builds["cards"]


def test_ruleset_views_before_the_start():
    empty = Story(("A", "B"), None)
    assert LEGACY.common_view(empty)["legacy"] is None
    assert LEGACY.seat_view(empty, 0, None) == {"choices": [], "builds": {"why": "not_running",
                                                                          "cards": []}, "contribute": None}
    assert LEGACY.tile_view(empty)["legacy"] is None
    assert [row["coins"] for row in LEGACY.standings_rows(empty)] == [None, None]
    assert LEGACY.page_data(None, "nl") == {"cards": []}


def test_ruleset_common_view_has_the_base_games_fields_and_the_catalog():
    state = start()
    view = LEGACY.common_view(story(state))
    assert {"players", "phase", "entries", "undone", "supply"} <= set(view)
    legacy = view["legacy"]
    assert legacy["game"] == 1 and legacy["needs"] == [{"landmarks": 3, "contribute": True}] * 2
    names = {card["id"]: card["names"]["nl"] for card in legacy["cards"]}
    assert names["smithy"] == "Smidse" and names["statue"] == "Standbeeld"
    tile = LEGACY.tile_view(story(state))["legacy"]
    assert "cards" not in tile
    # the hall tile names an establishment of its lines in the screen's language, not by its id
    assert tile["card_names"]["wheat_field"]["nl"] == names["wheat_field"]
    assert "smithy" not in tile["card_names"]  # a landmark: named in `landmarks`


def test_ruleset_undone_contribution_is_summarised():
    before = game("A 20 | B 0", phase=BUILD)
    after, facts = play(before, 0, Contribute())
    summary = LEGACY.move_summary(Played(3, "0", facts, before))
    assert summary == {"move": "contribute", "seat": 0, "card": "statue"}
    roll = LEGACY.move_summary(Played(1, "hall", [], before))
    assert roll["move"] == "move"


def test_ruleset_standings_rank_the_winner_then_landmarks_contribution_coins():
    state = game("A 9 +smithy | B 20 +smithy | C 3 +smithy +florist", contributed=(0,),
                 setup=setup_raw(3))
    rows = LEGACY.standings_rows(story(state))
    assert [(r["landmarks"], r["contributed"], r["coins"], r["place"]) for r in rows] == [
        (1, 1, 9, 2), (1, 0, 20, 3), (2, 0, 3, 1)]
    won = game("A 9 +smithy +florist +fountain | B 20", contributed=(0,), winner=0,
               phase=Phase.FINISHED)
    rows = LEGACY.standings_rows(story(won))
    assert [(r["outcome"], r["place"]) for r in rows] == [("won", 1), ("lost", 2)]
    assert [c.key for c in LEGACY.score_columns()] == ["landmarks", "contributed", "coins"]


def test_ruleset_setup_sheet_lays_out_the_game():
    options = LEGACY.check_options(setup_raw(2, landmarks=[ABC, ["smithy", "radio_tower", "florist"]],
                                             first=1, game=3))
    section = LEGACY.setup_section(LEGACY.table_setup(options), options, 2)
    assert [line.key for line in section.seating] == ["legacy_game_n", "legacy_first_player"]
    assert dict(section.seating[1].values) == {"player": SeatName(1)}
    headings = [part.heading for part in section.parts]
    assert headings == ["each_player_takes", "legacy_cities", "legacy_community_heading",
                        "supply", "back_in_box"]
    cities = section.parts[1].lines
    letters = [dict(line.values)["letter"] for line in cities if line.key == "legacy_landmark"]
    assert letters == ["A", "B", "C", "A", "B", "D"]
    community = section.parts[2].lines
    assert [line.key for line in community] == ["legacy_community", "legacy_bonus_coins"]
    lighthouse = LEGACY.check_options(setup_raw(2, community="lighthouse"))
    manual = LEGACY.setup_section(LEGACY.table_setup(lighthouse), lighthouse, 2)
    text = dict(manual.parts[2].lines[1].values)["text"]
    assert manual.parts[2].lines[1].key == "legacy_bonus_text"
    assert dict(text.by_lang) == {"en": "Build one establishment for free."}


def test_ruleset_hall_turn_rolls_for_the_table_and_closes_the_turn():
    state = game("A 3 wheat_field | B 3", phase=BUILD)
    groups = LEGACY.hall_turn(state, (1, 4), None, None)
    assert groups[0][-1].__class__.__name__ == "TurnEnded"
    after = LEGACY.evolve(state, [f for group in groups for f in group])
    assert after.table.active == 1 and after.table.dice == (1,)


def test_ruleset_adjust_is_the_base_games_correction():
    state = start()
    with pytest.raises(InvalidChoice):
        LEGACY.adjust(state, 0, 0, "Festival")
    assert LEGACY.turn(state) == 1 and not LEGACY.choice_open(state)
    assert LEGACY.default_move(state) is None
    state, _ = play(game("A 3 | B 3", phase=BUILD), 0, EndTurn())
    assert LEGACY.turn(state) == 2
    assert LEGACY.decide(state, 1, Roll((2,)), None, None)


def test_a_games_set_up_is_the_one_source_of_its_start_and_sheet():
    """Issue 28: `table_setup` checks a game's options into its set-up; the game starts and its
    sheet is laid out from that set-up, whatever options are handed beside it."""
    options = LEGACY.check_options(setup_raw(2, first=1, game=4))
    setup = LEGACY.table_setup(options)
    assert LEGACY.start(setup, ("A", "B"), {}).table.active == 1
    section = LEGACY.setup_section(setup, {}, 2)
    assert dict(section.seating[0].values) == {"n": 4}
