"""A Legacy campaign: its group, its journal (replayed from records), the first roll, games
started in turn with the catalog frozen in each, the register, the end-of-game checklist."""

import copy
import json

import pytest
from test_legacy_builders import GROUP, est, finish_checklist, new_campaign, run

from companion.rules.errors import BadMove, CatalogError
from companion.rules.legacy import campaign_facts as cf
from companion.rules.legacy.campaign import (
    check_date,
    create,
    decide,
    game_options,
    replay,
    table_names,
)
from companion.rules.legacy.campaign_commands import (
    AddEntry,
    RecordGame,
    ReplaceEntry,
    RollForStart,
    SetPicks,
    SetStatus,
    StartGame,
    TickStep,
    WithdrawGame,
    parse_command,
)
from companion.rules.legacy.campaign_views import campaign_json
from companion.rules.legacy.errors import (
    BadGroup,
    BadResult,
    BadSetup,
    CampaignOver,
    NotReady,
    RollOff,
)
from companion.rules.legacy.ruleset import LEGACY
from companion.rules.legacy.series import withdraw_command

ROLLED = RollForStart([[6, 6], [1, 1], [2, 2]])
NAMES = {"en": "New", "he": "New", "nl": "Nieuw"}


def new_cards(number: int) -> list[AddEntry]:
    """What the legacy deck gives before game `number`: a landmark and a community landmark."""
    letter = "FGHIJKLMNOP"[number - 2]
    return [AddEntry("landmarks", {"id": f"landmark_{letter.lower()}", "names": NAMES,
                                   "letter": letter, "cost": number,
                                   "effect": {"kind": "none"}}),
            AddEntry("community", {"id": f"community_{number}", "names": NAMES, "cost": 3,
                                   "bonus": {"kind": "none"}})]


def group(**change: object) -> list:
    mayors = copy.deepcopy(GROUP)
    seat = change.pop("seat", 1)
    mayors[seat].update(change)
    return mayors


@pytest.mark.parametrize("mayors, path", [
    (GROUP[:1], r"^mayors: a list of 2-4 players"),
    ([*GROUP, *GROUP[:2]], r"^mayors: a list of 2-4"),
    (group(name=""), r"^mayors\[1\]\.name: 1-40 characters"),
    (group(city="x" * 41), r"^mayors\[1\]\.city: 1-40 characters"),
    (group(colour="pink"), r"^mayors\[1\]\.colour: one of red, blue"),
    (group(name="joke"), r"^mayors\[1\]\.name: 'joke' is already Joke's"),
    (group(colour="red"), r"^mayors\[1\]\.colour: 'red' is already Joke's"),
    (group(city="ZONNEDAL"), r"^mayors\[1\]\.city: 'ZONNEDAL' is already Joke's"),
    (group(age=7), r"^mayors\[1\]: an object with name, colour and city"),
])
def test_campaign_group_refusal_names_the_field(mayors, path):
    with pytest.raises(BadGroup, match=path):
        create("Island", mayors)


def test_campaign_needs_a_name_and_a_catalog_that_checks():
    with pytest.raises(BadGroup, match=r"^name: "):
        create(" ", GROUP)
    with pytest.raises(CatalogError, match=r"^landmarks\[0\]\.letter"):
        create("Island", GROUP, {"landmarks": [{"id": "x", "names": NAMES, "letter": "?"}]})
    campaign = replay(create("Island", GROUP))
    assert campaign.catalog.establishments == () and table_names(campaign) == ("Joke", "Ben", "Toon")


def test_campaign_roll_for_start_refusals():
    campaign, facts = new_campaign()
    with pytest.raises(RollOff, match=r"^dice: two dice for each of Joke, Ben, Toon"):
        run(campaign, facts, RollForStart([[1, 2]]))
    with pytest.raises(RollOff, match=r"^dice\[2\]: two dice 1-6"):
        run(campaign, facts, RollForStart([[1, 2], [3, 4], [7, 1]]))
    campaign, facts = run(campaign, facts, ROLLED)
    with pytest.raises(RollOff, match="already rolled: Joke"):
        run(campaign, facts, ROLLED)


def played(number_of_games: int):
    """A campaign whose first games are started, recorded (Ben, Toon, Joke ...) and their
    checklists done."""
    campaign, facts = run(*new_campaign(), ROLLED)
    for number in range(1, number_of_games + 1):
        more = new_cards(number) if number > 1 else []
        campaign, facts = run(campaign, facts, *more, StartGame(),
                              RecordGame(number, number % 3, f"2026-11-{number:02d}"))
        campaign, facts = finish_checklist(campaign, facts, number)
    return campaign, facts


