"""RULES.md 15 (Legacy, seed 002), point by point: the landmarks, the community landmark, one
action a turn, the win, the start player, the register, the growing catalog, manual cards."""

import pytest
from test_legacy_builders import (
    ABC,
    catalog_raw,
    coins,
    est,
    finish_checklist,
    game,
    new_campaign,
    play,
    run,
    setup_raw,
    start,
)

from companion.rules.errors import (
    AlreadyBuilt,
    AlreadyOwned,
    BadDice,
    CannotAfford,
    GameOver,
    InvalidChoice,
    NotYourTurn,
    WrongPhase,
)
from companion.rules.legacy.campaign import (
    AddEntry,
    RecordGame,
    RollForStart,
    SetStatus,
    StartGame,
    game_options,
)
from companion.rules.legacy.campaign_views import register_json
from companion.rules.legacy.engine import decide
from companion.rules.legacy.errors import AlreadyContributed, BadSetup, NotYourLandmark, RollOff
from companion.rules.legacy.facts import Contributed, ManualCardsActivated
from companion.rules.legacy.moves import Contribute
from companion.rules.legacy.ruleset import LEGACY
from companion.rules.legacy.setup import parse_setup
from companion.rules.machi_koro.facts import CoinsAdjusted, CoinsTransferred, GameWon, LandmarkBuilt
from companion.rules.machi_koro.moves import Build, ChooseDice, EndTurn, Roll, TargetTvStation
from companion.rules.machi_koro.state import Phase
from companion.rules.ruleset import Played, Story

BUILD = Phase.BUILD


def start_game(options, names):
    """A game's start from the options its campaign made, through its set-up as the hall does."""
    return LEGACY.start(LEGACY.table_setup(options), names, options)


def refused(state, seat, move, error):
    """The move is refused with `error`, and nothing changes (decide returns no facts)."""
    before = coins(state)
    with pytest.raises(error):
        decide(state, seat, move)
    assert coins(state) == before


# ---------------------------------------------------------------- three landmarks, any order


def test_ruling_15_any_three_landmarks_of_the_catalog_per_player_in_letter_order():
    raw = setup_raw(2, landmarks=[["radio_tower", "smithy", "amusement_park"], ABC])
    setup = parse_setup(raw)
    assert setup.landmarks == (("smithy", "radio_tower", "amusement_park"), tuple(ABC))


@pytest.mark.parametrize("landmarks, field", [
    ([["smithy", "florist"], ABC], r"^landmarks\[0\]: 3 landmarks"),
    ([["smithy", "florist", "smithy"], ABC], r"^landmarks\[0\]\[2\]: 'smithy' is chosen twice"),
    ([ABC, ["smithy", "florist", "statue"]], r"^landmarks\[1\]\[2\]: no landmark 'statue'"),
    ([ABC], r"^landmarks: a list per player"),
])
def test_ruling_15_three_different_landmarks_each(landmarks, field):
    with pytest.raises(BadSetup, match=field):
        parse_setup(setup_raw(2, landmarks=landmarks))


def test_ruling_15_an_archived_landmark_is_not_chosen():
    raw = setup_raw(2)
    raw["catalog"]["landmarks"][3]["status"] = "archive"
    raw["landmarks"][1] = ["smithy", "florist", "radio_tower"]
    with pytest.raises(BadSetup, match=r"^landmarks\[1\]\[2\]: 'radio_tower' is archived"):
        parse_setup(raw)


def test_ruling_15_landmarks_are_built_in_any_order():
    state = game("A 30 | B 0", phase=BUILD)
    state, facts = play(state, 0, Build("fountain"))
    assert facts == [CoinsTransferred(0, "bank", 10, "fountain"), LandmarkBuilt(0, "fountain")]
    assert state.table.players[0].landmarks == {"fountain"}


def test_ruling_15_only_the_seats_own_landmarks_are_built():
    state = game("A 30 | B 0", phase=BUILD)
    refused(state, 0, Build("radio_tower"), NotYourLandmark)


def test_ruling_15_a_landmark_is_built_once():
    refused(game("A 30 +smithy | B 0", phase=BUILD), 0, Build("smithy"), AlreadyOwned)


def test_ruling_15_a_landmark_costs_its_cost_or_its_slot_on_the_tableau():
    refused(game("A 7 | B 0", phase=BUILD), 0, Build("florist"), CannotAfford)
    slots = setup_raw(2, slot_costs=[1, 2, 3])
    state, facts = play(game("A 7 | B 0", phase=BUILD, setup=slots), 0, Build("fountain"))
    assert facts[0] == CoinsTransferred(0, "bank", 3, "fountain")  # the third slot


