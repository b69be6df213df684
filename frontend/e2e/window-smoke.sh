#!/usr/bin/env bash
# Real-window smoke test of the desktop build: run it on a fresh Sample
# project under an X server (make smoke wraps this in xvfb-run), wait for the
# window and for the sample import, take a screenshot, and check that a page
# was rendered (a blank window has a handful of colours; a page, hundreds).
# Usage: xvfb-run -a -s "-screen 0 1280x860x24" frontend/e2e/window-smoke.sh build/bin/cairn-desktop
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
bin=${1:?usage: window-smoke.sh path/to/cairn-desktop}
out=${E2E_OUT:-$here/out}
wait_import=${SMOKE_IMPORT_TIMEOUT:-240}
[ -n "${DISPLAY:-}" ] || { echo "smoke: no DISPLAY; run under xvfb-run" >&2; exit 2; }
mkdir -p "$out"

work=$(mktemp -d -t cairn-smoke-XXXXXX)
pid=""
cleanup() {
  status=$?
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  # WebKit's helper processes can still write their shader cache into the
  # work folder for a moment after the app has gone: try again, and never
  # let the clean-up decide the outcome of the checks.
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    rm -rf "$work" 2>/dev/null && break
    sleep 0.5
  done
  exit "$status"
}
trap cleanup EXIT

passed=0 failed=0
ok() { echo "PASS $1"; passed=$((passed + 1)); }
ko() { echo "FAIL $1"; failed=$((failed + 1)); }

export CAIRN_HOME="$work/home" XDG_CACHE_HOME="$work/cache" XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config"
now_ms() { date +%s%3N; }
t_launch=$(now_ms)
"$bin" >"$work/app.log" 2>&1 &
pid=$!

# Launch → window mapped (title "Cairn") → interactive: the page renames the
# window "Cairn — <project>" once the Library has loaded its documents
# (App.tsx), so the title change marks the moment the UI answers.
win="" t_window="" t_ready=""
for _ in $(seq 1 600); do
  # (xdotool matches case-insensitively: GTK's leader window "cairn-desktop" must not count)
  if [ -z "$win" ]; then
    win=$(xdotool search --name '^Cairn$|^Cairn — ' 2>/dev/null | head -n1 || true)
    [ -n "$win" ] && t_window=$(now_ms)
  fi
  if [ -n "$win" ]; then
    ready=$(xdotool search --name '^Cairn — ' 2>/dev/null | head -n1 || true)
    if [ -n "$ready" ]; then
      t_ready=$(now_ms)
      title=$(xdotool getwindowname "$ready" 2>/dev/null || true)
      break
    fi
  fi
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
if [ -n "$win" ]; then ok "window 'Cairn' opened ($((t_window - t_launch)) ms after launch)"; else ko "window 'Cairn' opened"; fi
if [ -n "$t_ready" ]; then
  ok "window interactive: Library loaded, title '$title' ($((t_ready - t_launch)) ms after launch)"
  # Merged into metrics.json (the browser e2e writes its numbers there too).
  node -e '
    const fs = require("fs"); const [file, win, ready] = process.argv.slice(1);
    let m = {}; try { m = JSON.parse(fs.readFileSync(file, "utf8")); } catch {}
    m.desktop_launch = { launch_to_window_ms: +win, launch_to_interactive_ms: +ready, measured_at: new Date().toISOString(),
      how: "window-smoke.sh: xdotool polls every 50 ms from launch until a window named Cairn exists, then until the page retitles it \"Cairn — <project>\" once the Library has loaded (App.tsx); fresh CAIRN_HOME, Xvfb" };
    fs.writeFileSync(file, JSON.stringify(m, null, 2) + "\n");' "$out/metrics.json" "$((t_window - t_launch))" "$((t_ready - t_launch))"
else
  ko "window interactive (the title never named the project)"
fi

# The Sample project is imported in the background on first start.
marker="$CAIRN_HOME/projects/Sample/.cairn-sample-imported"
for _ in $(seq 1 $((wait_import * 2))); do
  [ -f "$marker" ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.5
done
if [ -f "$marker" ]; then ok "sample documents imported"; else ko "sample documents imported (no $marker after ${wait_import}s)"; fi
sleep 2 # let the Library re-render after the last event

shot="$out/window.png"
if [ -n "$win" ]; then
  import -window root "$shot"
  colours=$(convert "$shot" -format '%k' info:)
  if [ "$colours" -ge 200 ]; then ok "window rendered ($colours colours, $shot)"; else ko "window rendered (only $colours colours, $shot)"; fi
else
  ko "window rendered (no window)"
fi

if kill -0 "$pid" 2>/dev/null; then ok "app still running"; else ko "app still running"; fi
if [ "$failed" -ne 0 ]; then
  echo "--- app output ---"
  tail -n 40 "$work/app.log"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
