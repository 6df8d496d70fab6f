"""The Legacy catalog editor's checks: every entry checked like the base catalog, every refusal
naming its field's path; entries read back as written; the engine's catalog made from it."""

import copy

import pytest
from test_legacy_builders import CATALOG, COMMUNITY, ESTABLISHMENTS, LANDMARKS, catalog_raw, est

from companion.rules.errors import CatalogError, UnknownCard
from companion.rules.legacy.catalog import (
    catalog_json,
    engine_catalog,
    parse_catalog,
    with_entry,
    with_replaced,
    with_status,
)

CAFE = ESTABLISHMENTS[3]
FACTORY = ESTABLISHMENTS[9]
SMITHY, FLORIST = LANDMARKS[0], LANDMARKS[1]
STATUE = COMMUNITY[0]
N = len(ESTABLISHMENTS)


def changed(entry: dict, **fields: object) -> dict:
    """A copy of `entry` with new ids and `fields` (None: the field removed)."""
    new = copy.deepcopy(entry)
    new["id"] = "new_card"
    if "letter" in new:
        new["letter"] = "Z"
    for key, value in fields.items():
        if value is None:
            new.pop(key, None)
        else:
            new[key] = value
    return new


ESTABLISHMENT_REFUSALS = [
    ({"id": "New Card"}, r"^establishments\[15\]\.id: a snake_case id"),
    ({"names": None}, r"^establishments\[15\]\.names: an object with en, he, nl"),
    # one name is enough (issue 27): a card without any is refused
    ({"names": {"en": " ", "he": "", "nl": None}}, r"^establishments\[15\]\.names: a name in at least one"),
    ({"names": {}}, r"^establishments\[15\]\.names: a name in at least one"),
    ({"names": {"en": "X", "nl": 3}}, r"^establishments\[15\]\.names\.nl: a non-empty text"),
    ({"names": {"en": "X", "he": "X", "nl": "X", "fr": "X"}},
     r"^establishments\[15\]\.names\.fr: not a language"),
    ({"names": {"en": "X" * 61, "he": "X", "nl": "X"}}, r"^establishments\[15\]\.names\.en: at most 60"),
    ({"colour": "pink"}, r"^establishments\[15\]\.colour: one of blue, green, red, purple"),
    ({"activation": []}, r"^establishments\[15\]\.activation: a list of numbers 1-12"),
    ({"activation": "3"}, r"^establishments\[15\]\.activation: a list"),
    ({"activation": [3, 13]}, r"^establishments\[15\]\.activation\[1\]: a number 1-12 .*13"),
    ({"activation": [0]}, r"^establishments\[15\]\.activation\[0\]: a number 1-12"),
    ({"activation": [2, 2]}, r"^establishments\[15\]\.activation\[1\]: 2 is listed twice"),
    ({"activation": [True]}, r"^establishments\[15\]\.activation\[0\]"),
    ({"cost": -1}, r"^establishments\[15\]\.cost: a whole number 0-99"),
    ({"cost": 2.5}, r"^establishments\[15\]\.cost: a whole number"),
    ({"cost": None}, r"^establishments\[15\]\.cost"),
    ({"label": "rocket"}, r"^establishments\[15\]\.label: one of wheat, cow"),
    ({"copies": 31}, r"^establishments\[15\]\.copies: a whole number 0-30"),
    ({"town_square": "yes"}, r"^establishments\[15\]\.town_square: true or false"),
    ({"status": "lost"}, r"^establishments\[15\]\.status: one of in_play, reserve, archive"),
    ({"colur": "red"}, r"^establishments\[15\]\.colur: unknown field"),
    ({"requires_landmark": 3}, r"^establishments\[15\]\.requires_landmark: a landmark id"),
    ({"requires_landmark": "castle"}, r"^establishments\[15\]\.requires_landmark: no landmark 'castle'"),
    ({"effect": None}, r"^establishments\[15\]\.effect: an object with a kind"),
    ({"effect": {"kind": "income", "amount": 1}},
     r"^establishments\[15\]\.effect\.kind: one of take_from_roller, manual .* for a red card"),
    ({"effect": {"kind": "take_from_roller"}}, r"^establishments\[15\]\.effect\.amount: a whole number 1-99"),
    ({"effect": {"kind": "take_from_roller", "amount": 0}}, r"^establishments\[15\]\.effect\.amount"),
    ({"effect": {"kind": "take_from_roller", "amount": 1, "per": {}}},
     r"^establishments\[15\]\.effect\.per: unknown field"),
    ({"effect": {"kind": "manual"}}, r"^establishments\[15\]\.effect\.text: an object with en"),
    ({"effect": {"kind": "manual", "text": {"de": "x"}}}, r"^establishments\[15\]\.effect\.text\.de"),
    ({"effect": {"kind": "manual", "text": {"en": "x" * 401}}},
     r"^establishments\[15\]\.effect\.text\.en: at most 400"),
    ({"colour": "purple", "effect": {"kind": "take_from_one", "amount": 2}},
     r"^establishments\[15\]\.effect\.kind: only one card in play may take from one player"),
]