def test_ruling_15_the_smithy_lets_its_owner_roll_two_dice():
    refused(game("A 3 | B 0"), 0, ChooseDice(2), BadDice)
    state, _ = play(game("A 3 +smithy | B 0"), 0, ChooseDice(1))
    state, _ = play(state, 0, ChooseDice(2))
    assert state.table.players[0].dice_count == 2


def test_ruling_15_views_show_each_landmark_with_its_letter():
    state = game("A 30 +florist | B 0")
    view = LEGACY.common_view(Story(("A", "B"), state, running=True))
    assert [(lm["letter"], lm["built"]) for lm in view["legacy"]["landmarks"][0]] == [
        ("A", False), ("B", True), ("C", False)]
    tile = LEGACY.tile_view(Story(("A", "B"), state, running=True))
    assert [lm["letter"] for lm in tile["legacy"]["landmarks"][1]] == ["A", "B", "C"]


# ---------------------------------------------------------------- the community landmark


def test_ruling_15_contributing_pays_the_cost_and_takes_the_bonus():
    state, facts = play(game("A 6 | B 0", phase=BUILD), 0, Contribute())
    assert facts == [CoinsTransferred(0, "bank", 5, "statue"), Contributed(0, "statue"),
                     CoinsTransferred("bank", 0, 2, "statue")]
    assert coins(state) == [3, 0] and state.contributed == (0,)


def test_ruling_15_a_bonus_the_engine_cannot_play_is_settled_by_hand():
    state, facts = play(game("A 6 | B 0", phase=BUILD, setup=setup_raw(2, community="lighthouse")),
                        0, Contribute())
    assert facts == [CoinsTransferred(0, "bank", 6, "lighthouse"), Contributed(0, "lighthouse")]
    view = LEGACY.common_view(Story(("A", "B"), state, running=True))
    assert view["legacy"]["community"]["bonus"]["kind"] == "manual"


def test_ruling_15_each_player_contributes_once_per_game():
    state = game("A 20 | B 0", phase=BUILD, contributed=(0,))
    refused(state, 0, Contribute(), AlreadyContributed)


def test_ruling_15_a_contribution_needs_its_cost():
    refused(game("A 4 | B 0", phase=BUILD), 0, Contribute(), CannotAfford)


def test_ruling_15_every_player_may_contribute_and_the_views_say_who():
    state = game("A 9 | B 9", phase=BUILD, contributed=(1,))
    state, _ = play(state, 0, Contribute())
    assert state.contributed == (1, 0)
    view = LEGACY.common_view(Story(("A", "B"), state, running=True))
    assert view["legacy"]["community"]["contributed"] == [1, 0]
    assert LEGACY.tile_view(Story(("A", "B"), state))["legacy"]["community"]["id"] == "statue"


def test_ruling_15_a_contribution_may_come_before_any_landmark():
    state, _ = play(game("A 5 | B 0", phase=BUILD), 0, Contribute())
    assert state.table.players[0].landmarks == frozenset()


# ---------------------------------------------------------------- one action per turn


@pytest.mark.parametrize("first, then", [
    (Build("ranch"), Contribute()), (Contribute(), Build("smithy")),
    (Build("smithy"), Build("ranch")), (Build("smithy"), Build("florist")),
    (Contribute(), Build("ranch")),
])
def test_ruling_15_one_action_per_turn(first, then):
    state, _ = play(game("A 40 | B 0", phase=BUILD), 0, first)
    refused(state, 0, then, AlreadyBuilt)


def test_ruling_15_the_action_comes_after_the_roll_on_the_players_own_turn():
    refused(game("A 40 | B 0"), 0, Contribute(), Exception)  # the roll phase
    refused(game("A 40 | B 40", phase=BUILD), 1, Contribute(), NotYourTurn)
    refused(game("A 40 | B 40", phase=BUILD), 1, Build("smithy"), NotYourTurn)


def test_ruling_15_a_new_turn_brings_a_new_action():
    state, _ = play(game("A 40 | B 40", phase=BUILD), 0, Contribute())
    state, _ = play(state, 0, EndTurn())
    state, _ = play(state, 1, Roll((5,)))
    state, _ = play(state, 1, Contribute())
    assert state.contributed == (0, 1)


# ---------------------------------------------------------------- the win


def test_ruling_15_all_landmarks_without_the_contribution_do_not_win():
    state, facts = play(game("A 40 +smithy +florist | B 0", phase=BUILD), 0, Build("fountain"))
    assert not any(isinstance(f, GameWon) for f in facts) and LEGACY.result(state) is None


def test_ruling_15_the_last_landmark_after_the_contribution_wins():
    state = game("A 40 +smithy +florist | B 0", phase=BUILD, contributed=(0,))
    state, facts = play(state, 0, Build("fountain"))
    assert facts[-1] == GameWon(0)
    assert LEGACY.result(state).outcomes == ("won", "lost")


