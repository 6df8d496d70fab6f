"""Shared fixtures: where ../shared is, and how to run the real `companion` command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("COMPANION_SHARED", REPO.parent / "shared"))


def run_companion(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The installed command line, in a subprocess, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], input=stdin, capture_output=True,
        text=True, encoding="utf-8", timeout=60, cwd=REPO,
    )


def resolve_json(scenario: dict) -> subprocess.CompletedProcess[str]:
    return run_companion("resolve", "-", stdin=json.dumps(scenario))


@pytest.fixture(scope="session")
def shared_scenarios() -> list[Path]:
    folder = SHARED / "scenarios"
    assert folder.is_dir(), f"../shared/scenarios not found at {folder} (set COMPANION_SHARED)"
    return sorted(folder.glob("*.json"))
