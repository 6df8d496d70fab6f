#!/usr/bin/env bash
# Installs everything the tests need on a fresh machine, then runs every check:
# ruff, mypy --strict on the rules core, the whole pytest suite (with tests/test_wheel.py: the
# built wheel installed into a fresh virtual environment and served), and the rules, journal
# and hall tests once more on Python 3.13 when this machine has it.
# The Python packages are the pinned ones of constraints.txt (pyproject.toml keeps the ranges).
set -euo pipefail
cd "$(dirname "$0")/.."

# System parts the tests use for real: Chromium (pages), poppler-utils (PDF pages to images),
# DejaVu fonts (Hebrew glyphs in the browser), PostgreSQL's server binaries and Redis (several
# server processes), nginx and HAProxy (the proxies docs/scaling.md gives, run in front of two),
# Node.js and npm (the hall bench's reference server, whose socket.io the bench installs from
# the npm registry into ~/.cache/companion/bench-node); and Debian's venv module to make .venv.
# Nothing is started here: the tests run their own PostgreSQL (tests/pg_server.py), Redis and
# proxies on free ports.
need=()
[ -x .venv/bin/python ] || python3 -c 'import ensurepip' >/dev/null 2>&1 || need+=(python3-venv)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || need+=(postgresql)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || need+=(nginx-light)
[ -x /usr/sbin/haproxy ] || command -v haproxy >/dev/null 2>&1 || need+=(haproxy)
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
.venv/bin/pip install -q --disable-pip-version-check -c constraints.txt -e '.[test]'

# Python 3.13, the newest an organizer downloads: COMPANION_PY313, else python3.13 on the path,
# else pyenv's (this machine's image carries it there). Empty when there is none.
py313=""
for candidate in "${COMPANION_PY313:-}" "$(command -v python3.13 || true)" \
                 $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.13*/bin/python3.13 2>/dev/null | sort -V); do
  if [ -n "$candidate" ] && "$candidate" -c 'import sys; assert sys.version_info[:2] == (3, 13)' 2>/dev/null; then
    py313="$candidate"
    break
  fi
done

.venv/bin/ruff check companion tests
.venv/bin/mypy
mkdir -p artifacts
# The wheel's smoke test (tests/test_wheel.py) installs into a fresh environment of the newest Python.
COMPANION_WHEEL_PYTHON="${py313:-$PWD/.venv/bin/python}" .venv/bin/pytest "$@"

# The rules, journal and hall tests on Python 3.13 (not the browser or server ones: those run on
# the Python above). Only for the whole run: with arguments, the run is the tests they name.
if [ $# -gt 0 ]; then
  exit 0
fi
if [ -z "$py313" ]; then
  echo "scripts/test.sh: no Python 3.13 found (set COMPANION_PY313): its run of the rules, journal and hall tests is skipped"
  exit 0
fi
started=$SECONDS
[ -x .venv-3.13/bin/python ] || "$py313" -m venv .venv-3.13
.venv-3.13/bin/pip install -q --disable-pip-version-check -c constraints.txt -e '.[test]'
rules=(activation adjust assessor build_lists catalog catalog_schema codec coop coop_options
       coop_properties coop_setup engine evolve frozen options properties purity scenarios
       scenarios_edge variants catan_big_rules catan_big_ruleset catan_big_properties
       catan_big_scenarios legacy_campaign legacy_catalog legacy_properties legacy_ruleset
       legacy_rulings tournament_scoring tournament_seating tournament_semis harbor_rules)
journal=(journal journal_postgres golden_journal)
hall=(hall_clock hall_roll_isolation hall_roll_undo catan_big_hall legacy_hall legacy_hall_malformed
      legacy_hall_processes legacy_hall_undo tournament_hall join_codes expire_isolation harbor_hall
      table_locks)
files=()
for name in "${rules[@]}" "${journal[@]}" "${hall[@]}"; do files+=("tests/test_$name.py"); done
.venv-3.13/bin/python -m pytest -q -p no:cacheprovider "${files[@]}"
echo "scripts/test.sh: Python 3.13 ($("$py313" -V 2>&1)): rules, journal and hall tests passed in $((SECONDS - started)) s"
