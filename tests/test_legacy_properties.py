"""Invariants of Legacy games over seeded random games (hypothesis): coins conserved and never
below zero after every fact, one action a turn, the win exactly as RULES.md 15 says, a refused
move changing nothing (and never one the seat was offered), and a replay of the journal's records
giving the same state."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_legacy_builders import new_campaign, setup_raw

from companion.rules.errors import RuleError
from companion.rules.legacy import campaign as cp
from companion.rules.legacy import campaign_facts as cf
from companion.rules.legacy import codec
from companion.rules.legacy.campaign_views import register_json
from companion.rules.legacy.engine import decide, legal_moves
from companion.rules.legacy.evolve import evolve_all
from companion.rules.legacy.facts import Contributed
from companion.rules.legacy.moves import Contribute
from companion.rules.legacy.ruleset import LEGACY
from companion.rules.machi_koro import moves as mv
from companion.rules.machi_koro.facts import EstablishmentBought, GameWon, LandmarkBuilt, TurnEnded
from companion.rules.machi_koro.state import Phase

GAMES = settings(max_examples=60)
MAX_MOVES = 1500
LANDMARK_SETS = (["smithy", "florist", "fountain"], ["radio_tower", "amusement_park", "smithy"],
                 ["florist", "fountain", "amusement_park"])


def with_dice(move, rng, state):
    """A dice move with the dice the service would draw."""
    if isinstance(move, mv.Roll):
        return mv.Roll(tuple(rng.randint(1, 6) for _ in range(state.table.roller.dice_count)))
    if isinstance(move, mv.Reroll):
        return mv.Reroll(tuple(rng.randint(1, 6) for _ in state.table.dice))
    return move


def wild_move(rng, state):
    """Any move at all, for any seat: most are refused."""
    cards = [*state.rules.establishments, *state.rules.landmarks, "statue", "castle"]
    seats = len(state.table.players)
    return rng.randrange(-1, seats + 1), rng.choice([
        Contribute(), mv.Build(rng.choice(cards)), mv.EndTurn(), mv.KeepRoll(),
        mv.Roll((rng.randint(0, 7),)), mv.Roll((rng.randint(1, 6), rng.randint(1, 6))),
        mv.TargetTvStation(rng.randrange(-1, seats + 1)), mv.ChooseDice(rng.randint(0, 3)),
        mv.SwapEstablishments(rng.randrange(seats), rng.choice(cards), rng.choice(cards)),
        mv.DeclineSwap(),
    ])


def play_game(seed, seats, mixed):
    rng = random.Random(seed)
    landmarks = [list(rng.choice(LANDMARK_SETS)) if mixed else list(LANDMARK_SETS[0])
                 for _ in range(seats)]
    options = LEGACY.check_options(setup_raw(seats, landmarks=landmarks, first=rng.randrange(seats)))
    start = LEGACY.start(LEGACY.table_setup(options), tuple("ABCD"[:seats]), options)
    total = start.total_coins()
    state, journal, actions = start, [], 0
    for _ in range(MAX_MOVES):
        if state.table.phase is Phase.FINISHED:
            break
        seat, move = wild_move(rng, state)
        if rng.random() < 0.7:
            seat = state.table.active
            move = with_dice(rng.choice(legal_moves(state, seat)), rng, state)
        try:
            facts = decide(state, seat, move)
        except RuleError:
            assert not (0 <= seat < seats) or move not in legal_moves(state, seat) or \
                isinstance(move, mv.Roll | mv.Reroll), (seat, move)
            continue
        for fact in facts:
            state = evolve_all(state, [fact])
            assert state.total_coins() == total, fact
            assert all(player.coins >= 0 for player in state.table.players), fact
            if isinstance(fact, EstablishmentBought | LandmarkBuilt | Contributed):
                actions += 1
                assert actions == 1, "one action per turn"
            if isinstance(fact, TurnEnded):
                actions = 0
            if isinstance(fact, GameWon):
                winner = state.table.players[fact.seat]
                assert set(state.setup.landmarks[fact.seat]) <= winner.landmarks
                assert fact.seat in state.contributed
        journal += facts
        check_state(state)
    return start, journal, state


def check_state(state):
    assert len(set(state.contributed)) == len(state.contributed), "once per game"
    for seat, player in enumerate(state.table.players):
        assert player.landmarks <= set(state.setup.landmarks[seat]), "only its own landmarks"
        done = set(state.setup.landmarks[seat]) <= player.landmarks and seat in state.contributed
        assert done == (state.table.winner == seat), "the win: all own landmarks and the contribution"


@GAMES
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 4), mixed=st.booleans())
def test_legacy_random_games_keep_the_rules(seed, seats, mixed):
    start, journal, state = play_game(seed, seats, mixed)
    records = json.loads(json.dumps([codec.encode_fact(fact) for fact in journal]))
    decoded = [codec.decode_fact(kind, data) for kind, data in records]
    assert decoded == journal
    assert evolve_all(start, decoded) == state, "a replay gives the same state"


@GAMES
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 4))
def test_legacy_hall_rolls_play_a_game_through_the_door(seed, seats):
    """The hall's path: its rolls close each turn with defaults and roll; phones build."""
    rng = random.Random(seed)
    options = LEGACY.check_options(setup_raw(seats))
    state = LEGACY.start(LEGACY.table_setup(options), tuple("ABCD"[:seats]), options)
    total = state.total_coins()
    for _ in range(400):
        if LEGACY.result(state) is not None:
            break
        for facts in LEGACY.hall_turn(state, (rng.randint(1, 6), rng.randint(1, 6)), None, None):
            state = LEGACY.evolve(state, facts)
        seat = state.table.active
        while LEGACY.choice_open(state):
            _, move = LEGACY.default_move(state)
            state = LEGACY.evolve(state, LEGACY.decide(state, seat, move, None, None))
        builds = [m for m in legal_moves(state, seat) if isinstance(m, mv.Build | Contribute)]
        if builds:
            move = max(builds, key=lambda m: 1 if isinstance(m, Contribute) else
                       (2 if m.card in state.rules.landmarks else 0))
            state = LEGACY.evolve(state, LEGACY.decide(state, seat, move, None, None))
        assert state.total_coins() == total
    assert LEGACY.result(state) is not None, "a game ends"
    assert LEGACY.hall_turn(state, (1, 1), None, None) == [], "nothing to roll after the win"


