"""The catalog schema's fields for the next card sets (issue 11 item 3): merged card sets,
activations above 12, `requires_landmark`, per-card counts, landmarks that start built or do
not count for the win. The fixture set `tests/data/catalogs/test_extra.toml` is not shipped."""

from pathlib import Path

import pytest
from builders import assert_edit_refused
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.errors import CatalogError
from companion.rules.machi_koro.activation import resolve_income
from companion.rules.machi_koro.catalog import (
    CATALOG_DIR,
    COLOURS,
    ICONS,
    PerCount,
    load_catalog,
    load_catalog_file,
    load_catalog_files,
)
from companion.rules.machi_koro.engine import decide
from companion.rules.machi_koro.facts import GameWon, LandmarkBuilt
from companion.rules.machi_koro.moves import Build
from companion.rules.machi_koro.state import Phase, Player, TableState, frozen_counts, new_table

BASE = CATALOG_DIR / "base.toml"
EXTRA = Path(__file__).resolve().parent / "data" / "catalogs" / "test_extra.toml"
MERGED = load_catalog_files(BASE, EXTRA)


def seat(name: str, coins: int, cards: dict[str, int], *landmarks: str) -> Player:
    return Player(name, coins, frozen_counts(cards), frozenset(landmarks), 2)


def table(*players: Player, active: int = 0, phase: Phase = Phase.ROLL) -> TableState:
    supply = frozen_counts({card.id: card.copies for card in MERGED.establishments.values()})
    return TableState("machi-koro", players, 100, supply, active=active, phase=phase)


def income(state: TableState, total: int) -> dict[str, int]:
    """What each seat gains (or loses) from a roll of `total` with the merged catalog."""
    transfers, _ = resolve_income(state, MERGED, total)
    gains = {player.name: 0 for player in state.players}
    for t in transfers:
        if t.target != "bank":
            gains[state.players[t.target].name] += t.amount
        if t.source != "bank":
            gains[state.players[t.source].name] -= t.amount
    return gains


# --- base.toml: unchanged by the new schema --------------------------------------------------

def test_catalog_schema_base_equals_base_with_every_default_spelled_out(tmp_path):
    text = BASE.read_text(encoding="utf-8")
    for icon in ("cow", "gear", "wheat"):
        text = text.replace(f'per_icon = "{icon}"', f'per = {{ icon = "{icon}", unique = false }}')
    text = text.replace("[[establishment]]\n", "[[establishment]]\n# requires_landmark: none\n")
    text = text.replace("[[landmark]]\n", "[[landmark]]\nstarts_built = false\ncounts_for_win = true\n")
    text = text.replace('set = "base"\n', 'set = "base"\nhighest_roll = 12\n')
    spelled = tmp_path / "base.toml"
    spelled.write_text(text, encoding="utf-8")
    assert load_catalog_file(spelled) == load_catalog_file(BASE) == load_catalog()


def test_catalog_schema_base_defaults():
    catalog = load_catalog()
    assert catalog is load_catalog("base")
    assert (catalog.name, catalog.card_sets, catalog.highest_roll) == ("base", ("base",), 12)
    assert len(catalog.by_roll) == 13
    assert catalog.landmarks_to_win == frozenset(catalog.landmarks)
    assert not any(lm.starts_built for lm in catalog.landmarks.values())
    assert not any(card.requires_landmark for card in catalog.establishments.values())
    assert {card.id: card.per for card in catalog.establishments.values() if card.per} == {
        "cheese_factory": PerCount("icon", "cow"),
        "furniture_factory": PerCount("icon", "gear"),
        "fruit_and_vegetable_market": PerCount("icon", "wheat"),
    }
    assert catalog.establishments["cheese_factory"].per_icon == "cow"
    assert new_table(catalog, ("A", "B")).players[0].landmarks == frozenset()


# --- card sets --------------------------------------------------------------------------------

