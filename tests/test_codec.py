"""The journal and wire forms of events and moves round-trip exactly."""

import pytest
from builders import CATALOG

from companion.bench.simulate import random_game
from companion.rules.errors import BadMove
from companion.rules.machi_koro.codec import decode_fact, encode_fact, parse_move, wire_move
from companion.rules.machi_koro.moves import Reroll, Roll
from companion.rules.machi_koro.options import legal_moves


@pytest.mark.parametrize("seed", range(20))
def test_codec_events_round_trip_through_json_form(seed):
    for step in random_game(2 + seed % 3, seed, max_turns=40):
        for event in step.facts:
            assert decode_fact(*encode_fact(event)) == event


@pytest.mark.parametrize("seed", range(20))
def test_codec_every_legal_move_round_trips_through_the_wire(seed):
    for step in random_game(2 + seed % 3, seed, max_turns=40):
        for seat in range(len(step.before.players)):
            for move in legal_moves(step.before, seat, CATALOG):
                dice = move.dice if isinstance(move, Roll | Reroll) else ()
                assert parse_move(wire_move(move), dice) == move


def test_codec_unknown_wire_kind_is_refused():
    with pytest.raises(BadMove, match="unknown move kind 'fly'"):
        parse_move({"kind": "fly"})


@pytest.mark.parametrize(("move", "field"), [
    ({"kind": "dice_count", "count": 1.0}, "'count'"),  # JSON 1.0 was accepted and journaled
    ({"kind": "dice_count", "count": True}, "'count'"),
    ({"kind": "tv_station", "target": 1.0}, "'target'"),
    ({"kind": "business_center", "with": True, "give": "cafe", "take": "ranch"}, "'with'"),
])
def test_codec_numbers_must_be_whole_numbers_not_floats_or_booleans(move, field):
    with pytest.raises(BadMove, match=field):
        parse_move(move)