def test_campaign_a_game_waits_for_the_last_ones_register_and_checklist():
    campaign, facts = run(*new_campaign(), ROLLED, StartGame())
    with pytest.raises(NotReady, match="record game 1's winner first"):
        run(campaign, facts, StartGame())
    campaign, facts = run(campaign, facts, RecordGame(1, 0, "2026-11-24"))
    with pytest.raises(NotReady, match="game 1's end-of-game step 2 is not done"):
        run(campaign, facts, StartGame())
    assert campaign_json(campaign)["next"]["why"] == "legacy/not_ready"


def test_campaign_has_ten_games():
    campaign, facts = played(10)
    with pytest.raises(CampaignOver, match="10 games"):
        run(campaign, facts, StartGame())
    assert [line["game"] for line in campaign_json(campaign)["register"]] == list(range(1, 11))


@pytest.mark.parametrize("command, error, path", [
    (RecordGame(2, 0, "2026-11-24"), BadResult, r"^number: no game 2"),
    (RecordGame(1, 3, "2026-11-24"), BadResult, r"^winner: a mayor's seat 0-2"),
    (RecordGame(1, True, "2026-11-24"), BadResult, r"^winner"),
    (RecordGame(1, 0, "24-11-2026"), BadResult, r"^date: a date YYYY-MM-DD"),
    (RecordGame(1, 0, "2026-02-29"), BadResult, r"^date"),
    (RecordGame(1, 0, "2026-13-01"), BadResult, r"^date"),
    (TickStep(1, 2), NotReady, r"record game 1's winner first"),
    (TickStep(1, 9), NotReady, r"^step: a step 1-8"),
])
def test_campaign_record_refusals(command, error, path):
    campaign, facts = run(*new_campaign(), ROLLED, StartGame())
    with pytest.raises(error, match=path):
        run(campaign, facts, command)


def test_campaign_dates_of_the_calendar():
    assert check_date("2028-02-29") == "2028-02-29"
    for bad in ("2100-02-29", "2026-04-31", "2026-1-01", 20261124, None):
        with pytest.raises(BadResult):
            check_date(bad)


def test_campaign_a_game_is_recorded_once():
    campaign, facts = run(*new_campaign(), ROLLED, StartGame(), RecordGame(1, 0, "2026-11-24"))
    with pytest.raises(BadResult, match="already recorded"):
        run(campaign, facts, RecordGame(1, 1, "2026-11-25"))


@pytest.mark.parametrize("start, path", [
    (StartGame(landmarks=[["smithy", "florist", "fountain"]] * 2), r"^landmarks: a list per player \(3"),
    (StartGame(town_square=[["wheat_field"], ["wheat_field", "bakery"], ["bakery", "wheat_field"]]),
     r"^town_square\[0\]: Joke chooses 2 town-square cards, got 1"),
    (StartGame(community="castle"), r"^community: no community landmark 'castle'"),
    (StartGame(slot_costs=[1, 2]), r"^slot_costs: null or 3 whole numbers"),
])
def test_campaign_start_game_refusal_names_the_field(start, path):
    campaign, facts = run(*new_campaign(), ROLLED)
    with pytest.raises(BadSetup, match=path):
        run(campaign, facts, start)


def test_campaign_reserve_cards_are_not_chosen():
    campaign, facts = run(*new_campaign(), ROLLED, SetStatus("fountain", "reserve"),
                          SetStatus("lighthouse", "reserve"))
    with pytest.raises(BadSetup, match=r"^landmarks\[0\]\[2\]: 'fountain' is in the reserve"):
        run(campaign, facts, StartGame(landmarks=[["smithy", "florist", "fountain"]] * 3))
    with pytest.raises(BadSetup, match=r"^community: 'lighthouse' is in the reserve"):
        run(campaign, facts, StartGame(community="lighthouse"))


def test_campaign_the_proposal_is_the_three_lowest_letters_and_the_newest_community_card():
    campaign, facts = run(*new_campaign(), ROLLED, SetPicks(2, 1))
    proposal = campaign_json(campaign)["next"]["proposal"]
    assert proposal["landmarks"] == [["smithy", "florist", "fountain"]] * 3
    assert proposal["community"] == "lighthouse"
    assert proposal["town_square"] == [["wheat_field", "bakery"]] * 2 + [["wheat_field"]]
    with pytest.raises(BadGroup, match=r"^picks: "):
        run(campaign, facts, SetPicks(0, -1))
    with pytest.raises(BadGroup, match=r"^seat: "):
        run(campaign, facts, SetPicks(3, 1))