def test_catalog_schema_sets_merge_in_order():
    base = load_catalog()
    assert MERGED.card_sets == ("base", "test_extra") and MERGED.name == "base+test_extra"
    assert (MERGED.players_min, MERGED.players_max, MERGED.starting_coins) == (2, 5, 3)
    assert MERGED.highest_roll == 14 and len(MERGED.by_roll) == 15
    assert set(MERGED.establishments) == set(base.establishments) | {
        "flower_garden", "flower_shop", "sushi_bar", "mackerel_boat", "food_warehouse", "tuna_boat",
    }
    firsts = [card.activation[0] for card in MERGED.establishments.values()]
    assert firsts == sorted(firsts)
    assert list(MERGED.establishments)[:2] == ["wheat_field", "sushi_bar"]
    assert list(MERGED.landmarks) == [*base.landmarks, "harbor", "city_hall"]
    assert MERGED.landmarks_to_win == frozenset(base.landmarks) | {"harbor"}
    assert [card.id for card in MERGED.by_roll[13]] == ["food_warehouse", "tuna_boat"]
    assert len(base.establishments) == 15  # the cached base catalog is untouched


def test_catalog_schema_unknown_set_is_refused():
    with pytest.raises(CatalogError, match="no card set 'harbour'"):
        load_catalog("base", "harbour")
    with pytest.raises(CatalogError, match="no card set '../base'"):
        load_catalog("../base")


# --- refusals name file, entry and field ------------------------------------------------------

@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('requires_landmark = "harbor"', 'requires_landmark = "port"',
         "test_extra.toml: sushi_bar: requires_landmark: no landmark 'port'"),
        ('requires_landmark = "harbor"', "requires_landmark = 3",
         "test_extra.toml: sushi_bar: requires_landmark: a landmark id"),
        ('per = { card = "flower_garden" }', 'per = { card = "rose_garden" }',
         "test_extra.toml: flower_shop: per.card: no establishment 'rose_garden'"),
        ('per = { card = "flower_garden" }', 'per = { label = "wheat" }',
         "test_extra.toml: flower_shop: per: exactly one of icon, colour, card"),
        ('per = { card = "flower_garden" }', 'per = { icon = "wheat", colour = "blue" }',
         "test_extra.toml: flower_shop: per: exactly one"),
        ('per = { card = "flower_garden" }', 'per = { icon = "rose" }',
         "test_extra.toml: flower_shop: per.icon: an icon is required"),
        ('per = { card = "flower_garden" }', 'per = "flower_garden"',
         "test_extra.toml: flower_shop: per: a table is required"),
        ('per = { card = "flower_garden" }', 'per = { card = "flower_garden" }\nper_icon = "wheat"',
         "test_extra.toml: flower_shop: per: give per_icon or per, not both"),
        ("unique = true", 'unique = "yes"', "test_extra.toml: food_warehouse: per.unique: true or false"),
        ('requires_landmark = "harbor"\ncopies', 'per = { icon = "cup" }\ncopies',
         "test_extra.toml: sushi_bar: per: only for income, income_per_icon"),
        ("starts_built = true", 'starts_built = "true"', "test_extra.toml: city_hall: starts_built"),
        ("counts_for_win = false", "counts_for_win = 0", "test_extra.toml: city_hall: counts_for_win"),
        ("highest_roll = 14", "highest_roll = 15",
         "test_extra.toml: meta: highest_roll: a whole number 12-14"),
        ("highest_roll = 14", "highest_roll = 13",
         r"test_extra.toml: tuna_boat: activation: a list of numbers 1-13 required \(meta.highest_roll\)"),
        ("activation = [12, 13, 14]", "activation = [15]", "test_extra.toml: tuna_boat: activation"),
        ("activation = [12, 13, 14]", "activation = [12, 12]", "test_extra.toml: tuna_boat: activation"),
        ('id = "flower_garden"', 'id = "ranch"', "test_extra.toml: ranch: id: used twice"),
        ('set = "test_extra"', 'set = "Test Extra"', "test_extra.toml: meta: set: a snake_case name"),
    ],
)
def test_catalog_schema_broken_field_is_refused_naming_file_entry_field(tmp_path, old, new, message):
    assert_edit_refused(tmp_path, EXTRA, old, new, message, lambda broken: load_catalog_files(BASE, broken))


