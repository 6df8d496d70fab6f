"""The Legacy referee (RULES.md 15): `decide` returns a move's facts or refuses it.

Rolls, income, establishments and purple choices are the Machi Koro engine's, played on the
table inside with the game's catalog; this module adds the seat's own three landmarks, the
community landmark's contribution, the one action per turn, the win (all own landmarks and the
contribution), and the note of the manual cards a roll activated.
"""

from __future__ import annotations

from companion.rules.errors import (
    AlreadyBuilt,
    AlreadyOwned,
    CannotAfford,
    GameOver,
    InvalidChoice,
    NotYourTurn,
    RuleError,
    WrongPhase,
    is_whole_number,
)
from companion.rules.legacy.errors import AlreadyContributed, NotYourLandmark
from companion.rules.legacy.facts import Contributed, LegacyFact, ManualCardsActivated
from companion.rules.legacy.moves import Contribute, LegacyMove
from companion.rules.legacy.state import LegacyState
from companion.rules.machi_koro import engine, options
from companion.rules.machi_koro import moves as mv
from companion.rules.machi_koro.activation import counter_clockwise, pays
from companion.rules.machi_koro.facts import (
    ChoiceAnswered,
    CoinsTransferred,
    DiceRolled,
    Fact,
    GameWon,
    LandmarkBuilt,
    RollResolved,
)
from companion.rules.machi_koro.options import Closed, Why
from companion.rules.machi_koro.state import BANK, Choice, Phase, TableState


def decide(state: LegacyState, seat: int, move: LegacyMove) -> list[LegacyFact]:
    """The facts `move` by `seat` causes, or a RuleError saying why it is refused."""
    if isinstance(move, Contribute):
        return _contribute(state, seat)
    if isinstance(move, mv.Build) and any(lm.id == move.card for lm in state.setup.catalog.landmarks):
        return _build_landmark(state, seat, move.card)
    if isinstance(move, mv.TargetTvStation):
        return _take_from_one(state, seat, move)
    return with_manual(state, engine.decide(state.table, seat, move, state.rules))


# ---------------------------------------------------------------- the turn's one action


def action_refusal(state: LegacyState, seat: int) -> Closed | None:
    """Why `seat` may take no action now (build or contribute), or None: the game is over, not
    its turn, the roll not resolved, or this turn's action done (RULES.md 15)."""
    return options.turn_refusal(state.table, seat)


def landmark_refusal(state: LegacyState, seat: int, landmark: str) -> Closed | None:
    """Why `seat` may not build `landmark` whatever the turn, or None: not one of its three
    (Why.UNKNOWN), built, too dear."""
    if landmark not in state.setup.landmarks[seat]:
        return options.UNKNOWN
    player = state.table.players[seat]
    if landmark in player.landmarks:
        return options.BUILT
    cost = state.setup.landmark_cost(seat, landmark)
    return None if player.coins >= cost else Closed(Why.COINS, cost - player.coins)


CONTRIBUTED = "contributed"
"""The reason code of a contribution already made this game (the phone's `contribute.why`)."""


def contribution_refusal(state: LegacyState, seat: int) -> Closed | str | None:
    """Why `seat` may not contribute whatever the turn: it has (CONTRIBUTED), or too dear."""
    if state.has_contributed(seat):
        return CONTRIBUTED
    cost = state.setup.catalog.community_landmark(state.setup.community).cost
    coins = state.table.players[seat].coins
    return None if coins >= cost else Closed(Why.COINS, cost - coins)


def _turn_error(state: LegacyState, seat: int) -> None:
    """Refuse an action out of turn, as the base engine refuses a build."""
    table = state.table
    if not is_whole_number(seat) or not 0 <= seat < len(table.players):
        raise NotYourTurn(f"there is no seat {seat!r} at this table")
    closed = action_refusal(state, seat)
    if closed is None:
        return
    messages: dict[Why, RuleError] = {
        Why.GAME_OVER: GameOver(f"the game is over: {table.players[table.winner or 0].name} won"),
        Why.NOT_YOUR_TURN: NotYourTurn(f"it is {table.roller.name}'s turn, "
                                       f"not {table.players[seat].name}'s"),
        Why.NOT_BUILD_PHASE: WrongPhase(f"this is the {table.phase.value} phase, not build"),
        Why.BUILT_THIS_TURN: AlreadyBuilt("one action per turn: this turn's action is done"),
    }
    raise messages[closed.why]


def _build_landmark(state: LegacyState, seat: int, landmark: str) -> list[LegacyFact]:
    _turn_error(state, seat)
    player = state.table.players[seat]
    closed = landmark_refusal(state, seat, landmark)
    if closed is options.UNKNOWN:
        own = ", ".join(state.setup.landmarks[seat])
        raise NotYourLandmark(f"{landmark!r} is not one of {player.name}'s landmarks ({own})")
    if closed is options.BUILT:
        raise AlreadyOwned(f"{player.name} has already built the {landmark!r}")
    cost = state.setup.landmark_cost(seat, landmark)
    if closed is not None:
        raise CannotAfford(f"{landmark!r} costs {cost}, {player.name} has {player.coins}")
    facts: list[LegacyFact] = [CoinsTransferred(seat, BANK, cost, landmark),
                               LandmarkBuilt(seat, landmark)]
    if state.has_won(seat, player.landmarks | {landmark}, state.has_contributed(seat)):
        facts.append(GameWon(seat))
    return facts


