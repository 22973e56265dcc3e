#!/usr/bin/env bash
# Set up a checkout of ndd-desktop: a virtual environment in .venv with the application
# installed (editable), and on Debian/Ubuntu the system libraries Qt needs.
#
#   bash packaging/setup.sh            # the application
#   bash packaging/setup.sh --test     # the application and the test tools
#   bash packaging/setup.sh --package  # the application and PyInstaller
#
# Safe to run again: it installs only what is missing, so a second run takes seconds.
# Environment: PYTHON (interpreter to build the venv from, default: the first python3.X
# >= 3.11 on PATH), NDD_VENV (default: .venv in the checkout), NDD_SKIP_APT=1 (never call
# apt-get, only report).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPO="$(pwd)"
VENV="${NDD_VENV:-$REPO/.venv}"
EXTRAS=""
for arg in "$@"; do
    case "$arg" in
        --test) EXTRAS="${EXTRAS:+$EXTRAS,}test" ;;
        --package) EXTRAS="${EXTRAS:+$EXTRAS,}package" ;;
        -h|--help) sed -n '2,12p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "setup.sh: unknown option $arg" >&2; exit 2 ;;
    esac
done

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

# The libraries that Qt's platform plugins load, as Debian 12 and Ubuntu 22.04/24.04 name
# them (apt pulls in what these depend on). Found with ldd on PySide6's
# Qt/plugins/platforms/lib{qxcb,qoffscreen}.so and Qt/lib/libQt6{Core,Gui,Widgets,XcbQpa}.so.6,
# then dpkg -S on each library file; libdbus-1-3 is loaded by QtDBus at run time (no ldd
# line). Tests (offscreen) need only the first eight; the window on X11 needs all of them.
# Keep README.md and docs/install.md in step (tests/test_packaging.py checks).
QT_APT_PACKAGES=(
    libegl1 libgl1 libglib2.0-0 libdbus-1-3 libfontconfig1 libfreetype6 libx11-6 libxkbcommon0
    libxkbcommon-x11-0 libx11-xcb1 libxcb1 libxcb-cursor0 libxcb-icccm4 libxcb-image0
    libxcb-keysyms1 libxcb-randr0 libxcb-render0 libxcb-render-util0 libxcb-shape0
    libxcb-shm0 libxcb-sync1 libxcb-util1 libxcb-xfixes0 libxcb-xkb1 fonts-dejavu-core
)

# ---------------------------------------------------------------- apt (Debian/Ubuntu only)

have_apt() { [[ "$(uname -s)" == Linux ]] && command -v apt-get >/dev/null && command -v dpkg-query >/dev/null; }

apt_missing() {  # the packages among "$@" that are not installed
    local p
    for p in "$@"; do
        dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
    done
}

