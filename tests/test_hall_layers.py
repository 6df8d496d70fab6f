"""The hall's layers (issue 28): `HallService` is a facade over the workers, and the workers
take the hall's state (`hall/state.py`), never the service back. Imports are read from the
source (ast), so those under TYPE_CHECKING and inside functions count too."""

import ast
from pathlib import Path

import companion.hall

HALL = Path(companion.hall.__file__).parent
FACADE = {"service", "__init__"}  # the facade and the package that exports it


def hall_imports(path: Path) -> set[str]:
    """The hall modules a file imports, by their short names (`companion.hall.play` -> play)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module == "companion.hall":
            names = [f"companion.hall.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            if name == "companion.hall":
                found.add("__init__")
            elif name.startswith("companion.hall."):
                short = name.split(".")[2]
                # a name the package exports (`from companion.hall import HallService`) comes
                # from its __init__, which imports the service
                found.add(short if (HALL / f"{short}.py").exists() else "__init__")
    return found


def graph() -> dict[str, set[str]]:
    return {path.stem: hall_imports(path) for path in sorted(HALL.glob("*.py"))}


def reachable(start: str, edges: dict[str, set[str]]) -> set[str]:
    seen: set[str] = set()
    todo = list(edges[start])
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(edges.get(name, ()))
    return seen


def test_hall_layers_no_worker_imports_the_service():
    edges = graph()
    offenders = sorted(name for name, imported in edges.items()
                       if name not in FACADE and imported & FACADE)
    assert offenders == []


def test_hall_layers_reads_an_import_of_the_package_as_one_of_the_service(tmp_path):
    """`from companion.hall import HallService` imports the service through the package."""
    source = tmp_path / "worker.py"
    source.write_text("from companion.hall import HallService\nimport companion.hall\n",
                      encoding="utf-8")
    assert hall_imports(source) == {"__init__"}


def test_hall_layers_the_state_stands_below_the_workers():
    """The state imports no worker, and nothing it stands on imports it back: no circle."""
    edges = graph()
    assert "state" in edges
    below = reachable("state", edges)
    assert "state" not in below
    assert below.isdisjoint({"play", "hall_roll", "clock", "series", "registry", "tournament",
                             "night", "demo", "printables", "service"}), below


def test_hall_layers_reachable_finds_a_circle():
    """The check above can fail: a made-up circle is found."""
    assert "a" in reachable("a", {"a": {"b"}, "b": {"a"}})


def methods(path: Path, class_name: str) -> set[str]:
    """The names a class of a hall module defines: its methods and the attributes its
    methods assign to `self`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            for part in ast.walk(node):
                if isinstance(part, ast.FunctionDef):
                    found.add(part.name)
                elif (isinstance(part, ast.Attribute) and isinstance(part.value, ast.Name)
                      and part.value.id == "self" and isinstance(part.ctx, ast.Store)):
                    found.add(part.attr)
    return found


def test_hall_layers_no_worker_calls_the_facade():
    """A worker's `hall` is the state: it names nothing only the facade has (`hall.set_status`
    is registry.set_status's to call). mypy would say so too, but CI's mypy does not read the
    hall, so this reads the source."""
    facade_only = methods(HALL / "service.py", "HallService") - methods(HALL / "state.py", "HallState")
    assert {"set_status", "create_table", "hall_roll", "move"} <= facade_only
    offenders = sorted(
        f"{path.stem}: hall.{node.attr}"
        for path in sorted(HALL.glob("*.py")) if path.stem not in FACADE
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
        and node.value.id == "hall" and node.attr in facade_only)
    assert offenders == []
