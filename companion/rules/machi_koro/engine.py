"""The referee: `decide` checks a move and returns facts, or refuses with a RuleError.

`decide` never changes anything; applying the facts is `evolve` (evolve.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.rules.errors import (
    AlreadyBuilt,
    AlreadyOwned,
    BadDice,
    BadMove,
    CannotAfford,
    GameOver,
    InvalidChoice,
    NotYourTurn,
    RuleError,
    SoldOut,
    UnknownCard,
    WrongPhase,
    is_whole_number,
)
from companion.rules.machi_koro import activation
from companion.rules.machi_koro.catalog import ADD_FROM, Catalog, load_catalog
from companion.rules.machi_koro.evolve import evolve_all
from companion.rules.machi_koro.facts import (
    ChoiceAnswered,
    CoinsAdjusted,
    CoinsTransferred,
    DiceCountChosen,
    DiceRolled,
    EstablishmentBought,
    EstablishmentsSwapped,
    Fact,
    GameWon,
    HarborAnswered,
    HarborOffered,
    LandmarkBuilt,
    PlaceTaken,
    RerollOffered,
    SupplyDealt,
    SupplyDrawn,
    TunaRolled,
    TurnEnded,
    make_dice_rolled,
    make_roll_resolved,
)
from companion.rules.machi_koro.moves import (
    AddTwo,
    Build,
    ChooseDice,
    DeclineSwap,
    EndTurn,
    KeepRoll,
    Move,
    Reroll,
    Roll,
    SwapEstablishments,
    TargetTvStation,
)
from companion.rules.machi_koro.options import Closed, Why, build_refusal
from companion.rules.machi_koro.state import BANK, Choice, Phase, Player, TableState
from companion.rules.ruleset import Shuffle


class Finished(RuleError):
    """Play on after a win (RULES.md 14): the seat has taken its place and no longer plays."""

    code = "rule/finished"


class NotFaceUp(RuleError):
    """Variable supply (RULES.md 13): the kind is not face up in the supply."""

    code = "rule/not_face_up"


class BadDeckOrder(RuleError):
    code = "rule/bad_deck_order"


def finished_message(player: Player) -> str:
    return f"{player.name} has finished in place {player.place} and no longer plays"


# ---------------------------------------------------------------- decide


def decide(state: TableState, seat: int, move: Move, catalog: Catalog | None = None,
           shuffle: Shuffle | None = None) -> list[Fact]:
    """The facts `move` by `seat` causes, or a RuleError saying why it is refused. `shuffle`
    is the service's randomness, for a draw the rules make mid-move (a Tuna Boat roll)."""
    catalog = catalog or load_catalog()
    if state.phase is Phase.FINISHED:
        raise GameOver(f"the game is over: {state.players[state.winner or 0].name} won")
    if not 0 <= seat < len(state.players):
        raise NotYourTurn(f"there is no seat {seat!r} at this table")
    if state.players[seat].place is not None:
        raise Finished(finished_message(state.players[seat]))
    if isinstance(move, ChooseDice):
        return _choose_dice(state, seat, move, catalog)
    if seat != state.active:
        raise NotYourTurn(f"it is {state.roller.name}'s turn, not {state.players[seat].name}'s")
    handler = _HANDLERS.get(type(move))
    if handler is None:
        raise BadMove(f"unknown move {move!r}")
    return handler(state, move, catalog, shuffle)


def _choose_dice(state: TableState, seat: int, move: ChooseDice, catalog: Catalog) -> list[Fact]:
    if not is_whole_number(move.count) or move.count not in (1, 2):
        raise BadDice(f"roll 1 or 2 dice, not {move.count!r}")
    if move.count == 2 and not activation.has_effect(catalog, state.players[seat], "two_dice"):
        raise BadDice("two dice need a Train Station")
    return [DiceCountChosen(seat, move.count)]


def _roll(state: TableState, move: Roll, catalog: Catalog, shuffle: Shuffle | None) -> list[Fact]:
    _need_phase(state, Phase.ROLL)
    roller = state.players[state.active]
    _check_dice(move.dice, roller.dice_count)
    facts: list[Fact] = [make_dice_rolled(state.active, move.dice, False)]
    if not state.rerolled and activation.has_effect(catalog, roller, "reroll"):
        facts.append(RerollOffered())
        return facts
    return _dice_count(state, move.dice, catalog, facts, shuffle)