def test_ruling_15_the_contribution_after_the_last_landmark_wins():
    state, facts = play(game("A 40 +smithy +florist +fountain | B 0", phase=BUILD), 0, Contribute())
    assert facts[-1] == GameWon(0)
    with pytest.raises(Exception, match="the game is over"):
        decide(state, 1, Roll((3,)))


def test_ruling_15_the_contribution_with_two_landmarks_does_not_win():
    _, facts = play(game("A 40 +smithy +florist | B 0", phase=BUILD), 0, Contribute())
    assert not any(isinstance(f, GameWon) for f in facts)


def test_ruling_15_only_the_seats_own_landmarks_count_for_the_win():
    raw = setup_raw(2, landmarks=[ABC, ["radio_tower", "smithy", "florist"]])
    state = game("A 40 | B 40 +smithy +florist +fountain", phase=BUILD, active=1, setup=raw,
                 contributed=(1,))
    _, facts = play(state, 1, Build("radio_tower"))
    assert facts[-1] == GameWon(1)


# ---------------------------------------------------------------- start players


def test_ruling_15_the_first_game_starts_with_the_highest_two_dice():
    campaign, facts = new_campaign()
    campaign, facts = run(campaign, facts, RollForStart([[1, 2], [6, 5], [4, 4]]))
    assert campaign.start_roll.winner == 1
    campaign, facts = run(campaign, facts, StartGame())
    assert game_options(campaign, 1)["first"] == 1
    assert start_game(game_options(campaign, 1), ("Joke", "Ben", "Toon")).table.active == 1


def test_ruling_15_a_tie_for_the_highest_rolls_again_among_the_tied():
    campaign, facts = new_campaign()
    campaign, facts = run(campaign, facts, RollForStart([[6, 4], [1, 1], [5, 5]]))
    assert campaign.start_roll.winner is None and campaign.start_roll.contenders == (0, 2)
    with pytest.raises(RollOff, match="Joke, Toon"):
        run(campaign, facts, RollForStart([[1, 1], [2, 2], [3, 3]]))
    campaign, facts = run(campaign, facts, RollForStart([[2, 3], [6, 1]]))
    assert campaign.start_roll.winner == 2


def test_ruling_15_no_game_starts_before_the_start_player_is_rolled():
    campaign, facts = new_campaign()
    with pytest.raises(Exception, match="roll for the first start player"):
        run(campaign, facts, StartGame())


def test_ruling_15_later_games_start_with_the_last_winner():
    campaign, facts = new_campaign()
    campaign, facts = run(campaign, facts, RollForStart([[6, 6], [1, 1], [2, 2]]), StartGame(),
                          RecordGame(1, 2, "2026-11-24"))
    campaign, facts = finish_checklist(campaign, facts, 1)
    campaign, facts = run(campaign, facts, StartGame())
    assert game_options(campaign, 2)["first"] == 2


# ---------------------------------------------------------------- the register


def test_ruling_15_the_register_keeps_date_winner_and_city_per_game():
    campaign, facts = new_campaign()
    campaign, facts = run(campaign, facts, RollForStart([[6, 6], [1, 1], [2, 2]]), StartGame(),
                          RecordGame(1, 1, "2026-11-24"))
    assert register_json(campaign) == [
        {"game": 1, "date": "2026-11-24", "winner": 1, "name": "Ben", "city": "Havenstad"}]


# ---------------------------------------------------------------- the growing catalog


def test_ruling_15_a_new_card_is_data_and_joins_the_next_games_supply_in_activation_order():
    campaign, facts = new_campaign()
    card = est("flower_garden", "blue", [4], 2, "wheat", {"kind": "income", "amount": 1},
               copies=5)
    campaign, facts = run(campaign, facts, RollForStart([[6, 6], [1, 1], [2, 2]]),
                          AddEntry("establishments", card), StartGame())
    state = start_game(game_options(campaign, 1), ("Joke", "Ben", "Toon"))
    supply = list(state.table.supply)
    assert supply.index("convenience_store") < supply.index("flower_garden") < supply.index("forest")
    assert state.table.supply["flower_garden"] == 5


def test_ruling_15_a_game_plays_the_catalog_as_it_stood_when_it_started():
    campaign, facts = new_campaign()
    campaign, facts = run(campaign, facts, RollForStart([[6, 6], [1, 1], [2, 2]]), StartGame())
    options = game_options(campaign, 1)
    card = est("late_card", "blue", [4], 2, "wheat", {"kind": "income", "amount": 1})
    campaign, facts = run(campaign, facts, AddEntry("establishments", card),
                          SetStatus("ranch", "archive"))
    assert game_options(campaign, 1) == options
    state = start_game(options, ("Joke", "Ben", "Toon"))
    assert "late_card" not in state.table.supply and "ranch" in state.table.supply


