"""What a seat may do now: the moves `decide` would accept, for phones and random players,
and the build list with the reason each closed card is closed.

Roll and Reroll are listed with empty dice: the service draws the values. Whether a card may
be built is decided here once (`build_refusal`, made of the turn's part `turn_refusal` and the
card's part `card_refusal`): the engine refuses with it, the legal moves and the phone's build
list (`build_options`) are made from its two parts, the turn's asked once per call.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion.rules.machi_koro import moves as mv
from companion.rules.machi_koro.activation import counter_clockwise, has_effect, swappable
from companion.rules.machi_koro.catalog import Catalog, Establishment, Landmark
from companion.rules.machi_koro.state import Choice, Phase, Player, TableState


def legal_moves(state: TableState, seat: int, catalog: Catalog) -> list[mv.Move]:
    """Every move `seat` may make now (dice moves with empty dice)."""
    if state.phase is Phase.FINISHED:
        return []
    player = state.players[seat]
    moves: list[mv.Move] = [mv.ChooseDice(1)]
    if has_effect(catalog, player, "two_dice"):
        moves.append(mv.ChooseDice(2))
    if seat != state.active:
        return moves
    if state.phase is Phase.ROLL:
        moves.append(mv.Roll(()))
    elif state.phase is Phase.REROLL:
        moves += [mv.KeepRoll(), mv.Reroll(())]
    elif state.phase is Phase.HARBOR:
        moves += [mv.AddTwo(True), mv.AddTwo(False)]
    elif state.phase is Phase.CHOOSE and state.pending[0] is Choice.TV_STATION:
        moves += [mv.TargetTvStation(other) for other in counter_clockwise(state)]
    elif state.phase is Phase.CHOOSE:
        moves.append(mv.DeclineSwap())
        for other in counter_clockwise(state):
            moves += [
                mv.SwapEstablishments(other, give, take)
                for give in swappable(catalog, player)
                for take in swappable(catalog, state.players[other])
            ]
    else:
        moves += [mv.Build(card) for card in affordable(state, catalog)]
        moves.append(mv.EndTurn())
    return moves


def affordable(state: TableState, catalog: Catalog) -> list[str]:
    """Cards the active seat may build now, establishments then landmarks: `build_refusal`'s
    two parts, the turn's asked once."""
    if turn_refusal(state, state.active) is not None:
        return []
    player, supply, pile = state.roller, state.supply, state.draw_pile
    cards = [card.id for card in catalog.establishments.values()
             if establishment_refusal(player, supply, card, pile) is None]
    cards += [landmark.id for landmark in catalog.landmarks.values()
              if landmark_refusal(player, landmark) is None]
    return cards


# ---------------------------------------------------------------- building


class Why(StrEnum):
    """Why a card cannot be built now: the stable codes of the build list (docs/api.md)."""

    NOT_RUNNING = "not_running"  # the table is not running (set-up, paused or ended)
    GAME_OVER = "game_over"
    FINISHED = "finished"  # play on (RULES.md 14): this seat took its place and no longer plays
    NOT_YOUR_TURN = "not_your_turn"
    NOT_BUILD_PHASE = "not_build_phase"  # before the roll's income is done (or before the deal)
    BUILT_THIS_TURN = "built_this_turn"  # one build per turn (RULES.md 7)
    UNKNOWN = "unknown"  # no such card in the catalog
    BUILT = "built"  # a landmark this seat has built
    SOLD_OUT = "sold_out"
    NOT_FACE_UP = "not_face_up"  # variable supply (RULES.md 13): only in the draw pile
    NOT_SHOWN = "not_shown"  # a variant's market does not show it (the co-op row)
    OWN_ONE = "own_one"  # a purple card: one each (RULES.md 5)
    COINS = "coins"  # `short` coins more are needed


@dataclass(frozen=True, slots=True)
class Closed:
    """A build the rules refuse now: why, and for `Why.COINS` how many coins are missing."""

    why: Why
    short: int = 0


# The turn's reasons: when one applies it closes every card (the phone says it once).
TURN_WIDE = frozenset({Why.NOT_RUNNING, Why.GAME_OVER, Why.FINISHED, Why.NOT_YOUR_TURN,
                       Why.NOT_BUILD_PHASE, Why.BUILT_THIS_TURN})
