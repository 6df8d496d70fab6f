"""The co-op Tax Assessor referee (RULES.md 16-19): `deal` and `decide` return facts,
`coop_evolve.evolve_all` applies them.

Rolls, income, builds and purple choices are the base engine's, played on the base table
inside; this module adds the market row, gifts to the assessor, the assessor's turn after
every second player's turn, and the shared win and loss. Shuffles are inputs: `shuffle`
(given by the service, which shuffles with `secrets`) puts cards in an order that the facts
record, so a replay never shuffles.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.rules.coop.assessor import classify
from companion.rules.coop.facts import (
    AnyFact,
    AssessorCardDrawn,
    AssessorCoinsTransferred,
    AssessorDeckShuffled,
    CoopGameEnded,
    DecksShuffled,
    FinalRoundBegan,
    GiveAssessor,
    MarketCardDiscarded,
    MarketCardRevealed,
)
from companion.rules.coop.state import (
    ASSESSOR,
    ROW_SIZE,
    BadDeckOrder,
    CoopState,
    EndReason,
    Outcome,
    assessor_cards,
    market_cards,
)
from companion.rules.errors import (
    BadMove,
    CannotAfford,
    GameOver,
    InvalidChoice,
    NotYourTurn,
    SoldOut,
    WrongPhase,
    is_whole_number,
)
from companion.rules.machi_koro import engine, options
from companion.rules.machi_koro.catalog import Catalog, load_catalog
from companion.rules.machi_koro.facts import EstablishmentBought, Fact, GameWon, LandmarkBuilt, TurnEnded
from companion.rules.machi_koro.moves import Build, EndTurn, Move
from companion.rules.machi_koro.options import Closed, Why
from companion.rules.machi_koro.state import BANK

CoopMove = Move | GiveAssessor
Shuffle = Callable[[tuple[str, ...]], Sequence[str]]
"""Cards in, the same cards in a random order out (the service's, with `secrets`)."""


def shuffled(shuffle: Shuffle | None, cards: tuple[str, ...]) -> tuple[str, ...]:
    """The dealer's order of `cards`, checked to be exactly those cards."""
    if shuffle is None:
        raise BadDeckOrder("this move shuffles a deck: the dealer must give the order")
    order = tuple(shuffle(cards))
    if sorted(order) != sorted(cards):
        raise BadDeckOrder(f"a shuffle of {sorted(cards)!r} returned {list(order)!r}")
    return order


def refill(shown: int, deck: tuple[str, ...]) -> list[MarketCardRevealed]:
    """Cards from the market deck until a row of `shown` cards shows four again, or the deck
    is out."""
    return [MarketCardRevealed(card) for card in deck[: max(0, ROW_SIZE - shown)]]


def deal(state: CoopState, catalog: Catalog, shuffle: Shuffle | None) -> list[AnyFact]:
    """Set-up (RULES.md 16): the assessor's coins from the bank, both decks shuffled, four
    market cards face up."""
    if state.dealt:
        raise WrongPhase("the cards are already dealt")
    market = shuffled(shuffle, market_cards(catalog))
    assessor = shuffled(shuffle, assessor_cards())
    return [
        AssessorCoinsTransferred(BANK, ASSESSOR, state.stake, "stake", "stake"),
        DecksShuffled(market, assessor),
        *refill(0, market),
    ]


def decide(
    state: CoopState, seat: int, move: CoopMove, catalog: Catalog | None = None,
    shuffle: Shuffle | None = None,
) -> list[AnyFact]:
    """The facts `move` by `seat` causes, or a RuleError saying why it is refused."""
    catalog = catalog or load_catalog()
    if state.outcome is not None:
        raise GameOver(f"the game is over: the players {state.outcome.value}")
    if not state.dealt:
        raise WrongPhase("the cards are not dealt yet")
    if isinstance(move, GiveAssessor):
        return _give(state, seat, move)
    if isinstance(move, Build):
        return _build(state, seat, move, catalog)
    if isinstance(move, EndTurn):
        return _end_turn(state, seat, move, catalog, shuffle)
    return list(engine.decide(state.table, seat, move, catalog))


def _give(state: CoopState, seat: int, move: GiveAssessor) -> list[AnyFact]:
    """On their own turn, in any phase, a player may give coins to the assessor (RULES.md 17)."""
    table = state.table
    if not is_whole_number(seat) or not 0 <= seat < len(table.players):
        raise NotYourTurn(f"there is no seat {seat!r} at this table")
    if seat != table.active:
        raise NotYourTurn(f"only {table.roller.name} may give coins now, on their own turn")
    amount = move.amount
    if not is_whole_number(amount):
        raise BadMove(f"'amount' must be a whole number of coins, not {amount!r}")
    if amount < 1:
        raise InvalidChoice(f"give at least 1 coin, not {amount!r}")
    if amount > table.roller.coins:
        raise CannotAfford(f"{table.roller.name} has {table.roller.coins} coins, not {amount}")
    return [AssessorCoinsTransferred(seat, ASSESSOR, amount, "gift", "gift")]


def _build(state: CoopState, seat: int, move: Build, catalog: Catalog) -> list[AnyFact]:
    """Buy from the row (its card is replaced at once) or build a landmark; the game is won
    the moment both cities are complete (RULES.md 16, 19). The base engine refuses the other
    closed builds with its own errors."""
    closed = build_refusal(state, seat, move.card, catalog)
    if closed is not None and closed.why is Why.NOT_SHOWN:
        shown = ", ".join(state.market_row) or "nothing"
        raise SoldOut(f"the market row shows no {move.card!r} (it shows {shown})")
    base_events = engine.decide(state.table, seat, move, catalog)
    facts: list[AnyFact] = [e for e in base_events if not isinstance(e, GameWon)]
    if any(isinstance(e, EstablishmentBought) for e in facts):
        facts += refill(len(state.market_row) - 1, state.market_deck)
    if any(isinstance(e, LandmarkBuilt) for e in facts):
        goal = len(catalog.landmarks_to_win)
        done = [
            len(catalog.landmarks_to_win & (p.landmarks | {move.card} if i == seat else p.landmarks))
            for i, p in enumerate(state.table.players)
        ]
        if all(count == goal for count in done):
            facts.append(CoopGameEnded(Outcome.WON, EndReason.CITIES_COMPLETE))
    return facts


def _end_turn(
    state: CoopState, seat: int, move: EndTurn, catalog: Catalog, shuffle: Shuffle | None,
) -> list[AnyFact]:
    """Buy or discard, then the turn passes; after the second player's turn (seat 1 to seat 0)
    the assessor plays, or the final round is over (RULES.md 16, 18, 19)."""
    turn_ended = engine.decide(state.table, seat, move, catalog)
    facts: list[AnyFact] = []
    row = state.market_row
    if not state.bought and row:
        facts.append(MarketCardDiscarded(row[-1]))
        row = row[:-1]
    facts += refill(len(row), state.market_deck)
    facts += turn_ended
    passed = turn_ended[-1]
    if isinstance(passed, TurnEnded) and passed.next_active == 0 and not passed.bonus_turn:
        if state.final_round:
            facts.append(CoopGameEnded(Outcome.LOST, EndReason.FINAL_ROUND_OVER))
        else:
            facts += assessor_turn(
                catalog, state.assessor_coins, state.sought, state.assessor_deck,
                state.assessor_discards, shuffle,
            )
    return facts


def assessor_turn(
    catalog: Catalog, coins: int, sought: int, deck: tuple[str, ...], discards: tuple[str, ...],
    shuffle: Shuffle | None,
) -> list[AnyFact]:
    """The assessor's turn with `coins`, seeking the value `sought`, from its deck (top card
    first) and discards. Draw up to two cards looking for the value sought (RULES.md 18); a tax
    reshuffles every card not in the array; a tax the assessor cannot pay loses the game
    (RULES.md 19). An empty deck is made again from the discards (ours: the books are silent).
    Also the scenario form's turn (assessor_scenario.py)."""
    facts: list[AnyFact] = []
    for _ in range(2):
        if not deck:
            deck, discards = shuffled(shuffle, discards), ()
            facts.append(AssessorDeckShuffled(deck))
        card, deck = deck[0], deck[1:]
        draw = classify(catalog, card, sought)
        if draw.kind != "miss" and coins < draw.value:
            facts.append(AssessorCardDrawn(card, sought, "unpaid", draw.value))
            facts.append(CoopGameEnded(Outcome.LOST, EndReason.TAX_UNPAID))
            return facts
        facts.append(AssessorCardDrawn(card, sought, draw.kind, draw.value))
        if draw.kind == "miss":
            discards += (card,)
            continue
        facts.append(AssessorCoinsTransferred(ASSESSOR, BANK, draw.value, card, draw.kind))
        if draw.kind == "tax":
            facts.append(AssessorDeckShuffled(shuffled(shuffle, deck + discards)))
            if draw.last:
                facts.append(FinalRoundBegan())
        return facts
    return facts


def legal_moves(state: CoopState, seat: int, catalog: Catalog) -> list[CoopMove]:
    """Every move `seat` may make now: the base game's (builds from the row) and gifts."""
    if state.outcome is not None or not state.dealt:
        return []
    moves: list[CoopMove] = list(options.legal_moves(state.table, seat, catalog))
    if seat == state.table.active:
        moves += [GiveAssessor(n) for n in range(1, state.table.players[seat].coins + 1)]
    return moves


def build_refusal(state: CoopState, seat: int, card_id: str, catalog: Catalog) -> Closed | None:
    """Why `seat` may not build `card_id` now, or None when it may: the base game's reasons
    (`options.build_refusal`), a game that is over or not dealt, and an establishment the
    market row does not show (the base supply holds only the row's cards)."""
    closed = turn_refusal(state, seat)
    return closed if closed is not None else card_refusal(state, seat, card_id, catalog)


def turn_refusal(state: CoopState, seat: int) -> Closed | None:
    """`build_refusal`'s first part: a game that is over or not dealt, then the base turn's."""
    if state.outcome is not None:
        return options.GAME_OVER
    if not state.dealt:
        return options.NOT_BUILD_PHASE
    return options.turn_refusal(state.table, seat)


def card_refusal(state: CoopState, seat: int, card_id: str, catalog: Catalog) -> Closed | None:
    """`build_refusal`'s second part: the base card's reasons, an establishment with no copy
    in the supply being one the row does not show."""
    closed = options.card_refusal(state.table, seat, card_id, catalog)
    return options.NOT_SHOWN if closed is options.SOLD_OUT or closed is options.NOT_FACE_UP else closed


def build_options(state: CoopState, seat: int, catalog: Catalog, *, running: bool) -> dict[str, Any]:
    """The build list of `seat` in the form of `options.build_options`: every card, the
    establishments not in the row closed `not_shown` (in the build phase: under a turn's
    reason a card gives only `built`)."""
    turn = turn_refusal(state, seat) if running or state.outcome is not None else options.NOT_RUNNING
    if not 0 <= seat < len(state.table.players):
        return options.market_options(catalog, turn, lambda card: None)
    return options.market_options(catalog, turn, lambda card: card_refusal(state, seat, card, catalog))


def default_move(state: CoopState) -> Move | None:
    """What a timed-out choice does: the base game's defaults (RULES.md 11); nothing once the
    game is over (its table is finished)."""
    return engine.default_move(state.table)


def adjust(state: CoopState, seat: int, amount: int, reason: str) -> list[Fact]:
    """The organizer's correction of a seat's coins, as in the base game."""
    return engine.adjust(state.table, seat, amount, reason)