def test_campaign_checklist_goes_in_the_books_order_and_archives_steps_2_and_3():
    campaign, facts = run(*new_campaign(), ROLLED, StartGame(), RecordGame(1, 1, "2026-11-24"))
    steps = campaign_json(campaign)["checklist"]
    assert [step["key"] for step in steps] == [
        "register", "archive_community", "archive_landmarks", "town_square_cards",
        "double_sided_cards", "city_to_reserve", "rebuild_supply", "coins_to_bank"]
    assert steps[0]["done"] and steps[0]["register"]["name"] == "Ben"
    assert steps[2]["cards"] == ["smithy"] and steps[2]["letters"] == ["A"]
    assert steps[3]["to_archive"] == 1 and steps[4]["chooser"] == "Ben"
    with pytest.raises(NotReady, match="step 2 of game 1 comes first"):
        run(campaign, facts, TickStep(1, 3))
    with pytest.raises(NotReady, match="already done"):
        run(campaign, facts, TickStep(1, 1))
    campaign, facts = run(campaign, facts, TickStep(1, 2), TickStep(1, 3))
    assert campaign.catalog.community_landmark("lighthouse").status == "archive"
    assert campaign.catalog.landmark("smithy").status == "archive"
    assert game_options(campaign, 1)["catalog"]["landmarks"][0]["status"] == "in_play"


def test_campaign_three_games_with_cards_added_between_them_replay_from_records():
    campaign, facts = run(*new_campaign(), ROLLED, StartGame(), RecordGame(1, 1, "2026-11-03"))
    campaign, facts = finish_checklist(campaign, facts, 1)
    radio = campaign.catalog.landmark("radio_tower")
    campaign, facts = run(
        campaign, facts,
        AddEntry("establishments", est("flower_orchard", "blue", [4], 2, "wheat",
                                       {"kind": "income", "amount": 1}, town_square=True)),
        AddEntry("community", {"id": "museum", "names": {"en": "Museum", "he": "M", "nl": "Museum"},
                               "cost": 8, "bonus": {"kind": "coins", "amount": 3}}),
        ReplaceEntry("establishments", est("ranch", "blue", [2], 2, "cow",
                                           {"kind": "income", "amount": 1})),
        SetPicks(0, 3), StartGame(town_square=[["wheat_field", "bakery", "flower_orchard"],
                                               ["wheat_field", "bakery"], ["bakery", "flower_orchard"]]))
    options = game_options(campaign, 2)
    assert options["first"] == 1 and options["community"] == "museum"
    assert options["landmarks"][0] == ["florist", "fountain", "radio_tower"]
    assert radio.letter == "D"
    checked = LEGACY.check_options(options)
    state = LEGACY.start(LEGACY.table_setup(checked), table_names(campaign), checked)
    assert state.table.players[0].cards == {"wheat_field": 1, "bakery": 1, "flower_orchard": 1}
    assert state.rules.establishments["ranch"].cost == 2
    assert game_options(campaign, 1)["catalog"]["establishments"][1]["cost"] == 1
    campaign, facts = run(campaign, facts, RecordGame(2, 2, "2026-11-10"))
    campaign, facts = finish_checklist(campaign, facts, 2)
    campaign, facts = run(campaign, facts, StartGame())
    assert game_options(campaign, 3)["first"] == 2
    records = json.loads(json.dumps([cf.encode(fact) for fact in facts]))
    again = replay([cf.decode(kind, data) for kind, data in records])
    assert again == campaign
    assert campaign_json(again) == campaign_json(campaign)


def test_campaign_withdraw_game_takes_the_last_line_back_and_the_game_is_recorded_again():
    """The undo of a game's winning move (hall/series.py `undoing`): its register line is
    withdrawn, the game is open again (no checklist, the next game waits), and a new line is
    written when it is won again; the withdrawn line stays in the view, crossed out."""
    campaign, facts = run(*new_campaign(), ROLLED, StartGame(), RecordGame(1, 1, "2026-11-24"),
                          TickStep(1, 2))
    new = decide(campaign, WithdrawGame(1))
    assert new == [cf.GameWithdrawn(1, 1, "2026-11-24", "Ben", "Havenstad")]
    assert cf.encode(new[0]) == ("LegacyGameWithdrawn", {
        "number": 1, "winner": 1, "date": "2026-11-24", "name": "Ben", "city": "Havenstad"})
    campaign, facts = run(campaign, facts, WithdrawGame(1))
    game = campaign.games[0]
    assert not game.recorded and game.steps_done == frozenset() and game.line is None
    assert campaign.catalog.community_landmark("lighthouse").status == "archive", "step 2 stays"
    view = campaign_json(campaign)
    assert view["register"] == [] and view["checklist"] is None
    withdrawn = {"game": 1, "date": "2026-11-24", "winner": 1, "name": "Ben", "city": "Havenstad"}
    assert view["withdrawn"] == [withdrawn] and view["games"][0]["withdrawn"] == [withdrawn]
    assert view["games"][0]["register"] is None and view["next"]["why"] == "legacy/not_ready"
    with pytest.raises(NotReady, match="record game 1's winner first"):
        run(campaign, facts, StartGame())
    with pytest.raises(BadResult, match=r"^number: game 1 is not recorded"):
        run(campaign, facts, WithdrawGame(1))
    campaign, facts = run(campaign, facts, RecordGame(1, 2, "2026-11-25"))
    view = campaign_json(campaign)
    assert [(line["game"], line["name"]) for line in view["register"]] == [(1, "Toon")]
    assert view["withdrawn"] == [withdrawn] and view["checklist"][0]["done"]
    campaign, facts = finish_checklist(campaign, facts, 1)
    campaign, facts = run(campaign, facts, StartGame())
    assert game_options(campaign, 2)["first"] == 2, "the winner recorded again starts"
    records = json.loads(json.dumps([cf.encode(fact) for fact in facts]))
    again = replay([cf.decode(kind, data) for kind, data in records])
    assert again == campaign and campaign_json(again) == campaign_json(campaign)