# The card's reasons that change which cards the phone's build list shows (it leaves out a
# built landmark): the build list gives them also under a turn's reason, and no other card
# reason then (the phone says none then). `not_shown` is not one: a co-op phone's base list
# shows only landmarks, its market row only the row's cards.
LISTING = frozenset({Why.BUILT})

NOT_RUNNING = Closed(Why.NOT_RUNNING)
GAME_OVER = Closed(Why.GAME_OVER)
FINISHED = Closed(Why.FINISHED)
NOT_YOUR_TURN = Closed(Why.NOT_YOUR_TURN)
NOT_BUILD_PHASE = Closed(Why.NOT_BUILD_PHASE)
BUILT_THIS_TURN = Closed(Why.BUILT_THIS_TURN)
UNKNOWN = Closed(Why.UNKNOWN)
BUILT = Closed(Why.BUILT)
SOLD_OUT = Closed(Why.SOLD_OUT)
NOT_FACE_UP = Closed(Why.NOT_FACE_UP)
NOT_SHOWN = Closed(Why.NOT_SHOWN)
OWN_ONE = Closed(Why.OWN_ONE)


def build_refusal(state: TableState, seat: int, card_id: str, catalog: Catalog) -> Closed | None:
    """Why `seat` may not build `card_id` now (RULES.md 5, 7), or None when it may: the one
    source of build legality, the turn's reason first, then the card's."""
    closed = turn_refusal(state, seat)
    return closed if closed is not None else card_refusal(state, seat, card_id, catalog)


def turn_refusal(state: TableState, seat: int) -> Closed | None:
    """`build_refusal`'s first part: why `seat` may build nothing now, or None in its build
    phase with nothing built yet. A seat that finished in play on (RULES.md 14) is told so
    before whose turn it is, as `decide` refuses its every move."""
    if state.phase is Phase.FINISHED:
        return GAME_OVER
    if 0 <= seat < len(state.players) and state.players[seat].place is not None:
        return FINISHED
    if seat != state.active:
        return NOT_YOUR_TURN
    if state.phase is not Phase.BUILD:
        return NOT_BUILD_PHASE
    if state.built:
        return BUILT_THIS_TURN
    return None


def card_refusal(state: TableState, seat: int, card_id: str, catalog: Catalog) -> Closed | None:
    """`build_refusal`'s second part: why `seat` may not build `card_id` whatever the turn
    (built, sold out or not face up, owned, too dear), or None. `seat` is a seat of the
    table."""
    player = state.players[seat]
    landmark = catalog.landmarks.get(card_id)
    if landmark is not None:
        return landmark_refusal(player, landmark)
    card = catalog.establishments.get(card_id)
    if card is None:
        return UNKNOWN
    return establishment_refusal(player, state.supply, card, state.draw_pile)


def landmark_refusal(player: Player, landmark: Landmark) -> Closed | None:
    """`card_refusal` of a landmark (for a list of cards, without looking each one up)."""
    if landmark.id in player.landmarks:
        return BUILT
    return None if player.coins >= landmark.cost else _short(landmark.cost - player.coins)


def establishment_refusal(
    player: Player, supply: Mapping[str, int], card: Establishment, draw_pile: tuple[str, ...] = (),
) -> Closed | None:
    """`card_refusal` of an establishment (for a list of cards, without looking each one up).
    With the variable supply (RULES.md 13) a kind with no face-up pile that the draw pile
    still holds is `not_face_up`; one in neither is sold out."""
    if supply.get(card.id, 0) <= 0:
        return NOT_FACE_UP if card.id in draw_pile else SOLD_OUT
    if card.is_purple and player.owns(card.id):
        return OWN_ONE
    return None if player.coins >= card.cost else _short(card.cost - player.coins)


# The `coins` refusals of 1 to 99 coins short, made once (not once a card of every list).
_SHORTS: dict[int, Closed] = {n: Closed(Why.COINS, n) for n in range(1, 100)}


def _short(short: int) -> Closed:
    return _SHORTS.get(short) or Closed(Why.COINS, short)


def build_options(state: TableState, seat: int, catalog: Catalog, *, running: bool) -> BuildList:
    """The build list of `seat` (a game that is over says so even when its table no longer
    runs)."""
    turn = turn_refusal(state, seat) if running or state.phase is Phase.FINISHED else NOT_RUNNING
    return build_list(state, seat, catalog, turn)


