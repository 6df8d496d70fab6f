"""Quick constructors give the very value the dataclass's own __init__ gives."""

import dataclasses
from dataclasses import FrozenInstanceError, dataclass, fields

import pytest
from builders import table

from companion.rules.frozen import Twin, quick_constructor
from companion.rules.machi_koro import facts
from companion.rules.machi_koro.state import STATE_TWIN, Player, TableState, with_coins


def field_values(value):
    return tuple(getattr(value, field.name) for field in fields(value))


def test_quick_constructor_state_equals_init_and_stays_frozen():
    state = table("alice 3 wheat_field bakery +train_station | bob 0 cafe", dice=(3, 4))
    made = STATE_TWIN.make(*field_values(state))
    assert type(made) is TableState
    assert made == state and repr(made) == repr(state)
    with pytest.raises(FrozenInstanceError):
        made.bank = 0
    assert dataclasses.replace(made, bank=1).bank == 1


def test_twin_thaw_edit_freeze_equals_replace_and_leaves_the_original():
    state = table("alice 3 wheat_field | bob 0 cafe")
    before = repr(state)
    draft = STATE_TWIN.thaw(state)
    draft.bank -= 5
    draft.dice = (6,)
    frozen = STATE_TWIN.freeze(draft)
    assert type(frozen) is TableState
    assert frozen == dataclasses.replace(state, bank=state.bank - 5, dice=(6,))
    assert repr(state) == before
    with pytest.raises(FrozenInstanceError):
        frozen.dice = ()


def test_twin_draft_of_the_wrong_shape_cannot_be_frozen():
    """CPython refuses __class__ assignment between different slot layouts: a twin made for
    one class cannot turn another class's draft into a value."""
    draft = Twin(Player).thaw(table("alice 3 | bob 0").players[0])
    with pytest.raises(TypeError):
        STATE_TWIN.freeze(draft)


def test_quick_constructor_player_and_with_coins_equal_replace():
    player = table("alice 3 wheat_field +train_station | bob 0").players[0]
    assert quick_constructor(Player)(*field_values(player)) == player
    assert with_coins(player, 9) == dataclasses.replace(player, coins=9)
    assert type(with_coins(player, 9)) is Player and player.coins == 3


def test_twin_replacer_refuses_an_unknown_field():
    with pytest.raises(TypeError, match="no field 'gold'"):
        Twin(Player).replacer("gold")


@pytest.mark.parametrize("cls", [
    facts.DiceRolled, facts.RerollOffered, facts.CoinsTransferred, facts.RollResolved,
])
def test_quick_constructor_events_equal_init(cls):
    sample = {
        facts.DiceRolled: (2, (3, 4), True), facts.RerollOffered: (),
        facts.CoinsTransferred: (1, "bank", 2, "cafe", 2, 1, 1),
        facts.RollResolved: ((), True),
    }[cls]
    made = quick_constructor(cls)(*sample)
    assert type(made) is cls and made == cls(*sample) and repr(made) == repr(cls(*sample))
    assert hash(made) == hash(cls(*sample))


def test_quick_constructor_refuses_classes_whose_init_does_more():
    @dataclass(frozen=True)
    class NoSlots:
        x: int

    @dataclass(slots=True)
    class NotFrozen:
        x: int

    @dataclass(frozen=True, slots=True)
    class Checked:
        x: int

        def __post_init__(self) -> None:
            assert self.x > 0

    for cls in (NoSlots, NotFrozen, Checked, int):
        with pytest.raises(TypeError, match="not a"):
            quick_constructor(cls)

