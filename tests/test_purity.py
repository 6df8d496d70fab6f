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
    """Issue 28: `companion resolve` finds a scenario's resolver by its ruleset in the registry,
    and the benchmarks take the base game's engine parts they time from it."""
    package = Path(companion.rules.__file__).parent.parent
    offenders = [found for part in ("cli.py", "bench")
                 for found in imported_rules_modules(package / part)]
    assert offenders == []