def build_list(state: TableState, seat: int, catalog: Catalog, turn: Closed | None,
               unsupplied: Closed | None = None) -> BuildList:
    """`market_options` under the turn's reason `turn` with `card_refusal`'s reasons (a
    variant's `unsupplied` as `seat_cards` takes it), from the lists made once for all the
    seats in the same position (`seat_cards`, `_listed`)."""
    if not 0 <= seat < len(state.players):  # no city: no card of its own
        return _listed(_plan(catalog), _NOTHING_BUILT).build_list(
            turn.why.value if turn is not None else None)
    if turn is not None:  # every seat but the builder's, at every roll: the hall's hot path
        return _listed(_plan(catalog), state.players[seat].landmarks).build_list(turn.why.value)
    return seat_cards(state, seat, catalog, unsupplied).build_list(None)


# ---------------------------------------------------------------- the lists, made once
#
# A hall roll builds the build list of every seat of hundreds of tables, and most of them say
# the same: the lists are made once per catalog and position, with their JSON text, and their
# cards are shared by the views (read-only: views only encode them). `market_options` is the
# reference they are made with (tests/test_build_lists.py).


class BuildList(dict[str, Any]):
    """A seat view's `builds` as `market_options` makes it, with `json_text`: its compact JSON
    (separators "," and ":", as the views are encoded), made once for all the seats with the
    same list, for an encoder that takes a value's `json_text` as it is (as web/wire.py does
    a view's). JSON and `==` see a plain dict; a new one for each view."""

    __slots__ = ("json_text",)
    json_text: str


class CardList:
    """The cards of a build list made once (shared by the views: read-only), and its JSON
    text for each turn's reason."""

    __slots__ = ("cards", "texts")

    def __init__(self, cards: tuple[dict[str, Any], ...]) -> None:
        self.cards = cards
        self.texts: dict[str | None, str] = {}

    def build_list(self, why: str | None) -> BuildList:
        cards = list(self.cards)
        made = BuildList(why=why, cards=cards)
        text = self.texts.get(why)
        if text is None:
            text = self.texts[why] = json.dumps(made, separators=(",", ":"))
        made.json_text = text
        return made


class _Plan:
    """What a catalog's lists are made from, and the lists made so far. Kept with its catalog
    (`_PLANS`), so that the id it is filed under cannot be reused by another catalog."""

    __slots__ = ("catalog", "establishments", "landmarks", "ids", "all_ids", "purple",
                 "top_cost", "seat_cards", "listed")

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.establishments = tuple(catalog.establishments.values())
        self.landmarks = tuple(catalog.landmarks.values())
        self.ids = tuple(catalog.establishments)
        self.all_ids = (*self.ids, *catalog.landmarks)
        self.purple = tuple(card.id for card in self.establishments if card.is_purple)
        # coins beyond the dearest card's cost change no card's reason
        self.top_cost = max([card.cost for card in self.establishments]
                            + [landmark.cost for landmark in self.landmarks], default=0)
        self.seat_cards: dict[tuple[Any, ...], tuple[Closed | None, CardList]] = {}
        self.listed: dict[frozenset[str], CardList] = {}


_PLANS: dict[int, _Plan] = {}
_PLANS_KEPT = 64  # catalogs: a hall plays a few; tests make many
_LISTS_KEPT = 4096  # lists a catalog keeps, of each kind; a new one past it clears them
_NOTHING_BUILT: frozenset[str] = frozenset()


def _plan(catalog: Catalog) -> _Plan:
    plan = _PLANS.get(id(catalog))
    if plan is None or plan.catalog is not catalog:
        if len(_PLANS) >= _PLANS_KEPT:
            _PLANS.clear()
        plan = _PLANS[id(catalog)] = _Plan(catalog)
    return plan


