"""What Machi Koro's screens show of a table (docs/api.md): the players, the game's position,
the coin movements with their reasons, the undone moves, the market, and each seat's options
open or closed with the reason. Pure functions of a `Story`, the hall's memory of a table."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.rules.machi_koro import facts as ev
from companion.rules.machi_koro.asks import asking_card, choice_json
from companion.rules.machi_koro.catalog import Catalog, load_catalog
from companion.rules.machi_koro.codec import wire_move
from companion.rules.machi_koro.moves import ChooseDice, Roll
from companion.rules.machi_koro.options import build_options, legal_moves, not_running_options
from companion.rules.machi_koro.state import BANK, Phase, TableState
from companion.rules.ruleset import Json, Played, Result, Story

MkStory = Story[Any, Any]
EntryOf = Callable[[MkStory, object], "Json | None"]


def base_of(state: Any) -> TableState:
    """The base game's table in a state: the state itself, or the one a variant is built on."""
    return state if isinstance(state, TableState) else state.table


def parties(story: MkStory, source: int | str, target: int | str) -> Json:
    """A ledger entry's two parties by account (a seat, "bank", "assessor") and by name."""
    def name(account: int | str) -> str:
        return account if isinstance(account, str) else story.names[account]

    return {"from": name(source), "to": name(target), "from_seat": source, "to_seat": target}


def facts_since_roll(story: MkStory) -> list[object]:
    """The table's facts from its latest roll (not a reroll) on, or all of them before any
    roll: what the screens show as the last roll's coin movements."""
    found: list[object] = []
    for move in reversed(story.moves):
        for fact in reversed(move.facts):
            found.append(fact)
            if isinstance(fact, ev.DiceRolled) and not fact.reroll:
                return found[::-1]
    return found[::-1]


def last_roll_entries(story: MkStory) -> list[Json]:
    """The coin movements since the latest roll (income, payments, builds, corrections): the
    hall screen's lines of a table."""
    return [entry_json(story, e) for e in facts_since_roll(story)
            if isinstance(e, ev.CoinsTransferred | ev.CoinsAdjusted)]


def turn_moves(story: MkStory) -> Sequence[Played[Any, Any]]:
    """The moves of the current turn: from the one that ended the last turn on (a hall roll's
    closing of that turn, with the defaults it applied, included), or all of them in the first
    turn. A new turn starts the phones' lines afresh."""
    moves = story.moves
    for index in range(len(moves) - 1, -1, -1):
        if any(isinstance(fact, ev.TurnEnded) for fact in moves[index].facts):
            return moves[index:]
    return moves


def turn_entries(story: MkStory, entry_of: EntryOf) -> list[Json]:
    """Every change of a player's coins or cards this turn, in order, with its reason: the
    seat view's `entries` (docs/api.md). A choice's default says who applied it."""
    entries = []
    for move in turn_moves(story):
        default = default_by(move)
        for fact in move.facts:
            entry = entry_of(story, fact)
            if entry is not None:
                if default:
                    entry["default"] = default
                entries.append(entry)
    return entries


def default_by(move: Played[Any, Any]) -> str | None:
    """"timer" when the move is a choice's default at its time-out, "hall" when the hall roll
    closed the turn (the defaults of its open choices), else None."""
    if move.author == "timer":
        return "timer"
    if move.author == "hall" and not any(isinstance(e, ev.DiceRolled) for e in move.facts):
        return "hall"
    return None


def turn_entry(story: MkStory, fact: object) -> Json | None:
    """A line of the seat view's `entries` for a fact that changes a player's coins or cards:
    a coin movement, a correction, a Business Center swap; None for the others."""
    if isinstance(fact, ev.CoinsTransferred | ev.CoinsAdjusted):
        return entry_json(story, fact)
    if isinstance(fact, ev.EstablishmentsSwapped):
        return {**parties(story, fact.seat, fact.other), "amount": 0, "card": "business_center",
                "copies": 0, "mall_bonus": 0, "forgiven": 0, "give": fact.give, "take": fact.take}
    return None


def undone_json(story: MkStory, summary: Callable[[Played[Any, Any]], Json]) -> list[Json]:
    """The moves the organizer undid since the current turn began, oldest first: what each was
    and what its undo changed in every player's coins, cards and landmarks (docs/api.md)."""
    return [{**summary(move), "author": move.author, "changes": changes(after, move.before)}
            for move, after in story.undone]


def move_summary(move: Played[Any, Any], summary_of: Callable[[object, int], Json | None]) -> Json:
    """What a move was, from its first fact that says so (`summary_of`): its kind, whose it
    was, and its card, reason or dice."""
    active = base_of(move.before).active
    for fact in move.facts:
        summary = summary_of(fact, active)
        if summary is not None:
            return summary
    return {"move": "move", "seat": active}


