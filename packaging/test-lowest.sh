#!/usr/bin/env bash
# Run the non-GUI tests against the lowest versions pyproject.toml allows (CI's second step).
#
#   bash packaging/test-lowest.sh              # build .venv-lowest, then pytest on it
#   bash packaging/test-lowest.sh -x -k store  # arguments go to pytest
#
# The floors in pyproject.toml ("numpy>=2.0", ...) are promises: this resolves every direct
# dependency to its lowest allowed version (uv's --resolution lowest-direct; indirect ones
# to their newest), installs exactly that into a separate virtual environment and runs
# tests/core, tests/store, tests/pipeline, tests/cli and the export's report and bag tests
# there (about 1 minute of CPU, 20 s to install from uv's cache). A failure
# means a floor is too low: raise it to the version that works. The GUI tests stay on the
# main run (.venv); the Qt libraries come from packaging/setup.sh, which that run calls.
# Environment: PYTHON (interpreter, default: the one .venv was built from, else python3),
# NDD_LOWEST_VENV (default: .venv-lowest in the checkout). The exit status is pytest's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

VENV="${NDD_LOWEST_VENV:-$PWD/.venv-lowest}"
if [[ -z "${PYTHON:-}" ]]; then
    if [[ -x .venv/bin/python ]]; then
        PYTHON="$(.venv/bin/python -c 'import sys; print(sys._base_executable)')"
    else
        PYTHON=python3
    fi
fi
say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

if [[ ! -x "$VENV/bin/uv" ]]; then
    say "Creating $VENV with uv"
    "$PYTHON" -m venv "$VENV"
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check uv
fi
UV=("$VENV/bin/uv" pip)
LOCK="$VENV/lowest-requirements.txt"
say "Resolving the lowest direct dependency versions"
"${UV[@]}" compile -q pyproject.toml --extra test --resolution lowest-direct \
    --python "$VENV/bin/python" --no-header -o "$LOCK"
# sync installs exactly the list (and removes anything else, except uv itself, which it
# keeps as the tool that runs it); then the checkout, editable, without its dependencies.
"${UV[@]}" sync -q --python "$VENV/bin/python" "$LOCK"
"${UV[@]}" install -q --python "$VENV/bin/python" uv
"${UV[@]}" install -q --python "$VENV/bin/python" --no-deps -e .
grep -E '^(numpy|pyside6-essentials|sqlalchemy|rapidfuzz|psutil|jinja2)==' "$LOCK" | tr '\n' ' '; echo

if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
    export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
fi
export PYTHONDONTWRITEBYTECODE=1
say "Running the non-GUI tests on the lowest versions"
exec "$VENV/bin/python" -m pytest -n "${NDD_TEST_PROCESSES:-auto}" -p no:cacheprovider tests/core tests/store tests/pipeline tests/cli \
    tests/export/test_reports.py tests/export/test_report_html.py tests/export/test_bag.py "$@"
