#!/usr/bin/env bash
# The Windows installer under Wine: a silent per-user install (/S), the
# installed cairn.exe answers --version, the Start-menu entry and the
# uninstall registration exist, and the uninstaller (/S) removes them.
# Usage: dist/test/wine-install.sh [setup.exe] [version]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/dist/test/wine.sh"
version=${2:-$(sed -n 's/.*"productVersion": *"\([^"]*\)".*/\1/p' "$root/wails.json")}
setup=${1:-$root/build/dist/cairn-$version-windows-amd64-setup.exe}
passed=0 failed=0
ok() { echo "PASS $1"; passed=$((passed + 1)); }
ko() { echo "FAIL $1"; failed=$((failed + 1)); }
users=$WINEPREFIX/drive_c/users
key='HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\CairnCairn'
t0=$(date +%s)

find_installed() { find "$users" -path '*/AppData/Local/Programs/Cairn/cairn.exe' 2>/dev/null | head -n1; }
if [ -n "$(find_installed)" ]; then # a leftover of an interrupted run
  wine "$(dirname "$(find_installed)")/uninstall.exe" /S || true
  sleep 3
fi

if wine "$setup" /S; then ok "installer /S exited 0"; else ko "installer /S exited $?"; fi
exe=$(find_installed)
if [ -n "$exe" ]; then ok "installed per user: ${exe#"$WINEPREFIX/"}"; else ko "no cairn.exe under %LocalAppData%\\Programs\\Cairn"; fi
if [ -n "$exe" ]; then
  v=$(wine "$exe" --version 2>/dev/null | tr -d '\r' || true)
  [[ "$v" == "cairn $version "* ]] && ok "installed cairn.exe --version: $v" || ko "installed --version said: $v"
fi
lnk=$(find "$users" -path '*/Start Menu/Programs/Cairn.lnk' 2>/dev/null | head -n1)
[ -n "$lnk" ] && ok "Start-menu entry: ${lnk#"$WINEPREFIX/"}" || ko "no Start-menu entry"
wine reg query "$key" /v QuietUninstallString >/dev/null 2>&1 && ok "uninstaller registered for the user (HKCU)" || ko "no uninstall entry in HKCU"

if [ -n "$exe" ]; then
  dir=$(dirname "$exe")
  wine "$dir/uninstall.exe" /S || true
  # NSIS's uninstaller copies itself to %TEMP% and runs from there.
  for _ in $(seq 1 60); do [ -e "$dir" ] || break; sleep 0.5; done
  [ ! -e "$dir" ] && ok "uninstaller removed the install folder" || ko "install folder left: $(ls "$dir")"
  lnk=$(find "$users" -path '*/Start Menu/Programs/Cairn.lnk' 2>/dev/null | head -n1)
  [ -z "$lnk" ] && ok "uninstaller removed the Start-menu entry" || ko "Start-menu entry left"
  wine reg query "$key" >/dev/null 2>&1 && ko "uninstall entry left in HKCU" || ok "uninstall entry removed"
fi
echo "wine-install: $passed passed, $failed failed ($(($(date +%s) - t0)) s)"
[ "$failed" -eq 0 ]