@pytest.mark.parametrize("fields, path", ESTABLISHMENT_REFUSALS)
def test_catalog_establishment_refusal_names_the_field(fields, path):
    with pytest.raises(CatalogError, match=path):
        with_entry(CATALOG, "establishments", changed(CAFE, **fields))


PER_REFUSALS = [
    ({"kind": "income_per_icon", "amount": 3}, r"\.effect\.per: an object is required"),
    ({"kind": "income_per_icon", "amount": 3, "per": {}}, r"\.effect\.per: exactly one of label"),
    ({"kind": "income_per_icon", "amount": 3, "per": {"label": "cow", "colour": "red"}},
     r"\.effect\.per: exactly one of"),
    ({"kind": "income_per_icon", "amount": 3, "per": {"label": "rocket"}}, r"\.effect\.per\.label: one of"),
    ({"kind": "income_per_icon", "amount": 3, "per": {"colour": "pink"}}, r"\.effect\.per\.colour"),
    ({"kind": "income_per_icon", "amount": 3, "per": {"card": "Mine!"}}, r"\.effect\.per\.card: a snake"),
    ({"kind": "income_per_icon", "amount": 3, "per": {"card": "castle"}},
     r"\.effect\.per\.card: no establishment 'castle'"),
    ({"kind": "income_per_icon", "amount": 3, "per": {"label": "cow", "unique": 1}},
     r"\.effect\.per\.unique: true or false"),
    ({"kind": "income_per_icon", "amount": 3, "per": {"label": "cow", "once": True}},
     r"\.effect\.per\.once: unknown field"),
    ({"kind": "swap"}, r"\.effect\.kind: one of income, income_per_icon, manual"),
]


@pytest.mark.parametrize("effect, path", PER_REFUSALS)
def test_catalog_effect_parameter_refusal_names_the_field(effect, path):
    with pytest.raises(CatalogError, match=r"^establishments\[15\]" + path):
        with_entry(CATALOG, "establishments", changed(FACTORY, effect=effect))


LANDMARK_REFUSALS = [
    ({"letter": "a"}, r"^landmarks\[5\]\.letter: a letter code A-Z"),
    ({"letter": "ABC"}, r"^landmarks\[5\]\.letter"),
    ({"letter": None}, r"^landmarks\[5\]\.letter"),
    ({"letter": "A"}, r"^landmarks\[5\]\.letter: 'A' is already landmarks\[0\]'s letter"),
    ({"cost": 100}, r"^landmarks\[5\]\.cost: a whole number 0-99"),
    ({"effect": {"kind": "income", "amount": 1}}, r"^landmarks\[5\]\.effect\.kind: one of two_dice"),
    ({"effect": {"kind": "mall_bonus", "amount": 1}}, r"^landmarks\[5\]\.effect\.labels: a list of labels"),
    ({"effect": {"kind": "mall_bonus", "amount": 1, "labels": ["cup", "cup"]}},
     r"^landmarks\[5\]\.effect\.labels\[1\]"),
    ({"effect": {"kind": "two_dice", "amount": 1}}, r"^landmarks\[5\]\.effect\.amount: unknown field"),
    ({"bonus": {"kind": "coins"}}, r"^landmarks\[5\]\.bonus: unknown field"),
]


@pytest.mark.parametrize("fields, path", LANDMARK_REFUSALS)
def test_catalog_landmark_refusal_names_the_field(fields, path):
    with pytest.raises(CatalogError, match=path):
        with_entry(CATALOG, "landmarks", changed(FLORIST, **fields))


COMMUNITY_REFUSALS = [
    ({"bonus": None}, r"^community\[2\]\.bonus: an object with a kind"),
    ({"bonus": {"kind": "two_dice"}}, r"^community\[2\]\.bonus\.kind: one of coins, none, manual"),
    ({"bonus": {"kind": "coins"}}, r"^community\[2\]\.bonus\.amount: a whole number 1-99"),
    ({"cost": "5"}, r"^community\[2\]\.cost"),
    ({"letter": "Q"}, r"^community\[2\]\.letter: unknown field"),
]


@pytest.mark.parametrize("fields, path", COMMUNITY_REFUSALS)
def test_catalog_community_refusal_names_the_field(fields, path):
    with pytest.raises(CatalogError, match=path):
        with_entry(CATALOG, "community", changed(STATUE, **fields))


