"""A Legacy campaign as a group starts and carries it (issue 27): from the base game's cards,
a card named in one language, the next game's set-up when no community landmark is left, and
the town-square cards of each player's colour."""

import copy
import json

import pytest
from test_legacy_builders import GROUP, est, finish_checklist, income, new_campaign, run

from companion.rules.errors import CatalogError
from companion.rules.legacy.base_box import base_catalog_json
from companion.rules.legacy.campaign import create, replay
from companion.rules.legacy.campaign_commands import (
    AddEntry,
    RecordGame,
    RollForStart,
    SetStatus,
    StartGame,
)
from companion.rules.legacy.campaign_views import campaign_json
from companion.rules.legacy.catalog import catalog_json, parse_catalog
from companion.rules.legacy.errors import BadSetup
from companion.rules.machi_koro.catalog import load_catalog

ROLLED = RollForStart([[6, 6], [1, 1], [2, 2]])
STATUE = {"id": "statue", "names": {"nl": "Standbeeld"}, "cost": 3, "bonus": {"kind": "none"}}


# ---------------------------------------------------------------- 1: the base game's cards


def test_base_box_is_the_base_sets_cards_in_three_languages():
    catalog = parse_catalog(base_catalog_json())
    base = load_catalog("base")
    assert [card.id for card in catalog.establishments] == list(base.establishments)
    assert [(lm.id, lm.letter) for lm in catalog.landmarks] == [
        ("train_station", "A"), ("shopping_mall", "B"), ("amusement_park", "C"), ("radio_tower", "D")]
    assert [card.id for card in catalog.town_square()] == ["wheat_field", "bakery"]
    assert dict(catalog.establishment("wheat_field").names) == dict(base.establishments["wheat_field"].names)
    mall = catalog.landmark("shopping_mall").effect
    assert (mall.kind, mall.amount, set(mall.labels)) == ("mall_bonus", 1, {"bread", "cup"})
    assert catalog.establishment("cheese_factory").effect.per.value == "cow"
    assert catalog.community == ()  # the base game has none: the group adds its box's


def test_base_box_starts_a_campaign_and_its_card_list_carries_it_to_another_laptop():
    facts = create("Our island", copy.deepcopy(GROUP), "base")
    campaign = replay(facts)
    assert campaign.catalog == parse_catalog(base_catalog_json())
    campaign, facts = run(campaign, facts, AddEntry("community", STATUE))
    exported = campaign_json(campaign)["catalog"]
    assert exported == catalog_json(campaign.catalog)
    # the file the console saves is this JSON; a new campaign on the other laptop takes it
    carried = replay(create("Our island", copy.deepcopy(GROUP), json.loads(json.dumps(exported))))
    assert carried.catalog == campaign.catalog


def test_base_box_campaign_plays_its_first_game():
    campaign, facts = run(replay(create("Our island", copy.deepcopy(GROUP), "base")), [],
                          AddEntry("community", STATUE), ROLLED, StartGame())
    setup = campaign.games[0].setup
    assert setup.landmarks == (("train_station", "shopping_mall", "amusement_park"),) * 3
    assert setup.town_square == (("wheat_field", "bakery"),) * 3


# ---------------------------------------------------------------- 2: one name is enough


def test_names_one_language_is_enough_the_others_fall_back_to_it():
    card = est("graanpakhuis", "blue", [4], 2, "wheat", income(2))
    card["names"] = {"nl": "Graanpakhuis", "he": "", "en": "  "}
    campaign, facts = run(*new_campaign(), AddEntry("establishments", card))
    entry = campaign.catalog.establishment("graanpakhuis")
    assert dict(entry.names) == {"en": "Graanpakhuis", "he": "Graanpakhuis", "nl": "Graanpakhuis"}
    assert replay(facts).catalog == campaign.catalog  # the journal reads back the same


