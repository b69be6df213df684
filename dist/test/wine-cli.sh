#!/usr/bin/env bash
# The Windows cairn.exe under Wine against the Linux build/bin/cairn: the same
# documents (PDF, DOCX, Chinese and Japanese, a CRLF text file) imported from a
# folder and into a project whose paths have a drive letter, backslashes,
# spaces and non-ASCII names; docs, search, ask --offline, mindmap, check,
# export and import-project must give the same results on both; a zip bomb
# fails alone. Usage: dist/test/wine-cli.sh [cairn.exe] [linux cairn]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/dist/test/wine.sh"
exe=${1:-$root/build/dist/cairn.exe}
lin=${2:-$root/build/bin/cairn}
shared=$root/../shared/docs
[ -d "$shared/real" ] || { echo "wine-cli: $shared/real not found" >&2; exit 2; }

work=$(mktemp -d -t cairn-wine-cli-XXXXXX)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { echo "PASS $1"; passed=$((passed + 1)); }
ko() { echo "FAIL $1"; failed=$((failed + 1)); }
pick() { node "$root/dist/test/pick.mjs" "$1"; }
# same NAME FILE: the Linux and Windows outputs NAME.l and NAME.w are equal.
same() {
  if cmp -s "$work/$1.l" "$work/$1.w" && [ -s "$work/$1.l" ]; then ok "$1: same on Windows and Linux"
  else ko "$1 differs (Linux <, Windows >)"; diff "$work/$1.l" "$work/$1.w" | head -n 20 || true; fi
}

in="$work/Dokumente ü 文件"
mkdir -p "$in"
files=(en-report-dmca-summary.pdf zh-civil-code.docx en-word-tables-merged.docx zh-manual-car-4p.pdf ja-vertical-poem.pdf)
for f in "${files[@]}"; do cp "$shared/real/$f" "$in/"; done
printf 'Cairn CRLF note\r\n\r\nThe Vienna Convention on the Law of Treaties applies to treaties between states.\r\nIt was adopted in 1969.\r\n' >"$in/crlf note.txt"
files+=("crlf note.txt")
bomb=$shared/bad/zip-bomb-overlap-4GiB.docx
[ -f "$bomb" ] || bomb=$shared/bad/zip-bomb-1GiB.docx

PL="$work/linux/Projekt ü 文档"
PW=$(winpath "$work/windows/Projekt ü 文档")
L() { "$lin" "$@" 2>>"$work/linux.log"; }
W() { wine "$exe" "$@" 2>>"$work/windows.log"; }
export CAIRN_CACHE_DIR=$work/cache-linux  # Linux only: Windows uses %LocalAppData%\cairn

t0=$(date +%s)
lpaths=() wpaths=()
for f in "${files[@]}"; do lpaths+=("$in/$f"); wpaths+=("$(winpath "$in/$f")"); done
L import --json --project "$PL" "${lpaths[@]}" | pick import >"$work/import.l" || true
( unset CAIRN_CACHE_DIR; W import --json --project "$PW" "${wpaths[@]}" ) | pick import >"$work/import.w" || true
echo "import: $(($(date +%s) - t0)) s for both"
same import
if [ "$(grep -c '"ok"' "$work/import.w")" -eq "${#files[@]}" ]; then ok "all ${#files[@]} files imported on Windows"; else ko "Windows import: $(cat "$work/import.w")"; fi

# A zip bomb fails alone, with the same code on both.
L import --json --project "$PL" "$bomb" | pick import >"$work/bomb.l" || true
W import --json --project "$PW" "$(winpath "$bomb")" | pick import >"$work/bomb.w" || true
same bomb
grep -q '"failed"' "$work/bomb.w" && ok "zip bomb failed on Windows: $(cat "$work/bomb.w")" || ko "zip bomb on Windows: $(cat "$work/bomb.w")"

L docs --json --project "$PL" | pick docs >"$work/docs.l"
W docs --json --project "$PW" | pick docs >"$work/docs.w"
same docs
n_ok=$(grep -c '"ok"' "$work/docs.w" || true)
[ "$n_ok" -eq "${#files[@]}" ] && ok "docs: ${#files[@]} ok beside the failed bomb" || ko "docs: $n_ok ok"

