"""The rulesets a table can play, by name: the one place a new game registers
(docs/architecture.md, "A new game"). The hall, the web layer and printing reach a game's rules
only through `ruleset(name)`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.catan_big.ruleset import CATAN_BIG
from companion.rules.coop.ruleset import COOP
from companion.rules.legacy.ruleset import LEGACY
from companion.rules.machi_koro.catalog import Catalog, load_catalog
from companion.rules.machi_koro.ruleset import MACHI_KORO, BadOptions

__all__ = ["REGISTRY", "AnyRuleset", "BadOptions", "Catalog", "catalog", "names", "read_schedule",
           "production_for", "ruleset", "schedule_json", "seconds_for"]
from companion.rules.ruleset import Ruleset

# The event's turn times (RULES.md 21), served here for the hall's clock: no game in them.
from companion.rules.schedule import production_for, read_schedule, schedule_json, seconds_for

AnyRuleset = Ruleset[Any, Any, Any]

REGISTRY: Mapping[str, AnyRuleset] = {rules.name: rules for rules in (MACHI_KORO, COOP, CATAN_BIG, LEGACY)}


def ruleset(name: str) -> AnyRuleset:
    """The ruleset registered as `name`; BadOptions (a RuleError) for an unknown name."""
    try:
        return REGISTRY[name]
    except (KeyError, TypeError):
        known = ", ".join(REGISTRY)
        raise BadOptions(f"unknown ruleset {name!r} (known: {known})") from None


def names() -> tuple[str, ...]:
    return tuple(REGISTRY)


def catalog(*card_sets: str) -> Catalog:
    """The catalog of these card sets (the base set by default), checked on load and loaded
    once: a hall holds one per set of card sets its tables play."""
    return load_catalog(*card_sets)