def fact_summary(fact: object, active: int) -> Json | None:
    """A move's summary as one of its facts says it, or None for a fact that does not."""
    match fact:
        case ev.CoinsAdjusted(seat=seat, amount=amount, reason=reason):
            return {"move": "correction", "seat": seat, "amount": amount, "reason": reason}
        case ev.EstablishmentBought(seat=seat, card=card) | ev.LandmarkBuilt(seat=seat, landmark=card):
            return {"move": "build", "seat": seat, "card": card}
        case ev.EstablishmentsSwapped(seat=seat, other=other, give=give, take=take):
            return {"move": "swap", "seat": seat, "with": other, "give": give, "take": take}
        case ev.DiceRolled(seat=seat, dice=dice):
            return {"move": "roll", "seat": seat, "dice": list(dice)}
        case ev.DiceCountChosen(seat=seat, count=count):
            return {"move": "dice_count", "seat": seat, "count": count}
        case ev.ChoiceAnswered(choice=choice):
            return {"move": "choice", "seat": active, "card": choice.value}
        case ev.TurnEnded():
            return {"move": "end_turn", "seat": active}
    return None


def changes(old: Any, new: Any) -> list[Json]:
    """Each player whose coins, cards or landmarks differ from `old` to `new`, by how much."""
    found = []
    for seat, (was, now) in enumerate(zip(base_of(old).players, base_of(new).players, strict=True)):
        cards = {card: now.owns(card) - was.owns(card) for card in sorted({*was.cards, *now.cards})
                 if now.owns(card) != was.owns(card)}
        landmarks = {lm: 1 if lm in now.landmarks else -1 for lm in sorted(was.landmarks ^ now.landmarks)}
        if now.coins != was.coins or cards or landmarks:
            found.append({"seat": seat, "coins": now.coins - was.coins, "cards": cards,
                          "landmarks": landmarks})
    return found


def entry_json(story: MkStory, fact: ev.CoinsTransferred | ev.CoinsAdjusted) -> Json:
    if isinstance(fact, ev.CoinsAdjusted):
        source, target = (BANK, fact.seat) if fact.amount > 0 else (fact.seat, BANK)
        return {**parties(story, source, target), "amount": abs(fact.amount), "card": "adjustment",
                "copies": 0, "mall_bonus": 0, "forgiven": 0, "reason": fact.reason}
    return {**parties(story, fact.source, fact.target), "amount": fact.amount, "card": fact.card,
            "copies": fact.copies, "mall_bonus": fact.mall_bonus, "forgiven": fact.forgiven}


def players_json(story: MkStory) -> list[Json]:
    """Each seat's city; `place` is the place a player took by finishing in play on
    (RULES.md 14), else None."""
    if story.state is None:
        return [{"seat": i, "name": name, "coins": None, "cards": {}, "landmarks": [],
                 "dice_count": 1, "place": None} for i, name in enumerate(story.names)]
    return [{"seat": i, "name": p.name, "coins": p.coins, "cards": dict(p.cards),
             "landmarks": sorted(p.landmarks), "dice_count": p.dice_count, "place": p.place}
            for i, p in enumerate(base_of(story.state).players)]


def game_json(story: MkStory, result: Result | None) -> Json:
    state = base_of(story.state) if story.state is not None else None
    return {
        "active": state.active if state else None,
        "phase": state.phase.value if state else "setup",
        "turn": state.turn if state else 0,
        "dice": list(state.dice) if state else [],
        "pending": [c.value for c in state.pending] if state else [],
        "extra_turn": state.extra_turn if state else False,
        "winner": state.winner if state else None,
        "result": result.json() if result else None,
        "play_on": state.play_on if state else False,
        # Harbor (docs/rules.md 31-32), only where they happened: what was added to the dice,
        # and the table's own roll for its Tuna Boats
        **({"added": state.added} if state and state.added else {}),
        **({"table_roll": list(state.table_roll)} if state and state.table_roll else {}),
    }


def base_result(state: TableState) -> Result | None:
    """The base game's end: the first to build every landmark won, the others lost. In play on
    (RULES.md 14) the game ends when one player is left: each seat has the place it took, the
    first place won."""
    if state.winner is None:
        return None
    if state.play_on:
        places = tuple(player.place or len(state.players) for player in state.players)
        return Result("places_taken", tuple("won" if place == 1 else "lost" for place in places),
                      places)
    seats = range(len(state.players))
    return Result("landmarks_complete",
                  tuple("won" if seat == state.winner else "lost" for seat in seats),
                  tuple(1 if seat == state.winner else 2 for seat in seats))


def market_json(story: MkStory) -> Json:
    """What the phone's build list needs beyond `builds`: the stock left of each card. With the
    variable supply (RULES.md 13) `supply` is the face-up piles and `draw` how many cards of
    each kind are still in the draw pile (Yucata's "(n)"); `draw_left` is the pile's size."""
    state = base_of(story.state) if story.state is not None else None
    market: Json = {"supply": dict(state.supply) if state else {},
                    "variable_supply": state.variable_supply if state else False}
    if state is not None and state.variable_supply:
        draw: dict[str, int] = {}
        for card in state.draw_pile:
            draw[card] = draw.get(card, 0) + 1
        market["draw"] = draw
        market["draw_left"] = len(state.draw_pile)
    return market


