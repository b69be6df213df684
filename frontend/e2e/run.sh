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
[ -d "$here/node_modules/@modelcontextprotocol/sdk" ] || { echo "e2e: run 'npm install' in frontend/e2e first (@modelcontextprotocol/sdk)" >&2; exit 2; }

work=$(mktemp -d -t cairn-e2e-XXXXXX)
mkdir -p "$out" "$work/home" "$work/cache" "$work/data"
pids=()
cleanup() {
  for p in "${pids[@]}"; do
    if kill -0 "$p" 2>/dev/null; then
      kill "$p" 2>/dev/null || true
      wait "$p" 2>/dev/null || true
    fi
  done
  rm -rf "$work"
}
trap cleanup EXIT

export CAIRN_HOME="$work/home" XDG_CACHE_HOME="$work/cache" XDG_DATA_HOME="$work/data"

# The fake Ollama server (backend/llm/fakeollama): models to list and pull,
# and the answer's scripted reply (the answer prompt is the only one that
# asks to cite passages; every other call gets the fake's default reply).
fake=${FAKEOLLAMA:-}
if [ -z "$fake" ]; then
  fake="$work/fakeollama"
  (cd "$root" && go build -o "$fake" ./tools/fakeollama)
fi
cat >"$work/rules.json" <<'JSON'
[{"contains": "Cite every claim with the passage number",
  "reply": "Section 1201 of the DMCA forbids circumventing technological measures that control access to copyrighted works [1]. It also bans trafficking in tools made to circumvent them [1][2]."}]
JSON
"$fake" --rules "$work/rules.json" --pull-step 40ms >"$work/fake.log" 2>&1 &
pids+=($!)
ollama=""
for _ in $(seq 1 100); do
  ollama=$(head -n1 "$work/fake.log" | grep -oE '^http://[0-9.:]+' || true)
  [ -n "$ollama" ] && break
  sleep 0.1
done
[ -n "$ollama" ] || { echo "e2e: the fake Ollama server did not start" >&2; cat "$work/fake.log" >&2; exit 1; }

# serve PROJECT_DIR LOG [FLAGS...]: starts cairn serve, sets served_url.
served_url=""
serve() {
  local dir=$1 log=$2
  shift 2
  "$bin" serve --project "$dir" --addr 127.0.0.1:0 "$@" >"$log" 2>&1 &
  pids+=($!)
  local p=$! url=""
  for _ in $(seq 1 300); do
    url=$(grep -soE 'http://127\.0\.0\.1:[0-9]+/\?token=[A-Za-z0-9_-]+' "$log" | head -n1 || true)
    [ -n "$url" ] && break
    kill -0 "$p" 2>/dev/null || break
    sleep 0.1
  done
  served_url=$url
}

# Main flow: Ollama mode against the fake server, in the app's projects
# folder (so projects can be created, switched, renamed and deleted).
serve "$CAIRN_HOME/projects/e2e" "$work/serve.log" --ollama "$ollama"
url=$served_url
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

# Offline flow: a second serve with --offline answers with the built-in engine.
serve "$work/offline-project" "$work/serve-offline.log" --offline
url2=$served_url
if [ -z "$url2" ]; then
  echo "e2e: cairn serve --offline printed no URL" >&2
  cat "$work/serve-offline.log" >&2
  exit 1
fi
status2=0
E2E_FLOW=offline E2E_BIN="$bin" node "$here/e2e.mjs" "$url2" "$out" \
  "$root/assets/sample/en-report-dmca-summary.pdf" \
  "$root/assets/sample/zh-civil-code.docx" \
  "$root/assets/sample/en-report-tables-irs-i1040nr.pdf" || status2=$?
if [ "$status2" -ne 0 ]; then
  echo "--- cairn serve --offline output ---" >&2
  tail -n 40 "$work/serve-offline.log" >&2
fi

# MCP: the official TypeScript SDK's client spawns `cairn mcp` on the Sample
# project's documents (imported offline), calls search, ask and get_passage,
# sends bad input, and times start-up to ready (out/mcp-metrics.json).
status3=0
if "$bin" import --offline --project "$work/mcp-sample" "$root"/assets/sample/*.pdf "$root"/assets/sample/*.docx >"$work/mcp-import.log" 2>&1; then
  node "$here/mcp.mjs" "$bin" "$work/mcp-sample" "$out" || status3=$?
else
  echo "e2e: importing the Sample documents for the MCP test failed:" >&2
  tail -n 20 "$work/mcp-import.log" >&2
  status3=1
fi
[ "$status" -eq 0 ] && [ "$status2" -eq 0 ] && [ "$status3" -eq 0 ]
