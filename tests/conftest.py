"""Shared fixtures: where the example scenarios are, how to run the real `companion` command and how it
refuses, the HallService alone on a fresh SQLite file (`hall`), and the hall app on one with its
organizer's API (the server tests share one app fixture, so a test module changes the app's
settings by overriding `app_config`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from pg_server import postgres_server  # noqa: F401 - one PostgreSQL server for the session

from companion.hall import HallService
from companion.journal import SqliteJournal
from companion.web import create_app, hall_service

# Property tests judge behaviour, never speed: on a loaded CI machine a slow example must not fail
# the run (timing is the benchmarks' business). Tests that set their own health checks add
# too_slow themselves.
settings.register_profile("companion", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("companion")

REPO = Path(__file__).resolve().parents[1]
# The repository's own example scenarios (docs/scenarios.md), checked on every run.
SCENARIOS = REPO / "examples" / "scenarios"
# An optional extra check: where a folder of more scenarios of the same form exists (the product
# owner's, by default ../shared beside the checkout, or COMPANION_SHARED), its `scenarios/` are
# checked too. Without it the suite needs nothing outside the repository.
SHARED = Path(os.environ.get("COMPANION_SHARED", REPO.parent / "shared"))


def scenario_files(pattern: str = "**/*.json", under: str = "") -> list[tuple[str, Path]]:
    """(test id, file) of every example scenario matching `pattern` in `under`: the repository's,
    then those of SHARED/scenarios (and of SHARED/harbor-scenarios, the repository's `harbor/`)
    that the repository does not carry byte for byte."""
    own = sorted((SCENARIOS / under).glob(pattern))
    found = [(str(path.relative_to(SCENARIOS).with_suffix("")), path) for path in own]
    extras = [(SHARED / "scenarios" / under, Path(under))]
    if under == "harbor" or (not under and pattern.startswith("**")):
        extras.append((SHARED / "harbor-scenarios", Path("harbor")))
    for extra_root, into in extras:
        for path in sorted(extra_root.glob(pattern.removeprefix("**/") if into.name == "harbor"
                                           else pattern)):
            relative = into / path.relative_to(extra_root)
            mine = SCENARIOS / relative
            if not (mine.is_file() and mine.read_bytes() == path.read_bytes()):
                found.append(("shared/" + str(relative.with_suffix("")), path))
    return found


def run_companion(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The installed command line, in a subprocess, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], input=stdin, capture_output=True,
        text=True, encoding="utf-8", timeout=60, cwd=REPO,
    )


def assert_one_line_refusal(done: subprocess.CompletedProcess[str], message: str) -> None:
    """How the command refuses (never a traceback): exit status 2, nothing on standard output,
    one line on standard error that says `message`."""
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr


def resolve_json(scenario: dict) -> subprocess.CompletedProcess[str]:
    return run_companion("resolve", "-", stdin=json.dumps(scenario))


@pytest.fixture(scope="session")
def example_scenarios() -> list[Path]:
    """The Machi Koro and Tax Assessor examples (the top folder of examples/scenarios)."""
    return [path for _, path in scenario_files("*.json")]


@pytest.fixture
def hall_db(tmp_path) -> Path:
    """The SQLite file of the `hall` fixture, for a test that opens it again (a restart)."""
    return tmp_path / "hall.db"


@pytest.fixture
def hall(hall_db) -> Iterator[HallService]:
    """The HallService on a SQLite journal of its own (no web app), closed when the test ends."""
    with SqliteJournal(hall_db) as journal:
        yield HallService(journal)


@pytest.fixture
def app_config() -> dict:
    """Settings the `app` fixture adds to its own; a test module overrides this to change them."""
    return {}


@pytest.fixture
def app(tmp_path, app_config):
    """The hall app on a SQLite file of its own; its journal is closed when the test ends."""
    app = create_app({"DATABASE": str(tmp_path / "hall.db"), "TESTING": True, **app_config})
    yield app
    hall_service(app).journal.close()


@pytest.fixture
def http(app):
    return app.test_client()


@pytest.fixture
def key(app):
    """The organizer's key, for `api`."""
    return hall_service(app).organizer_key


def api(http, key, method, path, body=None, **kwargs):
    """An organizer API call with `key` as its bearer (None: without one)."""
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return getattr(http, method)(path, json=body, headers=headers, **kwargs)