def test_ruling_15_the_supply_lies_in_activation_order():
    state = start()
    firsts = [state.rules.establishments[card].activation[0] for card in state.table.supply]
    assert firsts == sorted(firsts)


def test_ruling_15_starting_town_square_cards_are_chosen_per_player():
    state = start(2, town_square=[["wheat_field"], ["bakery", "wheat_field"]])
    assert state.table.players[0].cards == {"wheat_field": 1}
    assert state.table.players[1].cards == {"bakery": 1, "wheat_field": 1}
    assert coins(state) == [3, 3]
    with pytest.raises(BadSetup, match=r"^town_square\[1\]\[0\]: 'ranch' is not a town-square"):
        start(2, town_square=[[], ["ranch"]])


def test_ruling_15_income_is_the_base_games_red_first():
    state = game("A 1 bakery | B 0 cafe*2")
    _, facts = play(state, 0, Roll((3,)))
    paid = [(f.source, f.target, f.amount, f.forgiven) for f in facts
            if isinstance(f, CoinsTransferred)]
    assert paid == [(0, 1, 1, 1), ("bank", 0, 1, 0)]


def test_ruling_15_a_label_count_of_unique_cards_counts_each_kind_once():
    state = game("A 0 tea_house cafe*3 sushi_bar +smithy | B 0")
    _, facts = play(state, 0, Roll((3, 5)))
    assert [f.amount for f in facts if isinstance(f, CoinsTransferred)] == [2 * 3]  # 3 kinds


def test_ruling_15_a_card_that_requires_a_landmark_pays_once_it_is_built():
    _, facts = play(game("A 5 | B 0 sushi_bar"), 0, Roll((1,)))
    assert not [f for f in facts if isinstance(f, CoinsTransferred)]
    _, facts = play(game("A 5 | B 0 sushi_bar +florist"), 0, Roll((1,)))
    assert [f.amount for f in facts if isinstance(f, CoinsTransferred)] == [4]  # 3 + the mall's 1


def test_ruling_15_a_card_that_takes_from_one_player_may_have_any_id():
    raw = catalog_raw()
    raw["establishments"][7]["id"] = "tax_office"
    state = game("A 0 tax_office | B 4 | C 9", setup=setup_raw(3, catalog=raw))
    state, facts = play(state, 0, Roll((6,)))
    assert state.table.phase is Phase.CHOOSE
    refused(state, 1, TargetTvStation(2), NotYourTurn)
    refused(state, 0, TargetTvStation(0), InvalidChoice)
    state, facts = play(state, 0, TargetTvStation(1))
    assert facts[0] == CoinsTransferred(1, 0, 4, "tax_office", forgiven=1)
    refused(state, 0, TargetTvStation(1), WrongPhase)
    over = game("A 0 | B 4", phase=Phase.FINISHED, winner=1)
    refused(over, 0, TargetTvStation(1), GameOver)


# ---------------------------------------------------------------- manual cards


def test_ruling_15_a_manual_card_is_noted_when_it_activates_and_settled_by_a_correction():
    state = game("A 0 festival | B 2 pickpocket festival*2 +smithy", active=1)
    state, facts = play(state, 1, Roll((4, 6)))
    assert not any(isinstance(f, ManualCardsActivated) for f in facts)  # red: not the roller's
    before = game("A 0 festival pickpocket | B 2 festival*2 +smithy", active=1)
    state, facts = play(before, 1, Roll((4, 5)))
    note = next(f for f in facts if isinstance(f, ManualCardsActivated))
    assert list(zip(note.seats, note.cards, note.copies, strict=True)) == [
        (1, "festival", 2), (0, "festival", 1)]
    story = Story(("A", "B"), state, moves=[Played(1, "hall", facts, before)], running=True)
    assert LEGACY.common_view(story)["legacy"]["manual"] == [
        {"seat": 1, "card": "festival", "copies": 2, "total": 9},
        {"seat": 0, "card": "festival", "copies": 1, "total": 9}]
    settled = LEGACY.adjust(state, 0, 1, "Festival")
    assert settled == [CoinsAdjusted(0, 1, "Festival")]
    assert LEGACY.evolve(state, settled).table.players[0].coins == 1


def test_ruling_15_a_manual_red_card_is_noted_at_its_owner_on_anothers_roll():
    state = game("A 0 pickpocket | B 5 +smithy | C 5", active=1, setup=setup_raw(3))
    _, facts = play(state, 1, Roll((4, 6)))
    note = next(f for f in facts if isinstance(f, ManualCardsActivated))
    assert (note.seats, note.cards, note.total) == ((0,), ("pickpocket",), 10)
