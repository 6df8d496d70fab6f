#!/usr/bin/env bash
# Installs everything the tests need on a fresh machine, then runs every check:
# ruff, mypy --strict on the rules core, and the whole pytest suite.
set -euo pipefail
cd "$(dirname "$0")/.."

# System parts the tests use for real: Chromium (pages), poppler-utils (PDF pages to images),
# DejaVu fonts (Hebrew glyphs in the browser), PostgreSQL's server binaries and Redis (several
# server processes), Node.js and npm (the hall bench's reference server, whose socket.io the
# bench installs from the npm registry into ~/.cache/companion/bench-node); and Debian's venv
# module to make .venv. Nothing is started here: the tests
# run their own PostgreSQL (tests/pg_server.py) and Redis on free ports.
need=()
[ -x .venv/bin/python ] || python3 -c 'import ensurepip' >/dev/null 2>&1 || need+=(python3-venv)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || need+=(postgresql)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v npm >/dev/null 2>&1 || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    sudo apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  fi
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install -q --disable-pip-version-check -e '.[test]'

.venv/bin/ruff check companion tests
.venv/bin/mypy
mkdir -p artifacts
.venv/bin/pytest "$@"
