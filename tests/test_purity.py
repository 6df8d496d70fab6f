"""STYLE.md 1: the rules core imports nothing of Flask, SQL, sockets, randomness or clocks."""

import ast
from pathlib import Path

import companion.rules

FORBIDDEN = {"flask", "flask_socketio", "socketio", "engineio", "sqlite3", "random", "time",
             "datetime", "secrets", "os", "socket", "threading"}


def test_rules_core_imports_nothing_impure():
    folder = Path(companion.rules.__file__).parent
    offenders = []
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert offenders == []
