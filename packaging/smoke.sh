#!/usr/bin/env bash
# Smoke test of the desktop bundle (opt-in, takes minutes): build it, then from the bundle
# alone ask both programs for their version, scan and export the demo collection headless,
# and run the window's self-test (offscreen: open, scan and show the demo).
#
#   bash packaging/smoke.sh            # build, then check
#   bash packaging/smoke.sh --no-build # check an existing dist/ndd-desktop/
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPO="$(pwd)"

[[ "${1:-}" == --no-build ]] || bash packaging/build.sh

BUNDLE="$REPO/dist/ndd-desktop"
DEMO="$BUNDLE/_internal/resources/demo"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"  # away from the checkout: only the bundle's own copy of the code may be used
export QT_QPA_PLATFORM=offscreen

step() { printf '\033[1m==> smoke: %s\033[0m\n' "$*"; }
want_version="$(cd "$REPO" && .venv/bin/python -c 'import ndd_desktop; print(ndd_desktop.__version__)')"

step "ndd --version"
out="$(env -u PYTHONPATH "$BUNDLE/ndd" --version)"
echo "$out"
[[ "$out" == *"$want_version"* ]] || { echo "smoke: expected version $want_version" >&2; exit 1; }

step "ndd-desktop --version"
out="$(env -u PYTHONPATH "$BUNDLE/ndd-desktop" --version 2>&1)"
echo "$out"
[[ "$out" == *"$want_version"* ]] || { echo "smoke: expected version $want_version" >&2; exit 1; }

step "bundled files"
for f in resources/icons/ndd-desktop.svg resources/demo/README.md \
         ndd_desktop/store/migrations/env.py ndd_desktop/store/migrations/versions/0001_initial.py; do
    [[ -f "$BUNDLE/_internal/$f" ]] || { echo "smoke: $f is missing from the bundle" >&2; exit 1; }
done
echo "resources and migrations present"
# the scan's C loops (ndd_desktop/core/_native.c), built where the bundle is built with a compiler
compgen -G "$BUNDLE/_internal/ndd_desktop/core/_native*" > /dev/null \
    || { echo "smoke: the C loops (ndd_desktop/core/_native) are missing from the bundle" >&2; exit 1; }
echo "the scan's C loops present"

step "headless scan of the bundled demo collection"
env -u PYTHONPATH "$BUNDLE/ndd" scan "$DEMO/incoming" --reference "$DEMO/holdings" --db "$WORK/demo.ndd.sqlite"
env -u PYTHONPATH "$BUNDLE/ndd" clusters --db "$WORK/demo.ndd.sqlite" > "$WORK/clusters.csv"
head -20 "$WORK/clusters.csv"
for needle in harwick-mill-report.pdf "Harwick Mill Report.docx" council-minutes-1998-04.odt flood-warning.eml; do
    grep -qF "$needle" "$WORK/clusters.csv" || { echo "smoke: $needle is in no group" >&2; exit 1; }
done

step "export of the demo's deduplicated set"
env -u PYTHONPATH "$BUNDLE/ndd" export --db "$WORK/demo.ndd.sqlite" --to "$WORK/export"
for f in _ndd_reports/documents.csv _ndd_reports/report.html; do
    [[ -f "$WORK/export/$f" ]] || { echo "smoke: the export wrote no $f" >&2; exit 1; }
done

step "the window's self-test (offscreen)"
env -u PYTHONPATH QT_QPA_PLATFORM=offscreen "$BUNDLE/ndd-desktop" --self-test

step "passed: the bundle runs on its own"
