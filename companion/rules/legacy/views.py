"""What a Legacy game's screens show beyond the base game's (docs/api.md): each player's three
landmarks with their letter codes, the community landmark with who has contributed, the manual
cards the last roll activated, and the game's catalog as it stood when the game started; a
seat's moves and build list with its own landmarks and the contribution. Pure functions of a
`Story`."""

from __future__ import annotations

from typing import Any

from companion.rules.legacy import codec
from companion.rules.legacy.catalog import KINDS, LegacyCatalog
from companion.rules.legacy.engine import (
    CONTRIBUTED,
    action_refusal,
    contribution_refusal,
    landmark_refusal,
    legal_moves,
)
from companion.rules.legacy.entries import effect_json, entry_json, texts_json
from companion.rules.legacy.facts import Contributed, ManualCardsActivated
from companion.rules.legacy.state import LegacyState
from companion.rules.machi_koro import options
from companion.rules.machi_koro import views as base_views
from companion.rules.machi_koro.asks import PURPLE_ASKS, choice_json
from companion.rules.machi_koro.moves import ChooseDice, Roll
from companion.rules.machi_koro.options import Closed, Why
from companion.rules.machi_koro.state import Choice
from companion.rules.machi_koro.views import facts_since_roll
from companion.rules.ruleset import Json, Result, Story

LegacyStory = Story[LegacyState, Any]
ENTRY_KIND = {"establishments": "establishment", "landmarks": "landmark", "community": "community"}


def cards_json(catalog: LegacyCatalog) -> list[Json]:
    """The game's catalog for its pages: every entry as the console entered it, with its kind
    and its names in every language (the page picks its own)."""
    return [{**entry_json(entry), "kind": ENTRY_KIND[kind]}
            for kind in KINDS for entry in catalog.entries(kind)]


def landmarks_json(state: LegacyState) -> list[list[Json]]:
    """Each seat's three landmarks, left to right by letter: id, letter, names, cost, built."""
    setup = state.setup
    return [[{"id": lm, "letter": setup.catalog.landmark(lm).letter,
              "names": texts_json(setup.catalog.landmark(lm).names),
              "cost": setup.landmark_cost(seat, lm), "built": lm in player.landmarks}
             for lm in setup.landmarks[seat]]
            for seat, player in enumerate(state.table.players)]


def community_json(state: LegacyState) -> Json:
    """The community landmark: its cost, its bonus and the seats that contributed, in order."""
    card = state.setup.catalog.community_landmark(state.setup.community)
    return {"id": card.id, "names": texts_json(card.names), "cost": card.cost,
            "bonus": effect_json(card.bonus), "contributed": list(state.contributed)}


def manual_json(story: LegacyStory) -> list[Json]:
    """The manual cards the latest roll activated: the organizer settles each by a correction
    whose reason names the card (RULES.md 15)."""
    return [{"seat": seat, "card": card, "copies": copies, "total": fact.total}
            for fact in facts_since_roll(story) if isinstance(fact, ManualCardsActivated)
            for seat, card, copies in zip(fact.seats, fact.cards, fact.copies, strict=True)]


def legacy_json(story: LegacyStory, *, cards: bool) -> Json:
    """`{"legacy": ...}`: what every seat and the hall see of the Legacy game (None before the
    start); `cards`: with the game's catalog (the seats' pages); the hall tile gets only its
    establishments' names instead, in every language, for its lines of coins and manual cards."""
    state = story.state
    if state is None:
        return {"legacy": None}
    view: Json = {
        "game": state.setup.game, "first": state.setup.first,
        "landmarks": landmarks_json(state), "community": community_json(state),
        "needs": [{"landmarks": len(set(state.setup.landmarks[seat]) - player.landmarks),
                   "contribute": not state.has_contributed(seat)}
                  for seat, player in enumerate(state.table.players)],
        "manual": manual_json(story),
    }
    if cards:
        view["cards"] = cards_json(state.setup.catalog)
    else:
        view["card_names"] = {entry.id: texts_json(entry.names)
                              for entry in state.setup.catalog.entries("establishments")}
    return {"legacy": view}


