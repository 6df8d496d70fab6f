"""A turn's open choice as data in the seat view (`asks`, docs/api.md "A choice as data";
issue 28 item 2): the card that asks, the prompt's words, each answer's wire move and label,
the default the timer applies (RULES.md 11, docs/rules.md 31), and the hall tile's `asking`.
The phone draws every one of them with one piece of JS (tests/browser/test_phone_asks.py)."""

from __future__ import annotations

from builders import table
from coop_builders import coop
from test_legacy_builders import catalog_raw, game, setup_raw

from companion.rules.coop.ruleset import COOP
from companion.rules.legacy.ruleset import LEGACY
from companion.rules.machi_koro.catalog import load_catalog
from companion.rules.machi_koro.ruleset import MACHI_KORO
from companion.rules.machi_koro.state import Choice, Phase
from companion.rules.ruleset import Story

BASE = load_catalog()
HARBOR = load_catalog("base", "harbor")


def asked(state, seat=0, catalog=BASE, rules=MACHI_KORO, roll_mode="hall"):
    base = getattr(state, "table", state)
    story = Story(tuple(p.name for p in base.players), state, running=True, roll_mode=roll_mode,
                  setup=catalog)
    return rules.seat_view(story, seat, catalog).get("asks", [])


def tile(state, catalog=BASE, rules=MACHI_KORO):
    base = getattr(state, "table", state)
    return rules.tile_view(Story(tuple(p.name for p in base.players), state, running=True, setup=catalog))


def test_ruling_11_radio_tower_asks_keep_or_roll_again_keep_is_the_default():
    state = table("A 3 +radio_tower | B 2", phase=Phase.REROLL, dice=(3, 4))
    [choice] = asked(state)
    assert choice == {
        "card": "radio_tower", "timed": True,
        "prompt": {"text": "{card}: keep {sum} or roll again?",
                   "args": {"card": {"card": "radio_tower"}, "sum": 7}},
        "options": [
            {"move": {"kind": "keep"}, "label": {"text": "Keep {sum}", "args": {"sum": 7}}, "default": True,
             "done": {"text": "You keep {sum}.", "args": {"sum": 7}}},
            # the sum of the new roll, which only the answer makes known
            {"move": {"kind": "reroll"}, "label": {"text": "Roll again"},
             "done": {"text": "You rolled again: {sum}.", "args": {"sum": {"dice": "sum"}}}},
        ]}
    assert asked(state, seat=1) == []  # only the roller is asked
    assert tile(state)["asking"] == "radio_tower" and tile(state)["waiting"] == "reroll"


def test_ruling_11_tv_station_asks_from_whom_the_richest_other_is_the_default():
    state = table("A 3 tv_station | B 2 | C 9", phase=Phase.CHOOSE, dice=(6,),
                  pending=(Choice.TV_STATION,))
    [choice] = asked(state)
    assert choice["card"] == "tv_station"
    assert choice["prompt"] == {"text": "{card}: take {amount} coins from whom?",
                                "args": {"card": {"card": "tv_station"}, "amount": 5}}
    by_target = {o["move"]["target"]: o for o in choice["options"]}
    assert set(by_target) == {1, 2}
    assert by_target[2] == {"move": {"kind": "tv_station", "target": 2}, "default": True,
                            "label": {"text": "{name} ({coins})", "args": {"name": {"seat": 2}, "coins": 9}},
                            "done": {"text": "You took coins from {name}.", "args": {"name": {"seat": 2}}}}
    assert by_target[1]["done"]["args"] == {"name": {"seat": 1}}  # each answer its own target
    assert "default" not in by_target[1]
    assert tile(state)["asking"] == "tv_station"


def test_ruling_11_business_center_asks_a_swap_in_three_parts_or_none_which_is_the_default():
    state = table("A 3 business_center bakery | B 2 cafe", phase=Phase.CHOOSE, dice=(6,),
                  pending=(Choice.BUSINESS_CENTER,))
    [choice] = asked(state)
    assert choice["prompt"]["text"] == "{card}: swap one card with another player, or not."
    swap, decline = choice["options"]
    assert swap["move"] == {"kind": "business_center"} and "default" not in swap
    assert [f["key"] for f in swap["fields"]] == ["with", "give", "take"]
    assert [f["kind"] for f in swap["fields"]] == ["seat", "card", "card"]
    assert decline == {"move": {"kind": "business_center", "decline": True},
                       "label": {"text": "No swap"}, "default": True,
                       "done": {"text": "No swap: you keep your cards."}}
    # the cards swapped are the fields the answer picks: the phone names them from the move
    assert swap["done"] == {"text": "Swapped: {give} for {take}.",
                            "args": {"give": {"field": "give"}, "take": {"field": "take"}}}
    # the swap's moves are the seat view's choices of that kind that carry every field
    view = MACHI_KORO.seat_view(Story(("A", "B"), state, running=True, setup=BASE), 0, BASE)
    assert {"kind": "business_center", "with": 1, "give": "bakery", "take": "cafe"} in view["choices"]


def test_ruling_31_harbor_asks_add_two_not_adding_is_the_default():
    state = table("A 3 +harbor | B 2", phase=Phase.HARBOR, dice=(5, 6))
    [choice] = asked(state, catalog=HARBOR)
    assert choice["card"] == "harbor"
    assert choice["prompt"] == {"text": "{card}: add 2 to {sum}?",
                                "args": {"card": {"card": "harbor"}, "sum": 11}}
    assert choice["options"] == [
        {"move": {"kind": "harbor", "add": False}, "label": {"text": "Keep {sum}", "args": {"sum": 11}},
         "default": True, "done": {"text": "You keep {sum}.", "args": {"sum": 11}}},
        {"move": {"kind": "harbor", "add": True}, "label": {"text": "Make it {sum}", "args": {"sum": 13}},
         "done": {"text": "You added 2: {sum}.", "args": {"sum": 13}}},
    ]
    assert tile(state, HARBOR)["asking"] == "harbor"