L search --json --k 5 --project "$PL" "circumvention of copyright protection" | pick search >"$work/search-en.l"
W search --json --k 5 --project "$PW" "circumvention of copyright protection" | pick search >"$work/search-en.w"
same search-en
L search --json --k 5 --project "$PL" "合同 民事" | pick search >"$work/search-zh.l"
W search --json --k 5 --project "$PW" "合同 民事" | pick search >"$work/search-zh.w"
same search-zh

L ask --offline --json --project "$PL" "What does section 1201 prohibit?" | pick ask >"$work/ask.l"
W ask --offline --json --project "$PW" "What does section 1201 prohibit?" | pick ask >"$work/ask.w"
same ask
grep -q '^\[false,' "$work/ask.w" && ok "ask --offline answered with citations" || ko "ask: $(cut -c1-200 "$work/ask.w")"

L mindmap --project "$PL" --doc 1 --format md >"$work/mindmap.l"
W mindmap --project "$PW" --doc 1 --format md >"$work/mindmap.w"
same mindmap
L mindmap --project "$PL" --fused --format json >"$work/mindmap-fused.l"
W mindmap --project "$PW" --fused --format json >"$work/mindmap-fused.w"
same mindmap-fused

crlf_id=$(grep '"crlf note.txt"' "$work/docs.w" | sed 's/^\[\([0-9]*\),.*/\1/')
L text --project "$PL" "$crlf_id" >"$work/text-crlf.l"
W text --project "$PW" "$crlf_id" >"$work/text-crlf.w"
same text-crlf
if grep -q $'\r' "$work/text-crlf.w"; then ko "CRLF text kept carriage returns"; else ok "CRLF text imported without carriage returns"; fi

if L check --project "$PL" >"$work/check.l" && W check --project "$PW" >"$work/check.w"; then ok "check passes on Linux and Windows"; else ko "check: $(tail -n 5 "$work/check.l" "$work/check.w")"; fi

# Backup and restore, to and from paths with spaces and non-ASCII names.
if W export --project "$PW" "$(winpath "$work/Sicherung ü.zip")" >/dev/null &&
  W import-project "$(winpath "$work/Sicherung ü.zip")" "$(winpath "$work/wiederhergestellt 文档")" >/dev/null; then
  W docs --json --project "$(winpath "$work/wiederhergestellt 文档")" | pick docs >"$work/restored.w"
  cp "$work/docs.w" "$work/restored.l"
  same restored
  W check --project "$(winpath "$work/wiederhergestellt 文档")" >/dev/null && ok "restored project checks" || ko "restored project check"
else
  ko "export / import-project on Windows: $(tail -n 3 "$work/windows.log")"
fi

# OCR is optional: without tesseract on the Windows PATH (Wine's has none), a
# scanned PDF is needs_ocr and the message says how to install it on Windows.
W import --json --project "$PW" "$(winpath "$shared/real/en-scanned-jbig2-xerox.pdf")" >"$work/ocr.w" || true
if grep -q '"needs_ocr"' "$work/ocr.w" && grep -q 'UB-Mannheim' "$work/ocr.w"; then ok "scanned PDF without tesseract: needs_ocr, with the Windows install hint"
else ko "scanned PDF on Windows: $(cut -c1-300 "$work/ocr.w")"; fi

# The writer locks are LockFileEx locks between processes: a second import
# waits for the first and says who holds it.
W import --project "$PW" "$(winpath "$in/${files[0]}")" >/dev/null 2>&1 &
W import --json --project "$PW" "$(winpath "$in/${files[1]}")" >/dev/null 2>&1 || true
wait || true
W check --project "$PW" >/dev/null && ok "two concurrent imports leave a sound project" || ko "check after concurrent imports"

cache=$(find "$WINEPREFIX/drive_c/users" -maxdepth 4 -path '*/AppData/Local/cairn' -type d | head -n1)
[ -n "$cache" ] && echo "note: the PDF engine's cache is in %LocalAppData%\\cairn ($cache)"
echo "wine-cli: $passed passed, $failed failed ($(($(date +%s) - t0)) s)"
[ "$failed" -eq 0 ] || { echo "--- Windows stderr ---"; tail -n 30 "$work/windows.log"; exit 1; }