# ---------------------------------------------------------------- campaigns


def campaign_command(rng, campaign):
    """Any command at all, often a sensible one: most of the wild ones are refused."""
    number = len(campaign.games)
    ids = [entry.id for kind in ("establishments", "landmarks", "community")
           for entry in campaign.catalog.entries(kind)]
    letter = "FGHIJKLMNOPQRSTUVWXY"[rng.randrange(20)]
    done = campaign.games[-1].steps_done if campaign.games else frozenset()
    step = min(set(range(1, 9)) - done, default=9)
    return rng.choice([
        cp.TickStep(number, step), cp.TickStep(number, step), cp.TickStep(number, step),
        cp.RollForStart([[rng.randint(1, 6), rng.randint(1, 6)]
                         for _ in campaign.start_roll.contenders]),
        cp.RollForStart([[rng.randint(0, 7), 1]]),
        cp.StartGame(), cp.StartGame(community=rng.choice(ids)),
        cp.RecordGame(number, rng.randrange(-1, 4), rng.choice(["2026-11-24", "2026-02-30"])),
        cp.TickStep(number, rng.randint(1, 9)), cp.TickStep(number, rng.randint(1, 9)),
        cp.SetStatus(rng.choice(ids), rng.choice(["in_play", "reserve", "archive"])),
        cp.SetPicks(rng.randrange(4), rng.randint(1, 3)),
        cp.AddEntry("landmarks", {"id": f"landmark_{letter.lower()}", "letter": letter, "cost": 3,
                                  "names": {"en": "L", "he": "L", "nl": "L"},
                                  "effect": {"kind": "none"}}),
        cp.AddEntry("community", {"id": f"community_{rng.randrange(30)}", "cost": 3,
                                  "names": {"en": "C", "he": "C", "nl": "C"},
                                  "bonus": {"kind": "coins", "amount": rng.randint(0, 2)}}),
    ])


@GAMES
@given(seed=st.integers(0, 2**32 - 1))
def test_legacy_random_campaigns_replay_and_keep_their_order(seed):
    rng = random.Random(seed)
    campaign, facts = new_campaign()
    archived: set[str] = set()
    for _ in range(200):
        command = campaign_command(rng, campaign)
        try:
            new = cp.decide(campaign, command)
        except RuleError:
            continue
        campaign = cp.evolve(campaign, new)
        facts += new
        now = {entry.id for kind in ("establishments", "landmarks", "community")
               for entry in campaign.catalog.entries(kind) if entry.status == "archive"}
        assert archived <= now, "an archived card stays archived"
        archived = now
    for before, game in zip(campaign.games, campaign.games[1:], strict=False):
        assert game.setup.first == before.winner, "a game starts with the last winner"
        assert before.steps_done == set(range(1, 9)), "after the last game's eight steps"
    if campaign.games:
        assert campaign.games[0].setup.first == campaign.start_roll.winner
    assert len(register_json(campaign)) == sum(game.recorded for game in campaign.games)
    records = json.loads(json.dumps([cf.encode(fact) for fact in facts]))
    assert cp.replay([cf.decode(kind, data) for kind, data in records]) == campaign
