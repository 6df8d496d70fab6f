"""The rulesets a table can play, by name: the one place a new game registers
(docs/architecture.md, "A new game"). The hall, the web layer, printing and the CLI reach a
game's rules only through `ruleset(name)` and the capabilities of companion/rules/ruleset.py;
this module imports each game's `ruleset` module and nothing else of a game
(tests/test_purity.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.catan_big.ruleset import CATAN_BIG
from companion.rules.coop.ruleset import COOP
from companion.rules.errors import ScenarioError, one_line
from companion.rules.legacy.ruleset import LEGACY
from companion.rules.machi_koro.ruleset import MACHI_KORO
from companion.rules.ruleset import BadOptions, Ruleset, Scenarios

# The event's turn times (RULES.md 21), served here for the hall's clock: no game in them.
from companion.rules.schedule import production_for, read_schedule, schedule_json, seconds_for

__all__ = ["REGISTRY", "AnyRuleset", "BadOptions", "ScenarioError", "names", "one_line",
           "production_for", "read_schedule", "resolve_scenario", "ruleset", "schedule_json",
           "seconds_for"]

AnyRuleset = Ruleset[Any, Any, Any]

REGISTRY: Mapping[str, AnyRuleset] = {rules.name: rules for rules in (MACHI_KORO, COOP, CATAN_BIG, LEGACY)}

# `companion resolve` (SCENARIOS.md): the ruleset a scenario names resolves it when it has
# `Scenarios`; the base game's resolver takes every other scenario (co-op, Legacy: the table
# form) and names a bad ruleset.
DEFAULT_SCENARIOS: Scenarios = MACHI_KORO


def ruleset(name: str) -> AnyRuleset:
    """The ruleset registered as `name`; BadOptions (a RuleError) for an unknown name."""
    try:
        return REGISTRY[name]
    except (KeyError, TypeError):
        known = ", ".join(REGISTRY)
        raise BadOptions(f"unknown ruleset {name!r} (known: {known})") from None


def names() -> tuple[str, ...]:
    return tuple(REGISTRY)


def resolve_scenario(scenario: Any) -> Any:
    """The outcome of one scenario (its JSON value); ScenarioError, a RuleError, when refused."""
    named = scenario.get("ruleset") if isinstance(scenario, dict) else None
    rules = REGISTRY.get(named) if isinstance(named, str) else None
    resolver = rules if isinstance(rules, Scenarios) else DEFAULT_SCENARIOS
    return resolver.resolve_scenario(scenario)
