#!/usr/bin/env bash
# The .deb: installs with apt (its dependencies resolve), `cairn --version`
# works, the desktop entry and icon are in place, and the installed desktop
# binary opens its window under Xvfb (frontend/e2e/window-smoke.sh). The
# package is removed afterwards. Needs root (or sudo).
# Usage: dist/test/deb.sh [cairn_VERSION_amd64.deb] [version]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
version=${2:-$(sed -n 's/.*"productVersion": *"\([^"]*\)".*/\1/p' "$root/wails.json")}
deb=$(readlink -f "${1:-$root/build/dist/cairn_${version}_amd64.deb}")
sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
passed=0 failed=0
ok() { echo "PASS $1"; passed=$((passed + 1)); }
ko() { echo "FAIL $1"; failed=$((failed + 1)); }
t0=$(date +%s)
cleanup() { $sudo env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq cairn >/dev/null 2>&1 || true; }
trap cleanup EXIT

if $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$deb" >/dev/null; then
  ok "apt install $(basename "$deb")"
else
  ko "apt install $(basename "$deb")"
fi
v=$(/usr/bin/cairn --version 2>&1 || true)
[[ "$v" == "cairn $version "* ]] && ok "cairn --version: $v" || ko "cairn --version said: $v"
[ -f /usr/share/applications/cairn.desktop ] && grep -q '^Exec=cairn$' /usr/share/applications/cairn.desktop &&
  ok "desktop entry" || ko "no desktop entry"
[ -f /usr/share/icons/hicolor/256x256/apps/cairn.png ] && ok "icon" || ko "no icon"
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate /usr/share/applications/cairn.desktop && ok "desktop entry validates" || ko "desktop-file-validate"
fi
if E2E_OUT=${E2E_OUT:-$root/build/dist-test/deb} xvfb-run -a -s "-screen 0 1280x860x24" "$root/frontend/e2e/window-smoke.sh" /usr/bin/cairn; then
  ok "the installed app opens its window (window-smoke.sh)"
else
  ko "window-smoke.sh against /usr/bin/cairn"
fi
echo "deb: $passed passed, $failed failed ($(($(date +%s) - t0)) s)"
[ "$failed" -eq 0 ]
