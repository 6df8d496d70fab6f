"""The rulesets a table can play, by name: the one place a new game registers
(docs/architecture.md, "A new game"). The hall, the web layer and printing reach a game's rules
only through `ruleset(name)`."""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any

from companion.rules.catan_big import scenario as catan_big_scenario
from companion.rules.catan_big.ruleset import CATAN_BIG
from companion.rules.coop import views as coop_views
from companion.rules.coop.ruleset import COOP
from companion.rules.coop.scenario import one_line
from companion.rules.legacy.ruleset import LEGACY
from companion.rules.machi_koro import scenario as machi_koro_scenario
from companion.rules.machi_koro import views as base_views
from companion.rules.machi_koro.catalog import Catalog, load_catalog
from companion.rules.machi_koro.engine import deal_supply, decide
from companion.rules.machi_koro.evolve import evolve, evolve_all
from companion.rules.machi_koro.facts import Fact
from companion.rules.machi_koro.moves import AddTwo, Build, EndTurn, Move, Reroll, Roll
from companion.rules.machi_koro.options import legal_moves
from companion.rules.machi_koro.ruleset import MACHI_KORO
from companion.rules.machi_koro.scenario import ScenarioError
from companion.rules.machi_koro.state import Phase, TableState, new_table

__all__ = ["REGISTRY", "AnyRuleset", "BadOptions", "Catalog", "ScenarioError", "catalog", "names",
           "one_line", "production_for", "read_schedule", "resolve_scenario", "ruleset", "schedule_json",
           "seconds_for",
           # The benchmark's parts (companion/bench/): it times the base game's engine itself and
           # the seat views' build lists, below the `Ruleset` door, on random games of its own.
           "AddTwo", "Build", "EndTurn", "Fact", "Move", "Phase", "Reroll", "Roll", "TableState",
           "base_views", "coop_views", "deal_supply", "decide", "evolve", "evolve_all",
           "legal_moves", "load_catalog", "new_table"]
from companion.rules.ruleset import BadOptions, Ruleset

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


# `companion resolve` (SCENARIOS.md): a scenario's resolver by its `ruleset`; the Machi Koro
# resolver takes every other scenario (the base game, co-op, Legacy) and names a bad ruleset.
# Looked up in its module at each call (a test may replace it there).
SCENARIO_MODULES: Mapping[str, ModuleType] = {CATAN_BIG.name: catan_big_scenario}


def resolve_scenario(scenario: Any) -> Any:
    """The outcome of one scenario (its JSON value); ScenarioError, a RuleError, when refused."""
    named = scenario.get("ruleset") if isinstance(scenario, dict) else None
    module = SCENARIO_MODULES.get(named, machi_koro_scenario) if isinstance(named, str) \
        else machi_koro_scenario
    return module.resolve(scenario)
