"""STYLE.md 1: the rules core imports nothing of Flask, SQL, sockets, randomness or clocks."""

import ast
from pathlib import Path

import companion.rules

FORBIDDEN = {"flask", "flask_socketio", "socketio", "engineio", "sqlite3", "random", "time",
             "datetime", "secrets", "os", "socket", "threading"}


def imports(path: Path) -> list[tuple[ast.Import | ast.ImportFrom, list[str]]]:
    """Each import of a file with the modules it names (`from x import y` names x)."""
    found: list[tuple[ast.Import | ast.ImportFrom, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.append((node, [alias.name for alias in node.names]))
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node, [node.module]))
    return found


def test_rules_core_imports_nothing_impure():
    """The rules, and the plain shapes of paper they stand on (`companion/paper.py`)."""
    folder = Path(companion.rules.__file__).parent
    paths = [*folder.rglob("*.py"), folder.parent / "paper.py"]
    offenders = [f"{path.name}: {n}" for path in paths for _, names in imports(path)
                 for n in names if n.split(".")[0] in FORBIDDEN]
    assert offenders == []


# The one door (issue 11): the hall, the web layer and printing reach a game's rules only
# through the registry and the interface it serves (and the rules' shared error vocabulary).
DOOR = {"companion.rules.registry", "companion.rules.ruleset", "companion.rules.errors",
        "companion.rules.paper"}  # the plain words of paper, no game in them
# (their shapes, `companion/paper.py`, stand outside the rules: printing draws them too)


def imported_rules_modules(folder: Path) -> list[str]:
    found = []
    for path in (folder.rglob("*.py") if folder.is_dir() else [folder]):
        for node, modules in imports(path):
            if isinstance(node, ast.ImportFrom) and node.module == "companion.rules":  # `import x`
                modules = [f"companion.rules.{alias.name}" for alias in node.names]
            found += [f"{path.relative_to(folder.parent)}: {m}" for m in modules
                      if m.startswith("companion.rules") and m not in DOOR]
    return found


def test_hall_web_and_printing_reach_the_rules_only_through_the_registry():
    package = Path(companion.rules.__file__).parent.parent
    offenders = [found for layer in ("hall", "web", "printing")
                 for found in imported_rules_modules(package / layer)]
    assert offenders == []


def test_the_cli_and_the_benchmarks_reach_the_rules_only_through_the_registry():
    """Issue 28: `companion resolve` finds a scenario's resolver by its ruleset in the registry
    (`Scenarios`); the benchmarks and their random games start, play and view a table through
    the `Ruleset` door as the hall does (bench/simulate.py): no module of a game, and no module
    of the rules re-exporting a game's parts (`engine_parts` was one)."""
    package = Path(companion.rules.__file__).parent.parent
    offenders = [*imported_rules_modules(package / "cli.py"),
                 *imported_rules_modules(package / "bench")]
    assert offenders == []


GAMES = sorted(path.name for path in Path(companion.rules.__file__).parent.iterdir()
               if (path / "ruleset.py").exists())


def test_the_door_imports_no_game():
    """Issue 28: the `Ruleset` door and its capabilities name no game's parts (Machi Koro's
    catalog was in its signatures): every game reaches it, not it a game."""
    door = Path(companion.rules.__file__).parent / "ruleset.py"
    found = [m for _, modules in imports(door) for m in modules if m.startswith("companion.rules.")]
    assert GAMES == ["catan_big", "coop", "legacy", "machi_koro"]
    assert not [m for m in found if m.split(".")[2] in GAMES]


def test_the_registry_imports_of_each_game_only_its_ruleset():
    """Issue 28: the registry registers each game's ruleset and re-exports no game's parts
    (a scenario's resolver is its ruleset's; the benchmarks play through the door)."""
    registry = Path(companion.rules.__file__).parent / "registry.py"
    found = [m for _, modules in imports(registry) for m in modules
             if m.startswith("companion.rules.") and m.split(".")[2] in GAMES]
    assert found and all(m == f"companion.rules.{m.split('.')[2]}.ruleset" for m in found), found


def test_the_web_layer_does_not_import_the_server():
    """Issue 28: the server imports the app; the pages take the laptop's addresses from
    `companion/addresses.py`, not from the server (an import circle, broken by a late import)."""
    web = Path(companion.rules.__file__).parent.parent / "web"
    offenders = [f"{path.name}: {m}" for path in web.rglob("*.py") for _, modules in imports(path)
                 for m in modules if m == "companion.server"]
    assert offenders == []


# Which optional capability (companion/rules/ruleset.py) each registered ruleset has: adding
# or dropping one changes what the hall does at its tables, so it is a deliberate change here.
CAPABILITIES = {
    "machi-koro": ["CardSets", "Dealt", "Turns", "SeatRolls", "HallRolled", "TimedChoices",
                   "Scenarios"],
    "machi-koro-coop": ["Dealt", "Turns", "SeatRolls", "HallRolled", "TimedChoices"],
    "catan-big": ["SharedTurn", "Scenarios"],
    "legacy": ["Turns", "SeatRolls", "HallRolled", "TimedChoices", "Series"],
}


def test_each_registered_ruleset_has_the_capabilities_listed():
    from companion.rules.registry import REGISTRY
    from companion.rules.ruleset import capabilities

    assert {name: list(capabilities(rules)) for name, rules in REGISTRY.items()} == CAPABILITIES


def test_a_capability_has_no_default_a_game_could_forget_to_override():
    """Issue 28: no stub. Each method a capability declares is abstract, so a game that takes the
    capability says what it does, and a game without it does not have it at all (the hall asks
    `isinstance`); the core `Ruleset` keeps defaults only where every game shares them."""
    from companion.rules.ruleset import CAPABILITIES

    for capability in CAPABILITIES:
        methods = {name for name, value in vars(capability).items()
                   if callable(value) and not name.startswith("_")}
        assert methods and methods <= capability.__abstractmethods__, capability.__name__


def test_no_ruleset_keeps_a_stub_of_a_capability_it_lacks():
    """Issue 28: a game without a capability has none of its methods (Catan's `deal` returning
    [] and `dice_for` returning 0 were such stubs): the hall never calls them, so they would
    only say what the game does not do."""
    from companion.rules.registry import REGISTRY
    from companion.rules.ruleset import CAPABILITIES

    stubs = [f"{name}.{member}" for name, rules in REGISTRY.items() for capability in CAPABILITIES
             if not isinstance(rules, capability)
             for member in capability.__abstractmethods__ if hasattr(rules, member)]
    assert stubs == []