@pytest.mark.parametrize("command, error, path", [
    (WithdrawGame(3), BadResult, r"^number: no game 3"),
    (WithdrawGame("1"), BadResult, r"^number: no game '1'"),
    (WithdrawGame(2), BadResult, r"^number: game 2 is not recorded"),
    (WithdrawGame(1), NotReady, r"^number: game 2 has started from game 1's winner"),
])
def test_campaign_withdraw_game_refusals(command, error, path):
    """Only the last game's line, while the next game has not started from its winner."""
    campaign, facts = run(*new_campaign(), ROLLED, StartGame(), RecordGame(1, 1, "2026-11-24"))
    campaign, facts = finish_checklist(campaign, facts, 1)
    campaign, facts = run(campaign, facts, StartGame())
    with pytest.raises(error, match=path):
        run(campaign, facts, command)


def test_campaign_withdraw_command_of_the_series():
    """`series_withdraw`: the command that withdraws the last game's line, None when there is
    none to withdraw (not recorded, or a later game started)."""
    campaign, facts = run(*new_campaign(), ROLLED, StartGame())
    assert withdraw_command(campaign, 1) is None and withdraw_command(campaign, 0) is None
    campaign, facts = run(campaign, facts, RecordGame(1, 0, "2026-11-24"))
    assert LEGACY.series_withdraw(campaign, 1) == {"command": "withdraw_game", "number": 1}
    assert withdraw_command(campaign, 2) is None
    campaign, facts = finish_checklist(campaign, facts, 1)
    campaign, facts = run(campaign, facts, StartGame())
    assert withdraw_command(campaign, 1) is None


def test_campaign_records_of_an_unknown_kind_are_refused():
    with pytest.raises(BadMove, match="unknown campaign record"):
        cf.decode("Nothing", {})


@pytest.mark.parametrize("wire, command", [
    ({"command": "add_entry", "kind": "landmarks", "entry": {}}, AddEntry("landmarks", {})),
    ({"command": "roll_for_start", "dice": [[1, 2]]}, RollForStart([[1, 2]])),
    ({"command": "start_game"}, StartGame()),
    ({"command": "record_game", "number": 1, "winner": 0, "date": "2026-11-24"},
     RecordGame(1, 0, "2026-11-24")),
    ({"command": "tick_step", "number": 1, "step": 2}, TickStep(1, 2)),
    ({"command": "set_status", "card": "cafe", "status": "reserve"}, SetStatus("cafe", "reserve")),
    ({"command": "withdraw_game", "number": 1}, WithdrawGame(1)),
])
def test_campaign_commands_from_the_console(wire, command):
    assert parse_command(wire) == command


@pytest.mark.parametrize("wire, message", [
    ({"command": "fly"}, r"^command: one of add_entry"),
    ([], r"^command: "),
    ({"command": "start_game", "landmark": []}, r"^landmark: unknown field of start_game"),
])
def test_campaign_bad_commands(wire, message):
    with pytest.raises(BadMove, match=message):
        parse_command(wire)


def test_campaign_view_for_the_console():
    campaign, facts = run(*new_campaign(), RollForStart([[6, 5], [5, 6], [1, 1]]))
    view = campaign_json(campaign)
    assert view["start_roll"] == {"contenders": [0, 1], "winner": None, "rounds": [[[6, 5], [5, 6], [1, 1]]]}
    assert view["next"] == {**view["next"], "game": 1, "first": None, "ready": False}
    assert [m["picks"] for m in view["mayors"]] == [2, 2, 2]
    assert {card["kind"] for card in view["cards"]} == {"establishment", "landmark", "community"}
    assert view["checklist"] is None