def _keep(state: TableState, move: KeepRoll, catalog: Catalog, shuffle: Shuffle | None) -> list[Fact]:
    _need_phase(state, Phase.REROLL)
    return _dice_count(state, state.dice, catalog, [], shuffle)


def _reroll(state: TableState, move: Reroll, catalog: Catalog, shuffle: Shuffle | None) -> list[Fact]:
    _need_phase(state, Phase.REROLL)
    _check_dice(move.dice, len(state.dice))
    facts: list[Fact] = [DiceRolled(state.active, move.dice, reroll=True)]
    return _dice_count(state, move.dice, catalog, facts, shuffle)


def _dice_count(state: TableState, dice: tuple[int, ...], catalog: Catalog, facts: list[Fact],
                shuffle: Shuffle | None) -> list[Fact]:
    """The dice are final (after a Radio Tower's decision): a Harbor owner with 10 or more
    is asked whether to add 2 first (docs/rules.md 31), else the income follows."""
    if sum(dice) >= ADD_FROM and activation.has_effect(catalog, state.roller, "add_to_total"):
        facts.append(HarborOffered())
        return facts
    return _income(state, dice, catalog, facts, shuffle)


def _add_two(state: TableState, move: AddTwo, catalog: Catalog, shuffle: Shuffle | None) -> list[Fact]:
    _need_phase(state, Phase.HARBOR)
    if not isinstance(move.add, bool):
        raise InvalidChoice(f"add 2 or not: true or false, not {move.add!r}")
    harbor = activation.built_with(catalog, state.roller, "add_to_total")
    added = harbor.amount if move.add and harbor is not None else 0
    return _income(state, state.dice, catalog, [HarborAnswered(added)], shuffle, added)


def _income(
    state: TableState, dice: tuple[int, ...], catalog: Catalog, facts: list[Fact],
    shuffle: Shuffle | None = None, added: int = 0,
) -> list[Fact]:
    """`facts` followed by the roll's transfers and its RollResolved (and a broke roller's
    City Hall coin when the build step starts at once)."""
    total = sum(dice) + added
    table_roll = 0
    if activation.needs_table_roll(state, catalog, total):
        rolled = draw_two_dice(shuffle)
        facts.append(TunaRolled(rolled))
        table_roll = sum(rolled)
    transfers, pending = activation.resolve_income(state, catalog, total, table_roll)
    doubles = len(dice) == 2 and dice[0] == dice[1]
    extra = (
        doubles and not state.bonus_turn
        and activation.has_effect(catalog, state.roller, "extra_turn_on_doubles")
    )
    facts += transfers
    facts.append(make_roll_resolved(pending, extra))
    if not pending:
        facts += _city_hall(state, catalog, facts)
    return facts


TWO_DICE = tuple(f"{a}-{b}" for a in range(1, 7) for b in range(1, 7))
"""The 36 outcomes of two dice: the service's shuffle of them draws a fair roll."""


def draw_two_dice(shuffle: Shuffle | None) -> tuple[int, int]:
    """A roll of two dice drawn by the service (the rules never roll): the top of a shuffled
    deck of the 36 outcomes; the fact that records it makes a replay roll nothing."""
    if shuffle is None:
        raise BadDice("the Tuna Boats need the table's own roll of two dice; the service draws it")
    top = shuffle(TWO_DICE)[0]
    first, second = top.split("-")
    return int(first), int(second)


def _city_hall(state: TableState, catalog: Catalog, facts: list[Fact]) -> list[Fact]:
    """City Hall (docs/rules.md 31): a roller whose build step starts with 0 coins takes 1
    from the bank; `facts` lead into that build step."""
    city_hall = activation.built_with(catalog, state.roller, "coin_when_broke")
    if city_hall is None or evolve_all(state, facts).roller.coins > 0:
        return []
    return [CoinsTransferred(BANK, state.active, city_hall.amount, city_hall.id)]


