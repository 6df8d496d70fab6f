"""Issue 11 (items 1 and 7): printing takes a plain model that the hall builds. `companion/printing`
imports nothing of the hall and nothing of the rules: a game's setup-sheet words, score columns
and figures reach it as values (`companion/hall/printables.py` copies them from the ruleset)."""

import ast
import subprocess
import sys
from pathlib import Path

import companion.printing

FORBIDDEN = ("companion.hall", "companion.rules", "companion.web", "companion.journal")
"""The layers above printing (and the rules beside it): printing draws values, nothing more."""


def imported(path: Path) -> list[str]:
    """Every module a file imports, relative imports resolved against its package."""
    package = "companion.printing"
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = (package.rsplit(".", node.level - 1)[0] if node.level else "")
            module = ".".join(part for part in (base, node.module or "") if part)
            names += [module] + [f"{module}.{alias.name}" for alias in node.names]
    return names


def test_printing_imports_nothing_of_the_hall_or_the_rules():
    folder = Path(companion.printing.__file__).parent
    offenders = [f"{path.name}: {name}"
                 for path in sorted(folder.rglob("*.py"))
                 for name in imported(path)
                 if name.startswith(FORBIDDEN)]
    assert offenders == []


def test_printing_loads_without_the_hall_or_the_rules():
    """Importing every printing module, in a fresh interpreter, loads no module of the hall or
    the rules (what the text scan could miss: an import made by a module printing imports)."""
    folder = Path(companion.printing.__file__).parent
    modules = ["companion.printing" + ("" if p.stem == "__init__" else f".{p.stem}")
               for p in sorted(folder.glob("*.py"))]
    probe = (f"import importlib, sys\nfor m in {modules!r}: importlib.import_module(m)\n"
             f"print(sorted(n for n in sys.modules if n.startswith({FORBIDDEN!r})))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.strip() == "[]"
