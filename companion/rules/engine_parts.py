"""The base game's engine parts that the benchmarks and their random games time below the
`Ruleset` door (companion/bench/): its moves, state, engine and seat views' build lists. Only
the benchmarks import this module (tests/test_purity.py); the hall, the web layer, printing and
the CLI reach a game through companion/rules/registry.py."""

from __future__ import annotations

from companion.rules.coop import views as coop_views
from companion.rules.machi_koro import views as base_views
from companion.rules.machi_koro.catalog import Catalog, load_catalog
from companion.rules.machi_koro.engine import deal_supply, decide
from companion.rules.machi_koro.evolve import evolve, evolve_all
from companion.rules.machi_koro.facts import Fact
from companion.rules.machi_koro.moves import AddTwo, Build, EndTurn, Move, Reroll, Roll
from companion.rules.machi_koro.options import legal_moves
from companion.rules.machi_koro.state import Phase, TableState, new_table

__all__ = ["AddTwo", "Build", "Catalog", "EndTurn", "Fact", "Move", "Phase", "Reroll", "Roll",
           "TableState", "base_views", "coop_views", "deal_supply", "decide", "evolve",
           "evolve_all", "legal_moves", "load_catalog", "new_table"]