def _contribute(state: LegacyState, seat: int) -> list[LegacyFact]:
    _turn_error(state, seat)
    player = state.table.players[seat]
    community = state.setup.catalog.community_landmark(state.setup.community)
    closed = contribution_refusal(state, seat)
    if closed == CONTRIBUTED:
        raise AlreadyContributed(f"{player.name} has already contributed to the "
                                 f"{community.id!r} in this game")
    if closed is not None:
        raise CannotAfford(f"contributing to the {community.id!r} costs {community.cost}, "
                           f"{player.name} has {player.coins}")
    facts: list[LegacyFact] = [CoinsTransferred(seat, BANK, community.cost, community.id),
                               Contributed(seat, community.id)]
    if community.bonus.kind == "coins":
        facts.append(CoinsTransferred(BANK, seat, community.bonus.amount, community.id))
    if state.has_won(seat, player.landmarks, True):
        facts.append(GameWon(seat))
    return facts


# ---------------------------------------------------------------- purple and manual cards


def _take_from_one(state: LegacyState, seat: int, move: mv.TargetTvStation) -> list[LegacyFact]:
    """The answer to a card that takes from one player (the base game's TV Station; in a
    Legacy catalog it may have another id and amount: at most one such card is in play)."""
    table = state.table
    if table.phase is Phase.FINISHED:
        raise GameOver(f"the game is over: {table.players[table.winner or 0].name} won")
    if not is_whole_number(seat) or seat != table.active:
        raise NotYourTurn(f"it is {table.roller.name}'s turn to choose")
    if table.phase is not Phase.CHOOSE or table.pending[0] is not Choice.TV_STATION:
        raise WrongPhase("no card waits for a player to take from")
    target = move.target
    if not is_whole_number(target) or target == table.active or not 0 <= target < len(table.players):
        raise InvalidChoice(f"the card needs another player's seat, not {target!r}")
    card = next(card for card in state.rules.establishments.values()
                if card.effect == "take_from_one")
    paid = min(card.amount, table.players[target].coins)
    return [CoinsTransferred(target, table.active, paid, card.id, forgiven=card.amount - paid),
            ChoiceAnswered(Choice.TV_STATION)]


def with_manual(state: LegacyState, facts: list[Fact]) -> list[LegacyFact]:
    """The base engine's facts, with the manual cards the roll activated noted just before its
    RollResolved (when the roll was resolved)."""
    resolved = next((i for i, fact in enumerate(facts) if isinstance(fact, RollResolved)), None)
    if resolved is None:
        return list(facts)
    rolled = [fact for fact in facts if isinstance(fact, DiceRolled)]
    total = sum(rolled[-1].dice if rolled else state.table.dice)
    found = manual_activations(state, total)
    if not found:
        return list(facts)
    note = ManualCardsActivated(total, tuple(s for s, _, _ in found), tuple(c for _, c, _ in found),
                                tuple(n for _, _, n in found))
    return [*facts[:resolved], note, *facts[resolved:]]


def manual_activations(state: LegacyState, total: int) -> list[tuple[int, str, int]]:
    """(seat, card, copies) of the manual cards a roll of `total` activates, by colour as the
    engine activates cards (RULES.md 2): the roller's first, then the others counter-clockwise;
    red ones only at the other players, green and purple only at the roller."""
    table: TableState = state.table
    found = []
    for seat in (table.active, *counter_clockwise(table)):
        player = table.players[seat]
        for card_id, copies in player.cards.items():
            entry = state.setup.catalog.establishment(card_id)
            card = state.rules.establishments[card_id]
            if not entry.effect.is_manual or total not in card.activation or not pays(player, card):
                continue
            roller = seat == table.active
            if card.colour == "blue" or (card.colour == "red") != roller:
                found.append((seat, card_id, copies))
    return found


# ---------------------------------------------------------------- what a seat may do


def legal_moves(state: LegacyState, seat: int) -> list[LegacyMove]:
    """Every move `seat` may make now (dice moves with empty dice): the base game's, with the
    seat's own landmarks instead of the catalog's, and the contribution."""
    landmarks = state.rules.landmarks
    moves: list[LegacyMove] = [
        move for move in options.legal_moves(state.table, seat, state.rules)
        if not (isinstance(move, mv.Build) and move.card in landmarks)]
    if state.table.phase is Phase.FINISHED or action_refusal(state, seat) is not None:
        return moves
    at = len(moves) - 1  # before EndTurn
    own: list[LegacyMove] = [mv.Build(lm) for lm in state.setup.landmarks[seat]
                             if landmark_refusal(state, seat, lm) is None]
    if contribution_refusal(state, seat) is None:
        own.append(Contribute())
    return [*moves[:at], *own, moves[at]]


def adjust(state: LegacyState, seat: int, amount: int, reason: str) -> list[LegacyFact]:
    """The organizer's correction of a seat's coins (also how a manual card is settled: the
    reason names the card, RULES.md 15)."""
    return [*engine.adjust(state.table, seat, amount, reason)]
