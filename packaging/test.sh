#!/usr/bin/env bash
# Install everything a test run needs and run the whole test suite (CI runs exactly this).
#
#   bash packaging/test.sh              # set up .venv (see packaging/setup.sh), then pytest
#   bash packaging/test.sh -k store -x  # arguments go to pytest
#
# The suite includes the import-linter contracts (tests/test_packaging.py runs lint-imports).
# The exit status is pytest's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash packaging/setup.sh --test

# Tests never need a screen: Qt draws offscreen unless a display is really there.
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
    export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
fi
export PYTHONDONTWRITEBYTECODE=1

# On every core (pytest-xdist): most tests wait on worker processes or Qt, and a serial
# run took 250 s here against 160 s on two cores. NDD_TEST_PROCESSES=0 runs serially.
printf '\033[1m==> %s\033[0m\n' "Running the test suite: python -m pytest -n ${NDD_TEST_PROCESSES:-auto} $*"
exec .venv/bin/python -m pytest -n "${NDD_TEST_PROCESSES:-auto}" "$@"
