"""The wheel an organizer installs (docs/install.md), as they install it: built from the checkout,
installed with constraints.txt into a fresh virtual environment that sees nothing of the
checkout, and `companion serve --demo` from it answers the pages and /healthz, then stops.

COMPANION_WHEEL_PYTHON names the Python of that environment (scripts/test.sh sets it to 3.13,
the newest an organizer downloads); by default the one running the tests."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path

import pytest
from serverproc import REPO, ServerProcess

pytestmark = pytest.mark.slow

PYTHON = os.environ.get("COMPANION_WHEEL_PYTHON", sys.executable)


def outside_env() -> dict[str, str]:
    """This process's environment without what would put the checkout on the path."""
    return {name: value for name, value in os.environ.items()
            if name not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV")}


def run(*command: str | Path, cwd: Path) -> str:
    done = subprocess.run([str(part) for part in command], cwd=cwd, env=outside_env(),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check", "-q",
        "-w", dist, REPO, cwd=dist)
    (built,) = dist.glob("companion-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    """A fresh virtual environment with the wheel installed, as docs/install.md does it."""
    where = tmp_path_factory.mktemp("organizer")
    run(PYTHON, "-m", "venv", where / "venv", cwd=where)
    scripts = where / "venv" / ("Scripts" if os.name == "nt" else "bin")
    run(scripts / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check",
        "-c", REPO / "constraints.txt", wheel, cwd=where)
    return scripts


def test_wheel_carries_its_licences_and_the_pages(wheel):
    """PEP 639 metadata, the licence files, and the top-level folders the server reads."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (metadata,) = [name for name in names if name.endswith(".dist-info/METADATA")]
        text = archive.read(metadata).decode()
    assert "License-Expression: MIT" in text
    assert "License-File: LICENSE" in text and "Requires-Python: >=3.11" in text
    for needed in ("companion/templates/", "companion/static/vendor/socket.io/socket.io.min.js",
                   "companion/printables/fonts/DejaVuSans.ttf", "companion/rules/machi_koro/catalogs/"):
        assert any(name.startswith(needed) for name in names), needed
    assert any(name.endswith("licenses/LICENSE") for name in names), names[-10:]


def test_wheel_installed_alone_serves_the_demo(venv, tmp_path):
    """The installed `companion` imports from the environment, not the checkout, and its
    `serve --demo` answers the join page, a vendored script and /healthz with 200."""
    where = run(venv / "python", "-c", "import companion; print(companion.__file__)", cwd=tmp_path)
    assert Path(where.strip()).is_relative_to(venv.parent), where
    assert REPO not in Path(where.strip()).parents
    with ServerProcess(tmp_path / "hall.db", program=(str(venv / "companion"),), cwd=tmp_path,
                       env=outside_env(), extra_args=("--demo",),
                       log_path=tmp_path / "serve.log") as server:
        server.start(timeout=90)
        for path in ("/", "/healthz", "/static/vendor/socket.io/socket.io.min.js"):
            with urllib.request.urlopen(server.url + path, timeout=10) as answer:
                assert answer.status == 200, path
                assert answer.read(), path
        assert "organizer:" in server.log_tail(), server.log_tail()