def test_catalog_schema_no_landmark_counting_for_the_win_is_refused(tmp_path):
    text = BASE.read_text(encoding="utf-8")
    text = text.replace("[[landmark]]\n", "[[landmark]]\ncounts_for_win = false\n")
    broken = tmp_path / "base.toml"
    broken.write_text(text, encoding="utf-8")
    with pytest.raises(CatalogError, match="base.toml: radio_tower: counts_for_win: at least one"):
        load_catalog_file(broken)


def test_catalog_schema_add_on_set_needs_a_card(tmp_path):
    empty = tmp_path / "empty.toml"
    empty.write_text('[meta]\nset = "empty"\nplayers_max = 6\n', encoding="utf-8")
    with pytest.raises(CatalogError, match="empty.toml: establishment: establishment: a set adds"):
        load_catalog_files(BASE, empty)
    with pytest.raises(CatalogError, match="empty.toml: meta: players_min: a whole number"):
        load_catalog_files(empty)


# --- rules: what each field does --------------------------------------------------------------

@pytest.mark.parametrize(("landmarks", "gain"), [((), 0), (("harbor",), 6), (("city_hall",), 0)])
def test_catalog_schema_requires_landmark_blue_pays_only_with_it(landmarks, gain):
    state = table(seat("A", 0, {}), seat("B", 0, {"mackerel_boat": 2}, *landmarks))
    assert income(state, 8)["B"] == gain


@pytest.mark.parametrize(("landmarks", "due"), [((), 0), (("harbor",), 3)])
def test_catalog_schema_requires_landmark_red_takes_only_with_it(landmarks, due):
    state = table(seat("A", 5, {}), seat("B", 0, {"sushi_bar": 1}, *landmarks))
    assert income(state, 1) == {"A": -due, "B": due}


@pytest.mark.parametrize(("gardens", "shops", "gain"), [(0, 1, 0), (1, 1, 1), (3, 1, 3), (3, 2, 6)])
def test_catalog_schema_per_card_pays_per_counted_copy(gardens, shops, gain):
    state = table(seat("A", 0, {"flower_shop": shops, "flower_garden": gardens}), seat("B", 0, {}))
    assert income(state, 6)["A"] == gain


def test_catalog_schema_per_unique_counts_kinds_not_copies():
    cards = {"food_warehouse": 1, "cafe": 3, "family_restaurant": 1, "wheat_field": 2}
    state = table(seat("A", 0, cards), seat("B", 0, {}))
    assert income(state, 12)["A"] == 2 * 2  # two red kinds, however many copies


def test_catalog_schema_base_factories_unchanged_by_per():
    cards = {"cheese_factory": 2, "ranch": 3, "wheat_field": 1}
    state = table(seat("A", 0, cards), seat("B", 0, {}))
    assert income(state, 7)["A"] == 2 * 3 * 3


def test_catalog_schema_activation_above_12_only_when_a_rule_adds_to_the_roll():
    """Two dice total 2-12, so 13 and 14 are data until a rule (Harbor) adds to the roll; the
    activation table already answers for them."""
    state = table(seat("A", 0, {}), seat("B", 0, {"tuna_boat": 1}, "harbor"))
    for total in range(1, 13):
        assert "tuna_boat" not in [card.id for card in MERGED.by_roll[total]] or total == 12
    assert income(state, 13)["B"] == 1 and income(state, 14)["B"] == 1
    assert income(state, 15)["B"] == 0


def test_catalog_schema_starts_built_landmark_is_built_at_set_up():
    state = new_table(MERGED, ("A", "B", "C"))
    assert all(player.landmarks == frozenset({"city_hall"}) for player in state.players)
    assert decide_build(state, "city_hall") == "AlreadyOwned"


def decide_build(state: TableState, card: str) -> str | list[object]:
    state = TableState(**{**_fields(state), "phase": Phase.BUILD})
    try:
        return list(decide(state, 0, Build(card), MERGED))
    except ValueError as exc:
        return type(exc).__name__


def _fields(state: TableState) -> dict[str, object]:
    return {name: getattr(state, name) for name in TableState.__slots__}