def _target_tv(state: TableState, move: TargetTvStation, catalog: Catalog,
               shuffle: Shuffle | None) -> list[Fact]:
    _need_choice(state, Choice.TV_STATION)
    target = _other_seat(state, move.target, "the TV Station")
    amount = catalog.establishment("tv_station").amount
    paid = min(amount, state.players[target].coins)
    transfer = CoinsTransferred(target, state.active, paid, "tv_station", forgiven=amount - paid)
    return _answered(state, catalog, [transfer, ChoiceAnswered(Choice.TV_STATION)])


def _answered(state: TableState, catalog: Catalog, facts: list[Fact]) -> list[Fact]:
    """A purple question's answer; the last one starts the build step (City Hall)."""
    if len(state.pending) == 1:
        facts += _city_hall(state, catalog, facts)
    return facts


def _swap(state: TableState, move: SwapEstablishments, catalog: Catalog,
          shuffle: Shuffle | None) -> list[Fact]:
    _need_choice(state, Choice.BUSINESS_CENTER)
    other = _other_seat(state, move.other, "a Business Center swap")
    check_swap_card(catalog, state.roller, move.give)
    check_swap_card(catalog, state.players[other], move.take)
    swapped = EstablishmentsSwapped(state.active, other, move.give, move.take)
    return _answered(state, catalog, [swapped, ChoiceAnswered(Choice.BUSINESS_CENTER)])


def check_swap_card(catalog: Catalog, owner: Player, card_id: str) -> None:
    """Refuse a card `owner` cannot trade in a Business Center swap: a landmark, unknown,
    purple or not theirs. Also the scenario form's check, which adds the field's name."""
    if card_id in catalog.landmarks:
        raise UnknownCard(f"{card_id!r} is a landmark; a Business Center swaps establishments")
    if card_id not in catalog.establishments:
        raise UnknownCard(f"unknown establishment {card_id!r}")
    if catalog.establishments[card_id].is_purple:
        raise InvalidChoice(f"a Business Center cannot swap the purple card {card_id!r}")
    if not owner.owns(card_id):
        raise InvalidChoice(f"{owner.name} owns no {card_id!r}")


def _other_seat(state: TableState, seat: object, what: str) -> int:
    """A seat at this table other than the roller's, or InvalidChoice."""
    if not is_whole_number(seat) or seat == state.active or not 0 <= seat < len(state.players):
        raise InvalidChoice(f"{what} needs another player's seat, not {seat!r}")
    if state.players[seat].place is not None:  # RULES.md 14
        raise InvalidChoice(f"{what} needs a player still playing: "
                            f"{finished_message(state.players[seat])}")
    return seat


def _decline(state: TableState, move: DeclineSwap, catalog: Catalog,
             shuffle: Shuffle | None) -> list[Fact]:
    _need_choice(state, Choice.BUSINESS_CENTER)
    return _answered(state, catalog, [ChoiceAnswered(Choice.BUSINESS_CENTER)])


def _build(state: TableState, move: Build, catalog: Catalog, shuffle: Shuffle | None) -> list[Fact]:
    closed = build_refusal(state, state.active, move.card, catalog)
    if closed is not None:
        raise _build_refused(state, move.card, closed)
    player, seat = state.roller, state.active
    if move.card in catalog.landmarks:
        cost = catalog.landmarks[move.card].cost
        facts: list[Fact] = [CoinsTransferred(seat, BANK, cost, move.card), LandmarkBuilt(seat, move.card)]
        if catalog.landmarks_to_win <= player.landmarks | {move.card}:
            facts += finish(state, seat) if state.play_on else [GameWon(seat)]
        return facts
    cost = catalog.establishments[move.card].cost
    facts = [CoinsTransferred(seat, BANK, cost, move.card), EstablishmentBought(seat, move.card)]
    if state.variable_supply and state.supply.get(move.card, 0) == 1:
        facts += refill(state.supply, state.draw_pile, emptied=move.card)
    return facts


def finish(state: TableState, seat: int) -> list[Fact]:
    """Play on after a win (RULES.md 14): `seat` completed its landmarks and takes the next
    free place; when one player is left they take the last place and the game ends, else the
    turn passes at once to the next player still playing (a finished player never moves
    again, so no Amusement Park turn follows)."""
    place = 1 + sum(player.place is not None for player in state.players)
    facts: list[Fact] = [PlaceTaken(seat, place)]
    left = [other for other in state.still_playing() if other != seat]
    if len(left) <= 1:
        facts += [PlaceTaken(other, place + 1) for other in left]
        first = next((s for s, p in enumerate(state.players) if p.place == 1), seat)
        facts.append(GameWon(first))
        return facts
    facts.append(TurnEnded(_next_playing(state, seat, also_finished=seat), bonus_turn=False))
    return facts


