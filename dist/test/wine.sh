# Sourced by the dist tests: a Wine prefix in build/wine/prefix, made on
# first use (wineboot, ~15-60 s) and kept. Defines `wine` and `winpath`.
# Needs Debian's wine64 (make deps installs it).
root=${root:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
export WINEPREFIX=$root/build/wine/prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
WINE=$(command -v wine64 || command -v wine || echo /usr/lib/wine/wine64)
[ -x "$WINE" ] || { echo "wine64 not found: make deps installs it" >&2; exit 2; }
wine() { "$WINE" "$@"; }
# winpath /unix/path: the Windows path Wine gives it (Z: is /).
winpath() { printf 'Z:%s' "${1//\//\\}"; }

if [ ! -f "$WINEPREFIX/.cairn-ready-2" ]; then
  t0=$(date +%s)
  mkdir -p "$WINEPREFIX"
  "$WINE" wineboot -i >/dev/null 2>&1 || true
  # Go programs need bcryptprimitives.dll!ProcessPrng, which Wine 8.0 lacks:
  # dist/wineshim writes a DLL forwarding it to RtlGenRandom.
  (cd "$root" && go run ./dist/wineshim "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll")
  # The installer starts Microsoft's WebView2 bootstrapper (a download) when
  # the runtime is missing; WebView2 cannot run under Wine, so mark it
  # present and let the installer skip it.
  "$WINE" reg add 'HKCU\Software\Microsoft\EdgeUpdate\Clients\{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}' /v pv /d 0.0.0.0 /f >/dev/null 2>&1
  # Wine 8 says Windows 7 by default; Wails' installer wants Windows 10.
  "$WINE" winecfg -v win10 >/dev/null 2>&1
  "$root/dist/test/wineserver.sh" -w
  touch "$WINEPREFIX/.cairn-ready-2"
  echo "wine: prefix made in $(($(date +%s) - t0)) s ($WINEPREFIX)"
fi
