"""A turn's open question as data (docs/api.md, "A choice as data"): the card that asks, the
prompt, each answer with the wire move it sends and its label, the default the timer applies,
and for a pick of several parts (the Business Center's) the fields to pick. The phone, the
console and the hall draw any such choice with one piece of JS, so a new card with a choice
needs only this data. Words are msgids with their arguments (`words`), translated by the page;
an argument may name a card (`{"card": id}`) or a seat (`{"seat": n}`), which the page names in
its own language. Each answer carries its own `done` words, the phone's confirmation once it is
accepted; their arguments may also be the picked answer's value of one of its fields
(`{"field": key}`) or the dice after it (`{"dice": "sum"}`), which only the answer makes known
(`answered`). The rules read no clock: a `timed` choice counts down from the view's
`waited` and `choice_seconds`, which the hall puts in every view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.rules.machi_koro import activation
from companion.rules.machi_koro.catalog import Catalog
from companion.rules.machi_koro.codec import wire_move
from companion.rules.machi_koro.engine import default_move
from companion.rules.machi_koro.state import Choice, Phase, TableState
from companion.rules.ruleset import N_, Json

# The effect of the card that asks in each open phase (a Legacy catalog names its own cards).
LANDMARK_ASKS = {Phase.REROLL: "reroll", Phase.HARBOR: "add_to_total"}
PURPLE_ASKS = {Choice.TV_STATION: "take_from_one", Choice.BUSINESS_CENTER: "swap"}
ANSWERS = frozenset({"keep", "reroll", "harbor", "tv_station", "business_center"})


def words(msgid: str, **args: Any) -> Json:
    """Words for the page to translate: the msgid and its arguments."""
    return {"text": msgid, "args": args} if args else {"text": msgid}


def answered(msgid: str, **args: Any) -> Json:
    """An answer's `done` words (`words`): an argument `{"field": key}` is the value the answer
    picked for that field, `{"dice": "sum"}` the sum of the dice after it."""
    return words(msgid, **args)


def card(card_id: str) -> Json:
    return {"card": card_id}


def seat(number: int) -> Json:
    return {"seat": number}


def asking_card(state: TableState, catalog: Catalog) -> str | None:
    """The id of the card whose question waits (the active player's Radio Tower, Harbor, TV
    Station or Business Center, whatever its id in this catalog), or None."""
    player = state.players[state.active]
    if state.phase in LANDMARK_ASKS:
        effect = LANDMARK_ASKS[state.phase]
        built = activation.built_with(catalog, player, effect)
        found = built or next((lm for lm in catalog.landmarks.values() if lm.effect == effect), None)
        return found.id if found else None
    if state.phase is Phase.CHOOSE and state.pending:
        effect = PURPLE_ASKS[state.pending[0]]
        cards = [c for c in catalog.establishments.values() if c.effect == effect]
        owned = [c for c in cards if player.owns(c.id)]
        return (owned or cards)[0].id if cards else state.pending[0].value
    return None


def choice_json(state: TableState, seat_number: int, wires: Sequence[Json],
                catalog: Catalog) -> Json | None:
    """The open choice of `seat_number`'s turn made from the moves it may make now (`wires`,
    the seat view's `choices`), or None when nothing is asked of it."""
    asker = asking_card(state, catalog) if seat_number == state.active else None
    if asker is None or not any(wire.get("kind") in ANSWERS for wire in wires):
        return None
    fallback = default_move(state)
    default = wire_move(fallback) if fallback is not None else None
    total = sum(state.dice)
    keep = words(N_("Keep {sum}"), sum=total)
    kept = answered(N_("You keep {sum}."), sum=total)
    if state.phase is Phase.REROLL:
        prompt = words(N_("{card}: keep {sum} or roll again?"), card=card(asker), sum=total)
        options = [option({"kind": "keep"}, keep, kept),
                   option({"kind": "reroll"}, words(N_("Roll again")),
                          answered(N_("You rolled again: {sum}."), sum={"dice": "sum"}))]
    elif state.phase is Phase.HARBOR:
        prompt = words(N_("{card}: add 2 to {sum}?"), card=card(asker), sum=total)
        options = [option({"kind": "harbor", "add": False}, keep, kept),
                   option({"kind": "harbor", "add": True}, words(N_("Make it {sum}"), sum=total + 2),
                          answered(N_("You added 2: {sum}."), sum=total + 2))]
    elif state.pending[0] is Choice.TV_STATION:
        amount = catalog.establishments[asker].amount if asker in catalog.establishments else 0
        prompt = words(N_("{card}: take {amount} coins from whom?"), card=card(asker), amount=amount)
        options = [option(wire, words(N_("{name} ({coins})"), name=seat(wire["target"]),
                                      coins=state.players[wire["target"]].coins),
                          answered(N_("You took coins from {name}."), name=seat(wire["target"])))
                   for wire in wires if wire.get("kind") == "tv_station"]
    else:
        prompt = words(N_("{card}: swap one card with another player, or not."), card=card(asker))
        # the swap itself: the seat's `choices` of this kind, picked part by part
        swapped = answered(N_("Swapped: {give} for {take}."), give={"field": "give"},
                           take={"field": "take"})
        options = [option({"kind": "business_center"}, words(N_("Swap")), swapped, fields=[
            {"key": "with", "kind": "seat", "label": words(N_("Swap with"))},
            {"key": "give", "kind": "card", "label": words(N_("I give"))},
            {"key": "take", "kind": "card", "label": words(N_("I take")), "differs": "give"}])
            ] if any("with" in wire for wire in wires) else []
        options.append(option({"kind": "business_center", "decline": True}, words(N_("No swap")),
                              answered(N_("No swap: you keep your cards."))))
    for each in options:
        if each["move"] == default:
            each["default"] = True
    return {"card": asker, "prompt": prompt, "options": options, "timed": True}


def option(move: Json, label: Json, done: Json, fields: list[Json] | None = None) -> Json:
    """An answer: the wire move it sends, its label, the words that confirm it (`answered`)."""
    found: Json = {"move": move, "label": label, "done": done}
    if fields:
        found["fields"] = fields
    return found
