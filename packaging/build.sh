#!/usr/bin/env bash
# Build the desktop bundle with PyInstaller: dist/ndd-desktop/ (one folder holding both the
# ndd-desktop window and the ndd command), plus on Linux a share/ tree with the desktop
# entry, AppStream metadata and icons, and a .tar.gz of the whole folder.
#
#   bash packaging/build.sh
#
# Linux and macOS; on Windows run the pyinstaller line below by hand (docs/install.md).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash packaging/setup.sh --package
VERSION="$(.venv/bin/python -c 'import ndd_desktop; print(ndd_desktop.__version__)')"

printf '\033[1m==> %s\033[0m\n' "PyInstaller: packaging/ndd-desktop.spec (a few minutes)"
.venv/bin/pyinstaller --noconfirm --clean --log-level WARN \
    --distpath dist --workpath build/pyinstaller packaging/ndd-desktop.spec

OUT=dist/ndd-desktop
if [[ "$(uname -s)" == Linux ]]; then
    APP_ID=org.ndd_desktop.NddDesktop
    install -Dm644 "packaging/$APP_ID.desktop" "$OUT/share/applications/$APP_ID.desktop"
    install -Dm644 "packaging/$APP_ID.metainfo.xml" "$OUT/share/metainfo/$APP_ID.metainfo.xml"
    for png in resources/icons/ndd-desktop-*.png; do
        size="${png##*-}"; size="${size%.png}"
        install -Dm644 "$png" "$OUT/share/icons/hicolor/${size}x${size}/apps/$APP_ID.png"
    done
    install -Dm644 resources/icons/ndd-desktop.svg "$OUT/share/icons/hicolor/scalable/apps/$APP_ID.svg"
    archive="dist/ndd-desktop-$VERSION-linux-$(uname -m).tar.gz"
    tar -C dist -czf "$archive" ndd-desktop
    printf '\033[1m==> %s\033[0m\n' "Built $OUT/ and $archive ($(du -sh "$OUT" | cut -f1) unpacked)"
else
    printf '\033[1m==> %s\033[0m\n' "Built $OUT/"
fi