def test_names_english_is_the_fallback_when_given():
    card = est("grain_store", "blue", [4], 2, "wheat", income(2))
    card["names"] = {"en": "Grain Store", "nl": "Graanpakhuis"}
    campaign, _ = run(*new_campaign(), AddEntry("establishments", card))
    names = campaign.catalog.establishment("grain_store").names
    assert dict(names) == {"en": "Grain Store", "he": "Grain Store", "nl": "Graanpakhuis"}


def test_names_none_at_all_is_refused_naming_the_field():
    card = est("nameless", "blue", [4], 2, "wheat", income(2))
    card["names"] = {"en": "", "he": " ", "nl": ""}
    with pytest.raises(CatalogError, match=r"^establishments\[15\]\.names: a name in at least one"):
        run(*new_campaign(), AddEntry("establishments", card))


# ---------------------------------------------------------------- 3: no community landmark left


def test_setup_without_a_community_landmark_in_play_says_what_to_do():
    campaign, facts = run(*new_campaign(), ROLLED, SetStatus("lighthouse", "archive"),
                          SetStatus("statue", "reserve"))
    assert campaign_json(campaign)["next"]["proposal"]["community"] is None
    with pytest.raises(BadSetup) as refused:
        run(campaign, facts, StartGame())
    message = str(refused.value)
    assert message.startswith("community: every game needs a community landmark")
    assert "add the next one from the legacy deck to the catalog" in message
    assert "None" not in message


def test_setup_after_game_one_archived_its_community_landmark_says_what_to_do():
    campaign, facts = run(*new_campaign(), ROLLED, StartGame(), RecordGame(1, 0, "2026-11-28"))
    campaign, facts = finish_checklist(campaign, facts, 1)
    campaign, facts = run(campaign, facts, SetStatus("statue", "archive"))  # as game 2 did
    with pytest.raises(BadSetup, match="the catalog has none in play"):
        run(campaign, facts, StartGame())


# ---------------------------------------------------------------- 4: each colour's own card


def colour_cards() -> list[AddEntry]:
    """Step 4 of game 1 (seed 002): four town-square cards, one per player colour."""
    return [AddEntry("establishments", est(f"square_{colour}", "blue", [7], 2, "wheat", income(2),
                                           copies=0, town_square=True, mayor_colour=colour))
            for colour in ("red", "blue", "green", "yellow")]


def test_town_square_proposal_gives_each_player_the_card_of_their_colour():
    campaign, facts = run(*new_campaign(), ROLLED, *colour_cards())
    proposal = campaign_json(campaign)["next"]["proposal"]["town_square"]
    # GROUP: Joke red, Ben blue, Toon green; each picks two
    assert proposal == [["square_red", "wheat_field"], ["square_blue", "wheat_field"],
                        ["square_green", "wheat_field"]]
    campaign, _ = run(campaign, facts, StartGame())
    assert campaign.games[0].setup.town_square[1] == ("square_blue", "wheat_field")


def test_town_square_card_of_another_colour_is_refused():
    campaign, facts = run(*new_campaign(), ROLLED, *colour_cards())
    with pytest.raises(BadSetup, match=r"^town_square\[0\]\[0\]: 'square_blue' is the blue "
                                       r"player's town-square card, not Joke's \(red\)"):
        run(campaign, facts, StartGame(town_square=[["square_blue", "bakery"],
                                                    ["wheat_field", "bakery"],
                                                    ["wheat_field", "bakery"]]))


def test_town_square_colour_only_on_a_town_square_card():
    card = est("red_only", "blue", [7], 2, "wheat", income(2), mayor_colour="red")
    with pytest.raises(CatalogError, match=r"^establishments\[15\]\.mayor_colour: only a town-square"):
        run(*new_campaign(), AddEntry("establishments", card))
    card = est("pink_square", "blue", [7], 2, "wheat", income(2), town_square=True, mayor_colour="pink")
    with pytest.raises(CatalogError, match=r"^establishments\[15\]\.mayor_colour: one of red"):
        run(*new_campaign(), AddEntry("establishments", card))