def test_nothing_is_asked_in_the_build_phase_or_before_the_start():
    assert asked(table("A 30 | B 2", phase=Phase.BUILD, dice=(4,))) == []
    state = table("A 3 +radio_tower | B 2", phase=Phase.REROLL, dice=(3, 4))
    assert "asks" not in MACHI_KORO.seat_view(Story(("A", "B"), state, running=False), 0, BASE)
    assert tile(table("A 3 | B 2"))["asking"] is None


def test_ruling_17_coop_gift_is_a_choice_with_a_number_field_beside_the_turns_choice():
    state = coop("A 4 +radio_tower | B 2", phase=Phase.REROLL, dice=(2, 2))
    keep, gift = asked(state, rules=COOP)
    assert keep["card"] == "radio_tower"
    assert gift == {"card": None, "prompt": {"text": "Give coins to the assessor"}, "options": [
        {"move": {"kind": "give_assessor"}, "label": {"text": "Give"},
         "done": {"text": "Gave {n} coins to the assessor.", "args": {"n": {"field": "amount"}},
                  "one": {"text": "Gave 1 coin to the assessor."}},
         "fields": [{"key": "amount", "kind": "number", "min": 1, "max": 4}]}]}
    assert asked(state, seat=1, rules=COOP) == []


def test_legacy_choice_names_the_games_own_card_no_alias():
    raw = catalog_raw()
    for card in raw["establishments"]:
        if card["id"] == "tv_station":
            card["id"] = "gossip_column"
    state = game("A 3 gossip_column | B 5", phase=Phase.CHOOSE, dice=(6,), pending=(Choice.TV_STATION,),
                 setup=setup_raw(2, catalog=raw))
    [choice] = asked(state, rules=LEGACY, catalog=None)
    assert choice["card"] == "gossip_column"
    assert choice["prompt"]["args"] == {"card": {"card": "gossip_column"}, "amount": 5}
    assert [o["move"] for o in choice["options"]] == [{"kind": "tv_station", "target": 1}]
    assert LEGACY.tile_view(Story(("A", "B"), state, running=True))["asking"] == "gossip_column"
    reroll = game("A 3 +radio_tower | B 5", phase=Phase.REROLL, dice=(1, 2))
    assert asked(reroll, rules=LEGACY, catalog=None)[0]["card"] == "radio_tower"


def test_legacy_swap_line_and_undone_choice_name_the_games_own_card():
    from companion.rules.machi_koro.facts import ChoiceAnswered, EstablishmentsSwapped
    from companion.rules.ruleset import Played

    raw = catalog_raw()
    for card in raw["establishments"]:
        if card["id"] == "business_center":
            card["id"] = "trading_post"
    state = game("A 3 trading_post bakery | B 5 cafe", phase=Phase.CHOOSE, dice=(6,),
                 pending=(Choice.BUSINESS_CENTER,), setup=setup_raw(2, catalog=raw))
    story = Story(("A", "B"), state, running=True)
    entry = LEGACY.turn_entry(story, EstablishmentsSwapped(0, 1, "bakery", "cafe"))
    assert entry is not None and entry["card"] == "trading_post" and entry["give"] == "bakery"
    move = Played(7, "seat 0", [ChoiceAnswered(Choice.BUSINESS_CENTER)], state)
    assert LEGACY.move_summary(move) == {"move": "choice", "seat": 0, "card": "trading_post"}
    [choice] = asked(state, rules=LEGACY, catalog=None)
    assert choice["card"] == "trading_post"


def test_every_answer_of_every_choice_carries_its_own_done_words():
    """Issue 28 item 2: the phone confirms an answer with the words its option carries, not a
    map of move kinds in its JS (a new card's choice, like Harbor's +2, says its own): every
    option of every choice here has `done` words, each in the form of the prompt's."""
    states = [
        (table("A 3 +radio_tower | B 2", phase=Phase.REROLL, dice=(3, 4)), BASE, MACHI_KORO),
        (table("A 3 +harbor | B 2", phase=Phase.HARBOR, dice=(5, 6)), HARBOR, MACHI_KORO),
        (table("A 3 tv_station | B 2 | C 9", phase=Phase.CHOOSE, dice=(6,),
               pending=(Choice.TV_STATION,)), BASE, MACHI_KORO),
        (table("A 3 business_center bakery | B 2 cafe", phase=Phase.CHOOSE, dice=(6,),
               pending=(Choice.BUSINESS_CENTER,)), BASE, MACHI_KORO),
        (coop("A 4 +radio_tower | B 2", phase=Phase.REROLL, dice=(2, 2)), BASE, COOP),
        (game("A 3 +radio_tower | B 5", phase=Phase.REROLL, dice=(1, 2)), None, LEGACY),
    ]
    for state, catalog, rules in states:
        choices = asked(state, catalog=catalog, rules=rules)
        assert choices, (rules.name, state.phase)  # each state asks something
        for choice in choices:
            for answer in choice["options"]:
                done = answer["done"]
                assert isinstance(done["text"], str) and set(done) <= {"text", "args", "one"}, answer
                assert done["text"] != "Done.", answer
