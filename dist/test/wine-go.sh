#!/usr/bin/env bash
# The Windows-only Go tests, cross-compiled and run under Wine: the reader's
# job object and memory cap, and LockFileEx writer locks between processes.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/dist/test/wine.sh"
cd "$root"
t0=$(date +%s)
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -c -o build/wine/ingest.test.exe ./backend/ingest
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -c -o build/wine/project.test.exe ./backend/project
t1=$(date +%s)
status=0
(cd backend/ingest && wine "$root/build/wine/ingest.test.exe" -test.run '^TestWindows' -test.v) || status=1
(cd backend/project && wine "$root/build/wine/project.test.exe" -test.run '^TestWindows' -test.v) || status=1
echo "wine-go: compiled in $((t1 - t0)) s, ran in $(($(date +%s) - t1)) s"
exit $status
