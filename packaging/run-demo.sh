#!/usr/bin/env bash
# Install ndd-desktop in .venv (see packaging/setup.sh) and open it on the demo collection.
#
#   bash packaging/run-demo.sh
#
# With no display (an SSH session, a container) it says so and runs the same scan with the
# `ndd` command instead, printing the commands so that you can repeat them.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash packaging/setup.sh

if [[ "$(uname -s)" == Linux && -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
    # a fresh folder of this run's own (kept, so that the printed commands can be repeated)
    db="$(mktemp -d "${TMPDIR:-/tmp}/ndd-demo.XXXXXX")/demo.ndd.sqlite"
    cat <<MSG

No display found (neither DISPLAY nor WAYLAND_DISPLAY is set), so the window cannot open.
The same scan of the demo collection on the command line:

  .venv/bin/ndd scan resources/demo/incoming --reference resources/demo/holdings --db $db
  .venv/bin/ndd clusters --db $db
  .venv/bin/ndd pairs --db $db

Running them now.

MSG
    .venv/bin/ndd scan resources/demo/incoming --reference resources/demo/holdings --db "$db"
    echo
    .venv/bin/ndd clusters --db "$db"
    echo
    .venv/bin/ndd pairs --db "$db"
    echo
    echo "The planted groups are described in resources/demo/README.md."
    echo "On a machine with a screen: .venv/bin/ndd-desktop --demo"
    exit 0
fi

printf '\033[1m==> %s\033[0m\n' "Starting: .venv/bin/ndd-desktop --demo"
exec .venv/bin/ndd-desktop --demo