def choices_json(story: LegacyStory, seat: int) -> list[Json]:
    """The moves this seat may make now, in their wire form (as the base game's choices: no
    roll when the hall rolls, no choice of the dice count it already has)."""
    state = story.state
    if state is None or not story.running or not 0 <= seat < len(state.table.players):
        return []
    dice_count = state.table.players[seat].dice_count
    return [codec.wire_move(move) for move in legal_moves(state, seat)
            if not (story.roll_mode == "hall" and isinstance(move, Roll))
            and not (isinstance(move, ChooseDice) and move.count == dice_count)]


def asks_json(story: LegacyStory, seat: int, wires: list[Json]) -> list[Json]:
    """The turn's open choice as data, asked by the game's own card (`asks.choice_json`)."""
    state = story.state
    if state is None or not story.running:
        return []
    found = choice_json(state.table, seat, wires, state.rules)
    return [found] if found is not None else []


def own_card(state: LegacyState, card: str) -> str:
    """The game's own card for a base purple card a swap or an answered choice names
    ("business_center", "tv_station"), found by its effect: the pages name it as the game does."""
    if card not in {choice.value for choice in Choice}:
        return card
    effect = PURPLE_ASKS[Choice(card)]
    return next((c.id for c in state.rules.establishments.values() if c.effect == effect), card)


def tile_json(story: LegacyStory, result: Result | None) -> Json:
    """The base game's tile, the card that asks being the game's own."""
    return base_views.tile_json(story, result, story.state.rules if story.state is not None else None)


def _option(card: str, closed: Closed | None) -> Json:
    option: Json = {"card": card}
    if closed is not None:
        option["why"] = closed.why.value
        if closed.why is Why.COINS:
            option["short"] = closed.short
    return option


def builds_json(story: LegacyStory, seat: int) -> Json:
    """The seat's build list in the base game's form (`{"why", "cards"}`): the supply's
    establishments, then the seat's own three landmarks, each with its own reason; under the
    turn's reason a card says only `built`."""
    state = story.state
    if state is None or not 0 <= seat < len(state.table.players):
        return {"why": options.NOT_RUNNING.why.value, "cards": []}
    turn = _turn(story, seat)
    player = state.table.players[seat]
    cards = []
    for card in state.rules.establishments.values():
        if card.copies:  # a pile of the supply (town-square cards in reserve have none)
            closed = options.establishment_refusal(player, state.table.supply, card)
            cards.append(_option(card.id, closed if turn is None else None))
    for landmark in state.setup.landmarks[seat]:
        closed = landmark_refusal(state, seat, landmark)
        listed = turn is None or (closed is not None and closed.why in options.LISTING)
        cards.append(_option(landmark, closed if listed else None))
    return {"why": turn.why.value if turn is not None else None, "cards": cards}


def contribute_json(story: LegacyStory, seat: int) -> Json | None:
    """The contribution as the phone offers it: its cost, and why it is closed (the turn's
    reason, `contributed`, or `coins` with `short`), or null when open."""
    state = story.state
    if state is None or not 0 <= seat < len(state.table.players):
        return None
    cost = state.setup.catalog.community_landmark(state.setup.community).cost
    own = contribution_refusal(state, seat)
    if own == CONTRIBUTED:
        return {"cost": cost, "why": CONTRIBUTED}
    turn = _turn(story, seat)
    closed = turn if turn is not None else own
    view: Json = {"cost": cost, "why": None}
    if isinstance(closed, Closed):
        view["why"] = closed.why.value
        if closed.why is Why.COINS:
            view["short"] = closed.short
    return view


def _turn(story: LegacyStory, seat: int) -> Closed | None:
    state = story.state
    assert state is not None
    over = state.table.winner is not None
    return action_refusal(state, seat) if story.running or over else options.NOT_RUNNING


def contribution_summary(fact: object, active: int) -> Json | None:
    """A contribution's summary for the undone list (the base game's facts say the rest)."""
    if isinstance(fact, Contributed):
        return {"move": "contribute", "seat": fact.seat, "card": fact.community}
    return None