APT_UPDATED=0
apt_install() {  # install "$@" as root, with sudo, or say what to run
    local cmd=()
    if [[ "$(id -u)" == 0 ]]; then
        cmd=()
    elif command -v sudo >/dev/null && { [[ -t 0 ]] || sudo -n true 2>/dev/null; }; then
        cmd=(sudo)
    fi
    if [[ "${NDD_SKIP_APT:-0}" == 1 ]] || { [[ "$(id -u)" != 0 ]] && [[ ${#cmd[@]} == 0 ]]; }; then
        echo "    not installed: $*" >&2
        echo "    install them with: sudo apt-get install $*" >&2
        return 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    if [[ $APT_UPDATED == 0 ]]; then
        "${cmd[@]}" apt-get update -qq
        APT_UPDATED=1
    fi
    say "apt-get install $*"
    if ! "${cmd[@]}" apt-get install -y -qq --no-install-recommends "$@" >/dev/null; then
        # A name this release does not know must not block the others: one at a time.
        local p failed=()
        for p in "$@"; do
            "${cmd[@]}" apt-get install -y -qq --no-install-recommends "$p" >/dev/null 2>&1 || failed+=("$p")
        done
        [[ ${#failed[@]} == 0 ]] || echo "    apt-get could not install: ${failed[*]}" >&2
    fi
}

# ---------------------------------------------------------------- Python

find_python() {
    local c
    for c in ${PYTHON:-} python3 python3.13 python3.12 python3.11; do
        if command -v "$c" >/dev/null && "$c" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            command -v "$c"
            return 0
        fi
    done
    return 1
}

PY="$(find_python)" || {
    echo "setup.sh: Python 3.11 or newer is needed (python3 --version says: $(python3 --version 2>&1))." >&2
    have_apt && echo "    on Debian/Ubuntu: sudo apt-get install python3 python3-venv" >&2
    exit 1
}

if [[ ! -x "$VENV/bin/python" ]]; then
    if ! "$PY" -c 'import ensurepip, venv' 2>/dev/null; then
        say "Python's venv module is missing: installing python3-venv"
        have_apt || { echo "setup.sh: $PY cannot create virtual environments" >&2; exit 1; }
        ver="$("$PY" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
        apt_install "python$ver-venv" || apt_install python3-venv || exit 1
    fi
    say "Creating $VENV with $PY ($("$PY" --version 2>&1))"
    "$PY" -m venv "$VENV"
fi
VPY="$VENV/bin/python"

# ---------------------------------------------------------------- C compiler

# The scan's word-sketch and verification loops are built in C where a compiler is found
# (ndd_desktop/core/_native.c: a first scan starts 0.2 s sooner than with numba's
# versions, which serve without it). The tests check both, so --test needs the compiler.
if have_apt && ! command -v cc >/dev/null; then
    say "No C compiler: installing gcc for the scan's C loops"
    apt_install gcc libc6-dev || echo "    the application will use numba's loops instead" >&2
fi
if command -v cc >/dev/null && ! "$VPY" -c 'import os, sysconfig; raise SystemExit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
    ver="$("$VPY" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
    say "Python's C headers are missing: installing python$ver-dev"
    have_apt && { apt_install "python$ver-dev" || apt_install python3-dev || true; }
fi

# Reinstall only when what pip reads or builds changed: the build files, the C loops, the
# extras asked for, whether a compiler is there.
STAMP="$VENV/.ndd-install-stamp${EXTRAS:+-${EXTRAS//,/-}}"
want="$(cat pyproject.toml setup.py ndd_desktop/core/_native.c | "$VPY" -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())') [$EXTRAS] $REPO $(command -v cc || echo no-cc)"
if [[ ! -f "$STAMP" ]] || [[ "$(cat "$STAMP")" != "$want" ]]; then
    say "Installing ndd-desktop${EXTRAS:+ with [$EXTRAS]} into $VENV (editable)"
    pip_quiet() {  # pip, minus one warning that some machines' pip.conf causes on every package
        "$VPY" -m pip "$@" 2> >(grep -v "is ignored: it is neither a file nor a directory" >&2)
    }
    pip_quiet install --quiet --upgrade pip
    pip_quiet install --quiet -e ".${EXTRAS:+[$EXTRAS]}"
    echo "$want" > "$STAMP"
else
    say "ndd-desktop${EXTRAS:+ [$EXTRAS]} already installed in $VENV"
fi

# ---------------------------------------------------------------- Qt's system libraries

qt_unresolved() {  # libraries that Qt's platform plugins need and the loader cannot find
    "$VPY" - <<'EOF' | xargs -r ldd 2>/dev/null | awk '/not found/ {print $1}' | sort -u
from pathlib import Path
import PySide6
qt = Path(PySide6.__file__).parent / "Qt"
names = ["plugins/platforms/libqxcb.so", "plugins/platforms/libqoffscreen.so"]
names += [f"lib/libQt6{m}.so.6" for m in ("Core", "Gui", "Widgets", "DBus", "XcbQpa", "Svg")]
print("\n".join(str(qt / n) for n in names if (qt / n).exists()))
EOF
}

if [[ "$(uname -s)" == Linux ]]; then
    missing_libs="$(qt_unresolved)"
    # Without any font file Qt draws no text at all (and warns about it at every start).
    if ! find /usr/share/fonts /usr/local/share/fonts -type f \( -name '*.ttf' -o -name '*.otf' \) 2>/dev/null | grep -q .; then
        missing_libs="$missing_libs fonts"
    fi
    if [[ -n "${missing_libs// /}" ]]; then
        say "Qt needs system libraries: $(echo $missing_libs)"
        if have_apt; then
            mapfile -t pkgs < <(apt_missing "${QT_APT_PACKAGES[@]}")
            [[ ${#pkgs[@]} == 0 ]] || apt_install "${pkgs[@]}" || true
            still="$(qt_unresolved)"
            if [[ -n "$still" ]]; then
                echo "setup.sh: still missing for Qt: $(echo $still) (see docs/install.md)" >&2
            fi
        else
            echo "setup.sh: not Debian/Ubuntu: install your distribution's packages for: $(echo $missing_libs)" >&2
        fi
    else
        say "Qt's system libraries are present"
    fi
fi

# ---------------------------------------------------------------- outside readers

# Programs some formats are read with (docs/ingest.md): OCR of scans, legacy .doc and .ppt.
# The application lists such files with "needs tesseract (install the 'tesseract-ocr'
# package)" when one is missing; the tests read them for real, so --test installs them
# (and the font the OCR tests draw their text pictures with).
READER_APT_PACKAGES=(tesseract-ocr tesseract-ocr-eng antiword catdoc)
if [[ ",$EXTRAS," == *,test,* && "$(uname -s)" == Linux ]]; then
    if have_apt; then
        mapfile -t pkgs < <(apt_missing "${READER_APT_PACKAGES[@]}" fonts-dejavu-core)
        if [[ ${#pkgs[@]} == 0 ]]; then
            say "OCR and legacy Office readers are present (tesseract, antiword, catppt)"
        else
            say "Installing the readers the tests use: ${pkgs[*]}"
            apt_install "${pkgs[@]}" || true
        fi
    else
        for prog in tesseract antiword catppt; do
            command -v "$prog" >/dev/null || echo "setup.sh: $prog is missing: the tests need it (docs/ingest.md)" >&2
        done
    fi
fi

# PyInstaller reads the libraries' dependencies with objdump (binutils) on Linux.
if [[ ",$EXTRAS," == *,package,* && "$(uname -s)" == Linux ]] && ! command -v objdump >/dev/null; then
    say "PyInstaller needs objdump: installing binutils"
    if have_apt; then apt_install binutils || true; else echo "setup.sh: install binutils" >&2; fi
fi

say "Ready: $VENV/bin/ndd-desktop and $VENV/bin/ndd ($("$VENV/bin/ndd" --version 2>/dev/null || echo 'ndd not runnable yet'))"