def _next_playing(state: TableState, seat: int, also_finished: int | None = None) -> int:
    """The first seat clockwise after `seat` still playing (not `also_finished` either)."""
    count = len(state.players)
    for step in range(1, count):
        following = (seat + step) % count
        if following != also_finished and state.players[following].place is None:
            return following
    return seat


# ---------------------------------------------------------------- variable supply


def supply_cards(catalog: Catalog, seats: int) -> tuple[list[str], list[str]]:
    """Variable supply (RULES.md 13): every establishment of the supply, and the purple copies
    that leave the game because no player could buy them (a player owns one of each purple
    card: with 2 players two of each go, with 3 one)."""
    kept: list[str] = []
    removed: list[str] = []
    for card in catalog.establishments.values():
        spare = max(0, card.copies - seats) if card.is_purple else 0
        removed += [card.id] * spare
        kept += [card.id] * (card.copies - spare)
    return kept, removed


def deal_supply(state: TableState, catalog: Catalog, shuffle: Shuffle | None) -> list[Fact]:
    """The variable supply's deal: the draw pile shuffled (the order is the service's input,
    recorded in the fact), then cards turned up until 10 kinds show."""
    if shuffle is None:
        raise BadDeckOrder("the variable supply shuffles a draw pile: the dealer must give the order")
    kept, removed = supply_cards(catalog, len(state.players))
    pile = tuple(shuffle(tuple(kept)))
    if sorted(pile) != sorted(kept):
        raise BadDeckOrder(f"a shuffle of {len(kept)} cards returned {len(pile)} other ones")
    return [SupplyDealt(tuple(removed), pile), *refill({}, pile)]


KINDS_SHOWN = 10


def refill(supply: Mapping[str, int], pile: tuple[str, ...], emptied: str | None = None) -> list[Fact]:
    """The cards drawn so that 10 kinds show again (RULES.md 13): none while 10 show, or when
    the draw pile is empty. `emptied`: the kind a build is emptying (its pile goes)."""
    shown = {card for card, count in supply.items() if count > 0 and card != emptied}
    drawn: list[str] = []
    for card in pile:
        if len(shown) >= KINDS_SHOWN:
            break
        drawn.append(card)
        shown.add(card)
    return [SupplyDrawn(tuple(drawn))] if drawn else []


_BUILD_ERRORS: dict[Why, type[RuleError]] = {
    Why.NOT_BUILD_PHASE: WrongPhase,
    Why.BUILT_THIS_TURN: AlreadyBuilt,
    Why.BUILT: AlreadyOwned,
    Why.UNKNOWN: UnknownCard,
    Why.SOLD_OUT: SoldOut,
    Why.NOT_FACE_UP: NotFaceUp,
    Why.FINISHED: Finished,
    Why.OWN_ONE: AlreadyOwned,
    Why.COINS: CannotAfford,
}


def _build_refused(state: TableState, card: str, closed: Closed) -> RuleError:
    """The error of a refused build, by its reason, naming the values. `decide` refuses a
    finished game, a finished seat and another seat's move before it asks (GameOver,
    Finished, NotYourTurn)."""
    name, coins = state.roller.name, state.roller.coins
    messages = {
        Why.NOT_BUILD_PHASE: f"this is the {state.phase.value} phase, not {Phase.BUILD.value}",
        Why.BUILT_THIS_TURN: "one build per turn: this turn's build is done",
        Why.BUILT: f"{name} has already built the {card!r}",
        Why.UNKNOWN: f"unknown card {card!r}",
        Why.SOLD_OUT: f"the supply has no {card!r} left",
        Why.NOT_FACE_UP: f"{card!r} is not face up in the supply",
        Why.FINISHED: finished_message(state.roller),
        Why.OWN_ONE: f"{name} already owns a {card!r}",
        Why.COINS: f"{card!r} costs {coins + closed.short}, {name} has {coins}",
    }
    return _BUILD_ERRORS[closed.why](messages[closed.why])