@pytest.mark.parametrize(
    ("built", "wins"),
    [
        (("train_station", "shopping_mall", "amusement_park", "harbor", "city_hall"), True),
        (("train_station", "shopping_mall", "amusement_park", "harbor"), True),
        (("train_station", "shopping_mall", "amusement_park", "city_hall"), False),
    ],
)
def test_catalog_schema_win_needs_every_landmark_that_counts(built, wins):
    state = table(seat("A", 30, {}, *built), seat("B", 0, {}), phase=Phase.BUILD)
    events = decide(state, 0, Build("radio_tower"), MERGED)
    assert LandmarkBuilt(0, "radio_tower") in events
    assert (GameWon(0) in events) is wins


# --- random valid catalogs load as written ----------------------------------------------------

_NAMES = 'names = { en = "Card", he = "קלף", nl = "Kaart" }'
_card = st.fixed_dictionaries({
    "colour": st.sampled_from(COLOURS),
    "icon": st.sampled_from(ICONS),
    "activation": st.lists(st.integers(1, 14), min_size=1, max_size=3, unique=True),
    "cost": st.integers(0, 30),
    "amount": st.integers(0, 9),
    "copies": st.integers(0, 9),
    "starting": st.integers(0, 1),
    "per": st.none() | st.tuples(st.sampled_from(("icon", "colour", "card")), st.booleans()),
    "requires": st.booleans(),
})
_landmark = st.fixed_dictionaries({
    "cost": st.integers(0, 30), "starts_built": st.booleans(), "counts_for_win": st.booleans(),
})


def _toml(cards: list[dict[str, object]], landmarks: list[dict[str, object]], highest: int) -> str:
    lines = ["[meta]", 'set = "random"', "players_min = 2", "players_max = 4",
             "starting_coins = 3", "bank_coins = 200", f"highest_roll = {highest}"]
    for i, card in enumerate(cards):
        lines += ["[[establishment]]", f'id = "card_{i}"', _NAMES, f'colour = "{card["colour"]}"',
                  f'icon = "{card["icon"]}"', f"activation = {card['activation']}", 'effect = "income"']
        lines += [f"{field} = {card[field]}" for field in ("cost", "amount", "copies", "starting")]
        if card["per"]:
            kind, unique = card["per"]
            value = {"icon": card["icon"], "colour": card["colour"], "card": "card_0"}[kind]
            lines.append(f'per = {{ {kind} = "{value}", unique = {str(unique).lower()} }}')
        if card["requires"]:
            lines.append('requires_landmark = "lm_0"')
    for i, lm in enumerate(landmarks):
        lines += ["[[landmark]]", f'id = "lm_{i}"', _NAMES, f"cost = {lm['cost']}",
                  'effect = "two_dice"', "copies = 4",
                  f"starts_built = {str(lm['starts_built']).lower()}",
                  f"counts_for_win = {str(lm['counts_for_win'] or i == 0).lower()}"]
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None)
@given(
    cards=st.lists(_card, min_size=1, max_size=6),
    landmarks=st.lists(_landmark, min_size=1, max_size=4),
    highest=st.integers(12, 14),
)
def test_catalog_schema_random_valid_catalogs_load_as_written(tmp_path_factory, cards, landmarks, highest):
    for card in cards:
        card["activation"] = sorted({min(n, highest) for n in card["activation"]})
    path = tmp_path_factory.mktemp("random") / "random.toml"
    path.write_text(_toml(cards, landmarks, highest), encoding="utf-8")
    catalog = load_catalog_file(path)
    assert catalog.highest_roll == highest and len(catalog.by_roll) == highest + 1
    for i, card in enumerate(cards):
        loaded = catalog.establishments[f"card_{i}"]
        assert loaded.activation == tuple(card["activation"])
        assert (loaded.cost, loaded.amount, loaded.copies) == (card["cost"], card["amount"], card["copies"])
        assert loaded.requires_landmark == ("lm_0" if card["requires"] else None)
        assert (loaded.per is None) == (card["per"] is None)
        if loaded.per is not None:
            assert (loaded.per.kind, loaded.per.unique) == card["per"]
        for total in loaded.activation:
            assert loaded in catalog.by_roll[total]
    assert catalog.landmarks_to_win == {
        f"lm_{i}" for i, lm in enumerate(landmarks) if lm["counts_for_win"] or i == 0
    }
    built = {f"lm_{i}" for i, lm in enumerate(landmarks) if lm["starts_built"]}
    assert all(player.landmarks == built for player in new_table(catalog, ("A", "B")).players)
