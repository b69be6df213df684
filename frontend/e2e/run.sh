#!/usr/bin/env bash
# End-to-end test of serve mode: starts `cairn serve` on a fresh project,
# drives headless Chromium through e2e.mjs, prints "N passed, N failed".
# Usage: frontend/e2e/run.sh [path/to/cairn]   (builds nothing itself)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${1:-$root/build/bin/cairn}
out=${E2E_OUT:-$here/out}
[ -x "$bin" ] || { echo "e2e: $bin not found: run 'make cli' first" >&2; exit 2; }
[ -d "$here/node_modules/playwright-core" ] || { echo "e2e: run 'npm install' in frontend/e2e first" >&2; exit 2; }

work=$(mktemp -d -t cairn-e2e-XXXXXX)
mkdir -p "$out" "$work/home" "$work/cache" "$work/data"
pid=""
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

export CAIRN_HOME="$work/home" XDG_CACHE_HOME="$work/cache" XDG_DATA_HOME="$work/data"
"$bin" serve --project "$work/project" --addr 127.0.0.1:0 >"$work/serve.log" 2>&1 &
pid=$!

url=""
for _ in $(seq 1 300); do
  url=$(grep -oE 'http://127\.0\.0\.1:[0-9]+/\?token=[A-Za-z0-9_-]+' "$work/serve.log" | head -n1 || true)
  [ -n "$url" ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "e2e: cairn serve printed no URL; its output:" >&2
  cat "$work/serve.log" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

status=0
node "$here/e2e.mjs" "$url" "$out" \
  "$root/assets/sample/en-report-dmca-summary.pdf" \
  "$root/assets/sample/zh-civil-code.docx" || status=$?
if [ "$status" -ne 0 ]; then
  echo "--- cairn serve output ---" >&2
  tail -n 40 "$work/serve.log" >&2
fi
exit "$status"
