"""The base catalog's facts and the loader's refusals (RULES.md: card facts are data)."""


import pytest
from builders import assert_edit_refused

from companion.rules.errors import CatalogError
from companion.rules.machi_koro.catalog import CATALOG_DIR, LANGUAGES, load_catalog, load_catalog_file

BASE = CATALOG_DIR / "base.toml"


def test_catalog_base_box_counts():
    catalog = load_catalog()
    supply = [card for card in catalog.establishments.values()]
    assert sum(card.copies for card in supply if not card.is_purple) == 72
    assert sum(card.copies for card in supply if card.is_purple) == 12
    assert sum(card.starting for card in supply) * catalog.players_max == 8
    assert sum(lm.copies for lm in catalog.landmarks.values()) == 16
    assert len(catalog.establishments) == 15 and len(catalog.landmarks) == 4


def test_catalog_supply_is_in_activation_order():
    firsts = [card.activation[0] for card in load_catalog().establishments.values()]
    assert firsts == sorted(firsts)
    assert list(load_catalog().establishments)[0] == "wheat_field"
    assert list(load_catalog().establishments)[-1] == "fruit_and_vegetable_market"


@pytest.mark.parametrize(
    ("card", "colour", "icon", "activation", "cost", "amount"),
    [
        ("wheat_field", "blue", "wheat", (1,), 1, 1),
        ("ranch", "blue", "cow", (2,), 1, 1),
        ("bakery", "green", "bread", (2, 3), 1, 1),
        ("cafe", "red", "cup", (3,), 2, 1),
        ("convenience_store", "green", "bread", (4,), 2, 3),
        ("forest", "blue", "gear", (5,), 3, 1),
        ("stadium", "purple", "tower", (6,), 6, 2),
        ("tv_station", "purple", "tower", (6,), 7, 5),
        ("business_center", "purple", "tower", (6,), 8, 0),
        ("cheese_factory", "green", "factory", (7,), 5, 3),
        ("furniture_factory", "green", "factory", (8,), 3, 3),
        ("mine", "blue", "gear", (9,), 6, 5),
        ("family_restaurant", "red", "cup", (9, 10), 3, 2),
        ("apple_orchard", "blue", "wheat", (10,), 3, 3),
        ("fruit_and_vegetable_market", "green", "fruit", (11, 12), 2, 2),
    ],
)
def test_catalog_card_facts(card, colour, icon, activation, cost, amount):
    entry = load_catalog().establishments[card]
    assert (entry.colour, entry.icon, entry.activation, entry.cost, entry.amount) == (
        colour, icon, activation, cost, amount,
    )


def test_catalog_landmark_costs():
    costs = {lm.id: lm.cost for lm in load_catalog().landmarks.values()}
    assert costs == {"train_station": 4, "shopping_mall": 10, "amusement_park": 16,
                     "radio_tower": 22}


def test_catalog_every_card_named_in_three_languages():
    catalog = load_catalog()
    for card in [*catalog.establishments.values(), *catalog.landmarks.values()]:
        assert set(card.names) == set(LANGUAGES)
        assert all(name.strip() and name != "TODO" for name in card.names.values())
    assert catalog.establishments["stadium"].names["he"] == "אצטדיון"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('colour = "red"', 'colour = "pink"', "base.toml: cafe: colour: one of"),
        ("activation = [4]", "activation = [13]", "base.toml: convenience_store: activation"),
        ("cost = 22", "cost = -1", "base.toml: radio_tower: cost: a whole number"),
        ('per_icon = "cow"\n', "", "base.toml: cheese_factory: per_icon"),
        ('id = "mine"', 'id = "ranch"', "base.toml: ranch: id: used twice"),
        ('id = "forest"', 'id = "Forest!"', "base.toml: establishment #6: id"),
        ('nl = "Mijn"', 'nl = ""', "base.toml: mine: names.nl"),
    ],
)
def test_catalog_broken_entry_is_refused_naming_file_entry_field(tmp_path, old, new, message):
    assert_edit_refused(tmp_path, BASE, old, new, message.replace("(", r"\("), load_catalog_file)


def test_catalog_not_toml_is_refused(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text("[[establishment]\nid=", encoding="utf-8")
    with pytest.raises(CatalogError, match="broken.toml: cannot read"):
        load_catalog_file(broken)
