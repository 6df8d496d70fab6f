"""The rulesets a table can play, registered by name (DESIGN.md: a new variant is a module
with its own state and moves; the hall picks it up from here).

Every ruleset has the same entry points, so the hall service runs any of them the same way:
start a table, deal it (shuffles are the service's inputs), decide, evolve, and the wire and
journal forms of moves and events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.rules.coop import codec as coop_codec
from companion.rules.coop import engine as coop
from companion.rules.coop import evolve as coop_evolve
from companion.rules.coop.assessor import ASSESSOR_COINS
from companion.rules.coop.state import RULESET as COOP
from companion.rules.coop.state import SEATS as COOP_SEATS
from companion.rules.coop.state import check_assessor_coins, new_coop_table
from companion.rules.errors import RuleError
from companion.rules.machi_koro import codec, engine, evolve, options
from companion.rules.machi_koro.catalog import Catalog
from companion.rules.machi_koro.state import new_table

Shuffle = coop.Shuffle


class BadOptions(RuleError):
    code = "rule/bad_options"


@dataclass(frozen=True)
class Ruleset:
    """One ruleset's entry points; states, moves and events are the ruleset's own types."""

    name: str
    seats: Callable[[Catalog], tuple[int, int]]
    options: Callable[[Mapping[str, Any]], dict[str, Any]]  # checked set-up options
    start: Callable[[Catalog, tuple[str, ...], Mapping[str, Any]], Any]
    deal: Callable[[Any, Catalog, Shuffle | None], list[Any]]
    decide: Callable[[Any, int, Any, Catalog, Shuffle | None], list[Any]]
    evolve_all: Callable[[Any, Iterable[Any]], Any]
    default_move: Callable[[Any], Any]
    legal_moves: Callable[[Any, int, Catalog], list[Any]]
    adjust: Callable[[Any, int, int, str], list[Any]]
    parse_move: Callable[[Any, tuple[int, ...]], Any]
    wire_move: Callable[[Any], dict[str, Any]]
    encode_event: Callable[[Any], tuple[str, dict[str, Any]]]
    decode_event: Callable[[str, dict[str, Any]], Any]
    event_kinds: frozenset[str]


def _no_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    if raw:
        raise BadOptions(f"this ruleset takes no options, not {sorted(raw)!r}")
    return {}


def _coop_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(raw) - {"assessor_coins"})
    if unknown:
        raise BadOptions(f"the co-op game's only option is assessor_coins, not {unknown!r}")
    return {"assessor_coins": check_assessor_coins(raw.get("assessor_coins", ASSESSOR_COINS))}


BASE = Ruleset(
    name="machi-koro",
    seats=lambda catalog: (catalog.players_min, catalog.players_max),
    options=_no_options,
    start=lambda catalog, names, _options: new_table(catalog, names),
    deal=lambda _state, _catalog, _shuffle: [],
    decide=lambda state, seat, move, catalog, _shuffle: engine.decide(state, seat, move, catalog),
    evolve_all=evolve.evolve_all,
    default_move=engine.default_move,
    legal_moves=options.legal_moves,
    adjust=engine.adjust,
    parse_move=codec.parse_move,
    wire_move=codec.wire_move,
    encode_event=codec.encode_event,
    decode_event=codec.decode_event,
    event_kinds=frozenset(codec.EVENT_TYPES),
)

COOP_RULESET = Ruleset(
    name=COOP,
    seats=lambda _catalog: (COOP_SEATS, COOP_SEATS),
    options=_coop_options,
    start=lambda catalog, names, opts: new_coop_table(
        catalog, names, stake=opts.get("assessor_coins", ASSESSOR_COINS)),
    deal=coop.deal,
    decide=coop.decide,
    evolve_all=coop_evolve.evolve_all,
    default_move=coop.default_move,
    legal_moves=coop.legal_moves,
    adjust=coop.adjust,
    parse_move=coop_codec.parse_move,
    wire_move=coop_codec.wire_move,
    encode_event=codec.encode_event,
    decode_event=coop_codec.decode_event,
    event_kinds=frozenset(coop_codec.EVENT_KINDS),
)

REGISTRY: Mapping[str, Ruleset] = {rules.name: rules for rules in (BASE, COOP_RULESET)}


def ruleset(name: str) -> Ruleset:
    """The ruleset registered as `name`; RuleError for an unknown name."""
    try:
        return REGISTRY[name]
    except KeyError:
        known = ", ".join(REGISTRY)
        raise BadOptions(f"unknown ruleset {name!r} (known: {known})") from None