def seat_cards(state: TableState, seat: int, catalog: Catalog,
               unsupplied: Closed | None = None) -> CardList:
    """The cards of `seat`'s build list without a turn's reason (a seat of the table): every
    card of `catalog` in its order with its `card_refusal`; with `unsupplied`, a variant's
    reason for an establishment the supply has none of, instead of `sold_out` or
    `not_face_up` (the co-op row's `not_shown`). The reasons depend only on what the key
    holds: the city's coins (up to the dearest card's cost), its landmarks built and the
    purple cards it owns, and the kinds the supply has none of, with those the draw pile
    still holds; so they are made once a key. (The legal moves ask card by card: a random
    game's positions are nearly all new.)"""
    plan = _plan(catalog)
    player, supply, pile = state.players[seat], state.supply, state.draw_pile
    cards = player.cards
    gone = tuple(card for card in plan.ids if supply.get(card, 0) <= 0)
    key = (min(player.coins, plan.top_cost), player.landmarks,
           tuple(card for card in plan.purple if cards.get(card, 0)), gone,
           tuple(card for card in gone if card in pile) if gone and pile else (),
           None if unsupplied is None else id(unsupplied))
    found = plan.seat_cards.get(key)
    if found is None or found[0] is not unsupplied:  # (an id of a variant's reason kept, with it)
        refusals = [establishment_refusal(player, supply, card, pile)
                    for card in plan.establishments]
        if unsupplied is not None:
            refusals = [unsupplied if closed is SOLD_OUT or closed is NOT_FACE_UP else closed
                        for closed in refusals]
        refusals += [landmark_refusal(player, landmark) for landmark in plan.landmarks]
        found = (unsupplied, CardList(tuple(_option(card, closed) for card, closed
                                        in zip(plan.all_ids, refusals, strict=True))))
        if len(plan.seat_cards) >= _LISTS_KEPT:
            plan.seat_cards.clear()
        plan.seat_cards[key] = found
    return found[1]


# The options of `market_options` by card and reason, made once: most lists share them. Filed
# by the reason's id (a reason's hash is slow to make), kept with it so that the id is its own.
_OPTIONS: dict[tuple[str, int], tuple[Closed | None, dict[str, Any]]] = {}


def _option(card_id: str, closed: Closed | None) -> dict[str, Any]:
    """A card's entry of a list without a turn's reason (see `market_options`)."""
    found = _OPTIONS.get((card_id, id(closed)))
    if found is not None and found[0] is closed:
        return found[1]
    option: dict[str, Any] = {"card": card_id}
    if closed is not None:
        option["why"] = closed.why.value
        if closed.why is Why.COINS:
            option["short"] = closed.short
    if len(_OPTIONS) >= 65536:
        _OPTIONS.clear()
    _OPTIONS[(card_id, id(closed))] = (closed, option)
    return option


def _listed(plan: _Plan, built: frozenset[str]) -> CardList:
    """`market_options`' cards under a turn's reason for a city with these landmarks built:
    the same for most seats of a hall at every roll."""
    made = plan.listed.get(built)
    if made is None:
        made = CardList(tuple(market_options(plan.catalog, NOT_RUNNING,
                                             lambda card: listing_refusal(built, card))["cards"]))
        if len(plan.listed) >= _LISTS_KEPT:
            plan.listed.clear()
        plan.listed[built] = made
    return made


def listing_refusal(built: frozenset[str], card_id: str) -> Closed | None:
    """All that a list under a turn's reason says of a card: the reasons in LISTING (a landmark
    built, left out of the phone's list), as `card_refusal` gives them, without the rest."""
    return BUILT if card_id in built else None


def not_running_options(catalog: Catalog) -> BuildList:
    """The build list of a table that has no game yet: every card closed `not_running`."""
    return _listed(_plan(catalog), _NOTHING_BUILT).build_list(NOT_RUNNING.why.value)


def market_options(
    catalog: Catalog, turn: Closed | None, card_refusal: Callable[[str], Closed | None],
) -> dict[str, Any]:
    """The seat view's `builds` (docs/api.md): `{"why": the turn's reason or null, "cards":
    [...]}`, every card of `catalog` in its order, establishments then landmarks, as
    `{"card"}`, or `{"card", "why"}` with the card's own reason from `card_refusal` (and
    `"short"` with `coins`). Under a turn's reason a card gives only a reason that leaves it
    out of the phone's list (`LISTING`). A card is open when neither says why. The phone has
    each card's kind, cost and name from its page. The reference: `build_options` makes the
    same lists from the ones made once (`seat_cards`, `_listed`)."""
    cards = []
    for card_id in (*catalog.establishments, *catalog.landmarks):
        closed = card_refusal(card_id)
        option: dict[str, Any] = {"card": card_id}
        if closed is not None and (turn is None or closed.why in LISTING):
            option["why"] = closed.why.value
            if closed.why is Why.COINS:
                option["short"] = closed.short
        cards.append(option)
    return {"why": turn.why.value if turn is not None else None, "cards": cards}