def test_catalog_lookups_name_the_missing_card():
    for find in (CATALOG.establishment, CATALOG.landmark, CATALOG.community_landmark):
        with pytest.raises(UnknownCard, match="'castle'"):
            find("castle")
    assert CATALOG.find("castle") is None and CATALOG.find("statue")[:2] == ("community", 0)


def test_catalog_a_long_value_is_cut_short_in_the_message():
    with pytest.raises(CatalogError, match=r"^establishments\[15\]\.id: .*'x{56}\.\.\.$"):
        with_entry(CATALOG, "establishments", {**CAFE, "id": "x" * 200})


def test_catalog_ids_are_unique_across_the_lists():
    with pytest.raises(CatalogError, match=r"^community\[2\]\.id: 'cafe' is already establishments\[3\]'s"):
        with_entry(CATALOG, "community", {**STATUE, "id": "cafe"})


def test_catalog_an_entry_must_be_an_object_of_a_known_list():
    with pytest.raises(CatalogError, match=r"^establishments\[15\]: an object is required"):
        with_entry(CATALOG, "establishments", ["cafe"])
    with pytest.raises(CatalogError, match=r"^kind: one of establishments, landmarks, community"):
        with_entry(CATALOG, "cards", CAFE)


def test_catalog_a_whole_catalog_names_the_entry_at_its_index():
    raw = catalog_raw()
    raw["establishments"][2]["activation"] = [2, 13]
    with pytest.raises(CatalogError, match=r"^establishments\[2\]\.activation\[1\]: "):
        parse_catalog(raw)
    with pytest.raises(CatalogError, match=r"^landmarks: a list is required"):
        parse_catalog({"landmarks": {}})
    with pytest.raises(CatalogError, match=r"^bank_coins: a whole number"):
        parse_catalog({"bank_coins": -1})
    with pytest.raises(CatalogError, match=r"^catalog\.cards: unknown field"):
        parse_catalog({"cards": []})


def test_catalog_reads_back_as_written():
    assert parse_catalog(catalog_json(CATALOG)) == CATALOG
    added = with_entry(CATALOG, "establishments", est("orchard", "blue", [10], 3, "wheat",
                                                      {"kind": "income", "amount": 3}))
    assert parse_catalog(catalog_json(added)) == added
    assert added.establishments[-1].id == "orchard" and CATALOG.establishments[-1].id != "orchard"


def test_catalog_a_replaced_entry_keeps_its_place_and_a_missing_one_is_named():
    fixed = with_replaced(CATALOG, "establishments", {**CAFE, "cost": 3})
    assert fixed.establishments[3].cost == 3 and CATALOG.establishments[3].cost == 2
    with pytest.raises(CatalogError, match=r"^establishments\.id: no entry 'castle' to replace"):
        with_replaced(CATALOG, "establishments", {**CAFE, "id": "castle"})
    with pytest.raises(CatalogError, match=r"^establishments\[3\]\.cost"):
        with_replaced(CATALOG, "establishments", {**CAFE, "cost": "x"})


def test_catalog_an_archived_card_stays_archived():
    archived = with_status(CATALOG, "cafe", "archive")
    assert archived.establishments[3].status == "archive"
    with pytest.raises(CatalogError, match=r"^establishments\[3\]\.status: 'cafe' is archived"):
        with_status(archived, "cafe", "in_play")
    with pytest.raises(CatalogError, match=r"^card: no card 'castle'"):
        with_status(CATALOG, "castle", "reserve")
    with pytest.raises(CatalogError, match=r"^landmarks\[0\]\.status: one of"):
        with_status(CATALOG, "smithy", "gone")


def test_catalog_a_second_card_taking_from_one_player_may_join_once_the_first_is_archived():
    taker = changed(ESTABLISHMENTS[7])
    with pytest.raises(CatalogError, match="only one card in play"):
        with_entry(CATALOG, "establishments", taker)
    assert with_entry(with_status(CATALOG, "tv_station", "archive"), "establishments", taker)


def test_catalog_the_engines_catalog_plays_manual_cards_as_paying_nothing():
    rules = engine_catalog(CATALOG)
    assert rules.establishments["festival"].amount == 0
    assert rules.establishments["festival"].effect == "income"
    assert rules.establishments["tea_house"].per.unique is True
    assert rules.landmarks["florist"].bonus_icons == {"cup", "bread"}
    assert engine_catalog(CATALOG) is rules  # made once per catalog


def test_catalog_reserve_cards_leave_the_supply_archived_ones_the_game():
    catalog = with_status(with_status(CATALOG, "ranch", "reserve"), "mine", "archive")
    rules = engine_catalog(catalog)
    assert "ranch" not in [card.id for card in catalog.supply()]
    assert rules.establishments["ranch"].copies == 0 and "mine" not in rules.establishments
    town = with_status(CATALOG, "wheat_field", "reserve")
    assert "wheat_field" in [card.id for card in town.town_square()]