def _end_turn(state: TableState, move: EndTurn, catalog: Catalog,
              shuffle: Shuffle | None) -> list[Fact]:
    _need_phase(state, Phase.BUILD)
    facts: list[Fact] = []
    airport = activation.built_with(catalog, state.roller, "income_if_nothing_built")
    if airport is not None and not state.built:  # docs/rules.md 31
        facts.append(CoinsTransferred(BANK, state.active, airport.amount, airport.id))
    if state.extra_turn:
        return [*facts, TurnEnded(state.active, bonus_turn=True)]
    if state.play_on:  # turns skip finished players (RULES.md 14)
        return [*facts, TurnEnded(_next_playing(state, state.active), bonus_turn=False)]
    return [*facts, TurnEnded((state.active + 1) % len(state.players), bonus_turn=False)]


_HANDLERS: dict[type, Callable[[TableState, Any, Catalog, Shuffle | None], list[Fact]]] = {
    Roll: _roll,
    KeepRoll: _keep,
    Reroll: _reroll,
    AddTwo: _add_two,
    TargetTvStation: _target_tv,
    SwapEstablishments: _swap,
    DeclineSwap: _decline,
    Build: _build,
    EndTurn: _end_turn,
}


def _need_phase(state: TableState, phase: Phase) -> None:
    if state.phase is not phase:
        raise WrongPhase(f"this is the {state.phase.value} phase, not {phase.value}")


def _need_choice(state: TableState, choice: Choice) -> None:
    if state.phase is not Phase.CHOOSE or state.pending[0] is not choice:
        asked = state.pending[0].value if state.pending else "nothing"
        raise WrongPhase(f"the table waits for {asked}, not a {choice.value} answer")


def _check_dice(dice: tuple[int, ...], count: int) -> None:
    if not isinstance(dice, tuple) or len(dice) != count:
        raise BadDice(f"expected {count} dice, got {dice!r}")
    for value in dice:  # is_whole_number written out: a call per die costs 0.7% of a roll
        if type(value) is not int or not 1 <= value <= 6:
            raise BadDice(f"a die shows 1 to 6, not {value!r}")


REASON_LIMIT = 200  # characters: a line in the journal's audit view


def adjust(state: TableState, seat: int, amount: int, reason: str) -> list[Fact]:
    """The organizer's correction of a seat's coins, with a reason; never below zero, and never
    more than the table's coins in all (the box's): a hurried 1000 for 10 is a typo."""
    if not is_whole_number(seat) or not 0 <= seat < len(state.players):
        raise InvalidChoice(f"there is no seat {seat!r} at this table")
    if state.players[seat].place is not None:  # RULES.md 14: they neither pay nor receive
        raise Finished(finished_message(state.players[seat]))
    if not is_whole_number(amount) or amount == 0:
        raise InvalidChoice(f"an adjustment is a whole number of coins other than 0, not {amount!r}")
    if abs(amount) > state.total_coins():
        raise InvalidChoice(f"an adjustment is at most the table's {state.total_coins()} coins, "
                            f"not {amount}")
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidChoice("an adjustment needs a reason")
    if len(reason.strip()) > REASON_LIMIT:
        raise InvalidChoice(f"a reason has at most {REASON_LIMIT} characters")
    if state.players[seat].coins + amount < 0:
        raise CannotAfford(f"{state.players[seat].name} has {state.players[seat].coins} coins")
    return [CoinsAdjusted(seat, amount, reason.strip())]


# ---------------------------------------------------------------- defaults


def default_move(state: TableState) -> Move | None:
    """What happens when a waiting choice times out (RULES.md 11): keep the roll, the
    automatic TV Station target, no swap. None when nothing waits."""
    if state.phase is Phase.REROLL:
        return KeepRoll()
    if state.phase is Phase.HARBOR:
        return AddTwo(False)  # docs/rules.md 31: at time-out the 2 is not added
    if state.phase is Phase.CHOOSE and state.pending[0] is Choice.TV_STATION:
        return TargetTvStation(activation.richest_other(state))
    if state.phase is Phase.CHOOSE:
        return DeclineSwap()
    return None
