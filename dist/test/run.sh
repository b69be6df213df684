#!/usr/bin/env bash
# `make test-dist`: every test of the release artefacts in build/dist, each
# timed (the times go to build/dist-test/times.txt). Wine's prefix is kept in
# build/wine between runs; the first run makes it.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
times=build/dist-test/times.txt
mkdir -p build/dist-test
: >"$times"
status=0
step() {
  local name=$1 t0 rc
  shift
  echo "== test-dist: $name"
  t0=$(date +%s)
  "$@"
  rc=$?
  echo "$name: $(($(date +%s) - t0)) s (exit $rc)" | tee -a "$times"
  [ "$rc" -eq 0 ] || status=1
}
step wine-prefix bash -c 'source dist/test/wine.sh'
step wine-go dist/test/wine-go.sh
step wine-cli dist/test/wine-cli.sh
step wine-serve-e2e env E2E_WINE=1 E2E_OUT="$root/build/dist-test/wine-e2e" frontend/e2e/run.sh "$root/dist/test/cairn-wine"
step wine-install dist/test/wine-install.sh
step deb dist/test/deb.sh
dist/test/wineserver.sh -k 2>/dev/null || true
cat "$times"
exit $status