def choices_json(story: MkStory, seat: int, catalog: Catalog) -> list[Json]:
    """The moves this seat may make now, in the wire form of docs/api.md."""
    if story.state is None or not story.running:
        return []
    state = base_of(story.state)
    if not 0 <= seat < len(state.players) or not state.playing(seat):
        return []  # a finished player no longer moves (RULES.md 14)
    choices = []
    hall_rolls, dice_count = story.roll_mode == "hall", state.players[seat].dice_count
    for move in legal_moves(state, seat, catalog):
        if hall_rolls and isinstance(move, Roll):
            continue
        if isinstance(move, ChooseDice) and move.count == dice_count:
            continue
        choices.append(wire_of(move))
    return choices


# The wire forms of the moves the views offered, made once (moves are values); a view gets
# copies, as it got `wire_move`'s new dicts.
_WIRES: dict[object, Json] = {}


def wire_of(move: Any) -> Json:
    """`wire_move(move)`, a copy of the one made the first time."""
    wire = _WIRES.get(move)
    if wire is None:
        wire = wire_move(move)
        if len(_WIRES) < 4096:
            _WIRES[move] = wire
    return dict(wire)


def asks_json(story: MkStory, seat: int, wires: list[Json], catalog: Catalog) -> list[Json]:
    """The seat view's `asks`: the turn's open choice as data (`asks.choice_json`), if any."""
    if story.state is None or not story.running:
        return []
    found = choice_json(base_of(story.state), seat, wires, catalog)
    return [found] if found is not None else []


def asks_field(asks: list[Json]) -> Json:
    """`{"asks": asks}`, or nothing when nothing is asked (most views: bytes saved)."""
    return {"asks": asks} if asks else {}


def builds_json(story: MkStory, seat: int, catalog: Catalog) -> Json:
    """This seat's build list (`rules.machi_koro.options.build_options`, docs/api.md): the
    turn's reason once, or null, and every card of the market with its own reason, if any; the
    phone's build list shows these as they are. Before the table starts every card is closed
    by the turn's `not_running`."""
    if story.state is None:
        return not_running_options(catalog)
    return build_options(base_of(story.state), seat, catalog, running=story.running)


def cards_json(catalog: Catalog, lang: str) -> list[Json]:
    """The cards as the pages draw them, named in the page's language (the catalog has every
    language's names)."""
    def name(names: Mapping[str, str]) -> str:
        return names.get(lang) or names["en"]

    cards = [{"id": c.id, "kind": "establishment", "name": name(c.names), "colour": c.colour,
              "icon": c.icon, "activation": list(c.activation), "cost": c.cost,
              "effect": c.effect, "amount": c.amount} for c in catalog.establishments.values()]
    cards += [{"id": lm.id, "kind": "landmark", "name": name(lm.names), "cost": lm.cost,
               "effect": lm.effect, "amount": lm.amount} for lm in catalog.landmarks.values()]
    return cards


def waiting_for(state: Any) -> str | None:
    """The open choice a tile names: "reroll", the landmark that asks (Harbor), or the purple
    card that waits."""
    base = base_of(state)
    if base.phase is Phase.REROLL:
        return "reroll"
    if base.phase is Phase.HARBOR:
        return "harbor"
    if base.phase is Phase.CHOOSE:
        return base.pending[0].value
    return None


def table_catalog(story: MkStory) -> Catalog:
    """The catalog a story's table plays: its set-up; the base cards for a story told without
    one (a test's, a scenario's)."""
    return story.setup if isinstance(story.setup, Catalog) else load_catalog()


def tile_json(story: MkStory, result: Result | None, catalog: Catalog | None = None) -> Json:
    """One tile of the hall screen: the players' coins and landmarks, the game's position, the
    last roll's coin movements, the choice that waits (`waiting`) with the card that asks it
    (`asking`, of `catalog`: the table's unless a game has its own) and whose turn it is."""
    state = base_of(story.state) if story.state is not None else None
    market = market_json(story)
    return {"players": [{k: p[k] for k in ("seat", "name", "coins", "landmarks", "place")}
                        for p in players_json(story)],
            **game_json(story, result),
            **({"market": market} if market["variable_supply"] else {}),
            "entries": last_roll_entries(story),
            "waiting": waiting_for(state) if state is not None else None,
            "asking": (asking_card(state, catalog or table_catalog(story))
                       if state is not None else None),
            "active_name": story.names[state.active] if state is not None else None}


def common_json(story: MkStory, result: Result | None, entry_of: EntryOf,
                summary: Callable[[Played[Any, Any]], Json]) -> Json:
    """The part of every seat's view a Machi Koro table shares (`Ruleset.common_view`), with a
    variant's own lines of the turn (`entry_of`) and summaries of undone moves (`summary`)."""
    return {"players": players_json(story), **game_json(story, result),
            "entries": turn_entries(story, entry_of), "undone": undone_json(story, summary),
            **market_json(story)}
